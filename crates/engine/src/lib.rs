//! The Seven Card Stud rules engine.
//!
//! Owns cards, the seeded deck, hand evaluation (high, ace-to-five low, 8-or-better low),
//! the stud hand state machine, pots, per-seat views, hand records and the PHH codec.
//!
//! It does no I/O, reads no clock, uses no global RNG and no async runtime: a hand is a pure
//! function of (config, seats, seed or deck order, ordered actions), so every hand replays
//! exactly from its [`HandRecord`]. Hidden information is enforced here and only here:
//! a [`Hand`] and a [`deck::Deck`] are never serialisable; what leaves the engine during play is a
//! [`HandView`] (per viewer) or an [`Event`] passed through [`Event::for_viewer`].
//! The rules cited as "RULES.md n" (a section) or "RULES.md n.m" (a rule in it) are those of
//! the project's rule book, `docs/RULES.md`.
#![deny(missing_docs)]

pub mod action;
pub mod bot;
pub mod card;
pub mod config;
pub mod deck;
mod error;
pub mod eval;
pub mod event;
pub mod hand;
pub mod list;
pub mod phh;
pub mod record;
pub mod sim;
pub mod text;
pub mod view;

pub use action::{Action, ActionError, Declaration, SeatChips, SeenCard, Street};
pub use card::{Card, ParseCardError, Rank, Suit};
pub use config::{Betting, Chips, ConfigError, Seat, TableConfig, Variant};
pub use deck::{Commitment, Deck, DeckError, Seed, commitment};
pub use error::Error;
pub use event::{Event, Events, Half, NoEvents, Viewer};
pub use hand::{ActionList, Hand, Legal, LegalEntry, Phase, Pot, SetupError};
pub use record::{HandRecord, HandResult, ReplayError};
pub use view::{HandCode, HandStrength, HandView, PotTracker, SeatView};
