//! The tournament core: everything a stud tournament decides, as a pure state machine.
//!
//! Owns the create request and its validation ([`CreateTournament`] -> [`TournamentSpec`]),
//! registration, unregistration, late registration and re-entry, the start (sit-and-go when
//! full, scheduled at its time with enough entrants or cancelled), seating at random, levels by
//! minutes or hands, the mixed-game rotation, balancing and breaking tables (TDA rules),
//! hand-for-hand at the bubble, eliminations, places and prizes ([`payout`]), rebuys, the
//! add-on, breaks, bounties and deals at the final table ([`deal`]).
//!
//! It must not use tokio, do I/O, read a clock or draw randomness of its own: time comes in
//! with every call, seeds ([`Draw`]) with the inputs that draw seats, and what the tournament
//! wants done (refunds, seats, moves, deals, prizes) goes out as [`Output`]s for the server to
//! carry out through the tables' handles and the ledger. It never plays a hand: tables report
//! each hand's result ([`Command::HandFinished`]) and ask before dealing
//! ([`Command::StartHand`]).
//!
//! Key decision: like a table, a tournament is its journal. [`Tournament::handle`] checks a
//! command and returns the [`Input`] to journal; [`Tournament::apply`] cannot refuse a
//! journaled input; the whole state serialises ([`Tournament::snapshot`]), so a snapshot plus
//! the later inputs rebuild a tournament exactly after a restart.
//!
//! The decisions the issue left open are written where they are made: [`spec`] (the request),
//! [`payout`] (paid places, rounding of cents, shared places), [`floor`] (seating, which
//! player moves and which table breaks), [`tournament`] (levels by hands, rotation,
//! hand-for-hand, when places are final).

#![forbid(unsafe_code)]

pub mod deal;
mod draw;
pub mod floor;
pub mod payout;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod tournament;

pub use deal::DealMethod;
pub use draw::Draw;
pub use floor::{EntryNo, Floor, Move, MoveReason, Spot, Table, TableNo};
pub use payout::{default_payouts, paid_places, place_group, prizes};
pub use spec::{
    AddOn, BasisPoints, Bounty, Cents, CreateTournament, Game, GameChoice, Games, Kind, Level, LevelLength,
    LevelRequest, MAX_BREAK_MINUTES, MAX_ENTRANTS, MAX_ENTRIES, MAX_FEE, MAX_REPEAT_MINUTES, MAX_ROTATION_GAMES,
    MAX_ROTATION_HANDS, MAX_STARTING_CHIPS, Millis, ROTATION, Rebuys, RotationGame, Satellite, SpecError,
    TournamentSpec,
};
pub use tournament::{
    ADDON_MS, Accepted, Command, DEAL_MS, Deal, Due, Entry, EntryState, HandForHand, Input, Journaled, Knockout, Offer,
    Output, Placed, Proposal, REBUY_OFFER_MS, RestoreError, RotationBase, Status, TOURNAMENT_VERSION, Tournament,
    TournamentError,
};
