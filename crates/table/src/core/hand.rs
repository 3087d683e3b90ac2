//! The hand: starting one (the seed is an input), applying a player's or the clock's action,
//! playing for those who left, prompting the next player, and finishing (the store's record,
//! the stacks back on the seats, then the room's rules between hands).

use stud_engine::{Action, ActionError, Chips, Event, Hand, Pot, PotTracker, Seat};
use stud_proto::{RequestId, SitOutReason};
use uuid::Uuid;

use super::TableCore;
use super::types::{ConnId, FinishedHand, LastReport, Live, Metric, Millis, Output, SeatResult, Turn};
use crate::input::JournalSeed;

/// Idempotency keys remembered per seat.
const KEYS_KEPT: usize = 64;

/// Events of the hand in play kept for snapshots (a stud hand has a few hundred at most;
/// past this a snapshot's `events` stop, and the client's log with them).
const EVENTS_KEPT: usize = 2_000;

impl TableCore {
    /// Deals a hand with the journaled id and seed, if one can start (pending settings first).
    pub(super) fn start_hand(&mut self, at: Millis, id: Uuid, seed: &JournalSeed, out: &mut Vec<Output>) {
        self.next_hand_at = None;
        if self.in_play() {
            return;
        }
        self.apply_pending(at, out);
        if self.spec.paused || self.closing {
            return;
        }
        let seats = self.eligible();
        if seats.len() < 2 {
            return;
        }
        let (mut level, mut deal_no) = (None, 0);
        if let Some(deal) = self.deal.take() {
            // The tournament's level: its stakes from this hand on.
            self.spec.config = deal.config;
            level = Some(deal.level);
            deal_no = deal.deal;
        }
        // A mixed game's game goes with the hand's number (a tournament's came with its Deal).
        let config = if level.is_some() {
            self.spec.config
        } else {
            self.spec.config_of(self.spec.hands_before + self.hands_played + 1)
        };
        let Ok((hand, events)) = Hand::start(config, &seats, seed.0) else {
            // The table's config was validated when it was made; nothing to deal.
            return;
        };
        self.hands_played += 1;
        let number = self.spec.hands_before + self.hands_played;
        let commitment = hand.commitment().map(|c| c.to_hex()).unwrap_or_default();
        let dealt = seats.iter().filter_map(|(s, _)| self.player(*s).map(|p| (*s, p.who.player_id))).collect();
        self.live = Some(Live {
            hand,
            id,
            number,
            started_at_ms: at,
            prompt_seq: 0,
            turn: None,
            dealt,
            events: Vec::with_capacity(128),
            pots: PotTracker::default(),
            level,
            deal: deal_no,
        });
        self.seq += 1;
        self.broadcast_hand_started(out, id, number, commitment);
        self.broadcast_events(id, &events, out);
        self.after_action(at, out);
    }

    /// Each event: a new seq, kept for snapshots, sent to everyone.
    fn broadcast_events(&mut self, hand_id: Uuid, events: &[Event], out: &mut Vec<Output>) {
        for e in events {
            self.seq += 1;
            let pots = self.record_event(e);
            self.broadcast_event(out, hand_id, e, pots);
        }
    }

    /// Keeps an event of the hand in play for snapshots and follows the pots with it; the pots
    /// when the event changed them.
    fn record_event(&mut self, event: &Event) -> Option<Vec<Pot>> {
        let live = self.live.as_mut()?;
        if live.events.len() < EVENTS_KEPT {
            live.events.push(event.clone());
        }
        live.pots.apply(event).then(|| live.pots.pots())
    }

    /// A player's action: answered first (checked again), applied, its key remembered.
    pub(super) fn act(
        &mut self,
        at: Millis,
        seat: Seat,
        action: Action,
        key: &str,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) -> Result<(), ActionError> {
        // The sender hears first that its action is in (then everyone sees its events), like
        // every other request that changes the table.
        if let Some((conn, request_id)) = origin
            && let Some(live) = self.live.as_ref()
        {
            check_action(&live.hand, seat, action)?;
            self.ack(out, conn, request_id, "applied");
        }
        self.apply_action(at, seat, action, false, out)?;
        if let Some(p) = self.player_mut(seat) {
            p.recent_keys.push_back(key.to_owned());
            if p.recent_keys.len() > KEYS_KEPT {
                p.recent_keys.pop_front();
            }
        }
        self.after_action(at, out);
        Ok(())
    }

    /// The clock acts for the player whose time is up: no time bank left, and a fold sits them out.
    pub(super) fn clock_acts(
        &mut self,
        at: Millis,
        seat: Seat,
        action: Action,
        out: &mut Vec<Output>,
    ) -> Result<(), ActionError> {
        let live = self.live.as_ref().ok_or(ActionError::HandOver)?;
        check_action(&live.hand, seat, action)?;
        out.push(Output::Metric(Metric::Timeout));
        if let Some(p) = self.player_mut(seat) {
            p.time_bank_ms = 0;
            if action == Action::Fold {
                // A timeout fold sits the player out.
                p.sit_out_next = true;
                p.sit_out_reason = Some(SitOutReason::Timeout);
            }
        }
        self.apply_action(at, seat, action, true, out)?;
        self.after_action(at, out);
        Ok(())
    }

    /// Applies one action to the hand and broadcasts its events; charges the time bank for a
    /// player's own action.
    fn apply_action(
        &mut self,
        at: Millis,
        seat: Seat,
        action: Action,
        by_clock: bool,
        out: &mut Vec<Output>,
    ) -> Result<(), ActionError> {
        let Some(live) = self.live.as_mut() else { return Err(ActionError::HandOver) };
        let events = live.hand.apply(seat, action)?;
        out.push(Output::Metric(Metric::Action));
        let turn = live.turn.take();
        let hand_id = live.id;
        if !by_clock && let Some(t) = turn.filter(|t| t.seat == seat) {
            let over = at.saturating_sub(t.started).saturating_sub(self.spec.action_timeout_ms);
            if let Some(p) = self.player_mut(seat) {
                p.time_bank_ms = p.time_bank_ms.saturating_sub(over);
            }
        }
        self.broadcast_events(hand_id, &events, out);
        Ok(())
    }

    /// After events: finishes the hand, or plays for leavers and prompts the next player.
    pub(super) fn after_action(&mut self, at: Millis, out: &mut Vec<Output>) {
        if self.live.as_ref().is_some_and(|l| l.hand.is_over()) {
            self.finish_hand(at, out);
            return;
        }
        self.play_for_absent(at, out);
        if self.live.as_ref().is_some_and(|l| l.hand.is_over()) {
            return;
        }
        if self.live.as_ref().is_some_and(|l| l.turn.is_none()) {
            self.prompt(at, out);
        }
    }

    /// Leavers' turns are taken by the clock at once (RULES.md 8), and so are the show-or-muck
    /// choices of a seat with auto-muck on (mucked: the clock's answer to that choice).
    fn play_for_absent(&mut self, at: Millis, out: &mut Vec<Output>) {
        loop {
            let Some((seat, action)) = self.live.as_ref().and_then(|l| l.hand.timeout_action()) else { return };
            let auto_muck = action == Action::Muck && self.player(seat).is_some_and(|p| p.auto_muck);
            if !self.player(seat).is_some_and(|p| p.leaving) && !auto_muck {
                return;
            }
            if self.apply_action(at, seat, action, true, out).is_err() {
                return;
            }
            if self.live.as_ref().is_none_or(|l| l.hand.is_over()) {
                self.finish_hand(at, out);
                return;
            }
        }
    }

    /// Starts the clock for the player to act and tells everyone.
    fn prompt(&mut self, at: Millis, out: &mut Vec<Output>) {
        let Some(seat) = self.live.as_ref().and_then(|l| l.hand.to_act()) else { return };
        let tournament = self.tournament();
        let (bank, away) = self
            .player(seat)
            .map_or((0, false), |p| (p.time_bank_ms, p.connections == 0 || (tournament && p.sitting_out)));
        let mut deadline = at + self.spec.action_timeout_ms + bank;
        if away {
            deadline = deadline.min(at + self.timing.disconnect_grace_ms);
        }
        self.seq += 1;
        let seq = self.seq;
        let Some(live) = self.live.as_mut() else { return };
        live.prompt_seq = seq;
        live.turn = Some(Turn { seat, started: at, deadline });
        self.broadcast_prompt(out, at, seat, bank, deadline);
    }

    /// Ends the hand: the result to everyone, the record to the store, stacks back on the seats,
    /// then the rules between hands (sit-outs, busts, leavers, kicks, closing, pending settings).
    /// Each seat the hand busted (0 chips after it), with the players awarded a part of the
    /// last pot it had chips in (the highest pot it was eligible for: a busted player won
    /// nothing, so every chip of that pot it matched went to them) and how many chips each
    /// took from that pot. A busted seat in no pot gets an empty list (the tournament then
    /// names the eliminator itself).
    fn knockouts(
        &self,
        stacks: &[(Seat, Chips)],
        pots: &[Pot],
        awards: &[stud_engine::record::AwardRecord],
    ) -> Vec<(Uuid, Vec<(Uuid, Chips)>)> {
        let mut out = Vec::new();
        for &(seat, chips) in stacks {
            let Some(busted) = self.player(seat).filter(|_| chips == 0).map(|p| p.who.player_id) else { continue };
            let mut by: Vec<(Uuid, Chips)> = Vec::new();
            if let Some(last) = pots.iter().rposition(|p| p.eligible.contains(&seat)) {
                for a in awards.iter().filter(|a| a.pot == last && a.seat != seat && a.amount > 0) {
                    let Some(p) = self.player(a.seat) else { continue };
                    match by.iter_mut().find(|(q, _)| *q == p.who.player_id) {
                        Some((_, won)) => *won += a.amount,
                        None => by.push((p.who.player_id, a.amount)),
                    }
                }
            }
            out.push((busted, by));
        }
        out
    }

    pub(super) fn finish_hand(&mut self, at: Millis, out: &mut Vec<Output>) {
        let Some(live) = self.live.as_mut() else { return };
        live.turn = None;
        let record = live.hand.record();
        let (hand_id, number, started_at_ms, deal) = (live.id, live.number, live.started_at_ms, live.deal);
        let tournament = self.spec.tournament.map(|t| (t, live.level.unwrap_or(0)));
        let stacks: Vec<(Seat, Chips)> = live.hand.stacks().iter().map(|s| (s.seat, s.chips)).collect();
        // The pots as awarded: who took each busted player's last chips (tournament bounties).
        let pots = if tournament.is_some() { live.hand.pots() } else { Vec::new() };
        let awards = record.result.as_ref().map(|r| r.awards.clone()).unwrap_or_default();
        let knockouts = if tournament.is_some() { self.knockouts(&stacks, &pots, &awards) } else { Vec::new() };
        let showdown = record.result.as_ref().is_some_and(|r| !r.showdown.is_empty());
        if self.recent_pots.len() >= super::RECENT_POTS {
            self.recent_pots.pop_front();
        }
        self.recent_pots.push_back(awards.iter().map(|a| a.amount).sum());
        self.seq += 1;
        self.broadcast_result(out, hand_id, awards, &stacks);

        let mut seats = Vec::with_capacity(stacks.len());
        for (seat, after) in &stacks {
            let before = record.seats.iter().find(|s| s.seat == *seat).map_or(0, |s| s.chips);
            let showdown = record.result.as_ref().is_some_and(|r| r.showdown.iter().any(|s| s.seat == *seat));
            if let Some(p) = self.player_mut(*seat) {
                p.stack = *after;
                seats.push(SeatResult {
                    seat: *seat,
                    who: p.who.clone(),
                    net: i64::try_from(*after).unwrap_or(i64::MAX) - i64::try_from(before).unwrap_or(i64::MAX),
                    showdown,
                });
            }
        }
        out.push(Output::Hand(Box::new(FinishedHand {
            hand_id,
            number,
            started_at_ms,
            ended_at_ms: at,
            record,
            seats,
            tournament,
        })));
        out.push(Output::Metric(Metric::Hand));
        if self.tournament() {
            let report: Vec<(Uuid, Chips)> = stacks
                .iter()
                .filter_map(|(seat, chips)| self.player(*seat).map(|p| (p.who.player_id, *chips)))
                .collect();
            let report = LastReport { deal, stacks: report, knockouts };
            self.last_report = Some(report.clone());
            out.push(Output::TournamentHand(report));
            // A player out of chips is out of the tournament: the seat empties.
            for (seat, chips) in &stacks {
                if *chips == 0 {
                    self.cash_out(*seat, out);
                }
            }
        }

        // Between hands: pending sit-outs, busted players, leavers.
        for seat in (1..=8).filter_map(Seat::new) {
            let (leave, kicked) = match self.player_mut(seat) {
                Some(p) => {
                    if p.sit_out_next || p.stack == 0 {
                        p.sitting_out = true;
                        p.sit_out_next = false;
                        if p.stack == 0 {
                            p.sit_out_reason = Some(SitOutReason::Busted);
                        }
                    }
                    (p.leaving || p.kick_after, p.kick_after.then_some(p.who.player_id))
                }
                None => (false, None),
            };
            if leave {
                self.cash_out(seat, out);
            }
            if let Some(player) = kicked {
                self.drop_player(at, player, out);
            }
        }
        if self.closing {
            return self.close(at, out);
        }
        self.apply_pending(at, out);
        self.broadcast_snapshots(at, out);
        if showdown {
            // The cards shown and the winning hand stay up at least the showdown pause.
            let pause = self.timing.showdown_pause_ms.max(self.timing.hand_pause_ms);
            self.next_hand_at = Some(at + pause);
        } else {
            self.schedule_hand(at);
        }
    }
}

/// Whether `hand` would take `action` from `seat`, with the engine's own reasons.
pub(super) fn check_action(hand: &Hand, seat: Seat, action: Action) -> Result<(), ActionError> {
    if hand.is_over() {
        return Err(ActionError::HandOver);
    }
    if !hand.seats().any(|s| s == seat) {
        return Err(ActionError::NotInHand(seat));
    }
    match hand.to_act() {
        Some(turn) if turn == seat => {}
        Some(to_act) => return Err(ActionError::NotYourTurn { seat, to_act }),
        None => return Err(ActionError::HandOver),
    }
    let legal = hand.legal();
    if !legal.allows(action) {
        return Err(ActionError::Illegal { action, legal: legal.list().to_vec() });
    }
    Ok(())
}
