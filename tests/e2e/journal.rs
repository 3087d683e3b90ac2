//! The database goes away mid-hand (Postgres behind a TCP relay the test cuts): inputs are
//! refused with `unavailable` and change nothing; when it is back, the same request (same
//! idempotency key) is applied once, and the hand plays on and is stored.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

use stud_engine::{Action, Event, Variant};
use stud_proto::{ClientMsg, ErrorCode, ServerMsg};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{Player, passive, spawn_app, table_of};

/// Forwards connections to Postgres until cut; while cut, every connection (old and new) is
/// closed at once.
struct Relay {
    port: u16,
    cut: Arc<AtomicBool>,
    cutting: Arc<Notify>,
}

impl Relay {
    async fn start(target: String) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(AtomicBool::new(false));
        let cutting = Arc::new(Notify::new());
        let (c, n) = (cut.clone(), cutting.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if c.load(SeqCst) {
                    continue; // dropped: closed at once
                }
                let (target, c, n) = (target.clone(), c.clone(), n.clone());
                tokio::spawn(async move {
                    let Ok(mut server) = TcpStream::connect(&target).await else { return };
                    let cut_now = n.notified();
                    tokio::pin!(cut_now);
                    if c.load(SeqCst) {
                        return;
                    }
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        () = &mut cut_now => {}
                    }
                });
            }
        });
        Relay { port, cut, cutting }
    }

    fn cut(&self) {
        self.cut.store(true, SeqCst);
        self.cutting.notify_waiters();
    }

    fn mend(&self) {
        self.cut.store(false, SeqCst);
    }
}

#[tokio::test]
async fn the_database_going_away_refuses_inputs_and_play_resumes_when_it_is_back() {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        assert!(
            std::env::var("STUD_REQUIRE_POSTGRES").is_err(),
            "STUD_REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not: this test would be skipped"
        );
        eprintln!("notice: TEST_DATABASE_URL is not set; the database-outage test is skipped");
        return;
    };
    // A schema of its own, reached through the relay.
    let schema = format!("outage_{}", Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    exec(&admin, &format!("CREATE SCHEMA {schema}")).await;
    let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
    let (auth, host_db) = rest.rsplit_once('@').map_or(("", rest), |(a, h)| (a, h));
    let (host, db) = host_db.split_once('/').unwrap_or((host_db, "postgres"));
    let relay = Relay::start(host.to_owned()).await;
    let at = if auth.is_empty() { String::new() } else { format!("{auth}@") };
    let relayed = format!("postgres://{at}127.0.0.1:{}/{db}?options=-c%20search_path%3D{schema}", relay.port);

    let (server, addr) = spawn_app(|c| {
        c.database_url = relayed;
        c.action_timeout_ms = 60_000;
        c.disconnect_grace_ms = 60_000;
    })
    .await;
    let table = table_of(&addr, Variant::Razz).await;
    let mut players = Vec::new();
    for seat in 1..=3 {
        let mut p = Player::new(&addr, &format!("p{seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    // Play until someone is asked to act after the bring-in.
    let (who, prompt) = loop {
        let mut found = None;
        for (i, p) in players.iter_mut().enumerate() {
            if let Ok(ServerMsg::YourTurn { hand_id, seq, legal, .. }) =
                tokio::time::timeout(std::time::Duration::from_millis(200), p.recv()).await
            {
                if legal.contains(&Action::BringIn) {
                    let act = ClientMsg::Act {
                        request_id: None,
                        table_id: table.id,
                        hand_id,
                        seq,
                        idempotency_key: format!("b{seq}"),
                        action: Action::BringIn,
                    };
                    p.send(act).await;
                } else {
                    found = Some((i, (hand_id, seq, legal)));
                    break;
                }
            }
        }
        if let Some(f) = found {
            break f;
        }
    };
    let (hand_id, seq, legal) = prompt;
    let action = passive(&legal);
    let act = |request: &str| ClientMsg::Act {
        request_id: Some(request.into()),
        table_id: table.id,
        hand_id,
        seq,
        idempotency_key: "the-one".into(),
        action,
    };

    relay.cut();
    let p = &mut players[who];
    p.send(act("during")).await;
    let refused = p.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::Event { .. })).await;
    assert!(
        matches!(&refused, ServerMsg::Error { code: ErrorCode::Unavailable, request_id: Some(r), .. } if r == "during"),
        "{refused:?}"
    );
    // A second try while it is still down: refused again.
    p.send(act("during again")).await;
    let refused = p.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::Event { .. })).await;
    assert!(matches!(refused, ServerMsg::Error { code: ErrorCode::Unavailable, .. }), "{refused:?}");

    relay.mend();
    // The same request once the database is back: applied, once.
    let mut applied = None;
    for _ in 0..40 {
        p.send(act("after")).await;
        match p.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::Event { .. } | ServerMsg::Ack { .. })).await
        {
            ServerMsg::Event { event, .. } => {
                applied = Some(event);
                break;
            }
            // Its one reply (`applied`) comes before its event.
            ServerMsg::Ack { detail, .. } if detail == "applied" => {
                match p.until(|m| matches!(m, ServerMsg::Event { .. })).await {
                    ServerMsg::Event { event, .. } => applied = Some(event),
                    _ => unreachable!(),
                }
                break;
            }
            ServerMsg::Error { code: ErrorCode::Unavailable, .. } => {
                // The pool is still reconnecting.
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
            other => panic!("{other:?}"),
        }
    }
    let applied = applied.expect("the action was applied once the database was back");
    assert!(
        matches!(applied, Event::Check { .. } | Event::Call { .. } | Event::Complete { .. } | Event::Bet { .. }),
        "{applied:?}"
    );
    p.send(act("repeat")).await;
    // (The hand goes on meanwhile: this player may be asked again before the answer comes.)
    let mut asked = None;
    let again = loop {
        match p.recv().await {
            ServerMsg::YourTurn { hand_id, seq, legal, .. } => asked = Some((hand_id, seq, legal)),
            m @ (ServerMsg::Ack { .. } | ServerMsg::Error { .. }) => break m,
            _ => {}
        }
    };
    assert!(matches!(&again, ServerMsg::Ack { detail, .. } if detail.starts_with("duplicate")), "{again:?}");
    if let Some((hand_id, seq, legal)) = asked {
        let next = ClientMsg::Act {
            request_id: None,
            table_id: table.id,
            hand_id,
            seq,
            idempotency_key: "next".into(),
            action: passive(&legal),
        };
        p.send(next).await;
    }

    // The hand plays out and is stored, with the action in it once.
    let players = crate::play::play(players, 1, 5).await;
    drop(players);
    let store = stud_store::open(&format!("{url}?options=-c%20search_path%3D{schema}")).await.unwrap();
    let mut stored = None;
    for _ in 0..50 {
        stored = store.hand(hand_id).await.unwrap();
        if stored.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let stored = stored.expect("the hand was stored");
    let seat = stud_engine::Seat::new(u8::try_from(who + 1).unwrap()).unwrap();
    let theirs = stored.record.actions.iter().filter(|a| a.seat == seat).count();
    assert!(theirs >= 1, "the action is in the stored hand");
    assert!(store.totals().await.unwrap().conserved());
    // The journal's counters: the two refused inputs (at least), every other one stored.
    let (_, metrics) = stud_client::http(&addr, "GET", "/metrics", None).await.unwrap();
    let value = |name: &str| -> u64 {
        let line = metrics.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap();
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert!(value("stud_journal_failures_total") >= 2, "{metrics}");
    assert!(value("stud_journal_appends_total") > 10, "{metrics}");
    assert!(value("stud_journal_group_size_count") >= 1, "{metrics}");
    server.shutdown().await;
    exec(&admin, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

async fn exec(admin: &sqlx::PgPool, sql: &str) {
    sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).execute(admin).await.unwrap();
}

/// A journal that fails its checks is the one case that voids a hand: the stacks the ledger
/// holds at that table go back to their players, and the operators' log says which table,
/// which hand and why.
#[tokio::test]
async fn a_damaged_journal_voids_the_hand_refunds_it_and_says_so_in_the_audit_log() {
    let (path, url) = crate::temp_db("void");
    let config = |url: String| {
        move |c: &mut stud_server::Config| {
            c.database_url = url;
            c.operator_key = Some("void-test-operator-key-0123456789".into());
        }
    };
    let (server, addr) = spawn_app(config(url.clone())).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut players = Vec::new();
    for seat in 1..=2 {
        let mut p = Player::new(&addr, &format!("v{seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    // Mid-hand: the bring-in is up.
    let hand_id = loop {
        if let ServerMsg::YourTurn { hand_id, .. } = players[0].recv().await {
            break hand_id;
        }
        if let Ok(ServerMsg::YourTurn { hand_id, .. }) =
            tokio::time::timeout(std::time::Duration::from_millis(50), players[1].recv()).await
        {
            break hand_id;
        }
    };
    server.shutdown().await;
    // Damage the entry after the last one, as a foreign write would: a record whose checksum
    // holds (a torn one is simply not read) but whose entry is not one.
    let place = stud_server::Config { database_url: url.clone(), ..Default::default() }.journal_place();
    let dir = match place {
        stud_server::config::JournalPlace::Files(dir) => dir,
        place => panic!("a SQLite file's journal is in files by default, not {place:?}"),
    };
    // The newest segment with entries (segment names sort by age; the newest may be one made
    // ahead, all zeros), and where its records end (a segment made ahead has zeros after).
    let mut segments: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "seg"))
        .collect();
    segments.sort();
    let (last, rows, written) = segments
        .into_iter()
        .rev()
        .find_map(|p| {
            // The newest may be an unused segment made ahead, being removed by a journal that
            // stopped in this process.
            let bytes = std::fs::read(&p).ok()?;
            let (rows, end) = stud_server::journal::file::decode_with_end(&bytes);
            assert!(bytes[end..].iter().all(|b| *b == 0), "{} ends in damage", p.display());
            rows.iter().any(|r| r.table_id == table.id).then_some((p, rows, end))
        })
        .unwrap();
    let n = rows.iter().filter(|r| r.table_id == table.id).map(|r| r.n).max().unwrap();
    let mut bad = Vec::new();
    let row = stud_store::JournalRow { table_id: table.id, n: n + 1, at_ms: 0, entry: "{\"v\":1,\"n\":".into() };
    stud_server::journal::file::encode(&row, &mut bad);
    // Right after the last whole record, as the writer would have put it.
    let mut file = std::fs::OpenOptions::new().write(true).open(&last).unwrap();
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(written as u64)).unwrap();
    std::io::Write::write_all(&mut file, &bad).unwrap();
    drop(file);

    let (server, addr) = spawn_app(config(url.clone())).await;
    let key = "void-test-operator-key-0123456789";
    let (status, log) = stud_client::http_as(&addr, "GET", "/api/admin/log", None, Some(key)).await.unwrap();
    assert_eq!(status, 200, "{log}");
    assert!(log.contains("void_hand") && log.contains(&table.id.to_string()), "{log}");
    assert!(log.contains(&hand_id.to_string()), "the log names the hand: {log}");
    let store = stud_store::open(&url).await.unwrap();
    let totals = store.totals().await.unwrap();
    assert!(totals.conserved(), "{totals:?}");
    assert!(store.open_stacks().await.unwrap().iter().all(|o| o.table_id != table.id), "refunded");
    for p in &players {
        assert_eq!(store.balance(p.player_id).await.unwrap(), 100_000, "the voided hand's chips are back");
    }
    // The table plays again, empty.
    let summary = table_of(&addr, Variant::Stud).await;
    assert_eq!((summary.id, summary.seats_taken), (table.id, 0));
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An operator closes a table mid-hand and the server stops (SIGTERM) before the hand ends:
/// the close is not answered as done (503), and when the server is back the table resumes,
/// plays its hand to the end (the absent players' clocks run out), stores it, cashes everyone
/// out and closes. No hand is voided, no chip lost.
#[tokio::test]
async fn a_table_closed_mid_hand_finishes_its_hand_after_a_restart_then_closes() {
    let (path, url) = crate::temp_db("close_restart");
    let key = "close-test-operator-key-0123456789";
    let config = |url: String| {
        move |c: &mut stud_server::Config| {
            c.database_url = url;
            c.operator_key = Some(key.into());
            c.action_timeout_ms = 300;
            c.time_bank_ms = 0;
        }
    };
    let (server, addr) = spawn_app(config(url.clone())).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut players = Vec::new();
    for seat in 1..=2 {
        let mut p = Player::new(&addr, &format!("c{seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    let hand_id = loop {
        if let ServerMsg::HandStarted { hand_id, .. } = players[0].recv().await {
            break hand_id;
        }
    };
    let close = {
        let addr = addr.clone();
        let path = format!("/api/admin/tables/{}/close", table.id);
        tokio::spawn(async move { stud_client::http_as(&addr, "POST", &path, None, Some(key)).await.unwrap() })
    };
    // The close is stored before the table hears it.
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    server.shutdown().await;
    let (status, text) = close.await.unwrap();
    assert_ne!(status, 204, "a close answered as done before its hand ended: {text}");
    drop(players);

    // Back with slow clocks, and stopped again mid-hand: the closing table stops with it.
    let slow = {
        let url = url.clone();
        move |c: &mut stud_server::Config| {
            config(url)(c);
            c.action_timeout_ms = 60_000;
        }
    };
    let (server, _) = spawn_app(slow).await;
    let stopped = tokio::time::timeout(std::time::Duration::from_secs(10), server.shutdown()).await;
    assert!(stopped.is_ok(), "a server with a table closing mid-hand did not stop");

    let (server, _addr) = spawn_app(config(url.clone())).await;
    let store = stud_store::open(&url).await.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let stacks = store.open_stacks().await.unwrap();
        if stacks.iter().all(|o| o.table_id != table.id) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the closed table still holds chips: {stacks:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(server.app.writer.flush().await);
    let hand = store.hand(hand_id).await.unwrap().expect("the hand in play when the table closed is stored");
    assert_eq!(hand.table_id, table.id);
    let totals = store.totals().await.unwrap();
    assert!(totals.conserved(), "{totals:?}");
    let (_, log) = stud_client::http_as(&_addr, "GET", "/api/admin/log", None, Some(key)).await.unwrap();
    assert!(!log.contains("void_hand"), "{log}");
    assert!(store.tables().await.unwrap().iter().any(|t| t.id == table.id && t.closed), "still closed");
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
}
