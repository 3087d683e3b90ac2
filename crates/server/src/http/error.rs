//! `ApiError`: every way an HTTP request fails, as a status and a JSON body that shows no
//! internals. Store and server faults are logged here with the request's id and answered
//! with a fixed message that carries only that id (the realworld-axum-sqlx `error` module).

use std::time::Duration;

use axum::Json;
use axum::extract::Request;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use stud_proto::ApiErrorBody;
use stud_store::StoreError;

use crate::app::HistoryError;

/// What a client is told when the store fails: nothing about the store.
pub const UNAVAILABLE: &str = "the service is unavailable; try again shortly";

/// What a client is told when a cluster's gateway cannot reach the tables' workers (NATS does
/// not answer): the command was not delivered.
pub const CLUSTER_UNREACHABLE: &str = "the tables cannot be reached now; nothing was done; try again shortly";

/// Errors of the HTTP API.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is not what the route takes.
    #[error("{0}")]
    BadRequest(String),
    /// No credentials, or not ones we know.
    #[error("a valid `Authorization: Bearer …` token or operator key is required")]
    Unauthorized,
    /// Credentials that do not allow this.
    #[error("{0}")]
    Forbidden(String),
    /// Nothing there (or nothing the caller may know is there).
    #[error("{0}")]
    NotFound(String),
    /// The request is valid but the resource is not in a state that takes it.
    #[error("{0}")]
    Conflict(String),
    /// The store is down or behind, or the server is stopping. Only fixed texts: a store's
    /// message is logged, never sent.
    #[error("{0}")]
    Unavailable(&'static str),
    /// Our fault. The detail is logged, never sent.
    #[error("internal error")]
    Internal(String),
    /// Too many requests from this client; retry after the duration.
    #[error("too many requests; retry in {} s", .0.as_secs() + 1)]
    RateLimited(Duration),
    /// The request body is over the size limit.
    #[error("the body is over {0} bytes")]
    TooLarge(usize),
    /// A WebSocket upgrade on a connection that cannot be upgraded.
    #[error("{0}")]
    UpgradeRequired(String),
    /// Refused by the rules of what it asks (a full tournament, registration closed, ...):
    /// 409 with this code.
    #[error("{1}")]
    Refused(&'static str, String),
    /// Too many open connections from this client address.
    #[error("at most {0} connections per address")]
    TooManyConnections(usize),
    /// The request's body did not arrive in time (`header_timeout_ms`): 408, and the
    /// connection is closed.
    #[error("the request body did not arrive in time")]
    TimedOut,
    /// A JWT that does not sign anyone in (401, with what is wrong as the code).
    #[error("{0}")]
    BadToken(crate::auth::jwt::TokenError),
}

impl ApiError {
    /// A JSON body the route cannot take: too large (413) or not the right shape (400).
    pub fn from_json(e: &JsonRejection, limit: usize) -> ApiError {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(limit)
        } else {
            ApiError::BadRequest(e.body_text())
        }
    }

    /// The HTTP status and the body's `code`.
    pub fn status(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::BadToken(e) => (StatusCode::UNAUTHORIZED, e.code()),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::Refused(code, _) => (StatusCode::CONFLICT, code),
            ApiError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            ApiError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::UpgradeRequired(_) => (StatusCode::UPGRADE_REQUIRED, "upgrade_required"),
            ApiError::TimedOut => (StatusCode::REQUEST_TIMEOUT, "request_timeout"),
            ApiError::RateLimited(_) | ApiError::TooManyConnections(_) => {
                (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
            }
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        tracing::error!(request_id = %request_id(), error = %e, "store error");
        ApiError::Unavailable(UNAVAILABLE)
    }
}

impl From<HistoryError> for ApiError {
    fn from(e: HistoryError) -> ApiError {
        match e {
            HistoryError::Behind => ApiError::Unavailable("the hand history is catching up; try again shortly"),
            HistoryError::Store(e) => e.into(),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> ApiError {
        ApiError::BadRequest(e.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status();
        let id = request_id();
        let mut message = self.to_string();
        if let ApiError::Internal(detail) = &self {
            tracing::error!(request_id = %id, error = %detail, "internal error");
        }
        if status.is_server_error() {
            // The id is what an operator greps the log for.
            message = format!("{message} (request {id})");
        }
        let mut response = (status, Json(ApiErrorBody { code: code.into(), message })).into_response();
        if let ApiError::RateLimited(wait) = self {
            response.headers_mut().insert("retry-after", HeaderValue::from(wait.as_secs() + 1));
        }
        response
    }
}

tokio::task_local! {
    static REQUEST_ID: String;
}

/// The id of the request being served (a fresh one outside a request).
pub fn request_id() -> String {
    REQUEST_ID.try_with(Clone::clone).unwrap_or_else(|_| new_request_id())
}

fn new_request_id() -> String {
    let mut id = uuid::Uuid::new_v4().simple().to_string();
    id.truncate(16);
    id
}

/// Middleware: gives every request an id (in the log lines of its errors, in the message of
/// a 5xx body, and in the `x-request-id` response header).
pub async fn with_request_id(request: Request, next: Next) -> Response {
    let id = new_request_id();
    let mut response = REQUEST_ID.scope(id.clone(), next.run(request)).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-request-id", value);
    }
    response
}

impl From<crate::tournament::Refusal> for ApiError {
    fn from(r: crate::tournament::Refusal) -> ApiError {
        match &r {
            crate::tournament::Refusal::Rules(stud_tournament::TournamentError::BadRotation(m)) => {
                ApiError::BadRequest(m.clone())
            }
            crate::tournament::Refusal::Rules(e) => ApiError::Refused(e.code(), r.to_string()),
            crate::tournament::Refusal::Balance { .. } => ApiError::Refused("insufficient_balance", r.to_string()),
            crate::tournament::Refusal::Unavailable => {
                ApiError::Unavailable("the tournament cannot record this right now; try again")
            }
            crate::tournament::Refusal::TooManyCodes => ApiError::RateLimited(std::time::Duration::from_secs(60)),
        }
    }
}
