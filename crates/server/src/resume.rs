//! Rebuilding tables at start: each from its last snapshot plus the journal entries after it.
//! A journal that fails its checks voids the hand in progress (the only case that does).

use std::sync::Arc;

use stud_store::{AdminLogEntry, LedgerEntry, LedgerKind, OpenStack, StoreError, TableJournal, TableWrites, Write};
use stud_table::{Entry, Input, Output, RestoreError, TableCore, TableSpec};
use uuid::Uuid;

use crate::app::App;
use crate::table::{ledger, stored_hand};

/// Rebuilds a table: its snapshot, then every later entry applied in order. The writes of
/// entries past the table's stored mark (they had not reached the database) are queued
/// again, and who is seated where is restored; nothing is changed unless the whole journal
/// applies.
///
/// # Errors
/// [`RestoreError`]: the snapshot or an entry does not decode, is of another version, is
/// missing, or does not apply.
pub(crate) fn rebuild(app: &Arc<App>, j: &TableJournal) -> Result<TableCore, RestoreError> {
    let now = stud_store::now_ms();
    let Some((snapshot_n, snapshot)) = &j.snapshot else {
        return Err(RestoreError::Corrupt("no snapshot".into()));
    };
    let mut core = TableCore::restore(app.timing(), snapshot, now)?;
    if core.applied() != *snapshot_n || core.spec().id != j.table_id {
        return Err(RestoreError::Corrupt(format!("snapshot {snapshot_n} is not this table's")));
    }
    let mut groups = Vec::new();
    let mut out = Vec::new();
    for (n, text) in &j.entries {
        let entry = Entry::decode(text)?;
        if entry.n != *n || entry.n != core.applied() + 1 {
            return Err(RestoreError::Gap { after: core.applied(), got: entry.n });
        }
        out.clear();
        core.apply(entry.at, &entry.input, None, &mut out)?;
        let mut writes = Vec::new();
        let mut snapshot = None;
        for o in out.drain(..) {
            match o {
                Output::Ledger { player, kind, amount } => {
                    writes.push(ledger(j.table_id, player, kind, amount, entry.at))
                }
                Output::Hand(h) => writes.push(stored_hand(j.table_id, *h)),
                Output::Snapshot(s) => snapshot = Some(s),
                _ => {}
            }
        }
        if entry.n > j.stored_n && (!writes.is_empty() || snapshot.is_some()) {
            groups.push(TableWrites { table_id: j.table_id, n: entry.n, writes, snapshot });
        }
    }
    for g in groups {
        app.store_write(Write::Table(Arc::new(g)));
    }
    for (player, _) in core.stacks() {
        app.players.set_seated(player, j.table_id, true);
    }
    Ok(core)
}

/// A journal that cannot be replayed: the hand in progress is void. Every stack the ledger
/// holds at the table (the stacks from before that hand) is cashed out to its player, the
/// operators' audit log says which table, which hand and why, and the table starts empty
/// with its journal continuing after the damaged entries.
///
/// # Errors
/// The store refused the cash-out or the log entry.
pub(crate) async fn void(
    app: &Arc<App>,
    spec: TableSpec,
    j: &TableJournal,
    why: &RestoreError,
) -> Result<TableCore, StoreError> {
    let hand = last_hand(j);
    tracing::error!(table = %j.table_id, hand = ?hand, error = %why, "journal cannot be replayed: the hand in progress is void");
    let at_ms = stud_store::now_ms();
    let open: Vec<OpenStack> =
        app.store.open_stacks().await?.into_iter().filter(|o| o.table_id == j.table_id).collect();
    let stacks = cash_outs(&open, at_ms);
    app.store.write_batch(&stacks).await?;
    let detail = serde_json::json!({
        "reason": why.to_string(),
        "hand_id": hand,
        "stacks_cashed_out": stacks.len(),
    });
    app.store
        .log_admin(&AdminLogEntry {
            at_ms,
            operator: "server".into(),
            action: "void_hand".into(),
            target: Some(j.table_id.to_string()),
            detail: detail.to_string(),
        })
        .await?;
    let hands_before = app.store.last_hand_number(j.table_id).await?.unwrap_or(0);
    // Numbered on from the last input journaled or stored: never below the stored mark, or the
    // new inputs' writes would be taken for stored ones.
    let last_n = j
        .entries
        .iter()
        .map(|(n, _)| *n)
        .chain(j.snapshot.as_ref().map(|(n, _)| *n))
        .chain([j.stored_n])
        .max()
        .unwrap_or(0);
    Ok(TableCore::new(app.timing(), TableSpec { hands_before, ..spec }, at_ms).starting_at(last_n))
}

/// The hand the damaged journal was playing, if its start can still be read.
fn last_hand(j: &TableJournal) -> Option<Uuid> {
    j.entries.iter().rev().find_map(|(_, text)| match Entry::decode(text).ok()?.input {
        Input::StartHand { hand_id, .. } => Some(hand_id),
        _ => None,
    })
}

/// Ledger cash-outs of `open` stacks back to their players' accounts.
pub(crate) fn cash_outs(open: &[OpenStack], at_ms: u64) -> Vec<Write> {
    open.iter()
        .map(|o| {
            Write::Ledger(LedgerEntry {
                player_id: o.player_id,
                table_id: Some(o.table_id),
                kind: LedgerKind::CashOut,
                amount: o.stack,
                at_ms,
            })
        })
        .collect()
}
