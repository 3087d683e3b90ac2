//! Tournaments in the server: one task per tournament around its core
//! ([`stud_tournament::Tournament`]), the registry the routes and sockets reach them through,
//! the lobby views, and the start-up rebuild from the store.
//!
//! A tournament is its journal, like a table: the task checks a command with the core,
//! stores the input it makes together with the ledger entries it causes (an entry fee, a
//! refund) in one transaction, and only then makes it the tournament's state (see
//! [`actor`]). At start every stored tournament is rebuilt from its snapshot and the entries
//! after it and goes on.
//!
//! Money: a registration moves entry fee + house fee (+ the bounty) from the player's account to the
//! tournament (ledger kind `tournament_entry`, the tournament's id in `table_id`); an
//! unregistration or a cancellation moves it back (`tournament_refund`). The ledger's totals
//! count what tournaments hold with the chips on tables, so `issued == balances + on_tables`
//! still holds.
//!
//! Play: the tournament's tables are table tasks like cash tables (the table core in
//! tournament mode, journaled, resumed after a restart; see [`tables`]). The tournament's task
//! seats and moves players, lets each table deal when the core agrees (levels, hand-for-hand),
//! and takes each table's report of a finished hand (sent without waiting, through an
//! unbounded channel: a table never waits for its tournament). A prize is a ledger entry
//! (`tournament_prize`) stored with the input that placed the player; a bounty one
//! (`tournament_bounty`) stored with the input that paid it (a table's report, the clock's
//! lapse of a rebuy offer).

pub mod actor;
pub mod resync;
pub mod tables;

use std::sync::{Arc, PoisonError, RwLock};

use sha2::{Digest, Sha256};
use stud_proto::ErrorCode;
use stud_tournament::{Journaled, Status, Tournament, TournamentError, TournamentSpec};
use tokio::sync::{mpsc, oneshot, watch};
use uuid::Uuid;

/// The next one of a series: its id (derived from this one's, so a restart finds it instead of
/// scheduling another) and its spec. A repeating scheduled tournament that has started, or was
/// cancelled at its start time for too few entrants, is followed by this one's spec starting
/// `repeat_minutes` after this one's start (the scheduler moves a start that has passed on by
/// whole repeats); an operator's cancellation before the start ends the series. A recurring
/// sit-and-go that has started is followed by the same sit-and-go.
pub fn successor(t: &Tournament) -> Option<(Uuid, TournamentSpec)> {
    let started = matches!(t.status(), Status::Running | Status::Finished);
    let mut spec = t.spec().clone();
    match spec.kind {
        stud_tournament::Kind::Scheduled => {
            let minutes = spec.repeat_minutes?;
            let start = spec.start_at?;
            let at_its_start = t.cancelled_at().is_some_and(|at| at >= start);
            if !started && !at_its_start {
                return None;
            }
            spec.start_at = Some(start + u64::from(minutes) * 60_000);
        }
        stud_tournament::Kind::SitAndGo => {
            if !spec.recurring || !started {
                return None;
            }
        }
    }
    let digest = Sha256::new().chain_update(b"stud tournament repeat").chain_update(t.id().as_bytes()).finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    // A version-8 (custom) UUID of the RFC 9562 variant.
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    Some((Uuid::from_bytes(bytes), spec))
}

/// A request to a tournament task.
pub enum TournamentCmd {
    /// register `player`
    Register {
        /// who
        player: Uuid,
        /// display name
        name: String,
        /// a private tournament's code
        invite_code: Option<String>,
        /// the outcome
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// unregister `player` (refunded)
    Unregister {
        /// who
        player: Uuid,
        /// the outcome
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// `player` buys a rebuy
    Rebuy {
        /// who
        player: Uuid,
        /// the buyer's key for this purchase (a repeat of the last one is answered, not bought)
        key: Option<String>,
        /// the outcome
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// `player` buys the add-on
    AddOn {
        /// who
        player: Uuid,
        /// the outcome
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// an operator cancels before the start (everyone refunded)
    Cancel {
        /// the outcome
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// an operator's command that moves no money (pause, resume, rename, a new invite code)
    Operate {
        /// the command
        command: stud_tournament::Command,
        /// the outcome
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// stop the task (shutdown); nothing to save: every input is stored
    Shutdown {
        /// answered when stopped
        reply: oneshot::Sender<()>,
    },
}

/// Why a tournament command was refused. Nothing was stored or charged. (Serialized as a
/// cluster gateway relays it from the gateway directing the tournament.)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum Refusal {
    /// the core refused it
    #[error("{0}")]
    Rules(#[from] TournamentError),
    /// the account cannot pay
    #[error("balance {balance} is less than {need}")]
    Balance {
        /// the balance
        balance: u64,
        /// entry fee + house fee
        need: u64,
    },
    /// the store cannot take it now, or the task has stopped
    #[error("the tournament cannot record this right now; try again")]
    Unavailable,
    /// too many wrong invite codes from this player or address (tables' and tournaments'
    /// alike): no code is looked at until the counter refills
    #[error("too many wrong invite codes; try again in a minute")]
    TooManyCodes,
}

impl Refusal {
    /// The WebSocket's error code.
    pub fn code(&self) -> ErrorCode {
        match self {
            Refusal::Rules(e) => match e {
                TournamentError::Full => ErrorCode::TournamentFull,
                TournamentError::Started => ErrorCode::TournamentStarted,
                TournamentError::RegistrationClosed | TournamentError::ReentryClosed => ErrorCode::RegistrationClosed,
                TournamentError::AlreadyRegistered | TournamentError::StillPlaying => ErrorCode::AlreadyRegistered,
                TournamentError::NotRegistered => ErrorCode::NotRegistered,
                TournamentError::WrongInviteCode => ErrorCode::InviteRequired,
                TournamentError::RebuyClosed | TournamentError::AddOnClosed | TournamentError::NotOffered(_) => {
                    ErrorCode::NotOffered
                }
                _ => ErrorCode::NotNow,
            },
            Refusal::Balance { .. } => ErrorCode::InsufficientBalance,
            Refusal::TooManyCodes => ErrorCode::RateLimited,
            Refusal::Unavailable => ErrorCode::Unavailable,
        }
    }
}

/// A table's report of a finished hand.
#[derive(Debug)]
pub struct Report {
    /// the table
    pub table: Uuid,
    /// the hand's number, everyone dealt in with their chips after it, and who busted whom
    pub hand: stud_table::LastReport,
}

/// The way in to one tournament task, and its latest state.
#[derive(Clone)]
pub struct TournamentHandle {
    tx: mpsc::Sender<TournamentCmd>,
    reports: mpsc::UnboundedSender<Report>,
    view: watch::Receiver<Arc<Tournament>>,
}

impl TournamentHandle {
    /// A handle on a task's (or a cluster proxy's) channels.
    pub(crate) fn new(
        tx: mpsc::Sender<TournamentCmd>,
        reports: mpsc::UnboundedSender<Report>,
        view: watch::Receiver<Arc<Tournament>>,
    ) -> TournamentHandle {
        TournamentHandle { tx, reports, view }
    }

    /// The tournament as of its last stored input.
    pub fn now(&self) -> Arc<Tournament> {
        self.view.borrow().clone()
    }

    /// Every state the tournament publishes from now on (each stored input's).
    pub fn watch(&self) -> watch::Receiver<Arc<Tournament>> {
        self.view.clone()
    }

    /// Sends a command and waits for its answer.
    async fn ask(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<(), Refusal>>) -> TournamentCmd,
    ) -> Result<(), Refusal> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(make(reply)).await.map_err(|_| Refusal::Unavailable)?;
        answer.await.unwrap_or(Err(Refusal::Unavailable))
    }

    /// Registers a player.
    ///
    /// # Errors
    /// [`Refusal`]: nothing was charged.
    pub async fn register(&self, player: Uuid, name: String, invite_code: Option<String>) -> Result<(), Refusal> {
        self.ask(|reply| TournamentCmd::Register { player, name, invite_code, reply }).await
    }

    /// Unregisters a player (refunded).
    ///
    /// # Errors
    /// [`Refusal`]: nothing changed.
    pub async fn unregister(&self, player: Uuid) -> Result<(), Refusal> {
        self.ask(|reply| TournamentCmd::Unregister { player, reply }).await
    }

    /// Buys a rebuy for a player. Asked again with the key of the entry's last rebuy, it is
    /// answered as bought and nothing is charged (a retry).
    ///
    /// # Errors
    /// [`Refusal`]: nothing was charged.
    pub async fn rebuy(&self, player: Uuid, key: Option<String>) -> Result<(), Refusal> {
        self.ask(|reply| TournamentCmd::Rebuy { player, key, reply }).await
    }

    /// Buys the add-on for a player.
    ///
    /// # Errors
    /// [`Refusal`]: nothing was charged.
    pub async fn addon(&self, player: Uuid) -> Result<(), Refusal> {
        self.ask(|reply| TournamentCmd::AddOn { player, reply }).await
    }

    /// Cancels before the start (everyone refunded).
    ///
    /// # Errors
    /// [`Refusal`]: nothing changed.
    pub async fn cancel(&self) -> Result<(), Refusal> {
        self.ask(|reply| TournamentCmd::Cancel { reply }).await
    }

    /// An operator's command that moves no money ([`TournamentCmd::Operate`]).
    ///
    /// # Errors
    /// [`Refusal`]: nothing changed.
    pub async fn operate(&self, command: stud_tournament::Command) -> Result<(), Refusal> {
        self.ask(|reply| TournamentCmd::Operate { command, reply }).await
    }

    /// Stops the task.
    pub async fn shutdown(&self) {
        let (reply, done) = oneshot::channel();
        if self.tx.send(TournamentCmd::Shutdown { reply }).await.is_ok() {
            let _ = done.await;
        }
    }
}

/// On a cluster's gateway, what directs tournaments across gateways (`cluster::Director`
/// behind this trait, so that no single-process module names the cluster): each tournament's
/// task runs on the one gateway holding its lease; the others relay to it.
pub trait Directing: Send + Sync + 'static {
    /// The epoch this gateway commits `tournament`'s inputs at (its lease's), while it may
    /// still commit them (it holds the lease, renewed less than a TTL ago by its own clock).
    fn live(&self, tournament: Uuid) -> Option<u64>;
    /// A new tournament's claim is given back (it could not be stored).
    fn abandon(&self, tournament: Uuid);
    /// Gives a frame from `tournament` to every socket of `player`, on every gateway (after
    /// the tournament's state as it is now); with `seated_at`
    /// (tournament, table number), each gateway first lists that table if it has not yet and
    /// counts the player seated there (so the join that follows the frame is admitted).
    fn notify(
        &self,
        tournament: Uuid,
        player: Uuid,
        seated_at: Option<(Uuid, stud_tournament::TableNo)>,
        frame: &crate::wire::Frame,
    );
    /// Claims a new tournament before it is stored, so that this gateway directs it.
    fn claim_new(&self, tournament: Uuid) -> futures_util::future::BoxFuture<'_, Result<(), String>>;
    /// The tournament's task was opened here: serve the other gateways' commands and publish
    /// its state.
    fn directing(self: Arc<Self>, tournament: Uuid);
}

/// Every tournament of this server, in the order created.
#[derive(Default)]
pub struct Tournaments {
    all: RwLock<Vec<(Uuid, TournamentHandle)>>,
}

impl Tournaments {
    /// One tournament.
    pub fn get(&self, id: Uuid) -> Option<TournamentHandle> {
        let all = self.all.read().unwrap_or_else(PoisonError::into_inner);
        all.iter().find(|(i, _)| *i == id).map(|(_, h)| h.clone())
    }

    /// Every tournament.
    pub fn handles(&self) -> Vec<TournamentHandle> {
        self.all.read().unwrap_or_else(PoisonError::into_inner).iter().map(|(_, h)| h.clone()).collect()
    }

    /// A table's report of a finished hand (never waits).
    pub fn report(&self, tournament: Uuid, table: Uuid, hand: stud_table::LastReport) {
        if let Some(h) = self.get(tournament) {
            let _ = h.reports.send(Report { table, hand });
        }
    }

    /// Lists a tournament, in place of a handle of the same id (a cluster gateway's proxy that
    /// starts directing it, or the reverse).
    pub(crate) fn put(&self, id: Uuid, handle: TournamentHandle) {
        let mut all = self.all.write().unwrap_or_else(PoisonError::into_inner);
        match all.iter_mut().find(|(i, _)| *i == id) {
            Some(slot) => slot.1 = handle,
            None => all.push((id, handle)),
        }
    }
}

/// Why a stored tournament could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    /// the snapshot or an entry does not parse
    #[error(transparent)]
    Restore(#[from] stud_tournament::RestoreError),
    /// an entry is missing or out of order
    #[error("journal entry {got} where {want} was expected")]
    Gap {
        /// expected
        want: u64,
        /// found
        got: u64,
    },
}

/// A stored tournament: its snapshot, then every entry after it applied in order.
///
/// # Errors
/// [`RebuildError`] when the snapshot or the journal does not hold together.
pub fn rebuild(stored: &stud_store::StoredTournament) -> Result<Tournament, RebuildError> {
    let mut t = Tournament::restore(&stored.snapshot.1)?;
    for (n, text) in &stored.entries {
        let entry = Journaled::decode(text)?;
        let want = t.applied() + 1;
        if *n != want || entry.n != want {
            return Err(RebuildError::Gap { want, got: entry.n });
        }
        // The outputs were carried out when the input was first applied (the ledger entries
        // are stored with it); a replay only rebuilds the state.
        let _ = t.apply(entry.at, &entry.input);
    }
    Ok(t)
}
