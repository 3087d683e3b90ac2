//! The hand-history API: a session's LAST HAND list, one hand, and the operators' search; as
//! JSON, PHH or PokerStars-style text.
//!
//! Who sees what: a session's token reads that session's hands, and any hand its player was
//! dealt into, filtered the way LAST HAND is (every card live at showdown, the player's own
//! cards, no one else's folded cards, no seed). The operator key reads any hand unfiltered.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::{Json, Router, routing::get};
use serde::Deserialize;
use stud_engine::Viewer;
use stud_engine::phh::{self, PhhContext, TournamentContext};
use stud_engine::text::{self, TextContext};
use stud_proto::{HandPage, LedgerPage};
use stud_store::{Cursor, HandQuery, LedgerQuery, StoredHand};
use uuid::Uuid;

use crate::app::App;
use crate::http::error::ApiError;
use crate::http::extract::{Caller, Operator, Params, PathId};
use crate::http::shared::{Reader, ledger_page, own_session};
use crate::wire;

/// Most hands an operator page holds.
const MAX_PAGE: u32 = 500;

/// The history routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/sessions/{id}/hands", get(session_hands))
        .route("/api/sessions/{id}/ledger", get(session_ledger))
        .route("/api/hands/{id}", get(one_hand))
        .route("/api/hands", get(search))
}

/// What to write a history as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Format {
    #[default]
    Json,
    Phh,
    Text,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionParams {
    limit: Option<u32>,
    #[serde(default)]
    format: Format,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct HandParams {
    #[serde(default)]
    format: Format,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchParams {
    table: Option<Uuid>,
    player: Option<Uuid>,
    since: Option<u64>,
    limit: Option<u32>,
    cursor: Option<String>,
    #[serde(default)]
    format: Format,
}

async fn session_hands(
    Reader(caller): Reader,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    Params(params): Params<SessionParams>,
) -> Result<Response, ApiError> {
    let limit = params.limit.unwrap_or(50);
    if !(1..=50).contains(&limit) {
        return Err(ApiError::BadRequest("limit must be 1 to 50".into()));
    }
    let session = own_session(caller, id)?;
    let hands = app.last_hands(&session, crate::app::HISTORY_WAIT).await?;
    let hands: Vec<&StoredHand> = hands.iter().take(limit as usize).collect();
    render_for_player(&app, &hands, session.player_id, params.format, true)
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LedgerParams {
    limit: Option<u32>,
    cursor: Option<String>,
}

async fn session_ledger(
    Reader(caller): Reader,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    Params(p): Params<LedgerParams>,
) -> Result<Json<LedgerPage>, ApiError> {
    let session = own_session(caller, id)?;
    let query = LedgerQuery { player: Some(session.player_id), ..LedgerQuery::default() };
    ledger_page(&app, query, p.limit, p.cursor.as_deref()).await.map(Json)
}

async fn one_hand(
    Reader(caller): Reader,
    State(app): State<Arc<App>>,
    PathId(id): PathId,
    Params(params): Params<HandParams>,
) -> Result<Response, ApiError> {
    let hand = stored_hand(&app, id).await?;
    match caller {
        Caller::Operator => render_full(&app, &[&hand], params.format, false),
        Caller::Player(session) => {
            if hand.seat_of(session.player_id).is_none() {
                // Same answer as a hand that does not exist: ids of others' hands reveal nothing.
                return Err(ApiError::NotFound(format!("no hand {id} of yours")));
            }
            render_for_player(&app, &[&hand], session.player_id, params.format, false)
        }
    }
}

/// A hand from the store, waiting for the writer first if it is not there yet (the hand may
/// have just ended).
async fn stored_hand(app: &App, id: Uuid) -> Result<StoredHand, ApiError> {
    if let Some(h) = app.store.hand(id).await? {
        return Ok(h);
    }
    let _ = tokio::time::timeout(crate::app::HISTORY_WAIT, app.writer.flush()).await;
    app.store.hand(id).await?.ok_or_else(|| ApiError::NotFound(format!("no hand {id}")))
}

async fn search(
    _: Operator,
    State(app): State<Arc<App>>,
    Params(p): Params<SearchParams>,
) -> Result<Response, ApiError> {
    let limit = p.limit.unwrap_or(50);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::BadRequest(format!("limit must be 1 to {MAX_PAGE}")));
    }
    let before = match &p.cursor {
        Some(c) => Some(Cursor::decode(c).ok_or_else(|| ApiError::BadRequest("bad cursor".into()))?),
        None => None,
    };
    let q = HandQuery { table: p.table, player: p.player, since_ms: p.since, before, limit };
    let hands = app.store.hands(&q).await?;
    let next_cursor =
        (hands.len() == limit as usize).then(|| hands.last().map(|h| Cursor::after(h).encode())).flatten();
    let refs: Vec<&StoredHand> = hands.iter().collect();
    if p.format == Format::Json {
        let page = HandPage { hands: hands.iter().map(wire::hand_detail).collect(), next_cursor };
        return Ok(Json(page).into_response());
    }
    let mut response = render_full(&app, &refs, p.format, true)?;
    if let Some(c) = next_cursor.and_then(|c| c.parse().ok()) {
        response.headers_mut().insert("x-next-cursor", c);
    }
    Ok(response)
}

fn table_name(app: &App, h: &StoredHand) -> String {
    app.lobby.name(h.table_id).unwrap_or_else(|| h.table_id.to_string())
}

/// A tournament hand's tournament, for its histories (the name from the running server; the
/// id when it does not know the tournament).
fn tournament_context(app: &App, h: &StoredHand) -> Option<TournamentContext> {
    let t = h.tournament?;
    let name = app.tournaments.get(t.id).map_or_else(|| t.id.to_string(), |handle| handle.now().spec().name.clone());
    Some(TournamentContext { id: t.id.to_string(), name, level: t.level })
}

fn phh_context(app: &App, h: &StoredHand, viewer: Option<Viewer>) -> PhhContext {
    PhhContext { hand: Some(h.number), table: Some(table_name(app, h)), viewer, tournament: tournament_context(app, h) }
}

fn text_context(app: &App, h: &StoredHand, viewer: Option<Viewer>) -> TextContext {
    TextContext {
        hand_id: h.hand_id.to_string(),
        table: table_name(app, h),
        started_at_secs: h.started_at_ms / 1000,
        names: h.seats.iter().map(|s| (s.seat.number(), s.name.clone())).collect(),
        viewer,
        tournament: tournament_context(app, h),
    }
}

fn plain(body: String, filename: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"{filename}\"")),
        ],
        body,
    )
        .into_response()
}

fn texts(
    hands: &[&StoredHand],
    mut one: impl FnMut(&StoredHand) -> Result<String, stud_engine::ReplayError>,
) -> Result<String, ApiError> {
    let mut out = String::new();
    for h in hands {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&one(h).map_err(|e| ApiError::Internal(format!("hand {} does not replay: {e}", h.hand_id)))?);
    }
    Ok(out)
}

fn phh_many(
    app: &App,
    hands: &[&StoredHand],
    viewer: impl Fn(&StoredHand) -> Option<Viewer>,
) -> Result<String, ApiError> {
    phh::write_hands(hands.iter().map(|h| (&h.record, phh_context(app, h, viewer(h)))))
        .map_err(|e| ApiError::Internal(format!("a hand does not replay: {e}")))
}

/// Everything, for operators.
fn render_full(app: &App, hands: &[&StoredHand], format: Format, list: bool) -> Result<Response, ApiError> {
    match format {
        Format::Json if list => {
            Ok(Json(hands.iter().map(|h| wire::hand_detail(h)).collect::<Vec<_>>()).into_response())
        }
        Format::Json => Ok(Json(hands.first().map(|h| wire::hand_detail(h))).into_response()),
        Format::Phh if list => Ok(plain(phh_many(app, hands, |_| None)?, "hands.phhs")),
        Format::Phh => Ok(plain(texts(hands, |h| phh::write_hand(&h.record, &phh_context(app, h, None)))?, "hand.phh")),
        Format::Text => {
            Ok(plain(texts(hands, |h| text::write_text(&h.record, &text_context(app, h, None)))?, "hands.txt"))
        }
    }
}

/// As LAST HAND shows them to `player`.
fn render_for_player(
    app: &App,
    hands: &[&StoredHand],
    player: Uuid,
    format: Format,
    list: bool,
) -> Result<Response, ApiError> {
    let viewer = |h: &StoredHand| h.seat_of(player).map(|s| Viewer::Seat(s.seat)).or(Some(Viewer::Observer));
    match format {
        Format::Json => {
            let reports: Vec<_> = hands.iter().filter_map(|h| wire::last_hand_report(h, player)).collect();
            if list {
                Ok(Json(reports).into_response())
            } else {
                let report = reports.into_iter().next().ok_or_else(|| ApiError::NotFound("no such hand".into()))?;
                Ok(Json(report).into_response())
            }
        }
        Format::Phh if list => Ok(plain(phh_many(app, hands, viewer)?, "last-hands.phhs")),
        Format::Phh => {
            Ok(plain(texts(hands, |h| phh::write_hand(&h.record, &phh_context(app, h, viewer(h))))?, "hand.phh"))
        }
        Format::Text => {
            Ok(plain(texts(hands, |h| text::write_text(&h.record, &text_context(app, h, viewer(h))))?, "hands.txt"))
        }
    }
}
