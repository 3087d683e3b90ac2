//! HTTP routes: the lobby, guest sessions, health, metrics, and the WebSocket upgrade.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, State, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::net::SocketAddr;
use stud_proto::{ApiErrorBody, CreateSession, SessionCreated, TableSummary};
use tokio_util::sync::CancellationToken;

use crate::app::App;
use crate::ws::serve_socket;

/// Errors of the HTTP API: a status and a JSON body that reveals no internals.
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
    /// The store is down or behind.
    #[error("{0}")]
    Unavailable(String),
    /// Our fault.
    #[error("{0}")]
    Internal(String),
    /// Too many requests from this client; retry after the duration.
    #[error("too many requests; retry in {} s", .0.as_secs() + 1)]
    RateLimited(std::time::Duration),
    /// The request body is over the size limit.
    #[error("the body is over {0} bytes")]
    TooLarge(usize),
    /// Too many open connections from this client address.
    #[error("at most {0} connections per address")]
    TooManyConnections(usize),
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
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            ApiError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::RateLimited(_) | ApiError::TooManyConnections(_) => {
                (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status();
        if status.is_server_error() {
            tracing::warn!(error = %self, "API error");
        }
        (status, Json(ApiErrorBody { code: code.into(), message: self.to_string() })).into_response()
    }
}

#[derive(Clone)]
struct Ctx {
    app: Arc<App>,
    shutdown: CancellationToken,
}

/// The router.
pub fn router(app: Arc<App>, shutdown: CancellationToken) -> Router {
    Router::new()
        .route("/api/tables", get(tables))
        .route("/api/sessions", post(create_session))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/api/openapi.json", get(openapi))
        .route("/metrics", get(metrics))
        .route("/ws", get(ws))
        .with_state(Ctx { app: app.clone(), shutdown })
        .merge(crate::history::routes().with_state(app.clone()))
        .merge(crate::admin::routes().with_state(app.clone()))
        .merge(crate::web::routes())
        .layer(DefaultBodyLimit::max(app.config.max_body_bytes))
}

async fn tables(State(ctx): State<Ctx>) -> Json<Vec<TableSummary>> {
    Json(ctx.app.lobby.public())
}

async fn create_session(
    State(ctx): State<Ctx>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Json<CreateSession>, JsonRejection>,
) -> Result<(StatusCode, Json<SessionCreated>), ApiError> {
    if let Err(wait) = ctx.app.limits.sessions.check(&peer.ip()) {
        return Err(ApiError::RateLimited(wait));
    }
    let Json(body) = body.map_err(|e| ApiError::from_json(&e, ctx.app.config.max_body_bytes))?;
    let name = body.name.trim().to_owned();
    let length = name.chars().count();
    if !(1..=24).contains(&length) || name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest("name must be 1 to 24 printable characters".into()));
    }
    let session = ctx.app.create_session(name).await.map_err(|e| ApiError::Unavailable(e.to_string()))?;
    Ok((
        StatusCode::CREATED,
        Json(SessionCreated {
            token: session.token.clone(),
            player_id: session.player_id,
            session_id: session.session_id,
            name: session.name.clone(),
            balance: ctx.app.bank.balance(session.player_id),
        }),
    ))
}

async fn openapi() -> impl IntoResponse {
    ([("content-type", "application/json")], stud_proto::openapi::document_json())
}

async fn metrics(State(ctx): State<Ctx>) -> impl IntoResponse {
    ([("content-type", "text/plain; version=0.0.4")], ctx.app.metrics.render(ctx.app.writer.stats()))
}

async fn ws(State(ctx): State<Ctx>, ConnectInfo(peer): ConnectInfo<SocketAddr>, upgrade: WebSocketUpgrade) -> Response {
    let Some(slot) = ctx.app.limits.connections.acquire(peer.ip()) else {
        let max = ctx.app.config.max_connections_per_ip;
        return ApiError::TooManyConnections(max).into_response();
    };
    // Frames past 4x our limit are cut by the WebSocket layer; up to that we answer with a
    // typed `frame_too_large` error and keep the connection.
    let limit = ctx.app.config.max_frame_bytes.saturating_mul(4);
    // Small socket buffers: the default 128 KiB read buffer per connection would cost more
    // than everything else a connection holds.
    upgrade
        .read_buffer_size(2 * 1024)
        .write_buffer_size(2 * 1024)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |socket| async move {
            serve_socket(ctx.app, socket, ctx.shutdown, peer.ip()).await;
            drop(slot);
        })
}
