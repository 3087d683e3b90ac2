//! One conformance suite, run against both backends: SQLite (always) and Postgres (when
//! `TEST_DATABASE_URL` is set; each run gets a schema of its own). On a machine without
//! Postgres the Postgres run is skipped with a notice, unless `STUD_REQUIRE_POSTGRES=1`
//! (CI sets it), which turns the skip into a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use stud_engine::bot::Bot;
use stud_engine::sim::play_hand;
use stud_engine::{NoEvents, Seat, Seed, TableConfig, Variant};
use stud_store::{
    AdminLogEntry, Ban, BanScope, Cursor, HandQuery, HandSeat, HandTournament, JournalRow, LedgerCursor, LedgerEntry,
    LedgerKind, LedgerQuery, NewSession, OperatorKey, PgStore, SqliteStore, Store, StoreError, StoredHand, StoredTable,
    TableJournal, TableWrites, TournamentCommit, Write, Writer, WriterConfig, token_hash,
};
use uuid::Uuid;

/// A store and a way to run raw SQL on it (to break and mend it).
struct Backend {
    store: Arc<dyn Store>,
    raw: Raw,
}

enum Raw {
    Pg(sqlx::PgPool),
    Sqlite(sqlx::SqlitePool),
}

impl Backend {
    async fn exec(&self, sql: &'static str) {
        match &self.raw {
            Raw::Pg(p) => sqlx::query(sql).execute(p).await.map(|_| ()),
            Raw::Sqlite(p) => sqlx::query(sql).execute(p).await.map(|_| ()),
        }
        .unwrap();
    }
}

async fn sqlite() -> Backend {
    let store = SqliteStore::connect("sqlite::memory:").await.unwrap();
    Backend { raw: Raw::Sqlite(store.pool().clone()), store: Arc::new(store) }
}

/// A schema of its own on `TEST_DATABASE_URL`: the options that put a connection in it, an
/// admin pool, and its name (`None`, with a notice, without Postgres).
async fn pg_schema() -> Option<(sqlx::postgres::PgConnectOptions, sqlx::PgPool, String)> {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        assert!(
            std::env::var("STUD_REQUIRE_POSTGRES").is_err(),
            "STUD_REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not: the Postgres suite would be skipped"
        );
        eprintln!("notice: TEST_DATABASE_URL is not set; the Postgres store tests are skipped");
        return None;
    };
    let schema = format!("conformance_{}", Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&url).await.expect("TEST_DATABASE_URL does not answer");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&admin).await.unwrap();
    let options = sqlx::postgres::PgConnectOptions::from_str(&url).unwrap().options([("search_path", schema.as_str())]);
    Some((options, admin, schema))
}

async fn postgres() -> Option<(Backend, sqlx::PgPool, String)> {
    let (options, admin, schema) = pg_schema().await?;
    let store = PgStore::connect_with(options).await.unwrap();
    Some((Backend { raw: Raw::Pg(store.pool().clone()), store: Arc::new(store) }, admin, schema))
}

fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

fn session(name: &str) -> NewSession {
    NewSession {
        player_id: Uuid::new_v4(),
        session_id: Uuid::new_v4(),
        name: name.into(),
        token_hash: token_hash(&Uuid::new_v4().to_string()),
        starting_balance: 100_000,
        created_at_ms: 1_000,
    }
}

fn entry(s: &NewSession, table: Uuid, kind: LedgerKind, amount: u64) -> Write {
    Write::Ledger(LedgerEntry { player_id: s.player_id, table_id: Some(table), kind, amount, at_ms: 2_000 })
}

/// A real finished hand between `players` (seats 1..), played by bots from `seed`.
fn hand(table: Uuid, players: &[&NewSession], stack: u64, seed: u8, ended_at_ms: u64) -> StoredHand {
    let config = TableConfig::new(Variant::Stud, 40, 50, 200, 400);
    let seats: Vec<(Seat, u64)> = (1..=players.len() as u8).map(|n| (seat(n), stack)).collect();
    let mut bots: Vec<Bot> = (0..8).map(|k| Bot::new(u64::from(seed) * 8 + k)).collect();
    let (h, _) = play_hand(config, &seats, Seed([seed; 32]), &mut bots, &mut NoEvents).unwrap();
    let record = h.record();
    let result = record.result.clone().unwrap();
    let seats = players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let after = result.finishing_stacks[i].chips;
            HandSeat {
                seat: seat(i as u8 + 1),
                player_id: p.player_id,
                session_id: p.session_id,
                name: p.name.clone(),
                net: after as i64 - stack as i64,
                showdown: result.showdown.iter().any(|s| s.seat == seat(i as u8 + 1)),
            }
        })
        .collect();
    StoredHand {
        hand_id: Uuid::new_v4(),
        table_id: table,
        number: u64::from(seed),
        started_at_ms: ended_at_ms - 10,
        ended_at_ms,
        record,
        seats,
        tournament: None,
    }
}

async fn conserved(store: &dyn Store) -> stud_store::LedgerTotals {
    let t = store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
    t
}

async fn sessions_and_tables(b: &Backend) {
    let s = b.store.as_ref();
    let alice = session("Alice");
    s.create_session(&alice).await.unwrap();
    let found = s.session_by_token(&alice.token_hash).await.unwrap().unwrap();
    assert_eq!((found.player_id, found.session_id, found.name.as_str()), (alice.player_id, alice.session_id, "Alice"));
    assert!(s.session_by_token(&token_hash("nope")).await.unwrap().is_none());
    assert_eq!(s.balance(alice.player_id).await.unwrap(), 100_000);
    assert_eq!(s.balance(Uuid::new_v4()).await.unwrap(), 0);
    // The same token twice is refused: tokens are unique.
    assert!(
        s.create_session(&NewSession { player_id: Uuid::new_v4(), session_id: Uuid::new_v4(), ..alice.clone() })
            .await
            .is_err()
    );

    let mut t = StoredTable {
        id: Uuid::new_v4(),
        name: "Razz 1".into(),
        config: TableConfig::new(Variant::Razz, 10, 20, 40, 80),
        min_buy_in: 800,
        max_buy_in: 8_000,
        created_at_ms: 5,
        closed: false,
        settings: r#"{"private":true}"#.into(),
    };
    s.save_table(&t).await.unwrap();
    t.closed = true;
    t.name = "Razz 1 (closed)".into();
    s.save_table(&t).await.unwrap();
    assert_eq!(s.tables().await.unwrap(), vec![t]);
    conserved(s).await;
}

async fn hands_and_the_ledger(b: &Backend) {
    let s = b.store.as_ref();
    let table = Uuid::new_v4();
    let t0 = conserved(s).await;
    let (p1, p2, p3) = (session("p1"), session("p2"), session("p3"));
    for p in [&p1, &p2, &p3] {
        s.create_session(p).await.unwrap();
    }
    let mut batch = vec![
        entry(&p1, table, LedgerKind::BuyIn, 10_000),
        entry(&p2, table, LedgerKind::BuyIn, 10_000),
        entry(&p3, table, LedgerKind::BuyIn, 10_000),
    ];
    // Twelve hands; each starts every stack at 10,000 so nets are exact per hand.
    let hands: Vec<StoredHand> =
        (1..=12).map(|k| hand(table, &[&p1, &p2, &p3], 10_000, k, 10_000 + u64::from(k))).collect();
    batch.extend(hands.iter().map(|h| Write::Hand(Arc::new(h.clone()))));
    s.write_batch(&batch).await.unwrap();
    let t = conserved(s).await;
    assert_eq!(t.issued - t0.issued, 300_000);
    assert_eq!(t.on_tables - t0.on_tables, 30_000);

    // Stacks on the table: buy-in plus every net, per player.
    let mut open = s.open_stacks().await.unwrap();
    open.sort_by_key(|o| o.player_id);
    for p in [&p1, &p2, &p3] {
        let net: i64 = hands.iter().map(|h| h.seat_of(p.player_id).unwrap().net).sum();
        let o = open.iter().find(|o| o.player_id == p.player_id).unwrap();
        assert_eq!(o.stack as i64, 10_000 + net);
        assert_eq!(o.table_id, table);
        assert_eq!(s.balance(p.player_id).await.unwrap(), 90_000);
    }

    // LAST HAND: the newest first, limited, whole records.
    let last = s.session_hands(p2.session_id, p2.player_id, 5).await.unwrap();
    let want: Vec<Uuid> = hands.iter().rev().take(5).map(|h| h.hand_id).collect();
    assert_eq!(last.iter().map(|h| h.hand_id).collect::<Vec<_>>(), want);
    assert_eq!(last[0], hands[11], "a hand reads back exactly as written");
    assert_eq!(s.hand(hands[3].hand_id).await.unwrap().as_ref(), Some(&hands[3]));
    assert!(s.hand(Uuid::new_v4()).await.unwrap().is_none());
    assert!(s.session_hands(Uuid::new_v4(), Uuid::new_v4(), 50).await.unwrap().is_empty());
    assert_eq!(s.last_hand_number(table).await.unwrap(), Some(12), "the newest hand's number");
    assert_eq!(s.last_hand_number(Uuid::new_v4()).await.unwrap(), None);

    // Operators' search: filters and cursor paging see every hand once, newest first.
    let mut q = HandQuery { table: Some(table), limit: 5, ..HandQuery::default() };
    let mut paged = Vec::new();
    loop {
        let page = s.hands(&q).await.unwrap();
        paged.extend(page.iter().map(|h| h.hand_id));
        match page.last() {
            Some(h) if page.len() == 5 => q.before = Some(Cursor::after(h)),
            _ => break,
        }
    }
    assert_eq!(paged, hands.iter().rev().map(|h| h.hand_id).collect::<Vec<_>>());
    let since = HandQuery { player: Some(p1.player_id), since_ms: Some(10_010), limit: 50, ..HandQuery::default() };
    assert_eq!(s.hands(&since).await.unwrap().len(), 3);
    let other = HandQuery { table: Some(Uuid::new_v4()), limit: 50, ..HandQuery::default() };
    assert!(s.hands(&other).await.unwrap().is_empty());
    let c = Cursor::after(&hands[0]);
    assert_eq!(Cursor::decode(&c.encode()), Some(c));
    assert_eq!(Cursor::decode("12-nope"), None);

    // Cash-outs empty the table; the chips are back in the accounts.
    let out: Vec<Write> = open
        .iter()
        .map(|o| {
            let p = [&p1, &p2, &p3].into_iter().find(|p| p.player_id == o.player_id).unwrap();
            entry(p, table, LedgerKind::CashOut, o.stack)
        })
        .collect();
    s.write_batch(&out).await.unwrap();
    let t = conserved(s).await;
    assert_eq!((t.on_tables, t.balances - t0.balances), (0, 300_000));
    assert!(s.open_stacks().await.unwrap().is_empty());
}

async fn a_failed_batch_writes_nothing(b: &Backend) {
    let s = b.store.as_ref();
    let table = Uuid::new_v4();
    let (p1, p2) = (session("a"), session("b"));
    s.create_session(&p1).await.unwrap();
    s.create_session(&p2).await.unwrap();
    let h = hand(table, &[&p1, &p2], 5_000, 3, 50_000);
    s.write_batch(&[
        entry(&p1, table, LedgerKind::BuyIn, 5_000),
        entry(&p2, table, LedgerKind::BuyIn, 5_000),
        Write::Hand(Arc::new(h.clone())),
    ])
    .await
    .unwrap();
    let before = conserved(s).await;
    // The same hand again (a primary key clash) after a valid entry: all or nothing.
    let again = [entry(&p1, table, LedgerKind::CashOut, 100), Write::Hand(Arc::new(h.clone()))];
    assert!(s.write_batch(&again).await.is_err());
    assert_eq!(conserved(s).await, before, "nothing of the failed batch was kept");
}

async fn the_writer_retries_until_the_database_is_back(b: &Backend) {
    let table = Uuid::new_v4();
    let (p1, p2) = (session("w1"), session("w2"));
    b.store.create_session(&p1).await.unwrap();
    b.store.create_session(&p2).await.unwrap();
    let (writer, task) = Writer::spawn(b.store.clone(), WriterConfig { max_batch: 4, backlog_limit: 6 });
    writer.push(entry(&p1, table, LedgerKind::BuyIn, 5_000)).unwrap();
    writer.push(entry(&p2, table, LedgerKind::BuyIn, 5_000)).unwrap();
    assert!(writer.flush().await);
    // "Down": the hands table is gone; hands queue and are retried.
    b.exec("ALTER TABLE hands RENAME TO hands_away").await;
    let hands: Vec<StoredHand> = (1..=10).map(|k| hand(table, &[&p1, &p2], 5_000, k, 60_000 + u64::from(k))).collect();
    for h in &hands {
        writer.push(Write::Hand(Arc::new(h.clone()))).unwrap();
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while writer.stats().errors.load(std::sync::atomic::Ordering::Relaxed) < 2 && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(writer.stats().errors.load(std::sync::atomic::Ordering::Relaxed) >= 2, "the writer kept trying");
    assert!(writer.backlogged(), "10 queued writes are over the limit of 6");
    // Back up: everything lands, in order, nothing lost.
    b.exec("ALTER TABLE hands_away RENAME TO hands").await;
    assert!(tokio::time::timeout(Duration::from_secs(10), writer.flush()).await.unwrap());
    assert!(!writer.backlogged());
    assert_eq!(writer.stats().hands.load(std::sync::atomic::Ordering::Relaxed), 10);
    let stored = b.store.hands(&HandQuery { table: Some(table), limit: 50, ..HandQuery::default() }).await.unwrap();
    assert_eq!(stored.len(), 10);
    let net: i64 = hands.iter().map(|h| h.seat_of(p1.player_id).unwrap().net).sum();
    let open = b.store.open_stacks().await.unwrap();
    assert_eq!(open.iter().find(|o| o.player_id == p1.player_id).unwrap().stack as i64, 5_000 + net);
    conserved(b.store.as_ref()).await;
    drop(writer);
    task.await.unwrap();
}

async fn operators_and_bans(b: &Backend) {
    let s = b.store.as_ref();
    let key = OperatorKey {
        id: Uuid::new_v4(),
        name: "club".into(),
        key_hash: token_hash("secret-key"),
        created_at_ms: 7,
        revoked: false,
    };
    s.add_operator_key(&key).await.unwrap();
    assert_eq!(s.operator_key(&token_hash("secret-key")).await.unwrap(), Some(key.clone()));
    assert_eq!(s.operator_key(&token_hash("other")).await.unwrap(), None);
    let revoked = OperatorKey { id: Uuid::new_v4(), key_hash: token_hash("old"), revoked: true, ..key };
    s.add_operator_key(&revoked).await.unwrap();
    assert_eq!(s.operator_key(&token_hash("old")).await.unwrap(), None, "a revoked key is refused");

    for (k, action) in ["create_table", "kick"].into_iter().enumerate() {
        let e = AdminLogEntry {
            at_ms: 100 + k as u64,
            operator: "club".into(),
            action: action.into(),
            target: (k == 1).then(|| "someone".to_owned()),
            detail: "{}".into(),
        };
        s.log_admin(&e).await.unwrap();
    }
    let log = s.admin_log(10).await.unwrap();
    assert_eq!(log.iter().map(|e| e.action.as_str()).collect::<Vec<_>>(), ["kick", "create_table"]);
    assert_eq!(log[0].target.as_deref(), Some("someone"));

    let (player, table) = (Uuid::new_v4(), Uuid::new_v4());
    let ban = Ban { player_id: player, scope: BanScope::Table(table), at_ms: 1, reason: "rude".into() };
    s.ban(&ban).await.unwrap();
    s.ban(&Ban { reason: "very rude".into(), ..ban.clone() }).await.unwrap();
    s.ban(&Ban { scope: BanScope::Server, ..ban.clone() }).await.unwrap();
    let mut bans = s.bans().await.unwrap();
    bans.sort_by_key(|b| b.scope == BanScope::Server);
    assert_eq!(bans.len(), 2);
    assert_eq!(bans[0].reason, "very rude");
    assert!(s.unban(player, BanScope::Server).await.unwrap());
    assert!(!s.unban(player, BanScope::Server).await.unwrap());
    assert_eq!(s.bans().await.unwrap().len(), 1);
}

fn row(table: Uuid, n: u64, entry: &str) -> JournalRow {
    JournalRow { table_id: table, n, at_ms: 1_000 + n, entry: entry.into() }
}

fn group(table: Uuid, n: u64, writes: Vec<Write>, snapshot: Option<&str>) -> Write {
    Write::Table(Arc::new(TableWrites { table_id: table, n, writes, snapshot: snapshot.map(str::to_owned) }))
}

async fn journal_of(s: &dyn Store, table: Uuid) -> TableJournal {
    s.journals().await.unwrap().into_iter().find(|j| j.table_id == table).unwrap_or_default()
}

async fn the_journal(b: &Backend) {
    let s = b.store.as_ref();
    let (t, u) = (Uuid::new_v4(), Uuid::new_v4());
    s.journal_reset(t, 0, "s0").await.unwrap();
    s.journal_append(&[row(t, 1, "a"), row(t, 2, "b"), row(u, 1, "x")]).await.unwrap();
    s.journal_append(&[row(t, 3, "c")]).await.unwrap();
    let j = journal_of(s, t).await;
    assert_eq!(j.snapshot, Some((0, "s0".into())));
    assert_eq!(j.entries, vec![(1, "a".into()), (2, "b".into()), (3, "c".into())]);
    assert_eq!(j.stored_n, 0);
    let ju = journal_of(s, u).await;
    assert_eq!((ju.snapshot, ju.entries), (None, vec![(1, "x".into())]), "a journal without a snapshot is listed");

    // An entry number taken twice fails the whole append: nothing of it is stored.
    assert!(s.journal_append(&[row(t, 4, "d"), row(t, 2, "again")]).await.is_err());
    assert_eq!(journal_of(s, t).await.entries.len(), 3);

    // An input's writes move the table's mark with them, in the same transaction.
    let p = session("journaled");
    let q = session("journaled too");
    s.create_session(&p).await.unwrap();
    s.create_session(&q).await.unwrap();
    s.write_batch(&[group(t, 2, vec![entry(&p, t, LedgerKind::BuyIn, 5_000)], None)]).await.unwrap();
    let j = journal_of(s, t).await;
    assert_eq!((j.stored_n, j.entries.len()), (2, 3));
    assert_eq!(s.balance(p.player_id).await.unwrap(), 95_000);
    conserved(s).await;
    // A failed batch moves no mark.
    let bad = group(t, 3, vec![Write::Hand(Arc::new(hand(t, &[&p, &q], 5_000, 1, 3_000)))], None);
    b.exec("ALTER TABLE hands RENAME TO hands_away").await;
    assert!(s.write_batch(&[bad]).await.is_err());
    b.exec("ALTER TABLE hands_away RENAME TO hands").await;
    assert_eq!(journal_of(s, t).await.stored_n, 2);

    // A snapshot prunes the journal up to it; the last of a batch wins; marks never go back.
    s.write_batch(&[group(t, 3, vec![], Some("s3")), group(t, 1, vec![], None)]).await.unwrap();
    let j = journal_of(s, t).await;
    assert_eq!((j.snapshot, j.stored_n, j.entries), (Some((3, "s3".into())), 3, vec![]));
    s.journal_append(&[row(t, 4, "d"), row(t, 5, "e"), row(t, 6, "f")]).await.unwrap();
    s.write_batch(&[group(t, 4, vec![], Some("s4")), group(t, 5, vec![], Some("s5"))]).await.unwrap();
    let j = journal_of(s, t).await;
    assert_eq!((j.snapshot, j.stored_n, j.entries), (Some((5, "s5".into())), 5, vec![(6, "f".into())]));

    // A reset starts afresh: everything up to it is gone.
    s.journal_reset(t, 9, "fresh").await.unwrap();
    let j = journal_of(s, t).await;
    assert_eq!((j.snapshot, j.stored_n, j.entries), (Some((9, "fresh".into())), 9, vec![]));
    // (The chips go back, so the suites after this one start with no open stack.)
    s.write_batch(&[group(t, 10, vec![entry(&p, t, LedgerKind::CashOut, 5_000)], None)]).await.unwrap();
    assert!(s.open_stacks().await.unwrap().iter().all(|o| o.table_id != t));
    assert_eq!(journal_of(s, t).await.stored_n, 10);
    // A reset below the stored mark is refused and changes nothing.
    let refused = s.journal_reset(t, 4, "behind").await;
    assert!(matches!(refused, Err(stud_store::StoreError::Refused(_))), "{refused:?}");
    let j = journal_of(s, t).await;
    assert_eq!((j.snapshot, j.stored_n), (Some((9, "fresh".into())), 10));
    s.journal_reset(t, 10, "at the mark").await.unwrap();
}

/// A table that moved between cluster workers: the old holder (paused past its lease) and the
/// new one (which queued the writes past the stored mark again when it rebuilt the table) both
/// store the same inputs' writes. Each input's writes are stored once, whoever comes first, and
/// the late copy is left out without failing its batch (a hand stored twice would break its
/// primary key and wedge the writer).
async fn a_moved_table_s_writes_are_stored_once(b: &Backend) {
    let s = b.store.as_ref();
    let t = Uuid::new_v4();
    let (p, q) = (session("moved p"), session("moved q"));
    s.create_session(&p).await.unwrap();
    s.create_session(&q).await.unwrap();
    s.journal_reset(t, 0, "s0").await.unwrap();
    let t0 = conserved(s).await;
    let h = hand(t, &[&p, &q], 5_000, 7, 20_000);
    let net = |who: &NewSession| h.seat_of(who.player_id).unwrap().net;
    let g1 = group(t, 1, vec![entry(&p, t, LedgerKind::BuyIn, 5_000)], None);
    let g2 = group(t, 2, vec![entry(&q, t, LedgerKind::BuyIn, 5_000)], None);
    let g3 = group(t, 3, vec![Write::Hand(Arc::new(h.clone()))], Some("after hand 7"));
    // The new holder stores inputs 1 and 2; the old one's writer, running again, sends 1 to 3.
    s.write_batch(&[g1.clone(), g2.clone()]).await.unwrap();
    s.write_batch(&[g1.clone(), g2.clone(), g3.clone()]).await.unwrap();
    assert_eq!(journal_of(s, t).await.stored_n, 3);
    // The new holder's copy of input 3 comes late: left out, and the batch's other writes stay.
    let g4 = group(t, 4, vec![entry(&p, t, LedgerKind::TopUp, 1_000)], None);
    s.write_batch(&[g3.clone(), g4.clone()]).await.unwrap();
    assert_eq!(journal_of(s, t).await.stored_n, 4);
    let lines = |who: Uuid| LedgerQuery { player: Some(who), table: Some(t), limit: 100, ..LedgerQuery::default() };
    let kinds = |l: Vec<stud_store::LedgerLine>| l.into_iter().map(|l| l.kind).collect::<Vec<_>>();
    assert_eq!(kinds(s.ledger(&lines(p.player_id)).await.unwrap()), ["hand", "top_up", "buy_in"]);
    assert_eq!(kinds(s.ledger(&lines(q.player_id)).await.unwrap()), ["hand", "buy_in"]);
    let stored = s.hands(&HandQuery { table: Some(t), limit: 10, ..HandQuery::default() }).await.unwrap();
    assert_eq!(stored.len(), 1, "the hand is stored once");
    assert_eq!(s.balance(p.player_id).await.unwrap(), 100_000 - 6_000);
    assert_eq!(s.balance(q.player_id).await.unwrap(), 100_000 - 5_000);
    let mut open: Vec<(Uuid, i64)> = s
        .open_stacks()
        .await
        .unwrap()
        .into_iter()
        .filter(|o| o.table_id == t)
        .map(|o| (o.player_id, o.stack as i64))
        .collect();
    open.sort_unstable();
    let mut want = vec![(p.player_id, 6_000 + net(&p)), (q.player_id, 5_000 + net(&q))];
    want.sort_unstable();
    assert_eq!(open, want, "each buy-in, top-up and hand counted once");
    let t1 = conserved(s).await;
    assert_eq!(t1.on_tables - t0.on_tables, 11_000);

    // Both at once (two connections): one stores, the other leaves everything out.
    let g5 = group(t, 5, vec![entry(&q, t, LedgerKind::TopUp, 2_000)], None);
    let g6 = group(t, 6, vec![entry(&p, t, LedgerKind::TopUp, 3_000)], None);
    let batch = [g5, g6];
    let (x, y) = tokio::join!(s.write_batch(&batch), s.write_batch(&batch));
    x.unwrap();
    y.unwrap();
    assert_eq!(conserved(s).await.on_tables - t0.on_tables, 16_000, "the top-ups counted once");
    assert_eq!(journal_of(s, t).await.stored_n, 6);

    // (The chips go back, so the suites after this one start with no open stack.)
    let out = vec![
        entry(&p, t, LedgerKind::CashOut, (9_000 + net(&p)) as u64),
        entry(&q, t, LedgerKind::CashOut, (7_000 + net(&q)) as u64),
    ];
    s.write_batch(&[group(t, 7, out, None)]).await.unwrap();
    assert!(s.open_stacks().await.unwrap().iter().all(|o| o.table_id != t));
}

/// The writer's batches (which read the tables' marks before they write) commit while other
/// connections write at the same moment (sessions created): none fails for having read before
/// another's commit (SQLite's `SQLITE_BUSY_SNAPSHOT`, which its busy handler does not wait on),
/// and every write counts once.
async fn batches_and_other_writers_at_once_all_commit(b: &Backend) {
    let s = b.store.as_ref();
    let t = Uuid::new_v4();
    let p = session("busy p");
    s.create_session(&p).await.unwrap();
    s.journal_reset(t, 0, "s0").await.unwrap();
    let t0 = conserved(s).await;
    const N: u64 = 150;
    let batches = async {
        for n in 1..=N {
            s.write_batch(&[group(t, n, vec![entry(&p, t, LedgerKind::BuyIn, 1)], None)]).await?;
        }
        Ok::<_, stud_store::StoreError>(())
    };
    let sessions = async {
        for k in 0..N {
            s.create_session(&session(&format!("busy {k}"))).await?;
        }
        Ok::<_, stud_store::StoreError>(())
    };
    let (x, y) = tokio::join!(batches, sessions);
    x.unwrap();
    y.unwrap();
    assert_eq!(journal_of(s, t).await.stored_n, N);
    assert_eq!(conserved(s).await.on_tables - t0.on_tables, N as i64);
    s.write_batch(&[group(t, N + 1, vec![entry(&p, t, LedgerKind::CashOut, N)], None)]).await.unwrap();
    assert!(s.open_stacks().await.unwrap().iter().all(|o| o.table_id != t));
}

/// Holds on balances (a cluster worker's buy-ins): never more than the balance held in all,
/// even by holds made at the same moment; storing the buy-in settles its hold.
async fn holds_never_spend_a_balance_twice(b: &Backend) {
    let s = b.store.as_ref();
    let (t, u) = (Uuid::new_v4(), Uuid::new_v4());
    s.journal_reset(t, 0, "s0").await.unwrap();
    s.journal_reset(u, 0, "s0").await.unwrap();
    let p = session("holder");
    s.create_session(&p).await.unwrap();
    let who = p.player_id;
    assert_eq!(s.hold(t, 1, who, 60_000).await.unwrap(), Ok(()));
    assert_eq!(s.hold(u, 1, who, 60_000).await.unwrap(), Err(40_000), "only 40,000 is not held");
    assert_eq!(s.held(who).await.unwrap(), 60_000);
    // The same input held again replaces its hold.
    assert_eq!(s.hold(t, 1, who, 70_000).await.unwrap(), Ok(()));
    assert_eq!(s.held(who).await.unwrap(), 70_000);
    // Input 1 of t is stored (the buy-in): the hold is settled with it.
    s.write_batch(&[group(t, 1, vec![entry(&p, t, LedgerKind::BuyIn, 70_000)], None)]).await.unwrap();
    assert_eq!((s.held(who).await.unwrap(), s.balance(who).await.unwrap()), (0, 30_000));
    assert_eq!(s.hold(u, 1, who, 30_001).await.unwrap(), Err(30_000));
    assert_eq!(s.hold(u, 1, who, 30_000).await.unwrap(), Ok(()));
    // Not journaled after all: released.
    s.release_hold(u, 1).await.unwrap();
    assert_eq!(s.held(who).await.unwrap(), 0);
    // Holds at the same moment at two tables for more than the balance: exactly one is held.
    let (x, y) = tokio::join!(s.hold(t, 2, who, 20_000), s.hold(u, 2, who, 20_000));
    let (x, y) = (x.unwrap(), y.unwrap());
    assert!(x.is_ok() != y.is_ok(), "exactly one of two holds for 40,000 of 30,000: {x:?} {y:?}");
    assert_eq!(s.held(who).await.unwrap(), 20_000);
    // A worker takes table v over with its journal rebuilt up to some input: the holds of
    // later inputs (held by a worker that crashed before journaling them) are released, the
    // holds of journaled inputs are kept (storing their writes settles them).
    let v = Uuid::new_v4();
    s.journal_reset(v, 0, "s0").await.unwrap();
    let base = s.held(who).await.unwrap();
    assert_eq!(s.hold(v, 3, who, 1_000).await.unwrap(), Ok(()));
    assert_eq!(s.hold(v, 4, who, 2_000).await.unwrap(), Ok(()));
    s.release_holds_after(v, 4).await.unwrap();
    assert_eq!(s.held(who).await.unwrap(), base + 3_000, "both journaled: kept");
    s.release_holds_after(v, 3).await.unwrap();
    assert_eq!(s.held(who).await.unwrap(), base + 1_000, "input 4 never journaled: released");
    s.release_holds_after(v, 2).await.unwrap();
    assert_eq!(s.held(who).await.unwrap(), base);
    // A table's reset drops its holds.
    s.journal_reset(t, 5, "fresh").await.unwrap();
    s.journal_reset(u, 5, "fresh").await.unwrap();
    assert_eq!(s.held(who).await.unwrap(), 0);
    s.write_batch(&[group(t, 6, vec![entry(&p, t, LedgerKind::CashOut, 70_000)], None)]).await.unwrap();
    assert_eq!(s.balance(who).await.unwrap(), 100_000);
    conserved(s).await;
}

/// Every page of a ledger query, `limit` lines at a time.
async fn all_pages(s: &dyn Store, q: &LedgerQuery) -> Vec<stud_store::LedgerLine> {
    let mut out = Vec::new();
    let mut q = q.clone();
    loop {
        let page = s.ledger(&q).await.unwrap();
        let full = page.len() == q.limit as usize;
        q.before = page.last().map(|l| l.cursor);
        out.extend(page);
        if !full {
            return out;
        }
    }
}

async fn the_ledger_reads_back(b: &Backend) {
    let s = b.store.as_ref();
    let (alice, bob) = (session("Alice"), session("Bob"));
    s.create_session(&alice).await.unwrap();
    s.create_session(&bob).await.unwrap();
    let (t1, t2) = (Uuid::new_v4(), Uuid::new_v4());
    let moved = |p: &NewSession, table: Uuid, kind: LedgerKind, amount: u64, at_ms: u64| {
        Write::Ledger(LedgerEntry { player_id: p.player_id, table_id: Some(table), kind, amount, at_ms })
    };
    let h = hand(t1, &[&alice, &bob], 10_000, 21, 3_000);
    let net = h.seats[0].net;
    let back = u64::try_from(10_000 + 1_000 + net).unwrap();
    s.write_batch(&[
        moved(&alice, t1, LedgerKind::BuyIn, 10_000, 2_000),
        moved(&bob, t1, LedgerKind::BuyIn, 10_000, 2_000),
        Write::Hand(Arc::new(h.clone())),
        moved(&alice, t1, LedgerKind::TopUp, 1_000, 3_500),
        moved(&alice, t1, LedgerKind::CashOut, back, 4_000),
        moved(&alice, t2, LedgerKind::BuyIn, 5_000, 5_000),
    ])
    .await
    .unwrap();

    let mine = LedgerQuery { player: Some(alice.player_id), limit: 100, ..LedgerQuery::default() };
    let lines = s.ledger(&mine).await.unwrap();
    let kinds: Vec<&str> = lines.iter().map(|l| l.kind.as_str()).collect();
    assert_eq!(kinds, ["buy_in", "cash_out", "top_up", "hand", "buy_in", "issue"]);
    assert!(lines.windows(2).all(|w| w[0].at_ms >= w[1].at_ms), "newest first");
    assert!(lines.iter().all(|l| l.player_id == alice.player_id));
    // The lines add up to the running sums.
    let balance: i64 = lines.iter().map(|l| l.balance_delta).sum();
    assert_eq!(balance, i64::try_from(s.balance(alice.player_id).await.unwrap()).unwrap());
    let at_t1: i64 = lines.iter().filter(|l| l.table_id == Some(t1)).map(|l| l.stack_delta).sum();
    assert_eq!(at_t1, 0, "cashed out of t1");
    let hand_line = &lines[3];
    assert_eq!(
        (hand_line.hand_id, hand_line.table_id, hand_line.balance_delta, hand_line.stack_delta, hand_line.at_ms),
        (Some(h.hand_id), Some(t1), 0, net, 3_000)
    );
    let issue = &lines[5];
    assert_eq!((issue.table_id, issue.hand_id, issue.balance_delta, issue.at_ms), (None, None, 100_000, 1_000));
    assert!(lines.iter().filter(|l| l.kind != "hand").all(|l| l.hand_id.is_none()));

    // Filters: a table, a time.
    let q = LedgerQuery { table: Some(t2), ..mine.clone() };
    assert_eq!(s.ledger(&q).await.unwrap().len(), 1);
    let q = LedgerQuery { since_ms: Some(3_500), ..mine.clone() };
    assert_eq!(s.ledger(&q).await.unwrap().iter().map(|l| l.at_ms).collect::<Vec<_>>(), [5_000, 4_000, 3_500]);
    let at_table = LedgerQuery { table: Some(t1), limit: 100, ..LedgerQuery::default() };
    let everyone = s.ledger(&at_table).await.unwrap();
    assert_eq!(everyone.len(), 6, "alice: buy-in, hand, top-up, cash-out; bob: buy-in, hand: {everyone:?}");
    assert_eq!(everyone.iter().filter(|l| l.player_id == bob.player_id).count(), 2);

    // Paging one line at a time loses nothing and repeats nothing, ties included (two buy-ins
    // at 2000, two hand lines at 3000).
    for limit in [1, 2, 3] {
        let paged = all_pages(s, &LedgerQuery { limit, ..at_table.clone() }).await;
        assert_eq!(paged, everyone, "limit {limit}");
        let paged = all_pages(s, &LedgerQuery { limit, ..mine.clone() }).await;
        assert_eq!(paged, lines, "limit {limit}");
    }
    // The cursor's text form.
    for l in &everyone {
        assert_eq!(LedgerCursor::decode(&l.cursor.encode()), Some(l.cursor));
    }
    for bad in
        ["", "1-0", "x-0-00000000000000000000000000000000-1", "1-2-00000000000000000000000000000000-1", "1-0-0-1"]
    {
        assert_eq!(LedgerCursor::decode(bad), None, "{bad}");
    }
    assert!(
        s.ledger(&LedgerQuery { player: Some(Uuid::new_v4()), limit: 10, ..LedgerQuery::default() })
            .await
            .unwrap()
            .is_empty()
    );
}

async fn sessions_expire_and_identities_map(b: &Backend) {
    let s = b.store.as_ref();
    // Created at 1_000, so last used then.
    let ann = session("Ann");
    s.create_session(&ann).await.unwrap();
    assert!(s.live_session(&ann.token_hash, 1_000).await.unwrap().is_some());
    assert!(s.live_session(&ann.token_hash, 1_001).await.unwrap().is_none(), "idle since 1_000");
    s.touch_session(ann.session_id, 5_000).await.unwrap();
    s.touch_session(ann.session_id, 4_000).await.unwrap(); // never moves back
    assert_eq!(s.live_session(&ann.token_hash, 5_000).await.unwrap().unwrap().player_id, ann.player_id);
    let bo = NewSession { created_at_ms: 9_000, ..session("Bo") };
    s.create_session(&bo).await.unwrap();
    // Ann (and the earlier suites' sessions) were idle before 6_000: their rows go, their
    // players and balances stay.
    assert!(s.expire_sessions(6_000).await.unwrap() >= 1);
    assert!(s.live_session(&ann.token_hash, 0).await.unwrap().is_none(), "deleted: never again");
    assert!(s.session_by_token(&ann.token_hash).await.unwrap().is_none());
    assert!(s.live_session(&bo.token_hash, 6_000).await.unwrap().is_some());
    assert_eq!(s.balance(ann.player_id).await.unwrap(), 100_000);
    // A log out deletes one session, once; the player stays.
    assert!(s.delete_session(bo.session_id).await.unwrap());
    assert!(!s.delete_session(bo.session_id).await.unwrap(), "already gone");
    assert!(s.session_by_token(&bo.token_hash).await.unwrap().is_none());
    assert!(s.live_session(&bo.token_hash, 0).await.unwrap().is_none());
    assert_eq!(s.balance(bo.player_id).await.unwrap(), 100_000);

    // Warming a restarted server's memory: the live sessions of the players asked for, with
    // their token hashes and balances; idle, deleted and other players' sessions are not.
    let cy = NewSession { created_at_ms: 9_500, starting_balance: 4_321, ..session("Cy") };
    let cy_phone = NewSession { created_at_ms: 9_500, ..session("Cy") };
    let dee = NewSession { created_at_ms: 9_500, ..session("Dee") };
    s.create_session(&dee).await.unwrap();
    let cy_subject = format!("user-{}", Uuid::new_v4());
    assert_eq!(s.identity_session(&cy_subject, &cy).await.unwrap(), cy.player_id);
    assert_eq!(s.identity_session(&cy_subject, &cy_phone).await.unwrap(), cy.player_id);
    let players = [cy.player_id, bo.player_id, ann.player_id, Uuid::new_v4()];
    let mut warm = s.live_sessions_of(&players, 9_000).await.unwrap();
    warm.sort_by(|a, b| a.token_hash.cmp(&b.token_hash));
    let mut want: Vec<(String, Uuid, Uuid, u64)> =
        [&cy, &cy_phone].iter().map(|n| (n.token_hash.clone(), n.session_id, cy.player_id, 4_321)).collect();
    want.sort();
    let got: Vec<(String, Uuid, Uuid, u64)> =
        warm.iter().map(|w| (w.token_hash.clone(), w.session.session_id, w.session.player_id, w.balance)).collect();
    assert_eq!(got, want, "Cy's two sessions; Bo's deleted, Ann's expired, Dee not asked for");
    assert!(warm.iter().all(|w| w.session.name == "Cy"));
    assert!(s.live_sessions_of(&players, 9_501).await.unwrap().is_empty(), "idle since 9_500");
    assert!(s.live_sessions_of(&[], 0).await.unwrap().is_empty());
    // More players than one statement binds.
    let many: Vec<Uuid> = (0..2_500).map(|_| Uuid::new_v4()).chain([dee.player_id]).collect();
    assert_eq!(s.live_sessions_of(&many, 0).await.unwrap().len(), 1);

    // The same subject on two devices: one player, issued once.
    let subject = format!("user-{}", Uuid::new_v4());
    let first = session("Cy");
    assert_eq!(s.identity_session(&subject, &first).await.unwrap(), first.player_id);
    let second = NewSession { starting_balance: 7, ..session("Cy on a phone") };
    assert_eq!(s.identity_session(&subject, &second).await.unwrap(), first.player_id);
    for t in [&first.token_hash, &second.token_hash] {
        assert_eq!(s.live_session(t, 0).await.unwrap().unwrap().player_id, first.player_id);
    }
    assert_eq!(s.balance(first.player_id).await.unwrap(), 100_000);
    assert_eq!(s.balance(second.player_id).await.unwrap(), 0, "no second account");
    let other = session("Di");
    assert_eq!(s.identity_session("another-user", &other).await.unwrap(), other.player_id);
    conserved(s).await;
}

fn fee(s: &NewSession, tournament: Uuid, kind: LedgerKind, amount: u64) -> LedgerEntry {
    LedgerEntry { player_id: s.player_id, table_id: Some(tournament), kind, amount, at_ms: 3_000 }
}

async fn tournaments_and_their_ledger(b: &Backend) {
    let s = b.store.as_ref();
    let ann = session("Ann");
    s.create_session(&ann).await.unwrap();
    let id = Uuid::new_v4();
    s.tournament_create(id, 5_000, "{\"as\":\"created\"}").await.unwrap();
    let commit = |n: u64, ledger: Vec<LedgerEntry>, snapshot: Option<&str>| TournamentCommit {
        tournament_id: id,
        n,
        at_ms: 6_000 + n,
        entry: format!("entry {n}"),
        ledger,
        snapshot: snapshot.map(str::to_owned),
        epoch: 0,
    };
    // A registration: the input and its fee in one transaction.
    s.tournament_commit(&commit(1, vec![fee(&ann, id, LedgerKind::TournamentEntry, 1_100)], None)).await.unwrap();
    assert_eq!(s.balance(ann.player_id).await.unwrap(), 100_000 - 1_100);
    let t = conserved(s).await;
    assert!(t.on_tables >= 1_100, "the tournament holds the fee: {t:?}");
    let mine = s.tournaments().await.unwrap().into_iter().find(|t| t.id == id).unwrap();
    assert_eq!(mine.snapshot, (0, "{\"as\":\"created\"}".to_owned()));
    assert_eq!(mine.entries, vec![(1, "entry 1".to_owned())]);
    // The same input number again fails and charges nothing.
    let again = commit(1, vec![fee(&ann, id, LedgerKind::TournamentEntry, 1_100)], None);
    assert!(s.tournament_commit(&again).await.is_err());
    assert_eq!(s.balance(ann.player_id).await.unwrap(), 100_000 - 1_100);
    // An unregistration refunds; its snapshot prunes the journal.
    let refund = commit(2, vec![fee(&ann, id, LedgerKind::TournamentRefund, 1_100)], Some("after 2"));
    s.tournament_commit(&refund).await.unwrap();
    assert_eq!(s.balance(ann.player_id).await.unwrap(), 100_000);
    s.tournament_commit(&commit(3, vec![], None)).await.unwrap();
    let mine = s.tournaments().await.unwrap().into_iter().find(|t| t.id == id).unwrap();
    assert_eq!(mine.snapshot, (2, "after 2".to_owned()));
    assert_eq!(mine.entries, vec![(3, "entry 3".to_owned())]);
    conserved(s).await;
    let q = LedgerQuery { player: Some(ann.player_id), table: Some(id), limit: 10, ..LedgerQuery::default() };
    let kinds: Vec<String> = s.ledger(&q).await.unwrap().into_iter().map(|l| l.kind).collect();
    assert_eq!(kinds, ["tournament_refund", "tournament_entry"]);

    // A cluster: a gateway taking the tournament over with lease epoch 7 fences it; a commit at
    // the former epoch (0) is refused and charges nothing, even for an input number whose
    // journal row a snapshot pruned; the new director's commit goes in and drops the fee's hold.
    assert!(s.tournament_fence(id, 7).await.unwrap());
    assert!(!s.tournament_fence(id, 5).await.unwrap(), "an older epoch does not take it back");
    let late = commit(2, vec![fee(&ann, id, LedgerKind::TournamentEntry, 1_100)], None);
    assert!(matches!(s.tournament_commit(&late).await, Err(StoreError::Refused(_))));
    assert_eq!(s.balance(ann.player_id).await.unwrap(), 100_000);
    assert_eq!(s.hold(id, 4, ann.player_id, 1_100).await.unwrap(), Ok(()));
    let mut entry = commit(4, vec![fee(&ann, id, LedgerKind::TournamentEntry, 1_100)], None);
    entry.epoch = 7;
    s.tournament_commit(&entry).await.unwrap();
    assert_eq!((s.balance(ann.player_id).await.unwrap(), s.held(ann.player_id).await.unwrap()), (100_000 - 1_100, 0));
    let mine = s.tournaments().await.unwrap().into_iter().find(|t| t.id == id).unwrap();
    assert_eq!(mine.entries, vec![(3, "entry 3".to_owned()), (4, "entry 4".to_owned())]);
    conserved(s).await;
    // Unregistered again (the tests after this one find no chips on any table).
    let mut refund = commit(5, vec![fee(&ann, id, LedgerKind::TournamentRefund, 1_100)], None);
    refund.epoch = 7;
    s.tournament_commit(&refund).await.unwrap();
    assert_eq!(s.balance(ann.player_id).await.unwrap(), 100_000);
}

/// Tournament hands: stored with their tournament and level, no lines of the money ledger,
/// and in LAST HAND by player even when dealt with no session (a player with no socket).
async fn tournament_hands(b: &Backend) {
    let s = b.store.as_ref();
    let t0 = conserved(s).await;
    let (ann, bob) = (session("Ann"), session("Bob"));
    for p in [&ann, &bob] {
        s.create_session(p).await.unwrap();
    }
    let (tournament, table, cash_table) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    let mut hands = Vec::new();
    for k in 1..=3u8 {
        let mut h = hand(table, &[&ann, &bob], 1_000, 40 + k, 50_000 + u64::from(k));
        h.tournament = Some(HandTournament { id: tournament, level: u32::from(k) });
        // Bob had no socket: his seat has no session.
        h.seats[1].session_id = Uuid::nil();
        hands.push(h);
    }
    let cash = hand(cash_table, &[&ann, &bob], 10_000, 50, 50_010);
    let mut batch =
        vec![entry(&ann, cash_table, LedgerKind::BuyIn, 10_000), entry(&bob, cash_table, LedgerKind::BuyIn, 10_000)];
    batch.extend(hands.iter().chain([&cash]).map(|h| Write::Hand(Arc::new(h.clone()))));
    s.write_batch(&batch).await.unwrap();
    let t = conserved(s).await;
    assert_eq!(t.on_tables - t0.on_tables, 20_000, "tournament chips are not money: {t:?}");
    let back = s.hand(hands[1].hand_id).await.unwrap().unwrap();
    assert_eq!(back.tournament, Some(HandTournament { id: tournament, level: 2 }));
    assert_eq!(back, hands[1]);
    assert_eq!(s.hand(cash.hand_id).await.unwrap().unwrap().tournament, None);
    // LAST HAND: Bob's session finds his tournament hands (dealt with no session) and his
    // cash hand; another player's session finds none of them.
    let last = s.session_hands(bob.session_id, bob.player_id, 50).await.unwrap();
    let want = [cash.hand_id, hands[2].hand_id, hands[1].hand_id, hands[0].hand_id];
    assert_eq!(last.iter().map(|h| h.hand_id).collect::<Vec<_>>(), want);
    let limited = s.session_hands(bob.session_id, bob.player_id, 2).await.unwrap();
    assert_eq!(limited.iter().map(|h| h.hand_id).collect::<Vec<_>>(), want[..2]);
    let other = session("Cy");
    assert!(s.session_hands(other.session_id, other.player_id, 50).await.unwrap().is_empty());
    // The money ledger: the cash hand's line and the buy-in, no tournament hand.
    for p in [&ann, &bob] {
        let q = LedgerQuery { player: Some(p.player_id), limit: 50, ..LedgerQuery::default() };
        let lines = s.ledger(&q).await.unwrap();
        let hand_lines: Vec<Option<Uuid>> = lines.iter().filter(|l| l.kind == "hand").map(|l| l.hand_id).collect();
        assert_eq!(hand_lines, [Some(cash.hand_id)], "{lines:?}");
    }
    let at_table = LedgerQuery { table: Some(table), limit: 50, ..LedgerQuery::default() };
    assert!(s.ledger(&at_table).await.unwrap().is_empty());
    // Leave the cash table empty for the tests after this one.
    let out: Vec<Write> = s
        .open_stacks()
        .await
        .unwrap()
        .iter()
        .filter(|o| o.table_id == cash_table)
        .map(|o| {
            let p = [&ann, &bob].into_iter().find(|p| p.player_id == o.player_id).unwrap();
            entry(p, cash_table, LedgerKind::CashOut, o.stack)
        })
        .collect();
    assert_eq!(out.len(), 2);
    s.write_batch(&out).await.unwrap();
    assert_eq!(conserved(s).await.on_tables, t0.on_tables);
}

async fn suite(b: Backend) {
    tournament_hands(&b).await;
    tournaments_and_their_ledger(&b).await;
    the_journal(&b).await;
    a_moved_table_s_writes_are_stored_once(&b).await;
    batches_and_other_writers_at_once_all_commit(&b).await;
    holds_never_spend_a_balance_twice(&b).await;
    sessions_and_tables(&b).await;
    operators_and_bans(&b).await;
    hands_and_the_ledger(&b).await;
    a_failed_batch_writes_nothing(&b).await;
    the_writer_retries_until_the_database_is_back(&b).await;
    the_ledger_reads_back(&b).await;
    sessions_expire_and_identities_map(&b).await;
}

#[tokio::test]
async fn sqlite_conformance() {
    suite(sqlite().await).await;
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join("stud-store-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}-{}.db", Uuid::new_v4().simple()))
}

/// A database file: the journal is in a file of its own, pruned after the batch's commit.
#[tokio::test]
async fn sqlite_file_conformance() {
    let path = temp_file("conformance");
    let store = SqliteStore::connect(&format!("sqlite://{}", path.display())).await.unwrap();
    assert!(SqliteStore::journal_file(&path).exists(), "the journal has a file of its own");
    suite(Backend { raw: Raw::Sqlite(store.pool().clone()), store: Arc::new(store) }).await;
}

/// Entries an older version left in the main file (a server stopped mid-hand before the
/// upgrade) are in the journal after the next start, once, and gone from the main file.
#[tokio::test]
async fn an_older_versions_journal_moves_to_its_own_file() {
    let path = temp_file("upgrade");
    let url = format!("sqlite://{}", path.display());
    let store = SqliteStore::connect(&url).await.unwrap();
    let t = Uuid::new_v4();
    store.journal_reset(t, 0, "s0").await.unwrap();
    store.journal_append(&[row(t, 1, "in the journal file")]).await.unwrap();
    for (n, entry) in [(1, "in both files"), (2, "left in the main file")] {
        sqlx::query("INSERT INTO table_journal (table_id, n, at_ms, entry) VALUES ($1, $2, 0, $3)")
            .bind(t)
            .bind(n)
            .bind(entry)
            .execute(store.pool())
            .await
            .unwrap();
    }
    drop(store);
    let store = SqliteStore::connect(&url).await.unwrap();
    let j = journal_of(&store, t).await;
    assert_eq!(j.entries, vec![(1, "in the journal file".into()), (2, "left in the main file".into())]);
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM table_journal").fetch_one(store.pool()).await.unwrap();
    assert_eq!(left, 0, "nothing stays in the main file");
}

#[tokio::test]
async fn postgres_conformance() {
    if let Some((b, admin, schema)) = postgres().await {
        suite(b).await;
        let drop = format!("DROP SCHEMA {schema} CASCADE");
        sqlx::query(sqlx::AssertSqlSafe(drop)).execute(&admin).await.unwrap();
    }
}

#[tokio::test]
async fn open_picks_the_backend_from_the_url() {
    assert!(stud_store::open("mysql://x").await.is_err());
    let s = stud_store::open("sqlite::memory:").await.unwrap();
    assert_eq!(s.backend(), stud_store::Backend::Sqlite);
    if let Ok(url) = std::env::var("TEST_DATABASE_URL") {
        // In a schema of its own (the URL's `options`), so the shared database stays clean.
        let schema = format!("open_{}", Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&url).await.unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&admin).await.unwrap();
        let sep = if url.contains('?') { '&' } else { '?' };
        let scoped = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        assert_eq!(stud_store::open(&scoped).await.unwrap().backend(), stud_store::Backend::Postgres);
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE"))).execute(&admin).await.unwrap();
    }
}

#[tokio::test]
async fn idle_connections_close() {
    let Some((options, admin, schema)) = pg_schema().await else { return };
    // The store's connections are told apart from everyone else's by their application name.
    let options = options.application_name(&schema);
    let open = || async {
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1")
            .bind(&schema)
            .fetch_one(&admin)
            .await
            .unwrap();
        n
    };
    let pools = stud_store::PoolSettings { idle_timeout: Duration::from_secs(1) };
    let store = PgStore::connect_pooled(options, pools).await.unwrap();
    store.expire_sessions(0).await.unwrap();
    assert!(open().await >= 1, "the store has no connection open: the test measures nothing");
    // Unused for a second, found by the pool's reaper (which runs as often): closed.
    let began = std::time::Instant::now();
    while open().await > 0 {
        assert!(began.elapsed() < Duration::from_secs(10), "{} connections still open after 10 s", open().await);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // And the pool opens one again when it is needed.
    store.expire_sessions(0).await.unwrap();
    assert!(open().await >= 1);
    drop(store);
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE"))).execute(&admin).await.unwrap();
}

/// Reading the journals waits for a write in progress (a killed process's last append can
/// still commit), but not for ever: a transaction left open is waited out 10 s, then read past.
#[tokio::test]
async fn reading_the_journals_waits_for_writes_in_progress_but_not_for_ever() {
    let Some((b, admin, schema)) = postgres().await else { return };
    let url = std::env::var("TEST_DATABASE_URL").unwrap();
    let options = sqlx::postgres::PgConnectOptions::from_str(&url).unwrap().options([("search_path", schema.as_str())]);
    let other = sqlx::PgPool::connect_with(options).await.unwrap();
    let table = Uuid::new_v4();
    // Another session's append, in a transaction not yet ended.
    let append = |n: i64| {
        let other = other.clone();
        async move {
            let mut open = other.begin().await.unwrap();
            sqlx::query("INSERT INTO table_journal (table_id, n, at_ms, entry) VALUES ($1, $2, 0, 'x')")
                .bind(table)
                .bind(n)
                .execute(&mut *open)
                .await
                .unwrap();
            open
        }
    };
    let open = append(1).await;
    // Committed while the read waits: the read sees it.
    let commit = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        open.commit().await.unwrap();
    });
    let began = std::time::Instant::now();
    let journals = b.store.journals().await.unwrap();
    assert!(began.elapsed() >= Duration::from_millis(400), "the read did not wait: {:?}", began.elapsed());
    assert!(journals.iter().any(|j| j.table_id == table && j.entries.len() == 1), "{journals:?}");
    commit.await.unwrap();
    // Left open: the read goes on after the wait, without the uncommitted row.
    let open = append(2).await;
    let began = std::time::Instant::now();
    let journals = b.store.journals().await.unwrap();
    assert!(began.elapsed() >= Duration::from_secs(9), "{:?}", began.elapsed());
    assert!(journals.iter().any(|j| j.table_id == table && j.entries.len() == 1), "{journals:?}");
    open.rollback().await.unwrap();
    other.close().await;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE"))).execute(&admin).await.unwrap();
}

/// A TCP relay in front of Postgres that loses, once armed, one journal insert's request (the
/// server never gets it) or its reply (the server committed it; the client never hears).
struct Cutter {
    port: u16,
    mode: Arc<std::sync::atomic::AtomicU8>,
    cuts: Arc<std::sync::atomic::AtomicU32>,
}

const PASS: u8 = 0;
const LOSE_REQUEST: u8 = 1;
const LOSE_REPLY: u8 = 2;

impl Cutter {
    async fn start(upstream: String) -> Cutter {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let mode = Arc::new(std::sync::atomic::AtomicU8::new(PASS));
        let cuts = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let (m, c) = (mode.clone(), cuts.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else { continue };
                let (client_read, client_write) = client.into_split();
                let (server_read, server_write) = server.into_split();
                // The journal's statement text goes out when a connection first prepares it;
                // its reply says how many rows went in.
                tokio::spawn(relay(
                    client_read,
                    server_write,
                    m.clone(),
                    c.clone(),
                    LOSE_REQUEST,
                    b"INSERT INTO table_journal",
                ));
                tokio::spawn(relay(server_read, client_write, m.clone(), c.clone(), LOSE_REPLY, b"INSERT 0 "));
            }
        });
        Cutter { port, mode, cuts }
    }

    fn arm(&self, mode: u8) {
        self.mode.store(mode, std::sync::atomic::Ordering::SeqCst);
    }

    fn cuts(&self) -> u32 {
        self.cuts.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Copies `from` to `to`; a chunk holding `marker` while `lose` is armed is dropped and the
/// connection closed (disarming it).
async fn relay(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mode: Arc<std::sync::atomic::AtomicU8>,
    cuts: Arc<std::sync::atomic::AtomicU32>,
    lose: u8,
    marker: &'static [u8],
) {
    use std::sync::atomic::Ordering::SeqCst;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let chunk = &buf[..n];
        if chunk.windows(marker.len()).any(|w| w == marker) && mode.compare_exchange(lose, PASS, SeqCst, SeqCst).is_ok()
        {
            cuts.fetch_add(1, SeqCst);
            return;
        }
        if to.write_all(chunk).await.is_err() {
            return;
        }
    }
}

/// A Postgres journal append whose connection is lost mid-way is read back, not guessed at: a
/// request that never arrived is refused (and its number stays free); one the server committed
/// but whose reply was lost is taken. Refusing that one (as before) let a restart replay an
/// input its player was told failed, and the table's next input met its number taken.
#[tokio::test]
async fn a_postgres_append_whose_connection_is_lost_is_read_back() {
    let Some((options, admin, schema)) = pg_schema().await else { return };
    let cutter = Cutter::start(format!("{}:{}", options.get_host(), options.get_port())).await;
    let store = PgStore::connect_with(options.clone().host("127.0.0.1").port(cutter.port)).await.unwrap();
    let (t, u) = (Uuid::new_v4(), Uuid::new_v4());
    store.journal_reset(t, 0, "s0").await.unwrap();

    cutter.arm(LOSE_REQUEST);
    assert!(store.journal_append(&[row(t, 1, "lost on the way")]).await.is_err());
    assert_eq!(cutter.cuts(), 1, "the journal's request was the one lost");
    assert!(journal_of(&store, t).await.entries.is_empty());

    cutter.arm(LOSE_REPLY);
    store.journal_append(&[row(t, 1, "a"), row(u, 1, "b")]).await.unwrap();
    assert_eq!(cutter.cuts(), 2, "the journal's reply was the one lost");
    assert_eq!(journal_of(&store, t).await.entries, vec![(1, "a".into())]);
    assert_eq!(journal_of(&store, u).await.entries, vec![(1, "b".into())]);

    store.journal_append(&[row(t, 2, "c")]).await.unwrap();
    assert_eq!(journal_of(&store, t).await.entries.len(), 2, "the table goes on");
    drop(store);

    // The backend that ran a lost append may still be running it when the read-back comes (here
    // another session's insert of that very row, committed 300 ms later): the read-back waits
    // for it and finds it. A fresh store, so the statement's text goes out (and is lost) again.
    let mut holder = admin.begin().await.unwrap();
    let insert = format!("INSERT INTO {schema}.table_journal (table_id, n, at_ms, entry) VALUES ($1, 3, 1003, 'd')");
    sqlx::query(sqlx::AssertSqlSafe(insert)).bind(t).execute(&mut *holder).await.unwrap();
    let store = PgStore::connect_with(options.clone().host("127.0.0.1").port(cutter.port)).await.unwrap();
    cutter.arm(LOSE_REQUEST);
    let commit_later = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        holder.commit().await.unwrap();
    };
    let rows = [row(t, 3, "d")];
    let (appended, ()) = tokio::join!(store.journal_append(&rows), commit_later);
    assert_eq!(cutter.cuts(), 3, "the journal's request was the one lost");
    appended.expect("stored by the backend still running it: taken");
    assert_eq!(journal_of(&store, t).await.entries.len(), 3);
    drop(store);
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE"))).execute(&admin).await.unwrap();
}
