//! The server as a child process, killed again and again while bots play all three variants:
//! every hand resumes after each restart (same hand id, same cards, same pot, same player to
//! act), no chip is lost or made, no action a client saw is lost, and no hand is voided. Then
//! `stud verify` and `stud replay` on what was stored.
//!
//! Runs on SQLite always, and on Postgres when `TEST_DATABASE_URL` is set (a database of its
//! own per run; `STUD_REQUIRE_POSTGRES` makes a skip fail). Most stops are `kill -9`; every
//! sixth is a SIGTERM (a graceful stop must resume the same way).
//!
//! And a sit-and-go over two tables stopped 10 times before it ends (SQLite, and Postgres as
//! above): it ends with every place given once, every prize paid once, and the ledger's totals
//! held.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

mod access;
mod bots;
mod serve;

use std::collections::{BTreeMap, BTreeSet};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use stud_client::{Client, create_session, http_as, tables};
use stud_engine::{Action, Event, Phase, Viewer};
use stud_proto::{ClientMsg, ErrorCode, HandDetail, HandPage, ServerMsg, TournamentDetail, TournamentStatus};
use uuid::Uuid;

const KEY: &str = "crash-test-operator-key-0123456789";
/// Stops per run (the issue asks for 30 or more random moments).
const STOPS: usize = 32;

struct Server {
    child: Child,
}

impl Server {
    /// Starts `stud serve` on `port`; returns once it listens, with how long that took.
    fn start(db: &str, port: u16) -> (Server, Duration) {
        Server::start_with(db, port, &[])
    }

    /// [`Server::start`] with more (or other) environment variables.
    fn start_with(db: &str, port: u16, env: &[(&str, &str)]) -> (Server, Duration) {
        let began = Instant::now();
        let mut command = serve::serve();
        command
            .args(["--bind", &format!("127.0.0.1:{port}"), "--database-url", db])
            .args(["--tables-per-variant", "1"])
            .env("STUD_HAND_PAUSE_MS", "30")
            .env("STUD_SHOWDOWN_PAUSE_MS", "30")
            .env("STUD_ACTION_TIMEOUT_MS", "4000")
            .env("STUD_DISCONNECT_GRACE_MS", "4000")
            .env("STUD_OPERATOR_KEY", KEY)
            // The bots act the moment they are prompted, faster than a person's 20 a second.
            .env("STUD_MESSAGES_PER_SECOND", "0")
            .envs(env.iter().copied());
        let (child, ready) = serve::spawn(command, serve::LISTENING, |line| {
            // A journal append that failed is what a client sees as `unavailable`: its cause
            // (the store's error) is only in this line; a start that fails says why in an error line.
            if line.contains("is void")
                || line.contains("panicked")
                || line.contains("append failed")
                || line.contains("ERROR")
                || line.contains("error:")
            {
                eprintln!("server: {line}");
            }
        });
        ready.expect("the server did not start");
        (Server { child }, began.elapsed())
    }

    /// SIGKILL: no shutdown code runs.
    fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM: the graceful shutdown.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        assert!(self.child.wait().unwrap().success());
    }
}

fn stud(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_stud")).args(args).stderr(Stdio::inherit()).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// What one bot saw.
#[derive(Default)]
struct Seen {
    /// every event frame of each hand, in the order received
    events: BTreeMap<Uuid, Vec<Event>>,
    /// hand -> the restart count when it started and when it ended
    started: BTreeMap<Uuid, usize>,
    ended: BTreeMap<Uuid, usize>,
    /// errors answered to this bot
    errors: Vec<(ErrorCode, String)>,
    /// the hand in play as each fresh connection's snapshot showed it
    snapshots: Vec<(usize, Option<Uuid>)>,
}

/// Shared between the bots and the controller.
#[derive(Default)]
struct World {
    /// restarts so far
    epoch: AtomicU64,
    stop: AtomicBool,
    /// a bot holds a show/muck prompt right now
    showdown_choice: AtomicBool,
    /// a hand just ended somewhere
    hand_ended: AtomicBool,
    /// hands in play now, per table
    in_play: Mutex<BTreeMap<Uuid, Option<Uuid>>>,
}

/// A bot at `table`, `seat`: reconnects whenever the server goes away, answers its prompts.
async fn bot(addr: String, token: String, table: Uuid, seat: u8, world: Arc<World>, seen: Arc<Mutex<Seen>>) {
    let mut rng = u64::from(seat) * 0x9e37_79b9 + 12_345;
    let mut sat = false;
    while !world.stop.load(SeqCst) {
        let Ok((mut c, _)) = Client::connect(&addr, &token).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if !sat {
            let sit = ClientMsg::Sit {
                request_id: None,
                table_id: table,
                invite_code: None,
                seat: Some(seat),
                buy_in: 10_000,
            };
            c.send(&sit).await.unwrap();
            sat = true;
        }
        let mut first_snapshot = true;
        while let Ok(msg) = c.recv(Duration::from_secs(20)).await {
            let epoch = world.epoch.load(SeqCst) as usize;
            match msg {
                ServerMsg::Snapshot { table: t, .. } if t.table_id == table => {
                    let in_play = t.hand.as_ref().filter(|h| h.view.phase != Phase::Over).map(|h| h.hand_id);
                    let mut seen = seen.lock().unwrap();
                    if first_snapshot {
                        seen.snapshots.push((epoch, in_play));
                        first_snapshot = false;
                    }
                    // A hand in play that started while this bot was away counts as seen; one
                    // that ended while it was away, as ended.
                    if let Some(h) = in_play {
                        seen.started.entry(h).or_insert(epoch);
                    }
                    if let Some(h) = t.hand.as_ref().filter(|h| h.view.phase == Phase::Over) {
                        seen.ended.entry(h.hand_id).or_insert(epoch);
                    }
                    // A table plays one hand at a time: any other hand this bot saw start here
                    // ended while it was away (the stored hands show whether it really did).
                    let current = t.hand.as_ref().map(|h| h.hand_id);
                    let gone: Vec<Uuid> = seen
                        .started
                        .keys()
                        .filter(|h| Some(**h) != current && !seen.ended.contains_key(h))
                        .copied()
                        .collect();
                    for h in gone {
                        seen.ended.insert(h, epoch);
                    }
                }
                ServerMsg::HandStarted { hand_id, .. } => {
                    seen.lock().unwrap().started.insert(hand_id, epoch);
                    world.in_play.lock().unwrap().insert(table, Some(hand_id));
                }
                ServerMsg::HandResult { hand_id, .. } => {
                    seen.lock().unwrap().ended.insert(hand_id, epoch);
                    world.in_play.lock().unwrap().insert(table, None);
                    world.hand_ended.store(true, SeqCst);
                }
                ServerMsg::Event { hand_id, event, .. } => {
                    seen.lock().unwrap().events.entry(hand_id).or_default().push(event);
                }
                ServerMsg::Error { code, message, .. } => seen.lock().unwrap().errors.push((code, message)),
                ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } => {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let choice = legal.contains(&Action::Show);
                    if choice {
                        // Hold a showdown choice a moment: the controller stops the server then.
                        world.showdown_choice.store(true, SeqCst);
                        tokio::time::sleep(Duration::from_millis(150)).await;
                        world.showdown_choice.store(false, SeqCst);
                    } else {
                        tokio::time::sleep(Duration::from_millis(rng % 25)).await;
                    }
                    let roll = rng % 10;
                    let action = bots::choose(&legal, roll < 2, roll == 2);
                    if c.send(&bots::act(table_id, hand_id, seq, action)).await.is_err() {
                        break;
                    }
                }
                _ => {}
            }
            if world.stop.load(SeqCst) {
                return;
            }
        }
    }
}

/// One run: 3 tables (stud, stud8, razz), 3 bots each, `STOPS` stops at chosen moments.
async fn run(db: &str) {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let (mut server, _) = Server::start(db, port);
    let world = Arc::new(World::default());
    let mut bots = Vec::new();
    let mut seats = Vec::new();
    for t in tables(&addr).await.unwrap() {
        for seat in 1..=3u8 {
            let s = create_session(&addr, &format!("{}{seat}", t.variant)).await.unwrap();
            let seen = Arc::new(Mutex::new(Seen::default()));
            seats.push((s.player_id, seen.clone()));
            bots.push(tokio::spawn(bot(addr.clone(), s.token, t.id, seat, world.clone(), seen)));
        }
    }
    let table_ids: Vec<Uuid> = tables(&addr).await.unwrap().iter().map(|t| t.id).collect();
    let mut rng: u64 = 0x2545_f491_4f6c_dd1d;
    let (mut mid_hand, mut between, mut showdown) = (0, 0, 0);
    let mut restarts = Vec::new();
    tokio::time::sleep(Duration::from_millis(800)).await;
    for k in 0..STOPS {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Aim some stops at moments that are rare by chance.
        let deadline = Instant::now() + Duration::from_millis(300 + rng % 900);
        match k % 4 {
            1 => {
                world.showdown_choice.store(false, SeqCst);
                let until = Instant::now() + Duration::from_secs(8);
                while !world.showdown_choice.load(SeqCst) && Instant::now() < until {
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            }
            2 => {
                world.hand_ended.store(false, SeqCst);
                let until = Instant::now() + Duration::from_secs(8);
                while !world.hand_ended.load(SeqCst) && Instant::now() < until {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
            _ => tokio::time::sleep_until(deadline.into()).await,
        }
        showdown += usize::from(world.showdown_choice.load(SeqCst));
        // Counted per table: each of the three is in a hand or between hands.
        for hand in world.in_play.lock().unwrap().values() {
            if hand.is_some() {
                mid_hand += 1;
            } else {
                between += 1;
            }
        }
        let graceful = k % 6 == 5;
        let stopped = Instant::now();
        if graceful {
            server.stop()
        } else {
            server.kill_9()
        }
        world.epoch.fetch_add(1, SeqCst);
        let (s, _) = Server::start(db, port);
        restarts.push(stopped.elapsed());
        server = s;
    }
    // No new hands; the ones in play finish.
    for id in &table_ids {
        let path = format!("/api/admin/tables/{id}/pause");
        let (status, body) = http_as(&addr, "POST", &path, None, Some(KEY)).await.unwrap();
        assert_eq!(status, 200, "{body}");
    }
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let open: usize = seats
            .iter()
            .map(|(_, s)| {
                let s = s.lock().unwrap();
                s.started.keys().filter(|h| !s.ended.contains_key(h)).count()
            })
            .sum();
        if open == 0 {
            break;
        }
        if Instant::now() > until {
            let (_, status) = http_as(&addr, "GET", "/api/admin/tables", None, Some(KEY)).await.unwrap();
            panic!("{open} hands still unfinished; tables: {status}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    world.stop.store(true, SeqCst);
    server.stop();
    for b in bots {
        let _ = tokio::time::timeout(Duration::from_secs(5), b).await;
    }
    let slowest = restarts.iter().max().unwrap();
    eprintln!(
        "{STOPS} stops ({mid_hand} tables mid-hand, {between} between hands, {showdown} during a showdown choice); \
         restart to listening: slowest {slowest:?}"
    );
    assert!(mid_hand >= 10 && between >= 3 && showdown >= 3, "{mid_hand} / {between} / {showdown}");

    // What the database holds.
    let store = stud_store::open(db).await.unwrap();
    let totals = store.totals().await.unwrap();
    assert!(totals.conserved(), "no chip lost or made: {totals:?}");
    let stored: BTreeMap<Uuid, stud_store::StoredHand> = store
        .hands(&stud_store::HandQuery { limit: 100_000, ..stud_store::HandQuery::default() })
        .await
        .unwrap()
        .into_iter()
        .map(|h| (h.hand_id, h))
        .collect();
    let log = store.admin_log(1_000).await.unwrap();
    assert!(!log.iter().any(|e| e.action == "void_hand"), "no hand was voided: {log:?}");
    let mut resumed = BTreeSet::new();
    for (player, seen) in &seats {
        let seen = seen.lock().unwrap();
        for (code, message) in &seen.errors {
            // An answer that crossed a restart may arrive for a prompt that has moved on.
            assert!(matches!(code, ErrorCode::Stale), "unexpected error {code:?}: {message}");
        }
        for (hand_id, epoch) in &seen.started {
            // Every hand seen starting was finished and stored: none was voided.
            let hand = stored.get(hand_id).unwrap_or_else(|| panic!("hand {hand_id} was not stored"));
            if seen.ended.get(hand_id) != Some(epoch) {
                resumed.insert(*hand_id);
            }
            // Everything this player was shown of the hand (cards dealt, every action) is in
            // the stored hand, in order: the same cards before and after each restart, and no
            // action they saw applied was lost.
            let Some(seat) = hand.seat_of(*player).map(|s| s.seat) else { continue };
            let (_, events) = hand.record.replay().unwrap();
            let theirs: Vec<Event> = events.iter().map(|e| e.for_viewer(Viewer::Seat(seat))).collect();
            let got = seen.events.get(hand_id).cloned().unwrap_or_default();
            assert!(subsequence(&got, &theirs), "hand {hand_id}: seat {seat} saw events the stored hand lacks");
        }
        // After a restart, the hand a reconnecting player's snapshot shows in play is one
        // that was already in play before it (the same hand id), or a new one.
        for (epoch, hand) in &seen.snapshots {
            if let Some(h) = hand {
                assert!(seen.started.get(h).is_some_and(|e| e <= epoch), "{h}");
            }
        }
    }
    eprintln!("{} hands stored, {} of them resumed across a restart", stored.len(), resumed.len());
    assert!(resumed.len() >= 10, "{} hands resumed", resumed.len());

    // `stud verify` passes on resumed hands: each record is one continuous hand.
    for id in resumed.iter().take(3) {
        let (code, out) = stud(&["verify", &id.to_string(), "--database-url", db]);
        assert_eq!(code, 0, "{out}");
    }
    let (server, _) = Server::start(db, port);
    verify_exports(&addr).await;
    pokerkit_replays(&addr, &resumed).await;
    server.stop();
}

/// The resumed hands replay in PokerKit, the reference implementation, like any other hand:
/// their PHH goes through `scripts/pokerkit_check.py` with the Python that
/// `STUD_POKERKIT_PYTHON` names (`.ci/run` installs PokerKit 0.7.7 in a venv for it). No hand
/// may disagree; a hand that touches one of the rule differences the script lists is counted
/// apart, as for any hand. Without that variable the check is skipped with a notice.
async fn pokerkit_replays(addr: &str, resumed: &BTreeSet<Uuid>) {
    let Some(python) = std::env::var_os("STUD_POKERKIT_PYTHON") else {
        eprintln!("notice: STUD_POKERKIT_PYTHON is not set: the PokerKit replay of the resumed hands is skipped");
        return;
    };
    // One `[k]` section per hand: the script reads the `.phhs` form.
    let mut phhs = String::new();
    for (k, id) in resumed.iter().enumerate() {
        let (status, phh) =
            http_as(addr, "GET", &format!("/api/hands/{id}?format=phh"), None, Some(KEY)).await.unwrap();
        assert_eq!(status, 200, "{phh}");
        phhs.push_str(&format!("[{}]\n{phh}\n\n", k + 1));
    }
    let file = std::env::temp_dir().join(format!("stud-resumed-{}.phhs", Uuid::new_v4().simple()));
    std::fs::write(&file, &phhs).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/pokerkit_check.py");
    let out = Command::new(python).arg(script).arg(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "PokerKit disagrees on a resumed hand:\n{stdout}\n{stderr}");
    let counts: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap_or("")).unwrap();
    assert_eq!(counts["hands"], resumed.len(), "{stdout}");
    assert_eq!(counts["disagree"], 0, "{stdout}");
    assert!(counts["agree"].as_u64().unwrap() > 0, "no resumed hand was compared: {stdout}");
    eprintln!("PokerKit replayed the {} resumed hands: {stdout}", resumed.len());
    let _ = std::fs::remove_file(&file);
}

/// The two runs one at a time: each plays against the clock on a small machine.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Whether `a` appears in `b` in order.
fn subsequence(a: &[Event], b: &[Event]) -> bool {
    let mut it = b.iter();
    a.iter().all(|x| it.any(|y| y == x))
}

/// The operator's exports verify, and a tampered one does not.
async fn verify_exports(addr: &str) {
    let dir = std::env::temp_dir().join("stud-crash-test");
    std::fs::create_dir_all(&dir).unwrap();
    let (status, body) = http_as(addr, "GET", "/api/hands?limit=50", None, Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let page: HandPage = serde_json::from_str(&body).unwrap();
    let n = page.hands.len();
    assert!(n > 0);
    let export = dir.join(format!("{}.json", Uuid::new_v4().simple()));
    std::fs::write(&export, &body).unwrap();
    let (code, out) = stud(&["verify", export.to_str().unwrap()]);
    assert_eq!((code, out.matches("\"ok\":true").count()), (0, n), "{out}");

    let mut hand: HandDetail = page.hands[0].clone();
    let seed = hand.record.seed.clone().unwrap();
    let flipped = if seed.ends_with('0') { "1" } else { "0" };
    hand.record.seed = Some(format!("{}{flipped}", &seed[..seed.len() - 1]));
    std::fs::write(&export, serde_json::to_string(&hand).unwrap()).unwrap();
    let (code, out) = stud(&["verify", export.to_str().unwrap()]);
    assert_eq!(code, 1, "a changed seed fails: {out}");
    assert!(out.contains("commitment"), "{out}");

    let mut hand: HandDetail = page.hands[0].clone();
    let last = hand.record.actions.len() - 1;
    hand.record.actions.swap(0, last);
    std::fs::write(&export, serde_json::to_string(&hand).unwrap()).unwrap();
    assert_eq!(stud(&["verify", export.to_str().unwrap()]).0, 1, "reordered actions fail");

    // The operator's PHH replays with `stud replay` and verifies with `stud verify`.
    let (_, phh) = http_as(addr, "GET", "/api/hands?format=phh&limit=50", None, Some(KEY)).await.unwrap();
    let phh_file = dir.join(format!("{}.phhs", Uuid::new_v4().simple()));
    std::fs::write(&phh_file, &phh).unwrap();
    let (code, out) = stud(&["replay", phh_file.to_str().unwrap()]);
    assert_eq!((code, out.lines().count()), (0, n), "{out}");
    let (code, out) = stud(&["verify", phh_file.to_str().unwrap()]);
    assert_eq!((code, out.matches("\"ok\":true").count()), (0, n), "{out}");
    // A dealt card changed in the PHH no longer matches the seed's deck.
    std::fs::write(&phh_file, tamper_first_deal(&phh)).unwrap();
    assert_eq!(stud(&["verify", phh_file.to_str().unwrap()]).0, 1);
    for f in [&export, &phh_file] {
        let _ = std::fs::remove_file(f);
    }
}

/// Swaps the first two cards of the first `d dh` line.
fn tamper_first_deal(phh: &str) -> String {
    let at = phh.find("\"d dh p1 ").unwrap() + "\"d dh p1 ".len();
    let (a, b) = (&phh[at..at + 2], &phh[at + 2..at + 4]);
    format!("{}{b}{a}{}", &phh[..at], &phh[at + 4..])
}

#[test]
fn stopped_32_times_on_sqlite_every_hand_resumes_and_no_chip_is_lost() {
    on_a_new_sqlite_file("", |rt, db| rt.block_on(run(db)));
}

/// Runs `test` on a SQLite file of its own under the temp dir (removed after, with its WAL and
/// its journal's files), one crash run at a time.
fn on_a_new_sqlite_file(prefix: &str, test: impl FnOnce(&tokio::runtime::Runtime, &str)) {
    let dir = std::env::temp_dir().join("stud-crash-test");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{prefix}{}.db", Uuid::new_v4().simple()));
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    test(&tokio::runtime::Runtime::new().unwrap(), &format!("sqlite://{}", path.display()));
    for suffix in ["", "-wal", "-shm", ".table-journal", ".table-journal-wal", ".table-journal-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let _ = std::fs::remove_dir_all(format!("{}.journal", path.display()));
}

#[test]
fn stopped_32_times_on_postgres_every_hand_resumes_and_no_chip_is_lost() {
    on_a_new_postgres_database("crash", |rt, db| rt.block_on(run(db)));
}

/// Runs `test` on a database of its own on `TEST_DATABASE_URL` (dropped after), one crash run
/// at a time; skipped with a notice without the variable (a failure with
/// `STUD_REQUIRE_POSTGRES`).
fn on_a_new_postgres_database(prefix: &str, test: impl FnOnce(&tokio::runtime::Runtime, &str)) {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        assert!(
            std::env::var("STUD_REQUIRE_POSTGRES").is_err(),
            "STUD_REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not: a Postgres crash test would be skipped"
        );
        eprintln!("notice: TEST_DATABASE_URL is not set; the Postgres crash test ({prefix}) is skipped");
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let name = format!("{prefix}_{}", Uuid::new_v4().simple());
    let admin = rt.block_on(sqlx::PgPool::connect(&url)).expect("TEST_DATABASE_URL does not answer");
    rt.block_on(sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&admin)).unwrap();
    let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
    test(&rt, &format!("{base}/{name}"));
    let drop = format!("DROP DATABASE {name} WITH (FORCE)");
    rt.block_on(sqlx::query(sqlx::AssertSqlSafe(drop)).execute(&admin)).unwrap();
}

/// Stops of the tournament run (at most: it may end first).
const TOURNAMENT_STOPS: usize = 10;
const T_ENTRY: u64 = 1_000;
const T_FEE: u64 = 100;

/// A tournament bot: registers over its socket, follows `tournament_seat`, answers its prompts
/// (`bots::choose`, seeded), and reconnects (with its token) whenever the server goes
/// away. Records its place when told, and every error but `stale`.
async fn tournament_bot(addr: String, token: String, id: Uuid, seed: u64, seen: Arc<Mutex<TournamentSeen>>) {
    let mut rng = seed;
    let mut registered = false;
    loop {
        let Ok((mut client, _)) = Client::connect(&addr, &token).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if !registered {
            let reg =
                ClientMsg::TournamentRegister { request_id: Some("reg".into()), tournament_id: id, invite_code: None };
            client.send(&reg).await.unwrap();
            registered = true;
        }
        // Until the server goes away.
        while let Ok(msg) = client.recv(Duration::from_secs(30)).await {
            match msg {
                ServerMsg::TournamentSeat { table_id, .. } => {
                    let join = ClientMsg::JoinTable { request_id: None, table_id, invite_code: None };
                    let _ = client.send(&join).await;
                }
                ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } if !legal.is_empty() => {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    // Bets 3 times in 10 and folds 2 in 10: players go out, the tournament ends.
                    let action = bots::choose(&legal, rng % 10 < 3, rng % 10 >= 8);
                    let _ = client.send(&bots::act(table_id, hand_id, seq, action)).await;
                }
                ServerMsg::TournamentPlaced { tournament_id, place, prize, .. } if tournament_id == id => {
                    seen.lock().unwrap().placed = Some((place, prize));
                }
                ServerMsg::Error { code, message, .. } if code != ErrorCode::Stale => {
                    seen.lock().unwrap().errors.push((code, message));
                }
                _ => {}
            }
        }
    }
}

#[derive(Default)]
struct TournamentSeen {
    placed: Option<(u32, u64)>,
    errors: Vec<(ErrorCode, String)>,
}

async fn tournament_detail(addr: &str, id: Uuid) -> Option<TournamentDetail> {
    let (status, text) = http_as(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await.ok()?;
    (status == 200).then(|| serde_json::from_str(&text).unwrap())
}

/// A sit-and-go of 6 over two tables of 3 (so tables balance and break), stopped at random
/// moments until it ends (every fourth stop a SIGTERM, the others `kill -9`): it ends with
/// places 1..6 once each, the prizes add up to the pool and were each paid once, no hand was
/// voided, and the ledger's totals hold (what the house keeps is the fees). A report lost in a
/// crash must neither seat a busted player again nor stall the tournament, and a table broken
/// just before one must not come back.
async fn tournament_run(db: &str) {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let (mut server, _) = Server::start(db, port);
    let n = 6;
    let levels: Vec<String> = (0..12)
        .map(|k| {
            format!(
                r#"{{"ante": {}, "bring_in": {}, "small_bet": {}, "big_bet": {}, "hands": 6}}"#,
                5u64 << k,
                10u64 << k,
                20u64 << k,
                40u64 << k
            )
        })
        .collect();
    let body = format!(
        r#"{{"name": "Crash SNG", "variant": "stud", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": {n},
            "seats_per_table": 3, "entry_fee": {T_ENTRY}, "house_fee": {T_FEE}, "starting_chips": 10000,
            "levels": [{}]}}"#,
        levels.join(",")
    );
    let (status, text) = http_as(&addr, "POST", "/api/admin/tournaments", Some(&body), Some(KEY)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let id = serde_json::from_str::<TournamentDetail>(&text).unwrap().id;
    let mut players = Vec::new();
    let mut bots = Vec::new();
    for k in 0..n {
        let s = create_session(&addr, &format!("t{k}")).await.unwrap();
        let seen = Arc::new(Mutex::new(TournamentSeen::default()));
        players.push((s.player_id, seen.clone()));
        bots.push(tokio::spawn(tournament_bot(addr.clone(), s.token, id, 0x51ed_270b + k as u64, seen)));
    }
    // Every bot registered: the sit-and-go started.
    let until = Instant::now() + Duration::from_secs(30);
    while tournament_detail(&addr, id).await.is_none_or(|d| d.status == TournamentStatus::Registering) {
        assert!(Instant::now() < until, "the sit-and-go never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut stops = 0;
    while stops < TOURNAMENT_STOPS {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // A few hands at most between stops (the bots act at once).
        tokio::time::sleep(Duration::from_millis(30 + rng % 250)).await;
        if tournament_detail(&addr, id).await.is_some_and(|d| d.status == TournamentStatus::Finished) {
            break;
        }
        if stops % 4 == 3 {
            server.stop()
        } else {
            server.kill_9()
        }
        stops += 1;
        server = Server::start(db, port).0;
    }
    let until = Instant::now() + Duration::from_secs(240);
    let d = loop {
        if let Some(d) = tournament_detail(&addr, id).await
            && d.status == TournamentStatus::Finished
        {
            break d;
        }
        assert!(Instant::now() < until, "the tournament did not finish after its restarts");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // Each bot hears its place (the last ones may still be on their way).
    tokio::time::sleep(Duration::from_millis(500)).await;
    for b in &bots {
        b.abort();
    }
    server.stop();
    eprintln!("tournament: {stops} stops, {} levels reached", d.level);
    assert!(stops >= 6, "only {stops} stops before the tournament ended: the test says little");
    let mut places: Vec<u32> = d.results.iter().map(|r| r.place).collect();
    places.sort_unstable();
    assert_eq!(places, (1..=n as u32).collect::<Vec<_>>(), "places 1..{n} exactly once: {:?}", d.results);
    assert_eq!(d.pool, T_ENTRY * n as u64);
    assert_eq!(d.results.iter().map(|r| r.prize).sum::<u64>(), d.pool, "the prizes add up to the pool");
    let store = stud_store::open(db).await.unwrap();
    let totals = store.totals().await.unwrap();
    assert!(totals.conserved(), "no chip lost or made: {totals:?}");
    assert_eq!(totals.on_tables, (T_FEE * n as u64) as i64, "the house keeps the fees: {totals:?}");
    let start = stud_server::Config::default().starting_balance;
    for (player, seen) in &players {
        let r = d.results.iter().find(|r| r.player_id == *player).unwrap();
        assert_eq!(store.balance(*player).await.unwrap(), start - T_ENTRY - T_FEE + r.prize, "paid once");
        let seen = seen.lock().unwrap();
        if let Some(placed) = seen.placed {
            assert_eq!(placed, (r.place, r.prize));
        }
        assert!(seen.errors.is_empty(), "{player}: {:?}", seen.errors);
    }
    let log = store.admin_log(1_000).await.unwrap();
    assert!(!log.iter().any(|e| e.action == "void_hand"), "no hand was voided: {log:?}");
}

#[test]
fn a_tournament_stopped_10_times_on_postgres_ends_with_every_place_and_every_chip() {
    on_a_new_postgres_database("crash_t", |rt, db| rt.block_on(tournament_run(db)));
}

#[test]
fn a_tournament_stopped_10_times_ends_with_every_place_and_every_chip() {
    on_a_new_sqlite_file("t-", |rt, db| rt.block_on(tournament_run(db)));
}

/// How the access scenario stops the server.
#[derive(Clone, Copy)]
enum Stop {
    Kill9,
    Term,
}

/// `access::private_mid_hand_across_restarts` on one process, stopped by `stop` at each restart.
async fn access_run(db: &str, stop: Stop) {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    // Nobody's clock runs out while a hand is held in play across the restarts.
    let env = [("STUD_ACTION_TIMEOUT_MS", "120000"), ("STUD_DISCONNECT_GRACE_MS", "120000")];
    let server = Arc::new(Mutex::new(Some(Server::start_with(db, port, &env).0)));
    let restart = async || {
        let old = server.lock().unwrap().take().unwrap();
        match stop {
            Stop::Kill9 => old.kill_9(),
            Stop::Term => old.stop(),
        }
        *server.lock().unwrap() = Some(Server::start_with(db, port, &env).0);
    };
    access::private_mid_hand_across_restarts(&addr, KEY, restart).await;
    if let Some(s) = server.lock().unwrap().take() {
        s.stop();
    }
}

#[test]
fn made_private_mid_hand_then_killed_on_sqlite_admits_no_stranger() {
    on_a_new_sqlite_file("access-", |rt, db| rt.block_on(access_run(db, Stop::Kill9)));
}

#[test]
fn made_private_mid_hand_then_stopped_on_sqlite_admits_no_stranger() {
    on_a_new_sqlite_file("access-", |rt, db| rt.block_on(access_run(db, Stop::Term)));
}

#[test]
fn made_private_mid_hand_then_killed_on_postgres_admits_no_stranger() {
    on_a_new_postgres_database("access", |rt, db| rt.block_on(access_run(db, Stop::Kill9)));
}

#[test]
fn made_private_mid_hand_then_stopped_on_postgres_admits_no_stranger() {
    on_a_new_postgres_database("access", |rt, db| rt.block_on(access_run(db, Stop::Term)));
}
