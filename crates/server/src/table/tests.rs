//! The table actor in-process with paused time: the clock, the time bank, disconnect grace,
//! and slow subscribers.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use stud_engine::{Event, Variant};
use stud_proto::ServerMsg;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::{Conn, SpecExt, Start, TableCmd, TableHandle, TableSpec};
use crate::app::App;
use crate::config::Config;
use crate::journal::MemoryJournal;
use crate::session::Session;
use stud_store::{Writer, WriterConfig, WriterTask};

struct Fixture {
    app: Arc<App>,
    table: TableHandle,
    /// the writer's loop, never run: these tests are about the clock, and a database under
    /// paused time would see its own timeouts fire
    _writes: WriterTask,
}

/// A table on a fresh in-memory store; pauses time once the store is open.
async fn fixture(tweak: impl FnOnce(&mut Config)) -> Fixture {
    let mut config = Config { hand_pause_ms: 0, showdown_pause_ms: 0, ..Config::default() };
    tweak(&mut config);
    let store = stud_store::open("sqlite::memory:").await.unwrap();
    let (writer, writes) = Writer::new(WriterConfig::default());
    tokio::time::pause();
    // The journal is not what these tests are about: it lives in memory (the store's journal
    // is tested end to end, against both databases).
    let app = Arc::new(App::new(config, store, writer, Arc::new(MemoryJournal::default()), None));
    let (table, _) = app.spawn_table(stud_table(&app), Start::Fresh);
    Fixture { app, table, _writes: writes }
}

/// A new public Stud table with the app's settings.
fn stud_table(app: &App) -> stud_table::TableCore {
    let spec = TableSpec::public_with(
        Uuid::new_v4(),
        "test".into(),
        app.config.table_config(Variant::Stud),
        (4_000, 40_000),
        &app.config,
    );
    stud_table::TableCore::new(app.timing(), spec, stud_store::now_ms())
}

struct Client {
    conn_id: u64,
    rx: crate::outbox::Inbox,
    kick: CancellationToken,
}

async fn join(f: &Fixture, name: &str, queue: usize) -> Client {
    let session = Arc::new(Session::new(Uuid::new_v4().to_string(), Uuid::new_v4(), Uuid::new_v4(), name.into()));
    f.app.bank.open(session.player_id, f.app.config.starting_balance);
    let (outbox, rx) = crate::outbox::channel(queue);
    let kick = CancellationToken::new();
    let conn_id = f.app.players.next_conn_id();
    let conn = Conn { id: conn_id, session, outbox, kick: kick.clone() };
    f.table.send(TableCmd::Join { conn, request_id: None, watch: true }).await.unwrap();
    Client { conn_id, rx, kick }
}

async fn sit(f: &Fixture, c: &Client, seat: u8) {
    f.table
        .send(TableCmd::Sit { conn_id: c.conn_id, request_id: None, seat: Some(seat), buy_in: 10_000 })
        .await
        .unwrap();
}

/// Lets the table task run without moving the clock.
async fn settle() {
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
}

fn drain(c: &mut Client) -> Vec<ServerMsg> {
    let mut out = Vec::new();
    while let Ok(frame) = c.rx.try_recv() {
        out.push(serde_json::from_str(&frame).unwrap());
    }
    out
}

fn prompt(msgs: &[ServerMsg]) -> Option<u64> {
    msgs.iter().rev().find_map(|m| match m {
        ServerMsg::YourTurn { deadline_ms, .. } => Some(*deadline_ms),
        _ => None,
    })
}

fn actions(msgs: &[ServerMsg]) -> Vec<Event> {
    msgs.iter()
        .filter_map(|m| match m {
            ServerMsg::Event { event, .. }
                if matches!(
                    event,
                    Event::BringIn { .. } | Event::Fold { .. } | Event::Check { .. } | Event::Call { .. }
                ) =>
            {
                Some(event.clone())
            }
            _ => None,
        })
        .collect()
}

/// Two seated players; returns them with the one prompted first as `.0`.
async fn two_players(f: &Fixture) -> (Client, Client) {
    let mut a = join(f, "a", 1024).await;
    let mut b = join(f, "b", 1024).await;
    sit(f, &a, 1).await;
    sit(f, &b, 2).await;
    settle().await;
    tokio::time::advance(Duration::from_millis(1)).await;
    settle().await;
    let ma = drain(&mut a);
    let mb = drain(&mut b);
    match (prompt(&ma), prompt(&mb)) {
        (Some(_), None) => (a, b),
        (None, Some(_)) => (b, a),
        other => panic!("expected exactly one prompt, got {other:?}"),
    }
}

#[tokio::test]
async fn the_clock_spends_the_time_bank_then_acts() {
    let f = fixture(|c| {
        c.action_timeout_ms = 15_000;
        c.time_bank_ms = 30_000;
    })
    .await;
    let (mut first, mut second) = two_players(&f).await;
    // Just before 15 s + 30 s of bank: nothing happened.
    tokio::time::advance(Duration::from_millis(44_900)).await;
    settle().await;
    assert!(actions(&drain(&mut second)).is_empty());
    // Then the clock posts the bring-in (it cannot be refused).
    tokio::time::advance(Duration::from_millis(200)).await;
    settle().await;
    let seen = drain(&mut second);
    assert!(matches!(actions(&seen).as_slice(), [Event::BringIn { .. }]), "{seen:?}");
    assert_eq!(f.app.metrics.timeouts.load(Relaxed), 1);
    // The other player now has the full 45 s.
    assert_eq!(prompt(&seen), Some(45_000));
    drain(&mut first);
}

#[tokio::test]
async fn a_disconnected_player_gets_the_grace_period_then_the_clock_folds() {
    let f = fixture(|c| {
        c.action_timeout_ms = 15_000;
        c.time_bank_ms = 0;
        c.disconnect_grace_ms = 2_000;
    })
    .await;
    let (first, mut second) = two_players(&f).await;
    // The first player brings in (by clock after 15 s), the second is then to act.
    tokio::time::advance(Duration::from_millis(15_100)).await;
    settle().await;
    assert!(prompt(&drain(&mut second)).is_some());
    f.table.send(TableCmd::Disconnect { conn_id: second.conn_id }).await.unwrap();
    settle().await;
    // 2 s of grace, not 15.
    tokio::time::advance(Duration::from_millis(2_100)).await;
    settle().await;
    let mut first = first;
    let seen = drain(&mut first);
    assert!(actions(&seen).iter().any(|e| matches!(e, Event::Fold { .. })), "{seen:?}");
    assert_eq!(f.app.metrics.timeouts.load(Relaxed), 2);
}

#[tokio::test]
async fn a_slow_subscriber_gets_a_snapshot_then_is_dropped_if_it_stays_slow() {
    let f = fixture(|c| {
        c.action_timeout_ms = 100;
        c.time_bank_ms = 0;
    })
    .await;
    let mut slow = join(&f, "slow", 4).await;
    let (a, _b) = two_players(&f).await;
    settle().await;
    assert!(f.app.metrics.lagging.load(Relaxed) >= 1, "the 4-slot queue overflowed");
    // Reading now frees the queue: the next broadcast brings a fresh snapshot.
    drain(&mut slow);
    tokio::time::advance(Duration::from_millis(150)).await;
    settle().await;
    let got = drain(&mut slow);
    assert!(got.iter().any(|m| matches!(m, ServerMsg::Snapshot { .. })), "{got:?}");
    // Never reading again: after enough broadcasts (here: seat changes) the table drops it.
    for k in 0..200 {
        f.table.send(TableCmd::SitOut { conn_id: a.conn_id, request_id: None, out: k % 2 == 0 }).await.unwrap();
        settle().await;
        if slow.kick.is_cancelled() {
            break;
        }
    }
    assert!(slow.kick.is_cancelled(), "a client that never reads is disconnected");
}

/// A table with a minute's clock and no time bank where `a` (seat 1) and `b` (seat 2, an
/// outbox of `b_queue` frames) have just been dealt in.
async fn two_dealt_in(b_queue: usize) -> (Fixture, Client, Client) {
    let f = fixture(|c| {
        c.action_timeout_ms = 60_000;
        c.time_bank_ms = 0;
    })
    .await;
    let a = join(&f, "a", 1024).await;
    let b = join(&f, "b", b_queue).await;
    sit(&f, &a, 1).await;
    sit(&f, &b, 2).await;
    settle().await;
    tokio::time::advance(Duration::from_millis(1)).await;
    settle().await;
    (f, a, b)
}

/// Found in CI: the player to act lagged (their prompt was skipped), and nobody else could act.
/// Once they read, their snapshot and prompt arrive without waiting for another broadcast or
/// for the clock to fold them.
#[tokio::test]
async fn a_lagging_player_to_act_is_prompted_as_soon_as_they_read() {
    // Two slots for b: the seating and the deal overflow them.
    let (f, mut a, mut b) = two_dealt_in(2).await;
    assert!(f.app.metrics.lagging.load(Relaxed) >= 1, "the 2-slot queue overflowed");
    let a_prompted = prompt(&drain(&mut a)).is_some();
    drain(&mut b);
    // Nothing happens at the table now (the clock is a minute away) but b reads again.
    tokio::time::advance(Duration::from_millis(60)).await;
    settle().await;
    let got = drain(&mut b);
    assert!(got.iter().any(|m| matches!(m, ServerMsg::Snapshot { .. })), "{got:?}");
    // Exactly one of them is to act; b learns it without another broadcast.
    assert_eq!(prompt(&got).is_some(), !a_prompted, "{got:?}");
    assert!(!b.kick.is_cancelled());
    assert_eq!(f.app.metrics.timeouts.load(Relaxed), 0);
}

/// A socket that lagged at a cluster gateway (frames skipped there) asks for a resync: a
/// fresh snapshot and, when it is that player's turn, the prompt; nothing else, and no reply.
#[tokio::test]
async fn a_resync_sends_a_snapshot_and_the_prompt_of_the_player_to_act() {
    let (f, mut a, mut b) = two_dealt_in(1024).await;
    let a_to_act = prompt(&drain(&mut a)).is_some();
    assert_ne!(a_to_act, prompt(&drain(&mut b)).is_some(), "one of them is to act");
    for (c, to_act) in [(&mut a, a_to_act), (&mut b, !a_to_act)] {
        f.table.send(TableCmd::Resync { conn_id: c.conn_id }).await.unwrap();
        settle().await;
        let got = drain(c);
        assert!(matches!(got.first(), Some(ServerMsg::Snapshot { request_id: None, .. })), "{got:?}");
        let expected = if to_act { 2 } else { 1 };
        assert_eq!(got.len(), expected, "a snapshot, and the prompt only for the player to act: {got:?}");
        assert_eq!(prompt(&got).is_some(), to_act);
    }
}

#[tokio::test]
async fn regression_a_newcomer_in_a_seat_does_not_see_the_previous_players_cards() {
    // Found in review: after a hand, the finished hand stays in snapshots; the seat's view of
    // it must stay with the player who was dealt in there.
    let f = fixture(|c| {
        c.action_timeout_ms = 1_000;
        c.time_bank_ms = 0;
        c.hand_pause_ms = 1_000;
        c.showdown_pause_ms = 1_000;
    })
    .await;
    let mut a = join(&f, "a", 1024).await;
    let mut b = join(&f, "b", 1024).await;
    sit(&f, &a, 1).await;
    sit(&f, &b, 2).await;
    settle().await;
    // The hand starts after the pause (1 s); the clock posts the bring-in (2 s), then folds the
    // other player (3 s): the hand is over, nothing shown, and the next one is 1 s away.
    for _ in 0..3 {
        tokio::time::advance(Duration::from_millis(1_050)).await;
        settle().await;
    }
    let seen = drain(&mut a);
    drain(&mut b);
    let folded = seen
        .iter()
        .find_map(|m| match m {
            ServerMsg::Event { event: Event::Fold { seat }, .. } => Some(seat.number()),
            _ => None,
        })
        .expect("the clock folded a player");
    assert!(seen.iter().any(|m| matches!(m, ServerMsg::HandResult { .. })));
    let leaver = if folded == 1 { &a } else { &b };
    f.table.send(TableCmd::Leave { conn_id: leaver.conn_id, request_id: None }).await.unwrap();
    settle().await;
    // Someone new takes the folded player's seat before another hand starts.
    let mut newcomer = join(&f, "new", 1024).await;
    sit(&f, &newcomer, folded).await;
    settle().await;
    let snapshots: Vec<ServerMsg> =
        drain(&mut newcomer).into_iter().filter(|m| matches!(m, ServerMsg::Snapshot { .. })).collect();
    assert!(!snapshots.is_empty());
    let mut on_table = 0;
    for m in snapshots {
        let ServerMsg::Snapshot { table, .. } = m else { continue };
        on_table = table.seats.iter().map(|s| s.stack).sum::<u64>();
        let hand = table.hand.expect("the finished hand is still shown");
        for s in &hand.view.seats {
            assert!(
                s.cards.iter().all(|c| c.up || c.card.is_none()),
                "seat {} shows a down card to the newcomer at seat {folded}",
                s.seat
            );
        }
    }
    // Chips: what the last snapshot shows on the table plus the bank is all that was issued.
    assert_eq!(f.app.bank.total_balances() + on_table, f.app.bank.issued());
}

/// A request queued behind a shutdown (the server stopping, or a cluster worker giving the table
/// to another) was not applied: it is answered `unavailable`, to be sent again, not "closed".
#[tokio::test]
async fn a_request_queued_behind_a_shutdown_is_answered_unavailable_not_closed() {
    let f = fixture(|_| {}).await;
    let (reply, stopped) = tokio::sync::oneshot::channel();
    f.table.send(TableCmd::Shutdown { reply }).await.unwrap();
    let session = Arc::new(Session::new(Uuid::new_v4().to_string(), Uuid::new_v4(), Uuid::new_v4(), "late".into()));
    let (outbox, mut rx) = crate::outbox::channel(8);
    let conn = Conn { id: 99, session, outbox, kick: CancellationToken::new() };
    // Queued behind the shutdown (the table's task has not run since: one thread, no yield).
    f.table.send(TableCmd::Join { conn, request_id: Some("late".into()), watch: true }).await.unwrap();
    stopped.await.unwrap();
    settle().await;
    let frame = rx.recv().await.expect("an answer");
    let msg: ServerMsg = serde_json::from_str(&frame).unwrap();
    match msg {
        ServerMsg::Error { code, request_id, .. } => {
            assert_eq!((code, request_id.as_deref()), (stud_proto::ErrorCode::Unavailable, Some("late")));
        }
        other => panic!("not an error: {other:?}"),
    }
}

/// The task of every table, idle or not, holds its core once: `run_table` as an `async fn`
/// kept its arguments beside the actor built from them, and a tracing wrapper kept them again
/// (10.9 KB a table, three copies of the core; 3.3 KB after). Its queue allocates slots 32 at a
/// time and holds each command boxed (a slot is a pointer: 256 bytes a block, where slots of the
/// 64-byte command were 2 KB a block in every table); a command is still at most 64 bytes.
#[tokio::test]
async fn a_table_task_holds_its_core_once() {
    let store = stud_store::open("sqlite::memory:").await.unwrap();
    let (writer, _writes) = Writer::new(WriterConfig::default());
    let app = Arc::new(App::new(Config::default(), store, writer, Arc::new(MemoryJournal::default()), None));
    let core = stud_table(&app);
    let (_tx, rx) = mpsc::channel::<Box<TableCmd>>(8);
    let task = super::run_table(app, core, Start::Fresh, rx);
    let core_size = std::mem::size_of::<stud_table::TableCore>();
    let size = std::mem::size_of_val(&task);
    assert!(size < core_size + 1024, "a table's task is {size} bytes; its core {core_size}");
    assert!(std::mem::size_of::<TableCmd>() <= 64, "a table command is {} bytes", std::mem::size_of::<TableCmd>());
}
