//! The operator API (`/api/admin/*`): tables (create, list, change, pause, resume, close,
//! invite codes), moderation (kick, ban) and the audit log.
//!
//! Every route needs an operator key (`Authorization: Bearer KEY`): one made with
//! `stud operator create-key` (stored hashed) or the configured `STUD_OPERATOR_KEY`. A missing
//! or wrong key is 401 and says nothing else. Every change is written to the audit log (who,
//! what, when) before it is answered.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use stud_proto::{
    AdminLogLine, AdminTable, BanInfo, BanRequest, KickRequest, KickResult, LedgerPage, TableSettings,
    TableSettingsPatch,
};
use stud_store::{Ban, BanScope, LedgerQuery};
use tokio::sync::oneshot;
use uuid::Uuid;

use crate::app::App;
use crate::http::error::ApiError;
use crate::http::extract::{Body, Operator, Params, PathId};
use crate::http::shared::{audit, invite_code, ledger_page};
use crate::table::{SpecExt, TableCmd, TableGone, TableSpec};

/// The admin routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/admin/tables", get(list_tables).post(create_table))
        .route("/api/admin/tables/{id}", get(get_table).patch(update_table))
        .route("/api/admin/tables/{id}/pause", post(pause))
        .route("/api/admin/tables/{id}/resume", post(resume))
        .route("/api/admin/tables/{id}/close", post(close))
        .route("/api/admin/tables/{id}/invite", get(read_invite).post(rotate_invite).delete(revoke_invite))
        .route("/api/admin/tables/{id}/kick", post(kick))
        .route("/api/admin/bans", get(list_bans).post(ban).delete(unban))
        .route("/api/admin/log", get(log))
        .route("/api/admin/ledger", get(ledger))
}

/// The stored spec of a table (open or closed).
async fn stored_spec(app: &App, id: Uuid) -> Result<(TableSpec, u64, bool), ApiError> {
    let tables = app.store.tables().await?;
    let t = tables.iter().find(|t| t.id == id).ok_or_else(|| ApiError::NotFound(format!("no table {id}")))?;
    Ok((TableSpec::from_stored(t, &app.config), t.created_at_ms, t.closed))
}

/// Refuses to change a tournament's table from outside its tournament: its seats, chips and
/// stakes are the tournament's (settings from a cash table's patch would make its tournament
/// chips money, and a kick or a close would take players away behind the tournament's back).
fn not_a_tournament_table(spec: &TableSpec) -> Result<(), ApiError> {
    match spec.tournament {
        Some(t) => Err(ApiError::Conflict(format!("table {} belongs to tournament {t}: it runs the table", spec.id))),
        None => Ok(()),
    }
}

async fn save(app: &App, spec: &TableSpec, created_at_ms: u64, closed: bool) -> Result<(), ApiError> {
    Ok(app.store.save_table(&spec.stored(created_at_ms, closed)).await?)
}

/// Sends a command with a reply to a running table.
async fn ask<T>(app: &App, id: Uuid, make: impl FnOnce(oneshot::Sender<T>) -> TableCmd) -> Result<T, ApiError> {
    let handle = app.lobby.get(id).ok_or_else(|| ApiError::NotFound(format!("table {id} is not open")))?;
    let (tx, rx) = oneshot::channel();
    handle.send(make(tx)).await.map_err(|e| match e {
        TableGone::Stopped => ApiError::NotFound(format!("table {id} has closed")),
        TableGone::Unreachable => ApiError::Unavailable(crate::http::error::CLUSTER_UNREACHABLE),
    })?;
    rx.await.map_err(|_| ApiError::NotFound(format!("table {id} has closed")))
}

async fn view(app: &App, spec: &TableSpec) -> AdminTable {
    let status = match app.lobby.get(spec.id) {
        Some(_) => ask(app, spec.id, |reply| TableCmd::Status { reply }).await.unwrap_or_default(),
        None => crate::table::TableStatus::default(),
    };
    AdminTable {
        id: spec.id,
        settings: spec.settings(),
        invite_code: spec.invite_code.clone(),
        paused: spec.paused,
        status: app.lobby.summary(spec.id),
        current_hand: status.hand,
        hands_played: status.hands,
        seats: status.seats,
    }
}

async fn list_tables(_: Operator, State(app): State<Arc<App>>) -> Result<Json<Vec<AdminTable>>, ApiError> {
    let tables = app.store.tables().await?;
    let mut out = Vec::new();
    for t in tables.iter().filter(|t| !t.closed) {
        out.push(view(&app, &TableSpec::from_stored(t, &app.config)).await);
    }
    Ok(Json(out))
}

async fn get_table(_: Operator, State(app): State<Arc<App>>, PathId(id): PathId) -> Result<Json<AdminTable>, ApiError> {
    let (spec, _, _) = stored_spec(&app, id).await?;
    Ok(Json(view(&app, &spec).await))
}

async fn create_table(
    who: Operator,
    State(app): State<Arc<App>>,
    Body(settings): Body<TableSettings>,
) -> Result<(StatusCode, Json<AdminTable>), ApiError> {
    let mut spec = TableSpec::from_settings(Uuid::new_v4(), &settings).map_err(ApiError::BadRequest)?;
    if spec.private {
        spec.invite_code = Some(invite_code()?);
    }
    let _one_at_a_time = app.admin_lock.lock().await;
    if app.shutting_down() {
        return Err(ApiError::Unavailable("the server is shutting down"));
    }
    audit(&app, &who, "create_table", Some(spec.id.to_string()), &settings).await?;
    save(&app, &spec, stud_store::now_ms(), false).await?;
    let task = app.open_table(spec.clone());
    app.track(task);
    Ok((StatusCode::CREATED, Json(view(&app, &spec).await)))
}

/// Applies a patch to settings.
fn patched(mut s: TableSettings, p: TableSettingsPatch) -> TableSettings {
    macro_rules! take {
        ($($f:ident),*) => { $( if let Some(v) = p.$f { s.$f = v; } )* };
    }
    take!(
        name,
        ante,
        bring_in,
        small_bet,
        big_bet,
        max_raises,
        betting,
        seats,
        min_buy_in,
        max_buy_in,
        action_timeout_ms,
        time_bank_ms,
        observers,
        private,
        display
    );
    if p.chat.is_some() {
        s.chat = p.chat;
    }
    if p.open_pair_big_bet.is_some() {
        s.open_pair_big_bet = p.open_pair_big_bet;
    }
    if p.rotation_hands.is_some() {
        s.rotation_hands = p.rotation_hands;
    }
    if let Some(games) = p.rotation_games {
        // The table's variant is where a new table's rotation starts; a changed list that
        // leaves it out starts from its own first game (the table then picks up at its next
        // rotation point, TableSpec::carry_rotation).
        if let Some(first) = games.first().filter(|_| !games.iter().any(|g| g.variant == s.variant)) {
            s.variant = first.variant;
            // Razz and london have no open-pair option: the old game's setting cannot stay
            // (the other games of the list keep it, TableSpec::config_of).
            if s.variant.is_razz_like() && p.open_pair_big_bet.is_none() {
                s.open_pair_big_bet = None;
            }
        }
        s.rotation_games = Some(games);
    }
    s
}

async fn update_table(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    Body(patch): Body<TableSettingsPatch>,
) -> Result<Json<AdminTable>, ApiError> {
    let _one_at_a_time = app.admin_lock.lock().await;
    let (old, created, closed) = stored_spec(&app, id).await?;
    if closed {
        return Err(ApiError::NotFound(format!("table {id} is closed")));
    }
    not_a_tournament_table(&old)?;
    let settings = patched(old.settings(), patch.clone());
    let mut spec = TableSpec::from_settings(id, &settings).map_err(ApiError::BadRequest)?;
    spec.paused = old.paused;
    spec.invite_code = match (spec.private, old.invite_code) {
        (false, _) => None,
        (true, Some(code)) => Some(code),
        (true, None) if !old.private => Some(invite_code()?),
        (true, None) => None,
    };
    audit(&app, &who, "update_table", Some(id.to_string()), &patch).await?;
    save(&app, &spec, created, false).await?;
    app.access.set_table(&spec);
    let next = spec.clone();
    ask(&app, id, |reply| TableCmd::Update { spec: Box::new(next), reply }).await?;
    Ok(Json(view(&app, &spec).await))
}

async fn set_paused(app: Arc<App>, who: Operator, id: Uuid, paused: bool) -> Result<Json<AdminTable>, ApiError> {
    let _one_at_a_time = app.admin_lock.lock().await;
    let (mut spec, created, closed) = stored_spec(&app, id).await?;
    if closed {
        return Err(ApiError::NotFound(format!("table {id} is closed")));
    }
    audit(&app, &who, if paused { "pause" } else { "resume" }, Some(id.to_string()), ()).await?;
    spec.paused = paused;
    save(&app, &spec, created, false).await?;
    ask(&app, id, |reply| TableCmd::Pause { paused, reply }).await?;
    Ok(Json(view(&app, &spec).await))
}

async fn pause(who: Operator, State(app): State<Arc<App>>, PathId(id): PathId) -> Result<Json<AdminTable>, ApiError> {
    set_paused(app, who, id, true).await
}

async fn resume(who: Operator, State(app): State<Arc<App>>, PathId(id): PathId) -> Result<Json<AdminTable>, ApiError> {
    set_paused(app, who, id, false).await
}

async fn close(who: Operator, State(app): State<Arc<App>>, PathId(id): PathId) -> Result<StatusCode, ApiError> {
    let done = {
        let _one_at_a_time = app.admin_lock.lock().await;
        let (spec, created, closed) = stored_spec(&app, id).await?;
        if closed {
            return Err(ApiError::NotFound(format!("table {id} is closed")));
        }
        not_a_tournament_table(&spec)?;
        audit(&app, &who, "close", Some(id.to_string()), ()).await?;
        // Stored as closed first: a crash from here on does not reopen it.
        save(&app, &spec, created, true).await?;
        let handle = app.lobby.get(id).ok_or_else(|| ApiError::NotFound(format!("table {id} is not open")))?;
        let (reply, done) = oneshot::channel();
        handle
            .send(TableCmd::Close { reply })
            .await
            .map_err(|_| ApiError::NotFound(format!("table {id} has closed")))?;
        done
    };
    // Answered once the current hand is over and everyone is cashed out; a server stopping
    // first says so (it finishes the hand and closes the table when it starts again).
    // (On a cluster the table may have closed on another worker than the one asked: no chips
    // left on it says so.)
    let closed_elsewhere =
        async { app.store.closing_tables().await.map(|closing| !closing.contains(&id)).unwrap_or(false) };
    match done.await {
        Ok(()) => Ok(StatusCode::NO_CONTENT),
        Err(_) if closed_elsewhere.await => Ok(StatusCode::NO_CONTENT),
        Err(_) => Err(ApiError::Unavailable(
            "the server stopped before the table's hand ended: it finishes the hand and closes the table when it is back",
        )),
    }
}

async fn set_invite(app: Arc<App>, who: Operator, id: Uuid, rotate: bool) -> Result<Json<AdminTable>, ApiError> {
    let _one_at_a_time = app.admin_lock.lock().await;
    let (mut spec, created, closed) = stored_spec(&app, id).await?;
    if closed || !spec.private {
        return Err(ApiError::Conflict("only an open private table has an invite code".into()));
    }
    not_a_tournament_table(&spec)?;
    audit(&app, &who, if rotate { "rotate_invite" } else { "revoke_invite" }, Some(id.to_string()), ()).await?;
    spec.invite_code = if rotate { Some(invite_code()?) } else { None };
    save(&app, &spec, created, false).await?;
    app.access.set_table(&spec);
    let next = spec.clone();
    ask(&app, id, |reply| TableCmd::Update { spec: Box::new(next), reply }).await?;
    Ok(Json(view(&app, &spec).await))
}

async fn read_invite(
    _: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<stud_proto::InviteCode>, ApiError> {
    let (spec, _, _) = stored_spec(&app, id).await?;
    Ok(Json(stud_proto::InviteCode { invite_code: spec.invite_code }))
}

async fn rotate_invite(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<AdminTable>, ApiError> {
    set_invite(app, who, id, true).await
}

async fn revoke_invite(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
) -> Result<Json<AdminTable>, ApiError> {
    set_invite(app, who, id, false).await
}

async fn kick(
    who: Operator,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    Body(req): Body<KickRequest>,
) -> Result<Json<KickResult>, ApiError> {
    let (spec, _, _) = stored_spec(&app, id).await?;
    not_a_tournament_table(&spec)?;
    audit(&app, &who, "kick", Some(req.player_id.to_string()), serde_json::json!({"table": id, "now": req.now}))
        .await?;
    let kicked = ask(&app, id, |reply| TableCmd::Kick { player: req.player_id, now: req.now, reply }).await?;
    Ok(Json(KickResult { kicked }))
}

async fn ban(who: Operator, State(app): State<Arc<App>>, Body(req): Body<BanRequest>) -> Result<StatusCode, ApiError> {
    let scope = req.table_id.map_or(BanScope::Server, BanScope::Table);
    audit(&app, &who, "ban", Some(req.player_id.to_string()), &req).await?;
    let ban = Ban { player_id: req.player_id, scope, at_ms: stud_store::now_ms(), reason: req.reason.clone() };
    app.store.ban(&ban).await?;
    app.access.set_ban(req.player_id, scope, true);
    // Out at once, from the table or from every table.
    let tables = match req.table_id {
        Some(t) => vec![t],
        None => app.lobby.handles().iter().map(|h| h.id).collect(),
    };
    for t in tables {
        let _ = ask(&app, t, |reply| TableCmd::Kick { player: req.player_id, now: true, reply }).await;
    }
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnbanParams {
    player_id: Uuid,
    table_id: Option<Uuid>,
}

async fn unban(
    who: Operator,
    State(app): State<Arc<App>>,
    Params(p): Params<UnbanParams>,
) -> Result<StatusCode, ApiError> {
    let scope = p.table_id.map_or(BanScope::Server, BanScope::Table);
    audit(&app, &who, "unban", Some(p.player_id.to_string()), serde_json::json!({"table": p.table_id})).await?;
    let had = app.store.unban(p.player_id, scope).await?;
    app.access.set_ban(p.player_id, scope, false);
    if had { Ok(StatusCode::NO_CONTENT) } else { Err(ApiError::NotFound("no such ban".into())) }
}

async fn list_bans(_: Operator, State(app): State<Arc<App>>) -> Result<Json<Vec<BanInfo>>, ApiError> {
    let bans = app.store.bans().await?;
    Ok(Json(
        bans.into_iter()
            .map(|b| BanInfo {
                player_id: b.player_id,
                table_id: match b.scope {
                    BanScope::Server => None,
                    BanScope::Table(t) => Some(t),
                },
                at_ms: b.at_ms,
                reason: b.reason,
            })
            .collect(),
    ))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LogParams {
    limit: Option<u32>,
}

async fn log(_: Operator, State(app): State<Arc<App>>, Params(p): Params<LogParams>) -> Result<Response, ApiError> {
    let limit = p.limit.unwrap_or(100);
    if !(1..=1000).contains(&limit) {
        return Err(ApiError::BadRequest("limit must be 1 to 1000".into()));
    }
    let lines = app.store.admin_log(limit).await?;
    let lines: Vec<AdminLogLine> = lines
        .into_iter()
        .map(|l| AdminLogLine {
            at_ms: l.at_ms,
            operator: l.operator,
            action: l.action,
            target: l.target,
            detail: serde_json::from_str(&l.detail).unwrap_or(serde_json::Value::Null),
        })
        .collect();
    Ok(Json(lines).into_response())
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LedgerParams {
    player: Option<Uuid>,
    table: Option<Uuid>,
    since: Option<u64>,
    limit: Option<u32>,
    cursor: Option<String>,
}

async fn ledger(
    _: Operator,
    State(app): State<Arc<App>>,
    Params(p): Params<LedgerParams>,
) -> Result<Json<LedgerPage>, ApiError> {
    let query = LedgerQuery { player: p.player, table: p.table, since_ms: p.since, ..LedgerQuery::default() };
    ledger_page(&app, query, p.limit, p.cursor.as_deref()).await.map(Json)
}
