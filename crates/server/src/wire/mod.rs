//! Engine and store values to wire messages: the one place that knows the serialization
//! (a tournament's views in [`tournament`]).

pub mod tournament;

use stud_engine::{HandRecord, PotTracker, Viewer};
use stud_proto::{HandSummary, LastHandReport, SeatName};
use uuid::Uuid;

use stud_store::StoredHand;

pub use stud_table::wire::{Frame, error, error_unread, frame};

/// The LAST HAND list line of `hand` for `player`, if they played it.
pub fn summary(hand: &StoredHand, player: Uuid) -> Option<HandSummary> {
    let seat = hand.seats.iter().find(|s| s.player_id == player)?;
    Some(HandSummary {
        hand_id: hand.hand_id,
        table_id: hand.table_id,
        number: hand.number,
        variant: hand.record.config.variant,
        seat: seat.seat.number(),
        net: seat.net,
        ended_at_ms: hand.ended_at_ms,
        tournament: hand_tournament(hand),
    })
}

/// The tournament a stored hand was played in, for the wire.
pub fn hand_tournament(hand: &StoredHand) -> Option<stud_proto::HandTournament> {
    hand.tournament.map(|t| stud_proto::HandTournament { tournament_id: t.id, level: t.level })
}

/// The LAST HAND report of `hand` for `player` (RULES.md 6), if they played it.
pub fn last_hand_report(hand: &StoredHand, player: Uuid) -> Option<LastHandReport> {
    let summary = summary(hand, player)?;
    let viewer = Viewer::Seat(stud_engine::Seat::new(summary.seat)?);
    let record: &HandRecord = &hand.record;
    let (replayed, events) = record.replay().ok()?;
    let events = replayed.last_hand_events(&events, viewer);
    // The pots as the table showed them after each event (the same tracker the live frames use).
    let mut tracker = PotTracker::default();
    let pots = events
        .iter()
        .map(|e| {
            tracker.apply(e);
            tracker.pots()
        })
        .collect();
    let names = hand.seats.iter().map(|s| SeatName { seat: s.seat.number(), name: s.name.clone() }).collect();
    Some(LastHandReport {
        view: replayed.last_hand_view(viewer),
        events,
        pots,
        names,
        actions: record.actions.clone(),
        commitment: record.commitment.clone(),
        // The seed would give away the folded players' down cards (and the undealt deck):
        // players get the commitment; operators get the seed with the full record.
        seed: None,
        summary,
    })
}

/// The lobby line of a table that has not reported yet.
pub fn placeholder_summary(spec: &stud_table::TableSpec) -> stud_proto::TableSummary {
    stud_proto::TableSummary {
        id: spec.id,
        name: spec.name.clone(),
        variant: spec.config.variant,
        config: spec.config,
        min_buy_in: spec.min_buy_in,
        max_buy_in: spec.max_buy_in,
        seats_taken: 0,
        seats: spec.seats,
        paused: spec.paused,
        private: spec.private,
        players: Vec::new(),
        hands_per_hour: 0.0,
        average_pot: 0,
        waiting: 0,
        display: spec.display,
        chat: spec.chat_on(),
        next_variant: None,
        hands_to_next_variant: None,
        next_betting: None,
        tournament_id: spec.tournament,
        tournament_level: None,
    }
}

/// A stored hand as the history API shows it (the record unfiltered: operators, or a
/// player's view already applied to it).
pub fn hand_detail(h: &StoredHand) -> stud_proto::HandDetail {
    stud_proto::HandDetail {
        hand_id: h.hand_id,
        table_id: h.table_id,
        number: h.number,
        variant: h.variant(),
        started_at_ms: h.started_at_ms,
        ended_at_ms: h.ended_at_ms,
        seats: h
            .seats
            .iter()
            .map(|s| stud_proto::HandDetailSeat {
                seat: s.seat.number(),
                player_id: s.player_id,
                session_id: s.session_id,
                name: s.name.clone(),
                net: s.net,
                showdown: s.showdown,
            })
            .collect(),
        record: h.record.clone(),
        tournament: hand_tournament(h),
    }
}

/// A ledger line as the API shows it; `None` for a kind the store should not hold.
pub fn ledger_line(l: &stud_store::LedgerLine) -> Option<stud_proto::LedgerLine> {
    use stud_proto::LedgerLineKind;
    let kind = match l.kind.as_str() {
        "issue" => LedgerLineKind::Issue,
        "buy_in" => LedgerLineKind::BuyIn,
        "top_up" => LedgerLineKind::TopUp,
        "cash_out" => LedgerLineKind::CashOut,
        "tournament_entry" => LedgerLineKind::TournamentEntry,
        "tournament_refund" => LedgerLineKind::TournamentRefund,
        "tournament_prize" => LedgerLineKind::TournamentPrize,
        "tournament_rebuy" => LedgerLineKind::TournamentRebuy,
        "tournament_addon" => LedgerLineKind::TournamentAddon,
        "tournament_bounty" => LedgerLineKind::TournamentBounty,
        "tournament_deal" => LedgerLineKind::TournamentDeal,
        "hand" => LedgerLineKind::Hand,
        _ => return None,
    };
    Some(stud_proto::LedgerLine {
        at_ms: l.at_ms,
        player_id: l.player_id,
        table_id: l.table_id,
        hand_id: l.hand_id,
        kind,
        balance_delta: l.balance_delta,
        stack_delta: l.stack_delta,
    })
}
