//! The durable state as text: [`TableCore::snapshot`] between hands, [`TableCore::restore`]
//! from it (then the journal's later entries are applied).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use stud_engine::Chips;

use super::TableCore;
use super::types::{DealOrder, LastReport, Millis, SeatPlayer, Timing, Waiter};
use crate::input::{JOURNAL_VERSION, RestoreError};
use crate::spec::TableSpec;

/// The durable state between hands, as a snapshot holds it.
#[derive(Serialize, Deserialize)]
struct Saved {
    v: u32,
    /// inputs applied so far
    applied: u64,
    spec: TableSpec,
    seats: Vec<Option<SeatPlayer>>,
    seq: u64,
    hands_played: u64,
    pending: Option<TableSpec>,
    closing: bool,
    #[serde(default)]
    deal: Option<DealOrder>,
    #[serde(default)]
    last_report: Option<LastReport>,
    #[serde(default)]
    recent_pots: std::collections::VecDeque<Chips>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    waitlist: Vec<Waiter>,
}

impl TableCore {
    /// A table as a snapshot left it (then apply the journal's later entries).
    ///
    /// # Errors
    /// The snapshot does not decode or is of another version.
    pub fn restore(timing: Timing, snapshot: &str, now: Millis) -> Result<TableCore, RestoreError> {
        let saved: Saved = serde_json::from_str(snapshot).map_err(|e| RestoreError::Corrupt(e.to_string()))?;
        if saved.v != JOURNAL_VERSION {
            return Err(RestoreError::Version(saved.v));
        }
        let mut seats: [Option<SeatPlayer>; 8] = Default::default();
        for (slot, s) in seats.iter_mut().zip(saved.seats) {
            *slot = s.map(|p| SeatPlayer { disconnected: true, ..p });
        }
        let mut core = TableCore {
            timing,
            spec: saved.spec,
            seats,
            subs: BTreeMap::new(),
            seq: saved.seq,
            live: None,
            next_hand_at: None,
            hands_played: saved.hands_played,
            recent_pots: saved.recent_pots,
            opened_at: now,
            pending: saved.pending,
            closing: saved.closing,
            closed: false,
            applied: saved.applied,
            chat_tat: BTreeMap::new(),
            deal: saved.deal,
            last_report: saved.last_report,
            waitlist: saved.waitlist,
        };
        // The seats free now are offered afresh, each for a whole offer time.
        let offered = core.offered();
        for w in core.waitlist.iter_mut().take(offered) {
            w.offered_at = Some(now);
        }
        Ok(core)
    }

    /// The durable state, for a snapshot (meaningful between hands: a hand in play is not in it).
    pub fn snapshot(&self) -> String {
        let saved = Saved {
            v: JOURNAL_VERSION,
            applied: self.applied,
            spec: self.spec.clone(),
            seats: self.seats.to_vec(),
            seq: self.seq,
            hands_played: self.hands_played,
            pending: self.pending.clone(),
            closing: self.closing,
            deal: self.deal.clone(),
            last_report: self.last_report.clone(),
            recent_pots: self.recent_pots.clone(),
            waitlist: self.waitlist.clone(),
        };
        serde_json::to_string(&saved).unwrap_or_default()
    }

    /// Everything durable, hand included, as text: two tables with the same fingerprint
    /// behave the same from here on (tests compare a rebuilt table with the original).
    #[cfg(test)]
    pub(crate) fn fingerprint(&self) -> String {
        let live = self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| {
            let views: Vec<String> =
                l.hand.seats().map(|s| format!("{:?}", l.hand.view_for(stud_engine::Viewer::Seat(s)))).collect();
            let record = serde_json::to_string(&l.hand.record()).unwrap_or_default();
            let turn = l.turn.as_ref().map(|t| (t.seat, t.started));
            format!(
                "{} {} {} {} {turn:?} {:?} {record} {views:?} {:?} {:?}",
                l.id, l.number, l.started_at_ms, l.prompt_seq, l.dealt, l.events, l.pots
            )
        });
        format!("{} {:?} {}", self.snapshot(), live, self.closed)
    }
}
