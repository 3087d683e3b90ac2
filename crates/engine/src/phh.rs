//! PHH (Poker Hand History, the `uoftcprg/phh-std` format) for stud: writing finished hands
//! and reading them back into records the engine replays.
//!
//! Variants `F7S`, `F7S/8`, `FR`, and for pot limit and no limit the same codes with `P` or `N`
//! for the `F` (ours: docs/PHH.md). Players `p1..pN` are the seats dealt in, lowest seat first.
//! Actions: `d dh pN CARDS` (3rd street: down, down, up), `d db CARD` (community card),
//! `pN pb` (bring-in), `pN cbr TOTAL` (complete/bet/raise to a street total), `pN cc`
//! (check/call), `pN f`, `pN sm CARDS` (show) and `pN sm` (muck). Our own fields start with `_`.
//!
//! The reader takes PHH as PokerKit writes it: when an all-in closes the betting with cards
//! still to come, PokerKit shows every live hand (`sm` with the cards held so far) before the
//! rest is dealt, and again at the end. Those early lines are an exposure of cards already
//! dealt, checked and kept in [`PhhHand::early_shows`]; the showdown (its order included) is
//! the engine's, as for any other hand. Fields the reader does not know, or cannot read, are
//! [`PhhWarning`]s rather than refusals, unless the hand needs them: a `_seed` that is not ours
//! is ignored only when the deal lines give every card.

use std::collections::VecDeque;
use std::fmt::Write as _;

use crate::action::{Action, ActionError, Declaration, SeatChips, Street};
use crate::card::{Card, format_cards, parse_cards};
use crate::config::{Chips, Seat, TableConfig};
use crate::deck::{Deck, Seed};
use crate::event::Event;
use crate::hand::{Hand, Phase};
use crate::record::{HandRecord, ReplayError};

/// A PHH document that cannot be read or does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhhError {
    /// Not TOML.
    #[error("not valid TOML: {0}")]
    Toml(String),
    /// A field is missing or has the wrong type.
    #[error("field `{0}` is missing or malformed")]
    Field(&'static str),
    /// An unsupported value.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// An action string that cannot be parsed.
    #[error("action {index} `{text}` is malformed")]
    BadAction {
        /// 0-based index in `actions`
        index: usize,
        /// the text
        text: String,
    },
    /// An action the engine refuses, or a deal that differs from the engine's.
    #[error("action {index} `{text}` does not replay: {reason}")]
    Replay {
        /// 0-based index in `actions`
        index: usize,
        /// the text
        text: String,
        /// why
        reason: String,
    },
    /// The hand cannot start, or the record does not reproduce.
    #[error(transparent)]
    Record(#[from] ReplayError),
    /// The actions ended before the hand did.
    #[error("the hand is not over after the last action")]
    Unfinished,
    /// The replayed finishing stacks differ from the file's.
    #[error("finishing_stacks differ: file {file:?}, replayed {replayed:?}")]
    FinishingStacks {
        /// in the file
        file: Vec<Chips>,
        /// by the engine
        replayed: Vec<Chips>,
    },
}

impl PhhError {
    /// The index of the offending action, when there is one.
    pub fn action_index(&self) -> Option<usize> {
        match self {
            PhhError::BadAction { index, .. } | PhhError::Replay { index, .. } => Some(*index),
            _ => None,
        }
    }
}

/// Something in a PHH hand the reader ignored or read under RULES.md where the file's writer
/// follows other rules; the hand still replayed. `Display` gives a line a caller can print.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhhWarning {
    /// A field that is neither PHH's nor one of ours (another tool's `_field`, say).
    #[error("field `{0}` is not one this reader knows: ignored")]
    UnknownField(String),
    /// One of our fields with a value we cannot read (another tool's `_seed`, say): ignored.
    #[error("field `{field}` cannot be read ({reason}): ignored")]
    Unreadable {
        /// the field
        field: String,
        /// why
        reason: String,
    },
    /// A wager the rule book does not allow at that point, replayed as the legal one it stands
    /// for (another tool's rules: docs/PHH.md).
    #[error("action {index} `{text}` replayed as {replayed_as}: {reason}")]
    Adjusted {
        /// 0-based index in `actions`
        index: usize,
        /// the text
        text: String,
        /// the action replayed
        replayed_as: String,
        /// the rule
        reason: String,
    },
    /// A line of another tool's history for a betting round the rule book had already closed
    /// (after an [`PhhWarning::Adjusted`] action): read and set aside.
    #[error("action {index} `{text}` set aside: under RULES.md that betting round is over")]
    SetAside {
        /// 0-based index in `actions`
        index: usize,
        /// the text
        text: String,
    },
    /// Another tool's history ends the betting where the rule book keeps it open: the player
    /// to act took the passive action (bring in, call or check).
    #[error("no betting line for p{player} where the rule book asks for one: replayed as {action}")]
    NoBettingLine {
        /// 1-based player number
        player: usize,
        /// the action replayed
        action: String,
    },
    /// Another tool's deal after its rules and the rule book's parted (see the other
    /// warnings): from this line on, the engine's deal stands and the file's is not checked.
    #[error("action {index}: from here the file deals to other players than the rule book; the engine's deal stands")]
    DealDiffers {
        /// 0-based index in `actions`
        index: usize,
    },
    /// The engine asked a player to show or muck and the file has no line for it: mucked.
    #[error("no showdown line for p{player}: mucked (cards speak, RULES.md 5.4)")]
    NoShowdownLine {
        /// 1-based player number
        player: usize,
    },
    /// Another tool's history whose result differs from the rule book's.
    #[error("the file's finishing_stacks {file:?} differ from the rule book's {replayed:?}")]
    ResultDiffers {
        /// in the file
        file: Vec<Chips>,
        /// by the engine
        replayed: Vec<Chips>,
    },
}

/// PHH's own fields (phh-std) for the variants we read: known, and ignored when they do not
/// bear on a stud hand's replay.
const PHH_FIELDS: &[&str] = &[
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "time_limit",
    "time_banks",
];

/// Our own fields.
const OWN_FIELDS: &[&str] =
    &["_max_raises", "_open_pair_big_bet", "_uncapped_heads_up", "_big_bet", "_seed", "_commitment", "_tournament"];

/// Optional context written with a hand.
#[derive(Clone, Debug, Default)]
pub struct PhhContext {
    /// the hand number (`hand`)
    pub hand: Option<u64>,
    /// the table name (`table`)
    pub table: Option<String>,
    /// write the hand as this viewer's LAST HAND: every card they may not see is `??`
    /// (PHH's unknown card) and the seed is left out; `None` writes every card and the seed
    pub viewer: Option<crate::event::Viewer>,
    /// a tournament's hand: written as phh-std's `event` (the tournament's name) and `level`,
    /// and our own `_tournament` (its id)
    pub tournament: Option<TournamentContext>,
}

/// The tournament a hand was played in, for its histories (PHH and text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentContext {
    /// the tournament's id
    pub id: String,
    /// its name
    pub name: String,
    /// the level the hand was dealt at, 1-based
    pub level: u32,
}

/// Writes a finished hand as one PHH document.
///
/// # Errors
/// [`ReplayError`] if the record does not replay.
pub fn write_hand(record: &HandRecord, context: &PhhContext) -> Result<String, ReplayError> {
    let (hand, events) = record.replay()?;
    let visible = context.viewer.map(|v| hand.last_hand_visible(v));
    let shown = |card: &Card| -> String {
        match &visible {
            Some(cards) if !cards.contains(card) => "??".to_owned(),
            _ => card.to_string(),
        }
    };
    let index_of = |seat: Seat| record.seats.iter().position(|s| s.seat == seat).map_or(0, |i| i + 1);
    let cfg = &record.config;
    let n = record.seats.len();
    let mut out = String::with_capacity(2048);
    let list = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(", ");
    let _ = writeln!(out, "variant = \"{}\"", cfg.phh_code());
    let _ = writeln!(out, "ante_trimming_status = true");
    let _ = writeln!(out, "antes = [{}]", list(&mut (0..n).map(|_| cfg.ante.to_string())));
    let _ = writeln!(out, "bring_in = {}", cfg.bring_in);
    if cfg.betting.is_big_bet() {
        // docs/PHH.md: big-bet stud writes phh-std's `min_bet`; the unused big bet is ours.
        let _ = writeln!(out, "min_bet = {}", cfg.small_bet);
    } else {
        let _ = writeln!(out, "small_bet = {}", cfg.small_bet);
        let _ = writeln!(out, "big_bet = {}", cfg.big_bet);
    }
    let _ = writeln!(out, "starting_stacks = [{}]", list(&mut record.seats.iter().map(|s| s.chips.to_string())));
    let _ = writeln!(out, "seats = [{}]", list(&mut record.seats.iter().map(|s| s.seat.to_string())));
    let _ = writeln!(out, "seat_count = 8");
    if let Some(h) = context.hand {
        let _ = writeln!(out, "hand = {h}");
    }
    if let Some(t) = &context.table {
        let _ = writeln!(out, "table = {}", toml_string(t));
    }
    if let Some(t) = &context.tournament {
        let _ = writeln!(out, "event = {}", toml_string(&t.name));
        let _ = writeln!(out, "level = {}", t.level);
    }
    let _ = writeln!(out, "actions = [");
    let mut third: Vec<Vec<Card>> = vec![Vec::new(); n];
    let mut third_open = true;
    let flush_third = |third: &mut Vec<Vec<Card>>, out: &mut String| {
        for (i, cards) in third.iter_mut().enumerate() {
            if !cards.is_empty() {
                let text: String = cards.iter().map(shown).collect();
                let _ = writeln!(out, "  \"d dh p{} {}\",", i + 1, text);
                cards.clear();
            }
        }
    };
    for e in &events {
        if third_open
            && !matches!(e, Event::Dealt { street: Street::Third, .. } | Event::HandStarted { .. } | Event::Ante { .. })
        {
            flush_third(&mut third, &mut out);
            third_open = false;
        }
        match e {
            Event::Dealt { seat, card: Some(card), street: Street::Third, .. } => {
                if let Some(v) = third.get_mut(index_of(*seat).wrapping_sub(1)) {
                    v.push(*card);
                }
            }
            Event::Dealt { seat, card: Some(card), .. } => {
                let _ = writeln!(out, "  \"d dh p{} {}\",", index_of(*seat), shown(card));
            }
            Event::Community { card } => {
                let _ = writeln!(out, "  \"d db {card}\",");
            }
            Event::BringIn { seat, .. } => {
                let _ = writeln!(out, "  \"p{} pb\",", index_of(*seat));
            }
            Event::Complete { seat, to, .. } | Event::Bet { seat, to, .. } | Event::Raise { seat, to, .. } => {
                let _ = writeln!(out, "  \"p{} cbr {}\",", index_of(*seat), to);
            }
            Event::Call { seat, .. } | Event::Check { seat } => {
                let _ = writeln!(out, "  \"p{} cc\",", index_of(*seat));
            }
            Event::Fold { seat } => {
                let _ = writeln!(out, "  \"p{} f\",", index_of(*seat));
            }
            Event::Shown { seat, cards, .. } => {
                let _ = writeln!(out, "  \"p{} sm {}\",", index_of(*seat), format_cards(cards));
            }
            Event::Mucked { seat } => {
                let _ = writeln!(out, "  \"p{} sm\",", index_of(*seat));
            }
            Event::Declared { seat, declaration: Some(d) } => {
                let _ = writeln!(out, "  \"p{} dcl {}\",", index_of(*seat), d.name());
            }
            _ => {}
        }
    }
    let _ = writeln!(out, "]");
    let finishing: Vec<String> = hand.stacks().iter().map(|s| s.chips.to_string()).collect();
    let _ = writeln!(out, "finishing_stacks = [{}]", finishing.join(", "));
    let _ = writeln!(out, "_max_raises = {}", cfg.max_raises);
    let _ = writeln!(out, "_open_pair_big_bet = {}", cfg.open_pair_big_bet);
    let _ = writeln!(out, "_uncapped_heads_up = {}", cfg.uncapped_heads_up);
    if cfg.betting.is_big_bet() {
        let _ = writeln!(out, "_big_bet = {}", cfg.big_bet);
    }
    if let Some(seed) = record.seed.as_ref().filter(|_| context.viewer.is_none()) {
        let _ = writeln!(out, "_seed = \"{seed}\"");
    }
    if let Some(c) = &record.commitment {
        let _ = writeln!(out, "_commitment = \"{c}\"");
    }
    if let Some(t) = &context.tournament {
        let _ = writeln!(out, "_tournament = {}", toml_string(&t.id));
    }
    Ok(out)
}

/// One step of taking the showdown lines read so far as the engine asks for them: lines for
/// hands the engine showed by itself are settled (a muck written for a hand the rules show is
/// shown: cards speak); then, if the player the engine asks has a line, their choice is
/// applied (true). The caller collects the events and calls again until it gives false.
fn take_showdown_line(
    hand: &mut Hand,
    intents: &mut Vec<(usize, bool)>,
    auto_shown: &mut Vec<(usize, Vec<Card>)>,
    events: &mut Vec<Event>,
    seats: &[(Seat, Chips)],
) -> Result<bool, ActionError> {
    intents.retain(|(i, _)| match auto_shown.iter().position(|(j, _)| j == i) {
        Some(k) => {
            auto_shown.remove(k);
            false
        }
        None => true,
    });
    let asked = hand.to_act().filter(|_| hand.phase() == Phase::Showdown);
    let Some(seat) = asked else { return Ok(false) };
    let Some(k) = intents.iter().position(|(i, _)| seats.get(*i).is_some_and(|s| s.0 == seat)) else {
        return Ok(false);
    };
    let (_, show) = intents.remove(k);
    hand.apply_into(seat, if show { Action::Show } else { Action::Muck }, events)?;
    Ok(true)
}

/// Another tool's `cbr` that is not a legal wager under RULES.md, as the action it stands for:
/// a short bring-in written as an all-in wager is the bring-in (4.2); a raise measured from a
/// short all-in that the half-bet rule (4.9) does not count is the legal raise of that size
/// (the largest legal total not above the file's, else the smallest).
///
/// A fixed-limit wager where the rule book allows none
/// (a player who has acted, facing an all-in of less than half a bet, RULES.md 4.9) is the call
/// (or check) it can only be here.
fn foreign_wager(hand: &Hand, seat: Seat, to: Chips) -> Option<(Action, &'static str)> {
    let legal = hand.legal();
    let stack = hand.stacks().iter().find(|s| s.seat == seat)?.chips;
    if legal.allows(Action::BringIn) && legal.wager_count() == 0 && to == stack {
        return Some((Action::BringIn, "a short bring-in written as an all-in wager (RULES.md 4.2)"));
    }
    if hand.config().betting.is_big_bet() {
        return None;
    }
    let wagers: Vec<Action> = legal.wagers().collect();
    if let Some(pick) = wagers.iter().rev().find(|a| a.to().is_some_and(|t| t <= to)).or_else(|| wagers.first()) {
        return Some((*pick, "RULES.md 4.9: a short all-in of less than half a bet does not move the next full wager"));
    }
    let passive = legal.passive()?;
    Some((
        passive,
        "RULES.md 4.9: a short all-in of less than half a bet does not reopen the betting for a player who has acted",
    ))
}

/// One passive action (bring in, call or check) by the player the rule book asks, where another
/// tool's history has no line for it, said as [`PhhWarning::NoBettingLine`]; nothing when
/// nobody is to act, when it is `but_not`'s turn, or when nothing passive is legal. True when it
/// acted (the caller collects the events).
fn play_passively(
    hand: &mut Hand,
    seats: &[(Seat, Chips)],
    but_not: Option<Seat>,
    warnings: &mut Vec<PhhWarning>,
    events: &mut Vec<Event>,
) -> Result<bool, ActionError> {
    let Some(to_act) = hand.to_act().filter(|s| Some(*s) != but_not) else { return Ok(false) };
    let Some(action) = hand.legal().passive() else { return Ok(false) };
    let player = seats.iter().position(|s| s.0 == to_act).unwrap_or(0) + 1;
    warnings.push(PhhWarning::NoBettingLine { player, action: format!("{action:?}") });
    hand.apply_into(to_act, action, events)?;
    Ok(true)
}

/// Whether another tool's history has already been read differently from what it says (an
/// action adjusted, set aside or supplied): its later deal may then differ from the engine's.
fn diverged(warnings: &[PhhWarning]) -> bool {
    warnings.iter().any(|w| {
        matches!(w, PhhWarning::Adjusted { .. } | PhhWarning::SetAside { .. } | PhhWarning::NoBettingLine { .. })
    })
}

/// Writes several hands as one `.phhs` document: TOML tables `[1]`, `[2]`, ...
///
/// # Errors
/// [`ReplayError`] if a record does not replay.
pub fn write_hands<'a>(records: impl IntoIterator<Item = (&'a HandRecord, PhhContext)>) -> Result<String, ReplayError> {
    let mut out = String::new();
    for (k, (record, context)) in records.into_iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "[{}]", k + 1);
        out.push_str(&write_hand(record, &context)?);
    }
    Ok(out)
}

fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One hand read from PHH, replayed through the engine.
#[derive(Clone, Debug)]
pub struct PhhHand {
    /// its name in a `.phhs` file (`"1"`, `"2"`, ...), or `None` for a single `.phh`
    pub name: Option<String>,
    /// the record, whose replay reproduces the file
    pub record: HandRecord,
    /// the engine's finishing stacks, in player order
    pub finishing_stacks: Vec<Chips>,
    /// cards shown face up before the showdown, in file order: PokerKit's exposure of every
    /// live hand when an all-in closes the betting (each player's cards dealt so far)
    pub early_shows: Vec<(Seat, Vec<Card>)>,
    /// what the reader ignored (unknown or unreadable fields)
    pub warnings: Vec<PhhWarning>,
}

/// One hand of a document: its name in a `.phhs` (`None` for a `.phh`) and how it replayed.
pub type PhhEntry = (Option<String>, Result<PhhHand, PhhError>);

/// Reads a `.phh` (one hand) or `.phhs` (tables of hands) document. Each hand is replayed;
/// the result per hand is its record or the reason it does not replay.
///
/// # Errors
/// [`PhhError::Toml`] when the document is not TOML at all.
pub fn read(text: &str) -> Result<Vec<PhhEntry>, PhhError> {
    let doc: toml::Table = toml::from_str(text).map_err(|e| PhhError::Toml(e.to_string()))?;
    if doc.contains_key("variant") {
        return Ok(vec![(None, read_hand(&doc, None))]);
    }
    let mut hands: Vec<(String, &toml::Table)> =
        doc.iter().filter_map(|(k, v)| v.as_table().map(|t| (k.clone(), t))).collect();
    // Numeric keys in numeric order.
    hands.sort_by(|a, b| match (a.0.parse::<u64>(), b.0.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.0.cmp(&b.0),
    });
    Ok(hands.into_iter().map(|(name, t)| (Some(name.clone()), read_hand(t, Some(name)))).collect())
}

fn int(t: &toml::Table, key: &'static str) -> Result<Chips, PhhError> {
    t.get(key).and_then(toml::Value::as_integer).and_then(|v| Chips::try_from(v).ok()).ok_or(PhhError::Field(key))
}

fn ints(t: &toml::Table, key: &'static str) -> Result<Vec<Chips>, PhhError> {
    t.get(key)
        .and_then(toml::Value::as_array)
        .ok_or(PhhError::Field(key))?
        .iter()
        .map(|v| v.as_integer().and_then(|v| Chips::try_from(v).ok()).ok_or(PhhError::Field(key)))
        .collect()
}

enum Line {
    Deal { player: usize, cards: Vec<Card> },
    Community(Card),
    Player { player: usize, verb: Verb },
}

enum Verb {
    BringIn,
    Cbr(Chips),
    CheckCall,
    Fold,
    /// the cards shown; `None` for PokerKit's `sm -` (show whatever is held)
    Show(Option<Vec<Card>>),
    Muck,
    /// ours (docs/PHH.md): `pN dcl high|low|both`, the declare game's declaration
    Declare(Declaration),
}

fn parse_line(index: usize, text: &str) -> Result<Line, PhhError> {
    let bad = || PhhError::BadAction { index, text: text.to_owned() };
    // Comments after '#' are allowed inside action strings.
    let body = text.split('#').next().unwrap_or("").trim();
    let words: Vec<&str> = body.split_whitespace().collect();
    let player = |w: &str| -> Result<usize, PhhError> {
        w.strip_prefix('p').and_then(|n| n.parse::<usize>().ok()).filter(|&n| n >= 1).ok_or_else(bad)
    };
    match words.as_slice() {
        ["d", "dh", p, cards] => Ok(Line::Deal { player: player(p)?, cards: parse_cards(cards).map_err(|_| bad())? }),
        ["d", "db", card] => {
            let cards = parse_cards(card).map_err(|_| bad())?;
            match cards.as_slice() {
                [c] => Ok(Line::Community(*c)),
                _ => Err(bad()),
            }
        }
        [p, "pb"] => Ok(Line::Player { player: player(p)?, verb: Verb::BringIn }),
        [p, "cbr", amount] => {
            Ok(Line::Player { player: player(p)?, verb: Verb::Cbr(amount.parse().map_err(|_| bad())?) })
        }
        [p, "cc"] => Ok(Line::Player { player: player(p)?, verb: Verb::CheckCall }),
        [p, "f"] => Ok(Line::Player { player: player(p)?, verb: Verb::Fold }),
        [p, "sm"] => Ok(Line::Player { player: player(p)?, verb: Verb::Muck }),
        [p, "dcl", d] => Ok(Line::Player { player: player(p)?, verb: Verb::Declare(d.parse().map_err(|()| bad())?) }),
        // PokerKit reads `sm -` as "show the hole cards".
        [p, "sm", "-"] => Ok(Line::Player { player: player(p)?, verb: Verb::Show(None) }),
        [p, "sm", cards] => {
            Ok(Line::Player { player: player(p)?, verb: Verb::Show(Some(parse_cards(cards).map_err(|_| bad())?)) })
        }
        _ => Err(bad()),
    }
}

fn read_hand(t: &toml::Table, name: Option<String>) -> Result<PhhHand, PhhError> {
    let (variant, betting) =
        TableConfig::from_phh_code(t.get("variant").and_then(toml::Value::as_str).ok_or(PhhError::Field("variant"))?)
            .map_err(|_| {
            PhhError::Unsupported(
                "variant (expected F7S, F7S/8, FR, F7SL, F7S/8D, F7SC, F7SM, or P or N for the F)".into(),
            )
        })?;
    let antes = ints(t, "antes").unwrap_or_default();
    let ante = antes.first().copied().unwrap_or(0);
    if antes.iter().any(|&a| a != ante) {
        return Err(PhhError::Unsupported("unequal antes".into()));
    }
    let mut warnings: Vec<PhhWarning> = t
        .keys()
        .filter(|k| !PHH_FIELDS.contains(&k.as_str()) && !OWN_FIELDS.contains(&k.as_str()))
        .map(|k| PhhWarning::UnknownField(k.clone()))
        .collect();
    let mut unreadable = |field: &str, reason: &str| {
        warnings.push(PhhWarning::Unreadable { field: field.to_owned(), reason: reason.to_owned() });
    };
    let mut config = if betting.is_big_bet() {
        // docs/PHH.md: the minimum bet is `min_bet`; the big bet, unused, is ours if given.
        let min_bet = int(t, "min_bet")?;
        let big_bet = match t.get("_big_bet") {
            Some(_) => int(t, "_big_bet")?,
            None => min_bet,
        };
        TableConfig::new(variant, ante, int(t, "bring_in")?, min_bet, big_bet).with_betting(betting)
    } else {
        TableConfig::new(variant, ante, int(t, "bring_in")?, int(t, "small_bet")?, int(t, "big_bet")?)
    };
    // Our rule fields: a value we cannot read keeps the default (the replay then shows whether
    // the hand was played under it).
    match t.get("_max_raises").map(|v| v.as_integer().and_then(|v| u8::try_from(v).ok())) {
        Some(Some(v)) => config.max_raises = v,
        Some(None) => unreadable("_max_raises", "not an integer from 0 to 255"),
        None => {}
    }
    match t.get("_open_pair_big_bet").map(toml::Value::as_bool) {
        Some(Some(v)) => config.open_pair_big_bet = v,
        Some(None) => unreadable("_open_pair_big_bet", "not a boolean"),
        None => {}
    }
    match t.get("_uncapped_heads_up").map(toml::Value::as_bool) {
        Some(Some(v)) => config.uncapped_heads_up = v,
        Some(None) => unreadable("_uncapped_heads_up", "not a boolean"),
        None => {}
    }
    let stacks = ints(t, "starting_stacks")?;
    let seat_numbers: Vec<Chips> = match t.get("seats") {
        Some(_) => ints(t, "seats")?,
        None => (1..=stacks.len() as Chips).collect(),
    };
    if seat_numbers.len() != stacks.len() {
        return Err(PhhError::Field("seats"));
    }
    let seats: Vec<(Seat, Chips)> = seat_numbers
        .iter()
        .zip(&stacks)
        .map(|(&s, &c)| u8::try_from(s).ok().and_then(Seat::new).map(|s| (s, c)).ok_or(PhhError::Field("seats")))
        .collect::<Result<_, _>>()?;
    if seats.windows(2).any(|w| w[0].0 >= w[1].0) {
        return Err(PhhError::Unsupported("seats must be listed in increasing order (dealing order)".into()));
    }
    let texts: Vec<&str> = t
        .get("actions")
        .and_then(toml::Value::as_array)
        .ok_or(PhhError::Field("actions"))?
        .iter()
        .map(|v| v.as_str().ok_or(PhhError::Field("actions")))
        .collect::<Result<_, _>>()?;
    let lines: Vec<Line> = texts.iter().enumerate().map(|(i, s)| parse_line(i, s)).collect::<Result<_, _>>()?;
    // A `_seed` in our form (64 hex digits) deals the hand and is checked against every card;
    // anything else is another tool's: ignored, provided the deal lines give every card.
    let seed_field = t.get("_seed");
    let seed = seed_field.and_then(toml::Value::as_str).and_then(Seed::from_hex);
    let foreign_seed = seed_field.is_some() && seed.is_none();
    if foreign_seed {
        unreadable("_seed", "not 64 hex digits, so not this engine's seed");
    }
    let commitment = match t.get("_commitment").map(toml::Value::as_str) {
        Some(Some(c)) => Some(c.to_owned()),
        Some(None) => {
            unreadable("_commitment", "not a string");
            None
        }
        None => None,
    };
    if let (Some(seed), Some(c)) = (&seed, &commitment) {
        if seed.commitment().to_hex() != *c {
            return Err(ReplayError::Commitment.into());
        }
    }

    // Rebuild the deck order from the deal: 3rd street goes round by round (down, down, up to
    // each player in turn), later cards in the order written.
    let n = seats.len();
    let mut third: Vec<Vec<Card>> = vec![Vec::new(); n];
    let mut later: Vec<Card> = Vec::new();
    let mut in_third = true;
    for line in &lines {
        match line {
            Line::Deal { player, cards } if in_third && cards.len() == 3 => {
                if let Some(v) = third.get_mut(player - 1) {
                    v.extend(cards);
                }
            }
            Line::Deal { cards, .. } => {
                in_third = false;
                later.extend(cards);
            }
            Line::Community(c) => {
                in_third = false;
                later.push(*c);
            }
            Line::Player { .. } => in_third = false,
        }
    }
    let mut order: Vec<Card> = (0..3).flat_map(|r| third.iter().filter_map(move |v| v.get(r).copied())).collect();
    order.extend(later);

    let mut events = Vec::with_capacity(128);
    let started = match seed {
        Some(seed) => Hand::start_into(config, &seats, Deck::shuffled(&seed), Some(seed), None, &mut events),
        None => {
            let deck = Deck::with_order(&order).map_err(ReplayError::from)?;
            Hand::start_into(config, &seats, deck, None, Some(order), &mut events)
        }
    };
    let mut hand = started.map_err(|e| PhhError::Record(ReplayError::Setup(e)))?;
    // Dealt cards not yet matched against a `d` line, per player (0-based) and community.
    let mut dealt: Vec<VecDeque<Card>> = vec![VecDeque::new(); n];
    let mut community: VecDeque<Card> = VecDeque::new();
    let player_of = |seat: Seat| seats.iter().position(|s| s.0 == seat);
    let collect = |events: &mut Vec<Event>,
                   dealt: &mut Vec<VecDeque<Card>>,
                   community: &mut VecDeque<Card>,
                   shown: &mut Vec<(usize, Vec<Card>)>| {
        for e in events.drain(..) {
            match e {
                Event::Dealt { seat, card: Some(c), .. } => {
                    if let Some(q) = player_of(seat).and_then(|i| dealt.get_mut(i)) {
                        q.push_back(c);
                    }
                }
                Event::Community { card } => community.push_back(card),
                Event::Shown { seat, cards, automatic: true, .. } => {
                    if let Some(i) = player_of(seat) {
                        shown.push((i, cards.to_vec()));
                    }
                }
                _ => {}
            }
        }
    };
    let mut auto_shown: Vec<(usize, Vec<Card>)> = Vec::new();
    collect(&mut events, &mut dealt, &mut community, &mut auto_shown);
    // Another tool's history (none of our own fields): read under RULES.md where its rules
    // differ, and every difference said; ours must replay exactly as written.
    let foreign = !OWN_FIELDS.iter().any(|f| t.contains_key(*f));
    // Showdown lines read but not yet taken: (player index, shows).
    let mut intents: Vec<(usize, bool)> = Vec::new();
    // The cards each player's deal lines have given so far (what an early `sm` must show).
    let mut given: Vec<Vec<Card>> = vec![Vec::new(); n];
    let mut early_shows: Vec<(Seat, Vec<Card>)> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let fail =
            |reason: String| PhhError::Replay { index, text: texts.get(index).unwrap_or(&"").to_string(), reason };
        match line {
            Line::Deal { player, cards } => {
                let q = dealt.get_mut(player - 1).ok_or_else(|| fail("no such player".into()))?;
                for c in cards {
                    if q.front() == Some(c) {
                        q.pop_front();
                    } else if foreign && diverged(&warnings) {
                        // Once another tool's rules have changed who is still in, its deal goes
                        // to other players than the rule book's: the engine's deal stands.
                        if !warnings.iter().any(|w| matches!(w, PhhWarning::DealDiffers { .. })) {
                            warnings.push(PhhWarning::DealDiffers { index });
                        }
                    } else {
                        return Err(fail(format!("the engine did not deal {c} to p{player} here")));
                    }
                }
                if let Some(g) = given.get_mut(player - 1) {
                    g.extend(cards);
                }
            }
            Line::Community(c) => {
                if community.front() == Some(c) {
                    community.pop_front();
                } else if !(foreign && diverged(&warnings)) {
                    return Err(fail(format!("the engine did not deal the community card {c} here")));
                }
            }
            Line::Player { player, verb } => {
                let seat = seats.get(player - 1).map(|s| s.0).ok_or_else(|| fail("no such player".into()))?;
                let so_far = given.get(player - 1).map_or(&[][..], Vec::as_slice);
                let shows = |cards: &Option<Vec<Card>>| cards.as_ref().is_none_or(|c| c == so_far);
                if let Verb::Show(_) | Verb::Muck = verb {
                    // Another tool's rules may end the betting where the rule book keeps it open
                    // (a player it counts as folded, or as unable to raise): the rest of the
                    // betting is played passively (bring in, call or check), each said.
                    while foreign
                        && diverged(&warnings)
                        && hand.phase() == Phase::Betting
                        && play_passively(&mut hand, &seats, None, &mut warnings, &mut events)
                            .map_err(|e| fail(e.to_string()))?
                    {
                        collect(&mut events, &mut dealt, &mut community, &mut auto_shown);
                    }
                    let more_to_come = dealt.get(player - 1).is_some_and(|q| !q.is_empty());
                    if let Verb::Show(cards) = verb {
                        if hand.phase() != Phase::Betting && more_to_come {
                            // PokerKit's all-in exposure: the betting is over (the engine has
                            // already dealt the rest) and this player's later cards are still
                            // to be written. The cards must be the ones dealt so far.
                            if !shows(cards) {
                                return Err(fail(format!(
                                    "p{player} holds {} here, not these cards",
                                    format_cards(so_far)
                                )));
                            }
                            early_shows.push((seat, so_far.to_vec()));
                            continue;
                        }
                    }
                    if hand.is_over() || hand.phase() == Phase::Showdown {
                        // The showdown is the engine's (RULES.md 5.3): a choice is taken when
                        // the engine asks for it, in its order, whatever the file's order; a
                        // show the engine makes by itself needs no line; after the hand, a
                        // line may only repeat what happened (another tool's trailing mucks).
                        if !shows(&match verb {
                            Verb::Show(cards) => cards.clone(),
                            _ => None,
                        }) {
                            return Err(fail(format!("p{player} holds {}, not these cards", format_cards(so_far))));
                        }
                        if hand.is_over() {
                            continue;
                        }
                        if intents.iter().any(|(i, _)| *i == player - 1) {
                            return Err(fail(format!("a second showdown line for p{player}")));
                        }
                        intents.push((player - 1, matches!(verb, Verb::Show(_))));
                        while take_showdown_line(&mut hand, &mut intents, &mut auto_shown, &mut events, &seats)
                            .map_err(|e| fail(e.to_string()))?
                        {
                            collect(&mut events, &mut dealt, &mut community, &mut auto_shown);
                        }
                        continue;
                    }
                    return Err(fail("not a legal action now: the betting is not over".into()));
                }
                let legal = hand.legal_actions(seat);
                let text = || texts.get(index).unwrap_or(&"").to_string();
                // Another tool's rules can close a betting round the file goes on with: its
                // remaining lines for that round are read and set aside, said per line.
                // The engine has dealt cards the file has not: the file is still betting a round
                // the engine has closed.
                let file_behind = dealt.iter().any(|q| !q.is_empty()) || !community.is_empty();
                let engine_ahead = hand.phase() != Phase::Betting && hand.to_act() != Some(seat);
                // Only once the file has been read differently from what it says (a wager
                // adjusted to the rule book): before that, a line out of turn is an error.
                let parted = foreign && diverged(&warnings);
                if parted && (file_behind || engine_ahead) {
                    warnings.push(PhhWarning::SetAside { index, text: text() });
                    continue;
                }
                // The rule book asks someone the file's rules skipped (a player it counts as
                // all-in, say): they take the passive action until this player's turn, within
                // the street; a line the street never gets to is set aside.
                if parted && hand.phase() == Phase::Betting && hand.to_act() != Some(seat) {
                    let street = hand.street();
                    while hand.phase() == Phase::Betting
                        && hand.street() == street
                        && play_passively(&mut hand, &seats, Some(seat), &mut warnings, &mut events)
                            .map_err(|e| fail(e.to_string()))?
                    {
                        collect(&mut events, &mut dealt, &mut community, &mut auto_shown);
                    }
                    if hand.to_act() != Some(seat) {
                        warnings.push(PhhWarning::SetAside { index, text: text() });
                        continue;
                    }
                }
                let action = match verb {
                    Verb::BringIn => Some(Action::BringIn),
                    Verb::Cbr(to) => {
                        match (hand.to_act() == Some(seat)).then(|| hand.legal().wager_at(*to)).flatten() {
                            Some(action) => Some(action),
                            None => {
                                let adjusted = (foreign && hand.to_act() == Some(seat))
                                    .then(|| foreign_wager(&hand, seat, *to))
                                    .flatten();
                                if let Some((action, reason)) = adjusted {
                                    warnings.push(PhhWarning::Adjusted {
                                        index,
                                        text: text(),
                                        replayed_as: format!("{action:?}"),
                                        reason: reason.to_owned(),
                                    });
                                }
                                adjusted.map(|(action, _)| action)
                            }
                        }
                    }
                    Verb::CheckCall => legal.iter().copied().find(|a| matches!(a, Action::Check | Action::Call)),
                    Verb::Fold if parted && !legal.contains(&Action::Fold) && legal.contains(&Action::Check) => {
                        warnings.push(PhhWarning::Adjusted {
                            index,
                            text: text(),
                            replayed_as: "Check".into(),
                            reason: "RULES.md 4.7: fold is offered only when facing a bet".into(),
                        });
                        Some(Action::Check)
                    }
                    Verb::Fold => Some(Action::Fold),
                    Verb::Declare(declaration) => Some(Action::Declare { declaration: *declaration }),
                    Verb::Show(_) | Verb::Muck => None,
                };
                let Some(action) = action else {
                    return Err(fail(format!("not a legal action now; legal: {:?}", legal.to_vec())));
                };
                hand.apply_into(seat, action, &mut events).map_err(|e| fail(e.to_string()))?;
                collect(&mut events, &mut dealt, &mut community, &mut auto_shown);
            }
        }
    }
    // A showdown choice the file does not write (another tool may leave a losing hand out):
    // mucked, as the clock would (cards speak, RULES.md 5.4), and said.
    while hand.phase() == Phase::Showdown {
        let Some(seat) = hand.to_act() else { break };
        let player = player_of(seat).unwrap_or(0);
        warnings.push(PhhWarning::NoShowdownLine { player: player + 1 });
        let refused = |e: ActionError| PhhError::Unsupported(format!("the showdown does not replay: {e}"));
        hand.apply_into(seat, Action::Muck, &mut events).map_err(refused)?;
        collect(&mut events, &mut dealt, &mut community, &mut auto_shown);
        while take_showdown_line(&mut hand, &mut intents, &mut auto_shown, &mut events, &seats).map_err(refused)? {
            collect(&mut events, &mut dealt, &mut community, &mut auto_shown);
        }
    }
    if let Some((player, _)) = intents.first() {
        return Err(PhhError::Unsupported(format!(
            "p{} is shown in the file but the hand never gets to them",
            player + 1
        )));
    }
    if !hand.is_over() {
        return Err(PhhError::Unfinished);
    }
    // Without a seed of ours, the deck was built from the deal lines: every card the engine
    // dealt must have come from one, or the hand was played with cards the file never gave.
    let undealt = dealt.iter().any(|q| !q.is_empty()) || !community.is_empty();
    if seed.is_none() && undealt && !(foreign && diverged(&warnings)) {
        return Err(if foreign_seed {
            PhhError::Field("_seed")
        } else {
            PhhError::Unsupported("the deal lines do not give every card dealt".into())
        });
    }
    let replayed: Vec<Chips> = hand.stacks().iter().map(|s: &SeatChips| s.chips).collect();
    if let Ok(file) = ints(t, "finishing_stacks") {
        // Our own histories must reproduce exactly; another tool's may follow other rules
        // (docs/PHH.md lists PokerKit's): the difference is reported, not refused.
        if file != replayed && !foreign {
            return Err(PhhError::FinishingStacks { file, replayed });
        }
        if file != replayed {
            warnings.push(PhhWarning::ResultDiffers { file, replayed: replayed.clone() });
        }
    }
    Ok(PhhHand { name, record: hand.record(), finishing_stacks: replayed, early_shows, warnings })
}
