//! One WebSocket connection, in one task: the client's messages read and the frames queued
//! for it (by the tables it joined, by its own replies) written, both by `socket`.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use tokio::time::Instant;

use hyper_util::rt::TokioIo;
use stud_proto::{ClientMsg, ErrorCode, PROTOCOL_VERSION, RequestId, ServerMsg, TournamentOfferKind};
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info};
use uuid::Uuid;

use crate::access::Refusal;
use crate::app::{App, HISTORY_WAIT, HistoryError};
use crate::session::Session;
use crate::table::{Act, Conn, TableCmd, TableGone};
use crate::wire::{self, Frame};

pub mod codec;
pub mod socket;
mod strict;

use codec::Incoming;
use socket::{Event, Socket};

struct Connection {
    app: Arc<App>,
    id: u64,
    /// the client's address (for per-IP limits)
    peer: IpAddr,
    outbox: crate::outbox::Outbox,
    kick: CancellationToken,
    session: Option<Arc<Session>>,
    joined: HashSet<Uuid>,
}

/// An upgraded HTTP connection, as `/ws` hands it over.
pub type Io = TokioIo<hyper::upgrade::Upgraded>;

/// Serves one socket until it closes, is kicked, or the server shuts down.
///
/// Not an `async fn`: its arguments would be kept in every socket's task beside what is made
/// of them, and again by a tracing wrapper.
// (A debug span: an info one is a registry entry per socket, about 250 bytes each.)
pub fn serve_socket(
    app: Arc<App>,
    io: Io,
    shutdown: CancellationToken,
    peer: IpAddr,
) -> impl Future<Output = ()> + Send + 'static {
    let id = app.players.next_conn_id();
    let span = tracing::debug_span!("serve_socket", conn_id = id);
    async move {
        app.metrics.connections.fetch_add(1, Relaxed);
        let (outbox, inbox) = crate::outbox::channel(app.config.outbound_queue);
        // Frames past 4x `max_frame_bytes` are refused by the WebSocket layer (1009); up to
        // that we answer with a typed `frame_too_large` error and keep the connection.
        let mut socket = Socket::new(io, inbox, app.config.max_frame_bytes.saturating_mul(4));
        // Kicked (the player's other socket took over, banned, ...) or the server shutting
        // down: one token, so one wait in every socket's task rather than two.
        let kick = shutdown.child_token();
        let mut conn = Connection {
            app: app.clone(),
            id,
            peer,
            outbox,
            kick: kick.clone(),
            session: None,
            joined: HashSet::new(),
        };
        // A socket that never says hello holds a task and one of its address's connection
        // slots: it gets `hello_timeout_ms`, then a 1008 close. Boxed and dropped at the hello:
        // a socket's timer is not kept for its life.
        let mut hello_by =
            Some(Box::pin(tokio::time::sleep(std::time::Duration::from_millis(app.config.hello_timeout_ms))));
        // The close frame we end with: a code and its reason, or none.
        let close: Option<(u16, String)> = loop {
            if conn.session.is_some() {
                hello_by = None;
            }
            // Logged out (`DELETE /api/sessions/{id}`, maybe from another device): the socket closes.
            let session = conn.session.clone();
            let ended = async {
                match &session {
                    Some(s) => s.ended().await,
                    None => std::future::pending().await,
                }
            };
            let event = tokio::select! {
                e = socket.next() => e,
                () = kick.cancelled() => {
                    let down = shutdown.is_cancelled();
                    break down.then(|| (codec::GOING_AWAY, "the server is shutting down".into()));
                }
                () = ended => break Some((codec::POLICY, LOGGED_OUT.into())),
                () = async {
                    match hello_by.as_mut() {
                        Some(timer) => timer.await,
                        None => std::future::pending().await,
                    }
                }, if conn.session.is_none() => {
                    break Some((codec::POLICY, format!("no hello within {} ms", app.config.hello_timeout_ms)));
                }
            };
            match event {
                Event::Message(Incoming::Text(text)) => {
                    // Boxed: the work for one message (a table command, a history read, a
                    // login) is allocated while it runs, not held in every idle socket's task.
                    // Meanwhile the socket's frames keep going out.
                    let mut work = Box::pin(conn.on_text(&text));
                    tokio::select! {
                        () = &mut work => {}
                        () = socket.write() => {
                            work.await;
                            break None;
                        }
                    }
                }
                Event::Message(Incoming::Binary) => conn.error_unread(ErrorCode::Malformed, "send JSON text frames"),
                Event::Message(Incoming::Ping(payload)) => socket.pong(&payload),
                Event::Message(Incoming::Pong) => {}
                // The client closes: its code echoed (RFC 6455 5.5.1), but for 1010, which
                // only a client sends (an extension it needed).
                Event::Message(Incoming::Close(code)) => {
                    break code.map(|c| (if c == 1010 { codec::NORMAL } else { c }, String::new()));
                }
                Event::Violation(v) => {
                    debug!(code = v.code, reason = %v.reason, "protocol violation");
                    break Some((v.code, v.reason));
                }
                Event::Gone => break None,
            }
        };
        Box::pin(conn.closed()).await;
        kick.cancel();
        socket.close(close.as_ref().map(|(code, reason)| (*code, reason.as_str()))).await;
        app.metrics.connections.fetch_sub(1, Relaxed);
    }
    .instrument(span)
}

/// The reason of the close frame a logged-out session's sockets get (code 1008).
pub const LOGGED_OUT: &str = "logged out: this session has ended";

/// The `request_id` of a frame refused before it was parsed as a message (rate limited, too
/// large, not a valid message): `Some` when the frame is a JSON object whose `request_id` is a
/// string, null or absent; `None` when it could not be read.
fn peek_request_id(text: &str) -> Option<RequestId> {
    #[derive(serde::Deserialize)]
    struct Peek {
        #[serde(default)]
        request_id: RequestId,
    }
    serde_json::from_str::<Peek>(text).ok().map(|p| p.request_id)
}

impl Connection {
    /// The socket has closed: the player's other sockets and the tables it joined are told.
    async fn closed(mut self) {
        if let Some(session) = &self.session {
            self.app.players.socket_closed(session.player_id, self.id);
        }
        for table in self.joined.drain() {
            if let Some(handle) = self.app.lobby.get(table) {
                let _ = handle.send(TableCmd::Disconnect { conn_id: self.id }).await;
            }
        }
    }

    fn send(&self, frame: Frame) {
        // Our own replies never wait either: a client that does not read loses them.
        let _ = self.outbox.try_send(frame);
    }

    /// A rebuy or the add-on: answered `tournament_purchase` or a typed error.
    async fn purchase(
        &self,
        session: &Session,
        request_id: RequestId,
        tournament_id: Uuid,
        kind: TournamentOfferKind,
        key: Option<String>,
    ) {
        if let Some(k) = key.as_deref().filter(|k| !stud_proto::idempotency_key_ok(k)) {
            let code = if k.is_empty() { ErrorCode::Malformed } else { ErrorCode::TooLong };
            let why = format!("an idempotency key is 1 to {} characters", stud_proto::MAX_IDEMPOTENCY_KEY);
            return self.error(request_id, code, why);
        }
        let Some(handle) = self.app.tournaments.get(tournament_id) else {
            return self.error(request_id, ErrorCode::UnknownTournament, format!("no tournament {tournament_id}"));
        };
        match self.app.purchase(&handle, session, kind, key).await {
            Ok(purchase) => self.send(wire::frame(&ServerMsg::TournamentPurchase { request_id, purchase })),
            Err(e) => self.error(request_id, e.code(), e.to_string()),
        }
    }

    /// A deal's proposal or answer: the deal as it stands after it (the other players are
    /// told by the tournament).
    async fn deal(&self, request_id: RequestId, tournament_id: Uuid, command: stud_tournament::Command) {
        let Some(handle) = self.app.tournaments.get(tournament_id) else {
            return self.error(request_id, ErrorCode::UnknownTournament, format!("no tournament {tournament_id}"));
        };
        let before = wire::tournament::deal(&handle.now());
        if let Err(e) = handle.operate(command).await {
            return self.error(request_id, e.code(), e.to_string());
        }
        let deal = match (wire::tournament::deal(&handle.now()), before) {
            (Some(deal), _) => deal,
            (None, Some(last)) => wire::tournament::deal_off(last),
            (None, None) => return self.error(request_id, ErrorCode::NotNow, "no deal"),
        };
        self.send(wire::frame(&ServerMsg::TournamentDeal { request_id, tournament_id, deal }));
    }

    fn error(&self, request_id: RequestId, code: ErrorCode, message: impl Into<String>) {
        self.app.metrics.error(code);
        self.send(wire::error(request_id, code, message));
    }

    /// An error for a frame whose `request_id` could not be read (`unread: true`).
    fn error_unread(&self, code: ErrorCode, message: impl Into<String>) {
        self.app.metrics.error(code);
        self.send(wire::error_unread(code, message));
    }

    /// An error for a frame refused before it was parsed as a message: with its `request_id`
    /// when that can be read, else marked `unread`.
    fn refuse_frame(&self, text: &str, code: ErrorCode, message: String) {
        match peek_request_id(text) {
            Some(request_id) => self.error(request_id, code, message),
            None => self.error_unread(code, message),
        }
    }

    /// History could not be read: the detail goes to the log, the client gets a fixed text.
    fn unavailable(&self, request_id: RequestId, e: &HistoryError) {
        let message = match e {
            HistoryError::Behind => "the hand history is catching up; try again shortly",
            HistoryError::Store(e) => {
                tracing::error!(error = %e, "store error");
                crate::http::error::UNAVAILABLE
            }
        };
        self.error(request_id, ErrorCode::Unavailable, message);
    }

    async fn on_text(&mut self, text: &str) {
        let received = Instant::now();
        // Refused unread, but the sender still learns which request it was when it can be told
        // (frames are at most 4x `max_frame_bytes` here: the WebSocket layer closes on more).
        if let Err(wait) = self.app.limits.messages.check(&self.id) {
            let per_second = self.app.config.messages_per_second;
            let message =
                format!("at most {per_second} messages a second; this one was dropped (wait {} ms)", wait.as_millis());
            return self.refuse_frame(text, ErrorCode::RateLimited, message);
        }
        if text.len() > self.app.config.max_frame_bytes {
            let limit = self.app.config.max_frame_bytes;
            return self.refuse_frame(text, ErrorCode::FrameTooLarge, format!("frames are limited to {limit} bytes"));
        }
        let value = match strict::parse(text) {
            Ok(v) => v,
            Err(e) => {
                // A duplicate key is found while parsing; the id may still be readable.
                let why = if e.is_data() { "not a valid message" } else { "not JSON" };
                return self.refuse_frame(text, ErrorCode::Malformed, format!("{why}: {e}"));
            }
        };
        let request_id = match value.get("request_id") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(r)) => Some(r.clone()),
            Some(_) => return self.error_unread(ErrorCode::Malformed, "request_id must be a string"),
        };
        let Some(kind) = value.get("type").and_then(|t| t.as_str()).map(str::to_owned) else {
            return self.error(request_id, ErrorCode::Malformed, "a message needs a string \"type\"");
        };
        if !ClientMsg::TYPES.contains(&kind.as_str()) {
            return self.error(request_id, ErrorCode::UnknownType, format!("unknown message type {kind:?}"));
        }
        let msg: ClientMsg = match serde_json::from_value(value) {
            Ok(m) => m,
            Err(e) => return self.error(request_id, ErrorCode::Malformed, format!("bad {kind} message: {e}")),
        };
        self.dispatch(msg, received).await;
    }

    async fn dispatch(&mut self, msg: ClientMsg, received: Instant) {
        let request_id = msg.request_id();
        if let ClientMsg::Hello { version, token } = &msg {
            return self.hello(*version, token).await;
        }
        if let ClientMsg::Ping { request_id, nonce } = msg {
            return self.send(wire::frame(&ServerMsg::Pong { request_id, nonce }));
        }
        let Some(session) = self.session.clone() else {
            return self.error(request_id, ErrorCode::NotAuthenticated, "say hello with a session token first");
        };
        let conn_id = self.id;
        let (table_id, cmd) = match msg {
            ClientMsg::Hello { .. } | ClientMsg::Ping { .. } => return,
            ClientMsg::LastHands { request_id } | ClientMsg::LastHand { request_id, .. }
                if let Err(wait) = self.app.limits.read_history(session.player_id, self.peer) =>
            {
                let message = format!("too many history reads; try again in {} s", wait.as_secs() + 1);
                return self.error(request_id, ErrorCode::RateLimited, message);
            }
            ClientMsg::LastHands { request_id } => {
                let hands = match self.app.last_hands(&session, HISTORY_WAIT).await {
                    Ok(h) => h,
                    Err(e) => return self.unavailable(request_id, &e),
                };
                let hands = hands.iter().filter_map(|h| wire::summary(h, session.player_id)).collect();
                return self.send(wire::frame(&ServerMsg::LastHands { request_id, hands }));
            }
            ClientMsg::LastHand { request_id, hand_id } => {
                let hands = match self.app.last_hands(&session, HISTORY_WAIT).await {
                    Ok(h) => h,
                    Err(e) => return self.unavailable(request_id, &e),
                };
                let report = hands
                    .iter()
                    .find(|h| h.hand_id == hand_id)
                    .and_then(|h| wire::last_hand_report(h, session.player_id));
                return match report {
                    Some(report) => self.send(wire::frame(&ServerMsg::LastHand { request_id, report })),
                    None => self.error(request_id, ErrorCode::UnknownHand, "not one of this session's last hands"),
                };
            }
            ClientMsg::TournamentRegister { request_id, tournament_id, invite_code } => {
                let Some(handle) = self.app.tournaments.get(tournament_id) else {
                    return self.error(
                        request_id,
                        ErrorCode::UnknownTournament,
                        format!("no tournament {tournament_id}"),
                    );
                };
                let registered =
                    self.app.register_entry(&handle, session.player_id, self.peer, session.name.clone(), invite_code);
                return match registered.await {
                    Ok(()) => self.send(wire::frame(&ServerMsg::TournamentRegistration {
                        request_id,
                        registration: self.app.registration(tournament_id, &session, true).await,
                    })),
                    Err(e) => self.error(request_id, e.code(), e.to_string()),
                };
            }
            ClientMsg::TournamentRebuy { request_id, tournament_id, idempotency_key } => {
                let kind = TournamentOfferKind::Rebuy;
                return self.purchase(&session, request_id, tournament_id, kind, idempotency_key).await;
            }
            ClientMsg::TournamentAddon { request_id, tournament_id } => {
                return self.purchase(&session, request_id, tournament_id, TournamentOfferKind::Addon, None).await;
            }
            ClientMsg::TournamentDealPropose { request_id, tournament_id, method, leave } => {
                let command = stud_tournament::Command::ProposeDeal {
                    player: session.player_id,
                    method: wire::tournament::deal_method(method),
                    leave,
                };
                return self.deal(request_id, tournament_id, command).await;
            }
            ClientMsg::TournamentDealAnswer { request_id, tournament_id, accept } => {
                let command = stud_tournament::Command::AnswerDeal { player: session.player_id, accept };
                return self.deal(request_id, tournament_id, command).await;
            }
            ClientMsg::TournamentUnregister { request_id, tournament_id } => {
                let Some(handle) = self.app.tournaments.get(tournament_id) else {
                    return self.error(
                        request_id,
                        ErrorCode::UnknownTournament,
                        format!("no tournament {tournament_id}"),
                    );
                };
                return match handle.unregister(session.player_id).await {
                    Ok(()) => self.send(wire::frame(&ServerMsg::TournamentRegistration {
                        request_id,
                        registration: self.app.registration(tournament_id, &session, false).await,
                    })),
                    Err(e) => self.error(request_id, e.code(), e.to_string()),
                };
            }
            ClientMsg::JoinTable { request_id, table_id, invite_code } => {
                if let Err((code, message)) = self.admitted(&session, table_id, invite_code.as_deref()) {
                    return self.error(request_id, code, message);
                }
                (table_id, TableCmd::Join { conn: self.conn(session.clone()), request_id, watch: true })
            }
            ClientMsg::Sit { request_id, table_id, invite_code, seat, buy_in } => {
                if let Err((code, message)) = self.admitted(&session, table_id, invite_code.as_deref()) {
                    return self.error(request_id, code, message);
                }
                (table_id, TableCmd::Sit { conn_id, request_id, seat, buy_in })
            }
            ClientMsg::Act { request_id, table_id, hand_id, seq, idempotency_key, action } => {
                let act = Box::new(Act { hand_id, seq, key: idempotency_key, action, received });
                (table_id, TableCmd::Act { conn_id, request_id, act })
            }
            ClientMsg::SitOut { request_id, table_id } => {
                (table_id, TableCmd::SitOut { conn_id, request_id, out: true })
            }
            ClientMsg::SitIn { request_id, table_id } => {
                (table_id, TableCmd::SitOut { conn_id, request_id, out: false })
            }
            ClientMsg::AutoMuck { request_id, table_id, on } => {
                (table_id, TableCmd::AutoMuck { conn_id, request_id, on })
            }
            ClientMsg::Waitlist { request_id, table_id, on } => {
                (table_id, TableCmd::Waitlist { conn_id, request_id, on })
            }
            ClientMsg::TopUp { request_id, table_id, amount } => {
                (table_id, TableCmd::TopUp { conn_id, request_id, amount })
            }
            ClientMsg::Leave { request_id, table_id } => (table_id, TableCmd::Leave { conn_id, request_id }),
            ClientMsg::Snapshot { request_id, table_id } => (table_id, TableCmd::Snapshot { conn_id, request_id }),
            ClientMsg::Chat { request_id, table_id, text } => (table_id, TableCmd::Chat { conn_id, request_id, text }),
        };
        let Some(handle) = self.app.lobby.get(table_id) else {
            return self.error(request_id, ErrorCode::UnknownTable, format!("no table {table_id}"));
        };
        // Sitting implies watching, and a seated player's commands bring their seat's view back;
        // anything else needs a `join_table` first (which checks bans, invite codes and whether
        // the table takes observers).
        let seated = self.app.players.seated_tables(session.player_id).contains(&table_id);
        // A sit from someone without a seat always (re)subscribes: the table may have dropped
        // this socket (observers off, kicked) without the socket knowing.
        let sitting = matches!(cmd, TableCmd::Sit { .. }) && !seated;
        if (sitting || !self.joined.contains(&table_id)) && !matches!(cmd, TableCmd::Join { .. }) {
            if !seated && !sitting {
                debug!(conn_id = self.id, player_id = %session.player_id, %table_id, "not joined here and not seated: refused");
                return self.error(request_id, ErrorCode::NotSeated, "join the table first");
            }
            let join = TableCmd::Join { conn: self.conn(session.clone()), request_id: None, watch: false };
            if let Err(e) = handle.send(join).await {
                return self.not_sent(request_id, &e);
            }
            self.joined.insert(table_id);
        }
        if matches!(cmd, TableCmd::Leave { .. }) {
            self.joined.remove(&table_id);
        } else {
            self.joined.insert(table_id);
        }
        if let Err(e) = handle.send(cmd).await {
            self.not_sent(request_id, &e);
        }
    }

    /// A command that did not reach its table: closed, or (on a cluster) not reachable now.
    fn not_sent(&self, request_id: RequestId, e: &TableGone) {
        match e {
            TableGone::Stopped => self.error(request_id, ErrorCode::UnknownTable, "the table has closed"),
            TableGone::Unreachable => {
                self.error(request_id, ErrorCode::Unavailable, crate::http::error::CLUSTER_UNREACHABLE);
            }
        }
    }

    /// Bans and invite codes ([`crate::access::Access::admit`]): whether this player may join
    /// or sit at `table`.
    fn admitted(&self, session: &Session, table: Uuid, code: Option<&str>) -> Result<(), (ErrorCode, String)> {
        let seated = self.app.players.seated_tables(session.player_id).contains(&table);
        self.app.access.admit(session.player_id, self.peer, table, seated, code).map_err(|refusal| {
            let code = match refusal {
                Refusal::Banned => ErrorCode::Forbidden,
                Refusal::CodeMissing | Refusal::WrongCode => ErrorCode::InviteRequired,
                Refusal::TooManyCodes => ErrorCode::RateLimited,
            };
            (code, refusal.to_string())
        })
    }

    fn conn(&self, session: Arc<Session>) -> Conn {
        Conn { id: self.id, session, outbox: self.outbox.clone(), kick: self.kick.clone() }
    }

    async fn hello(&mut self, version: u32, token: &str) {
        if let Some(session) = self.session.as_ref().filter(|s| s.token != token) {
            // One socket, one session: a hello with another token would switch players under
            // the tables this socket has joined.
            let message = format!("this socket is already {}'s; open another socket for another session", session.name);
            return self.error(None, ErrorCode::AlreadyAuthenticated, message);
        }
        if version != PROTOCOL_VERSION {
            return self.error(
                None,
                ErrorCode::UnsupportedVersion,
                format!("this server speaks protocol version {PROTOCOL_VERSION}, not {version}"),
            );
        }
        let resolved = match &self.session {
            // The same token again: a refresh (the welcome carries the balance as it is now).
            Some(s) => Ok(Some(s.clone())),
            None => self.app.resolve_session(token).await,
        };
        let session = match resolved {
            Ok(Some(s)) if !s.is_ended() => s,
            Ok(_) => {
                return self.error(
                    None,
                    ErrorCode::NotAuthenticated,
                    "unknown or expired session token: POST /api/sessions first",
                );
            }
            Err(e) => {
                tracing::warn!(error = %e, "session lookup failed");
                return self.error(None, ErrorCode::Unavailable, crate::http::error::UNAVAILABLE);
            }
        };
        if self.app.access.is_banned(session.player_id, None) {
            return self.error(None, ErrorCode::Forbidden, "this account is banned from the server");
        }
        info!(conn_id = self.id, player_id = %session.player_id, "hello");
        self.send(wire::frame(&ServerMsg::Welcome {
            version: PROTOCOL_VERSION,
            player_id: session.player_id,
            session_id: session.session_id,
            name: session.name.clone(),
            balance: self.app.shown_balance(session.player_id).await,
        }));
        self.session = Some(session.clone());
        self.app.players.socket_opened(session.player_id, session.session_id, self.id, self.outbox.clone());
        // Back to every seat this player holds: snapshot, and the prompt if it is their turn.
        for table_id in self.app.players.seated_tables(session.player_id) {
            if self.joined.contains(&table_id) {
                continue;
            }
            if let Some(handle) = self.app.lobby.get(table_id) {
                let join = TableCmd::Join { conn: self.conn(session.clone()), request_id: None, watch: false };
                let sent = handle.send(join).await;
                debug!(conn_id = self.id, player_id = %session.player_id, %table_id, ok = sent.is_ok(), "hello: back to a seat");
                if sent.is_ok() {
                    self.joined.insert(table_id);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The task of every socket holds its state once: as an `async fn` with a tracing wrapper,
    /// `serve_socket` kept its arguments twice beside what it made of them (1,376 bytes a
    /// socket). With tungstenite it was 712 bytes plus a writer task of 544 and the buffers;
    /// then the one task read, wrote and closed the socket itself (960 bytes); and with one
    /// cancellation wait for a kick or the shutdown, and the hello's timer boxed and dropped at
    /// the hello, 800 bytes.
    #[test]
    fn a_socket_task_is_small() {
        fn output_size<F, A, B, C, D, R>(_: F) -> usize
        where
            F: FnOnce(A, B, C, D) -> R,
        {
            std::mem::size_of::<R>()
        }
        let task = output_size(super::serve_socket);
        assert!(task <= 832, "a socket's task is {task} bytes");
    }
}
