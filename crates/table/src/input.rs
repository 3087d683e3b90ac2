//! What a table journals: the inputs that change its durable state, each stamped with the
//! time it was accepted.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use stud_engine::{Action, Chips, Seed, TableConfig};
use uuid::Uuid;

use crate::spec::TableSpec;

/// The journal's format version. An entry or a snapshot of another version is not replayed
/// (the hand in progress is voided instead).
pub const JOURNAL_VERSION: u32 = 1;

/// Who holds a seat (or watches): what the table keeps of a session. Never the token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    /// the player
    pub player_id: Uuid,
    /// their session (LAST HAND is per session)
    pub session_id: Uuid,
    /// display name
    pub name: String,
}

/// A hand's seed as the journal holds it (hex). Its `Debug` is redacted like [`Seed`]'s.
#[derive(Clone, PartialEq, Eq)]
pub struct JournalSeed(pub Seed);

impl fmt::Debug for JournalSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JournalSeed(<redacted>)")
    }
}

impl Serialize for JournalSeed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_hex())
    }
}

impl<'de> Deserialize<'de> for JournalSeed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JournalSeed, D::Error> {
        let text = String::deserialize(d)?;
        Seed::from_hex(&text).map(JournalSeed).ok_or_else(|| serde::de::Error::custom("a seed is 64 hex digits"))
    }
}

/// An input the table accepted: everything that changes what must survive a restart.
/// Checks happen before an input is made ([`crate::TableCore::handle`]); applying one that
/// the table made cannot fail, so replaying the journal rebuilds the table exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Input {
    /// A player takes `seat` with `buy_in` chips (already taken from their account).
    Sit {
        /// 1..=8
        seat: u8,
        /// who
        who: Who,
        /// chips brought
        buy_in: Chips,
    },
    /// The player at `seat` acts.
    Act {
        /// 1..=8
        seat: u8,
        /// what
        action: Action,
        /// the client's idempotency key
        key: String,
    },
    /// The clock acts for `seat` (its time ran out, or it is leaving).
    Clock {
        /// 1..=8
        seat: u8,
        /// what the clock does
        action: Action,
    },
    /// Sit out (true) or back in (false).
    SitOut {
        /// 1..=8
        seat: u8,
        /// out or in
        out: bool,
    },
    /// Auto-muck on or off for `seat`: its show-or-muck choices are answered "muck" at once.
    AutoMuck {
        /// 1..=8
        seat: u8,
        /// on or off
        on: bool,
    },
    /// A player joins (`on`) or leaves the waiting list (leaving: asked, or the seat offered
    /// to them was not taken in time, or an operator removed them).
    Waitlist {
        /// who
        who: Who,
        /// join or leave
        on: bool,
    },
    /// Chips added between hands (already taken from the account).
    TopUp {
        /// 1..=8
        seat: u8,
        /// chips
        amount: Chips,
    },
    /// The player leaves their seat.
    Leave {
        /// 1..=8
        seat: u8,
    },
    /// A new hand with this id and seed.
    StartHand {
        /// the hand
        hand_id: Uuid,
        /// its seed
        seed: JournalSeed,
    },
    /// The table was rebuilt after a restart: the player to act gets a fresh clock.
    Resume,
    /// An operator's new settings (from the next hand).
    Update {
        /// the new spec
        spec: Box<TableSpec>,
    },
    /// An operator pauses (true) or resumes (false) the table.
    Pause {
        /// paused or not
        paused: bool,
    },
    /// An operator closes the table (after the current hand).
    Close,
    /// Tournament tables: the tournament lets the table deal its next hand to `players` (the
    /// seated ones among them with chips) with `config` (the level's stakes and game), after
    /// the usual pause between hands.
    Deal {
        /// the game and stakes
        config: TableConfig,
        /// the tournament's level (1-based)
        level: u32,
        /// who is dealt in
        players: Vec<Uuid>,
        /// the hand's number at this table in the tournament, given back with its report
        /// (0 in a journal from before numbers)
        #[serde(default)]
        deal: u64,
    },
    /// An operator removes a seated player.
    Kick {
        /// who
        player: Uuid,
        /// give their hand up at once (else they play it out)
        now: bool,
    },
}

/// One journal entry: an input and when it was accepted (ms since the Unix epoch).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// [`JOURNAL_VERSION`]
    pub v: u32,
    /// the table's input number, 1, 2, ... (never reused)
    pub n: u64,
    /// when it was accepted
    pub at: u64,
    /// what
    pub input: Input,
}

impl Entry {
    /// The entry as the journal stores it.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a stored entry.
    ///
    /// # Errors
    /// It does not parse, or was written by another journal version.
    pub fn decode(text: &str) -> Result<Entry, RestoreError> {
        let entry: Entry = serde_json::from_str(text).map_err(|e| RestoreError::Corrupt(e.to_string()))?;
        if entry.v != JOURNAL_VERSION {
            return Err(RestoreError::Version(entry.v));
        }
        Ok(entry)
    }
}

/// Why a table could not be rebuilt from its snapshot and journal.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// A snapshot or entry does not parse.
    #[error("the journal does not decode: {0}")]
    Corrupt(String),
    /// Written by another journal version.
    #[error("journal version {0} is not {JOURNAL_VERSION}")]
    Version(u32),
    /// Entries are missing or out of order.
    #[error("journal entry {got} follows {after}")]
    Gap {
        /// the last applied
        after: u64,
        /// the next found
        got: u64,
    },
    /// An entry the table cannot apply: not what this table would have journaled.
    #[error("journal entry {n} cannot be applied: {why}")]
    Refused {
        /// the entry
        n: u64,
        /// why
        why: String,
    },
}
