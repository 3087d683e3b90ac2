//! The core without tokio: a driver plays it the way the server's actor does (handle, journal,
//! apply, the clock), with bot clients that read only their frames.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::collections::BTreeMap;

use stud_engine::bot::Bot;
use stud_engine::{Action, Betting, Seed, TableConfig, Variant};
use stud_proto::{ErrorCode, ServerMsg};
use uuid::Uuid;

use crate::{Command, ConnId, Decision, Due, Entry, Input, JOURNAL_VERSION, JournalSeed, Millis, Movement, Output};
use crate::{TableCore, TableSpec, Timing, Who};

const TIMING: Timing = Timing { hand_pause_ms: 100, showdown_pause_ms: 300, disconnect_grace_ms: 500 };

/// One call the actor made on the core, in order: what a recorded input log holds.
#[derive(Clone, Debug)]
enum Call {
    Handle(Millis, Command),
    Apply(Millis, Input, Option<(ConnId, Option<String>)>),
    Due(Millis),
}

/// Plays a core as the actor does, keeping the journal, the last snapshot and every call.
struct Driver {
    core: TableCore,
    journal: Vec<Entry>,
    /// the last snapshot and the journal position it stands at
    snapshot: (String, u64),
    calls: Vec<(Call, Vec<Output>)>,
    /// chips in players' accounts, as the server's bank would move them
    accounts: BTreeMap<Uuid, i64>,
    seeds: u64,
}

fn spec(variant: Variant) -> TableSpec {
    let config = TableConfig::new(variant, 10, 25, 50, 100);
    TableSpec::public(Uuid::from_u128(7), "t".into(), config, (1_000, 10_000), (1_000, 2_000))
}

fn who(n: u128) -> Who {
    Who { player_id: Uuid::from_u128(100 + n), session_id: Uuid::from_u128(200 + n), name: format!("p{n}") }
}

impl Driver {
    fn new(variant: Variant) -> Driver {
        Driver::with_spec(spec(variant))
    }

    fn with_spec(spec: TableSpec) -> Driver {
        let core = TableCore::new(TIMING, spec, 0);
        let snapshot = (core.snapshot(), 0);
        Driver { core, journal: Vec::new(), snapshot, calls: Vec::new(), accounts: BTreeMap::new(), seeds: 0 }
    }

    fn command(&mut self, now: Millis, cmd: Command) -> Vec<Output> {
        let mut out = Vec::new();
        let origin = origin_of(&cmd);
        let decision = self.core.handle(now, cmd.clone(), &mut out);
        self.calls.push((Call::Handle(now, cmd), out.clone()));
        if let Decision::Journal { input, debit } = decision {
            if let Some((player, chips)) = debit {
                *self.accounts.entry(player).or_default() -= chips as i64;
            }
            out.extend(self.journal_apply(now, input, origin));
        }
        out
    }

    fn journal_apply(&mut self, now: Millis, input: Input, origin: Option<(ConnId, Option<String>)>) -> Vec<Output> {
        let entry = Entry { v: JOURNAL_VERSION, n: self.core.applied() + 1, at: now, input: input.clone() };
        self.journal.push(Entry::decode(&entry.encode()).unwrap());
        let mut out = Vec::new();
        self.core.apply(now, &input, origin.clone(), &mut out).unwrap();
        for o in &out {
            match o {
                Output::Snapshot(s) => self.snapshot = (s.clone(), self.core.applied()),
                Output::Ledger { player, kind: Movement::CashOut, amount } => {
                    *self.accounts.entry(*player).or_default() += *amount as i64
                }
                _ => {}
            }
        }
        self.calls.push((Call::Apply(now, input, origin), out.clone()));
        out
    }

    /// Runs the clock at `now`.
    fn tick(&mut self, now: Millis) -> Vec<Output> {
        let mut all = Vec::new();
        loop {
            let due = self.core.due(now);
            self.calls.push((Call::Due(now), Vec::new()));
            let input = match due {
                None => return all,
                Some(Due::StartHand) => {
                    self.seeds += 1;
                    let mut seed = [0u8; 32];
                    seed[..8].copy_from_slice(&self.seeds.to_le_bytes());
                    Input::StartHand { hand_id: Uuid::from_u128(u128::from(self.seeds)), seed: JournalSeed(Seed(seed)) }
                }
                Some(Due::Input(input)) => input,
            };
            all.extend(self.journal_apply(now, input, None));
        }
    }

    /// A core rebuilt from the last snapshot and the journal after it.
    fn rebuilt(&self, now: Millis) -> TableCore {
        let mut core = TableCore::restore(TIMING, &self.snapshot.0, now).unwrap();
        for e in self.journal.iter().filter(|e| e.n > self.snapshot.1) {
            assert_eq!(e.n, core.applied() + 1);
            core.apply(e.at, &e.input, None, &mut Vec::new()).unwrap();
        }
        core
    }
}

fn origin_of(cmd: &Command) -> Option<(ConnId, Option<String>)> {
    match cmd {
        Command::Sit { conn, request_id, .. }
        | Command::Act { conn, request_id, .. }
        | Command::SitOut { conn, request_id, .. }
        | Command::AutoMuck { conn, request_id, .. }
        | Command::Waitlist { conn, request_id, .. }
        | Command::TopUp { conn, request_id, .. }
        | Command::Leave { conn, request_id } => Some((*conn, request_id.clone())),
        _ => None,
    }
}

fn frames_to(out: &[Output], conn: ConnId) -> Vec<ServerMsg> {
    out.iter()
        .filter_map(|o| match o {
            Output::Send { conn: c, frame } if *c == conn => Some(serde_json::from_str(frame).unwrap()),
            _ => None,
        })
        .collect()
}

/// Seats `n` players (conn i = player i) with 2,000 chips each.
fn seat_players(d: &mut Driver, n: u8) {
    for i in 1..=n {
        let conn = ConnId::from(i);
        d.command(0, Command::Join { conn, who: who(u128::from(i)), request_id: None, watch: true, banned: false });
        d.command(0, Command::Sit { conn, request_id: Some(format!("s{i}")), seat: Some(i), buy_in: 2_000 });
    }
}

/// Plays `steps` clock ticks 50 ms apart; bots answer their prompts (some late, some never,
/// some after a disconnect). Returns the time reached.
fn play(d: &mut Driver, players: u8, steps: u64, bot_seed: u64, each: impl FnMut(&Driver, Millis)) -> Millis {
    play_with(d, players, steps, bot_seed, |_| false, each)
}

/// [`play`], leaving every prompt for which `to_clock` holds unanswered (the clock acts).
fn play_with(
    d: &mut Driver,
    players: u8,
    steps: u64,
    bot_seed: u64,
    to_clock: impl Fn(&[Action]) -> bool,
    mut each: impl FnMut(&Driver, Millis),
) -> Millis {
    let mut bots: Vec<Bot> = (0..players).map(|i| Bot::new(bot_seed + u64::from(i))).collect();
    let mut pending: Vec<(ConnId, ServerMsg)> = Vec::new();
    let mut now = 0;
    for step in 0..steps {
        now = step * 50;
        let mut out = d.tick(now);
        if step % 37 == 5 {
            // Table talk now and then (answered by `handle`, journaled never): part of the
            // recorded calls the replay tests compare byte for byte.
            let conn = ConnId::from(step % u64::from(players)) + 1;
            let text = format!("gl {step} <i>from</i> {conn}");
            out.extend(d.command(now, Command::Chat { conn, request_id: None, text, banned: false }));
        }
        for (conn, msg) in std::mem::take(&mut pending) {
            if let ServerMsg::YourTurn { hand_id, seq, legal, wagers, .. } = msg {
                assert!(wagers.is_empty(), "fixed limit: each wager has one size, in `legal`");
                let bot = &mut bots[usize::try_from(conn).unwrap() - 1];
                let roll = bot.next_u64() % 20;
                if roll == 0 || to_clock(&legal) {
                    continue; // never answers: the clock acts
                }
                let action = bot.choose(&legal);
                let key = format!("{conn}-{seq}");
                let cmd = Command::Act { conn, request_id: Some(key.clone()), hand_id, seq, key: key.clone(), action };
                let replies = d.command(now, cmd.clone());
                // One reply per request: an ack ("applied") or an error, carrying its id.
                let answers: Vec<ServerMsg> = frames_to(&replies, conn)
                    .into_iter()
                    .filter(|m| match m {
                        ServerMsg::Ack { request_id, .. } | ServerMsg::Error { request_id, .. } => {
                            request_id.as_deref() == Some(key.as_str())
                        }
                        _ => false,
                    })
                    .collect();
                assert_eq!(answers.len(), 1, "{answers:?}");
                out.extend(replies);
                if roll == 1 {
                    // The same request again: answered as a duplicate, applied once.
                    let again = d.command(now, cmd);
                    assert!(
                        frames_to(&again, conn)
                            .iter()
                            .any(|m| matches!(m, ServerMsg::Ack { detail, .. } if detail.starts_with("duplicate")))
                    );
                }
            }
        }
        for conn in 1..=ConnId::from(players) {
            for msg in frames_to(&out, conn) {
                if matches!(msg, ServerMsg::YourTurn { .. }) {
                    pending.push((conn, msg));
                }
            }
        }
        each(d, now);
    }
    now
}

#[test]
fn same_inputs_give_the_same_outputs_byte_for_byte() {
    for variant in stud_engine::config::ALL_VARIANTS {
        let mut d = Driver::new(variant);
        seat_players(&mut d, 5);
        // A watcher who leaves and a player who drops and comes back.
        d.command(0, Command::Join { conn: 9, who: who(9), request_id: None, watch: true, banned: false });
        let end = play(&mut d, 5, 600, 11, |_, _| {});
        d.command(end, Command::Disconnect { conn: 9 });
        assert!(d.core.status().1 >= 5, "{variant:?}: hands were played");
        let frames: usize = d.calls.iter().flat_map(|(_, o)| o).filter(|o| matches!(o, Output::Send { .. })).count();
        assert!(frames > 1_000, "{frames} frames");
        let chats = d.calls.iter().filter(|(c, o)| matches!(c, Call::Handle(_, Command::Chat { .. })) && !o.is_empty());
        assert!(chats.count() > 5, "chat is among the calls replayed");

        // Replay the recorded calls into a fresh core: every output, frame bytes included.
        let mut core = TableCore::new(TIMING, spec(variant), 0);
        for (i, (call, expected)) in d.calls.iter().enumerate() {
            let mut out = Vec::new();
            match call {
                Call::Handle(now, cmd) => {
                    core.handle(*now, cmd.clone(), &mut out);
                }
                Call::Apply(now, input, origin) => core.apply(*now, input, origin.clone(), &mut out).unwrap(),
                Call::Due(now) => {
                    core.due(*now);
                }
            }
            assert_eq!(&out, expected, "{variant:?}: call {i} {call:?}");
        }
    }
}

#[test]
fn snapshot_plus_journal_rebuilds_the_table_after_every_input() {
    for variant in stud_engine::config::ALL_VARIANTS {
        let mut d = Driver::new(variant);
        seat_players(&mut d, 4);
        let mut checked = 0;
        let mut mid_hand = 0;
        play(&mut d, 4, 400, 5, |d, now| {
            let rebuilt = d.rebuilt(now);
            assert_eq!(rebuilt.fingerprint(), d.core.fingerprint(), "{variant:?} at {now}");
            // At most one hand is replayed: the journal after the snapshot starts no second hand.
            let starts =
                d.journal.iter().filter(|e| e.n > d.snapshot.1 && matches!(e.input, Input::StartHand { .. })).count();
            assert!(starts <= 1, "{starts} hands since the last snapshot");
            checked += 1;
            mid_hand += usize::from(d.core.in_play());
        });
        assert!(checked >= 400 && mid_hand > 100, "{checked} checks, {mid_hand} mid-hand");
    }
}

#[test]
fn chips_are_conserved_between_accounts_stacks_and_pots() {
    let mut d = Driver::new(Variant::Stud8);
    seat_players(&mut d, 6);
    play(&mut d, 6, 800, 21, |d, _| {
        let on_table: i64 = d.core.stacks().iter().map(|(_, c)| *c as i64).sum::<i64>() + d.core.pot() as i64;
        let accounts: i64 = d.accounts.values().sum();
        assert_eq!(on_table + accounts, 0, "every chip taken from an account is on the table");
    });
    // Everyone leaves: every chip goes back.
    for i in 1..=6 {
        d.command(40_000, Command::Leave { conn: i, request_id: None });
    }
    d.tick(50_000);
    assert!(d.accounts.values().all(|c| *c == 0) || d.core.stacks().is_empty());
    assert_eq!(d.accounts.values().sum::<i64>(), 0);
}

#[test]
fn a_restored_hand_continues_with_the_same_id_cards_and_player_to_act() {
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 3);
    let mut now = 0;
    while !d.core.in_play() {
        now += 50;
        d.tick(now);
    }
    let before = d.core.fingerprint();
    let (hand, _) = d.core.status();
    // The process dies here; a new one rebuilds and resumes.
    let mut core = d.rebuilt(now + 5_000);
    assert_eq!(core.fingerprint(), before);
    assert_eq!(core.status().0, hand);
    let mut out = Vec::new();
    core.apply(now + 5_000, &Input::Resume, None, &mut out).unwrap();
    // The player to act has a whole clock again, from the restart.
    let deadline = core.wake_at().unwrap();
    assert_eq!(deadline, now + 5_000 + 1_000 + 2_000, "action time plus time bank from the restart");
    // A player reconnecting gets a snapshot of that hand and their prompt.
    let to_act = core.to_act_seat().unwrap();
    let conn = 77;
    let w = who(u128::from(to_act));
    core.handle(now + 5_100, Command::Join { conn, who: w, request_id: None, watch: false, banned: false }, &mut out);
    let msgs = frames_to(&out, conn);
    assert!(matches!(&msgs[0], ServerMsg::Snapshot { table, .. } if table.hand.as_ref().map(|h| h.hand_id) == hand));
    assert!(msgs.iter().any(|m| matches!(m, ServerMsg::YourTurn { .. })), "{msgs:?}");
}

#[test]
fn a_journal_that_does_not_fit_is_refused_not_applied() {
    let mut d = Driver::new(Variant::Razz);
    seat_players(&mut d, 2);
    let mut core = d.rebuilt(0);
    // Seat 1 is taken: a second sit there is not something this table journaled.
    let bad = Input::Sit { seat: 1, who: who(5), buy_in: 1_000 };
    let err = core.apply(10, &bad, None, &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("cannot be applied"), "{err}");
    // Another version's entry does not decode.
    let text = Entry { v: JOURNAL_VERSION + 1, n: 1, at: 0, input: Input::Resume }.encode();
    assert!(matches!(Entry::decode(&text), Err(crate::RestoreError::Version(_))));
    assert!(matches!(Entry::decode("{not json"), Err(crate::RestoreError::Corrupt(_))));
    assert!(TableCore::restore(TIMING, "[]", 0).is_err());
}

#[test]
fn a_timeout_folds_and_sits_out_and_a_disconnect_shortens_the_clock_to_the_grace() {
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 3);
    let mut now = 0;
    while !d.core.in_play() {
        now += 50;
        d.tick(now);
    }
    let seat = d.core.to_act_seat().unwrap();
    let full = d.core.wake_at().unwrap();
    assert_eq!(full, now + 1_000 + 2_000);
    d.command(now + 10, Command::Disconnect { conn: ConnId::from(seat) });
    assert_eq!(d.core.wake_at(), Some(now + 10 + 500), "the grace");
    let out = d.tick(now + 510);
    assert!(out.iter().any(|o| matches!(o, Output::Metric(crate::Metric::Timeout))));
    // Coming back restores the clock (for the next turn the bank is spent).
    d.command(
        now + 600,
        Command::Join { conn: 50, who: who(u128::from(seat)), request_id: None, watch: false, banned: false },
    );
    let frames = frames_to(&d.calls.last().unwrap().1, 50);
    assert!(matches!(frames[0], ServerMsg::Snapshot { .. }));
}

#[test]
fn refusals_are_typed_and_change_nothing() {
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 2);
    let applied = d.core.applied();
    let cases = [
        (
            Command::Sit { conn: 1, request_id: Some("a".into()), seat: Some(2), buy_in: 2_000 },
            ErrorCode::AlreadySeated,
        ),
        (Command::Sit { conn: 99, request_id: Some("b".into()), seat: Some(3), buy_in: 2_000 }, ErrorCode::NotSeated),
        (Command::TopUp { conn: 99, request_id: Some("c".into()), amount: 10 }, ErrorCode::NotSeated),
        (Command::TopUp { conn: 1, request_id: Some("d".into()), amount: 9_000 }, ErrorCode::BuyInOutOfRange),
        (
            Command::Act {
                conn: 1,
                request_id: Some("e".into()),
                hand_id: Uuid::nil(),
                seq: 0,
                key: "k".into(),
                action: stud_engine::Action::Fold,
            },
            ErrorCode::Stale,
        ),
    ];
    for (cmd, code) in cases {
        let conn = match &cmd {
            Command::Sit { conn, .. } | Command::TopUp { conn, .. } | Command::Act { conn, .. } => *conn,
            _ => unreachable!(),
        };
        let out = d.command(10, cmd);
        let msgs = frames_to(&out, conn);
        assert!(matches!(&msgs[..], [ServerMsg::Error { code: c, .. }] if *c == code), "{msgs:?}");
    }
    assert_eq!(d.core.applied(), applied, "nothing was journaled");
    // A third player who watches sits: journaled with the debit.
    d.command(10, Command::Join { conn: 3, who: who(3), request_id: None, watch: true, banned: false });
    let mut out = Vec::new();
    let decision = d.core.handle(10, Command::Sit { conn: 3, request_id: None, seat: None, buy_in: 1_500 }, &mut out);
    assert!(
        matches!(decision, Decision::Journal { input: Input::Sit { seat: 3, .. }, debit: Some((p, 1_500)) } if p == who(3).player_id),
        "{decision:?}"
    );
}

/// Every frame a connection got, in order, over the whole run.
fn all_frames_to(d: &Driver, conn: ConnId) -> Vec<ServerMsg> {
    d.calls.iter().flat_map(|(_, out)| frames_to(out, conn)).collect()
}

#[test]
fn event_frames_carry_the_pots_and_prompts_their_amounts() {
    use stud_engine::{Action, Event};
    for variant in [Variant::Stud, Variant::Stud8, Variant::Razz] {
        let mut d = Driver::new(variant);
        seat_players(&mut d, 4);
        d.command(0, Command::Join { conn: 9, who: who(9), request_id: None, watch: true, banned: false });
        let mut seen = 0;
        let mut pots_total = 0u64;
        let mut checked = 0;
        play(&mut d, 4, 500, 3, |d, _| {
            // The pots the watcher was last sent add up to the chips in the pot now.
            let frames = all_frames_to(d, 9);
            for m in &frames[seen..] {
                match m {
                    ServerMsg::Event { pots: Some(pots), .. } => pots_total = pots.iter().map(|p| p.amount).sum(),
                    ServerMsg::Event {
                        event: Event::Ante { .. } | Event::Call { .. } | Event::Bet { .. },
                        pots,
                        ..
                    } => {
                        panic!("a chip moved without pots: {pots:?}")
                    }
                    _ => {}
                }
            }
            seen = frames.len();
            assert_eq!(pots_total, d.core.pot(), "{variant:?}");
            checked += usize::from(d.core.in_play());
        });
        assert!(checked > 50);
        // Every prompt says what a call or the bring-in costs, and the others see the bank.
        let mut calls = 0;
        for conn in 1..=4 {
            for m in all_frames_to(&d, conn) {
                if let ServerMsg::YourTurn { legal, to_call, bring_in_amount, hand_strength, .. } = m {
                    assert_eq!(legal.contains(&Action::Call), to_call.is_some_and(|c| c > 0), "{legal:?} {to_call:?}");
                    assert_eq!(legal.contains(&Action::BringIn), bring_in_amount.is_some_and(|c| c > 0 && c <= 25));
                    assert!(hand_strength.is_some(), "a hand in play has a strength");
                    calls += usize::from(to_call.is_some());
                }
            }
        }
        assert!(calls > 10);
        assert!(
            all_frames_to(&d, 9).iter().any(|m| matches!(m, ServerMsg::Turn { time_bank_ms, .. } if *time_bank_ms > 0))
        );
        // Shown hands and awards with a hand carry its code.
        assert!(all_frames_to(&d, 9).iter().any(
            |m| matches!(m, ServerMsg::Event { event: Event::Shown { .. }, hand_code: Some(c), .. } if c.high.is_some() || c.low.is_some())
        ));
    }
}

#[test]
fn a_snapshot_carries_the_hand_so_far_redacted_for_its_viewer() {
    use stud_engine::{Event, Viewer};
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 3);
    d.command(0, Command::Join { conn: 9, who: who(9), request_id: None, watch: true, banned: false });
    let mut joins = 0;
    play(&mut d, 3, 400, 8, |_, _| {});
    // Play on step by step; mid-hand, a new watcher and seat 1 ask for snapshots.
    let mut now = 20_000;
    let mut bots: Vec<Bot> = (0..3).map(Bot::new).collect();
    while joins < 5 && now < 60_000 {
        now += 50;
        let mut out = d.tick(now);
        if d.core.in_play() {
            joins += 1;
            let conn = 100 + joins;
            let snap = d.command(
                now,
                Command::Join { conn, who: who(50 + u128::from(joins)), request_id: None, watch: true, banned: false },
            );
            let seat1 = d.command(now, Command::Snapshot { conn: 1, request_id: None });
            for (frames, viewer) in [
                (frames_to(&snap, conn), Viewer::Observer),
                (frames_to(&seat1, 1), Viewer::Seat(stud_engine::Seat::FIRST)),
            ] {
                let ServerMsg::Snapshot { table, .. } = &frames[0] else { panic!("{frames:?}") };
                let hand = table.hand.as_ref().unwrap();
                assert!(matches!(hand.events.first(), Some(Event::HandStarted { .. })));
                assert!(hand.events.iter().all(|e| !e.leaks_to(viewer)), "{viewer:?} sees only its own down cards");
                let total: u64 = hand.pots.iter().map(|p| p.amount).sum();
                assert_eq!(total, d.core.pot());
                // The same events the watcher (or seat 1) was sent since the hand began.
                let sent: Vec<Event> = all_frames_to(&d, if viewer == Viewer::Observer { 9 } else { 1 })
                    .into_iter()
                    .filter_map(|m| match m {
                        ServerMsg::Event { hand_id, event, .. } if hand_id == hand.hand_id => Some(event),
                        _ => None,
                    })
                    .collect();
                assert_eq!(hand.events, sent, "{viewer:?}");
                if viewer != Viewer::Observer {
                    assert!(hand.events.iter().any(|e| matches!(e, Event::Dealt { up: false, card: Some(_), .. })));
                }
            }
        }
        // Bots answer, so the hands go on.
        for conn in 1..=3u64 {
            for msg in frames_to(&std::mem::take(&mut out), conn) {
                if let ServerMsg::YourTurn { hand_id, seq, legal, .. } = msg {
                    let action = bots[usize::try_from(conn).unwrap() - 1].choose(&legal);
                    out.extend(d.command(
                        now,
                        Command::Act { conn, request_id: None, hand_id, seq, key: format!("x{seq}"), action },
                    ));
                }
            }
        }
    }
    assert_eq!(joins, 5);
}

#[test]
fn seats_say_why_they_sit_out_and_tables_how_to_show_money() {
    use stud_proto::{MoneyDisplay, SitOutReason};
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 3);
    let reason = |d: &mut Driver, conn: ConnId, seat: u8| {
        let out = d.command(1, Command::Snapshot { conn, request_id: None });
        let ServerMsg::Snapshot { table, .. } = &frames_to(&out, conn)[0] else { panic!() };
        assert_eq!(table.display, MoneyDisplay::Cash);
        let info = table.seats.iter().find(|s| s.seat == seat).unwrap();
        assert_eq!(info.sitting_out, info.sitting_out_reason.is_some());
        info.sitting_out_reason
    };
    d.command(0, Command::SitOut { conn: 2, request_id: None, out: true });
    assert_eq!(reason(&mut d, 1, 2), Some(SitOutReason::Requested));
    d.command(0, Command::SitOut { conn: 2, request_id: None, out: false });
    assert_eq!(reason(&mut d, 1, 2), None);
    // Nobody answers: the clock folds someone, who sits out for it after the hand.
    let mut now = 0;
    while reason(&mut d, 1, 1).is_none() && reason(&mut d, 1, 2).is_none() && reason(&mut d, 1, 3).is_none() {
        now += 50;
        d.tick(now);
        assert!(now < 60_000);
    }
    let reasons: Vec<_> = (1..=3).filter_map(|s| reason(&mut d, 1, s)).collect();
    assert!(reasons.iter().all(|r| *r == SitOutReason::Timeout), "{reasons:?}");
    // A table shown in chips says so to clients and in the lobby.
    let mut spec = spec(Variant::Razz);
    spec.display = MoneyDisplay::Chips;
    let core = TableCore::new(TIMING, spec, 0);
    assert_eq!(core.summary(0).display, MoneyDisplay::Chips);
    assert_eq!(core.spec().settings().display, MoneyDisplay::Chips);
}

#[test]
fn chat_reaches_everyone_watching_from_seated_players_only_and_journals_nothing() {
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 2);
    d.command(0, Command::Join { conn: 9, who: who(9), request_id: None, watch: true, banned: false });
    let applied = d.core.applied();
    let chat = |conn: ConnId, text: &str, banned: bool| Command::Chat {
        conn,
        request_id: Some(format!("c{conn}")),
        text: text.to_owned(),
        banned,
    };
    let error_of = |out: &[Output], conn: ConnId| {
        frames_to(out, conn).into_iter().find_map(|m| match m {
            ServerMsg::Error { code, .. } => Some(code),
            _ => None,
        })
    };

    // One frame for everyone (the watcher too): the seat, the name, the text as sent (trimmed,
    // a newline made a space; markup is the client's to show as text), the table's time.
    let out = d.command(10, chat(1, "  hello <b>all</b>\nok ", false));
    for conn in [1, 2, 9] {
        let got: Vec<ServerMsg> =
            frames_to(&out, conn).into_iter().filter(|m| matches!(m, ServerMsg::Chat { .. })).collect();
        assert_eq!(
            got,
            vec![ServerMsg::Chat {
                table_id: d.core.spec().id,
                seat: 1,
                player_id: who(1).player_id,
                name: "p1".into(),
                text: "hello <b>all</b> ok".into(),
                at_ms: 10,
            }],
            "conn {conn}"
        );
    }
    assert!(frames_to(&out, 1).iter().any(|m| matches!(m, ServerMsg::Ack { detail, .. } if detail == "sent")));

    // Refusals, typed, to the writer only.
    assert_eq!(error_of(&d.command(11, chat(9, "hi", false)), 9), Some(ErrorCode::NotSeated), "observers read only");
    assert_eq!(error_of(&d.command(11, chat(2, "hi", true)), 2), Some(ErrorCode::Forbidden), "banned: muted");
    assert_eq!(error_of(&d.command(11, chat(2, " \n ", false)), 2), Some(ErrorCode::Malformed), "empty");
    let long = "é".repeat(stud_proto::CHAT_MAX_CHARS + 1);
    assert_eq!(error_of(&d.command(11, chat(2, &long, false)), 2), Some(ErrorCode::TooLong));
    let out = d.command(11, chat(2, &"é".repeat(stud_proto::CHAT_MAX_CHARS), false));
    assert_eq!(error_of(&out, 2), None, "exactly the limit is fine (characters, not bytes)");
    let refused = d.command(11, chat(9, "hi", false));
    assert!(frames_to(&refused, 1).is_empty(), "a refusal goes to the writer only");

    // The rate: five at once (one was just sent), then one every 2 s.
    for i in 0..4 {
        assert_eq!(error_of(&d.command(12, chat(2, &format!("m{i}"), false)), 2), None, "message {i}");
    }
    assert_eq!(error_of(&d.command(12, chat(2, "one too many", false)), 2), Some(ErrorCode::RateLimited));
    assert_eq!(error_of(&d.command(12, chat(1, "p1 has its own bucket", false)), 1), None);
    assert_eq!(error_of(&d.command(2_012, chat(2, "later", false)), 2), None, "one more after 2 s");

    // Nothing of it is journaled: a replay of the journal sends no chat.
    assert_eq!(d.core.applied(), applied);

    // The operator's switch: off, and the snapshot says so; a private table is off by default.
    let mut spec = d.core.spec().clone();
    spec.chat = Some(false);
    d.command(3_000, Command::Update { spec: Box::new(spec.clone()) });
    assert_eq!(error_of(&d.command(3_001, chat(1, "hi", false)), 1), Some(ErrorCode::ChatOff));
    let snap = d.core.snapshot_frame(9, 3_001);
    let ServerMsg::Snapshot { table, .. } = serde_json::from_str(&snap).unwrap() else { panic!("{snap}") };
    assert!(!table.chat);
    spec.chat = None;
    spec.private = true;
    assert!(!spec.chat_on(), "private tables: off unless turned on");
    spec.chat = Some(true);
    assert!(spec.chat_on());
    spec.private = false;
    spec.chat = None;
    assert!(spec.chat_on(), "public tables: on by default");
}

#[test]
fn a_showdown_keeps_the_next_hand_waiting_for_the_showdown_pause() {
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 4);
    play(&mut d, 4, 3_000, 21, |_, _| {});
    // Every hand start after a showdown comes at least the showdown pause after its end; one
    // without a showdown at least the (shorter) hand pause after it.
    let (mut showdown_gaps, mut short_gaps, mut other_gaps) = (0, 0, 0);
    let mut ended: Option<(Millis, bool)> = None;
    for (call, out) in &d.calls {
        let Call::Apply(at, input, _) = call else { continue };
        if let (Input::StartHand { .. }, Some((end, showdown))) = (input, ended.take()) {
            let gap = at - end;
            if showdown {
                assert!(gap >= TIMING.showdown_pause_ms, "{gap} ms after a showdown");
                showdown_gaps += 1;
            } else {
                assert!(gap >= TIMING.hand_pause_ms, "{gap} ms after a hand without a showdown");
                other_gaps += 1;
                short_gaps += usize::from(gap < TIMING.showdown_pause_ms);
            }
        }
        for o in out {
            if let Output::Hand(h) = o {
                ended = Some((*at, h.record.result.as_ref().is_some_and(|r| !r.showdown.is_empty())));
            }
        }
    }
    assert!(showdown_gaps > 3 && other_gaps > 0, "{showdown_gaps} showdowns, {other_gaps} others");
    assert!(short_gaps > 0, "a hand without a showdown waits only the hand pause");
}

/// Issue 31 (client item 12): a seat with auto-muck on is never asked to show or muck; its
/// beaten hands are mucked at once (and the others' are still asked). Replayed from the
/// journal, the table is the same.
#[test]
fn auto_muck_answers_a_beaten_hand_s_choice_at_once() {
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 4);
    for conn in [1, 2] {
        let id = format!("m{conn}");
        let out = d.command(0, Command::AutoMuck { conn, request_id: Some(id.clone()), on: true });
        let acked = frames_to(&out, conn)
            .into_iter()
            .any(|m| matches!(m, ServerMsg::Ack { request_id, .. } if request_id.as_deref() == Some(id.as_str())));
        assert!(acked, "{out:?}");
        let own = frames_to(&out, conn)
            .into_iter()
            .any(|m| matches!(m, ServerMsg::Snapshot { table, .. } if table.auto_muck));
        assert!(own, "the seat's own snapshot says auto-muck is on");
        let other =
            frames_to(&out, 3).into_iter().any(|m| matches!(m, ServerMsg::Snapshot { table, .. } if table.auto_muck));
        assert!(!other, "no one else's snapshot says so");
    }
    // An observer has no seat to set it for.
    d.command(0, Command::Join { conn: 9, who: who(9), request_id: None, watch: true, banned: false });
    let out = d.command(0, Command::AutoMuck { conn: 9, request_id: Some("x".into()), on: true });
    assert!(frames_to(&out, 9).iter().any(|m| matches!(m, ServerMsg::Error { code: ErrorCode::NotSeated, .. })));
    let end = play(&mut d, 4, 4_000, 21, |_, _| {});
    let (mut asked, mut auto) = (0, 0);
    for (_, out) in &d.calls {
        for conn in 1..=4 {
            for m in frames_to(out, conn) {
                if let ServerMsg::YourTurn { legal, .. } = m
                    && legal.contains(&Action::Muck)
                {
                    assert!(conn > 2, "seat {conn} has auto-muck on and was asked to show or muck");
                    asked += 1;
                }
            }
        }
        for o in out {
            if let Output::Hand(h) = o {
                let mucks = h.record.actions.iter().filter(|a| a.action == Action::Muck);
                auto += mucks.filter(|a| a.seat.number() <= 2).count();
            }
        }
    }
    assert!(auto > 0 && asked > 0, "auto-mucked {auto}, others asked {asked}");
    assert_eq!(d.rebuilt(end).snapshot(), d.core.snapshot());
}

/// The lobby's average pot (issue 31, client item 12): every chip awarded in each of the last
/// 25 hands, averaged; kept across a restart.
#[test]
fn the_lobby_line_averages_the_last_pots() {
    let mut d = Driver::new(Variant::Stud8);
    assert_eq!(d.core.summary(0).average_pot, 0, "no hand yet");
    seat_players(&mut d, 3);
    // Bots that always answer (no one times out and sits out), until 40 hands are over.
    let mut bots: Vec<Bot> = (0..3).map(|i| Bot::new(50 + i)).collect();
    let (mut now, mut hands) = (0, 0);
    while hands < 40 && now < 10_000_000 {
        now += 50;
        let mut out = d.tick(now);
        while let Some((conn, hand_id, seq, legal)) = (1..=3).find_map(|conn| {
            frames_to(&out, conn).into_iter().find_map(|m| match m {
                ServerMsg::YourTurn { hand_id, seq, legal, .. } => Some((conn, hand_id, seq, legal)),
                _ => None,
            })
        }) {
            let action = bots[usize::try_from(conn).unwrap() - 1].choose(&legal);
            let key = format!("{conn}-{seq}");
            out = d.command(now, Command::Act { conn, request_id: None, hand_id, seq, key, action });
            hands += out.iter().filter(|o| matches!(o, Output::Hand(_))).count();
        }
    }
    let end = now;
    let pots: Vec<u64> = d
        .calls
        .iter()
        .flat_map(|(_, out)| out.iter())
        .filter_map(|o| match o {
            Output::Hand(h) => Some(h.record.result.as_ref().map_or(0, |r| r.awards.iter().map(|a| a.amount).sum())),
            _ => None,
        })
        .collect();
    assert!(pots.len() > crate::core::RECENT_POTS, "{} hands", pots.len());
    let last = &pots[pots.len() - crate::core::RECENT_POTS..];
    let average = last.iter().sum::<u64>() / last.len() as u64;
    assert!(average > 0);
    assert_eq!(d.core.summary(end).average_pot, average);
    assert_eq!(d.rebuilt(end).summary(end).average_pot, average, "the same after a restart");
}

#[test]
fn every_request_is_answered_once_with_its_id() {
    let mut d = Driver::new(Variant::Stud);
    // A watcher's join is answered (a snapshot, then the ack); a sit is answered by its ack.
    let out =
        d.command(0, Command::Join { conn: 1, who: who(1), request_id: Some("j".into()), watch: true, banned: false });
    let msgs = frames_to(&out, 1);
    assert!(
        matches!(&msgs[..], [ServerMsg::Snapshot { request_id: None, .. }, ServerMsg::Ack { request_id: Some(r), detail, .. }] if r == "j" && detail == "joined"),
        "{msgs:?}"
    );
    let out = d.command(0, Command::Sit { conn: 1, request_id: Some("s".into()), seat: Some(1), buy_in: 2_000 });
    let msgs = frames_to(&out, 1);
    assert!(
        matches!(&msgs[..], [ServerMsg::Ack { request_id: Some(r), detail, .. }, ServerMsg::Snapshot { request_id: None, .. }] if r == "s" && detail == "seated at 1"),
        "{msgs:?}"
    );
    // The subscription that comes with a sit (or a reconnecting hello) is not answered.
    let out = d.command(0, Command::Join { conn: 2, who: who(2), request_id: None, watch: false, banned: false });
    let msgs = frames_to(&out, 2);
    assert!(matches!(&msgs[..], [ServerMsg::Snapshot { .. }]), "{msgs:?}");
    d.command(0, Command::Sit { conn: 2, request_id: Some("s2".into()), seat: Some(2), buy_in: 2_000 });
    // A requested snapshot is the reply: it carries the id.
    let out = d.command(0, Command::Snapshot { conn: 1, request_id: Some("snap".into()) });
    let msgs = frames_to(&out, 1);
    assert!(matches!(&msgs[..], [ServerMsg::Snapshot { request_id: Some(r), .. }] if r == "snap"), "{msgs:?}");
    // From a connection that is not subscribed: `not_seated`, with the id.
    let out = d.command(0, Command::Snapshot { conn: 5, request_id: Some("nope".into()) });
    let msgs = frames_to(&out, 5);
    assert!(
        matches!(&msgs[..], [ServerMsg::Error { request_id: Some(r), code: ErrorCode::NotSeated, .. }] if r == "nope"),
        "{msgs:?}"
    );
    // An accepted action: "applied" first, then its events; the same key again: "duplicate".
    let mut now = 0;
    while !d.core.in_play() {
        now += 50;
        d.tick(now);
    }
    let seat = d.core.to_act_seat().unwrap();
    let conn = ConnId::from(seat);
    let prompt =
        d.calls.iter().rev().flat_map(|(_, o)| frames_to(o, conn)).find(|m| matches!(m, ServerMsg::YourTurn { .. }));
    let Some(ServerMsg::YourTurn { hand_id, seq, legal, .. }) = prompt else { panic!("no prompt") };
    let act = Command::Act { conn, request_id: Some("a".into()), hand_id, seq, key: "k".into(), action: legal[0] };
    let msgs = frames_to(&d.command(now, act.clone()), conn);
    assert!(
        matches!(&msgs[0], ServerMsg::Ack { request_id: Some(r), detail, .. } if r == "a" && detail == "applied"),
        "{msgs:?}"
    );
    assert!(matches!(&msgs[1], ServerMsg::Event { .. }), "{msgs:?}");
    assert_eq!(msgs.iter().filter(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })).count(), 1);
    let msgs = frames_to(&d.command(now, act), conn);
    assert!(matches!(&msgs[..], [ServerMsg::Ack { detail, .. }] if detail.starts_with("duplicate")), "{msgs:?}");
}

#[test]
fn a_finished_hand_keeps_its_totals_in_the_snapshot() {
    let mut d = Driver::new(Variant::Stud);
    seat_players(&mut d, 3);
    let mut now = 0;
    // Everyone folds to the bring-in or checks: the clock plays the hand.
    while d.core.status().1 == 0 || d.core.in_play() {
        now += 50;
        d.tick(now);
    }
    let ServerMsg::Snapshot { table, .. } = serde_json::from_str(&d.core.snapshot_frame(1, now)).unwrap() else {
        panic!("a snapshot")
    };
    let hand = table.hand.expect("the finished hand");
    assert_eq!(hand.view.phase, stud_engine::Phase::Over);
    let pots: u64 = hand.pots.iter().map(|p| p.amount).sum();
    let committed: u64 = hand.view.seats.iter().map(|s| s.committed).sum();
    let won: u64 = hand.view.seats.iter().map(|s| s.won).sum();
    assert!(pots >= 30, "the antes at least: {:?}", hand.pots);
    assert_eq!((committed, won), (pots, pots), "{:?}", hand.view.seats);
    assert_eq!(hand.view.pots, hand.pots);
}

/// A tournament's table: seats and chips come from the tournament (no ledger), a client
/// cannot buy in, a hand is dealt only when the tournament allows it and with its stakes,
/// away players are dealt in and folded by the clock, and a busted player's seat empties with
/// a report of every stack.
#[test]
fn a_tournament_table_deals_only_when_told_and_reports_each_hand() {
    let mut spec = spec(Variant::Stud);
    spec.tournament = Some(Uuid::from_u128(99));
    let mut d = Driver::new(Variant::Stud);
    d.core = TableCore::new(TIMING, spec, 0);
    let players: Vec<Who> = (1..=3).map(who).collect();
    for (i, w) in players.iter().enumerate() {
        let seat = u8::try_from(i).unwrap() + 1;
        let out = d.command(0, Command::TournamentSeat { who: w.clone(), seat, chips: 300 });
        assert!(!out.iter().any(|o| matches!(o, Output::Ledger { .. })), "tournament chips are not money: {out:?}");
    }
    // A client cannot sit (or top up) with a buy-in.
    let conn = 9;
    d.command(0, Command::Join { conn, who: who(9), request_id: None, watch: true, banned: false });
    let out = d.command(0, Command::Sit { conn, request_id: Some("s".into()), seat: Some(4), buy_in: 1_000 });
    assert!(frames_to(&out, conn).iter().any(|m| matches!(m, ServerMsg::Error { code: ErrorCode::Forbidden, .. })));
    assert_eq!(d.core.stacks().len(), 3);
    // No hand without the tournament's word.
    assert!(d.tick(10_000).is_empty());
    assert!(!d.core.in_play());
    let config = TableConfig::new(Variant::Razz, 20, 30, 60, 120);
    let ids: Vec<Uuid> = players.iter().take(2).map(|w| w.player_id).collect();
    d.command(10_000, Command::Deal { config, level: 3, players: ids.clone(), deal: 7 });
    d.tick(10_000 + TIMING.hand_pause_ms);
    assert!(d.core.in_play());
    // The same hand ordered again while it is played (a cluster's resync whose order crossed
    // the first) is not journaled, and no second hand waits behind this one.
    let again =
        d.command(10_000 + TIMING.hand_pause_ms, Command::Deal { config, level: 3, players: ids.clone(), deal: 7 });
    assert!(again.is_empty(), "{again:?}");
    assert!(!d.core.deal_pending());
    assert_eq!(d.core.spec().config, config, "the level's stakes apply to this hand");
    // The lobby line and a snapshot name the tournament and the hand's level.
    let line = d.core.summary(10_000 + TIMING.hand_pause_ms);
    assert_eq!((line.tournament_id, line.tournament_level), (Some(Uuid::from_u128(99)), Some(3)));
    let ServerMsg::Snapshot { table, .. } =
        serde_json::from_str(&d.core.snapshot_frame(conn, 10_000 + TIMING.hand_pause_ms)).unwrap()
    else {
        panic!("not a snapshot")
    };
    assert_eq!((table.tournament_id, table.tournament_level), (Some(Uuid::from_u128(99)), Some(3)));
    // Nobody answers: the clock plays every turn (away players are folded, not removed).
    let mut now = 10_000 + TIMING.hand_pause_ms;
    let mut report = None;
    while report.is_none() && now < 200_000 {
        now += 500;
        for o in d.tick(now) {
            if let Output::TournamentHand(r) = o {
                assert_eq!(r.deal, 7, "the report carries the number the tournament dealt it with");
                report = Some(r.stacks);
            }
        }
    }
    let report = report.expect("the hand ended");
    let dealt: Vec<Uuid> = report.iter().map(|(p, _)| *p).collect();
    assert_eq!(dealt, ids, "exactly the players the tournament named");
    assert_eq!(report.iter().map(|(_, c)| c).sum::<u64>(), 600, "chips conserved");
    assert_eq!(d.core.stacks().len(), 3, "folded by the clock, still seated");
    // The next hand waits for the tournament again; the finished one ordered again is not
    // dealt again.
    assert!(!d.core.deal_pending());
    assert!(d.command(now, Command::Deal { config, level: 3, players: ids.clone(), deal: 7 }).is_empty());
    assert!(!d.core.deal_pending());
    assert!(d.tick(now + 60_000).iter().all(|o| !matches!(o, Output::TournamentHand(_))));
    assert!(!d.core.in_play());
    // The tournament moves a player away: the seat empties, no chips to any account.
    let out = d.command(now, Command::TournamentUnseat { player: players[2].player_id });
    assert!(!out.iter().any(|o| matches!(o, Output::Ledger { .. })));
    assert_eq!(d.core.stacks().len(), 2);
    // A rebuy between hands: the stack becomes the tournament's figure, with no ledger; a
    // player the table let go is seated again with it; a lower figure changes nothing.
    let stack = |d: &Driver, p: Uuid| d.core.stacks().iter().find(|s| s.0 == p).map(|s| s.1);
    let before = stack(&d, ids[0]).unwrap();
    let out = d.command(now, Command::TournamentChips { who: players[0].clone(), seat: 1, chips: before + 500 });
    assert!(!out.iter().any(|o| matches!(o, Output::Ledger { .. })), "{out:?}");
    assert_eq!(stack(&d, ids[0]), Some(before + 500));
    d.command(now, Command::TournamentChips { who: players[0].clone(), seat: 1, chips: 10 });
    assert_eq!(stack(&d, ids[0]), Some(before + 500));
    d.command(now, Command::TournamentChips { who: players[2].clone(), seat: 3, chips: 700 });
    assert_eq!(stack(&d, players[2].player_id), Some(700));
    // During a hand it waits (the tournament gives it again before the next deal).
    d.command(now, Command::Deal { config, level: 3, players: ids.clone(), deal: 8 });
    d.tick(now + TIMING.hand_pause_ms);
    assert!(d.core.in_play());
    let out = d.command(
        now + TIMING.hand_pause_ms,
        Command::TournamentChips { who: players[1].clone(), seat: 2, chips: 5_000 },
    );
    assert!(out.is_empty(), "{out:?}");
    assert_ne!(stack(&d, ids[1]), Some(5_000));
    // The rebuilt table is the same table.
    let now = now + TIMING.hand_pause_ms;
    assert_eq!(d.rebuilt(now).fingerprint(), d.core.fingerprint());
}

/// Bounties (issue 30): a tournament table's report names, for each busted player, the
/// players awarded the last pot it had chips in and what each took from it. Three players
/// all-in on the ante against a bigger stack, Stud Hi/Lo, over many deals (splits included).
#[test]
fn a_tournament_report_names_who_took_each_busted_player_s_last_pot() {
    let (mut busts, mut shared) = (0, 0);
    for k in 0..40u64 {
        let mut spec = spec(Variant::Stud8);
        spec.tournament = Some(Uuid::from_u128(99));
        let mut d = Driver::with_spec(spec);
        d.seeds = k * 1_000;
        let players: Vec<Who> = (1..=4).map(who).collect();
        for (i, w) in players.iter().enumerate() {
            let chips = if i == 3 { 60 } else { 20 };
            d.command(0, Command::TournamentSeat { who: w.clone(), seat: i as u8 + 1, chips });
        }
        let ids: Vec<Uuid> = players.iter().map(|w| w.player_id).collect();
        let config = TableConfig::new(Variant::Stud8, 20, 30, 60, 120);
        d.command(0, Command::Deal { config, level: 1, players: ids, deal: 1 });
        let (mut report, mut record) = (None, None);
        let mut now = 0;
        while report.is_none() && now < 200_000 {
            now += 500;
            for o in d.tick(now) {
                match o {
                    Output::TournamentHand(r) => report = Some(r),
                    Output::Hand(h) => record = Some(h.record),
                    _ => {}
                }
            }
        }
        let (report, record) = (report.expect("the hand ended"), record.expect("and was recorded"));
        let seat_of = |p: Uuid| players.iter().position(|w| w.player_id == p).map(|i| i as u8 + 1).unwrap();
        let busted: Vec<Uuid> = report.stacks.iter().filter(|(_, c)| *c == 0).map(|(p, _)| *p).collect();
        assert_eq!(report.knockouts.iter().map(|k| k.0).collect::<Vec<_>>(), busted, "one knockout per bust");
        let awards = record.result.unwrap().awards;
        for (player, by) in &report.knockouts {
            busts += 1;
            // Each all-in player's only pot is the main pot: its winners, by what each took.
            let mut expected: Vec<(Uuid, u64)> = Vec::new();
            for a in awards.iter().filter(|a| a.pot == 0) {
                let p = players[usize::from(a.seat.number()) - 1].player_id;
                match expected.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, c)) => *c += a.amount,
                    None => expected.push((p, a.amount)),
                }
            }
            assert!(!expected.iter().any(|(p, _)| p == player), "a busted player won nothing");
            assert_eq!(by, &expected, "seat {}", seat_of(*player));
            assert_eq!(by.iter().map(|b| b.1).sum::<u64>(), 80, "the main pot, all of it to them");
            assert!(by.iter().all(|(p, _)| report.stacks.iter().any(|(q, c)| q == p && *c > 0)));
            shared += usize::from(by.len() > 1);
        }
        assert_eq!(d.core.last_report(), Some(&report), "kept for a resync, knockouts too");
    }
    assert!(busts >= 40 && shared >= 1, "{busts} busts, {shared} shared");
}

/// Issue 14, mixed games: a cash table rotates Razz, Stud, Stud Hi/Lo, exactly 8 hands each
/// (an orbit), by its hand numbers; the lobby line says the current game, the next one and
/// how many hands until it; a rebuilt table is the same table.
#[test]
fn a_rotating_table_changes_the_game_exactly_every_eight_hands() {
    let mut d = Driver::new(Variant::Razz);
    let mut spec = spec(Variant::Razz);
    spec.rotation_hands = Some(8);
    d.core = TableCore::new(TIMING, spec, 0);
    d.snapshot = (d.core.snapshot(), 0);
    seat_players(&mut d, 3);
    let s = d.core.summary(0);
    assert_eq!((s.variant, s.next_variant, s.hands_to_next_variant), (Variant::Razz, Some(Variant::Stud), Some(8)));
    assert_eq!(s.next_betting, Some(Betting::FixedLimit), "the lobby names the next game's structure");
    // Bots that always answer at once (nobody is sat out by the clock).
    let mut bot = Bot::new(41);
    let mut lobby = Vec::new();
    let mut now = 0;
    let mut hands_seen = 0;
    while hands_seen < 20 && now < 2_000_000 {
        now += 50;
        let mut out = d.tick(now);
        loop {
            let prompts: Vec<(ConnId, ServerMsg)> = (1..=3)
                .flat_map(|conn| frames_to(&out, conn).into_iter().map(move |m| (conn, m)))
                .filter(|(_, m)| matches!(m, ServerMsg::YourTurn { .. }))
                .collect();
            hands_seen += out.iter().filter(|o| matches!(o, Output::Hand(_))).count();
            let Some((conn, ServerMsg::YourTurn { hand_id, seq, legal, .. })) = prompts.into_iter().next() else {
                break;
            };
            let key = format!("{conn}-{seq}");
            let action = bot.choose(&legal);
            out = d.command(now, Command::Act { conn, request_id: None, hand_id, seq, key, action });
        }
        let s = d.core.summary(now);
        lobby.push((s.variant, s.next_variant, s.hands_to_next_variant));
    }
    let hands = games_dealt(&d);
    assert!(hands.len() >= 20, "{} hands", hands.len());
    for (number, variant) in &hands {
        let want = [Variant::Razz, Variant::Stud, Variant::Stud8][((number - 1) / 8 % 3) as usize];
        assert_eq!(*variant, want, "hand {number}");
    }
    assert!(lobby.contains(&(Variant::Stud, Some(Variant::Stud8), Some(1))), "the lobby counts down");
    assert!(lobby.contains(&(Variant::Stud8, Some(Variant::Razz), Some(8))));
    assert_eq!(d.rebuilt(now).fingerprint(), d.core.fingerprint());
    // Operators' settings: kept, and checked.
    let settings = d.core.spec().settings();
    assert_eq!((settings.variant, settings.rotation_hands), (Variant::Razz, Some(8)));
    let bad = stud_proto::TableSettings { rotation_hands: Some(0), ..settings };
    assert!(TableSpec::from_settings(Uuid::nil(), &bad).unwrap_err().contains("rotation_hands"));
}

/// Every hand the table reported so far: its number and game.
fn games_dealt(d: &Driver) -> Vec<(u64, Variant)> {
    d.calls
        .iter()
        .flat_map(|(_, out)| out.iter())
        .filter_map(|o| if let Output::Hand(h) = o { Some((h.number, h.record.config.variant)) } else { None })
        .collect()
}

/// Plays hands with bots that answer at once until `until` hands have been reported in all,
/// then returns the clock.
fn play_until(d: &mut Driver, bot: &mut Bot, mut now: Millis, players: ConnId, until: usize) -> Millis {
    while games_dealt(d).len() < until && now < 10_000_000 {
        now += 50;
        let mut out = d.tick(now);
        loop {
            let prompt = (1..=players)
                .flat_map(|conn| frames_to(&out, conn).into_iter().map(move |m| (conn, m)))
                .find(|(_, m)| matches!(m, ServerMsg::YourTurn { .. }));
            let Some((conn, ServerMsg::YourTurn { hand_id, seq, legal, .. })) = prompt else { break };
            let key = format!("{conn}-{seq}");
            let action = bot.choose(&legal);
            out = d.command(now, Command::Act { conn, request_id: None, hand_id, seq, key, action });
        }
    }
    now
}

/// Issue 30 item 8: an operator changes a mixed table's rotation (its games and hands per
/// game) in the middle of a game. The game in play is finished up to the old rotation's next
/// point; then the new rotation goes on with the game after it in the new list; the lobby's
/// countdown follows; a rebuilt table is the same table; a later change of something else
/// keeps the rotation where it is.
#[test]
fn a_changed_rotation_takes_effect_at_the_next_rotation_point() {
    use stud_proto::RotationGame;
    let mut d = Driver::new(Variant::Razz);
    let mut spec = spec(Variant::Razz);
    spec.rotation_hands = Some(8);
    d.core = TableCore::new(TIMING, spec.clone(), 0);
    d.snapshot = (d.core.snapshot(), 0);
    seat_players(&mut d, 3);
    let mut bot = Bot::new(7);
    let now = play_until(&mut d, &mut bot, 0, 3, 3);
    // Hand 4 may be in play: the change waits for it (applied between hands).
    let game = |variant| RotationGame { variant, betting: None };
    let settings = stud_proto::TableSettings {
        rotation_hands: Some(2),
        rotation_games: Some(vec![game(Variant::Stud8), game(Variant::Razz)]),
        ..d.core.spec().settings()
    };
    let next = TableSpec::from_settings(spec.id, &settings).unwrap();
    d.command(now, Command::Update { spec: Box::new(next) });
    let now = play_until(&mut d, &mut bot, now, 3, 16);
    let at = d.core.spec().rotation_at.unwrap();
    assert_eq!((at.from, at.index, at.hold), (9, 0, (Variant::Razz, Betting::FixedLimit)));
    let hands = games_dealt(&d);
    assert!(hands.len() >= 16, "{} hands", hands.len());
    for (number, variant) in &hands {
        // Razz to hand 8 (the old rotation's point), then Stud Hi/Lo and Razz, two hands each.
        let want = match number {
            1..=8 => Variant::Razz,
            n if (n - 9) / 2 % 2 == 0 => Variant::Stud8,
            _ => Variant::Razz,
        };
        assert_eq!(*variant, want, "hand {number}");
    }
    let s = d.core.summary(now);
    // The hand in play, or the next one.
    let number = hands.len() as u64 + 1;
    let left = 2 - (number - 9) % 2;
    assert_eq!(s.hands_to_next_variant, Some(left as u32), "hand {number} in play or next");
    assert_eq!(d.rebuilt(now).fingerprint(), d.core.fingerprint());
    // A change of something else (the name) keeps the rotation where it stands.
    let renamed =
        TableSpec::from_settings(spec.id, &stud_proto::TableSettings { name: "Mixed".into(), ..settings }).unwrap();
    d.command(now, Command::Update { spec: Box::new(renamed) });
    play_until(&mut d, &mut bot, now, 3, hands.len() + 2);
    assert_eq!((d.core.spec().name.as_str(), d.core.spec().rotation_at), ("Mixed", Some(at)));
}

/// Issue 30 item 8, the rules of [`TableSpec::carry_rotation`] one by one.
#[test]
fn carrying_a_rotation_over_a_change() {
    use stud_proto::RotationGame;
    let mixed = |hands, games: &[Variant]| {
        let settings = stud_proto::TableSettings {
            rotation_hands: Some(hands),
            rotation_games: Some(games.iter().map(|&variant| RotationGame { variant, betting: None }).collect()),
            ..spec(games[0]).settings()
        };
        TableSpec::from_settings(Uuid::nil(), &settings).unwrap()
    };
    let old = mixed(4, &[Variant::Razz, Variant::Stud, Variant::Stud8]);
    // Before hand 6 (stud, hands 5 to 8): stud to hand 8, then the game after stud in the new
    // list, which is stud8.
    let mut new = mixed(3, &[Variant::Stud8, Variant::Stud, Variant::Razz]);
    new.carry_rotation(&old, 6);
    let games: Vec<Variant> = (6..=16).map(|n| new.config_of(n).variant).collect();
    use Variant::{Razz, Stud, Stud8};
    assert_eq!(games, [Stud, Stud, Stud, Razz, Razz, Razz, Stud8, Stud8, Stud8, Stud, Stud]);
    assert_eq!(new.next_rotation_point(6), Some(9));
    assert_eq!(new.next_rotation_point(9), Some(12));
    // At the point itself (before hand 9, stud was hands 5 to 8): the next game starts now.
    let mut at_point = mixed(3, &[Variant::Stud8, Variant::Stud, Variant::Razz]);
    at_point.carry_rotation(&old, 9);
    assert_eq!((9..=12).map(|n| at_point.config_of(n).variant).collect::<Vec<_>>(), [Razz, Razz, Razz, Stud8]);
    // The game in play is not in the new list: the list's first game follows it.
    let mut without = mixed(2, &[Variant::London, Variant::Razz]);
    without.carry_rotation(&old, 6);
    assert_eq!(
        (7..=11).map(|n| without.config_of(n).variant).collect::<Vec<_>>(),
        [Stud, Stud, Variant::London, Variant::London, Razz]
    );
    // Unchanged games and hands: the rotation goes on as it was.
    let mut same = old.clone();
    same.name = "Renamed".into();
    same.carry_rotation(&old, 20);
    assert_eq!(same.rotation_at, None);
    let mut again = new.clone();
    again.rotation_at = None;
    again.carry_rotation(&new, 14);
    assert_eq!(again.rotation_at, new.rotation_at);
    // Unchanged games, but a change of the table's betting would move the start where the
    // list holds a variant twice: the rotation is pinned where it was.
    let twice = stud_proto::TableSettings {
        rotation_hands: Some(2),
        rotation_games: Some(vec![
            RotationGame { variant: Variant::Stud, betting: Some(Betting::FixedLimit) },
            RotationGame { variant: Variant::Stud, betting: Some(Betting::PotLimit) },
        ]),
        ..spec(Variant::Stud).settings()
    };
    let old_twice = TableSpec::from_settings(Uuid::nil(), &twice).unwrap();
    let mut pot_twice =
        TableSpec::from_settings(Uuid::nil(), &stud_proto::TableSettings { betting: Betting::PotLimit, ..twice })
            .unwrap();
    pot_twice.carry_rotation(&old_twice, 5);
    let structures = |t: &TableSpec| (1..=8).map(|n| t.config_of(n).betting).collect::<Vec<_>>();
    assert_eq!(structures(&pot_twice), structures(&old_twice));
    // A table that was not mixed starts rotating at its next hand, at its own game.
    let single = spec(Variant::Stud);
    let mut made_mixed = mixed(2, &[Variant::Razz, Variant::Stud]);
    made_mixed.config.variant = Variant::Stud;
    made_mixed.carry_rotation(&single, 31);
    assert_eq!((31..=34).map(|n| made_mixed.config_of(n).variant).collect::<Vec<_>>(), [Stud, Stud, Razz, Razz]);
    // No longer mixed: nothing carried.
    let mut plain = spec(Variant::Razz);
    plain.carry_rotation(&new, 7);
    assert_eq!((plain.rotation_at, plain.config_of(7).variant), (None, Razz));
    // The game in play cannot be played at the new stakes (a pot-limit list without a big
    // bet, after a fixed-limit game): the new rotation starts with the next hand.
    let pot = stud_proto::TableSettings {
        betting: Betting::PotLimit,
        big_bet: 0,
        rotation_hands: Some(2),
        rotation_games: Some(vec![RotationGame { variant: Variant::Stud8, betting: None }]),
        ..spec(Variant::Stud8).settings()
    };
    let mut pot = TableSpec::from_settings(Uuid::nil(), &pot).unwrap();
    pot.carry_rotation(&old, 6);
    let c = pot.config_of(6);
    assert_eq!((c.variant, c.betting, c.validate()), (Stud8, Betting::PotLimit, Ok(())));
}

/// Issue 29: a rotation of the operator's games (`rotation_games`) mixes games and betting
/// structures; it starts at the table's game; each game has its own open-pair option (never in
/// razz or london); the list is checked when the table is made.
#[test]
fn a_rotation_may_mix_games_and_structures() {
    use stud_proto::RotationGame;
    let game = |variant, betting| RotationGame { variant, betting };
    let base = stud_proto::TableSettings {
        rotation_hands: Some(2),
        rotation_games: Some(vec![
            game(Variant::Razz, None),
            game(Variant::Stud, Some(Betting::PotLimit)),
            game(Variant::London, Some(Betting::NoLimit)),
            game(Variant::Chicago, None),
            game(Variant::Mississippi, Some(Betting::FixedLimit)),
            game(Variant::Stud8Declare, Some(Betting::NoLimit)),
        ]),
        ..spec(Variant::Stud).settings()
    };
    let t = TableSpec::from_settings(Uuid::nil(), &base).unwrap();
    let hands: Vec<(Variant, Betting, bool)> = (1..=14)
        .step_by(2)
        .map(|n| t.config_of(n))
        .map(|c| {
            assert_eq!(c.validate(), Ok(()), "{c:?}");
            assert_eq!((c.ante, c.bring_in, c.small_bet, c.big_bet), (10, 25, 50, 100));
            (c.variant, c.betting, c.open_pair_big_bet)
        })
        .collect();
    use Betting::{FixedLimit, NoLimit, PotLimit};
    assert_eq!(
        hands,
        [
            (Variant::Stud, PotLimit, true),
            (Variant::London, NoLimit, false),
            (Variant::Chicago, FixedLimit, true),
            (Variant::Mississippi, FixedLimit, true),
            (Variant::Stud8Declare, NoLimit, true),
            (Variant::Razz, FixedLimit, false),
            (Variant::Stud, PotLimit, true),
        ]
    );
    assert_eq!(t.config_of(2), t.config_of(1), "two hands each");
    // The operator's settings come back as given.
    assert_eq!(t.settings().rotation_games, base.rotation_games);
    // The table's open-pair setting goes to every game that has the option.
    let off = TableSpec::from_settings(
        Uuid::nil(),
        &stud_proto::TableSettings { open_pair_big_bet: Some(false), ..base.clone() },
    )
    .unwrap();
    assert!((1..=12).all(|n| !off.config_of(n).open_pair_big_bet));
    // Checked: the table's game is in the list, the list needs rotation_hands, is not empty,
    // and every game is playable at the stakes (a fixed-limit game needs the big bet).
    let refused = |s: stud_proto::TableSettings| TableSpec::from_settings(Uuid::nil(), &s).unwrap_err();
    assert!(refused(stud_proto::TableSettings { variant: Variant::Stud8, ..base.clone() }).contains("rotation_games"));
    assert!(refused(stud_proto::TableSettings { rotation_hands: None, ..base.clone() }).contains("rotation_hands"));
    assert!(refused(stud_proto::TableSettings { rotation_games: Some(vec![]), ..base.clone() }).contains("1 to 16"));
    let big_bet_only = stud_proto::TableSettings { betting: PotLimit, big_bet: 0, ..base.clone() };
    assert!(refused(big_bet_only.clone()).contains("mississippi fixed_limit"), "{}", refused(big_bet_only));
}

/// Issue 29: the default rotation gives each game its own open-pair option: a table that
/// starts at stud deals razz without it (the engine refuses razz with it), one that starts at
/// razz deals stud and stud8 with it (the engine's default).
#[test]
fn the_default_rotation_sets_the_open_pair_option_per_game() {
    for (start, want) in [
        (Variant::Stud, [(Variant::Stud, true), (Variant::Stud8, true), (Variant::Razz, false)]),
        (Variant::Razz, [(Variant::Razz, false), (Variant::Stud, true), (Variant::Stud8, true)]),
    ] {
        let s = stud_proto::TableSettings { rotation_hands: Some(8), ..spec(start).settings() };
        let t = TableSpec::from_settings(Uuid::nil(), &s).unwrap();
        let got: Vec<(Variant, bool)> =
            [1, 9, 17].iter().map(|&n| t.config_of(n)).map(|c| (c.variant, c.open_pair_big_bet)).collect();
        assert_eq!(got, want);
        assert!([1, 9, 17].iter().all(|&n| t.config_of(n).validate().is_ok()));
    }
}

/// The two ends of a big-bet wager in a prompt (RULES.md 10: a bet or raise is any amount from
/// its minimum to its maximum); `None` in fixed limit, where each wager has one size.
fn wager_range(legal: &[Action]) -> Option<(Action, u64, u64)> {
    let tos: Vec<(Action, u64)> = legal
        .iter()
        .filter_map(|a| match *a {
            Action::Bet { to } | Action::Raise { to } | Action::Complete { to } => Some((*a, to)),
            _ => None,
        })
        .collect();
    let (first, min) = *tos.iter().min_by_key(|(_, to)| *to)?;
    let max = tos.iter().map(|(_, to)| *to).max()?;
    (max > min + 1).then_some((first, min, max))
}

/// The table core deals big-bet stud as the engine does (RULES.md 10): the prompt lists each
/// wager's two ends, any size between them is taken, one past the top is refused as
/// `illegal_action` and changes nothing; chips are conserved and the table rebuilds from its
/// snapshot and journal after every input, in pot limit and in no limit.
#[test]
fn a_big_bet_table_takes_any_size_between_the_prompts_ends() {
    for betting in [Betting::PotLimit, Betting::NoLimit] {
        let mut table = spec(Variant::Stud);
        table.config = table.config.with_betting(betting);
        let mut d = Driver::with_spec(table);
        seat_players(&mut d, 3);
        let mut bots: Vec<Bot> = (0..3).map(|i| Bot::new(40 + i)).collect();
        let (mut sized, mut refused) = (0, 0);
        let mut pending: Vec<(ConnId, ServerMsg)> = Vec::new();
        for step in 0..600u64 {
            let now = step * 50;
            let mut out = d.tick(now);
            for (conn, msg) in std::mem::take(&mut pending) {
                let ServerMsg::YourTurn { hand_id, seq, legal, wagers, .. } = msg else { continue };
                // The prompt's ranges are the two ends `legal` lists.
                if let Some((_, min, max)) = wager_range(&legal) {
                    assert!(
                        wagers.iter().any(|w| w.min_to == Some(min) && w.max_to == Some(max)),
                        "{betting:?}: {wagers:?} for {legal:?}"
                    );
                }
                assert!(wagers.iter().all(|w| w.min_to.is_some() && w.min_to <= w.max_to), "{wagers:?}");
                let bot = &mut bots[usize::try_from(conn).unwrap() - 1];
                let key = format!("{conn}-{seq}");
                let act = |action| Command::Act {
                    conn,
                    request_id: Some(key.clone()),
                    hand_id,
                    seq,
                    key: key.clone(),
                    action,
                };
                let action = match wager_range(&legal) {
                    Some((end, min, max)) if bot.next_u64() % 2 == 0 => {
                        let with = |to| match end {
                            Action::Bet { .. } => Action::Bet { to },
                            Action::Complete { .. } => Action::Complete { to },
                            _ => Action::Raise { to },
                        };
                        // One past the top: refused, nothing applied.
                        let before = d.core.fingerprint();
                        let replies = d.command(now, act(with(max + 1)));
                        assert!(
                            frames_to(&replies, conn)
                                .iter()
                                .any(|m| matches!(m, ServerMsg::Error { code: ErrorCode::IllegalAction, .. })),
                            "{betting:?}: {max} + 1 taken"
                        );
                        assert_eq!(d.core.fingerprint(), before);
                        refused += 1;
                        sized += 1;
                        with(min + (max - min) / 2)
                    }
                    _ => bot.choose(&legal),
                };
                let replies = d.command(now, act(action));
                assert!(
                    frames_to(&replies, conn).iter().any(|m| matches!(m, ServerMsg::Ack { .. })),
                    "{betting:?}: {action:?} of {legal:?} refused: {:?}",
                    frames_to(&replies, conn)
                );
                out.extend(replies);
            }
            for conn in 1..=3 {
                for msg in frames_to(&out, conn) {
                    if matches!(msg, ServerMsg::YourTurn { .. }) {
                        pending.push((conn, msg));
                    }
                }
            }
            let on_table: i64 = d.core.stacks().iter().map(|(_, c)| *c as i64).sum::<i64>() + d.core.pot() as i64;
            assert_eq!(on_table + d.accounts.values().sum::<i64>(), 0, "{betting:?}: chips conserved");
            assert_eq!(d.rebuilt(now).fingerprint(), d.core.fingerprint(), "{betting:?} at {now}");
        }
        assert!(d.core.status().1 >= 3, "{betting:?}: hands were played");
        assert!(sized >= 5 && refused == sized, "{betting:?}: {sized} sized wagers");
    }
}

/// RULES.md 12.2 at the table: a declaration reaches only its own player until the reveal,
/// everyone else gets "declared" without it; the clock declares high for a player who does not
/// answer.
#[test]
fn a_declaration_reaches_only_its_player_until_the_reveal() {
    let mut d = Driver::new(Variant::Stud8Declare);
    seat_players(&mut d, 3);
    // Nobody answers a declaration prompt: the clock declares for everyone.
    let declaring = |legal: &[Action]| legal.iter().any(|a| matches!(a, Action::Declare { .. }));
    play_with(&mut d, 3, 3_000, 11, declaring, |_, _| {});
    let high = Action::Declare { declaration: stud_engine::Declaration::High };
    let clock_high =
        d.journal.iter().filter(|e| matches!(&e.input, Input::Clock { action, .. } if *action == high)).count();
    let (mut private, mut hidden, mut revealed) = (0, 0, 0);
    for (_, out) in &d.calls {
        for o in out {
            let Output::Send { conn, frame } = o else { continue };
            let Ok(ServerMsg::Event { event, .. }) = serde_json::from_str::<ServerMsg>(frame) else { continue };
            match event {
                stud_engine::Event::Declared { seat, declaration: Some(_) } => {
                    assert_eq!(ConnId::from(seat.number()), *conn, "a declaration went to another player");
                    private += 1;
                }
                stud_engine::Event::Declared { seat, declaration: None } => {
                    assert_ne!(ConnId::from(seat.number()), *conn, "a player was not told their own declaration");
                    hidden += 1;
                }
                stud_engine::Event::DeclarationsRevealed { .. } => revealed += 1,
                _ => {}
            }
        }
    }
    assert!(private > 0 && hidden > 0 && revealed > 0, "{private} private, {hidden} hidden, {revealed} reveals");
    assert!(clock_high > 0, "the clock never declared ({private} declarations)");
}

/// The last snapshot's table a connection got in `out`.
fn last_table(out: &[Output], conn: ConnId) -> Option<stud_proto::TableState> {
    frames_to(out, conn).into_iter().rev().find_map(|m| match m {
        ServerMsg::Snapshot { table, .. } => Some(table),
        _ => None,
    })
}

/// The lobby line's waiting count in `out`, if the line changed.
fn lobby_waiting(out: &[Output]) -> Option<u32> {
    out.iter().rev().find_map(|o| match o {
        Output::Summary(s) => Some(s.waiting),
        _ => None,
    })
}

fn refused_with(out: &[Output], conn: ConnId, code: ErrorCode) -> bool {
    matches!(&frames_to(out, conn)[..], [ServerMsg::Error { code: c, .. }] if *c == code)
}

fn acked(out: &[Output], conn: ConnId, text: &str) -> bool {
    frames_to(out, conn).iter().any(|m| matches!(m, ServerMsg::Ack { detail, .. } if detail == text))
}

#[test]
fn the_waiting_list_offers_a_free_seat_in_turn_and_keeps_it_for_the_offer_time() {
    use stud_proto::SEAT_OFFER_MS;
    let mut two = spec(Variant::Stud);
    two.seats = 2;
    let mut d = Driver::with_spec(two);
    seat_players(&mut d, 2);
    for n in 3..=5 {
        d.command(0, Command::Join { conn: n, who: who(n.into()), request_id: None, watch: true, banned: false });
    }
    let wait = |conn: ConnId, on: bool| Command::Waitlist { conn, request_id: Some(format!("w{conn}")), on };
    // Two line up; the lobby and every viewer count them; each waiter sees their place.
    let out = d.command(10, wait(3, true));
    assert!(acked(&out, 3, "on the waiting list: position 1"), "{:?}", frames_to(&out, 3));
    let out = d.command(20, wait(4, true));
    assert!(acked(&out, 4, "on the waiting list: position 2"));
    assert_eq!(lobby_waiting(&out), Some(2));
    assert_eq!(last_table(&out, 5).map(|t| (t.waiting, t.wait)), Some((2, None)));
    let place = last_table(&out, 4).and_then(|t| t.wait).unwrap();
    assert_eq!((place.position, place.offer_ms), (2, None), "no seat is free: nothing offered");
    // Asking again changes nothing; a seated player or a stranger cannot line up.
    let applied = d.core.applied();
    assert!(acked(&d.command(25, wait(3, true)), 3, "on the waiting list: position 1"));
    assert!(refused_with(&d.command(25, wait(1, true)), 1, ErrorCode::AlreadySeated));
    assert!(refused_with(&d.command(25, wait(42, true)), 42, ErrorCode::NotSeated));
    assert!(acked(&d.command(25, wait(5, false)), 5, "not on the waiting list"));
    assert_eq!(d.core.applied(), applied, "nothing journaled");

    // Seat 1 comes free: the first in line is offered it, at once, for the whole offer time.
    let out = d.command(1_000, Command::Leave { conn: 1, request_id: None });
    let place = last_table(&out, 3).and_then(|t| t.wait).unwrap();
    assert_eq!((place.position, place.offer_ms), (1, Some(SEAT_OFFER_MS)));
    assert_eq!(last_table(&out, 4).and_then(|t| t.wait).and_then(|w| w.offer_ms), None, "one seat, one offer");
    // Nobody else may take it: not a stranger, not the second in line.
    for conn in [5, 4] {
        let sit = Command::Sit { conn, request_id: Some("s".into()), seat: Some(1), buy_in: 2_000 };
        let out = d.command(2_000, sit);
        assert!(refused_with(&out, conn, ErrorCode::TableFull), "{:?}", frames_to(&out, conn));
    }
    // The first in line lets the offer lapse: off the list, and the next is offered the seat.
    let lapse = 1_000 + SEAT_OFFER_MS;
    d.tick(2_000); // (one player: no hand starts)
    assert_eq!(d.core.wake_at(), Some(lapse));
    let out = d.tick(lapse - 1);
    assert!(!out.iter().any(|o| matches!(o, Output::Summary(s) if s.waiting < 2)), "not before its time");
    // A table rebuilt now offers the free seat afresh, for a whole offer time again.
    let mut rebuilt = d.rebuilt(lapse - 1);
    assert_eq!(rebuilt.fingerprint(), d.core.fingerprint());
    assert_eq!(rebuilt.due(lapse), None);
    let out = d.tick(lapse);
    assert_eq!(lobby_waiting(&out), Some(1));
    assert_eq!(last_table(&out, 3).map(|t| t.wait), Some(None), "the lapsed waiter is off the list");
    let place = last_table(&out, 4).and_then(|t| t.wait).unwrap();
    assert_eq!((place.position, place.offer_ms), (1, Some(SEAT_OFFER_MS)));
    assert!(matches!(d.journal.last().map(|e| &e.input), Some(Input::Waitlist { on: false, who: w }) if *w == who(3)));
    // The one offered sits down (any free seat): off the list; the table is full again.
    let out = d.command(lapse + 5, Command::Sit { conn: 4, request_id: Some("s4".into()), seat: None, buy_in: 2_000 });
    assert!(acked(&out, 4, "seated at 1"), "{:?}", frames_to(&out, 4));
    assert_eq!(lobby_waiting(&out), Some(0));
    assert_eq!(d.rebuilt(lapse + 5).fingerprint(), d.core.fingerprint());
    // An operator's kick takes a waiter off the list (journaled) as it stops their watching.
    assert!(acked(&d.command(lapse + 6, wait(5, true)), 5, "on the waiting list: position 1"));
    let out = d.command(lapse + 7, Command::Kick { player: who(5).player_id, now: false });
    assert_eq!(lobby_waiting(&out), Some(0));
    assert!(matches!(d.journal.last().map(|e| &e.input), Some(Input::Waitlist { on: false, .. })));
    assert_eq!(d.rebuilt(lapse + 7).fingerprint(), d.core.fingerprint());
}

#[test]
fn a_tournament_table_has_no_waiting_list() {
    let mut spec = spec(Variant::Stud);
    spec.tournament = Some(Uuid::from_u128(9));
    let mut d = Driver::with_spec(spec);
    d.command(0, Command::Join { conn: 1, who: who(1), request_id: None, watch: true, banned: false });
    let out = d.command(1, Command::Waitlist { conn: 1, request_id: Some("w".into()), on: true });
    assert!(refused_with(&out, 1, ErrorCode::Forbidden), "{:?}", frames_to(&out, 1));
    assert_eq!(d.core.applied(), 0);
}
