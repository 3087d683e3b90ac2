//! The tournament routes: operators create and cancel (`/api/admin/tournaments`), players see
//! the lobby (`GET /api/tournaments`, `GET /api/tournaments/{id}`) and register or unregister
//! with their session token (`POST` / `DELETE /api/tournaments/{id}/entries`).
//!
//! The create body is the tournament core's own request ([`stud_tournament::CreateTournament`],
//! the same fields as `stud_proto::CreateTournament`, whose schema the OpenAPI document
//! shows); the core's validation names the field at fault, answered as a 400.

use std::sync::Arc;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use stud_proto::{
    InviteCode, TournamentDetail, TournamentOfferKind, TournamentPatch, TournamentPurchase, TournamentRegistration,
    TournamentSummary,
};
use stud_tournament::{Command, CreateTournament, Tournament};
use uuid::Uuid;

use crate::app::App;
use crate::http::error::ApiError;
use crate::http::extract::{Body, Caller, Operator, Params, PathId};
use crate::http::shared::{audit, client_ip, invite_code};
use crate::session::Session;
use crate::tournament::{self, TournamentHandle};
use crate::wire::tournament as view;

/// The tournament routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/admin/tournaments", get(list_all).post(create))
        .route("/api/admin/tournaments/{id}", axum::routing::patch(change))
        .route("/api/admin/tournaments/{id}/cancel", post(cancel))
        .route("/api/admin/tournaments/{id}/pause", post(pause))
        .route("/api/admin/tournaments/{id}/resume", post(resume))
        .route("/api/admin/tournaments/{id}/invite", get(invite).post(new_invite))
        .route("/api/tournaments", get(list))
        .route("/api/tournaments/{id}", get(one))
        .route("/api/tournaments/{id}/entries", post(register).delete(unregister))
        .route("/api/tournaments/{id}/rebuys", post(rebuy))
        .route("/api/tournaments/{id}/addons", post(addon))
}

fn find(app: &App, id: Uuid) -> Result<TournamentHandle, ApiError> {
    app.tournaments.get(id).ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))
}

fn player(caller: Caller) -> Result<Arc<Session>, ApiError> {
    match caller {
        Caller::Player(session) => Ok(session),
        Caller::Operator => Err(ApiError::Forbidden("register with a player's session token".into())),
    }
}

/// A tournament's name follows players' names' rule (the schema's pattern).
const NAME_RULE: &str =
    "name: must be 1 to 64 characters, not all blank, without control, invisible or text-direction characters";

async fn create(
    who: Operator,
    State(app): State<Arc<App>>,
    Body(request): Body<CreateTournament>,
) -> Result<(StatusCode, Json<TournamentDetail>), ApiError> {
    // The name follows players' names' rule (the schema's pattern); the core checks the rest.
    if stud_proto::fit_name(&request.name, 64).is_none() {
        return Err(ApiError::BadRequest(NAME_RULE.into()));
    }
    let mut spec = request.validate().map_err(|e| ApiError::BadRequest(e.to_string()))?;
    if let Some(s) = spec.satellite {
        // A ticket is worth the target's buy-in, and can only enter a tournament that takes
        // registrations.
        let target = app.tournaments.get(s.target).map(|h| h.now());
        match target {
            Some(t) if t.status() == stud_tournament::Status::Registering => spec = spec.with_ticket(t.spec().buy_in()),
            Some(_) => return Err(ApiError::BadRequest(format!("satellite_for: tournament {} has started", s.target))),
            None => return Err(ApiError::BadRequest(format!("satellite_for: no tournament {}", s.target))),
        }
    }
    let id = Uuid::new_v4();
    let core = Tournament::new(id, spec);
    let _one_at_a_time = app.admin_lock.lock().await;
    if app.shutting_down() {
        return Err(ApiError::Unavailable("the server is shutting down"));
    }
    audit(&app, &who, "create_tournament", Some(id.to_string()), &request).await?;
    let now = stud_store::now_ms();
    app.claim_tournament(id).await.map_err(|_| ApiError::Unavailable("the cluster cannot be reached"))?;
    if let Err(e) = app.store.tournament_create(id, now, &core.snapshot()).await {
        if let Some(d) = app.director.get() {
            d.abandon(id);
        }
        return Err(e.into());
    }
    let detail = view::detail(&core, now);
    tournament::actor::open_new(&app, core);
    Ok((StatusCode::CREATED, Json(detail)))
}

async fn cancel(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<TournamentDetail>, ApiError> {
    let handle = find(&app, id)?;
    audit(&app, &who, "cancel_tournament", Some(id.to_string()), ()).await?;
    handle.cancel().await?;
    Ok(Json(view::detail(&handle.now(), stud_store::now_ms())))
}

async fn invite(who: Operator, State(app): State<Arc<App>>, PathId(id): PathId) -> Result<Json<InviteCode>, ApiError> {
    let handle = find(&app, id)?;
    // Reading a code lets someone in: it is audited like giving one out.
    audit(&app, &who, "read_tournament_invite", Some(id.to_string()), ()).await?;
    Ok(Json(InviteCode { invite_code: handle.now().spec().invite_code.clone() }))
}

/// A private tournament's new code (made like tables' codes); the old one stops working.
async fn new_invite(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<InviteCode>, ApiError> {
    let handle = find(&app, id)?;
    let code = invite_code()?;
    audit(&app, &who, "rotate_tournament_invite", Some(id.to_string()), ()).await?;
    handle.operate(Command::NewInviteCode { code: code.clone() }).await?;
    Ok(Json(InviteCode { invite_code: Some(code) }))
}

/// The detail as the routes answer it (with a repeating tournament's next one, once it is
/// scheduled).
fn detail_of(app: &App, t: &Tournament) -> TournamentDetail {
    let mut detail = view::detail(t, stud_store::now_ms());
    detail.next_id = tournament::successor(t).map(|(next, _)| next).filter(|next| app.tournaments.get(*next).is_some());
    detail
}

/// An operator's command that moves no money, audited, answered with the detail after it.
async fn operate(
    app: &App,
    who: &Operator,
    id: Uuid,
    action: &str,
    command: Command,
    body: impl serde::Serialize,
) -> Result<Json<TournamentDetail>, ApiError> {
    let handle = find(app, id)?;
    audit(app, who, action, Some(id.to_string()), body).await?;
    handle.operate(command).await?;
    Ok(Json(detail_of(app, &handle.now())))
}

async fn pause(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<TournamentDetail>, ApiError> {
    operate(&app, &who, id, "pause_tournament", Command::Pause, ()).await
}

async fn resume(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<TournamentDetail>, ApiError> {
    operate(&app, &who, id, "resume_tournament", Command::Resume, ()).await
}

async fn change(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    Body(patch): Body<TournamentPatch>,
) -> Result<Json<TournamentDetail>, ApiError> {
    let handle = find(&app, id)?;
    let name = match &patch.name {
        Some(name) => Some(stud_proto::fit_name(name, 64).ok_or_else(|| ApiError::BadRequest(NAME_RULE.into()))?),
        None => None,
    };
    let games: Option<Vec<stud_tournament::RotationGame>> = patch.rotation_games.as_ref().map(|list| {
        list.iter().map(|g| stud_tournament::RotationGame { variant: g.variant, betting: g.betting }).collect()
    });
    let rotation = patch.rotation_hands.is_some() || games.is_some();
    // Checked before anything is journaled, so a bad rotation changes nothing (the name
    // neither).
    if rotation {
        handle
            .now()
            .with_rotation(patch.rotation_hands, games.as_deref())
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    }
    if name.is_none() && !rotation {
        // Nothing to change: the tournament as it is.
        return Ok(Json(detail_of(&app, &handle.now())));
    }
    audit(&app, &who, "update_tournament", Some(id.to_string()), &patch).await?;
    // The rotation first: it is the one the tournament may still refuse (at the last level),
    // and then nothing has changed.
    if rotation {
        handle.operate(Command::Rotation { hands: patch.rotation_hands, games }).await?;
    }
    if let Some(name) = name {
        handle.operate(Command::Rename { name: name.to_owned() }).await?;
    }
    Ok(Json(detail_of(&app, &handle.now())))
}

/// Every tournament, private ones included (operators).
async fn list_all(_: Operator, State(app): State<Arc<App>>) -> Json<Vec<TournamentSummary>> {
    Json(app.tournaments.handles().iter().map(|h| view::summary(&h.now())).collect())
}

/// The lobby: public tournaments, and the private ones the caller (a session token, when
/// sent) is registered in. A private tournament is not shown to strangers (issue 31).
async fn list(State(app): State<Arc<App>>, headers: axum::http::HeaderMap) -> Json<Vec<TournamentSummary>> {
    let token = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let player = match token {
        Some(token) => app.resolve_session(token).await.ok().flatten().map(|s| s.player_id),
        None => None,
    };
    let shown = |t: &Tournament| {
        t.spec().invite_code.is_none() || player.is_some_and(|p| t.entries().iter().any(|e| e.player == p))
    };
    Json(app.tournaments.handles().iter().map(|h| h.now()).filter(|t| shown(t)).map(|t| view::summary(&t)).collect())
}

async fn one(State(app): State<Arc<App>>, PathId(id): PathId) -> Result<Json<TournamentDetail>, ApiError> {
    Ok(Json(detail_of(&app, &find(&app, id)?.now())))
}

#[derive(Deserialize)]
struct RegisterParams {
    #[serde(default)]
    invite_code: Option<String>,
}

async fn register(
    caller: Caller,
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    PathId(id): PathId,
    Params(params): Params<RegisterParams>,
) -> Result<(StatusCode, Json<TournamentRegistration>), ApiError> {
    let session = player(caller)?;
    let handle = find(&app, id)?;
    let ip = client_ip(peer.ip(), &headers, &app.config.trusted_proxies);
    app.register_entry(&handle, session.player_id, ip, session.name.clone(), params.invite_code).await?;
    Ok((StatusCode::CREATED, Json(app.registration(id, &session, true).await)))
}

async fn unregister(
    caller: Caller,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<TournamentRegistration>, ApiError> {
    let session = player(caller)?;
    find(&app, id)?.unregister(session.player_id).await?;
    Ok(Json(app.registration(id, &session, false).await))
}

/// A rebuy; an `Idempotency-Key` header makes a repeat of the entry's last rebuy answered, not
/// bought again.
async fn rebuy(
    caller: Caller,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    headers: axum::http::HeaderMap,
) -> Result<(StatusCode, Json<TournamentPurchase>), ApiError> {
    let key = match headers.get("idempotency-key") {
        None => None,
        Some(v) => match v.to_str() {
            Ok(k) if stud_proto::idempotency_key_ok(k) && k.bytes().all(|b| b.is_ascii_graphic()) => Some(k.to_owned()),
            _ => {
                return Err(ApiError::BadRequest(format!(
                    "Idempotency-Key: 1 to {} visible ASCII characters",
                    stud_proto::MAX_IDEMPOTENCY_KEY
                )));
            }
        },
    };
    purchase(caller, &app, id, TournamentOfferKind::Rebuy, key).await
}

async fn addon(
    caller: Caller,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<(StatusCode, Json<TournamentPurchase>), ApiError> {
    purchase(caller, &app, id, TournamentOfferKind::Addon, None).await
}

async fn purchase(
    caller: Caller,
    app: &App,
    id: Uuid,
    kind: TournamentOfferKind,
    key: Option<String>,
) -> Result<(StatusCode, Json<TournamentPurchase>), ApiError> {
    let session = player(caller)?;
    let handle = find(app, id)?;
    Ok((StatusCode::CREATED, Json(app.purchase(&handle, &session, kind, key).await?)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

    /// The OpenAPI document shows `stud_proto::CreateTournament`; the route parses the core's
    /// request. Every field of either must mean the same in the other.
    #[test]
    fn the_documented_create_body_is_the_one_the_route_takes() {
        let full = serde_json::json!({
            "name": "Sunday", "variant": "rotation", "kind": "scheduled", "start_at": 1_900_000_000_000u64,
            "min_entrants": 2, "max_entrants": 100, "seats_per_table": 8, "entry_fee": 1_000,
            "house_fee": 100, "starting_chips": 1_500,
            "levels": [{"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40, "minutes": 10},
                       {"ante": 10, "bring_in": 20, "small_bet": 40, "big_bet": 80, "hands": 12}],
            "payouts": [50.0, 30.0, 20.0], "late_registration_until_level": 1,
            "reentry_until_level": 1, "invite_code": "ABCDEFGHJK", "rotation_hands": 8, "betting": "pot_limit",
            "rotation_games": [{"variant": "london"}, {"variant": "stud8_declare", "betting": "fixed_limit"},
                               {"variant": "chicago", "betting": "no_limit"}, {"variant": "mississippi"}],
            "rebuy_until_level": 1, "rebuy_chips": 1_000, "rebuy_fee": 500, "max_rebuys": 2, "addon_chips": 2_000,
            "addon_fee": 700, "break_every_levels": 1, "break_minutes": 5, "bounty": 500, "progressive_bounty": true,
            "satellite_for": "6f0c3a52-3c1e-4f7a-9a53-6a7c8d2e1f00", "tickets": 2, "repeat_minutes": 1440
        });
        let wire: stud_proto::CreateTournament = serde_json::from_value(full.clone()).unwrap();
        let core: stud_tournament::CreateTournament = serde_json::from_value(full.clone()).unwrap();
        assert_eq!(serde_json::to_value(&wire).unwrap(), full);
        let back: stud_tournament::CreateTournament =
            serde_json::from_value(serde_json::to_value(&wire).unwrap()).unwrap();
        assert_eq!(back, core);
        // Unknown fields are refused by both.
        let mut typo = full;
        typo["late_registration"] = serde_json::json!(2);
        assert!(serde_json::from_value::<stud_proto::CreateTournament>(typo.clone()).is_err());
        assert!(serde_json::from_value::<stud_tournament::CreateTournament>(typo).is_err());
        // The schema's bounds are the core's.
        assert_eq!(stud_proto::MAX_ENTRANTS, stud_tournament::MAX_ENTRANTS);
        assert_eq!(stud_proto::MAX_FEE, stud_tournament::MAX_FEE);
        assert_eq!(stud_proto::MAX_STARTING_CHIPS, stud_tournament::MAX_STARTING_CHIPS);
    }
}
