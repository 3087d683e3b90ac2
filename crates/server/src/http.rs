//! HTTP routes: the lobby, guest sessions, health, metrics, and the WebSocket upgrade.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRef, Request, State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::net::SocketAddr;
use stud_proto::{CreateSession, SessionCreated, TableSummary};
use tokio_util::sync::CancellationToken;

use crate::app::App;
use crate::ws::serve_socket;

pub mod error;
pub mod extract;

pub use error::ApiError;
use extract::Body;

#[derive(Clone)]
struct Ctx {
    app: Arc<App>,
    shutdown: CancellationToken,
}

impl FromRef<Ctx> for Arc<App> {
    fn from_ref(ctx: &Ctx) -> Arc<App> {
        ctx.app.clone()
    }
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
        .merge(crate::tournaments_http::routes().with_state(app.clone()))
        .merge(crate::web::routes())
        .layer(DefaultBodyLimit::max(app.config.max_body_bytes))
        .layer(middleware::from_fn_with_state(app.config.max_body_bytes, refuse_large_bodies))
        .layer(middleware::from_fn(error::with_request_id))
}

/// A body announced larger than the limit is refused from its `Content-Length`, before any
/// of it is read (a client that sent `Expect: 100-continue` never sends it). Bodies without a
/// length are cut at the limit by `DefaultBodyLimit` as they are read.
async fn refuse_large_bodies(State(limit): State<usize>, request: Request, next: Next) -> Response {
    let length = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok());
    if length.and_then(|v| v.trim().parse::<u64>().ok()).is_some_and(|n| n > u64::try_from(limit).unwrap_or(u64::MAX)) {
        return ApiError::TooLarge(limit).into_response();
    }
    next.run(request).await
}

async fn tables(State(ctx): State<Ctx>) -> Json<Vec<TableSummary>> {
    Json(ctx.app.lobby.public())
}

async fn create_session(
    State(ctx): State<Ctx>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Body<CreateSession>, ApiError>,
) -> Result<(StatusCode, Json<SessionCreated>), ApiError> {
    if let Err(wait) = ctx.app.limits.sessions.check(&peer.ip()) {
        return Err(ApiError::RateLimited(wait));
    }
    let Body(body) = body?;
    // The same rule as the schema's: 1 to 24 characters as sent, not all blank, no control
    // characters; stored trimmed.
    let length = body.name.chars().count();
    let name = body.name.trim().to_owned();
    if !(1..=24).contains(&length) || name.is_empty() || name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest("name must be 1 to 24 printable characters".into()));
    }
    let session = ctx.app.create_session(name).await?;
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
    ([("content-type", "text/plain; version=0.0.4")], {
        let mut text = ctx.app.metrics.render(ctx.app.writer.stats());
        ctx.app.journal.stats().render(&mut text);
        text
    })
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
