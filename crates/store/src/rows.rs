//! Reading result rows, the same for both backends: the [`Cols`] a backend's row type
//! implements, and a decoder per stored value (`hand_row`, `table_row`, `ledger_row`, ...).

use stud_engine::{HandRecord, Seat, TableConfig};
use uuid::Uuid;

use crate::error::{Result, StoreError};
use crate::model::{
    AdminLogEntry, Ban, BanScope, HandSeat, HandTournament, LedgerCursor, LedgerLine, LedgerTotals, OpenStack,
    OperatorKey, StoredHand, StoredSession, StoredTable, to_u64,
};

/// The columns of `hands h` that make a [`StoredHand`] (a macro so `concat!` can build
/// `&'static` SQL from it).
macro_rules! hand_columns {
    () => {
        "h.id, h.table_id, h.number, h.started_at_ms, h.ended_at_ms, h.record, h.tournament_id, h.tournament_level"
    };
}

/// A result row of either backend, read by column name.
pub(crate) trait Cols {
    fn uuid(&self, column: &str) -> Result<Uuid>;
    fn int(&self, column: &str) -> Result<i64>;
    fn text(&self, column: &str) -> Result<String>;
    fn opt_text(&self, column: &str) -> Result<Option<String>>;
    fn opt_uuid(&self, column: &str) -> Result<Option<Uuid>>;
    fn opt_int(&self, column: &str) -> Result<Option<i64>>;
    fn flag(&self, column: &str) -> Result<bool>;
}

/// `hand_columns!()` of a row (seats are attached separately).
pub(crate) fn hand_row(r: &impl Cols) -> Result<StoredHand> {
    let hand_id = r.uuid("id")?;
    let record: HandRecord =
        serde_json::from_str(&r.text("record")?).map_err(|e| StoreError::Corrupt(format!("hand {hand_id}: {e}")))?;
    Ok(StoredHand {
        hand_id,
        table_id: r.uuid("table_id")?,
        number: to_u64(r.int("number")?, "hand number")?,
        started_at_ms: to_u64(r.int("started_at_ms")?, "time")?,
        ended_at_ms: to_u64(r.int("ended_at_ms")?, "time")?,
        record,
        seats: Vec::new(),
        tournament: match (r.opt_uuid("tournament_id")?, r.opt_int("tournament_level")?) {
            (Some(id), Some(level)) => Some(HandTournament {
                id,
                level: u32::try_from(level)
                    .map_err(|_| StoreError::Corrupt(format!("hand {hand_id}: level {level}")))?,
            }),
            _ => None,
        },
    })
}

/// A `hand_seats` row: (hand, seat).
pub(crate) fn seat_row(r: &impl Cols) -> Result<(Uuid, HandSeat)> {
    let n = r.int("seat")?;
    let seat = u8::try_from(n).ok().and_then(Seat::new).ok_or_else(|| StoreError::Corrupt(format!("seat {n}")))?;
    Ok((
        r.uuid("hand_id")?,
        HandSeat {
            seat,
            player_id: r.uuid("player_id")?,
            session_id: r.uuid("session_id")?,
            name: r.text("name")?,
            net: r.int("net")?,
            showdown: r.flag("showdown")?,
        },
    ))
}

pub(crate) fn table_row(r: &impl Cols) -> Result<StoredTable> {
    let id = r.uuid("id")?;
    let config: TableConfig =
        serde_json::from_str(&r.text("config")?).map_err(|e| StoreError::Corrupt(format!("table {id}: {e}")))?;
    Ok(StoredTable {
        id,
        name: r.text("name")?,
        config,
        min_buy_in: to_u64(r.int("min_buy_in")?, "buy-in")?,
        max_buy_in: to_u64(r.int("max_buy_in")?, "buy-in")?,
        created_at_ms: to_u64(r.int("created_at_ms")?, "time")?,
        closed: r.flag("closed")?,
        settings: r.text("settings")?,
    })
}

pub(crate) fn key_row(r: &impl Cols) -> Result<OperatorKey> {
    Ok(OperatorKey {
        id: r.uuid("id")?,
        name: r.text("name")?,
        key_hash: r.text("key_hash")?,
        created_at_ms: to_u64(r.int("created_at_ms")?, "time")?,
        revoked: r.flag("revoked")?,
    })
}

pub(crate) fn log_row(r: &impl Cols) -> Result<AdminLogEntry> {
    Ok(AdminLogEntry {
        at_ms: to_u64(r.int("at_ms")?, "time")?,
        operator: r.text("operator")?,
        action: r.text("action")?,
        target: r.opt_text("target")?,
        detail: r.text("detail")?,
    })
}

pub(crate) fn ban_row(r: &impl Cols) -> Result<Ban> {
    let scope = r.text("scope")?;
    Ok(Ban {
        player_id: r.uuid("player_id")?,
        scope: BanScope::decode(&scope).ok_or_else(|| StoreError::Corrupt(format!("ban scope {scope}")))?,
        at_ms: to_u64(r.int("at_ms")?, "time")?,
        reason: r.text("reason")?,
    })
}

pub(crate) fn session_row(r: &impl Cols) -> Result<StoredSession> {
    Ok(StoredSession { session_id: r.uuid("id")?, player_id: r.uuid("player_id")?, name: r.text("name")? })
}

pub(crate) fn stack_row(r: &impl Cols) -> Result<OpenStack> {
    Ok(OpenStack {
        table_id: r.uuid("table_id")?,
        player_id: r.uuid("player_id")?,
        stack: to_u64(r.int("stack")?, "stack")?,
    })
}

pub(crate) fn totals_row(r: &impl Cols) -> Result<LedgerTotals> {
    Ok(LedgerTotals {
        issued: r.int("issued")?,
        balances: r.int("balances")?,
        on_tables: r.int("on_tables")?,
        ledger_sum: r.int("ledger_sum")?,
    })
}

pub(crate) fn encode_table(t: &StoredTable) -> Result<String> {
    serde_json::to_string(&t.config).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// Puts each hand's seats (from a seat query, in any order) into the hands, keeping the
/// hands' order.
pub(crate) fn attach_seats(hands: &mut [StoredHand], seats: Vec<(Uuid, HandSeat)>) {
    let index: std::collections::HashMap<Uuid, usize> = hands.iter().enumerate().map(|(i, h)| (h.hand_id, i)).collect();
    for (hand, seat) in seats {
        if let Some(&i) = index.get(&hand) {
            hands[i].seats.push(seat);
        }
    }
    for h in hands {
        h.seats.sort_by_key(|s| s.seat);
    }
}

/// A row of the ledger query (`at_ms, src, n, hand_id, player_id, table_id, kind,
/// balance_delta, stack_delta`; nil ids stand for none).
pub(crate) fn ledger_row(r: &impl Cols) -> Result<LedgerLine> {
    let some = |id: Uuid| (!id.is_nil()).then_some(id);
    let at_ms = to_u64(r.int("at_ms")?, "time")?;
    let hand_id = r.uuid("hand_id")?;
    Ok(LedgerLine {
        at_ms,
        player_id: r.uuid("player_id")?,
        table_id: some(r.uuid("table_id")?),
        hand_id: some(hand_id),
        kind: r.text("kind")?,
        balance_delta: r.int("balance_delta")?,
        stack_delta: r.int("stack_delta")?,
        cursor: LedgerCursor { at_ms, source: r.int("src")?, hand_id, n: r.int("n")? },
    })
}
