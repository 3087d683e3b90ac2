//! The pure part of keeping a tournament's tables in step with its floor: after a restart,
//! and before a table deals (a seat it refused, a report it lost). The actor asks each table
//! for its [`TournamentTableState`] and carries out what these functions decide.
//!
//! Decisions:
//! - A hand the tournament thinks in play at a table that is between hands is settled first,
//!   before any seat is given: the table's own report of that hand (it keeps its last one
//!   durable) is sent again, so a player who busted in it is eliminated, not seated again
//!   with the chips they had at its start. A table whose last report is of the hand before
//!   never got the `Deal`: it is sent again. Only a table from before reports were kept gets
//!   the old treatment (its stacks, 0 for a player no longer seated).
//! - Seats are compared only with a table between hands, after that: players the floor does
//!   not put there are taken away, missing ones seated.
//! - A table whose id belongs to the tournament but whose number the floor no longer has
//!   (broken before a crash, its close lost), or any of its tables once it is over, is closed.

use stud_engine::Chips;
use stud_table::LastReport;
use stud_tournament::{Status, TableNo, Tournament};
use uuid::Uuid;

use super::tables::table_id;
use crate::table::TournamentTableState;

/// What a table's hand in play (as the tournament sees it) needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandFix {
    /// nothing: no hand in play, or the table is dealing or playing it (its report will come)
    Nothing,
    /// the table finished it but the report was lost: take this one
    Report(LastReport),
    /// the table never got the `Deal`: send it again
    Deal,
}

/// What the hand in play at table `no` needs, given what the table says.
pub fn hand_fix(core: &Tournament, no: TableNo, state: &TournamentTableState) -> HandFix {
    let Some(deal) = core.deal_number(no) else { return HandFix::Nothing };
    if state.in_play || state.deal_pending {
        return HandFix::Nothing;
    }
    match &state.last_report {
        Some(r) if r.deal == deal => HandFix::Report(r.clone()),
        Some(r) if r.deal != 0 => HandFix::Deal,
        None if deal == 1 => HandFix::Deal,
        // A table from before numbered reports: its stacks now, 0 for whoever left it.
        _ => {
            let dealt = core.floor().tables().get(&no).and_then(|t| t.hand.clone()).unwrap_or_default();
            let stacks = dealt
                .iter()
                .filter_map(|(e, _)| core.entries().iter().find(|x| x.no == *e).map(|x| x.player))
                .map(|p| (p, state.stacks.iter().find(|(q, _)| *q == p).map_or(0, |(_, c)| *c)))
                .collect();
            HandFix::Report(LastReport { deal: 0, stacks, knockouts: Vec::new() })
        }
    }
}

/// The players table `no` should seat, by seat.
pub fn wanted(core: &Tournament, no: TableNo) -> Vec<(u8, Uuid)> {
    let Some(t) = core.floor().tables().get(&no) else { return Vec::new() };
    t.seats
        .iter()
        .filter_map(|(seat, e)| core.entries().iter().find(|x| x.no == *e).map(|x| (*seat, x.player)))
        .collect()
}

/// What to change at a table between hands so its seats are the floor's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatFix {
    /// players seated there whom the floor puts elsewhere (or nowhere)
    pub unseat: Vec<Uuid>,
    /// (seat, player) the floor puts there who are not seated
    pub seat: Vec<(u8, Uuid)>,
}

impl SeatFix {
    /// Nothing to change.
    pub fn is_empty(&self) -> bool {
        self.unseat.is_empty() && self.seat.is_empty()
    }
}

/// The difference between the floor's seats (`want`) and the table's (`have`).
pub fn seat_fix(want: &[(u8, Uuid)], have: &[(Uuid, Chips)]) -> SeatFix {
    SeatFix {
        unseat: have.iter().map(|(p, _)| *p).filter(|p| !want.iter().any(|(_, q)| q == p)).collect(),
        seat: want.iter().copied().filter(|(_, p)| !have.iter().any(|(q, _)| q == p)).collect(),
    }
}

/// The number of tournament `tournament`'s table whose id is `id`, if it is one of its.
pub fn table_no_of(tournament: Uuid, id: Uuid) -> Option<TableNo> {
    let (t, i) = (tournament.into_bytes(), id.into_bytes());
    let same = |k: usize| k == 6 || (12..16).contains(&k) || t[k] == i[k];
    if !(0..16).all(same) || i[6] != ((t[6] & 0x0f) | 0x80) {
        return None;
    }
    let mut no = [0u8; 4];
    for (k, b) in no.iter_mut().enumerate() {
        *b = t[12 + k] ^ i[12 + k];
    }
    let no = TableNo::from_be_bytes(no);
    (no > 0 && table_id(tournament, no) == id).then_some(no)
}

/// Tables open in the lobby (`open`) that belong to the tournament but should not be open:
/// numbers the floor no longer has, or every one once it is over.
pub fn strays(core: &Tournament, open: &[Uuid]) -> Vec<(TableNo, Uuid)> {
    let over = matches!(core.status(), Status::Finished | Status::Cancelled);
    open.iter()
        .filter_map(|id| table_no_of(core.id(), *id).map(|no| (no, *id)))
        .filter(|(no, _)| over || !core.floor().tables().contains_key(no))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use stud_tournament::{Command, CreateTournament, Draw, Knockout, Tournament};

    use super::*;

    /// A sit-and-go of `n` started, everyone at table 1.
    fn started(n: u32) -> (Tournament, Vec<Uuid>) {
        let body = format!(
            r#"{{"name": "t", "variant": "stud", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": {n},
                "seats_per_table": 8, "entry_fee": 100, "house_fee": 0, "starting_chips": 1000,
                "levels": [{{"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40, "hands": 10}}]}}"#
        );
        let spec = serde_json::from_str::<CreateTournament>(&body).unwrap().validate().unwrap();
        let mut t = Tournament::new(Uuid::new_v4(), spec);
        let players: Vec<Uuid> = (1..=n).map(|k| Uuid::from_u128(u128::from(k))).collect();
        for (k, p) in players.iter().enumerate() {
            let cmd = Command::Register { player: *p, name: format!("p{k}"), invite_code: None, draw: Draw([1; 32]) };
            let accepted = t.handle(cmd).unwrap();
            t.apply(0, &accepted.input);
        }
        let stud_tournament::Due::Start = t.due(0).unwrap() else { panic!("not due") };
        t.apply(0, &stud_tournament::Input::Start { draw: Draw([2; 32]) });
        (t, players)
    }

    fn apply(t: &mut Tournament, cmd: Command) {
        let accepted = t.handle(cmd).unwrap();
        t.apply(1, &accepted.input);
    }

    /// Issue 14 review, 2(a): a hand whose report was lost at a restart must not seat again a
    /// player who busted in it. The table kept its report: it is taken first, and then the
    /// floor no longer wants the busted player anywhere.
    #[test]
    fn a_lost_report_is_settled_before_seats_so_a_busted_player_stays_out() {
        let (mut t, p) = started(3);
        apply(&mut t, Command::StartHand { table: 1 });
        assert_eq!(t.deal_number(1), Some(1));
        // The table played hand 1: p[2] busted to p[0]; its seat emptied. The report was lost.
        let report = vec![(p[0], 2_000), (p[1], 1_000), (p[2], 0)];
        let knockouts = vec![(p[2], vec![(p[0], 2_000)])];
        let state = TournamentTableState {
            in_play: false,
            deal_pending: false,
            stacks: vec![(p[0], 2_000), (p[1], 1_000)],
            deal: None,
            last_report: Some(LastReport { deal: 1, stacks: report.clone(), knockouts: knockouts.clone() }),
        };
        // Before the report, the floor still seats p[2] here: comparing seats first would seat
        // them again with the 1,000 chips they started the hand with.
        assert_eq!(seat_fix(&wanted(&t, 1), &state.stacks).seat.len(), 1);
        let HandFix::Report(r) = hand_fix(&t, 1, &state) else { panic!("the report is given again") };
        assert_eq!((r.deal, &r.stacks, &r.knockouts), (1, &report, &knockouts), "the kept report, knockouts too");
        let knockouts = r.knockouts.iter().map(|(player, by)| Knockout { player: *player, by: by.clone() }).collect();
        apply(
            &mut t,
            Command::HandFinished { table: 1, deal: r.deal, stacks: r.stacks, knockouts, draw: Draw([3; 32]) },
        );
        assert!(t.live_entry(p[2]).is_none(), "p[2] is out");
        assert_eq!(seat_fix(&wanted(&t, 1), &state.stacks), SeatFix::default());
    }

    #[test]
    fn a_lost_deal_is_sent_again_and_a_hand_in_play_waits_for_its_report() {
        let (mut t, p) = started(2);
        let idle = |last: Option<LastReport>| TournamentTableState {
            in_play: false,
            deal_pending: false,
            stacks: vec![(p[0], 1_000), (p[1], 1_000)],
            deal: None,
            last_report: last,
        };
        assert_eq!(hand_fix(&t, 1, &idle(None)), HandFix::Nothing, "no hand in play");
        apply(&mut t, Command::StartHand { table: 1 });
        assert_eq!(hand_fix(&t, 1, &idle(None)), HandFix::Deal, "the first Deal was lost");
        let playing = TournamentTableState { in_play: true, deal: Some(1), ..idle(None) };
        assert_eq!(hand_fix(&t, 1, &playing), HandFix::Nothing);
        let pending = TournamentTableState { deal_pending: true, deal: Some(1), ..idle(None) };
        assert_eq!(hand_fix(&t, 1, &pending), HandFix::Nothing);
        let stacks = vec![(p[0], 1_200), (p[1], 800)];
        let knockouts = Vec::new();
        apply(
            &mut t,
            Command::HandFinished { table: 1, deal: 1, stacks: stacks.clone(), knockouts, draw: Draw([3; 32]) },
        );
        apply(&mut t, Command::StartHand { table: 1 });
        // The table's last report is of hand 1; hand 2's Deal never arrived.
        let last = Some(LastReport { deal: 1, stacks, knockouts: Vec::new() });
        assert_eq!(hand_fix(&t, 1, &idle(last)), HandFix::Deal);
    }

    #[test]
    fn seat_fix_takes_strays_away_and_seats_the_missing() {
        let (a, b, c) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
        let fix = seat_fix(&[(1, a), (4, b)], &[(a, 10), (c, 20)]);
        assert_eq!(fix, SeatFix { unseat: vec![c], seat: vec![(4, b)] });
        assert!(seat_fix(&[(1, a)], &[(a, 5)]).is_empty());
    }

    /// Issue 14 review, 2(b): tables broken before a crash (their close lost) are found again
    /// among the open tables and closed; a finished tournament closes all of its own.
    #[test]
    fn stray_tables_are_the_tournaments_tables_the_floor_no_longer_has() {
        let (t, _) = started(3);
        assert_eq!(t.floor().tables().keys().copied().collect::<Vec<_>>(), [1]);
        let id = t.id();
        for no in [1, 2, 3, 300, u32::MAX] {
            assert_eq!(table_no_of(id, table_id(id, no)), Some(no));
        }
        let other = Uuid::new_v4();
        let open = [table_id(id, 1), table_id(id, 2), Uuid::new_v4(), table_id(other, 2), table_id(id, 7), id];
        assert_eq!(strays(&t, &open), vec![(2, table_id(id, 2)), (7, table_id(id, 7))]);
        assert_eq!(table_no_of(id, id), None);
        assert_eq!(table_no_of(id, table_id(other, 2)), None);
    }
}
