//! Cards: ranks, suits and the compact card id used everywhere (RULES.md section 1).

use std::fmt;
use std::str::FromStr;

/// A card rank, `Two` (lowest) to `Ace` (highest in high games; low in ace-to-five lows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 2
    Two = 0,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// T
    Ten,
    /// J
    Jack,
    /// Q
    Queen,
    /// K
    King,
    /// A
    Ace,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0 = Two .. 12 = Ace).
    pub const fn from_index(i: u8) -> Option<Rank> {
        if i < 13 { Some(Rank::ALL[i as usize]) } else { None }
    }

    /// 0 for Two .. 12 for Ace.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The one-character symbol: `2..9 T J Q K A`.
    pub const fn symbol(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }

    /// The English name ("Seven", "King").
    pub const fn name(self) -> &'static str {
        ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"]
            [self as usize]
    }

    /// The English plural ("Sevens", "Sixes").
    pub const fn plural(self) -> &'static str {
        [
            "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks", "Queens",
            "Kings", "Aces",
        ][self as usize]
    }

    fn from_symbol(c: char) -> Option<Rank> {
        "23456789TJQKA".find(c.to_ascii_uppercase()).and_then(|i| Rank::from_index(i as u8))
    }
}

/// A suit. The order clubs < diamonds < hearts < spades matters only for the bring-in
/// and the odd chip, never for the value of a hand (RULES.md section 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// c
    Clubs = 0,
    /// d
    Diamonds,
    /// h
    Hearts,
    /// s
    Spades,
}

impl Suit {
    /// All suits, lowest first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The one-character symbol: `c d h s`.
    pub const fn symbol(self) -> char {
        b"cdhs"[self as usize] as char
    }

    /// 0 for clubs .. 3 for spades.
    pub const fn index(self) -> u8 {
        self as u8
    }

    fn from_symbol(c: char) -> Option<Suit> {
        match c {
            'c' | 'C' => Some(Suit::Clubs),
            'd' | 'D' => Some(Suit::Diamonds),
            'h' | 'H' => Some(Suit::Hearts),
            's' | 'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// One card, stored as its id `rank * 4 + suit` (0 = 2c .. 51 = As).
///
/// Ordering by id orders by rank, then suit: exactly the bring-in order of RULES.md 4.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank as u8 * 4 + suit as u8)
    }

    /// The card with id `id` (0..52), or `None`.
    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 52 { Some(Card(id)) } else { None }
    }

    /// The id, `rank * 4 + suit`, in 0..52.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 2) as usize]
    }

    /// The suit.
    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 & 3) as usize]
    }

    /// All 52 cards in id order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().symbol(), self.suit().symbol())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a card (`"As"`, `"Td"`, `"2c"` are cards).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a card: {0:?} (expected rank 2-9/T/J/Q/K/A then suit c/d/h/s, e.g. \"Td\")")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(r), Some(su), None) => match (Rank::from_symbol(r), Suit::from_symbol(su)) {
                (Some(r), Some(su)) => Ok(Card::new(r, su)),
                _ => Err(ParseCardError(s.to_owned())),
            },
            _ => Err(ParseCardError(s.to_owned())),
        }
    }
}

/// Parses a run of cards written without separators, e.g. `"Ah7d4c"`.
///
/// # Errors
/// [`ParseCardError`] if the text is not a whole number of valid cards.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, ParseCardError> {
    let s = s.trim();
    if !s.is_ascii() || s.len() % 2 != 0 {
        return Err(ParseCardError(s.to_owned()));
    }
    (0..s.len()).step_by(2).map(|i| s[i..i + 2].parse()).collect()
}

/// Writes cards without separators, e.g. `"Ah7d4c"`.
pub fn format_cards(cards: &[Card]) -> String {
    let mut out = String::with_capacity(cards.len() * 2);
    for c in cards {
        out.push(c.rank().symbol());
        out.push(c.suit().symbol());
    }
    out
}

#[cfg(feature = "serde")]
impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Card {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "rank (2-9, T, J, Q, K, A) then suit (c, d, h, s), e.g. \"Td\"",
            "pattern": "^[2-9TJQKA][cdhs]$"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_text() {
        for c in Card::all() {
            let text = c.to_string();
            assert_eq!(text.parse::<Card>(), Ok(c));
            assert_eq!(Card::new(c.rank(), c.suit()), c);
        }
        assert_eq!(Card::all().count(), 52);
    }

    #[test]
    fn parse_runs_and_reject_garbage() {
        let cards = parse_cards("Ah7d4c").unwrap();
        assert_eq!(format_cards(&cards), "Ah7d4c");
        assert!(parse_cards("Ah7").is_err());
        assert!("1c".parse::<Card>().is_err());
        assert!("Ax".parse::<Card>().is_err());
        assert!(parse_cards("Äh").is_err());
    }

    #[test]
    fn id_order_is_rank_then_suit() {
        let two_d: Card = "2d".parse().unwrap();
        let two_h: Card = "2h".parse().unwrap();
        let two_s: Card = "2s".parse().unwrap();
        assert!(two_d < two_h && two_h < two_s);
        assert!("Ac".parse::<Card>().unwrap() > "Ks".parse::<Card>().unwrap());
    }
}
