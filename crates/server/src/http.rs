//! The HTTP router: health, metrics, the OpenAPI document and the WebSocket upgrade here, the
//! routes in the children (`sessions`, `history`, `admin`, `tournaments`, `web`), which use only
//! `error`, `extract`, `shared` and the layers below, never each other; and the server loop.

use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRef, Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::net::SocketAddr;
use tokio_util::sync::CancellationToken;

use hyper_util::rt::TokioIo;
use tungstenite::handshake::derive_accept_key;

use crate::app::App;
use crate::ws::serve_socket;

pub mod admin;
pub mod error;
pub mod extract;
pub mod history;
pub mod sessions;
pub mod shared;
pub mod tournaments;
pub mod web;

pub use error::ApiError;

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
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/api/openapi.json", get(openapi))
        .route("/metrics", get(metrics))
        .route("/ws", get(ws))
        .with_state(Ctx { app: app.clone(), shutdown })
        .merge(sessions::routes().with_state(app.clone()))
        .merge(history::routes().with_state(app.clone()))
        .merge(admin::routes().with_state(app.clone()))
        .merge(tournaments::routes().with_state(app.clone()))
        .merge(web::routes())
        .layer(DefaultBodyLimit::max(app.config.max_body_bytes))
        .layer(middleware::from_fn_with_state(
            (app.config.max_body_bytes, std::time::Duration::from_millis(app.config.header_timeout_ms)),
            bound_bodies,
        ))
        .layer(middleware::from_fn(error::with_request_id))
}

/// A body announced larger than the limit is refused from its `Content-Length`, before any
/// of it is read (a client that sent `Expect: 100-continue` never sends it). Any other body is
/// read whole before the route runs, within `wait` (`header_timeout_ms`) and up to the limit:
/// one that does not arrive in time is 408 and its connection closed, so headers followed by a
/// body that never comes hold no socket for long; one over the limit is 413.
async fn bound_bodies(
    State((limit, wait)): State<(usize, std::time::Duration)>,
    request: Request,
    next: Next,
) -> Response {
    let length = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok());
    let length = length.and_then(|v| v.trim().parse::<u64>().ok());
    if length.is_some_and(|n| n > u64::try_from(limit).unwrap_or(u64::MAX)) {
        return ApiError::TooLarge(limit).into_response();
    }
    let chunked = request.headers().contains_key(header::TRANSFER_ENCODING);
    if length.unwrap_or(0) == 0 && !chunked {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(wait, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) if std::error::Error::source(&e).is_some_and(|s| s.is::<http_body_util::LengthLimitError>()) => {
            return ApiError::TooLarge(limit).into_response();
        }
        Ok(Err(_)) => return ApiError::BadRequest("the request body could not be read".into()).into_response(),
        Err(_) => {
            let mut response = ApiError::TimedOut.into_response();
            response.headers_mut().insert(header::CONNECTION, axum::http::HeaderValue::from_static("close"));
            return response;
        }
    };
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

async fn openapi() -> impl IntoResponse {
    ([("content-type", "application/json")], stud_proto::openapi::document_json())
}

async fn metrics(State(ctx): State<Ctx>) -> impl IntoResponse {
    ([("content-type", "text/plain; version=0.0.4")], {
        // A cluster gateway shows its workers' tables too (their counters come over NATS).
        let workers = ctx.app.gateway.get().map(|g| g.table_counts()).unwrap_or_default();
        let mut text = ctx.app.metrics.render_with(ctx.app.writer.stats(), &workers);
        ctx.app.journal.stats().render(&mut text);
        render_memory(&ctx.app, &mut text);
        crate::metrics::render_process(&mut text);
        text
    })
}

/// What grows per client, so an operator sees it stay bounded.
fn render_memory(app: &App, text: &mut String) {
    use std::fmt::Write as _;
    use std::sync::atomic::Ordering::Relaxed;
    let s = &app.sessions.counts;
    let _ = write!(
        text,
        "# HELP stud_sessions_cached Sessions held in memory.\n# TYPE stud_sessions_cached gauge\nstud_sessions_cached {}\n\
         # HELP stud_accounts_held Play-money accounts held in memory.\n# TYPE stud_accounts_held gauge\nstud_accounts_held {}\n\
         # HELP stud_sessions_expired_total Sessions expired after being idle.\n# TYPE stud_sessions_expired_total counter\nstud_sessions_expired_total {}\n\
         # HELP stud_sessions_evicted_total Sessions dropped from memory (they resolve again from the store).\n# TYPE stud_sessions_evicted_total counter\nstud_sessions_evicted_total {}\n\
         # HELP stud_accounts_dropped_total Accounts dropped from memory (loaded again from the store).\n# TYPE stud_accounts_dropped_total counter\nstud_accounts_dropped_total {}\n",
        app.sessions_cached(),
        app.bank.len(),
        s.expired.load(Relaxed),
        s.evicted.load(Relaxed),
        s.accounts.load(Relaxed),
    );
}

/// Serves `router` on `listener` until `stop`, like `axum::serve` but bounded against clients
/// that hold sockets without using them (a player's page must always find a free socket):
/// - a connection must send its first byte within `header_timeout_ms` (hyper's own header
///   timeout only starts once it has read the first bytes that tell HTTP/1 from HTTP/2), and
///   then each request's headers within it (hyper's `header_read_timeout`, which also closes a
///   keep-alive connection idle that long between requests);
/// - one peer address holds at most [`Limits::sockets`](crate::app::Limits) connections
///   (WebSockets included; trusted proxies are not counted): past that it is answered 429
///   and closed at once.
///
/// Bodies are bounded by `bound_bodies`. Connections in flight when `stop` fires finish
/// their request (graceful shutdown).
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>, router: Router, stop: CancellationToken) {
    use hyper_util::rt::{TokioExecutor, TokioTimer};
    use hyper_util::server::conn::auto::Builder;
    use tower_service::Service as _;
    let first_byte = std::time::Duration::from_millis(app.config.header_timeout_ms);
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(first_byte);
    let builder = Arc::new(builder);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut make = router.into_make_service_with_connect_info::<SocketAddr>();
    loop {
        let (stream, peer) = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let ip = peer.ip().to_canonical();
        let slot = match app.config.trusted_proxies.iter().any(|t| t.to_canonical() == ip) {
            true => None,
            false => match app.limits.sockets.acquire(ip) {
                Some(slot) => Some(slot),
                None => {
                    tracing::debug!(%ip, "a connection over the address's cap refused");
                    tokio::spawn(refuse_socket(stream));
                    continue;
                }
            },
        };
        // Frames go out as they are made: with Nagle's algorithm a frame written while the
        // previous one is unacknowledged waits for the client's delayed ACK (up to 40 ms on
        // Linux), and a table sends a player several frames in a row (BENCHMARKS.md).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        // A peer that vanishes without a word (its machine off, its network cut, a NAT that
        // dropped the flow) is never heard from again: a socket with nothing queued for it
        // would keep its task and its address's slot for good. The kernel probes a connection
        // quiet for a while and resets it when the probes go unanswered (`KEEPALIVE_*`); a live
        // client's kernel answers them whatever its program is doing. Probes are not sent
        // while data of ours waits for its ACK (a seated player's frames keep coming): there,
        // Linux gives up after `UNACKED` with no ACK instead of its ~15 minutes of retries.
        let socket = socket2::SockRef::from(&stream);
        if let Err(e) = socket.set_tcp_keepalive(&keepalive()) {
            tracing::debug!(error = %e, "could not set TCP keepalive");
        }
        #[cfg(target_os = "linux")]
        if let Err(e) = socket.set_tcp_user_timeout(Some(UNACKED)) {
            tracing::debug!(error = %e, "could not set TCP_USER_TIMEOUT");
        }
        let Ok(service) = make.call(peer).await;
        let service = hyper_util::service::TowerToHyperService::new(service);
        let (builder, watcher, stop) = (builder.clone(), graceful.watcher(), stop.clone());
        tokio::spawn(async move {
            let _slot = slot;
            // (`peek`, not `readable`: readiness may be reported before any byte is there.)
            let mut first = [0u8; 1];
            tokio::select! {
                peeked = tokio::time::timeout(first_byte, stream.peek(&mut first)) => {
                    if !matches!(peeked, Ok(Ok(1..))) {
                        return;
                    }
                }
                () = stop.cancelled() => return,
            }
            let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
            if let Err(e) = watcher.watch(conn).await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// TCP keepalive of an accepted connection: the first probe after this long without a
/// packet, then one every [`KEEPALIVE_EVERY`], and the connection reset after
/// [`KEEPALIVE_PROBES`] unanswered: a vanished peer is found within about a minute.
pub const KEEPALIVE_IDLE: std::time::Duration = std::time::Duration::from_secs(30);
/// The time between keepalive probes.
pub const KEEPALIVE_EVERY: std::time::Duration = std::time::Duration::from_secs(10);
/// Keepalive probes unanswered before the connection is reset.
pub const KEEPALIVE_PROBES: u32 = 3;

/// How long data we sent may wait for its ACK before the connection is given up (Linux's
/// `TCP_USER_TIMEOUT`; with keepalive on, it also bounds the probes: the same minute).
pub const UNACKED: std::time::Duration = std::time::Duration::from_secs(60);

fn keepalive() -> socket2::TcpKeepalive {
    let keepalive = socket2::TcpKeepalive::new().with_time(KEEPALIVE_IDLE);
    #[cfg(any(target_os = "linux", target_os = "macos", target_os = "freebsd"))]
    let keepalive = keepalive.with_interval(KEEPALIVE_EVERY).with_retries(KEEPALIVE_PROBES);
    keepalive
}

/// Whether `key` is 16 bytes in base64: 22 characters of the alphabet, the last of them
/// holding only 2 bits (`A`, `Q`, `g` or `w`), then `==`.
fn is_websocket_key(key: &[u8]) -> bool {
    let base64 = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    key.len() == 24
        && key[..21].iter().all(base64)
        && matches!(key[21], b'A' | b'Q' | b'g' | b'w')
        && &key[22..] == b"=="
}

/// The answer to a socket over its address's cap: 429 and closed, without reading it.
async fn refuse_socket(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt as _;
    let answer = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: 74\r\n\r\n{\"code\":\"rate_limited\",\"message\":\"too many connections from this address\"}";
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), stream.write_all(answer)).await;
    let _ = stream.shutdown().await;
}

/// `GET /ws`: the WebSocket upgrade (RFC 6455 4.2), done here rather than by axum's
/// `WebSocketUpgrade` so that the socket's bytes are ours to frame (`ws::socket`: no buffer
/// kept while a socket is idle). Refusals are the typed JSON errors every
/// route answers, in the order and with the statuses axum gave: 400 for a missing or wrong
/// `Connection`, `Upgrade`, `Sec-WebSocket-Key` or `Sec-WebSocket-Version`, 426 when the
/// connection cannot be upgraded (HTTP/1.0).
async fn ws(State(ctx): State<Ctx>, ConnectInfo(peer): ConnectInfo<SocketAddr>, mut request: Request) -> Response {
    let headers = request.headers();
    let has_token = |name: header::HeaderName, token: &str| {
        headers
            .get_all(name)
            .iter()
            .any(|v| v.to_str().is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token))))
    };
    let is = |name: header::HeaderName, value: &str| {
        headers.get(name).is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(value.as_bytes()))
    };
    let key = headers.get(header::SEC_WEBSOCKET_KEY);
    let refusal = if !has_token(header::CONNECTION, "upgrade") {
        Some("Connection header did not include 'upgrade'")
    } else if !is(header::UPGRADE, "websocket") {
        Some("`Upgrade` header did not include 'websocket'")
    } else if key.is_none() {
        Some("`Sec-WebSocket-Key` header missing")
    } else if !key.is_some_and(|k| is_websocket_key(k.as_bytes())) {
        // RFC 6455 4.2.1: the key is 16 bytes in base64.
        Some("Sec-WebSocket-Key must be 16 bytes in base64")
    } else if !is(header::SEC_WEBSOCKET_VERSION, "13") {
        Some("`Sec-WebSocket-Version` header did not include '13'")
    } else {
        None
    };
    // (base64 is always a valid header value: `None` only where the key was refused above)
    let accept = key.and_then(|k| header::HeaderValue::try_from(derive_accept_key(k.as_bytes())).ok());
    let (None, Some(accept)) = (refusal, accept) else {
        let why = refusal.unwrap_or("Sec-WebSocket-Key must be 16 bytes in base64");
        return ApiError::BadRequest(why.into()).into_response();
    };
    let ip = shared::client_ip(peer.ip(), headers, &ctx.app.config.trusted_proxies);
    let Some(on_upgrade) = request.extensions_mut().remove::<hyper::upgrade::OnUpgrade>() else {
        return ApiError::UpgradeRequired(
            "WebSocket request couldn't be upgraded since no upgrade state was present".into(),
        )
        .into_response();
    };
    let Some(slot) = ctx.app.limits.connections.acquire(ip) else {
        let max = ctx.app.config.max_connections_per_ip;
        return ApiError::TooManyConnections(max).into_response();
    };
    tokio::spawn(serve_upgraded(on_upgrade, ctx, ip, slot));
    let mut response = Response::new(axum::body::Body::empty());
    *response.status_mut() = axum::http::StatusCode::SWITCHING_PROTOCOLS;
    let h = response.headers_mut();
    h.insert(header::CONNECTION, header::HeaderValue::from_static("upgrade"));
    h.insert(header::UPGRADE, header::HeaderValue::from_static("websocket"));
    h.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    response
}

/// The task of one WebSocket: the upgrade, then the socket until it closes; the address's
/// connection slot is given back at the end. A plain `fn` returning the future, which holds
/// the socket's future inline (an `async fn` would keep its arguments twice).
#[expect(clippy::manual_async_fn, reason = "an `async fn` keeps its arguments in its future twice")]
fn serve_upgraded(
    on_upgrade: hyper::upgrade::OnUpgrade,
    ctx: Ctx,
    ip: std::net::IpAddr,
    slot: crate::limits::ConnectionGuard<std::net::IpAddr>,
) -> impl Future<Output = ()> + Send + 'static {
    async move {
        let upgraded = match on_upgrade.await {
            Ok(upgraded) => upgraded,
            Err(e) => return tracing::debug!(error = %e, "the upgrade failed"),
        };
        serve_socket(ctx.app, TokioIo::new(upgraded), ctx.shutdown, ip).await;
        drop(slot);
    }
}

#[cfg(test)]
mod tests {
    /// A socket's task holds its connection's future once, inline: before, the upgrade task
    /// (640 bytes) awaited a boxed one of 1,376 (see `ws::serve_socket`); now the whole task is
    /// a little more than the connection's future.
    #[test]
    fn a_socket_task_is_its_connection_and_little_more() {
        fn output_size<F, R>(_: &F) -> usize
        where
            F: FnOnce(
                hyper::upgrade::OnUpgrade,
                super::Ctx,
                std::net::IpAddr,
                crate::limits::ConnectionGuard<std::net::IpAddr>,
            ) -> R,
        {
            std::mem::size_of::<R>()
        }
        fn socket_size<F, A, B, C, D, R>(_: &F) -> usize
        where
            F: FnOnce(A, B, C, D) -> R,
        {
            std::mem::size_of::<R>()
        }
        let task = output_size(&super::serve_upgraded);
        let connection = socket_size(&crate::ws::serve_socket);
        assert!(task < connection + 256, "a socket's task is {task} bytes; its connection's future {connection}");
    }

    #[test]
    fn a_websocket_key_is_sixteen_bytes_in_base64() {
        assert!(super::is_websocket_key(b"dGhlIHNhbXBsZSBub25jZQ==")); // RFC 6455's example
        assert!(super::is_websocket_key(b"AAAAAAAAAAAAAAAAAAAAAA=="));
        for bad in [
            "",
            "0",
            "dGhlIHNhbXBsZSBub25jZQ=",
            "dGhlIHNhbXBsZSBub25jZR==",
            "dGhlIHNhbXBsZSBub25j*Q==",
            "dGhlIHNhbXBsZSBub25jZQ==".repeat(2).as_str(),
        ] {
            assert!(!super::is_websocket_key(bad.as_bytes()), "{bad}");
        }
    }
}
