//! `stud load --tournament ID --players N`: N bot clients register for a tournament over the
//! WebSocket, follow `tournament_seat` to their tables, play with the engine's bot policy
//! (seeded per bot) and stop when `tournament_placed` tells them their place. When every bot
//! is placed, the results are read from `GET /api/tournaments/{id}` and one JSON line is
//! printed: `{"entrants", "hands", "duration_s", "winner", "payouts": [{"place", "amount"}],
//! "errors", "moves", "rebuys", "addons", "bounties_paid"}` (the payouts are the prizes above 0 by place; they
//! add up to the prize pool: the entry, rebuy and add-on fees; `moves` counts the balancing
//! and table-breaking moves the bots were told of; `hands` the distinct hands they saw end;
//! `rebuys` and `addons` are the tournament's counts, `bounties_paid` the cents of bounties
//! it paid, the winner's own head included: `bounty` x entries at the end). With `--rebuy` the bots buy every
//! rebuy and add-on they are offered (`tournament_offer`).
//!
//! With several servers in `--url` (a cluster's gateways), bot k connects to the k-th (round
//! robin); the results are read from the first.
//!
//! Decisions: `duration_s` runs from the first registration to the last bot's place;
//! `winner` is the player id of place 1; a bot whose registration is refused, or whose socket
//! fails, counts one error and stops (the line still comes, with what the others did).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use stud_client::{Client, ClientError, create_session, host_port, http};
use stud_engine::Action;
use stud_engine::bot::Bot as Policy;
use stud_proto::{
    ClientMsg, ErrorCode, SeatReason, ServerMsg, TournamentDetail, TournamentOfferKind, TournamentStatus,
};
use uuid::Uuid;

/// What the bots saw together.
#[derive(Default)]
struct Shared {
    hands: HashSet<Uuid>,
    moves: u64,
    errors: u64,
}

/// Guest sessions created at once.
const LOGINS_IN_FLIGHT: usize = 32;

/// How long a bot waits for any frame before it gives up (a tournament with slow levels
/// between its hands still sends the table's frames well within this).
const SILENCE: Duration = Duration::from_secs(600);

/// Runs the bots until every one is placed; prints the line.
pub async fn run(urls: &[&str], tournament: Uuid, players: usize, think: Duration, rebuy: bool) -> anyhow::Result<()> {
    if players == 0 {
        bail!("--players must be 1 or more");
    }
    let addrs: Vec<String> = urls.iter().map(|u| host_port(u)).collect();
    let Some(addr) = addrs.first().cloned() else { bail!("--url names no server") };
    let before = detail(&addr, tournament).await?;
    if before.status != TournamentStatus::Registering && !before.registration_open {
        bail!("tournament {tournament} does not take registrations ({:?})", before.status);
    }
    let shared = Arc::new(Mutex::new(Shared::default()));
    let logins = Arc::new(tokio::sync::Semaphore::new(LOGINS_IN_FLIGHT));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(players);
    for k in 0..players {
        let addr = addrs[k % addrs.len()].clone();
        let (shared, logins) = (shared.clone(), logins.clone());
        tasks.push(tokio::spawn(async move {
            if let Err(e) = bot(&addr, tournament, k, think, rebuy, &shared, &logins).await {
                tracing::debug!(error = %e, bot = k, "bot stopped");
                shared.lock().unwrap_or_else(PoisonError::into_inner).errors += 1;
            }
        }));
    }
    for t in tasks {
        if t.await.is_err() {
            shared.lock().unwrap_or_else(PoisonError::into_inner).errors += 1;
        }
    }
    let duration = started.elapsed().as_secs_f64();
    let d = detail(&addr, tournament).await?;
    let shared = shared.lock().unwrap_or_else(PoisonError::into_inner);
    let winner = d.results.iter().find(|r| r.place == 1).map(|r| r.player_id.to_string());
    let mut payouts: Vec<(u32, u64)> = d.results.iter().filter(|r| r.prize > 0).map(|r| (r.place, r.prize)).collect();
    payouts.sort_unstable();
    println!(
        "{}",
        serde_json::json!({
            "entrants": d.entrants.len(),
            "hands": shared.hands.len(),
            "duration_s": (duration * 1000.0).round() / 1000.0,
            "winner": winner,
            "payouts": payouts.iter().map(|(place, amount)| serde_json::json!({"place": place, "amount": amount})).collect::<Vec<_>>(),
            "errors": shared.errors,
            "moves": shared.moves,
            "rebuys": d.rebuys.as_ref().map_or(0, |r| r.rebuys),
            "addons": d.rebuys.as_ref().map_or(0, |r| r.addons),
            "bounties_paid": d.bounties_paid,
        })
    );
    Ok(())
}

async fn detail(addr: &str, id: Uuid) -> anyhow::Result<TournamentDetail> {
    let (status, text) =
        http(addr, "GET", &format!("/api/tournaments/{id}"), None).await.context("reading the tournament")?;
    if status != 200 {
        bail!("GET /api/tournaments/{id}: {status} {text}");
    }
    serde_json::from_str(&text).context("the tournament's detail")
}

/// One bot: registers, plays wherever it is seated, returns when placed.
async fn bot(
    addr: &str,
    tournament: Uuid,
    k: usize,
    think: Duration,
    rebuy: bool,
    shared: &Mutex<Shared>,
    logins: &tokio::sync::Semaphore,
) -> Result<(), ClientError> {
    let permit = logins.acquire().await;
    let session = create_session(addr, &format!("tbot-{k}")).await?;
    drop(permit);
    let (mut client, _) = Client::connect(addr, &session.token).await?;
    let register = ClientMsg::TournamentRegister {
        request_id: Some("register".into()),
        tournament_id: tournament,
        invite_code: None,
    };
    client.send(&register).await?;
    let mut policy = Policy::new(k as u64 + 1);
    let mut key = 0u64;
    loop {
        match client.recv(SILENCE).await? {
            ServerMsg::TournamentSeat { tournament_id, table_id, reason, .. } if tournament_id == tournament => {
                if matches!(reason, SeatReason::Balance | SeatReason::Break) {
                    shared.lock().unwrap_or_else(PoisonError::into_inner).moves += 1;
                }
                client.send(&ClientMsg::JoinTable { request_id: None, table_id, invite_code: None }).await?;
            }
            ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } if !legal.is_empty() => {
                if !think.is_zero() {
                    tokio::time::sleep(think).await;
                }
                let action: Action = policy.choose(&legal);
                key += 1;
                let act = ClientMsg::Act {
                    request_id: None,
                    table_id,
                    hand_id,
                    seq,
                    idempotency_key: format!("{k}-{key}"),
                    action,
                };
                client.send(&act).await?;
            }
            ServerMsg::TournamentOffer { tournament_id, offer, .. } if rebuy && tournament_id == tournament => {
                key += 1;
                let buy = match offer {
                    // Keyed like the actions: a repeat would be answered, not bought twice.
                    TournamentOfferKind::Rebuy => ClientMsg::TournamentRebuy {
                        request_id: None,
                        tournament_id,
                        idempotency_key: Some(format!("{k}-{key}")),
                    },
                    TournamentOfferKind::Addon => ClientMsg::TournamentAddon { request_id: None, tournament_id },
                };
                client.send(&buy).await?;
            }
            ServerMsg::HandResult { hand_id, .. } => {
                shared.lock().unwrap_or_else(PoisonError::into_inner).hands.insert(hand_id);
            }
            ServerMsg::TournamentPlaced { tournament_id, .. } if tournament_id == tournament => {
                client.close().await;
                return Ok(());
            }
            ServerMsg::Error { request_id, code, message, .. } => {
                // A prompt the clock answered first is not the bot's error.
                if code != ErrorCode::Stale {
                    tracing::warn!(bot = k, ?code, %message, "error");
                    shared.lock().unwrap_or_else(PoisonError::into_inner).errors += 1;
                }
                if request_id.as_deref() == Some("register") {
                    return Ok(());
                }
            }
            _ => {}
        }
    }
}
