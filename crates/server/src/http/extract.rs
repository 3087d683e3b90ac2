//! Extractors: who is calling ([`Operator`], [`Caller`]) and the request's parts parsed into
//! our types with [`ApiError`] rejections ([`PathId`], [`Params`], [`Body`]), so a handler's
//! body is its job (realworld-axum-sqlx's `extractor` module).
//!
//! Put the caller first in a handler's arguments: axum runs extractors in order, so a request
//! without credentials is 401 before its path or query is looked at.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRef, FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::app::App;
use crate::auth::same_key;
use crate::http::ApiError;
use crate::session::Session;

/// The bearer token of a request.
pub(crate) fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(str::trim).filter(|t| !t.is_empty())
}

/// An operator: the request carries an operator key (the configured one, or one made with
/// `stud operator create-key`). Holds the key's name. Rejects with 401, or 503 when the key
/// store cannot be read.
pub struct Operator(pub String);

impl Operator {
    /// The operator whose key is `given`, if any.
    async fn of(app: &App, given: &str) -> Result<Option<Operator>, ApiError> {
        if app.config.operator_key.as_deref().is_some_and(|k| same_key(k, given)) {
            return Ok(Some(Operator("config".into())));
        }
        Ok(app.store.operator_key(&stud_store::token_hash(given)).await?.map(|key| Operator(key.name)))
    }
}

impl<S> FromRequestParts<S> for Operator
where
    Arc<App>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Operator, ApiError> {
        let app = Arc::<App>::from_ref(state);
        let given = bearer(parts).ok_or(ApiError::Unauthorized)?;
        Operator::of(&app, given).await?.ok_or(ApiError::Unauthorized)
    }
}

/// Whoever may read hand histories: a session's player or an operator. Rejects with 401, or
/// 503 when the store cannot be read.
pub enum Caller {
    /// an operator key
    Operator,
    /// a session token
    Player(Arc<Session>),
}

impl<S> FromRequestParts<S> for Caller
where
    Arc<App>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Caller, ApiError> {
        let app = Arc::<App>::from_ref(state);
        let token = bearer(parts).ok_or(ApiError::Unauthorized)?;
        // Players are the common case: their session first (memory, else one lookup); only a
        // token that is no session is looked up among the operator keys.
        if let Some(session) = app.resolve_session(token).await? {
            return Ok(Caller::Player(session));
        }
        Operator::of(&app, token).await?.map(|_| Caller::Operator).ok_or(ApiError::Unauthorized)
    }
}

/// The `{id}` of a route, a UUID; 400 otherwise.
pub struct PathId(pub Uuid);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<PathId, ApiError> {
        let Path(text) =
            Path::<String>::from_request_parts(parts, state).await.map_err(|e| ApiError::BadRequest(e.body_text()))?;
        Uuid::try_parse(&text).map(PathId).map_err(|_| ApiError::BadRequest(format!("{text:?} is not a UUID")))
    }
}

/// The query string as `T`; 400 otherwise.
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Params<T>, ApiError> {
        let Query(value) = Query::<T>::from_request_parts(parts, state).await?;
        Ok(Params(value))
    }
}

/// A JSON body as `T`: 413 over the size limit, 400 when it is not a `T`.
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    Arc<App>: FromRef<S>,
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        let limit = Arc::<App>::from_ref(state).config.max_body_bytes;
        let json: Result<axum::Json<T>, JsonRejection> = axum::Json::from_request(request, state).await;
        json.map(|axum::Json(v)| Body(v)).map_err(|e| ApiError::from_json(&e, limit))
    }
}
