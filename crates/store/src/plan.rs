//! Batch planning, the same for both backends: which writes of a batch are not stored yet
//! (the fence by the tables' marks), and a batch laid out in columns ([`Plan`]).

use uuid::Uuid;

use crate::error::{Result, StoreError};
use crate::model::{Write, ms_i64, variant_name};

/// The writes of `batch` that were not stored yet. `stored`: the marks (`table_state.stored_n`)
/// of the batch's tables, read in the batch's transaction with their rows locked. A table's
/// group whose input number is at or below its mark, or at or below a group of the same table
/// earlier in the batch, is left out: its writes are stored already, by this process or by a
/// worker that held the table before (a worker paused past its lease still has its writer, and
/// the new holder queues the writes past the mark again when it rebuilds the table; an input's
/// number names the same input, and so the same writes, on both, because the journal takes each
/// number once). A table without a mark is not fenced. Returns the writes kept and how many
/// groups were left out.
pub(crate) fn unstored(batch: &[Write], stored: &std::collections::HashMap<Uuid, i64>) -> (Vec<Write>, usize) {
    let mut marks = stored.clone();
    let mut kept = Vec::with_capacity(batch.len());
    let mut skipped = 0;
    for w in batch {
        if let Write::Table(t) = w {
            let n = ms_i64(t.n);
            if let Some(mark) = marks.get_mut(&t.table_id) {
                if n <= *mark {
                    skipped += 1;
                    continue;
                }
                *mark = n;
            }
        }
        kept.push(w.clone());
    }
    (kept, skipped)
}

/// The tables with a group in `batch`, sorted (rows are locked in this order).
pub(crate) fn batch_tables(batch: &[Write]) -> Vec<Uuid> {
    let mut tables: Vec<Uuid> =
        batch.iter().filter_map(|w| if let Write::Table(t) = w { Some(t.table_id) } else { None }).collect();
    tables.sort_unstable();
    tables.dedup();
    tables
}

/// A batch laid out in columns, the same for both backends.
#[derive(Default)]
pub(crate) struct Plan {
    pub(crate) hand_id: Vec<Uuid>,
    pub(crate) hand_table: Vec<Uuid>,
    pub(crate) hand_number: Vec<i64>,
    pub(crate) hand_variant: Vec<&'static str>,
    pub(crate) hand_started: Vec<i64>,
    pub(crate) hand_ended: Vec<i64>,
    pub(crate) hand_commitment: Vec<Option<String>>,
    pub(crate) hand_seed: Vec<Option<String>>,
    pub(crate) hand_record: Vec<String>,
    pub(crate) hand_tournament: Vec<Option<Uuid>>,
    pub(crate) hand_level: Vec<Option<i64>>,
    pub(crate) seat_hand: Vec<Uuid>,
    pub(crate) seat_no: Vec<i16>,
    pub(crate) seat_player: Vec<Uuid>,
    pub(crate) seat_session: Vec<Uuid>,
    pub(crate) seat_name: Vec<String>,
    pub(crate) seat_net: Vec<i64>,
    pub(crate) seat_showdown: Vec<bool>,
    pub(crate) seat_ended: Vec<i64>,
    pub(crate) ledger: Vec<LedgerRow>,
    /// net balance change per player
    pub(crate) accounts: Vec<(Uuid, i64)>,
    /// net stack change per (table, player)
    pub(crate) stacks: Vec<(Uuid, Uuid, i64)>,
    /// per table: the last input whose writes this batch stores
    pub(crate) marks: Vec<(Uuid, i64)>,
    /// per table: the last snapshot in this batch (table, n, snapshot)
    pub(crate) snapshots: Vec<(Uuid, i64, String)>,
}

pub(crate) struct LedgerRow {
    pub(crate) at_ms: i64,
    pub(crate) player_id: Uuid,
    pub(crate) table_id: Option<Uuid>,
    pub(crate) kind: &'static str,
    pub(crate) balance_delta: i64,
    pub(crate) stack_delta: i64,
}

impl Plan {
    pub(crate) fn new(batch: &[Write]) -> Result<Plan> {
        use std::collections::HashMap;
        let mut p = Plan::default();
        let mut accounts: HashMap<Uuid, i64> = HashMap::new();
        let mut stacks: HashMap<(Uuid, Uuid), i64> = HashMap::new();
        let mut marks: HashMap<Uuid, i64> = HashMap::new();
        let mut snapshots: HashMap<Uuid, (i64, String)> = HashMap::new();
        let mut flat: Vec<&Write> = Vec::with_capacity(batch.len());
        for w in batch {
            if let Write::Table(t) = w {
                let n = ms_i64(t.n);
                let mark = marks.entry(t.table_id).or_insert(n);
                *mark = (*mark).max(n);
                if let Some(snapshot) = &t.snapshot {
                    // Batches keep the writer's order: the last snapshot of a table is its newest.
                    snapshots.insert(t.table_id, (n, snapshot.clone()));
                }
                flat.extend(t.writes.iter().filter(|w| !matches!(w, Write::Table(_))));
            } else {
                flat.push(w);
            }
        }
        for w in flat {
            match w {
                Write::Table(_) => {}
                Write::Hand(h) => {
                    let record = serde_json::to_string(&h.record).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                    p.hand_id.push(h.hand_id);
                    p.hand_table.push(h.table_id);
                    p.hand_number.push(ms_i64(h.number));
                    p.hand_variant.push(variant_name(h.variant()));
                    p.hand_started.push(ms_i64(h.started_at_ms));
                    p.hand_ended.push(ms_i64(h.ended_at_ms));
                    p.hand_commitment.push(h.record.commitment.clone());
                    p.hand_seed.push(h.record.seed.clone());
                    p.hand_record.push(record);
                    p.hand_tournament.push(h.tournament.map(|t| t.id));
                    p.hand_level.push(h.tournament.map(|t| i64::from(t.level)));
                    for s in &h.seats {
                        p.seat_hand.push(h.hand_id);
                        p.seat_no.push(i16::from(s.seat.number()));
                        p.seat_player.push(s.player_id);
                        p.seat_session.push(s.session_id);
                        p.seat_name.push(s.name.clone());
                        p.seat_net.push(s.net);
                        p.seat_showdown.push(s.showdown);
                        p.seat_ended.push(ms_i64(h.ended_at_ms));
                        // The seat row is the hand's ledger entry (stack +net); tournament
                        // chips are not money (each hand's nets sum to 0 either way).
                        if h.tournament.is_none() {
                            *stacks.entry((h.table_id, s.player_id)).or_default() += s.net;
                        }
                    }
                }
                Write::Ledger(e) => {
                    let (balance_delta, stack_delta) = e.deltas();
                    p.ledger.push(LedgerRow {
                        at_ms: ms_i64(e.at_ms),
                        player_id: e.player_id,
                        table_id: e.table_id,
                        kind: e.kind.as_str(),
                        balance_delta,
                        stack_delta,
                    });
                    *accounts.entry(e.player_id).or_default() += balance_delta;
                    if let Some(t) = e.table_id {
                        *stacks.entry((t, e.player_id)).or_default() += stack_delta;
                    }
                }
            }
        }
        p.marks = marks.into_iter().collect();
        p.marks.sort_unstable();
        p.snapshots = snapshots.into_iter().map(|(t, (n, s))| (t, n, s)).collect();
        p.snapshots.sort_unstable_by_key(|s| s.0);
        p.accounts = accounts.into_iter().filter(|(_, d)| *d != 0).collect();
        p.stacks = stacks.into_iter().filter(|(_, d)| *d != 0).map(|((t, pl), d)| (t, pl, d)).collect();
        // A fixed order keeps concurrent writers (several servers on one database) from
        // deadlocking on the running sums.
        p.accounts.sort_unstable();
        p.stacks.sort_unstable();
        Ok(p)
    }
}
