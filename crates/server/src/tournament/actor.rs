//! The tournament task: a thin loop around a [`Tournament`]. Receive a command (or wake for
//! the clock), let the core check it, store the input with the ledger entries it causes (one
//! transaction), then make the applied state the tournament's and publish it.
//!
//! The input is applied to a copy first, so its refunds are known before anything is stored;
//! the copy becomes the tournament only once the store has taken the input. A store failure
//! leaves the tournament, the accounts and the ledger as they were.

use std::sync::Arc;
use std::time::Duration;

use stud_store::{LedgerEntry, LedgerKind, TournamentCommit};
use stud_tournament::{Command, Draw, Due, Input, Journaled, Output, TOURNAMENT_VERSION, Tournament};
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep_until};
use tracing::{info, warn};
use uuid::Uuid;

use super::{Refusal, TournamentCmd};
use crate::app::App;

/// A snapshot is stored at least every this many inputs (and whenever the status changes).
const SNAPSHOT_EVERY: u64 = 64;
/// Wait before retrying what the clock could not store.
const RETRY_MS: u64 = 1_000;

struct Actor {
    app: Arc<App>,
    core: Tournament,
    view: watch::Sender<Arc<Tournament>>,
    /// the clock's input could not be stored: try again at this time
    retry_at: Option<u64>,
}

/// The loop: commands and the clock, until `Shutdown` or every handle is dropped.
#[tracing::instrument(skip_all, fields(tournament_id = %core.id()))]
pub async fn run(
    app: Arc<App>,
    core: Tournament,
    view: watch::Sender<Arc<Tournament>>,
    mut rx: mpsc::Receiver<TournamentCmd>,
) {
    let mut actor = Actor { app, core, view, retry_at: None };
    // A tournament resumed after its start time (or full) starts now.
    actor.on_clock().await;
    loop {
        let wake = match (actor.core.wake_at(), actor.retry_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let at = wake.map(|t| Instant::now() + Duration::from_millis(t.saturating_sub(stud_store::now_ms())));
        tokio::select! {
            cmd = rx.recv() => match cmd {
                None => break,
                Some(TournamentCmd::Shutdown { reply }) => {
                    let _ = reply.send(());
                    break;
                }
                Some(cmd) => actor.command(cmd).await,
            },
            () = sleep_until(at.unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400))), if at.is_some() => {
                actor.on_clock().await;
            }
        }
    }
}

fn fresh_draw() -> Result<Draw, Refusal> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| {
        warn!(error = %e, "no OS randomness");
        Refusal::Unavailable
    })?;
    Ok(Draw(seed))
}

impl Actor {
    async fn command(&mut self, cmd: TournamentCmd) {
        let (cmd, reply) = match cmd {
            TournamentCmd::Register { player, name, invite_code, reply } => match fresh_draw() {
                Ok(draw) => (Command::Register { player, name, invite_code, draw }, reply),
                Err(e) => {
                    let _ = reply.send(Err(e));
                    return;
                }
            },
            TournamentCmd::Unregister { player, reply } => (Command::Unregister { player }, reply),
            TournamentCmd::Cancel { reply } => (Command::Cancel, reply),
            TournamentCmd::Shutdown { reply } => {
                let _ = reply.send(());
                return;
            }
        };
        let outcome = match self.core.handle(cmd) {
            Err(e) => Err(Refusal::Rules(e)),
            Ok(accepted) => self.store_and_apply(accepted.input, accepted.debit).await,
        };
        // A sit-and-go starts as its last seat is taken, before the registration is answered
        // (so whoever filled it sees it started).
        self.on_clock().await;
        let _ = reply.send(outcome);
    }

    async fn on_clock(&mut self) {
        let now = stud_store::now_ms();
        if self.retry_at.is_some_and(|t| now < t) {
            return;
        }
        self.retry_at = None;
        while let Some(due) = self.core.due(now) {
            let input = match due {
                Due::Input(input) => input,
                Due::Start => match fresh_draw() {
                    Ok(draw) => Input::Start { draw },
                    Err(_) => {
                        self.retry_at = Some(now + RETRY_MS);
                        return;
                    }
                },
            };
            if self.store_and_apply(input, None).await.is_err() {
                self.retry_at = Some(now + RETRY_MS);
                return;
            }
        }
    }

    /// Takes `debit` from the account, stores `input` with its ledger entries, then applies
    /// it. On a refusal nothing changed.
    async fn store_and_apply(&mut self, input: Input, debit: Option<(Uuid, u64)>) -> Result<(), Refusal> {
        let now = stud_store::now_ms();
        let id = self.core.id();
        if let Some((player, need)) = debit
            && !self.app.bank.withdraw(player, need)
        {
            return Err(Refusal::Balance { balance: self.app.bank.balance(player), need });
        }
        let n = self.core.applied() + 1;
        let mut next = self.core.clone();
        let outputs = next.apply(now, &input);
        let entry = |player_id, kind, amount| LedgerEntry { player_id, table_id: Some(id), kind, amount, at_ms: now };
        let mut ledger = Vec::new();
        if let Some((player, amount)) = debit {
            ledger.push(entry(player, LedgerKind::TournamentEntry, amount));
        }
        let refunds: Vec<(Uuid, u64)> = outputs
            .iter()
            .filter_map(|o| match o {
                Output::Refund { player, amount } => Some((*player, *amount)),
                _ => None,
            })
            .collect();
        ledger.extend(refunds.iter().filter(|(_, a)| *a > 0).map(|(p, a)| entry(*p, LedgerKind::TournamentRefund, *a)));
        let snapshot = (next.status() != self.core.status() || n % SNAPSHOT_EVERY == 0).then(|| next.snapshot());
        let journaled = Journaled { v: TOURNAMENT_VERSION, n, at: now, input };
        let commit = TournamentCommit { tournament_id: id, n, at_ms: now, entry: journaled.encode(), ledger, snapshot };
        if let Err(e) = self.app.store.tournament_commit(&commit).await {
            warn!(error = %e, "a tournament input could not be stored");
            if let Some((player, need)) = debit {
                self.app.bank.deposit(player, need);
            }
            return Err(Refusal::Unavailable);
        }
        self.core = next;
        for (player, amount) in refunds {
            self.app.bank.refund(player, amount);
        }
        for o in &outputs {
            match o {
                Output::Started { entries, tables } => info!(entries, tables = tables.len(), "tournament started"),
                Output::Cancelled => info!("tournament cancelled"),
                Output::Level { level } => info!(level, "next level"),
                Output::Ended { winner } => info!(%winner, "tournament ended"),
                _ => {}
            }
        }
        self.view.send_replace(Arc::new(self.core.clone()));
        Ok(())
    }
}
