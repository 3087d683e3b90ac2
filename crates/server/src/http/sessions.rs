//! Guest and JWT sessions (log in, log out) and the public lobby.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use stud_proto::{SessionCreated, SessionRequest, TableSummary};

use crate::app::App;
use crate::http::error::ApiError;
use crate::http::extract::{Body, Caller, PathId};
use crate::http::shared::{client_ip, own_session};

/// The lobby's and the sessions' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tables", get(tables))
        .route("/api/sessions", post(create_session))
        .route("/api/sessions/{id}", delete(end_session))
}

async fn tables(State(app): State<Arc<App>>) -> Json<Vec<TableSummary>> {
    Json(app.lobby.public())
}

async fn create_session(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    body: Result<Body<SessionRequest>, ApiError>,
) -> Result<(StatusCode, Json<SessionCreated>), ApiError> {
    let ip = client_ip(peer.ip(), &headers, &app.config.trusted_proxies);
    if let Err(wait) = app.limits.sessions.check(&ip) {
        return Err(ApiError::RateLimited(wait));
    }
    let session = match body? {
        Body(SessionRequest::Guest(body)) => {
            if !app.config.guest_sessions {
                return Err(ApiError::BadToken(crate::auth::jwt::TokenError::GuestsDisabled));
            }
            let name = display_name(&body.name).ok_or_else(|| {
                ApiError::BadRequest(
                    "name must be 1 to 24 printable characters (no invisible or text-direction characters)".into(),
                )
            })?;
            app.create_session(name).await?
        }
        Body(SessionRequest::Jwt(body)) => {
            let verifier = app.jwt.as_ref().ok_or(ApiError::BadToken(crate::auth::jwt::TokenError::Disabled))?;
            let claims = verifier.verify(&body.jwt).map_err(ApiError::BadToken)?;
            // The operator's name for the user, when it fits our rule; else a short form of the id.
            let name = claims
                .name
                .as_deref()
                .and_then(display_name)
                .or_else(|| display_name(&claims.sub.chars().take(24).collect::<String>()))
                .unwrap_or_else(|| "player".to_owned());
            app.create_identity_session(&claims.sub, name).await?
        }
    };
    Ok((
        StatusCode::CREATED,
        Json(SessionCreated {
            token: session.token.clone(),
            player_id: session.player_id,
            session_id: session.session_id,
            name: session.name.clone(),
            balance: app.shown_balance(session.player_id).await,
        }),
    ))
}

/// Log out: the caller's own session ends (`App::end_session`). Another session's token or an
/// operator key: 403, like the session's other routes.
async fn end_session(caller: Caller, State(app): State<Arc<App>>, PathId(id): PathId) -> Result<StatusCode, ApiError> {
    let session = own_session(caller, id)?;
    app.end_session(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A display name by the schema's rule (1 to 24 characters as sent, not all blank, no control,
/// invisible or bidirectional formatting characters: `stud_proto::unfit_in_a_name`), trimmed.
fn display_name(sent: &str) -> Option<String> {
    stud_proto::fit_name(sent, 24).map(str::to_owned)
}
