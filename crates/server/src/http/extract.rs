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

/// A JSON body as `T` (an object): 413 over the size limit, 400 when it is not a `T`. A number with a
/// zero fraction (`16325642.0`) is an integer, as JSON Schema counts them: the OpenAPI
/// document's `integer` fields take it.
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
        let json: Result<axum::Json<serde_json::Value>, JsonRejection> = axum::Json::from_request(request, state).await;
        let axum::Json(mut value) = json.map_err(|e| ApiError::from_json(&e, limit))?;
        // Every body is an object (serde would also read a struct from an array of its
        // fields in order, which no schema here allows).
        if !value.is_object() {
            return Err(ApiError::BadRequest("the JSON body is not the request: it must be an object".into()));
        }
        integral_numbers_as_integers(&mut value);
        serde_path_to_error::deserialize(value).map(Body).map_err(|e| ApiError::BadRequest(body_error(&e)))
    }
}

/// A body that is not a `T`, in words that name the field at fault (`levels[2].ante: invalid
/// type: string "x", expected u64`); an error of the whole body has no field to name.
fn body_error(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    if path == "." || path.is_empty() {
        format!("the JSON body is not the request: {}", e.inner())
    } else {
        format!("{path}: {}", e.inner())
    }
}

/// Turns every number of `value` that is a whole number written with a fraction (`4.0`,
/// `1e3`) into that integer, where it fits in an `i64` or a `u64`.
fn integral_numbers_as_integers(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0) {
                // Exactly representable bounds: -2^63 and 2^64 (`as` saturates, so test first).
                if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                    *value = Value::from(f as u64);
                } else if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                    *value = Value::from(f as i64);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_numbers_as_integers),
        Value::Object(fields) => fields.values_mut().for_each(integral_numbers_as_integers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

    use serde_json::json;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)] // read by the deserializer only
    struct Level {
        ante: u64,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Request {
        name: String,
        levels: Vec<Level>,
    }

    fn refusal(v: serde_json::Value) -> String {
        let e = serde_path_to_error::deserialize::<_, Request>(v).unwrap_err();
        super::body_error(&e)
    }

    #[test]
    fn a_refused_body_names_its_field() {
        let text = refusal(json!({"name": "x", "levels": [{"ante": 1}, {"ante": "two"}]}));
        assert!(text.starts_with("levels[1].ante: invalid type: string \"two\""), "{text}");
        assert!(refusal(json!({"name": 4, "levels": []})).starts_with("name: invalid type: integer"));
        let missing = refusal(json!({"name": "x"}));
        assert!(missing.starts_with("the JSON body is not the request: missing field `levels`"), "{missing}");
        let unknown = refusal(json!({"name": "x", "levels": [], "bogus": 1}));
        assert!(unknown.contains("unknown field `bogus`"), "{unknown}");
    }

    #[test]
    fn whole_numbers_with_a_fraction_are_integers() {
        let mut v = json!({"a": 16325642.0, "b": [1e3, -2.0, 0.5, 1.5e300, -0.0], "c": "4.0", "d": 7});
        super::integral_numbers_as_integers(&mut v);
        assert_eq!(v, json!({"a": 16325642, "b": [1000, -2, 0.5, 1.5e300, 0], "c": "4.0", "d": 7}));
        assert!(v["a"].is_u64() && v["b"][1].is_i64() && v["b"][2].is_f64() && v["b"][3].is_f64());
        // A float field still takes an integer.
        let f: f64 = serde_json::from_value(v["a"].clone()).unwrap();
        assert_eq!(f, 16325642.0);
    }
}
