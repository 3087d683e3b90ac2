//! The tournament without a server: a driver plays it the way the server will (handle, journal,
//! apply, the clock, tables reporting hands), keeping the accounts a ledger would.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use stud_engine::{Betting, Chips, Variant};
use uuid::Uuid;

use crate::{
    ADDON_MS, Cents, Command, CreateTournament, DealMethod, Draw, Due, EntryNo, EntryState, GameChoice, Input, Kind,
    Knockout, LevelRequest, MAX_BREAK_MINUTES, Millis, Offer, Output, REBUY_OFFER_MS, RotationGame, Spot, Status,
    TableNo, Tournament, TournamentError, TournamentSpec,
};

fn level(bring_in: u64, minutes: Option<u32>, hands: Option<u32>) -> LevelRequest {
    LevelRequest { ante: bring_in / 2, bring_in, small_bet: bring_in * 2, big_bet: bring_in * 4, minutes, hands }
}

fn request(kind: Kind, players: u32, seats: u8) -> CreateTournament {
    CreateTournament {
        name: "t".into(),
        variant: GameChoice::Stud,
        kind,
        start_at: (kind == Kind::Scheduled).then_some(60_000),
        min_entrants: players,
        max_entrants: players,
        seats_per_table: seats,
        entry_fee: 1_000,
        house_fee: 100,
        starting_chips: 1_000,
        levels: vec![level(10, Some(10), None), level(20, Some(10), None), level(40, Some(10), None)],
        payouts: None,
        late_registration_until_level: None,
        reentry_until_level: None,
        invite_code: None,
        rotation_hands: None,
        betting: Betting::FixedLimit,
        rotation_games: None,
        rebuy_until_level: None,
        rebuy_chips: None,
        rebuy_fee: None,
        max_rebuys: None,
        addon_chips: None,
        addon_fee: None,
        break_every_levels: None,
        break_minutes: None,
        bounty: None,
        progressive_bounty: None,
        satellite_for: None,
        tickets: None,
        repeat_minutes: None,
        recurring: None,
        deals: None,
    }
}

fn sng(players: u32, seats: u8) -> TournamentSpec {
    request(Kind::SitAndGo, players, seats).validate().unwrap()
}

fn player(n: u32) -> Uuid {
    Uuid::from_u128(1_000 + u128::from(n))
}

/// Plays a tournament as the server will, keeping the journal and the accounts.
struct Driver {
    t: Tournament,
    journal: Vec<(Millis, Input)>,
    /// cents in each account (starting at 0; may go negative)
    accounts: BTreeMap<Uuid, i64>,
    draws: u64,
    now: Millis,
    /// every output, in order
    log: Vec<Output>,
    /// who sits where, kept only from the outputs (as the server will)
    mirror: BTreeMap<EntryNo, Spot>,
    /// the spec it was created with (an operator's input may change the tournament's)
    created: TournamentSpec,
}

impl Driver {
    fn new(spec: TournamentSpec) -> Driver {
        Driver {
            created: spec.clone(),
            t: Tournament::new(Uuid::from_u128(1), spec),
            journal: Vec::new(),
            accounts: BTreeMap::new(),
            draws: 0,
            now: 0,
            log: Vec::new(),
            mirror: BTreeMap::new(),
        }
    }

    fn draw(&mut self) -> Draw {
        self.draws += 1;
        let mut bytes = [7u8; 32];
        bytes[..8].copy_from_slice(&self.draws.to_le_bytes());
        Draw(bytes)
    }

    fn apply(&mut self, input: Input) -> Vec<Output> {
        self.journal.push((self.now, input.clone()));
        let out = self.t.apply(self.now, &input);
        for o in &out {
            match o {
                Output::Refund { player, amount } => *self.accounts.entry(*player).or_default() += *amount as i64,
                Output::Placed(p) => *self.accounts.entry(p.player_id).or_default() += p.prize as i64,
                Output::Bounty { player, cents, .. } => *self.accounts.entry(*player).or_default() += *cents as i64,
                Output::Seat { entry, at, .. } => {
                    assert!(self.mirror.insert(*entry, *at).is_none(), "entry {entry} seated twice");
                }
                Output::Move { step, .. } => {
                    assert_eq!(self.mirror.insert(step.entry, step.to), Some(step.from), "moved from elsewhere");
                }
                Output::Eliminated { entry, table, .. } => {
                    assert_eq!(self.mirror.remove(entry).map(|s| s.table), Some(*table));
                }
                Output::TableClosed { table } => {
                    assert!(self.mirror.values().all(|s| s.table != *table), "table {table} closed with players");
                }
                _ => {}
            }
        }
        // Carrying out the outputs seats everyone where the core has them.
        let seated: BTreeMap<EntryNo, Spot> = self
            .t
            .floor()
            .tables()
            .iter()
            .flat_map(|(&table, t)| t.seats.iter().map(move |(&seat, &no)| (no, Spot { table, seat })))
            .collect();
        if self.t.status() == Status::Running {
            assert_eq!(self.mirror, seated, "the outputs and the floor disagree");
        }
        self.log.extend(out.iter().cloned());
        out
    }

    fn command(&mut self, cmd: Command) -> Result<Vec<Output>, TournamentError> {
        let accepted = self.t.handle(cmd)?;
        if let Some((player, cents)) = accepted.debit {
            *self.accounts.entry(player).or_default() -= cents as i64;
        }
        Ok(self.apply(accepted.input))
    }

    fn register(&mut self, n: u32) -> Result<Vec<Output>, TournamentError> {
        let draw = self.draw();
        self.command(Command::Register { player: player(n), name: format!("p{n}"), invite_code: None, draw })
    }

    /// Runs the clock at `now` until it wants nothing.
    fn tick(&mut self, now: Millis) -> Vec<Output> {
        self.now = now;
        let mut out = Vec::new();
        while let Some(due) = self.t.due(now) {
            let input = match due {
                Due::Start => Input::Start { draw: self.draw() },
                Due::Input(input) => input,
            };
            out.extend(self.apply(input));
        }
        out
    }

    /// A tournament of `spec` with players 1..=`n` registered, then the clock at 0 (a
    /// sit-and-go full by then starts).
    fn started(spec: TournamentSpec, n: u32) -> Driver {
        let mut d = Driver::new(spec);
        for i in 1..=n {
            d.register(i).unwrap();
        }
        d.tick(0);
        d
    }

    fn start_hand(&mut self, table: TableNo) -> Result<Vec<Output>, TournamentError> {
        self.command(Command::StartHand { table })
    }

    fn chips(&self, p: Uuid) -> Chips {
        self.t.live_entry(p).map_or(0, |e| e.chips)
    }

    /// The number of the hand in play at `table` (what its report carries).
    fn deal_of(&self, table: TableNo) -> u64 {
        self.t.deal_number(table).unwrap_or(0)
    }

    /// The players dealt into `table`'s hand.
    fn dealt(&self, table: TableNo) -> Vec<Uuid> {
        let hand = self.t.floor().tables()[&table].hand.clone().unwrap();
        hand.iter().map(|(no, _)| self.t.entries()[*no as usize - 1].player).collect()
    }

    /// Ends `table`'s hand: `losers` give all their chips to `winner` (dealt players only).
    fn finish(&mut self, table: TableNo, winner: Uuid, losers: &[Uuid]) -> Result<Vec<Output>, TournamentError> {
        let mut stacks: BTreeMap<Uuid, Chips> = self.dealt(table).into_iter().map(|p| (p, self.chips(p))).collect();
        let won: Chips = losers.iter().map(|p| stacks.get(p).copied().unwrap_or(0)).sum();
        for p in losers {
            stacks.insert(*p, 0);
        }
        *stacks.get_mut(&winner).unwrap() += won;
        let draw = self.draw();
        let knockouts = losers.iter().map(|p| Knockout { player: *p, by: vec![(winner, won)] }).collect();
        self.command(Command::HandFinished {
            table,
            deal: self.deal_of(table),
            stacks: stacks.into_iter().collect(),
            knockouts,
            draw,
        })
    }

    /// Plays one hand at `table` in which `losers` bust to `winner`.
    fn bust(&mut self, table: TableNo, winner: Uuid, losers: &[Uuid]) -> Vec<Output> {
        self.start_hand(table).unwrap();
        self.finish(table, winner, losers).unwrap()
    }

    fn seated(&self, table: TableNo) -> Vec<Uuid> {
        self.t.floor().tables()[&table].seats.values().map(|&no| self.t.entries()[no as usize - 1].player).collect()
    }

    /// Replays the journal into a fresh tournament: the same state.
    fn replayed(&self) -> Tournament {
        let mut fresh = Tournament::new(self.t.id(), self.created.clone());
        let mut log = Vec::new();
        for (at, input) in &self.journal {
            let text = serde_json::to_string(input).unwrap();
            let input: Input = serde_json::from_str(&text).unwrap();
            log.extend(fresh.apply(*at, &input));
        }
        assert_eq!(log, self.log, "replaying the journal gives other outputs");
        fresh
    }
}

fn count<F: Fn(&Output) -> bool>(out: &[Output], f: F) -> usize {
    out.iter().filter(|o| f(o)).count()
}

#[test]
fn a_sit_and_go_starts_when_full_for_2_6_and_8() {
    for n in [2, 6, 8] {
        let mut d = Driver::new(sng(n, 8));
        for i in 1..n {
            d.register(i).unwrap();
            assert_eq!(d.t.due(0), None, "{n}: started with {i}");
        }
        d.register(n).unwrap();
        let out = d.tick(0);
        assert_eq!(d.t.status(), Status::Running);
        assert_eq!(out.first(), Some(&Output::Started { entries: n, tables: vec![1] }));
        assert_eq!(count(&out, |o| matches!(o, Output::Seat { chips: 1_000, .. })), n as usize);
        assert!(out.contains(&Output::FinalTable { table: 1 }));
        assert!(out.iter().any(|o| matches!(o, Output::RegistrationClosed { entries, pool, .. }
            if *entries == n && *pool == 1_000 * u64::from(n))));
        assert_eq!(d.register(n + 1), Err(TournamentError::RegistrationClosed));
        // Everyone paid entry + house fee.
        assert!(d.accounts.values().all(|&c| c == -1_100));
    }
}

#[test]
fn a_sit_and_go_of_18_seats_three_tables_of_six() {
    let d = Driver::started(sng(18, 8), 18);
    let sizes: Vec<usize> = d.t.floor().tables().values().map(|t| t.count()).collect();
    assert_eq!(sizes, [6, 6, 6]);
    assert_eq!(d.t.prizes(), [9_000, 5_400, 3_600]);
}

#[test]
fn unregistering_refunds_and_a_full_tournament_says_so() {
    let mut d = Driver::new(request(Kind::Scheduled, 3, 8).validate().unwrap());
    d.register(1).unwrap();
    assert_eq!(d.register(1), Err(TournamentError::AlreadyRegistered));
    d.register(2).unwrap();
    d.register(3).unwrap();
    assert_eq!(d.register(4), Err(TournamentError::Full));
    assert_eq!(d.accounts.get(&player(4)), None, "a refused registration charges nothing");
    let out = d.command(Command::Unregister { player: player(2) }).unwrap();
    assert_eq!(out, [Output::Refund { player: player(2), amount: 1_100 }]);
    assert_eq!(d.accounts[&player(2)], 0);
    assert_eq!(d.command(Command::Unregister { player: player(2) }), Err(TournamentError::NotRegistered));
    // The freed place can be taken again.
    d.register(4).unwrap();
    assert_eq!(d.t.due(59_999), None);
    d.tick(60_000);
    assert_eq!(d.t.status(), Status::Running);
    assert_eq!(d.t.entry_count(), 3);
    assert_eq!(d.command(Command::Unregister { player: player(1) }), Err(TournamentError::Started));
}

#[test]
fn a_scheduled_tournament_without_enough_entrants_is_cancelled_and_refunded() {
    let mut d = Driver::new(request(Kind::Scheduled, 4, 8).validate().unwrap());
    for i in 1..=3 {
        d.register(i).unwrap();
    }
    let out = d.tick(60_000);
    assert_eq!(d.t.status(), Status::Cancelled);
    assert_eq!(count(&out, |o| matches!(o, Output::Refund { amount: 1_100, .. })), 3);
    assert!(out.contains(&Output::Cancelled));
    assert!(d.accounts.values().all(|&c| c == 0));
    assert_eq!(d.register(9), Err(TournamentError::RegistrationClosed));
}

#[test]
fn an_operator_cancels_before_the_start_only() {
    let mut d = Driver::new(sng(2, 8));
    d.register(1).unwrap();
    d.command(Command::Cancel).unwrap();
    assert_eq!(d.accounts[&player(1)], 0);
    let mut d = Driver::new(sng(2, 8));
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(0);
    assert_eq!(d.command(Command::Cancel), Err(TournamentError::Started));
}

#[test]
fn a_private_tournament_needs_its_code() {
    let mut r = request(Kind::SitAndGo, 2, 8);
    r.start_at = None;
    r.invite_code = Some("secret-code-1".into());
    let mut d = Driver::new(r.validate().unwrap());
    let draw = d.draw();
    let reg = |code: Option<&str>| Command::Register {
        player: player(1),
        name: "p".into(),
        invite_code: code.map(String::from),
        draw: draw.clone(),
    };
    assert_eq!(d.command(reg(None)), Err(TournamentError::WrongInviteCode));
    assert_eq!(d.command(reg(Some("secret-code-2"))), Err(TournamentError::WrongInviteCode));
    assert_eq!(d.command(reg(Some("secret-code-"))), Err(TournamentError::WrongInviteCode), "a prefix");
    assert!(d.command(reg(Some("secret-code-1"))).is_ok());
    r.invite_code = Some("short-123".into());
    assert_eq!(r.validate().unwrap_err().field, "invite_code", "9 characters");
}

/// A scheduled tournament of `n` with late registration and re-entry until level 1.
fn late(n: u32) -> Driver {
    let mut r = request(Kind::Scheduled, n, 8);
    r.max_entrants = 20;
    r.late_registration_until_level = Some(1);
    r.reentry_until_level = Some(1);
    let mut d = Driver::new(r.validate().unwrap());
    for i in 1..=n {
        d.register(i).unwrap();
    }
    d.tick(60_000);
    d
}

#[test]
fn late_registration_closes_at_the_end_of_its_level() {
    let mut d = late(3);
    assert!(!d.t.is_closed());
    // The lobby's "registration open" is this same rule (the server's view asks the core).
    assert!(d.t.registration_open() && d.t.reentry_open());
    let out = d.register(4).unwrap();
    assert!(matches!(out.as_slice(), [Output::Seat { entry: 4, chips: 1_000, at, .. }] if at.table == 1));
    assert_eq!(d.accounts[&player(4)], -1_100);
    // Level 1 lasts 10 minutes from the start.
    assert_eq!(d.t.wake_at(), Some(60_000 + 600_000));
    assert!(d.tick(60_000 + 599_999).is_empty());
    let out = d.tick(60_000 + 600_000);
    assert_eq!(out[0], Output::Level { level: 2 });
    assert!(matches!(&out[1], Output::RegistrationClosed { entries: 4, pool: 4_000, prizes } if prizes == &[4_000]));
    assert_eq!(d.register(5), Err(TournamentError::RegistrationClosed));
    assert!(!d.t.registration_open() && !d.t.reentry_open());
    assert_eq!(d.accounts.get(&player(5)), None);
}

/// Re-entry has no command of its own on the wire: registering again once out is one, while
/// re-entry is open (here until level 2, past late registration, which ends with level 1).
#[test]
fn registering_again_once_out_is_a_re_entry() {
    let mut r = request(Kind::Scheduled, 3, 8);
    r.max_entrants = 20;
    r.late_registration_until_level = Some(1);
    r.reentry_until_level = Some(2);
    let mut d = Driver::new(r.validate().unwrap());
    for i in 1..=3 {
        d.register(i).unwrap();
    }
    d.tick(60_000);
    let (a, b) = (player(1), player(2));
    assert_eq!(d.register(1), Err(TournamentError::AlreadyRegistered), "still playing");
    d.tick(60_000 + 600_000);
    assert_eq!(d.t.level(), 2);
    assert_eq!(d.register(4), Err(TournamentError::RegistrationClosed), "late registration ended with level 1");
    assert_eq!(d.accounts.get(&player(4)), None, "nothing charged");
    d.bust(1, a, &[b]);
    let out = d.register(2).unwrap();
    assert!(matches!(out.as_slice(), [Output::Seat { entry: 4, chips: 1_000, .. }]), "{out:?}");
    assert_eq!(d.accounts[&b], -2_200, "charged like the first entry");
    assert_eq!(d.t.live_entry(b).map(|e| e.no), Some(4));
    d.tick(60_000 + 1_200_000);
    assert_eq!(d.t.level(), 3);
    d.bust(1, a, &[b]);
    assert_eq!(d.register(2), Err(TournamentError::RegistrationClosed));
    assert_eq!(d.accounts[&b], -2_200);
}

#[test]
fn a_busted_player_re_enters_until_the_level_ends() {
    let mut d = late(3);
    let (a, b) = (player(1), player(2));
    let draw = d.draw();
    assert_eq!(d.command(Command::ReEnter { player: a, draw }), Err(TournamentError::StillPlaying));
    d.bust(1, a, &[b]);
    assert_eq!(d.t.live_entry(b), None);
    assert_eq!(d.t.seat_of(b), None);
    assert_eq!(d.t.seat_of(a).map(|s| s.table), Some(1));
    let draw = d.draw();
    let out = d.command(Command::ReEnter { player: b, draw }).unwrap();
    assert!(matches!(out.as_slice(), [Output::Seat { entry: 4, chips: 1_000, .. }]));
    assert_eq!(d.accounts[&player(2)], -2_200);
    assert_eq!(d.t.entry_count(), 4);
    // Chips: 4 entries' worth on the table.
    let total: Chips = d.t.entries().iter().map(|e| e.chips).sum();
    assert_eq!(total, 4_000);
    let draw = d.draw();
    assert_eq!(d.command(Command::ReEnter { player: player(9), draw }), Err(TournamentError::NotRegistered));
    d.tick(60_000 + 600_000);
    d.bust(1, a, &[b]);
    let draw = d.draw();
    assert_eq!(d.command(Command::ReEnter { player: b, draw }), Err(TournamentError::ReentryClosed));
    // Places are final now: b's two entries are 4th and 3rd.
    let places: Vec<(u32, u32)> = d.t.results().iter().map(|p| (p.place, p.entry)).collect();
    assert_eq!(places, [(3, 4), (4, 2)]);
}

#[test]
fn a_level_change_applies_from_the_next_hand() {
    let mut d = Driver::new(sng(2, 8));
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(0);
    let out = d.start_hand(1).unwrap();
    assert!(matches!(&out[..], [Output::Deal { level: 1, config, .. }] if config.bring_in == 10));
    let out = d.tick(600_000);
    assert_eq!(out, [Output::Level { level: 2 }]);
    assert_eq!(d.start_hand(1), Err(TournamentError::HandInPlay(1)));
    d.finish(1, player(1), &[]).unwrap();
    let out = d.start_hand(1).unwrap();
    assert!(
        matches!(&out[..], [Output::Deal { level: 2, config, .. }] if config.bring_in == 20 && config.big_bet == 80)
    );
    // The last level never ends.
    d.tick(1_200_000);
    assert_eq!(d.t.level(), 3);
    assert_eq!(d.t.wake_at(), None);
    assert_eq!(d.tick(100_000_000), Vec::<Output>::new());
}

#[test]
fn levels_by_hands_count_the_busiest_table() {
    let mut r = request(Kind::SitAndGo, 4, 2);
    r.start_at = None;
    r.levels = vec![level(10, None, Some(3)), level(20, None, Some(3)), level(40, None, Some(3))];
    let mut d = Driver::new(r.validate().unwrap());
    for i in 1..=4 {
        d.register(i).unwrap();
    }
    assert_eq!(d.t.hands_to_next_level(), None, "not running yet");
    d.tick(0);
    assert_eq!(d.t.floor().tables().len(), 2);
    assert_eq!(d.t.hands_to_next_level(), Some(3));
    for left in [2, 1] {
        d.start_hand(1).unwrap();
        d.finish(1, d.seated(1)[0], &[]).unwrap();
        // The lobby's count follows the busiest table.
        assert_eq!(d.t.hands_to_next_level(), Some(left));
    }
    d.start_hand(2).unwrap();
    d.start_hand(1).unwrap();
    let out = d.finish(1, d.seated(1)[0], &[]).unwrap();
    assert!(out.contains(&Output::Level { level: 2 }), "{out:?}");
    assert_eq!(d.t.hands_to_next_level(), Some(3), "level 2 starts its count");
    // Table 2's hand in play keeps level 1's stakes; its next hand has level 2's.
    d.finish(2, d.seated(2)[0], &[]).unwrap();
    let out = d.start_hand(2).unwrap();
    assert!(matches!(&out[..], [Output::Deal { level: 2, .. }]));
}

#[test]
fn the_rotation_changes_the_game_exactly_on_schedule() {
    // Per level: razz, stud, stud8.
    let mut r = request(Kind::SitAndGo, 2, 8);
    r.start_at = None;
    r.variant = GameChoice::Rotation;
    let mut d = Driver::new(r.clone().validate().unwrap());
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(0);
    let mut games = Vec::new();
    for minute in [0, 5, 10, 15, 20, 25] {
        d.tick(minute * 60_000);
        let out = d.start_hand(1).unwrap();
        let Output::Deal { config, .. } = &out[0] else { panic!("{out:?}") };
        // Razz never has the open-pair big bet; stud and stud8 do.
        assert_eq!(config.open_pair_big_bet, config.variant != Variant::Razz);
        games.push(config.variant);
        d.finish(1, player(1), &[]).unwrap();
    }
    use Variant::{Razz, Stud, Stud8};
    assert_eq!(games, [Razz, Razz, Stud, Stud, Stud8, Stud8]);
    // Every 2 hands at the table.
    r.rotation_hands = Some(2);
    let mut d = Driver::new(r.validate().unwrap());
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(0);
    let mut games = Vec::new();
    for _ in 0..7 {
        let out = d.start_hand(1).unwrap();
        let Output::Deal { config, .. } = &out[0] else { panic!("{out:?}") };
        games.push(config.variant);
        d.finish(1, player(1), &[]).unwrap();
    }
    assert_eq!(games, [Razz, Razz, Stud, Stud, Stud8, Stud8, Razz]);
    assert_eq!(d.t.next_variant(1), Some(Razz));
}

/// Issue 30 item 8: an operator changes a rotation's games (per level), then its hands per
/// game. Each change waits for the next level; then the tournament goes on with the game after
/// the one played last, in the new list; a single game refuses a rotation; the journal
/// replays to the same tournament.
#[test]
fn an_operator_changes_the_rotation_from_the_next_level() {
    use Variant::{London, Razz, Stud, Stud8};
    let mut r = request(Kind::SitAndGo, 2, 8);
    r.start_at = None;
    r.variant = GameChoice::Rotation;
    r.levels.push(level(80, Some(10), None));
    let mut d = Driver::new(r.validate().unwrap());
    let game = |variant| RotationGame { variant, betting: None };
    // Before the start a change applies at once.
    d.command(Command::Rotation { hands: None, games: Some(vec![game(Razz), game(Stud)]) }).unwrap();
    assert_eq!(d.t.spec().game_list().len(), 2);
    assert_eq!(d.t.rotation_pending(), None);
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(0);
    let mut games = Vec::new();
    let hand = |d: &mut Driver, minute: u64| {
        d.tick(minute * 60_000);
        let out = d.start_hand(1).unwrap();
        let Output::Deal { config, .. } = &out[0] else { panic!("{out:?}") };
        d.finish(1, player(1), &[]).unwrap();
        config.variant
    };
    games.push(hand(&mut d, 0));
    // During level 1 (razz): a new list, waiting for level 2. A bad one is refused and
    // changes nothing.
    let list = vec![game(Stud8), game(Razz), game(London)];
    d.command(Command::Rotation { hands: None, games: Some(list.clone()) }).unwrap();
    let (hands, pending) = d.t.rotation_pending().unwrap();
    assert_eq!((hands, pending.iter().map(|g| g.variant).collect::<Vec<_>>()), (None, vec![Stud8, Razz, London]));
    let before = d.t.clone();
    let empty = d.command(Command::Rotation { hands: None, games: Some(vec![]) });
    assert!(matches!(empty, Err(TournamentError::BadRotation(ref m)) if m.starts_with("rotation_games")), "{empty:?}");
    let zero = d.command(Command::Rotation { hands: Some(0), games: None });
    assert!(matches!(zero, Err(TournamentError::BadRotation(ref m)) if m.starts_with("rotation_hands")), "{zero:?}");
    let many = d.command(Command::Rotation { hands: Some(1_001), games: None });
    assert!(matches!(many, Err(TournamentError::BadRotation(ref m)) if m.contains("1 to 1000")), "{many:?}");
    assert_eq!(d.t, before);
    games.push(hand(&mut d, 5));
    // Level 2: london (after razz), level 3: stud8.
    games.push(hand(&mut d, 10));
    assert_eq!(d.t.rotation_pending(), None);
    assert_eq!(d.t.game_now().variant, London);
    games.push(hand(&mut d, 20));
    assert_eq!(games, [Razz, Razz, London, Stud8]);
    // During level 3 (stud8): two hands per game from level 4, starting after stud8 (razz). A
    // second change in the same level (the list again) keeps the first's hands per game.
    d.command(Command::Rotation { hands: Some(2), games: None }).unwrap();
    d.command(Command::Rotation { hands: None, games: Some(list) }).unwrap();
    assert_eq!(d.t.rotation_pending().unwrap().0, Some(2), "the second change adds to the first");
    games.clear();
    for minute in [21, 22] {
        games.push(hand(&mut d, minute));
    }
    // A hand in play when level 4 starts on the clock is the old game's last: the new game
    // starts with the next hand.
    d.tick(29 * 60_000);
    let out = d.start_hand(1).unwrap();
    let Output::Deal { config, .. } = &out[0] else { panic!("{out:?}") };
    games.push(config.variant);
    d.tick(30 * 60_000);
    assert_eq!(d.t.level(), 4);
    d.finish(1, player(1), &[]).unwrap();
    for minute in [31, 32, 33, 34, 35] {
        games.push(hand(&mut d, minute));
    }
    assert_eq!(games, [Stud8, Stud8, Stud8, Razz, Razz, London, London, Stud8]);
    assert_eq!(d.replayed(), d.t);
    let back = Tournament::restore(&d.t.snapshot()).unwrap();
    assert_eq!(back.next_config(1), d.t.next_config(1));
    // Refused: at the last level no level is left to change at; a single game has no rotation.
    let before = d.t.clone();
    let last = d.command(Command::Rotation { hands: Some(3), games: None });
    assert_eq!((last, &d.t), (Err(TournamentError::LastLevel), &before));
    let mut single = Driver::new(sng(2, 8));
    let refused = single.command(Command::Rotation { hands: Some(2), games: None });
    assert_eq!(refused, Err(TournamentError::BadRotation("rotation_hands: only a rotation changes games".into())));
}

/// Issue 29: a rotation of the operator's games, each at its own structure or the tournament's
/// `betting`, dealt in order every 2 hands; each hand's config has its game's open-pair
/// option (never in razz or london) and its structure; the replayed journal agrees.
#[test]
fn a_rotation_of_the_operators_games_mixes_games_and_structures() {
    let mut r = request(Kind::SitAndGo, 2, 8);
    r.start_at = None;
    r.variant = GameChoice::Rotation;
    r.rotation_hands = Some(2);
    r.betting = Betting::PotLimit;
    let game = |variant, betting| RotationGame { variant, betting };
    r.rotation_games = Some(vec![
        game(Variant::London, None),
        game(Variant::Stud8Declare, Some(Betting::FixedLimit)),
        game(Variant::Mississippi, Some(Betting::NoLimit)),
        game(Variant::Chicago, None),
    ]);
    let mut d = Driver::new(r.validate().unwrap());
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(0);
    let mut dealt = Vec::new();
    for _ in 0..9 {
        let out = d.start_hand(1).unwrap();
        let Output::Deal { config, .. } = &out[0] else { panic!("{out:?}") };
        assert_eq!(config.open_pair_big_bet, !config.variant.is_razz_like(), "{config:?}");
        assert_eq!(config.validate(), Ok(()));
        dealt.push((config.variant, config.betting));
        d.finish(1, player(1), &[]).unwrap();
    }
    use Betting::{FixedLimit, NoLimit, PotLimit};
    use Variant::{Chicago, London, Mississippi, Stud8Declare};
    let want = [
        (London, PotLimit),
        (London, PotLimit),
        (Stud8Declare, FixedLimit),
        (Stud8Declare, FixedLimit),
        (Mississippi, NoLimit),
        (Mississippi, NoLimit),
        (Chicago, PotLimit),
        (Chicago, PotLimit),
        (London, PotLimit),
    ];
    assert_eq!(dealt, want);
    assert_eq!(d.t.next_variant(1), Some(London));
    // Rebuilt from its journal, and from a snapshot, it deals the same next game.
    assert_eq!(d.replayed().next_config(1), d.t.next_config(1));
    let back = Tournament::restore(&d.t.snapshot()).unwrap();
    assert_eq!(back.spec(), d.t.spec());
}

/// Issue 29: every game, at every structure, as a single-game tournament: every hand is that
/// game at that structure, with the level's stakes.
#[test]
fn every_game_and_structure_is_a_tournament() {
    let games = [
        (GameChoice::Stud, Variant::Stud),
        (GameChoice::Stud8, Variant::Stud8),
        (GameChoice::Razz, Variant::Razz),
        (GameChoice::London, Variant::London),
        (GameChoice::Stud8Declare, Variant::Stud8Declare),
        (GameChoice::Chicago, Variant::Chicago),
        (GameChoice::Mississippi, Variant::Mississippi),
    ];
    assert_eq!(games.len(), stud_engine::config::ALL_VARIANTS.len());
    for (choice, variant) in games {
        for betting in stud_engine::config::ALL_BETTINGS {
            let mut r = request(Kind::SitAndGo, 2, 8);
            r.start_at = None;
            r.variant = choice;
            r.betting = betting;
            let mut d = Driver::new(r.validate().unwrap());
            d.register(1).unwrap();
            d.register(2).unwrap();
            d.tick(0);
            let out = d.start_hand(1).unwrap();
            let Output::Deal { config, .. } = &out[0] else { panic!("{out:?}") };
            assert_eq!((config.variant, config.betting), (variant, betting));
            assert_eq!((config.ante, config.bring_in, config.small_bet), (5, 10, 20));
            assert_eq!(config.open_pair_big_bet, !variant.is_razz_like());
            assert_eq!(config.validate(), Ok(()), "{variant} {betting}");
        }
    }
}

#[test]
fn hand_reports_must_match_the_table() {
    let mut d = Driver::started(sng(3, 8), 3);
    let draw = d.draw();
    let finish = |stacks: Vec<(Uuid, Chips)>| Command::HandFinished {
        table: 1,
        deal: 0,
        stacks,
        knockouts: Vec::new(),
        draw: draw.clone(),
    };
    assert_eq!(d.command(finish(vec![])), Err(TournamentError::NoHand(1)));
    d.start_hand(1).unwrap();
    let (a, b, c) = (player(1), player(2), player(3));
    let bad = d.command(finish(vec![(a, 1_500), (b, 1_000), (c, 1_000)]));
    assert!(matches!(bad, Err(TournamentError::BadReport(ref why)) if why.contains("3500")), "{bad:?}");
    let bad = d.command(finish(vec![(a, 2_000), (b, 1_000)]));
    assert!(matches!(bad, Err(TournamentError::BadReport(_))));
    let bad = d.command(finish(vec![(a, 1_000), (a, 1_000), (c, 1_000)]));
    assert!(matches!(bad, Err(TournamentError::BadReport(_))));
    assert_eq!(d.start_hand(2), Err(TournamentError::NoSuchTable(2)));
    assert!(d.command(finish(vec![(a, 1_500), (b, 500), (c, 1_000)])).is_ok());
    assert_eq!(d.chips(a), 1_500);
}

/// A report carries its hand's number (from `Deal`): a late report of an earlier hand (a
/// table that reported after the server had given up on it, or a resync's report racing the
/// table's own) is refused, not taken for the hand in play, even though its players and
/// chips would fit.
#[test]
fn a_stale_report_is_not_taken_for_the_next_hand() {
    let mut d = Driver::new(sng(2, 8));
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(0);
    let (a, b) = (player(1), player(2));
    let out = d.start_hand(1).unwrap();
    assert!(matches!(&out[..], [Output::Deal { deal: 1, .. }]), "{out:?}");
    let draw = d.draw();
    let first = vec![(a, 1_400), (b, 600)];
    d.command(Command::HandFinished {
        table: 1,
        deal: 1,
        stacks: first.clone(),
        knockouts: Vec::new(),
        draw: draw.clone(),
    })
    .unwrap();
    let out = d.start_hand(1).unwrap();
    assert!(matches!(&out[..], [Output::Deal { deal: 2, .. }]), "{out:?}");
    // Hand 1's report again: same players, same chips as hand 2's start. Refused.
    let stale = d.command(Command::HandFinished {
        table: 1,
        deal: 1,
        stacks: first.clone(),
        knockouts: Vec::new(),
        draw: draw.clone(),
    });
    assert_eq!(stale, Err(TournamentError::StaleReport { table: 1, reported: 1, in_play: 2 }));
    assert_eq!(d.t.deal_number(1), Some(2), "hand 2 is still in play");
    // Hand 2's own report is taken.
    d.command(Command::HandFinished {
        table: 1,
        deal: 2,
        stacks: vec![(a, 1_000), (b, 1_000)],
        knockouts: Vec::new(),
        draw,
    })
    .unwrap();
    assert_eq!(d.t.deal_number(1), None);
    assert_eq!((d.chips(a), d.chips(b)), (1_000, 1_000));
}

/// A player the table could not seat (the server seats them again before the next hand) was
/// not dealt in: the table's report leaves them out and is taken; their chips and hand count
/// stay as they were, and they are not eliminated.
#[test]
fn a_report_without_a_player_the_table_could_not_seat_is_taken() {
    let mut d = Driver::started(sng(3, 8), 3);
    let (a, b, c) = (player(1), player(2), player(3));
    d.start_hand(1).unwrap();
    let hands_before = d.t.live_entry(c).unwrap().hands;
    let draw = d.draw();
    let report =
        |stacks| Command::HandFinished { table: 1, deal: 1, stacks, knockouts: Vec::new(), draw: draw.clone() };
    // Chips must still add up over the players reported.
    let bad = d.command(report(vec![(a, 1_500), (b, 1_000)]));
    assert!(matches!(bad, Err(TournamentError::BadReport(_))), "{bad:?}");
    // Someone never dealt in is no part of a report.
    let bad = d.command(report(vec![(a, 1_000), (Uuid::from_u128(7), 1_000)]));
    assert!(matches!(bad, Err(TournamentError::BadReport(_))), "{bad:?}");
    d.command(report(vec![(a, 1_500), (b, 500)])).unwrap();
    assert_eq!((d.chips(a), d.chips(b), d.chips(c)), (1_500, 500, 1_000));
    assert_eq!(d.t.live_entry(c).unwrap().hands, hands_before - 1, "c was not dealt in");
    assert_eq!(d.t.live(), 3);
}

#[test]
fn players_busted_in_one_hand_place_by_their_starting_stacks() {
    let mut d = Driver::started(sng(4, 8), 4);
    let (a, b, c, e) = (player(1), player(2), player(3), player(4));
    // a takes 400 from c: c starts the next hand with 600, e with 1000.
    d.start_hand(1).unwrap();
    let draw = d.draw();
    let stacks = vec![(a, 1_400), (b, 1_000), (c, 600), (e, 1_000)];
    d.command(Command::HandFinished { table: 1, deal: 1, stacks, knockouts: Vec::new(), draw }).unwrap();
    let out = d.bust(1, a, &[c, e]);
    // 4 entries pay 1 place; e (1000 at the start) is 3rd, c (600) is 4th.
    let placed: Vec<(u32, Uuid)> = out
        .iter()
        .filter_map(|o| if let Output::Placed(p) = o { Some((p.place, p.player_id)) } else { None })
        .collect();
    assert_eq!(placed, [(3, e), (4, c)]);
    let out = d.bust(1, b, &[a]);
    assert!(out.contains(&Output::Ended { winner: b }));
    let results: Vec<(u32, Uuid, u64)> = d.t.results().iter().map(|p| (p.place, p.player_id, p.prize)).collect();
    assert_eq!(results, [(1, b, 4_000), (2, a, 0), (3, e, 0), (4, c, 0)]);
    assert_eq!(d.accounts[&b], 4_000 - 1_100);
    assert_eq!(d.t.status(), Status::Finished);
    assert_eq!(d.start_hand(1), Err(TournamentError::NotRunning));
    assert_eq!(d.replayed(), d.t);
}

/// 12 players, 4 seats a table, 5 paid places, busted one a hand at the first table until
/// `left` are left (the bubble is at 6 players on 2 tables).
fn twelve_down_to(left: usize) -> Driver {
    let mut r = request(Kind::SitAndGo, 12, 4);
    r.start_at = None;
    r.payouts = Some(vec![40.0, 25.0, 15.0, 12.0, 8.0]);
    let mut d = Driver::started(r.validate().unwrap(), 12);
    assert_eq!(d.t.floor().tables().len(), 3);
    while d.t.live() > left {
        assert!(d.t.hand_for_hand().is_none());
        let table = *d.t.floor().tables().keys().next().unwrap();
        let seated = d.seated(table);
        d.bust(table, seated[0], &[seated[1]]);
    }
    d
}

/// [`twelve_down_to`] the bubble: 6 left.
fn bubble() -> Driver {
    let d = twelve_down_to(6);
    assert_eq!(d.t.floor().tables().len(), 2);
    assert!(d.log.contains(&Output::HandForHand { on: true }));
    let hfh = d.t.hand_for_hand().expect("hand-for-hand at 6 left with 5 paid");
    assert!(!hfh.draining);
    d
}

impl Driver {
    /// Ends `table`'s hand with `loser` left holding `keep` chips (the rest to `winner`).
    fn leave_with(&mut self, table: TableNo, winner: Uuid, loser: Uuid, keep: Chips) -> Vec<Output> {
        let mut stacks: BTreeMap<Uuid, Chips> = self.dealt(table).into_iter().map(|p| (p, self.chips(p))).collect();
        let given = stacks[&loser] - keep;
        stacks.insert(loser, keep);
        *stacks.get_mut(&winner).unwrap() += given;
        let draw = self.draw();
        self.command(Command::HandFinished {
            table,
            deal: self.deal_of(table),
            stacks: stacks.into_iter().collect(),
            knockouts: Vec::new(),
            draw,
        })
        .unwrap()
    }
}

/// At the bubble: round 1 leaves one player at each table with `keep` chips; round 2 busts
/// both. Returns the outputs of round 2's last hand and the two losers.
fn bubble_round(keep: [Chips; 2]) -> (Driver, Vec<Output>, [Uuid; 2]) {
    let mut d = bubble();
    let tables: Vec<TableNo> = d.t.floor().tables().keys().copied().collect();
    let mut losers = [Uuid::nil(); 2];
    let mut winners = [Uuid::nil(); 2];
    for (i, &t) in tables.iter().enumerate() {
        let s = d.seated(t);
        (winners[i], losers[i]) = (s[0], s[1]);
    }
    // Round 1: table 1 deals and must then wait for table 2.
    d.start_hand(tables[0]).unwrap();
    d.leave_with(tables[0], winners[0], losers[0], keep[0]);
    assert_eq!(d.start_hand(tables[0]), Err(TournamentError::HandForHand(tables[0])));
    d.start_hand(tables[1]).unwrap();
    let out = d.leave_with(tables[1], winners[1], losers[1], keep[1]);
    assert_eq!(out.last(), Some(&Output::NextRound { tables: tables.clone() }));
    // Round 2: both deal, both lose everything; places come at the round's end.
    d.start_hand(tables[0]).unwrap();
    d.start_hand(tables[1]).unwrap();
    let first = d.finish(tables[0], winners[0], &[losers[0]]).unwrap();
    assert!(!first.iter().any(|o| matches!(o, Output::Placed(_))), "placed before the round ended");
    let out = d.finish(tables[1], winners[1], &[losers[1]]).unwrap();
    (d, out, losers)
}

fn placed(out: &[Output]) -> Vec<(u32, Uuid, u64)> {
    out.iter()
        .filter_map(|o| if let Output::Placed(p) = o { Some((p.place, p.player_id, p.prize)) } else { None })
        .collect()
}

#[test]
fn hand_for_hand_places_a_round_s_eliminations_by_starting_stacks() {
    // The loser at the second table started the hand with more chips: 5th (8% of 12000).
    let (d, out, [small, big]) = bubble_round([300, 500]);
    assert_eq!(placed(&out), [(5, big, 960), (6, small, 0)]);
    assert!(out.contains(&Output::HandForHand { on: false }));
    assert!(out.contains(&Output::FinalTable { table: 1 }) || d.t.floor().tables().len() == 1);
    assert_eq!(d.t.hand_for_hand(), None);
    assert_eq!(d.t.hand_for_hand_rounds(), 2);
    assert_eq!(d.t.live(), 4);
    assert_eq!(d.t.floor().tables().len(), 1);
    assert_eq!(d.replayed(), d.t);
}

/// Issue 30 item 7: the hands in play when hand-for-hand starts are its first round at their
/// tables. 7 left on two tables (5 paid), both deal; the first hand to end busts one (6 left:
/// the bubble) while the other table's hand is still in play. That hand counts as its table's
/// first round; the other table deals once; both round-1 busts are placed together at the
/// round's end by the stacks they started their hands with. (Before, the tables in play were
/// waited for outside any round and their busts burst the bubble one by one.)
#[test]
fn hands_in_play_when_hand_for_hand_starts_are_its_first_round() {
    let mut d = twelve_down_to(7);
    let tables: Vec<TableNo> = d.t.floor().tables().keys().copied().collect();
    assert_eq!(tables.len(), 2);
    let (x, y) = if d.seated(tables[0]).len() == 4 { (tables[0], tables[1]) } else { (tables[1], tables[0]) };
    // One hand at y first leaves a player there short (400 chips).
    let sy = d.seated(y);
    d.start_hand(y).unwrap();
    d.leave_with(y, sy[0], sy[1], 400);
    d.start_hand(x).unwrap();
    d.start_hand(y).unwrap();
    let sx = d.seated(x);
    let out = d.finish(x, sx[0], &[sx[1]]).unwrap();
    assert!(out.contains(&Output::HandForHand { on: true }), "{out:?}");
    assert!(out.contains(&Output::NextRound { tables: vec![x] }), "only the table between hands deals: {out:?}");
    assert_eq!(d.t.hand_for_hand().unwrap().dealt, BTreeSet::from([y]));
    // Round 1: x deals; y, whose hand was in play, may not deal again in it.
    d.start_hand(x).unwrap();
    let sx = d.seated(x);
    let sy = d.seated(y);
    let richest = |d: &Driver, s: &[Uuid]| *s.iter().max_by_key(|p| d.chips(**p)).unwrap();
    let poorest = |d: &Driver, s: &[Uuid]| *s.iter().min_by_key(|p| d.chips(**p)).unwrap();
    let (loser_x, loser_y) = (richest(&d, &sx[1..]), poorest(&d, &sy));
    let (cx, cy) = (d.chips(loser_x), d.chips(loser_y));
    assert!(cx > cy, "the test wants different starting stacks: {cx} and {cy}");
    let winner_y = *sy.iter().find(|p| **p != loser_y).unwrap();
    let out = d.finish(y, winner_y, &[loser_y]).unwrap();
    assert!(placed(&out).is_empty(), "placed before the round ended: {out:?}");
    assert_eq!(d.start_hand(y), Err(TournamentError::HandForHand(y)));
    let winner_x = *sx.iter().find(|p| **p != loser_x).unwrap();
    let out = d.finish(x, winner_x, &[loser_x]).unwrap();
    // The bigger starting stack finishes higher: 5th (8% of 12,000), then 6th.
    assert_eq!(placed(&out), [(5, loser_x, 960), (6, loser_y, 0)]);
    assert_eq!((d.t.hand_for_hand(), d.t.hand_for_hand_rounds()), (None, 1));
    check_rounds(&d.log).unwrap();
    assert_eq!(d.replayed(), d.t);
}

#[test]
fn equal_stacks_busted_in_one_round_share_the_prizes() {
    let (_, out, [a, b]) = bubble_round([400, 400]);
    // 5th pays 960 and 6th nothing: 480 each; the place numbers go by entry order.
    let got = placed(&out);
    assert_eq!(got.iter().map(|p| (p.0, p.2)).collect::<Vec<_>>(), [(5, 480), (6, 480)]);
    let who: BTreeSet<Uuid> = got.iter().map(|p| p.1).collect();
    assert_eq!(who, BTreeSet::from([a, b]));
}

/// Checks what must hold after every input.
fn check(t: &Tournament, starting: Chips) -> Result<(), TestCaseError> {
    let floor = t.floor();
    let mut seen = BTreeSet::new();
    for table in floor.tables().values() {
        prop_assert!(table.count() <= usize::from(floor.seats_per_table()));
        for (&seat, &no) in &table.seats {
            prop_assert!((1..=floor.seats_per_table()).contains(&seat));
            prop_assert!(seen.insert(no), "entry {} seated twice", no);
        }
    }
    let playing: BTreeSet<u32> = t.entries().iter().filter(|e| e.state == EntryState::Playing).map(|e| e.no).collect();
    if t.status() == Status::Running {
        prop_assert_eq!(&seen, &playing, "seated and playing differ");
    }
    let chips: Chips = t.entries().iter().map(|e| e.chips + e.pending).sum();
    prop_assert_eq!(chips, bought(t, starting), "chips not conserved");
    prop_assert!(t.entries().iter().filter(|e| e.state == EntryState::Out).all(|e| e.chips == 0));
    Ok(())
}

/// Every chip sold: `starting` per entry, and the chips of every rebuy and add-on.
fn bought(t: &Tournament, starting: Chips) -> Chips {
    let (rebuy, addon) = t.spec().rebuys.map_or((0, 0), |r| (r.chips, r.addon.map_or(0, |a| a.chips)));
    starting * Chips::from(t.entry_count()) + rebuy * Chips::from(t.rebuys()) + addon * Chips::from(t.addons())
}

/// A small deterministic generator for hand outcomes (splitmix64).
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Plays a whole tournament with random hand results; tables deal and finish in a random
/// interleaving. Returns the driver at the end.
fn play(players: u32, seats: u8, seed: u64, late_entries: bool) -> Result<Driver, TestCaseError> {
    play_with(players, seats, seed, late_entries, false)
}

/// [`play`], with rebuys through level 2 and an add-on when `rebuys`: players buy them at
/// random, and the clock moves a second a step (offers and the add-on lapse on it).
fn play_with(players: u32, seats: u8, seed: u64, late_entries: bool, rebuys: bool) -> Result<Driver, TestCaseError> {
    let mut r = request(Kind::Scheduled, players, seats);
    r.min_entrants = 2;
    r.max_entrants = players + 10;
    r.levels =
        vec![level(10, None, Some(4)), level(20, None, Some(4)), level(50, None, Some(8)), level(100, None, Some(8))];
    if late_entries {
        r.late_registration_until_level = Some(2);
        r.reentry_until_level = Some(2);
    }
    if rebuys {
        r.rebuy_until_level = Some(2);
        r.rebuy_fee = Some(500);
        r.addon_chips = Some(1_500);
        r.addon_fee = Some(300);
        // And a minute's break every two levels (the clock runs in this mode).
        r.break_every_levels = Some(2);
        r.break_minutes = Some(1);
    }
    // Bounties everywhere (progressive on odd seeds): they change no chip and no place.
    r.bounty = Some(200);
    r.progressive_bounty = Some(seed % 2 == 1);
    // A satellite now and then: tickets worth 1,500 and the rest in money.
    r.satellite_for = (seed % 3 == 1).then_some(Uuid::from_u128(77));
    let mut d = Driver::new(r.validate().unwrap().with_ticket(1_500));
    for i in 1..=players {
        d.register(i).unwrap();
    }
    d.tick(60_000);
    prop_assert_eq!(d.t.status(), Status::Running);
    let mut dice = Dice(seed);
    let mut newcomers = players;
    let mut snapshots = 0;
    // The players dealt in the hand-for-hand round in play (the round: starts and rounds).
    let mut round: ((u32, u32), BTreeSet<Uuid>) = ((0, 0), BTreeSet::new());
    for step in 0..200_000 {
        check(&d.t, 1_000)?;
        if let Some(h) = d.t.hand_for_hand().filter(|h| !h.draining) {
            let now = (d.t.hand_for_hand_starts(), d.t.hand_for_hand_rounds());
            if round.0 != now {
                // A new round: the hands in play when hand-for-hand started are in its first.
                let in_play: Vec<TableNo> = h.dealt.iter().copied().collect();
                round = (now, in_play.iter().flat_map(|t| d.dealt(*t)).collect());
            }
        }
        if d.t.status() == Status::Finished {
            break;
        }
        let tables: Vec<TableNo> = d.t.floor().tables().keys().copied().collect();
        let in_hand: Vec<TableNo> = tables.iter().copied().filter(|t| d.t.floor().tables()[t].in_hand()).collect();
        let can_start: Vec<TableNo> =
            tables.iter().copied().filter(|&t| d.t.handle(Command::StartHand { table: t }).is_ok()).collect();
        if rebuys {
            let now = d.now + 1_000;
            if !d.tick(now).is_empty() {
                continue;
            }
            if dice.below(8) == 0 {
                // Someone buys a rebuy or the add-on (refused when not on offer to them).
                let all: Vec<Uuid> = d.t.entries().iter().map(|e| e.player).collect();
                let p = all[dice.below(all.len())];
                let draw = d.draw();
                let cmd = if dice.below(2) == 0 {
                    Command::Rebuy { player: p, draw, key: None }
                } else {
                    Command::AddOn { player: p }
                };
                let _ = d.command(cmd);
                continue;
            }
            if in_hand.is_empty() && can_start.is_empty() && d.t.wake_at().is_some() {
                // Waiting for a busted player's decision: the clock runs.
                let at = d.t.wake_at().unwrap_or(now);
                d.tick(at);
                continue;
            }
        }
        prop_assert!(!in_hand.is_empty() || !can_start.is_empty(), "stuck at step {}: {:?}", step, d.t.floor());
        if late_entries && dice.below(20) == 0 {
            // Someone busted re-enters, or a newcomer registers (refused once closed).
            let out_player = d.t.entries().iter().find(|e| e.state == EntryState::Out).map(|e| e.player);
            match out_player {
                Some(p) if dice.below(2) == 0 && d.t.live_entry(p).is_none() => {
                    let draw = d.draw();
                    let _ = d.command(Command::ReEnter { player: p, draw });
                }
                _ => {
                    newcomers += 1;
                    let _ = d.register(newcomers);
                }
            }
            continue;
        }
        if !can_start.is_empty() && (in_hand.is_empty() || dice.below(2) == 0) {
            let t = can_start[dice.below(can_start.len())];
            d.start_hand(t).unwrap();
            if d.t.hand_for_hand().is_some_and(|h| !h.draining) {
                for p in d.dealt(t) {
                    prop_assert!(round.1.insert(p), "{} plays twice in a hand-for-hand round", p);
                }
            }
            continue;
        }
        let t = in_hand[dice.below(in_hand.len())];
        // A random result: a winner; each other player loses nothing, part, or everything.
        let dealt = d.dealt(t);
        let winner = dealt[dice.below(dealt.len())];
        let mut stacks: BTreeMap<Uuid, Chips> = dealt.iter().map(|&p| (p, d.chips(p))).collect();
        let mut won = 0;
        for (&p, chips) in stacks.iter_mut() {
            if p == winner {
                continue;
            }
            let lost = match dice.below(4) {
                0 => *chips,
                1 => *chips / 3,
                _ => 0,
            };
            *chips -= lost;
            won += lost;
        }
        *stacks.get_mut(&winner).unwrap() += won;
        let draw = d.draw();
        let deal = d.deal_of(t);
        // The table names the winner as every busted player's eliminator, or (now and then, as
        // a table from before bounties) no one.
        let knockouts = if deal % 4 == 0 {
            Vec::new()
        } else {
            stacks
                .iter()
                .filter(|(_, c)| **c == 0)
                .map(|(p, _)| Knockout { player: *p, by: vec![(winner, won)] })
                .collect()
        };
        let stacks = stacks.into_iter().collect();
        d.command(Command::HandFinished { table: t, deal, stacks, knockouts, draw }).unwrap();
        // Tables between hands are within the spread of the smallest table (1 player with two
        // tables, 2 with more), except in a hand-for-hand round (balanced at its end).
        let counts: Vec<(usize, bool)> = d.t.floor().tables().values().map(|t| (t.count(), t.in_hand())).collect();
        let min = counts.iter().map(|c| c.0).min().unwrap_or(0);
        let spread = d.t.floor().spread();
        let in_round = d.t.hand_for_hand().is_some_and(|h| !h.draining && !h.dealt.is_empty());
        prop_assert!(in_round || counts.iter().all(|&(c, busy)| busy || c <= min + spread), "unbalanced: {:?}", counts);
        if counts.iter().all(|c| !c.1) && d.t.status() == Status::Running {
            if !in_round {
                prop_assert_eq!(counts.len(), d.t.floor().tables_needed(d.t.live()).max(1), "too many tables");
            }
            // Between rounds, hand-for-hand is on exactly at the bubble with two tables or more.
            let paid = d.t.prizes().len();
            let bubble = d.t.is_closed() && d.t.live() == paid + 1 && counts.len() >= 2;
            // Eliminations wait for the round's end only while a table has still to deal in it.
            if let Some(h) = d.t.hand_for_hand().filter(|h| !h.pending.is_empty()) {
                let waiting = d.t.floor().tables().iter().any(|(n, t)| t.count() >= 2 && !h.dealt.contains(n));
                prop_assert!(waiting, "eliminations left unplaced after the round");
            }
            if bubble {
                prop_assert!(d.t.hand_for_hand().is_some(), "no hand-for-hand at the bubble");
            }
            // A round, once begun, is played out (its eliminations are simultaneous); a new
            // round begins only before the bubble has burst.
            if d.t.hand_for_hand().is_some_and(|h| h.dealt.is_empty()) {
                prop_assert!(d.t.live() > paid && counts.len() >= 2, "hand-for-hand past the bubble");
            }
        }
        // Now and then the process restarts from a snapshot.
        if dice.below(50) == 0 {
            let back = Tournament::restore(&d.t.snapshot()).unwrap();
            prop_assert_eq!(&back, &d.t);
            d.t = back;
            snapshots += 1;
        }
    }
    let _ = snapshots;
    prop_assert_eq!(d.t.status(), Status::Finished, "no winner after the step limit");
    check_rounds(&d.log)?;
    Ok(d)
}

/// From the outputs alone: while hand-for-hand is on, no table deals twice in one round, and
/// no table deals before the first round is announced.
fn check_rounds(log: &[Output]) -> Result<(), TestCaseError> {
    let mut on = false;
    let mut round: Option<BTreeSet<TableNo>> = None;
    for o in log {
        match o {
            Output::HandForHand { on: now } => {
                on = *now;
                round = None;
            }
            Output::NextRound { .. } => round = Some(BTreeSet::new()),
            Output::Deal { table, .. } if on => {
                let dealt = round.as_mut();
                prop_assert!(dealt.is_some(), "table {} dealt before the round began", table);
                prop_assert!(dealt.is_some_and(|d| d.insert(*table)), "table {} dealt twice in a round", table);
            }
            _ => {}
        }
    }
    Ok(())
}

fn check_end(d: &Driver) -> Result<(), TestCaseError> {
    let t = &d.t;
    let n = t.entry_count();
    let results = t.results();
    let places: Vec<u32> = results.iter().map(|p| p.place).collect();
    prop_assert_eq!(places, (1..=n).collect::<Vec<_>>(), "every place once");
    prop_assert_eq!(results.iter().map(|p| p.prize).sum::<u64>(), t.pool(), "the pool is paid in full");
    let winner = t.entries().iter().find(|e| e.place == Some(1)).unwrap();
    prop_assert_eq!(winner.chips, bought(t, 1_000), "the winner holds every chip");
    prop_assert_eq!(t.live(), 1);
    // Every head was paid once: the bounties add up to the bounty of every entry.
    let bounty = t.spec().bounty_cents();
    prop_assert_eq!(t.bounties_paid(), bounty * u64::from(n));
    prop_assert_eq!(results.iter().map(|p| p.bounties).sum::<u64>(), bounty * u64::from(n));
    prop_assert!(t.entries().iter().all(|e| e.head == 0), "a head left unpaid");
    let paid: u64 = d.log.iter().map(|o| if let Output::Bounty { cents, .. } = o { *cents } else { 0 }).sum();
    prop_assert_eq!(paid, bounty * u64::from(n));
    // The ledger: what accounts paid = house fees (entries * 100); the pool and the bounties
    // came back.
    let net: i64 = d.accounts.values().sum();
    prop_assert_eq!(net, -100 * i64::from(n));
    // Ended once, last.
    prop_assert_eq!(d.log.iter().filter(|o| matches!(o, Output::Ended { .. })).count(), 1);
    let ended_last = matches!(d.log.last(), Some(Output::Ended { .. }));
    prop_assert!(ended_last, "the last output is not the end");
    prop_assert_eq!(&d.replayed(), t);
    Ok(())
}

#[test]
fn a_24_player_tournament_plays_to_the_end_with_hand_for_hand() {
    // 4 seats a table, so the bubble (5 left, 4 paid) is on two tables.
    let d = play(24, 4, 42, false).unwrap();
    check_end(&d).unwrap();
    assert_eq!(d.t.prizes().len(), 4);
    assert!(d.log.contains(&Output::HandForHand { on: true }), "no hand-for-hand");
    assert!(d.t.hand_for_hand_rounds() >= 1);
    let moves = count(&d.log, |o| matches!(o, Output::Move { .. }));
    assert!(moves > 0);
    assert_eq!(count(&d.log, |o| matches!(o, Output::FinalTable { .. })), 1);
}

/// Issue 30 item 7: a 1,000-entrant tournament (125 tables of 8, 150 places paid) played by
/// the core to the end, as the server drives it (random hands at random tables, several in
/// play at once): hand-for-hand starts at the bubble and its rounds complete, tables stay
/// balanced (checked after every hand) and every chip and cent is accounted for.
#[test]
fn a_1000_entrant_tournament_completes_hand_for_hand_rounds_at_the_bubble() {
    let d = play(1_000, 8, 6, false).unwrap();
    check_end(&d).unwrap();
    assert_eq!(d.t.prizes().len(), 150, "the default payouts pay 15 %");
    assert!(d.t.hand_for_hand_starts() >= 1, "no hand-for-hand");
    assert!(d.t.hand_for_hand_rounds() >= 1, "{} starts, no round completed", d.t.hand_for_hand_starts());
    let moves = count(&d.log, |o| matches!(o, Output::Move { .. }));
    let closed = count(&d.log, |o| matches!(o, Output::TableClosed { .. }));
    let hands = count(&d.log, |o| matches!(o, Output::Deal { .. }));
    assert_eq!(closed, 124, "every table but the final one broke");
    println!(
        "1,000 entrants: {hands} hands, {moves} moves, {closed} tables broken, hand-for-hand {} start(s), {} round(s)",
        d.t.hand_for_hand_starts(),
        d.t.hand_for_hand_rounds()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_tournaments_end_with_one_player_holding_every_chip(
        players in 2u32..60,
        seats in 2u8..=8,
        seed in any::<u64>(),
        late_entries in any::<bool>(),
    ) {
        let d = play(players, seats, seed, late_entries)?;
        check_end(&d)?;
    }

    #[test]
    fn random_rebuy_tournaments_pay_every_fee_back_and_conserve_chips(
        players in 2u32..40,
        seats in 2u8..=8,
        seed in any::<u64>(),
        late_entries in any::<bool>(),
    ) {
        let d = play_with(players, seats, seed, late_entries, true)?;
        check_end(&d)?;
        // Rebuys and add-ons were sold, and each is in the pool.
        let t = &d.t;
        let pool = 1_000 * u64::from(t.entry_count()) + 500 * u64::from(t.rebuys()) + 300 * u64::from(t.addons());
        prop_assert_eq!(t.pool(), pool);
    }
}

/// The random play below reaches every rule it is meant to check (else its properties would
/// hold vacuously).
#[test]
fn random_play_reaches_every_rule() {
    let (mut hfh, mut reentries, mut late, mut balance, mut breaks) = (0, 0, 0, 0, 0);
    for seed in 0..60u64 {
        let players = 2 + (seed * 7 % 58) as u32;
        let seats = 2 + (seed % 7) as u8;
        let d = play(players, seats, seed, seed % 2 == 0).unwrap();
        check_end(&d).unwrap();
        hfh += usize::from(d.t.hand_for_hand_rounds() > 0);
        let distinct: BTreeSet<Uuid> = d.t.entries().iter().map(|e| e.player).collect();
        reentries += d.t.entries().len() - distinct.len();
        late += distinct.iter().filter(|p| p.as_u128() > 1_000 + u128::from(players)).count();
        balance +=
            count(&d.log, |o| matches!(o, Output::Move { step, .. } if step.reason == crate::MoveReason::Balance));
        breaks += count(&d.log, |o| matches!(o, Output::TableClosed { .. }));
    }
    assert!(
        hfh >= 5 && reentries >= 5 && late >= 5 && balance >= 20 && breaks >= 20,
        "{hfh} {reentries} {late} {balance} {breaks}"
    );
}

#[test]
fn journal_entries_and_snapshots_round_trip_and_check_their_version() {
    let d = Driver::started(sng(3, 8), 3);
    let (at, input) = d.journal.last().cloned().unwrap();
    let entry = crate::Journaled { v: crate::TOURNAMENT_VERSION, n: d.t.applied(), at, input };
    assert_eq!(crate::Journaled::decode(&entry.encode()), Ok(entry.clone()));
    // The seed is in the journal (operators only), never in Debug output.
    assert!(entry.encode().contains("\"draw\":\""));
    let debug = format!("{entry:?}");
    assert!(debug.contains("Draw(<redacted>)") && !debug.contains("0707070707"), "{debug}");
    let old = crate::Journaled { v: 0, ..entry };
    assert_eq!(crate::Journaled::decode(&old.encode()), Err(crate::RestoreError::Version(0)));
    assert!(matches!(crate::Journaled::decode("{}"), Err(crate::RestoreError::Corrupt(_))));
    let snap = d.t.snapshot();
    assert_eq!(Tournament::restore(&snap).unwrap(), d.t);
    let older = snap.replacen("\"v\":1", "\"v\":2", 1);
    assert_eq!(Tournament::restore(&older), Err(crate::RestoreError::Version(2)));
    assert!(matches!(Tournament::restore("nonsense"), Err(crate::RestoreError::Corrupt(_))));
}

#[test]
fn the_lobby_sees_the_time_to_the_next_level() {
    let mut d = Driver::new(sng(2, 8));
    assert_eq!(d.t.next_level_at(), None);
    d.register(1).unwrap();
    d.register(2).unwrap();
    d.tick(5_000);
    assert_eq!(d.t.next_level_at(), Some(605_000));
    d.tick(605_000);
    assert_eq!(d.t.next_level_at(), Some(1_205_000));
}

#[test]
fn late_entries_open_a_table_and_the_final_table_waits_for_registration_to_close() {
    let mut r = request(Kind::Scheduled, 2, 2);
    r.max_entrants = 20;
    r.late_registration_until_level = Some(1);
    let mut d = Driver::new(r.validate().unwrap());
    d.register(1).unwrap();
    d.register(2).unwrap();
    let out = d.tick(60_000);
    assert!(!out.iter().any(|o| matches!(o, Output::FinalTable { .. })), "final table while entries may come");
    // Table 1 is full: the third entry opens table 2, the fourth joins it.
    let out = d.register(3).unwrap();
    assert!(matches!(out.as_slice(), [Output::Seat { at, .. }] if at.table == 2));
    let out = d.register(4).unwrap();
    assert!(matches!(out.as_slice(), [Output::Seat { at, .. }] if at.table == 2));
    let out = d.tick(60_000 + 600_000);
    assert!(out.iter().any(|o| matches!(o, Output::RegistrationClosed { entries: 4, .. })));
    assert!(!out.iter().any(|o| matches!(o, Output::FinalTable { .. })));
    // One bust at each table: 2 left, one table.
    let s = d.seated(1);
    d.bust(1, s[0], &[s[1]]);
    let s = d.seated(2);
    let out = d.bust(2, s[0], &[s[1]]);
    assert_eq!(count(&out, |o| matches!(o, Output::FinalTable { .. })), 1, "{out:?}");
    assert_eq!(count(&d.log, |o| matches!(o, Output::FinalTable { .. })), 1);
}

/// A seed whose last hand-for-hand round eliminated several players (the bubble burst in it):
/// the round is played out and its eliminations placed together. (The seed was chosen again
/// when balancing took TDA's spread of 2 with three tables or more: the old one's field
/// skipped the bubble in one hand.)
#[test]
fn a_round_that_bursts_the_bubble_is_played_out() {
    let d = play(52, 4, 11_400_714_819_323_198_485, false).unwrap();
    check_end(&d).unwrap();
    assert!(d.t.hand_for_hand_rounds() >= 1);
    // The last round eliminated several players (9 left, 8 paid): all placed at its end.
    let off = d.log.iter().position(|o| *o == Output::HandForHand { on: false }).unwrap();
    let begun = d.log[..off].iter().rposition(|o| matches!(o, Output::NextRound { .. })).unwrap();
    let eliminated = count(&d.log[begun..off], |o| matches!(o, Output::Eliminated { .. }));
    assert!(eliminated >= 2, "{eliminated}");
    let placed = d.log[off..].iter().take_while(|o| matches!(o, Output::HandForHand { .. } | Output::Placed(_)));
    assert_eq!(placed.filter(|o| matches!(o, Output::Placed(_))).count(), eliminated);
}

/// A sit-and-go of `n` with rebuys (500 cents, 1,000 chips) through level 1 and an add-on
/// (700 cents, 2,000 chips); levels of 10 minutes.
fn rebuy_sng(n: u32, max_rebuys: Option<u32>) -> Driver {
    let mut r = request(Kind::SitAndGo, n, 8);
    r.rebuy_until_level = Some(1);
    r.rebuy_fee = Some(500);
    r.max_rebuys = max_rebuys;
    r.addon_chips = Some(2_000);
    r.addon_fee = Some(700);
    let d = Driver::started(r.validate().unwrap(), n);
    assert_eq!(d.t.status(), Status::Running);
    d
}

fn rebuy(d: &mut Driver, p: Uuid) -> Result<Vec<Output>, TournamentError> {
    let draw = d.draw();
    d.command(Command::Rebuy { player: p, draw, key: None })
}

fn total_chips(t: &Tournament) -> Chips {
    t.entries().iter().map(|e| e.chips + e.pending).sum()
}

#[test]
fn a_player_busted_in_the_rebuy_period_is_offered_a_rebuy_and_is_seated_again() {
    let mut d = rebuy_sng(3, None);
    let (a, b) = (player(1), player(2));
    assert!(d.t.rebuy_open());
    assert!(!d.t.is_closed(), "the field is not known while rebuys are sold");
    d.now = 5_000;
    let out = d.bust(1, a, &[b]);
    let offer = Output::Offer { player: b, entry: 2, offer: Offer::Rebuy, until: 5_000 + REBUY_OFFER_MS };
    assert!(out.contains(&offer), "{out:?}");
    assert_eq!(d.t.wake_at(), Some(5_000 + REBUY_OFFER_MS));
    let out = rebuy(&mut d, b).unwrap();
    assert!(matches!(out.as_slice(), [Output::Seat { entry: 2, chips: 1_000, .. }]), "{out:?}");
    assert_eq!(d.accounts[&b], -1_100 - 500);
    let e = d.t.live_entry(b).unwrap();
    assert_eq!((e.no, e.rebuys, e.rebuy_offer_until), (2, 1, None));
    assert_eq!((d.t.rebuys(), d.t.pool(), total_chips(&d.t)), (1, 3_500, 4_000));
    // No one is placed for the bust that was bought back.
    assert!(d.t.results().is_empty());
    assert_eq!(d.t.entry_count(), 3, "a rebuy is not an entry");
}

#[test]
fn a_rebuy_at_or_below_the_starting_stack_during_a_hand_counts_when_the_hand_ends() {
    let mut d = rebuy_sng(3, None);
    let (a, b, c) = (player(1), player(2), player(3));
    // Everyone has the starting stack: a rebuy is allowed, added at once between hands.
    let out = rebuy(&mut d, a).unwrap();
    assert_eq!(out, [Output::Chips { player: a, entry: 1, chips: 2_000 }]);
    let again = rebuy(&mut d, a);
    assert_eq!(again.unwrap_err().code(), "not_offered", "2,000 is above the starting stack");
    // During a hand, c's rebuy waits for the hand's end; c loses every chip in it and is
    // still in with the rebuy's chips.
    d.start_hand(1).unwrap();
    assert!(rebuy(&mut d, c).unwrap().is_empty());
    assert_eq!(d.t.live_entry(c).unwrap().pending, 1_000);
    let out = d.finish(1, b, &[c]).unwrap();
    assert!(out.contains(&Output::Chips { player: c, entry: 3, chips: 1_000 }), "{out:?}");
    assert!(!out.iter().any(|o| matches!(o, Output::Eliminated { .. })), "{out:?}");
    assert_eq!(d.chips(c), 1_000);
    assert_eq!(d.chips(b), 2_000);
    assert_eq!(total_chips(&d.t), 5_000);
    assert_eq!(d.t.pool(), 4_000);
}

#[test]
fn max_rebuys_and_the_offer_clock_end_a_busted_player_s_tournament() {
    let mut d = rebuy_sng(2, Some(1));
    let (a, b) = (player(1), player(2));
    d.bust(1, a, &[b]);
    // Heads-up, the tournament waits for b's decision instead of ending.
    assert_eq!(d.t.status(), Status::Running);
    assert_eq!(d.t.handle(Command::StartHand { table: 1 }), Err(TournamentError::WaitForPlayers(1)));
    rebuy(&mut d, b).unwrap();
    d.now = 1_000;
    let out = d.bust(1, a, &[b]);
    // The one rebuy allowed is used: no offer, and the tournament is over.
    assert!(!out.iter().any(|o| matches!(o, Output::Offer { .. })), "{out:?}");
    assert!(out.iter().any(|o| matches!(o, Output::Ended { winner } if *winner == a)));
    assert_eq!(d.t.results().iter().map(|p| (p.place, p.prize)).collect::<Vec<_>>(), [(1, 2_500), (2, 0)]);
    let net: i64 = d.accounts.values().sum();
    assert_eq!(net, -200, "the house fees are all that is gone");

    // Busted again with every rebuy used while the period lasts: told so, not "lapsed".
    let mut d = rebuy_sng(3, Some(1));
    d.bust(1, a, &[b]);
    rebuy(&mut d, b).unwrap();
    d.bust(1, a, &[b]);
    assert!(d.t.rebuy_open());
    let refused = rebuy(&mut d, b).unwrap_err();
    assert_eq!(
        refused,
        TournamentError::NotOffered(Cow::Borrowed("this entry has bought every rebuy the tournament allows"))
    );

    // An offer that is not taken lapses on the clock, and then the tournament ends.
    let mut d = rebuy_sng(2, None);
    d.now = 2_000;
    d.bust(1, a, &[b]);
    assert!(d.tick(2_000 + REBUY_OFFER_MS - 1).is_empty());
    let out = d.tick(2_000 + REBUY_OFFER_MS);
    assert!(out.iter().any(|o| matches!(o, Output::Ended { winner } if *winner == a)), "{out:?}");
    assert_eq!(rebuy(&mut d, b), Err(TournamentError::RebuyClosed));
    assert_eq!(d.replayed(), d.t);
}

#[test]
fn the_add_on_is_sold_once_when_the_rebuy_period_ends_and_then_the_field_is_final() {
    let mut d = rebuy_sng(3, None);
    let (a, b, c) = (player(1), player(2), player(3));
    assert_eq!(d.command(Command::AddOn { player: a }), Err(TournamentError::AddOnClosed), "not yet");
    rebuy(&mut d, b).unwrap();
    let out = d.tick(600_000);
    let until = 600_000 + ADDON_MS;
    assert_eq!(out[0], Output::Level { level: 2 });
    for (i, p) in [a, b, c].into_iter().enumerate() {
        let offer = Output::Offer { player: p, entry: i as u32 + 1, offer: Offer::AddOn, until };
        assert!(out.contains(&offer), "{out:?}");
    }
    assert!(!d.t.rebuy_open() && !d.t.is_closed());
    assert_eq!(rebuy(&mut d, c), Err(TournamentError::RebuyClosed));
    assert_eq!(d.command(Command::AddOn { player: a }).unwrap(), [Output::Chips { player: a, entry: 1, chips: 3_000 }]);
    assert_eq!(d.command(Command::AddOn { player: a }).unwrap_err().code(), "not_offered");
    assert_eq!(d.command(Command::AddOn { player: player(9) }), Err(TournamentError::NotRegistered));
    d.command(Command::AddOn { player: b }).unwrap();
    assert_eq!(d.accounts[&a], -1_100 - 700);
    assert_eq!(d.accounts[&b], -1_100 - 500 - 700);
    // The window ends: the field is final and the pool is every fee but the house's.
    let out = d.tick(until);
    let pool = 3 * 1_000 + 500 + 2 * 700;
    assert!(out.iter().any(|o| matches!(o, Output::RegistrationClosed { entries: 3, pool: p, .. } if *p == pool)));
    assert_eq!(d.command(Command::AddOn { player: c }), Err(TournamentError::AddOnClosed));
    assert_eq!((d.t.rebuys(), d.t.addons(), total_chips(&d.t)), (1, 2, 3_000 + 1_000 + 4_000));
    // Played to the end: the prizes add up to every fee paid into the pool.
    d.bust(1, a, &[b]);
    d.bust(1, a, &[c]);
    let results = d.t.results();
    assert_eq!(results.iter().map(|p| p.prize).sum::<u64>(), pool);
    let net: i64 = d.accounts.values().sum();
    assert_eq!(net, -300, "the house fees are all that is gone");
    assert_eq!(d.replayed(), d.t);
}

/// The random rebuy play sells rebuys (to busted players too) and add-ons, so its properties
/// do not hold vacuously.
#[test]
fn random_rebuy_play_sells_rebuys_and_add_ons() {
    let (mut rebuys, mut addons, mut bought_back, mut lapsed, mut breaks) = (0, 0, 0, 0, 0);
    for seed in 0..24u64 {
        let d = play_with(2 + (seed * 5 % 30) as u32, 2 + (seed % 7) as u8, seed, seed % 3 == 0, true).unwrap();
        check_end(&d).unwrap();
        rebuys += d.t.rebuys();
        addons += d.t.addons();
        let offered = count(&d.log, |o| matches!(o, Output::Offer { offer: Offer::Rebuy, .. }));
        let taken = d.t.entries().iter().map(|e| e.rebuys).sum::<u32>() as usize;
        bought_back += offered.min(taken);
        lapsed += offered.saturating_sub(taken);
        breaks += count(&d.log, |o| matches!(o, Output::Break { .. }));
        assert_eq!(
            count(&d.log, |o| matches!(o, Output::Break { .. })),
            count(&d.log, |o| *o == Output::BreakOver) + usize::from(d.t.break_until().is_some())
        );
    }
    assert!(breaks >= 5, "{breaks} breaks");
    assert!(rebuys >= 20 && addons >= 5 && bought_back >= 5 && lapsed >= 5, "{rebuys} {addons} {bought_back} {lapsed}");
}

/// Breaks (issue 30): every `break_every_levels` levels, `break_minutes` without a new hand at
/// any table (a hand in play finishes first); the next level's clock starts when it ends.
#[test]
fn a_break_stops_every_table_dealing_until_it_ends_and_delays_the_next_level() {
    let mut r = request(Kind::SitAndGo, 3, 8);
    r.break_every_levels = Some(1);
    r.break_minutes = Some(5);
    let mut d = Driver::started(r.validate().unwrap(), 3);
    let (a, b) = (player(1), player(2));
    // A hand starts just before the level ends, and is still in play at the break.
    d.now = 599_000;
    d.start_hand(1).unwrap();
    let out = d.tick(600_000);
    let until = 600_000 + 5 * 60_000;
    assert_eq!(out[..2], [Output::Level { level: 2 }, Output::Break { until }], "{out:?}");
    assert_eq!(d.t.break_until(), Some(until));
    assert_eq!(d.t.wake_at(), Some(until), "the clock wakes for the break's end, not the level's");
    // The hand in play finishes; no new hand starts during the break.
    d.finish(1, a, &[]).unwrap();
    assert_eq!(d.t.handle(Command::StartHand { table: 1 }), Err(TournamentError::OnBreak));
    assert!(d.tick(until - 1).is_empty());
    assert_eq!(d.tick(until), [Output::BreakOver]);
    d.start_hand(1).unwrap();
    d.finish(1, a, &[b]).unwrap();
    // Level 2 lasts its 10 minutes from the break's end, then the next break.
    assert_eq!(d.t.wake_at(), Some(until + 600_000));
    let out = d.tick(until + 600_000);
    assert_eq!(out[..2], [Output::Level { level: 3 }, Output::Break { until: until + 600_000 + 300_000 }]);
    assert_eq!(d.replayed(), d.t);

    for (every, minutes, field) in [
        (Some(1), None, "break_minutes"),
        (None, Some(5), "break_every_levels"),
        (Some(0), Some(5), "break_every_levels"),
        // 3 levels: a break after the third would never come (the last level never ends).
        (Some(3), Some(5), "break_every_levels"),
        (Some(1), Some(MAX_BREAK_MINUTES + 1), "break_minutes"),
    ] {
        let mut r = request(Kind::SitAndGo, 3, 8);
        r.break_every_levels = every;
        r.break_minutes = minutes;
        assert_eq!(r.validate().unwrap_err().field, field);
    }
    let mut r = request(Kind::SitAndGo, 3, 8);
    (r.break_every_levels, r.break_minutes) = (Some(2), Some(5));
    assert!(r.validate().is_ok(), "a break after the second of three levels");
}

/// An operator's pause (issue 30 item 9): no table deals, every clock stops, and on resume
/// each goes on from where it stopped (the level, a break, a rebuy offer, the add-on).
#[test]
fn a_pause_stops_dealing_and_every_clock_until_it_is_resumed() {
    let mut r = request(Kind::SitAndGo, 3, 8);
    r.rebuy_until_level = Some(1);
    r.addon_chips = Some(1_000);
    let mut d = Driver::new(r.validate().unwrap());
    assert_eq!(d.command(Command::Pause), Err(TournamentError::NotRunning), "not before the start");
    for i in 1..=3 {
        d.register(i).unwrap();
    }
    d.tick(0);
    let (a, b) = (player(1), player(2));
    // b busts at 500 s: a rebuy offer until 560 s. A hand is in play when the pause comes.
    d.now = 500_000;
    d.bust(1, a, &[b]);
    let offer = d.t.entries().iter().find(|e| e.player == b).and_then(|e| e.rebuy_offer_until).unwrap();
    d.now = 520_000;
    d.start_hand(1).unwrap();
    assert_eq!(d.command(Command::Pause).unwrap(), [Output::Paused { paused: true }]);
    assert_eq!(d.command(Command::Pause), Err(TournamentError::Paused));
    assert_eq!(d.t.paused_since(), Some(520_000));
    assert_eq!(d.t.wake_at(), None, "no clock runs");
    // The hand in play finishes; nothing deals; nothing lapses or changes level however long.
    d.finish(1, a, &[]).unwrap();
    assert_eq!(d.t.handle(Command::StartHand { table: 1 }), Err(TournamentError::Paused));
    assert!(d.tick(900_000).is_empty());
    assert_eq!(d.t.level(), 1);
    // Resumed at 1,000 s: 480 s later, so every clock moves on by 480 s.
    d.now = 1_000_000;
    assert_eq!(d.command(Command::Resume).unwrap(), [Output::Paused { paused: false }]);
    assert_eq!(d.command(Command::Resume), Err(TournamentError::NotPaused));
    let moved = d.t.entries().iter().find(|e| e.player == b).and_then(|e| e.rebuy_offer_until);
    assert_eq!(moved, Some(offer + 480_000));
    assert_eq!(d.t.next_level_at(), Some(600_000 + 480_000));
    d.start_hand(1).unwrap();
    // Renamed while running: the name is journaled like any input.
    d.command(Command::Rename { name: "Sunday".into() }).unwrap();
    assert_eq!(d.t.spec().name, "Sunday");
    let code = Command::NewInviteCode { code: "NEWCODE12345".into() };
    assert_eq!(d.command(code), Err(TournamentError::NotPrivate), "a public tournament keeps no code");
    assert_eq!(d.replayed(), d.t);
}

fn deal_driver(deals: Option<bool>) -> Driver {
    let mut r = request(Kind::SitAndGo, 3, 8);
    r.payouts = Some(vec![50.0, 30.0, 20.0]);
    r.deals = deals;
    Driver::started(r.validate().unwrap(), 3)
}

fn propose(d: &mut Driver, who: Uuid, method: DealMethod, leave: Cents) -> Result<Vec<Output>, TournamentError> {
    d.command(Command::ProposeDeal { player: who, method, leave })
}

fn answer(d: &mut Driver, who: Uuid, accept: bool) -> Result<Vec<Output>, TournamentError> {
    d.command(Command::AnswerDeal { player: who, accept })
}

/// Issue 30 item 5: a deal at the final table. Proposed during a hand, nobody can accept
/// until it ends and no new hand deals while it is open; when all three accept, each is paid
/// the ICM figure of the chips then, the places go by chips and the tournament ends; prizes
/// plus deals are the pool.
#[test]
fn a_deal_everyone_accepts_pays_each_share_and_ends_the_tournament() {
    let mut d = deal_driver(None);
    let (a, b, c) = (player(1), player(2), player(3));
    d.start_hand(1).unwrap();
    d.leave_with(1, a, b, 400);
    // a 1,600, b 400, c 1,000: proposed during the next hand.
    d.start_hand(1).unwrap();
    let out = propose(&mut d, c, DealMethod::Icm, 0).unwrap();
    assert_eq!(out, [Output::DealChanged]);
    assert!(d.t.proposal().unwrap().accepted.is_empty(), "figures of a hand in play are not final");
    assert_eq!(
        propose(&mut d, a, DealMethod::ChipChop, 0),
        Err(TournamentError::NoDeal(Cow::Borrowed("a deal is already proposed")))
    );
    assert!(matches!(answer(&mut d, a, true), Err(TournamentError::NoDeal(_))), "not during the hand");
    d.finish(1, a, &[]).unwrap();
    assert!(matches!(d.t.handle(Command::StartHand { table: 1 }), Err(TournamentError::NoDeal(_))));
    let figures = d.t.deal_figures(DealMethod::Icm, 0).unwrap();
    assert_eq!(figures.iter().map(|(_, c)| c).sum::<Cents>(), 3_000);
    assert!(figures[0].1 > figures[2].1 && figures[2].1 > figures[1].1, "{figures:?}");
    answer(&mut d, a, true).unwrap();
    answer(&mut d, b, true).unwrap();
    assert_eq!(d.t.proposal().unwrap().accepted.len(), 2);
    let out = answer(&mut d, c, true).unwrap();
    let paid: Vec<(Uuid, Cents)> = out
        .iter()
        .filter_map(|o| match o {
            Output::DealPaid { player, cents, .. } => Some((*player, *cents)),
            _ => None,
        })
        .collect();
    assert_eq!(paid, figures.iter().map(|(no, c)| (player(*no), *c)).collect::<Vec<_>>());
    assert!(out.contains(&Output::Ended { winner: a }), "{out:?}");
    assert_eq!(d.t.status(), Status::Finished);
    let results = d.t.results();
    let places: Vec<(Uuid, u32, Cents, Cents)> =
        results.iter().map(|p| (p.player_id, p.place, p.prize, p.deal)).collect();
    assert_eq!(places, [(a, 1, 0, figures[0].1), (c, 2, 0, figures[2].1), (b, 3, 0, figures[1].1)]);
    let total: Cents = results.iter().map(|p| p.prize + p.deal).sum();
    assert_eq!(total, d.t.pool());
    assert_eq!(d.replayed(), d.t);
}

/// A deal that leaves money to play for: a decline ends a proposal, a new one is made, and
/// after it play goes on for what was left (the winner's); a proposal lapses on its own; an
/// operator can turn deals off.
#[test]
fn a_deal_may_leave_money_to_play_for_and_deals_can_be_declined_lapse_or_be_off() {
    let mut d = deal_driver(None);
    let (a, b, c) = (player(1), player(2), player(3));
    assert!(propose(&mut d, a, DealMethod::ChipChop, 1_501).is_err(), "more than first pays");
    propose(&mut d, a, DealMethod::ChipChop, 600).unwrap();
    assert_eq!(d.t.proposal().unwrap().accepted, [1].into(), "proposed between hands: the proposer accepts");
    answer(&mut d, b, false).unwrap();
    assert_eq!(d.t.proposal(), None, "declined: off");
    // Lapses.
    propose(&mut d, b, DealMethod::Icm, 0).unwrap();
    let until = d.t.proposal().unwrap().until;
    assert_eq!(d.t.wake_at(), Some(until.min(d.t.next_level_at().unwrap())));
    assert_eq!(d.tick(until), [Output::DealChanged]);
    assert_eq!(d.t.proposal(), None);
    // Made, leaving 600 to play for: 2,400 shared by chips (equal stacks: 800 each).
    propose(&mut d, a, DealMethod::ChipChop, 600).unwrap();
    answer(&mut d, b, true).unwrap();
    let out = answer(&mut d, c, true).unwrap();
    assert_eq!(out.iter().filter(|o| matches!(o, Output::DealPaid { cents: 800, .. })).count(), 3, "{out:?}");
    assert_eq!(d.t.status(), Status::Running);
    assert_eq!(d.t.prizes(), [600, 0, 0]);
    assert!(propose(&mut d, a, DealMethod::Icm, 0).is_err(), "one deal");
    d.bust(1, a, &[b]);
    d.bust(1, a, &[c]);
    assert_eq!(d.t.status(), Status::Finished);
    let results = d.t.results();
    assert_eq!(results[0].prize, 600);
    assert_eq!(results.iter().map(|p| p.prize + p.deal).sum::<Cents>(), d.t.pool());
    assert_eq!(d.replayed(), d.t);

    let mut d = deal_driver(Some(false));
    assert_eq!(
        propose(&mut d, player(1), DealMethod::Icm, 0),
        Err(TournamentError::NoDeal(Cow::Borrowed("this tournament takes no deals")))
    );
}

/// A rebuy bought on an offer that outlasts the rebuy period closes the field when nothing
/// else keeps it open (found in review: it stayed open to the next level change).
#[test]
fn a_rebuy_on_an_offer_past_the_rebuy_period_closes_the_field() {
    let mut r = request(Kind::SitAndGo, 3, 8);
    r.rebuy_until_level = Some(1);
    let mut d = Driver::started(r.validate().unwrap(), 3);
    let (a, b) = (player(1), player(2));
    d.now = 590_000;
    d.bust(1, a, &[b]);
    d.tick(600_000);
    assert_eq!(d.t.level(), 2);
    assert!(!d.t.is_closed(), "b's offer is still open");
    let out = rebuy(&mut d, b).unwrap();
    assert!(d.t.is_closed(), "{out:?}");
    assert!(out.iter().any(|o| matches!(o, Output::RegistrationClosed { entries: 3, pool: 4_000, .. })), "{out:?}");
    assert_eq!(d.replayed(), d.t);
}

/// A player back in on a rebuy offer that outlasted the rebuy period, while the add-on is sold,
/// is offered the add-on too (found in review: only the players in when the period ended were).
#[test]
fn a_late_rebuyer_is_offered_the_add_on() {
    let mut r = request(Kind::SitAndGo, 3, 8);
    r.rebuy_until_level = Some(1);
    r.addon_chips = Some(1_000);
    r.addon_fee = Some(300);
    let mut d = Driver::started(r.validate().unwrap(), 3);
    let (a, b, c) = (player(1), player(2), player(3));
    d.now = 590_000;
    d.bust(1, a, &[b]);
    let out = d.tick(600_000);
    let offered = |out: &[Output]| -> Vec<Uuid> {
        out.iter()
            .filter_map(|o| match o {
                Output::Offer { player, offer: Offer::AddOn, .. } => Some(*player),
                _ => None,
            })
            .collect()
    };
    assert_eq!(offered(&out), [a, c], "the players in when the period ended");
    let until = d.t.addon_until().unwrap();
    let out = rebuy(&mut d, b).unwrap();
    assert!(out.contains(&Output::Offer { player: b, entry: 2, offer: Offer::AddOn, until }), "{out:?}");
    d.command(Command::AddOn { player: b }).unwrap();
    assert_eq!(d.replayed(), d.t);
}

/// A rebuy bought with a key and asked again with it (a retry, a second press) is that purchase,
/// not a second one (issue 30 nit: with rebuy chips at the starting stack, a player bought
/// back in may rebuy again at once, so a repeat would have been charged twice); another key
/// buys another rebuy. The key is journaled: a replay keeps it.
#[test]
fn a_rebuy_asked_again_with_its_key_is_bought_once() {
    let mut r = request(Kind::SitAndGo, 3, 8);
    r.rebuy_until_level = Some(2);
    let mut d = Driver::started(r.validate().unwrap(), 3);
    let (a, b) = (player(1), player(2));
    d.bust(1, a, &[b]);
    let buy = |d: &mut Driver, key: &str| {
        let draw = d.draw();
        d.command(Command::Rebuy { player: b, draw, key: Some(key.to_owned()) })
    };
    buy(&mut d, "k1").unwrap();
    assert_eq!((d.t.rebuys(), d.chips(b)), (1, 1_000));
    assert_eq!(buy(&mut d, "k1"), Err(TournamentError::AlreadyBought));
    assert_eq!((d.t.rebuys(), d.chips(b)), (1, 1_000), "not bought twice");
    let back = d.replayed();
    assert_eq!(back, d.t);
    d.t = back;
    assert_eq!(buy(&mut d, "k1"), Err(TournamentError::AlreadyBought), "after a restart too");
    buy(&mut d, "k2").unwrap();
    assert_eq!((d.t.rebuys(), d.chips(b)), (2, 2_000), "another key, another rebuy");
}

/// A bounty tournament of `n` players (a sit-and-go at one table).
fn bounty_sng(n: u32, cents: u64, progressive: bool) -> Driver {
    let mut r = request(Kind::SitAndGo, n, 8);
    r.bounty = Some(cents);
    r.progressive_bounty = Some(progressive);
    Driver::started(r.validate().unwrap(), n)
}

/// Ends table 1's hand with these stacks after it and these knockouts.
fn finish_with(d: &mut Driver, after: &[(Uuid, Chips)], knockouts: Vec<Knockout>) -> Vec<Output> {
    let (deal, draw) = (d.deal_of(1), d.draw());
    d.command(Command::HandFinished { table: 1, deal, stacks: after.to_vec(), knockouts, draw }).unwrap()
}

fn bounties(out: &[Output]) -> Vec<(Uuid, EntryNo, u64, u64)> {
    out.iter()
        .filter_map(|o| match o {
            Output::Bounty { player, of, cents, head, .. } => Some((*player, *of, *cents, *head)),
            _ => None,
        })
        .collect()
}

/// Issue 30 item 3: the bounty is bought with the entry, paid to whoever took the busted
/// player's last pot (shared in proportion to what each took from it, the odd cent to the
/// larger share), to the chip leader when the table names no one, and the winner keeps their
/// own; the bounties add up to `bounty` x entries and the accounts lose the house fees only.
#[test]
fn a_bounty_goes_to_whoever_takes_the_last_pot_shared_by_what_each_took() {
    let mut d = bounty_sng(4, 500, false);
    let [a, b, c, e] = [player(1), player(2), player(3), player(4)];
    assert_eq!(d.t.spec().buy_in(), 1_000 + 100 + 500);
    assert_eq!(d.accounts[&a], -1_600, "the bounty is paid with the entry");
    assert_eq!(d.t.pool(), 4_000, "and is not in the prize pool");
    assert!(d.t.entries().iter().all(|x| x.head == 500));
    // e busts; a takes 600 of e's last pot and b 400 (a split pot): 300 and 200.
    d.start_hand(1).unwrap();
    let out = finish_with(
        &mut d,
        &[(a, 1_600), (b, 1_400), (c, 1_000), (e, 0)],
        vec![Knockout { player: e, by: vec![(a, 600), (b, 400)] }],
    );
    assert_eq!(bounties(&out), [(a, 4, 300, 500), (b, 4, 200, 500)]);
    // c busts; the shares are a third and two thirds of 500: 166 and 333, the odd cent to b.
    d.start_hand(1).unwrap();
    let out =
        finish_with(&mut d, &[(a, 2_100), (b, 1_900), (c, 0)], vec![Knockout { player: c, by: vec![(a, 1), (b, 2)] }]);
    assert_eq!(bounties(&out), [(a, 3, 166, 500), (b, 3, 334, 500)]);
    // b busts and the table names no one (or only the busted player): the chip leader takes it.
    d.start_hand(1).unwrap();
    let out = finish_with(&mut d, &[(a, 4_000), (b, 0)], vec![Knockout { player: b, by: vec![(b, 5)] }]);
    // a is paid b's head, then their own as the winner.
    assert_eq!(bounties(&out), [(a, 2, 500, 500), (a, 1, 500, 0)]);
    assert!(out.iter().any(|o| matches!(o, Output::Ended { winner } if *winner == a)));
    let won: Vec<(u32, u64)> = d.t.results().iter().map(|p| (p.place, p.bounties)).collect();
    assert_eq!(won, [(1, 300 + 166 + 500 + 500), (2, 200 + 334), (3, 0), (4, 0)]);
    assert_eq!(d.t.bounties_paid(), 4 * 500);
    let net: i64 = d.accounts.values().sum();
    assert_eq!(net, -400, "the house fees are all that is gone");
    assert_eq!(d.replayed(), d.t);
}

/// Progressive knockout: half of a head is paid, half goes onto the eliminator's head; the
/// winner is paid the head they built.
#[test]
fn a_progressive_bounty_pays_half_and_puts_half_on_the_winner_s_head() {
    let mut d = bounty_sng(3, 1_000, true);
    let [a, b, c] = [player(1), player(2), player(3)];
    let out = d.bust(1, a, &[c]);
    assert_eq!(bounties(&out), [(a, 3, 500, 1_500)]);
    assert_eq!(d.t.live_entry(a).unwrap().head, 1_500);
    // b takes a's 1,500: 750 paid, 750 more on b's head; then b wins and is paid 1,750.
    let out = d.bust(1, b, &[a]);
    assert_eq!(bounties(&out), [(b, 1, 750, 1_750), (b, 2, 1_750, 0)]);
    assert_eq!(d.t.bounties_paid(), 3_000);
    let net: i64 = d.accounts.values().sum();
    assert_eq!(net, -300);
    assert_eq!(d.replayed(), d.t);
}

/// A bust with a rebuy offer keeps its head until the offer lapses (then the eliminator is
/// paid); a rebuy keeps the head on. Creating with a bad bounty names the field.
#[test]
fn a_bounty_waits_for_the_rebuy_offer_and_a_rebuy_keeps_the_head() {
    let mut r = request(Kind::SitAndGo, 3, 8);
    r.rebuy_until_level = Some(1);
    r.bounty = Some(400);
    r.progressive_bounty = Some(true);
    let mut d = Driver::started(r.validate().unwrap(), 3);
    let [a, b, c] = [player(1), player(2), player(3)];
    d.now = 1_000;
    let out = d.bust(1, a, &[b]);
    assert!(bounties(&out).is_empty(), "not yet: b may buy back in");
    rebuy(&mut d, b).unwrap();
    assert_eq!(d.t.live_entry(b).unwrap().head, 400, "bought back in with the head on");
    d.now = 2_000;
    d.bust(1, c, &[b]);
    let out = d.tick(2_000 + REBUY_OFFER_MS);
    // The offer lapsed: c, the eliminator, is paid half and carries the rest.
    assert_eq!(bounties(&out), [(c, 2, 200, 600)]);
    assert_eq!(d.replayed(), d.t);

    for (bounty, progressive, field) in [
        (Some(0), None, "bounty"),
        (Some(crate::MAX_FEE + 1), None, "bounty"),
        (None, Some(true), "progressive_bounty"),
    ] {
        let mut r = request(Kind::SitAndGo, 3, 8);
        r.bounty = bounty;
        r.progressive_bounty = progressive;
        assert_eq!(r.validate().unwrap_err().field, field);
    }
}

/// A satellite of `n` with `entry_fee` cents for a target whose buy-in is 1,100.
fn satellite(n: u32, entry_fee: u64, tickets: Option<u32>) -> Driver {
    let mut r = request(Kind::SitAndGo, n, 8);
    r.entry_fee = entry_fee;
    r.satellite_for = Some(Uuid::from_u128(77));
    r.tickets = tickets;
    Driver::started(r.validate().unwrap().with_ticket(1_100), n)
}

/// A satellite whose pool buys a ticket for every entrant: each wins one, and the money left
/// is shared equally beside the tickets (it was paid to a place after them, which no field of
/// that size has, and lost: a random rebuy tournament found it).
#[test]
fn every_entrant_winning_a_ticket_shares_the_money_left() {
    let mut d = satellite(3, 1_200, None);
    let [a, b, c] = [player(1), player(2), player(3)];
    assert_eq!((d.t.pool(), d.t.tickets()), (3_600, 3));
    assert_eq!(d.t.prizes(), [1_200, 1_200, 1_200]);
    let mut placed = Vec::new();
    for out in [d.bust(1, a, &[c]), d.bust(1, a, &[b])] {
        placed.extend(out.iter().filter_map(|o| match o {
            Output::Placed(p) => Some((p.place, p.prize, p.ticket)),
            _ => None,
        }));
    }
    let target = Some(Uuid::from_u128(77));
    assert_eq!(placed, [(3, 1_200, target), (2, 1_200, target), (1, 1_200, target)]);
    assert_eq!(d.t.results().iter().map(|p| p.prize).sum::<u64>(), 3_600);
    assert_eq!(d.t.results().iter().filter(|p| p.ticket == target).count(), 3);
    assert_eq!(d.replayed(), d.t);

    // The case the random play found: 4 entries, rebuys and an add-on make 6,300, four
    // tickets of 1,500 take 6,000 and the 300 left were paid to a fifth place.
    let d = play_with(4, 8, 10_947_071_958_605_854_873, false, true).unwrap();
    assert_eq!((d.t.pool(), d.t.tickets(), d.t.entry_count()), (6_300, 4, 4));
    assert_eq!(d.t.prizes(), [1_575; 4]);
    check_end(&d).unwrap();

    // A money table longer than the places left after the tickets is cut to them: 5 entries,
    // 4 tickets, one place for the 600 left, not 60 % of it to 5th and 40 % to nobody.
    let mut r = request(Kind::SitAndGo, 5, 8);
    r.satellite_for = Some(Uuid::from_u128(77));
    r.payouts = Some(vec![60.0, 40.0]);
    let d = Driver::started(r.validate().unwrap().with_ticket(1_100), 5);
    assert_eq!((d.t.pool(), d.t.tickets()), (5_000, 4));
    assert_eq!(d.t.prizes(), [1_100, 1_100, 1_100, 1_100, 600]);
}

/// A deal in a satellite where every entrant would win a ticket pays money, not tickets: the
/// deal paid each its share, and a ticket on top would register (and charge) them again.
#[test]
fn a_deal_in_a_satellite_pays_money_and_no_ticket() {
    let mut d = satellite(3, 1_200, None);
    let [a, b, c] = [player(1), player(2), player(3)];
    assert_eq!(d.t.tickets(), 3);
    d.start_hand(1).unwrap();
    propose(&mut d, c, DealMethod::ChipChop, 0).unwrap();
    d.finish(1, a, &[]).unwrap();
    answer(&mut d, a, true).unwrap();
    answer(&mut d, b, true).unwrap();
    let out = answer(&mut d, c, true).unwrap();
    assert!(out.iter().any(|o| matches!(o, Output::Ended { .. })), "{out:?}");
    let results = d.t.results();
    assert_eq!(results.len(), 3);
    assert!(results.iter().all(|p| p.ticket.is_none()), "{results:?}");
    assert_eq!(results.iter().map(|p| p.prize + p.deal).sum::<Cents>(), d.t.pool());
    assert_eq!(d.replayed(), d.t);
}

/// Issue 30 item 6: a satellite's first places win tickets (each the target's buy-in), as
/// many as the pool buys; the money left goes to the next place; the bubble is the last paid
/// place; everything adds up to the pool and the accounts lose the house fees only.
#[test]
fn a_satellite_pays_tickets_and_the_rest_in_money() {
    let mut d = satellite(5, 500, None);
    let [a, b, c, x, y] = [player(1), player(2), player(3), player(4), player(5)];
    assert_eq!((d.t.pool(), d.t.tickets()), (2_500, 2));
    assert_eq!(d.t.prizes(), [1_100, 1_100, 300]);
    d.bust(1, a, &[y]);
    d.bust(1, a, &[x]);
    let out = d.bust(1, b, &[c]);
    let line = |out: &[Output]| out.iter().find_map(|o| if let Output::Placed(p) = o { Some(p.clone()) } else { None });
    let third = line(&out).unwrap();
    assert_eq!((third.place, third.prize, third.ticket), (3, 300, None), "the money after the tickets");
    let out = d.bust(1, a, &[b]);
    let placed: Vec<(u32, u64, Option<Uuid>)> = out
        .iter()
        .filter_map(|o| if let Output::Placed(p) = o { Some((p.place, p.prize, p.ticket)) } else { None })
        .collect();
    let target = Some(Uuid::from_u128(77));
    assert_eq!(placed, [(2, 1_100, target), (1, 1_100, target)]);
    assert_eq!(d.t.results().iter().map(|p| p.prize).sum::<u64>(), 2_500);
    let net: i64 = d.accounts.values().sum();
    assert_eq!(net, -500, "the house fees are all that is gone (the tickets are paid as prizes)");
    assert_eq!(d.replayed(), d.t);

    // At most `tickets`: the rest, even above a ticket's worth, is money.
    let d = satellite(5, 500, Some(1));
    assert_eq!((d.t.tickets(), d.t.prizes()), (1, vec![1_100, 1_400]));
    // A pool that buys no ticket pays money only.
    let d = satellite(2, 100, None);
    assert_eq!((d.t.tickets(), d.t.prizes()), (0, vec![200]));

    for (satellite_for, tickets, repeat, kind, field) in [
        (None, Some(1), None, Kind::SitAndGo, "tickets"),
        (Some(Uuid::from_u128(77)), Some(0), None, Kind::SitAndGo, "tickets"),
        (None, None, Some(60), Kind::SitAndGo, "repeat_minutes"),
        (None, None, Some(0), Kind::Scheduled, "repeat_minutes"),
        (None, None, Some(crate::MAX_REPEAT_MINUTES + 1), Kind::Scheduled, "repeat_minutes"),
    ] {
        let mut r = request(kind, 3, 8);
        r.satellite_for = satellite_for;
        r.tickets = tickets;
        r.repeat_minutes = repeat;
        assert_eq!(r.validate().unwrap_err().field, field);
    }
    let mut r = request(Kind::Scheduled, 3, 8);
    r.repeat_minutes = Some(60);
    assert_eq!(r.validate().unwrap().repeat_minutes, Some(60));
}

/// Issue 30 item 7: no player plays two hands in one hand-for-hand round. 12 players, 4 seats
/// a table, 8 paid: the bubble is at 9 players, on three tables (2, 3 and 4 players). The
/// table of 3 deals first and busts two (7 left: two tables are enough). Breaking it then
/// would seat its last player, who has just played the round's hand, at a table still to deal
/// in the round: they would play it twice. The floor is balanced between rounds instead: the
/// round is played out at three tables, then hand-for-hand ends and the short table is broken.
#[test]
fn tables_are_balanced_between_hand_for_hand_rounds_not_during_them() {
    let mut r = request(Kind::SitAndGo, 12, 4);
    r.start_at = None;
    r.payouts = Some(vec![30.0, 20.0, 14.0, 10.0, 8.0, 7.0, 6.0, 5.0]);
    let mut d = Driver::started(r.validate().unwrap(), 12);
    while d.t.live() > 9 {
        assert!(d.t.hand_for_hand().is_none());
        let table = *d.t.floor().tables().keys().next().unwrap();
        let seated = d.seated(table);
        d.bust(table, seated[0], &[seated[1]]);
    }
    assert!(d.log.contains(&Output::HandForHand { on: true }));
    let mut tables: Vec<TableNo> = d.t.floor().tables().keys().copied().collect();
    tables.sort_by_key(|t| d.seated(*t).len());
    assert_eq!(tables.iter().map(|t| d.seated(*t).len()).collect::<Vec<_>>(), [2, 3, 4]);
    let mut played: BTreeSet<Uuid> = BTreeSet::new();
    let deal = |d: &mut Driver, t: TableNo, played: &mut BTreeSet<Uuid>| {
        d.start_hand(t).unwrap();
        for p in d.dealt(t) {
            assert!(played.insert(p), "{p} plays a second hand in the round at table {t}");
        }
    };
    // The table of 3 busts two: nobody moves while the round is in play.
    let first = tables[1];
    deal(&mut d, first, &mut played);
    let s = d.seated(first);
    let out = d.finish(first, s[0], &[s[1], s[2]]).unwrap();
    assert!(!out.iter().any(|o| matches!(o, Output::Move { .. } | Output::TableClosed { .. })), "{out:?}");
    let lone = s[0];
    assert_eq!(d.seated(first), [lone]);
    // The other two deal their round's hand (with nobody from the first table).
    for t in [tables[0], tables[2]] {
        deal(&mut d, t, &mut played);
        let s = d.seated(t);
        let out = d.leave_with(t, s[0], s[1], 500);
        if t == tables[0] {
            assert!(!out.iter().any(|o| matches!(o, Output::Move { .. })), "{out:?}");
            continue;
        }
        // The round's end: the two busts are 8th and 9th, hand-for-hand is off, the short
        // table is broken and its player moved.
        let mut places: Vec<u32> = placed(&out).iter().map(|p| p.0).collect();
        places.sort_unstable();
        assert_eq!(places, [8, 9], "{out:?}");
        assert!(out.contains(&Output::HandForHand { on: false }), "{out:?}");
        assert!(out.contains(&Output::TableClosed { table: first }), "{out:?}");
        let moved: Vec<Uuid> =
            out.iter().filter_map(|o| if let Output::Move { player, .. } = o { Some(*player) } else { None }).collect();
        assert_eq!(moved, [lone]);
    }
    let mut counts: Vec<usize> = d.t.floor().tables().values().map(|t| t.count()).collect();
    counts.sort_unstable();
    assert_eq!(counts, [3, 4]);
    check_rounds(&d.log).unwrap();
    assert_eq!(d.replayed(), d.t);
}
