//! PokerStars-style text hand histories: the plain-text format hand trackers import.
//!
//! [`write_text`] replays a finished [`HandRecord`] through the engine and writes what the events
//! say, in the shape of a PokerStars play-money stud history (chips as plain integers, rake 0):
//! the header, the seats, antes, one block per street with a `Dealt to` line per player still in,
//! the betting, the showdown, the awards and the summary. Nothing about the rules is worked out
//! here: who acts, what is returned, who wins what all come from the engine's events; hands are
//! named by the engine's evaluators.
//!
//! With no viewer, every player's down cards are written on every `Dealt to` line (operators).
//! With a viewer ([`TextContext::viewer`]), the history is that player's LAST HAND: a `Dealt to`
//! line shows only the cards they may see (PokerStars shows opponents' up cards the same way),
//! and a card they may not see gets no line at all.
//!
//! Departures from PokerStars, where it has nothing to copy or where we chose otherwise:
//! - 7th street is headed `*** RIVER ***` and a fold there is "folded on the River", as in
//!   PokerStars' own stud histories (trackers' parsers expect it);
//! - the community card (RULES.md 3.5) is written `*** RIVER ***` then
//!   `Dealt to the board [Xx]`: PokerStars has no standard line for it;
//! - hand names are the engine's ("Pair of Aces", "High card, King", "8-6-4-2-A"), not
//!   PokerStars' lower-case ones ("a pair of Aces");
//! - side pots are always numbered (`side pot-1`), even when there is only one.

use std::fmt::Write as _;

use crate::action::Street;
use crate::card::Card;
use crate::config::{Chips, Seat, TableConfig, Variant};
use crate::eval;
use crate::event::{Event, Half};
use crate::record::{HandRecord, ReplayError};

/// Who sat where and what the hand is called, for the text history.
#[derive(Clone, Debug, Default)]
pub struct TextContext {
    /// the hand id shown in the header (e.g. a uuid string or number)
    pub hand_id: String,
    /// the table name
    pub table: String,
    /// when the hand started, seconds since the Unix epoch (UTC); rendered as "2026/11/29 22:20:51 UTC"
    pub started_at_secs: u64,
    /// player names by seat number (1..=8); a seat without a name is written "Seat N"
    pub names: Vec<(u8, String)>,
    /// write the hand as this viewer's LAST HAND (only the cards they may see); `None` writes
    /// every card
    pub viewer: Option<crate::event::Viewer>,
    /// a tournament's hand: the header says so, PokerStars' way (`Tournament #ID, ... - Level
    /// IV (100/200)`)
    pub tournament: Option<crate::phh::TournamentContext>,
}

/// Writes a finished hand as a PokerStars-style stud hand history (the text hand trackers import).
///
/// # Errors
/// [`ReplayError`] if the record does not replay, or [`ReplayError::Unfinished`] if the hand it
/// replays to is not over (a history needs the result).
pub fn write_text(record: &HandRecord, context: &TextContext) -> Result<String, ReplayError> {
    let (hand, events) = record.replay()?;
    if !hand.is_over() {
        return Err(ReplayError::Unfinished(record.actions.len()));
    }
    let mut w = Writer::new(record, context, &events);
    w.visible = context.viewer.map(|v| hand.last_hand_visible(v));
    for e in &events {
        w.event(e);
    }
    w.summary();
    Ok(w.out)
}

/// One seat as the history goes along.
struct Player {
    seat: Seat,
    name: String,
    /// own cards in dealing order (those the viewer may see)
    cards: Vec<Card>,
    /// cards dealt, seen or not
    dealt: usize,
    /// put chips in on 3rd street beyond the ante (PokerStars' "didn't bet" otherwise)
    bet_on_third: bool,
    /// the street the player folded on
    folded: Option<Street>,
    shown: bool,
    /// chips won, all pots and halves
    won: Chips,
    /// the half and hand name of each award won
    awards: Vec<(Half, Option<String>)>,
}

struct Writer {
    variant: Variant,
    out: String,
    players: Vec<Player>,
    /// the street whose header was written last
    header: Option<Street>,
    /// the street being bet
    street: Street,
    /// the highest street total so far (what a raise is measured from)
    level: Chips,
    community: Option<Card>,
    /// chips awarded per pot (0 = main pot)
    pots: Vec<Chips>,
    showdown: bool,
    said_no_low: bool,
    /// the cards the viewer may see; `None` = all
    visible: Option<Vec<Card>>,
}

impl Writer {
    fn new(record: &HandRecord, context: &TextContext, events: &[Event]) -> Writer {
        let cfg = &record.config;
        let mut pots: Vec<Chips> = Vec::new();
        for e in events {
            if let Event::Award { pot, amount, .. } = e {
                let pot = *pot as usize;
                if pots.len() <= pot {
                    pots.resize(pot + 1, 0);
                }
                if let Some(p) = pots.get_mut(pot) {
                    *p += amount;
                }
            }
        }
        let players: Vec<Player> = record
            .seats
            .iter()
            .map(|s| Player {
                seat: s.seat,
                name: context
                    .names
                    .iter()
                    .find(|(n, _)| *n == s.seat.number())
                    .map_or_else(|| format!("Seat {}", s.seat), |(_, name)| name.clone()),
                cards: Vec::with_capacity(7),
                dealt: 0,
                bet_on_third: false,
                folded: None,
                shown: false,
                won: 0,
                awards: Vec::new(),
            })
            .collect();
        let mut out = String::with_capacity(2048);
        let (game, (low, high)) = (game_name(cfg), stakes(cfg));
        match &context.tournament {
            // PokerStars puts the buy-in after the tournament's number; ours is play money and
            // the tournament's own page says it, so the header names only the tournament.
            Some(t) => {
                let _ = writeln!(
                    out,
                    "PokerStars Hand #{}: Tournament #{}, {} - Level {} ({}/{}) - {} UTC",
                    context.hand_id,
                    t.id,
                    game,
                    roman(t.level),
                    low,
                    high,
                    utc(context.started_at_secs)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "PokerStars Hand #{}:  {} ({}/{}) - {} UTC",
                    context.hand_id,
                    game,
                    low,
                    high,
                    utc(context.started_at_secs)
                );
            }
        }
        let _ = writeln!(out, "Table '{}' 8-max", context.table);
        for (p, s) in players.iter().zip(&record.seats) {
            let _ = writeln!(out, "Seat {}: {} ({} in chips)", p.seat, p.name, s.chips);
        }
        Writer {
            variant: cfg.variant,
            out,
            players,
            header: None,
            street: Street::Third,
            level: 0,
            community: None,
            pots,
            showdown: false,
            said_no_low: false,
            visible: None,
        }
    }

    fn index(&self, seat: Seat) -> Option<usize> {
        self.players.iter().position(|p| p.seat == seat)
    }

    fn name(&self, seat: Seat) -> &str {
        name_in(&self.players, seat)
    }

    /// Writes `NAME: TEXT`, with PokerStars' all-in suffix when the stack is now empty.
    fn act(&mut self, seat: Seat, text: std::fmt::Arguments<'_>, all_in: bool) {
        let suffix = if all_in { " and is all-in" } else { "" };
        let line = format!("{}: {text}{suffix}", self.name(seat));
        self.out.push_str(&line);
        self.out.push('\n');
    }

    /// Chips went in on the current street: on 3rd street that is more than the ante.
    fn put_in(&mut self, seat: Seat) {
        if self.street == Street::Third {
            if let Some(p) = self.index(seat).and_then(|i| self.players.get_mut(i)) {
                p.bet_on_third = true;
            }
        }
    }

    fn street_header(&mut self, street: Street) {
        if self.header != Some(street) {
            self.header = Some(street);
            let _ = match street {
                Street::Seventh => writeln!(self.out, "*** RIVER ***"),
                _ => writeln!(self.out, "*** {} STREET ***", ordinal(street)),
            };
        }
    }

    fn event(&mut self, e: &Event) {
        match *e {
            Event::HandStarted { .. } | Event::StreetEnded { .. } | Event::ShowOrMuck { .. } => {}
            Event::Ante { seat, amount, all_in } => self.act(seat, format_args!("posts the ante {amount}"), all_in),
            Event::Dealt { seat, card, street, .. } => self.dealt(seat, card, street),
            Event::Community { card } => {
                self.street_header(Street::Seventh);
                self.community = Some(card);
                let _ = writeln!(self.out, "Dealt to the board [{card}]");
            }
            Event::StreetStarted { street, .. } => {
                self.street = street;
                self.level = 0;
            }
            Event::BringIn { seat, amount, all_in } => {
                self.put_in(seat);
                self.level = self.level.max(amount);
                self.act(seat, format_args!("brings in for {amount}"), all_in);
            }
            Event::Complete { seat, to, all_in } => {
                self.put_in(seat);
                self.level = self.level.max(to);
                self.act(seat, format_args!("completes it to {to}"), all_in);
            }
            Event::Bet { seat, to, all_in } => {
                self.put_in(seat);
                self.level = self.level.max(to);
                self.act(seat, format_args!("bets {to}"), all_in);
            }
            Event::Raise { seat, to, all_in } => {
                self.put_in(seat);
                let by = to.saturating_sub(self.level);
                self.level = self.level.max(to);
                self.act(seat, format_args!("raises {by} to {to}"), all_in);
            }
            Event::Call { seat, amount, all_in } => {
                self.put_in(seat);
                self.act(seat, format_args!("calls {amount}"), all_in);
            }
            Event::Check { seat } => self.act(seat, format_args!("checks"), false),
            Event::Fold { seat } => {
                let street = self.street;
                if let Some(p) = self.index(seat).and_then(|i| self.players.get_mut(i)) {
                    p.folded = Some(street);
                }
                self.act(seat, format_args!("folds"), false);
            }
            Event::Uncalled { seat, amount } => {
                let _ = writeln!(self.out, "Uncalled bet ({amount}) returned to {}", name_in(&self.players, seat));
            }
            Event::Showdown { .. } => {
                self.showdown = true;
                self.out.push_str("*** SHOW DOWN ***\n");
            }
            Event::Shown { seat, .. } => {
                let Some(i) = self.index(seat) else { return };
                let cards = self.players.get(i).map(|p| p.cards.clone()).unwrap_or_default();
                let description = self.describe(&cards);
                if let Some(p) = self.players.get_mut(i) {
                    p.shown = true;
                }
                self.act(seat, format_args!("shows [{}] ({description})", spaced(&cards)), false);
            }
            Event::Mucked { seat } => self.act(seat, format_args!("mucks hand"), false),
            Event::DeclarationStarted { .. } | Event::DeclarationsRevealed { .. } => {}
            Event::Declared { seat, declaration } => match declaration {
                Some(d) => self.act(seat, format_args!("declares {}", d.name()), false),
                None => self.act(seat, format_args!("declares"), false),
            },
            Event::Award { pot, half, seat, amount, ref hand } => {
                // A stud8 pot awarded whole at a showdown had no qualifying low (RULES.md 5).
                if self.variant == Variant::Stud8 && half == Half::Whole && hand.is_some() && !self.said_no_low {
                    self.said_no_low = true;
                    self.out.push_str("No low hand qualified\n");
                }
                let from = match pot {
                    _ if self.pots.len() <= 1 => "pot".to_owned(),
                    0 => "main pot".to_owned(),
                    k => format!("side pot-{k}"),
                };
                let _ = writeln!(self.out, "{} collected {amount} from {from}", name_in(&self.players, seat));
                if let Some(p) = self.index(seat).and_then(|i| self.players.get_mut(i)) {
                    p.won += amount;
                    p.awards.push((half, hand.as_deref().map(str::to_owned)));
                }
            }
            Event::HandEnded { .. } => {
                if !self.showdown {
                    // Everyone else folded: the winner's cards stay in the hand.
                    for p in self.players.iter().filter(|p| p.folded.is_none()) {
                        let _ = writeln!(self.out, "{}: doesn't show hand", p.name);
                    }
                }
            }
        }
    }

    /// `Dealt to NAME [d1 d2 u3]` once a player has the door card; later `[before] [new]`.
    fn dealt(&mut self, seat: Seat, card: Option<Card>, street: Street) {
        // An unfiltered replay deals every card face value; a back has nothing to write.
        let Some(card) = card else { return };
        self.street_header(street);
        let seen = self.visible.as_ref().is_none_or(|v| v.contains(&card));
        let Some(p) = self.index(seat).and_then(|i| self.players.get_mut(i)) else { return };
        let before = spaced(&p.cards);
        p.dealt += 1;
        if seen {
            p.cards.push(card);
        }
        match street {
            Street::Third if p.dealt == 3 && !p.cards.is_empty() => {
                let _ = writeln!(self.out, "Dealt to {} [{}]", p.name, spaced(&p.cards));
            }
            Street::Third => {}
            _ if !seen => {}
            _ if before.is_empty() => {
                let _ = writeln!(self.out, "Dealt to {} [{card}]", p.name);
            }
            _ => {
                let _ = writeln!(self.out, "Dealt to {} [{before}] [{card}]", p.name);
            }
        }
    }

    /// The name of a hand at showdown: own cards plus the community card, through the engine's
    /// evaluators. Stud8 gives both halves, PokerStars style: `HI: ...; LO: ...`.
    fn describe(&self, own: &[Card]) -> String {
        let mut cards = own.to_vec();
        cards.extend(self.community);
        if !(5..=7).contains(&cards.len()) {
            return String::new();
        }
        match self.variant {
            Variant::Stud | Variant::Chicago | Variant::Mississippi => eval::eval_high(&cards).name(),
            Variant::Razz | Variant::London => eval::eval_low_a5(&cards).name(),
            Variant::Stud8 | Variant::Stud8Declare => match eval::eval_hilo8(&cards) {
                (high, Some(low)) => format!("HI: {}; LO: {}", high.name(), low.name()),
                (high, None) => format!("HI: {}", high.name()),
            },
        }
    }

    /// What a seat won with: the engine's names of the hands that won its awards; in stud8 the
    /// high (or whole) and the low half each labelled.
    fn won_with(&self, p: &Player) -> String {
        let name = |want: Half| {
            p.awards
                .iter()
                .find(|(half, _)| *half == want || (want == Half::High && *half == Half::Whole))
                .and_then(|(_, hand)| hand.clone())
        };
        let labelled = |second: Half, label: &str| {
            let parts: Vec<String> =
                [name(Half::High).map(|n| format!("HI: {n}")), name(second).map(|n| format!("{label}: {n}"))]
                    .into_iter()
                    .flatten()
                    .collect();
            parts.join("; ")
        };
        let text = match self.variant {
            Variant::Stud8 | Variant::Stud8Declare => labelled(Half::Low, "LO"),
            Variant::Chicago => labelled(Half::Spade, "SPADE"),
            _ => p.awards.iter().find_map(|(_, hand)| hand.clone()).unwrap_or_default(),
        };
        if text.is_empty() { self.describe(&p.cards) } else { text }
    }

    fn summary(&mut self) {
        self.out.push_str("*** SUMMARY ***\n");
        let total: Chips = self.pots.iter().sum();
        let _ = write!(self.out, "Total pot {total}");
        if self.pots.len() > 1 {
            for (k, amount) in self.pots.iter().enumerate() {
                let _ = match k {
                    0 => write!(self.out, " Main pot {amount}."),
                    k => write!(self.out, " Side pot-{k} {amount}."),
                };
            }
        }
        self.out.push_str(" | Rake 0\n");
        let mut lines = Vec::with_capacity(self.players.len());
        for p in &self.players {
            let mut line = format!("Seat {}: {}", p.seat, p.name);
            if let Some(street) = p.folded {
                let _ = match street {
                    Street::Seventh => write!(line, " folded on the River"),
                    _ => write!(line, " folded on the {} Street", ordinal(street)),
                };
                if street == Street::Third && !p.bet_on_third {
                    line.push_str(" (didn't bet)");
                }
            } else if !self.showdown {
                let _ = write!(line, " collected ({})", p.won);
            } else {
                let verb = if p.shown { "showed" } else { "mucked" };
                let _ = write!(line, " {verb} [{}]", spaced(&p.cards));
                if p.won > 0 {
                    // Cards speak: a mucked hand can still win (RULES.md 5.4).
                    let _ = write!(line, " and won ({}) with {}", p.won, self.won_with(p));
                } else if p.shown {
                    let _ = write!(line, " and lost with {}", self.describe(&p.cards));
                }
            }
            lines.push(line);
        }
        for line in lines {
            self.out.push_str(&line);
            self.out.push('\n');
        }
    }
}

/// The name written for `seat`.
fn name_in(players: &[Player], seat: Seat) -> &str {
    players.iter().find(|p| p.seat == seat).map_or("", |p| p.name.as_str())
}

/// "3rd", "4th", ... "7th".
fn ordinal(street: Street) -> &'static str {
    match street {
        Street::Third => "3rd",
        Street::Fourth => "4th",
        Street::Fifth => "5th",
        Street::Sixth => "6th",
        Street::Seventh => "7th",
    }
}

/// Cards separated by spaces: `Kd 7h 2c`.
fn spaced(cards: &[Card]) -> String {
    cards.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
}

/// A tournament level as PokerStars writes it: a Roman numeral (`IV`); 0 as `0`.
fn roman(mut n: u32) -> String {
    const NUMERALS: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    if n == 0 {
        return "0".to_owned();
    }
    let mut out = String::new();
    for (value, numeral) in NUMERALS {
        while n >= value {
            out.push_str(numeral);
            n -= value;
        }
    }
    out
}

/// Seconds since the Unix epoch as PokerStars writes a time: `2026/11/29 22:20:51 UTC`, the hour
/// without a leading zero (`2012/08/07 4:39:16`). Proleptic Gregorian calendar (Howard Hinnant's
/// `civil_from_days`).
fn utc(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!("{year:04}/{month:02}/{day:02} {}:{:02}:{:02}", rest / 3600, rest / 60 % 60, rest % 60)
}

/// The game as a header names it: "7 Card Stud Limit", "Razz Pot Limit".
fn game_name(cfg: &TableConfig) -> String {
    [cfg.variant.title(), " ", cfg.betting.title()].concat()
}

/// The two stakes a header shows: small and big bet in fixed limit; in big-bet stud, where
/// there is no big bet, the bring-in and the minimum bet (RULES.md 10.2).
fn stakes(cfg: &TableConfig) -> (Chips, Chips) {
    if cfg.betting.is_big_bet() { (cfg.bring_in, cfg.small_bet) } else { (cfg.small_bet, cfg.big_bet) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::bot::Bot;
    use crate::card::parse_cards;
    use crate::deck::Seed;
    use crate::event::NoEvents;
    use crate::hand::Hand;

    fn seat(n: u8) -> Seat {
        Seat::new(n).unwrap()
    }

    fn cards(s: &str) -> Vec<Card> {
        parse_cards(&s.replace(' ', "")).unwrap()
    }

    /// Ante 10, bring-in 25, small bet 100, big bet 200.
    fn cfg(variant: Variant) -> TableConfig {
        TableConfig::new(variant, 10, 25, 100, 200)
    }

    /// Plays everyone's remaining turns passively (check, else call, else bring in) and answers
    /// every show-or-muck choice with `at_showdown`.
    fn finish(hand: &mut Hand, at_showdown: Action) {
        while let Some(s) = hand.to_act() {
            let legal = hand.legal_actions(s);
            let a = [Action::Check, Action::Call, Action::BringIn, at_showdown]
                .into_iter()
                .find(|a| legal.contains(a))
                .unwrap_or_else(|| panic!("no passive action in {legal:?}"));
            hand.apply(s, a).unwrap();
        }
    }

    /// Deals `third[i]` ("down down up") to the i-th seat listed, round by round as the engine
    /// deals, then `later` in order; applies `script`, then plays the rest passively.
    fn play(
        config: TableConfig,
        seats: &[(u8, Chips)],
        third: &[&str],
        later: &str,
        script: &[(u8, Action)],
        at_showdown: Action,
    ) -> HandRecord {
        let per: Vec<Vec<Card>> = third.iter().map(|s| cards(s)).collect();
        let mut order: Vec<Card> = (0..3).flat_map(|r| per.iter().map(move |v| v[r])).collect();
        order.extend(cards(later));
        let seats: Vec<(Seat, Chips)> = seats.iter().map(|&(s, c)| (seat(s), c)).collect();
        let (mut hand, _) = Hand::start_with_deck(config, &seats, &order).unwrap();
        for &(s, a) in script {
            hand.apply(seat(s), a).unwrap_or_else(|e| panic!("seat {s} {a:?}: {e}"));
        }
        finish(&mut hand, at_showdown);
        hand.record()
    }

    fn context(names: &[(u8, &str)]) -> TextContext {
        TextContext {
            hand_id: "42".to_owned(),
            table: "Sirius".to_owned(),
            started_at_secs: 1_795_990_851,
            names: names.iter().map(|&(s, n)| (s, n.to_owned())).collect(),
            viewer: None,
            tournament: None,
        }
    }

    fn assert_lines(text: &str, expected: &[&str]) {
        let lines: Vec<&str> = text.lines().collect();
        for line in expected {
            assert!(lines.contains(line), "missing line {line:?} in:\n{text}");
        }
    }

    #[test]
    fn everyone_folds_the_uncalled_bet_returns_and_the_winner_collects() {
        let record = play(
            cfg(Variant::Stud),
            &[(1, 4000), (3, 5230), (5, 2000)],
            &["Kd 7h 2c", "9s 3d 4h", "Ac Ad Js"],
            "Qs Th",
            &[
                (1, Action::BringIn),
                (3, Action::Complete { to: 100 }),
                (5, Action::Fold),
                (1, Action::Call),
                (1, Action::Check),
                (3, Action::Bet { to: 100 }),
                (1, Action::Raise { to: 200 }),
                (3, Action::Fold),
            ],
            Action::Muck,
        );
        let text = write_text(&record, &context(&[(1, "Alice"), (3, "Bob")])).unwrap();
        let expected = "\
PokerStars Hand #42:  7 Card Stud Limit (100/200) - 2026/11/29 22:20:51 UTC
Table 'Sirius' 8-max
Seat 1: Alice (4000 in chips)
Seat 3: Bob (5230 in chips)
Seat 5: Seat 5 (2000 in chips)
Alice: posts the ante 10
Bob: posts the ante 10
Seat 5: posts the ante 10
*** 3rd STREET ***
Dealt to Alice [Kd 7h 2c]
Dealt to Bob [9s 3d 4h]
Dealt to Seat 5 [Ac Ad Js]
Alice: brings in for 25
Bob: completes it to 100
Seat 5: folds
Alice: calls 75
*** 4th STREET ***
Dealt to Alice [Kd 7h 2c] [Qs]
Dealt to Bob [9s 3d 4h] [Th]
Alice: checks
Bob: bets 100
Alice: raises 100 to 200
Bob: folds
Uncalled bet (100) returned to Alice
Alice collected 430 from pot
Alice: doesn't show hand
*** SUMMARY ***
Total pot 430 | Rake 0
Seat 1: Alice collected (430)
Seat 3: Bob folded on the 4th Street
Seat 5: Seat 5 folded on the 3rd Street (didn't bet)
";
        assert_eq!(text, expected);
    }

    #[test]
    fn a_tournament_hand_says_so_in_the_header_with_its_level() {
        let record = play(
            cfg(Variant::Razz),
            &[(1, 4000), (2, 5230)],
            &["Ac Ad Kh", "2c 3d 7h"],
            "9s Qs 4d Js 5c 8s Tc 6h",
            &[(1, Action::BringIn), (2, Action::Complete { to: 100 }), (1, Action::Fold)],
            Action::Muck,
        );
        let mut ctx = context(&[(1, "Alice"), (2, "Bob")]);
        ctx.tournament =
            Some(crate::phh::TournamentContext { id: "77".to_owned(), name: "Sunday".to_owned(), level: 14 });
        let text = write_text(&record, &ctx).unwrap();
        let first = text.lines().next().unwrap();
        assert_eq!(
            first,
            "PokerStars Hand #42: Tournament #77, Razz Limit - Level XIV (100/200) - 2026/11/29 22:20:51 UTC"
        );
        // The rest is the hand as a cash history writes it.
        let cash = write_text(&record, &context(&[(1, "Alice"), (2, "Bob")])).unwrap();
        assert_eq!(text.lines().skip(1).collect::<Vec<_>>(), cash.lines().skip(1).collect::<Vec<_>>());
        assert_eq!(super::roman(4), "IV");
        assert_eq!(super::roman(1994), "MCMXCIV");
    }

    #[test]
    fn a_showdown_with_a_muck() {
        let record = play(
            cfg(Variant::Stud),
            &[(1, 4000), (2, 5230)],
            &["Ac Ad Kh", "2c 3d 7h"],
            "9s Qs 4d Js 5c 8s Tc 6h",
            &[(2, Action::BringIn), (1, Action::Complete { to: 100 }), (2, Action::Call)],
            Action::Muck,
        );
        let text = write_text(&record, &context(&[(1, "Alice"), (2, "Bob")])).unwrap();
        let expected = "\
PokerStars Hand #42:  7 Card Stud Limit (100/200) - 2026/11/29 22:20:51 UTC
Table 'Sirius' 8-max
Seat 1: Alice (4000 in chips)
Seat 2: Bob (5230 in chips)
Alice: posts the ante 10
Bob: posts the ante 10
*** 3rd STREET ***
Dealt to Alice [Ac Ad Kh]
Dealt to Bob [2c 3d 7h]
Bob: brings in for 25
Alice: completes it to 100
Bob: calls 75
*** 4th STREET ***
Dealt to Alice [Ac Ad Kh] [9s]
Dealt to Bob [2c 3d 7h] [Qs]
Alice: checks
Bob: checks
*** 5th STREET ***
Dealt to Alice [Ac Ad Kh 9s] [4d]
Dealt to Bob [2c 3d 7h Qs] [Js]
Alice: checks
Bob: checks
*** 6th STREET ***
Dealt to Alice [Ac Ad Kh 9s 4d] [5c]
Dealt to Bob [2c 3d 7h Qs Js] [8s]
Alice: checks
Bob: checks
*** RIVER ***
Dealt to Alice [Ac Ad Kh 9s 4d 5c] [Tc]
Dealt to Bob [2c 3d 7h Qs Js 8s] [6h]
Alice: checks
Bob: checks
*** SHOW DOWN ***
Alice: shows [Ac Ad Kh 9s 4d 5c Tc] (Pair of Aces)
Bob: mucks hand
Alice collected 220 from pot
*** SUMMARY ***
Total pot 220 | Rake 0
Seat 1: Alice showed [Ac Ad Kh 9s 4d 5c Tc] and won (220) with Pair of Aces
Seat 2: Bob mucked [2c 3d 7h Qs Js 8s 6h]
";
        assert_eq!(text, expected);
    }

    #[test]
    fn hi_lo_split_scoop_and_no_low() {
        let names = context(&[(1, "Alice"), (2, "Bob")]);
        let stud8 = |third: [&str; 2], later: &str| {
            let record = play(cfg(Variant::Stud8), &[(1, 4000), (2, 4000)], &third, later, &[], Action::Show);
            write_text(&record, &names).unwrap()
        };

        // Alice's low and Bob's trips split the 70 chips.
        let text = stud8(["Ac 2d 3h", "Kc Kd 9h"], "4s Ks 6d Js 9c Ts Qc 8s");
        assert!(text.starts_with("PokerStars Hand #42:  7 Card Stud Hi/Lo Limit (100/200) - "), "{text}");
        assert_lines(
            &text,
            &[
                "Alice: brings in for 25",
                "Alice: shows [Ac 2d 3h 4s 6d 9c Qc] (HI: High card, Ace; LO: 6-4-3-2-A)",
                "Bob: shows [Kc Kd 9h Ks Js Ts 8s] (HI: Three of a kind, Kings)",
                "Bob collected 35 from pot",
                "Alice collected 35 from pot",
                "Total pot 70 | Rake 0",
                "Seat 1: Alice showed [Ac 2d 3h 4s 6d 9c Qc] and won (35) with LO: 6-4-3-2-A",
                "Seat 2: Bob showed [Kc Kd 9h Ks Js Ts 8s] and won (35) with HI: Three of a kind, Kings",
            ],
        );
        assert!(!text.contains("No low hand qualified"));

        // A wheel scoops: one "collected" line per half.
        let text = stud8(["Ac 2d 3h", "Kc Kd 9h"], "4s Qs 5d 2s 9c 7s 9s 7h");
        assert_eq!(text.matches("Alice collected 35 from pot\n").count(), 2, "{text}");
        assert_lines(
            &text,
            &[
                "Seat 1: Alice showed [Ac 2d 3h 4s 5d 9c 9s] and won (70) with HI: Straight, Five high; LO: 5-4-3-2-A",
                "Seat 2: Bob showed [Kc Kd 9h Qs 2s 7s 7h] and lost with HI: Two pair, Kings and Sevens",
            ],
        );
        assert!(!text.contains("Bob collected"));

        // No low qualifies: the high hand takes the whole pot.
        let text = stud8(["Ac Td 9h", "Kc Kd Qh"], "9s Ks Jd Js 9c Ts Qc 8s");
        let lines: Vec<&str> = text.lines().collect();
        let no_low = lines.iter().position(|l| *l == "No low hand qualified");
        let collected = lines.iter().position(|l| *l == "Bob collected 70 from pot");
        assert!(no_low.is_some() && collected == no_low.map(|i| i + 1), "{text}");
        assert_lines(
            &text,
            &[
                "Seat 1: Alice showed [Ac Td 9h 9s Jd 9c Qc] and lost with HI: Three of a kind, Nines",
                "Seat 2: Bob showed [Kc Kd Qh Ks Js Ts 8s] and won (70) with HI: Three of a kind, Kings",
            ],
        );
    }

    #[test]
    fn side_pot_with_an_all_in() {
        let record = play(
            cfg(Variant::Stud),
            &[(1, 135), (2, 1000), (3, 1000)],
            &["Ac As Ad", "Kc Ks 2d", "7c 8d 3h"],
            "Ah Kd 9c 2s 4d Jc 3s 6h Qh 4s 5h 2h",
            &[
                (2, Action::BringIn),
                (3, Action::Complete { to: 100 }),
                (1, Action::Call),
                (2, Action::Call),
                (1, Action::Check),
                (2, Action::Bet { to: 100 }),
                (3, Action::Call),
                (1, Action::Call),
            ],
            Action::Muck,
        );
        let text = write_text(&record, &context(&[(1, "Alice"), (2, "Bob"), (3, "Carol")])).unwrap();
        let tail: Vec<&str> = text.lines().skip_while(|l| *l != "*** SHOW DOWN ***").collect();
        assert_eq!(
            tail,
            vec![
                "*** SHOW DOWN ***",
                "Bob: shows [Kc Ks 2d Kd 4d 6h 5h] (Three of a kind, Kings)",
                "Carol: mucks hand",
                "Alice: shows [Ac As Ad Ah 2s 3s 4s] (Four of a kind, Aces)",
                "Alice collected 405 from main pot",
                "Bob collected 150 from side pot-1",
                "*** SUMMARY ***",
                "Total pot 555 Main pot 405. Side pot-1 150. | Rake 0",
                "Seat 1: Alice showed [Ac As Ad Ah 2s 3s 4s] and won (405) with Four of a kind, Aces",
                "Seat 2: Bob showed [Kc Ks 2d Kd 4d 6h 5h] and won (150) with Three of a kind, Kings",
                "Seat 3: Carol mucked [7c 8d 3h 9c Jc Qh 2h]",
            ],
            "{text}"
        );
        assert_lines(&text, &["Alice: checks", "Bob: bets 100", "Carol: calls 100", "Alice: calls 25 and is all-in"]);
        // Alice is all-in: she keeps being dealt cards but the betting is between the others.
        assert_lines(&text, &["Dealt to Alice [Ac As Ad Ah 2s 3s] [4s]"]);
        assert_eq!(text.matches("Alice: checks").count(), 1, "{text}");
    }

    #[test]
    fn the_community_card_is_dealt_to_the_board() {
        // As in the engine's rule test: 8 players checking and calling to 7th street run the deck short.
        let seats: Vec<(Seat, Chips)> = (1..=8).map(|s| (seat(s), 5000)).collect();
        let (mut hand, _) = Hand::start(cfg(Variant::Stud), &seats, Seed([3; 32])).unwrap();
        finish(&mut hand, Action::Muck);
        let record = hand.record();
        let community = record.result.as_ref().and_then(|r| r.community).unwrap();
        let text = write_text(&record, &context(&[])).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let seventh = lines.iter().position(|l| *l == "*** RIVER ***").unwrap();
        assert_eq!(lines[seventh + 1], format!("Dealt to the board [{community}]"), "{text}");
        let showdown = lines.iter().position(|l| *l == "*** SHOW DOWN ***").unwrap();
        assert!(
            lines[seventh + 2..showdown].iter().all(|l| !l.starts_with("Dealt to")),
            "nobody gets an own card on 7th street:\n{text}"
        );
        // Shown hands are six own cards, named with the community card as the seventh.
        let (_, events) = record.replay().unwrap();
        let mut shown = 0;
        for e in &events {
            if let Event::Shown { seat, cards, description, .. } = e {
                assert_eq!(cards.len(), 6);
                let line = format!("Seat {seat}: shows [{}] ({description})", spaced(cards));
                assert!(lines.contains(&line.as_str()), "missing {line:?}:\n{text}");
                shown += 1;
            }
        }
        assert!(shown > 0);
    }

    #[test]
    fn an_unfinished_or_broken_record_is_refused() {
        let seats = [(seat(1), 1000), (seat(2), 1000)];
        let (mut hand, _) = Hand::start(cfg(Variant::Razz), &seats, Seed([1; 32])).unwrap();
        let Some(s) = hand.to_act() else { panic!("nobody to act") };
        hand.apply(s, Action::BringIn).unwrap();
        let mut record = hand.record();
        assert_eq!(write_text(&record, &TextContext::default()), Err(ReplayError::Unfinished(1)));
        record.actions.push(crate::record::RecordedAction { seat: s, action: Action::Check });
        assert!(matches!(write_text(&record, &TextContext::default()), Err(ReplayError::Illegal { index: 1, .. })));
    }

    #[test]
    fn times_are_utc_with_the_hour_unpadded() {
        assert_eq!(utc(0), "1970/01/01 0:00:00");
        assert_eq!(utc(1_795_990_851), "2026/11/29 22:20:51");
        assert_eq!(utc(1_709_179_506), "2024/02/29 4:05:06");
        assert_eq!(utc(951_868_800 - 1), "2000/02/29 23:59:59");
        assert_eq!(utc(951_868_800), "2000/03/01 0:00:00");
    }

    /// Checks a history against its record: header, seats, the chips of every line adding up to
    /// the finishing stacks, raise increments, all-in marks, the deal, the showdown names (against
    /// the engine's own descriptions), and the summary.
    fn check_history(record: &HandRecord, ctx: &TextContext, text: &str) {
        let name_of = |s: Seat| {
            ctx.names.iter().find(|(n, _)| *n == s.number()).map_or_else(|| format!("Seat {s}"), |(_, n)| n.clone())
        };
        let names: Vec<String> = record.seats.iter().map(|s| name_of(s.seat)).collect();
        let who = |name: &str| names.iter().position(|n| n == name).unwrap_or_else(|| panic!("unknown {name:?}"));
        let num = |s: &str| s.parse::<Chips>().unwrap_or_else(|_| panic!("not a number: {s:?}"));
        let lines: Vec<&str> = text.lines().collect();
        let cfg = &record.config;
        let head =
            format!("PokerStars Hand #{}:  {} ({}/{}) - ", ctx.hand_id, game_name(cfg), stakes(cfg).0, stakes(cfg).1);
        assert!(lines[0].starts_with(&head) && lines[0].ends_with(" UTC"), "{text}");
        assert_eq!(lines[1], format!("Table '{}' 8-max", ctx.table));
        let n = record.seats.len();
        for (k, s) in record.seats.iter().enumerate() {
            assert_eq!(lines[2 + k], format!("Seat {}: {} ({} in chips)", s.seat, names[k], s.chips), "{text}");
        }
        assert_eq!(lines.iter().filter(|l| **l == "*** SUMMARY ***").count(), 1, "{text}");
        let summary = lines.iter().position(|l| *l == "*** SUMMARY ***").unwrap();

        let mut stack: Vec<Chips> = record.seats.iter().map(|s| s.chips).collect();
        let mut street_in: Vec<Chips> = vec![0; n];
        let mut level = 0;
        let mut dealt: Vec<String> = vec![String::new(); n];
        let mut collected = 0;
        for line in &lines[2 + n..summary] {
            if line.starts_with("*** ") {
                street_in.fill(0);
                level = 0;
                continue;
            }
            if *line == "No low hand qualified" || line.starts_with("Dealt to the board [") {
                continue;
            }
            if let Some(rest) = line.strip_prefix("Dealt to ") {
                let (name, cards) = rest.split_once(" [").unwrap();
                let i = who(name);
                let cards = cards.strip_suffix(']').unwrap();
                dealt[i] = match cards.split_once("] [") {
                    Some((before, new)) => {
                        assert_eq!(before, dealt[i], "{line}: not the cards dealt before");
                        assert_eq!(new.len(), 2, "{line}");
                        format!("{before} {new}")
                    }
                    None => {
                        assert!(dealt[i].is_empty() && cards.len() == 8, "{line}");
                        cards.to_owned()
                    }
                };
                continue;
            }
            if let Some(rest) = line.strip_prefix("Uncalled bet (") {
                let (amount, name) = rest.split_once(") returned to ").unwrap();
                stack[who(name)] += num(amount);
                continue;
            }
            if let Some((name, rest)) = line.split_once(" collected ") {
                let (amount, from) = rest.split_once(" from ").unwrap();
                assert!(
                    from == "pot" || from == "main pot" || from.strip_prefix("side pot-").is_some_and(|k| num(k) > 0),
                    "{line}"
                );
                stack[who(name)] += num(amount);
                collected += num(amount);
                continue;
            }
            let (name, rest) = line.split_once(": ").unwrap_or_else(|| panic!("unexpected line {line:?}"));
            let i = who(name);
            let (rest, all_in) = match rest.strip_suffix(" and is all-in") {
                Some(r) => (r, true),
                None => (rest, false),
            };
            let words: Vec<&str> = rest.split(' ').collect();
            let add = match words.as_slice() {
                ["posts", "the", "ante", a] => {
                    stack[i] -= num(a);
                    None
                }
                ["brings", "in", "for", a] | ["calls", a] => Some(num(a)),
                ["bets", t] => {
                    assert_eq!(street_in[i], 0, "{line}");
                    Some(num(t))
                }
                ["completes", "it", "to", t] => Some(num(t) - street_in[i]),
                ["raises", by, "to", t] => {
                    assert_eq!(num(by), num(t) - level, "{line}: the increment over the bet");
                    Some(num(t) - street_in[i])
                }
                ["checks"]
                | ["folds"]
                | ["mucks", "hand"]
                | ["doesn't", "show", "hand"]
                | ["shows", ..]
                | ["declares", ..] => {
                    assert!(!all_in, "{line}");
                    continue;
                }
                _ => panic!("unexpected line {line:?}"),
            };
            if let Some(add) = add {
                stack[i] -= add;
                street_in[i] += add;
                level = level.max(street_in[i]);
            }
            assert_eq!(all_in, stack[i] == 0, "{line}: the all-in mark");
        }
        let result = record.result.as_ref().unwrap();
        let finishing: Vec<Chips> = result.finishing_stacks.iter().map(|s| s.chips).collect();
        assert_eq!(stack, finishing, "the text's chips do not add up:\n{text}");

        // Showdown names agree with the engine's.
        let (_, events) = record.replay().unwrap();
        for e in &events {
            if let Event::Shown { seat, cards, description, .. } = e {
                let name = match cfg.variant {
                    Variant::Stud8 | Variant::Stud8Declare => {
                        format!("HI: {}", description.replace("; low ", "; LO: ").replace("; no low", ""))
                    }
                    _ => description.to_string(),
                };
                let line = format!("{}: shows [{}] ({name})", name_of(*seat), spaced(cards));
                assert!(lines.contains(&line.as_str()), "missing {line:?}:\n{text}");
            }
        }

        // Summary: the total, the pots, one line per seat; everything won adds up to the total.
        let total_line = lines[summary + 1];
        let body = total_line.strip_prefix("Total pot ").and_then(|s| s.strip_suffix(" | Rake 0")).unwrap();
        let (total, pots) = body.split_once(' ').unwrap_or((body, ""));
        let total = num(total);
        let awarded: Chips = result.awards.iter().map(|a| a.amount).sum();
        assert_eq!((collected, total), (awarded, awarded), "{text}");
        if !pots.is_empty() {
            let amounts: Vec<Chips> =
                pots.split(". ").map(|p| num(p.trim_end_matches('.').rsplit(' ').next().unwrap())).collect();
            assert!(pots.starts_with("Main pot ") && amounts.len() > 1, "{total_line}");
            assert_eq!(amounts.iter().sum::<Chips>(), total, "{total_line}");
        }
        let seat_lines = &lines[summary + 2..];
        assert_eq!(seat_lines.len(), n, "{text}");
        let mut won = 0;
        for (k, (line, s)) in seat_lines.iter().zip(&record.seats).enumerate() {
            let rest = line.strip_prefix(&format!("Seat {}: {} ", s.seat, names[k])).unwrap();
            let amount = rest
                .split_once("won (")
                .or_else(|| rest.split_once("collected ("))
                .map_or(0, |(_, r)| num(r.split_once(')').unwrap().0));
            won += amount;
            let awarded: Chips = result.awards.iter().filter(|a| a.seat == s.seat).map(|a| a.amount).sum();
            assert_eq!(amount, awarded, "{line}");
            if rest.starts_with("folded on the ") {
                assert!(amount == 0 && !dealt[k].is_empty(), "{line}");
            } else if let Some(cards) = rest.strip_prefix("showed [").or_else(|| rest.strip_prefix("mucked [")) {
                let cards = cards.split_once(']').unwrap().0;
                assert_eq!(cards, dealt[k], "{line}: not the cards dealt");
            } else {
                assert!(rest.starts_with("collected ("), "{line}");
            }
        }
        assert_eq!(won, total, "{text}");
    }

    #[test]
    fn random_hands_write_histories_that_add_up() {
        let mut rng = Bot::new(2026);
        let mut side_pots = 0;
        for k in 0..350u64 {
            let all = crate::config::ALL_VARIANTS;
            let variant = all[(rng.next_u64() % all.len() as u64) as usize];
            let players = 2 + (rng.next_u64() % 7) as usize;
            let mut free: Vec<u8> = (1..=8).collect();
            let mut seats: Vec<(Seat, Chips)> = (0..players)
                .map(|_| {
                    let s = free.remove((rng.next_u64() % free.len() as u64) as usize);
                    (seat(s), 1 + rng.next_u64() % 3000)
                })
                .collect();
            seats.sort_unstable();
            let bring_in = 1 + rng.next_u64() % 20;
            let small = bring_in * 2 + 4;
            let mut config = TableConfig::new(variant, rng.next_u64() % 30, bring_in, small, small * 2);
            config.open_pair_big_bet = !variant.is_razz_like() && rng.next_u64() % 2 == 0;
            config.betting = crate::config::ALL_BETTINGS[(rng.next_u64() % 3) as usize];
            let mut seed = [0u8; 32];
            for b in &mut seed {
                *b = rng.next_u64() as u8;
            }
            let mut bots: Vec<Bot> = (0..8).map(|_| Bot::new(rng.next_u64())).collect();
            let (hand, _) = crate::sim::play_hand(config, &seats, Seed(seed), &mut bots, &mut NoEvents).unwrap();
            let record = hand.record();
            // Odd seats get a name, even seats are written "Seat N".
            let names = seats.iter().filter(|(s, _)| s.number() % 2 == 1).map(|(s, _)| (s.number(), format!("p{s}")));
            let ctx = TextContext {
                hand_id: k.to_string(),
                table: "Proptest".to_owned(),
                started_at_secs: 1_700_000_000 + k * 97,
                names: names.collect(),
                viewer: None,
                tournament: None,
            };
            let text = write_text(&record, &ctx).unwrap();
            check_history(&record, &ctx, &text);
            // A player's own history names no card their LAST HAND hides.
            let viewer = crate::event::Viewer::Seat(seats[0].0);
            let own = write_text(&record, &TextContext { viewer: Some(viewer), ..ctx.clone() }).unwrap();
            let visible = hand.last_hand_visible(viewer);
            let bracketed = own.split('[').skip(1).filter_map(|part| part.split(']').next());
            for card in bracketed.flat_map(|cards| cards.split(' ')) {
                let card = parse_cards(card).unwrap()[0];
                assert!(visible.contains(&card), "{card} is hidden from {viewer:?}:\n{own}");
            }
            side_pots += usize::from(text.contains("side pot-1"));
        }
        // The stacks are short enough that the 200 hands include side pots.
        assert!(side_pots > 0);
    }
}
