//! The OpenAPI 3.1 document of the HTTP API, generated from the route table below and the
//! types' JSON Schemas (schemars). Served at `GET /api/openapi.json`; `proto/openapi.json` is
//! the committed copy, and a test fails when it is stale.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::{
    AdminLogLine, AdminTable, ApiErrorBody, BanInfo, BanRequest, HandDetail, HandPage, InviteCode, KickRequest,
    KickResult, LastHandReport, LedgerPage, SessionCreated, SessionRequest, TableSettings, TableSettingsPatch,
    TableSummary,
};
use crate::{
    CreateTournament, TournamentDetail, TournamentPatch, TournamentPurchase, TournamentRegistration, TournamentSummary,
};

/// Who may call a route.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Auth {
    /// anyone
    None,
    /// a session token
    Session,
    /// a session token or the operator key
    SessionOrOperator,
    /// an operator key
    Operator,
}

/// Writes a type's schema into the generator and returns its reference.
type SchemaFn = fn(&mut SchemaGenerator) -> Value;

/// One operation.
struct Op {
    method: &'static str,
    path: &'static str,
    summary: &'static str,
    auth: Auth,
    /// (parameter name, in, type, description); the type is `uuid`, `string`, `format`,
    /// `cursor`, `ledger_cursor` or `int:MIN..MAX` (`int:MIN..` for no maximum), with a
    /// trailing `!` when the parameter is required (path parameters always are)
    params: &'static [(&'static str, &'static str, &'static str, &'static str)],
    body: Option<SchemaFn>,
    /// (status, description, schema; None = no body, Some(text) = plain text)
    ok: (u16, &'static str, Option<SchemaFn>),
    /// a history route: `format=json|phh|text`
    formats: bool,
}

fn schema<T: JsonSchema>(g: &mut SchemaGenerator) -> Value {
    g.subschema_for::<T>().to_value()
}

fn list<T: JsonSchema>(g: &mut SchemaGenerator) -> Value {
    json!({"type": "array", "items": g.subschema_for::<T>().to_value()})
}

/// A player's view of a hand, or the operator's full one.
fn either_hand(g: &mut SchemaGenerator) -> Value {
    json!({"oneOf": [g.subschema_for::<LastHandReport>().to_value(), g.subschema_for::<HandDetail>().to_value()]})
}

const ID: (&str, &str, &str, &str) = ("id", "path", "uuid", "a UUID");
const FORMAT: (&str, &str, &str, &str) = ("format", "query", "format", "json (default), phh or text");

/// The JSON Schema of a parameter type (see [`Op::params`]) and whether it is required.
fn param_schema(ty: &str) -> (Value, bool) {
    let (ty, required) = ty.strip_suffix('!').map_or((ty, false), |t| (t, true));
    let schema = match ty {
        "uuid" => json!({"type": "string", "format": "uuid"}),
        "format" => json!({"type": "string", "enum": ["json", "phh", "text"]}),
        "cursor" => json!({"type": "string", "pattern": "^[0-9]{1,19}-[0-9a-f]{32}$"}),
        "ledger_cursor" => json!({"type": "string", "pattern": "^[0-9]{1,19}-[01]-[0-9a-f]{32}-[0-9]{1,18}$"}),
        "idempotency_key" => json!({"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[!-~]+$"}),
        // RFC 6455 4.1: 16 random bytes in base64.
        "ws_key" => json!({"type": "string", "pattern": "^[A-Za-z0-9+/]{21}[AQgw]==$"}),
        word if word.starts_with("word:") => json!({"type": "string", "enum": [word.trim_start_matches("word:")]}),
        int if int.starts_with("int:") => {
            let (min, max) = int.trim_start_matches("int:").split_once("..").unwrap_or(("0", ""));
            let mut schema = json!({"type": "integer", "minimum": min.parse::<u64>().unwrap_or(0)});
            if let Ok(max) = max.parse::<u64>() {
                schema["maximum"] = json!(max);
            }
            schema
        }
        _ => json!({"type": "string"}),
    };
    (schema, required)
}

fn ops() -> Vec<Op> {
    use Auth::*;
    vec![
        Op {
            method: "get",
            path: "/healthz",
            summary: "Liveness: answers `ok`.",
            auth: None,
            params: &[],
            body: Option::None,
            ok: (200, "ok", Option::None),
            formats: false,
        },
        Op {
            method: "get",
            path: "/metrics",
            summary: "Prometheus metrics (text).",
            auth: None,
            params: &[],
            body: Option::None,
            ok: (200, "metrics", Option::None),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/openapi.json",
            summary: "This document.",
            auth: None,
            params: &[],
            body: Option::None,
            ok: (200, "the OpenAPI document", Option::None),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/tables",
            summary: "The public lobby.",
            auth: None,
            params: &[],
            body: Option::None,
            ok: (200, "public tables", Some(list::<TableSummary>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/sessions",
            summary: "Create a session: a guest's (a name), or an operator's user's (an operator-signed JWT; \
                      401 when it is invalid, expired, not yet valid or for another audience). Rate limited per IP.",
            auth: None,
            params: &[],
            body: Some(schema::<SessionRequest>),
            ok: (201, "the session and its token", Some(schema::<SessionCreated>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/ws",
            summary: "The WebSocket (see proto/PROTOCOL.md and proto/schema.json): an HTTP/1.1 upgrade (RFC 6455 \
                      4.1), so a request without these four headers is not this operation's and is answered 400.",
            auth: None,
            params: &[
                ("Upgrade", "header", "word:websocket!", "websocket"),
                ("Connection", "header", "word:Upgrade!", "Upgrade"),
                ("Sec-WebSocket-Version", "header", "word:13!", "13"),
                ("Sec-WebSocket-Key", "header", "ws_key!", "16 random bytes in base64"),
            ],
            body: Option::None,
            ok: (101, "switching protocols", Option::None),
            formats: false,
        },
        Op {
            method: "delete",
            path: "/api/sessions/{id}",
            summary: "Log out: ends the session of the token sent (its own id). From then on the token gets 401 \
                      (and `not_authenticated` on a WebSocket hello); the session's open WebSockets are closed with \
                      code 1008. The player, their balance and hands stay; a seat they hold stays until the table's \
                      clock sits it out.",
            auth: Session,
            params: &[ID],
            body: Option::None,
            ok: (204, "ended", Option::None),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/sessions/{id}/hands",
            summary: "LAST HAND: the session's last hands (with its player's tournament hands), newest first, as the player may see them.",
            auth: Session,
            params: &[ID, ("limit", "query", "int:1..50", "1 to 50 (default 50)"), FORMAT],
            body: Option::None,
            ok: (200, "LAST HAND reports", Some(list::<LastHandReport>)),
            formats: true,
        },
        Op {
            method: "get",
            path: "/api/sessions/{id}/ledger",
            summary: "The session's player's chip ledger (buy-ins, cash hands, cash-outs, tournament fees, refunds and prizes), newest first, paged.",
            auth: Session,
            params: &[
                ID,
                ("limit", "query", "int:1..500", "1 to 500 (default 100)"),
                ("cursor", "query", "ledger_cursor", "next_cursor of the previous page"),
            ],
            body: Option::None,
            ok: (200, "a page of ledger lines", Some(schema::<LedgerPage>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/hands/{id}",
            summary: "One hand: a player dealt in gets their LAST HAND view, an operator the full record.",
            auth: SessionOrOperator,
            params: &[ID, FORMAT],
            body: Option::None,
            ok: (200, "the hand (LastHandReport for a player, HandDetail for an operator)", Some(either_hand)),
            formats: true,
        },
        Op {
            method: "get",
            path: "/api/hands",
            summary: "Every stored hand, newest first, paged.",
            auth: Operator,
            params: &[
                ("table", "query", "uuid", "only this table"),
                ("player", "query", "uuid", "only hands this player was dealt into"),
                ("since", "query", "int:0..18446744073709551615", "ended at or after (ms since the Unix epoch)"),
                ("limit", "query", "int:1..500", "1 to 500 (default 50)"),
                ("cursor", "query", "cursor", "next_cursor of the previous page"),
                FORMAT,
            ],
            body: Option::None,
            ok: (200, "a page of hands", Some(schema::<HandPage>)),
            formats: true,
        },
        Op {
            method: "get",
            path: "/api/admin/tables",
            summary: "Every open table with its settings, invite code and live status.",
            auth: Operator,
            params: &[],
            body: Option::None,
            ok: (200, "tables", Some(list::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tables",
            summary: "Create a table (a private one gets an invite code). Each field's own rule is in the schema; \
                      the rules across fields are answered 400 with a message naming the field: bring_in at most \
                      small_bet; in fixed limit small_bet at most big_bet; min_buy_in at most max_buy_in and at \
                      least ante + bring_in; no open_pair_big_bet in razz-like games; rotation_games needs \
                      rotation_hands and holds variant; every game of a rotation playable at the stakes.",
            auth: Operator,
            params: &[],
            body: Some(schema::<TableSettings>),
            ok: (201, "the table", Some(schema::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/admin/tables/{id}",
            summary: "One table.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the table", Some(schema::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "patch",
            path: "/api/admin/tables/{id}",
            summary: "Change settings; they apply from the next hand (a mixed game's rotation_hands and \
                      rotation_games from its next rotation point). The settings as patched must keep the rules \
                      across fields of POST /api/admin/tables (else 400 naming the field).",
            auth: Operator,
            params: &[ID],
            body: Some(schema::<TableSettingsPatch>),
            ok: (200, "the table", Some(schema::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tables/{id}/pause",
            summary: "No new hands after the current one.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the table", Some(schema::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tables/{id}/resume",
            summary: "Deal again.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the table", Some(schema::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tables/{id}/close",
            summary: "Finish the current hand, cash everyone out, close (answered when done).",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (204, "closed", Option::None),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/admin/tables/{id}/invite",
            summary: "The invite code a private table takes now (null: public, or revoked).",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the code", Some(schema::<InviteCode>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/admin/tournaments/{id}/invite",
            summary: "The invite code a private tournament takes (null: public).",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the code", Some(schema::<InviteCode>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tournaments/{id}/invite",
            summary: "A new invite code for a private tournament (the old one stops working). A public one \
                      is refused 409 not_private.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the new code", Some(schema::<InviteCode>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tables/{id}/invite",
            summary: "A new invite code (the old one stops working).",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the table", Some(schema::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "delete",
            path: "/api/admin/tables/{id}/invite",
            summary: "Revoke the invite code: nobody new gets in.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the table", Some(schema::<AdminTable>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tables/{id}/kick",
            summary: "Remove a player, now or after the current hand.",
            auth: Operator,
            params: &[ID],
            body: Some(schema::<KickRequest>),
            ok: (200, "whether they were there", Some(schema::<KickResult>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/admin/bans",
            summary: "Every ban.",
            auth: Operator,
            params: &[],
            body: Option::None,
            ok: (200, "bans", Some(list::<BanInfo>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/bans",
            summary: "Ban a player from a table or the server (they are removed at once).",
            auth: Operator,
            params: &[],
            body: Some(schema::<BanRequest>),
            ok: (204, "banned", Option::None),
            formats: false,
        },
        Op {
            method: "delete",
            path: "/api/admin/bans",
            summary: "Lift a ban.",
            auth: Operator,
            params: &[
                ("player_id", "query", "uuid!", "the player"),
                ("table_id", "query", "uuid", "the table; none for a server ban"),
            ],
            body: Option::None,
            ok: (204, "lifted", Option::None),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/admin/ledger",
            summary: "The chip ledger, newest first, paged.",
            auth: Operator,
            params: &[
                ("player", "query", "uuid", "only this player's lines"),
                ("table", "query", "uuid", "only lines at this table"),
                ("since", "query", "int:0..18446744073709551615", "at or after (ms since the Unix epoch)"),
                ("limit", "query", "int:1..500", "1 to 500 (default 100)"),
                ("cursor", "query", "ledger_cursor", "next_cursor of the previous page"),
            ],
            body: Option::None,
            ok: (200, "a page of ledger lines", Some(schema::<LedgerPage>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tournaments",
            summary: "Create a tournament (stored; a restart resumes it). Each field's own rule is in the schema; \
                      the rules across fields are answered 400 naming the field: start_at for scheduled \
                      tournaments only; min_entrants at most max_entrants (a sit-and-go: at most 64); each level's \
                      bring_in at most its small_bet, in fixed limit small_bet at most big_bet, minutes or hands \
                      (one of them); payouts with at most two decimals, not more than the place above, adding to \
                      100, no more places than the fewest entrants; late registration (scheduled only) and \
                      re-entry before the last level; rotation_hands and rotation_games for a rotation only; \
                      the rebuy and add-on fields with rebuy_until_level, before the last level; break_every_levels \
                      with break_minutes, fewer than the levels; progressive_bounty with bounty; tickets with satellite_for, which must \
                      name a tournament taking registrations; repeat_minutes for scheduled tournaments only.",
            auth: Operator,
            params: &[],
            body: Some(schema::<CreateTournament>),
            ok: (201, "the tournament", Some(schema::<TournamentDetail>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/admin/tournaments",
            summary: "Every tournament, private ones included, in the order created (the lobby's rows).",
            auth: Operator,
            params: &[],
            body: Option::None,
            ok: (200, "tournaments", Some(list::<TournamentSummary>)),
            formats: false,
        },
        Op {
            method: "patch",
            path: "/api/admin/tournaments/{id}",
            summary: "Change a tournament that has not finished (journaled like any input): its name, a \
                      rotation's rotation_hands and rotation_games (before the start at once, while running \
                      from the next level; the detail shows rotation_pending until then). Rules across fields, \
                      answered 400 naming the field: rotation_hands and rotation_games only for a tournament \
                      whose variant is rotation; every game of the list playable at every level's stakes.",
            auth: Operator,
            params: &[ID],
            body: Some(schema::<TournamentPatch>),
            ok: (200, "the tournament", Some(schema::<TournamentDetail>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tournaments/{id}/pause",
            summary: "Pause a running tournament: no table deals a new hand (hands in play finish) and every \
                      clock stops (the level, a break, rebuy offers, the add-on); entrants are sent \
                      tournament_paused. Refused 409 not_running or paused.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the tournament", Some(schema::<TournamentDetail>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tournaments/{id}/resume",
            summary: "Resume a paused tournament: every clock goes on from where it stopped. Refused 409 \
                      not_running or not_paused.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the tournament", Some(schema::<TournamentDetail>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/admin/tournaments/{id}/cancel",
            summary: "Cancel a tournament before its start: every entrant is refunded.",
            auth: Operator,
            params: &[ID],
            body: Option::None,
            ok: (200, "the tournament", Some(schema::<TournamentDetail>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/tournaments",
            summary: "The tournament lobby. A private tournament is listed only to a player registered in it \
                      (send the session token as a bearer token); operators see every one at \
                      GET /api/admin/tournaments.",
            auth: None,
            params: &[],
            body: Option::None,
            ok: (200, "tournaments", Some(list::<TournamentSummary>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/tournaments/{id}",
            summary: "One tournament: status, structure, level and time to the next, entrants, chips, tables, payouts, results.",
            auth: None,
            params: &[ID],
            body: Option::None,
            ok: (200, "the tournament", Some(schema::<TournamentDetail>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/tournaments/{id}/entries",
            summary: "Register the caller (a session token): entry fee + house fee from the balance. A player whose entry is out re-enters this way while re-entry is open.",
            auth: Session,
            params: &[ID, ("invite_code", "query", "string", "a private tournament's invite code")],
            body: Option::None,
            ok: (201, "registered", Some(schema::<TournamentRegistration>)),
            formats: false,
        },
        Op {
            method: "delete",
            path: "/api/tournaments/{id}/entries",
            summary: "Unregister the caller before the start: refunded in full.",
            auth: Session,
            params: &[ID],
            body: Option::None,
            ok: (200, "unregistered", Some(schema::<TournamentRegistration>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/tournaments/{id}/rebuys",
            summary: "Buy a rebuy for the caller (a session token): the rebuy fee from the balance, into the prize pool. Sold in the rebuy period to a player at or below the starting stack (the chips come at once between hands, else when the hand in play at their table ends) and to one busted in it while the offer lasts (60 s; seated again). Refused `not_offered` otherwise, naming why. With an `Idempotency-Key` (1 to 64 characters, unique per intended rebuy), a request repeating the key of the entry's last rebuy (a retry after a lost answer) is answered 201 as that purchase and charged once.",
            auth: Session,
            params: &[
                ID,
                (
                    "Idempotency-Key",
                    "header",
                    "idempotency_key",
                    "a key unique per intended rebuy: its repeat is answered, not bought again",
                ),
            ],
            body: Option::None,
            ok: (201, "bought", Some(schema::<TournamentPurchase>)),
            formats: false,
        },
        Op {
            method: "post",
            path: "/api/tournaments/{id}/addons",
            summary: "Buy the add-on for the caller (a session token), once, while it is sold (2 minutes from the end of the rebuy period, to players still in): the add-on fee from the balance, into the prize pool.",
            auth: Session,
            params: &[ID],
            body: Option::None,
            ok: (201, "bought", Some(schema::<TournamentPurchase>)),
            formats: false,
        },
        Op {
            method: "get",
            path: "/api/admin/log",
            summary: "The operators' audit log, newest first.",
            auth: Operator,
            params: &[("limit", "query", "int:1..1000", "1 to 1000 (default 100)")],
            body: Option::None,
            ok: (200, "log lines", Some(list::<AdminLogLine>)),
            formats: false,
        },
    ]
}

/// The content type of a route that answers plain text.
fn plain_text(path: &str) -> Option<&'static str> {
    match path {
        "/healthz" => Some("text/plain; charset=utf-8"),
        "/metrics" => Some("text/plain; version=0.0.4"),
        "/api/openapi.json" => Some("application/json"),
        _ => Option::None,
    }
}

/// The error responses the server really sends for an operation.
fn errors(op: &Op) -> Vec<(u16, &'static str)> {
    if op.path == "/ws" {
        return vec![
            (400, "not a WebSocket upgrade (a header missing or wrong; code bad_request)"),
            (426, "the connection cannot be upgraded (code upgrade_required)"),
            (429, "too many connections from this address (code rate_limited)"),
        ];
    }
    let takes_input = !op.params.is_empty() || op.body.is_some();
    let mut errors = Vec::new();
    if takes_input {
        errors.push((400, "bad request"));
    }
    if op.auth != Auth::None {
        errors.push((401, "no valid token or key"));
    }
    if op.path == "/api/sessions" {
        errors.push((401, "the JWT is refused (code token_invalid, token_expired, token_not_yet_valid, token_audience or jwt_disabled), or a guest's sign-in where guest sessions are off (guests_disabled)"));
    }
    if op.auth == Auth::Session {
        errors.push((403, "another session's token, or an operator key"));
    }
    if (op.path.contains("{id}") && op.auth != Auth::Session) || (op.path == "/api/admin/bans" && op.method == "delete")
    {
        errors.push((404, "not found"));
    }
    if op.path.starts_with("/api/tournaments/{id}/") {
        errors.push((404, "no such tournament"));
    }
    if op.path.ends_with("/entries") || op.path.ends_with("/cancel") {
        errors.push((409, "refused by the tournament (full, started, registration closed, already or not registered, wrong invite code, not enough balance)"));
    }
    if op.path.ends_with("/rebuys") || op.path.ends_with("/addons") {
        errors.push((409, "refused by the tournament (not_offered: not sold now or not to this player, the message says why; not_registered; tournament_full; insufficient_balance)"));
    }
    if op.path.ends_with("/invite") {
        errors.push((
            409,
            "the table or tournament is not private (it has no invite code), or the table belongs to a tournament",
        ));
    }
    if op.path.starts_with("/api/admin/tournaments/{id}")
        && matches!(op.method, "patch" | "post")
        && !op.path.ends_with("/invite")
        && !op.path.ends_with("/cancel")
    {
        errors.push((409, "refused by the tournament: not_running (finished or cancelled), paused (pause when paused), not_paused (resume when running), last_level (a change of the rotation while the last level is played)"));
    }
    if (op.path == "/api/admin/tables/{id}" && op.method == "patch")
        || op.path == "/api/admin/tables/{id}/kick"
        || op.path == "/api/admin/tables/{id}/close"
    {
        errors.push((409, "the table belongs to a tournament: only its tournament changes it"));
    }
    if op.body.is_some() {
        errors.push((408, "the body did not arrive within the server's header timeout (code request_timeout; the connection is closed)"));
        errors.push((413, "the body is over the size limit"));
    }
    if op.path == "/api/sessions" {
        errors.push((429, "rate limited"));
    }
    if matches!(op.path, "/api/sessions/{id}/hands" | "/api/sessions/{id}/ledger" | "/api/hands/{id}") {
        errors.push((429, "too many history reads by this player or address (history_reads_per_minute; operators are not limited); code rate_limited"));
    }
    if op.path.ends_with("/entries") && op.method == "post" {
        errors.push((
            429,
            "too many wrong invite codes from this player or address (counted with private tables'); code rate_limited",
        ));
    }
    if op.auth != Auth::None || op.path == "/api/sessions" {
        errors.push((503, "the store is unavailable"));
    }
    errors
}

/// The document.
pub fn document() -> Value {
    let mut g =
        SchemaSettings::draft2020_12().with(|s| s.definitions_path = "/components/schemas".into()).into_generator();
    let error = schema::<ApiErrorBody>(&mut g);
    let mut paths = Map::new();
    for op in ops() {
        let mut o = Map::new();
        o.insert("summary".into(), json!(op.summary));
        let params: Vec<Value> = op
            .params
            .iter()
            .map(|(name, place, ty, desc)| {
                let (schema, required) = param_schema(ty);
                json!({"name": name, "in": place, "required": required || *place == "path", "description": desc, "schema": schema})
            })
            .collect();
        if !params.is_empty() {
            o.insert("parameters".into(), Value::Array(params));
        }
        if let Some(body) = op.body {
            o.insert(
                "requestBody".into(),
                json!({"required": true, "content": {"application/json": {"schema": body(&mut g)}}}),
            );
        }
        let mut responses = Map::new();
        let (status, desc, body) = op.ok;
        let mut ok = json!({"description": desc});
        if let Some(body) = body {
            let mut content = json!({"application/json": {"schema": body(&mut g)}});
            if op.formats {
                content["text/plain"] = json!({"schema": {"type": "string", "description": "format=phh: PHH (TOML); format=text: PokerStars-style history"}});
            }
            ok["content"] = content;
        } else if let Some(text) = plain_text(op.path) {
            let schema = if text == "application/json" { json!({"type": "object"}) } else { json!({"type": "string"}) };
            ok["content"] = json!({text: {"schema": schema}});
        }
        responses.insert(status.to_string(), ok);
        for (code, desc) in errors(&op) {
            let content = json!({"application/json": {"schema": error.clone()}});
            responses.insert(code.to_string(), json!({"description": desc, "content": content}));
        }
        o.insert("responses".into(), Value::Object(responses));
        let security = match op.auth {
            Auth::None => Option::None,
            Auth::Session | Auth::SessionOrOperator | Auth::Operator => Some(json!([{"bearer": []}])),
        };
        if let Some(s) = security {
            o.insert("security".into(), s);
        }
        let entry = paths.entry(op.path.to_owned()).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = entry {
            m.insert(op.method.into(), Value::Object(o));
        }
    }
    let schemas = g.take_definitions(true);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "stud",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "An authoritative Seven Card Stud server: lobby, guest sessions, hand history, operators. The real-time game is the WebSocket at /ws (proto/PROTOCOL.md).",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "a session token (POST /api/sessions) or an operator key"}},
        },
    })
}

/// The document as committed: pretty JSON with a trailing newline.
pub fn document_json() -> String {
    let mut text = serde_json::to_string_pretty(&document()).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn committed_openapi_is_fresh() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/openapi.json");
        let fresh = super::document_json();
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "proto/openapi.json is stale: run `UPDATE_SCHEMA=1 cargo test -p stud-proto` and commit it"
        );
    }

    #[test]
    fn every_reference_resolves_and_every_operation_answers() {
        let doc = super::document();
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for part in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
            let name = part.split('"').next().unwrap();
            assert!(schemas.contains_key(name), "dangling $ref {name}");
        }
        for (path, ops) in doc["paths"].as_object().unwrap() {
            for (method, op) in ops.as_object().unwrap() {
                assert!(op["responses"].as_object().is_some_and(|r| !r.is_empty()), "{method} {path}");
            }
        }
        assert!(schemas.contains_key("TableSettings") && schemas.contains_key("HandDetail"));
    }

    #[test]
    fn parameters_are_typed_bounded_and_required_as_the_server_takes_them() {
        let doc = super::document();
        let param = |path: &str, method: &str, name: &str| {
            doc["paths"][path][method]["parameters"]
                .as_array()
                .and_then(|ps| ps.iter().find(|p| p["name"] == name).cloned())
                .unwrap_or_else(|| panic!("{method} {path} has no {name}"))
        };
        for (path, ops) in doc["paths"].as_object().unwrap() {
            for (method, op) in ops.as_object().unwrap() {
                for p in op["parameters"].as_array().into_iter().flatten() {
                    if p["in"] == "path" {
                        assert_eq!(p["schema"]["format"], "uuid", "{method} {path}");
                        assert_eq!(p["required"], true, "{method} {path}");
                    }
                    if p["name"] == "limit" {
                        assert_eq!(p["schema"]["minimum"], 1, "{method} {path}");
                        assert!(p["schema"]["maximum"].is_u64(), "{method} {path}");
                    }
                }
            }
        }
        assert_eq!(param("/api/admin/bans", "delete", "player_id")["required"], true);
        assert_eq!(param("/api/admin/bans", "delete", "table_id")["required"], false);
        assert_eq!(param("/api/sessions/{id}/hands", "get", "limit")["schema"]["maximum"], 50);
        assert_eq!(param("/api/admin/ledger", "get", "player")["schema"]["format"], "uuid");
        // Errors: what each route really answers.
        let responses = |path: &str, method: &str| -> Vec<String> {
            doc["paths"][path][method]["responses"].as_object().unwrap().keys().cloned().collect()
        };
        assert_eq!(responses("/api/tables", "get"), ["200"]);
        assert_eq!(responses("/api/sessions", "post"), ["201", "400", "401", "408", "413", "429", "503"]);
        assert_eq!(responses("/api/sessions/{id}/ledger", "get"), ["200", "400", "401", "403", "429", "503"]);
        assert_eq!(responses("/api/sessions/{id}", "delete"), ["204", "400", "401", "403", "503"]);
        assert_eq!(
            responses("/api/admin/tables/{id}", "patch"),
            ["200", "400", "401", "404", "408", "409", "413", "503"]
        );
        assert_eq!(
            doc["paths"]["/healthz"]["get"]["responses"]["200"]["content"]["text/plain; charset=utf-8"]["schema"]["type"],
            "string"
        );
    }
}
