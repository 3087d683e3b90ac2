//! Who may come into a table: bans, which tables are private and their invite codes, and the
//! counters of wrong codes. [`Access`] is the one owner of that state in a process: it is
//! loaded from the store at start (the stored table specs and bans, never a table's own
//! copy) and written only by the operator's handlers (`admin`) as soon as they have stored a
//! change, or on a cluster gateway by the refresh that follows the store. The WebSocket
//! checks `join_table` and `sit` against it before a command reaches the table.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{PoisonError, RwLock};

use stud_store::{Ban, BanScope};
use stud_table::TableSpec;
use uuid::Uuid;

use crate::auth::same_key;
use crate::config::Config;
use crate::limits::RateLimiter;

/// Why someone may not come into a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// banned from the table or the server
    #[error("you are banned from this table")]
    Banned,
    /// a private table and no code given (not counted as a guess)
    #[error("this table is private: its invite code is needed")]
    CodeMissing,
    /// a private table and a code that does not let in (or none does: revoked)
    #[error("this table is private: a valid invite code is needed")]
    WrongCode,
    /// too many wrong codes from this player or address: none is looked at until it refills
    #[error("too many invite codes tried; wait a minute")]
    TooManyCodes,
}

/// Bans, private tables and their codes, and wrong-code counters (see the module's doc).
pub struct Access {
    bans: RwLock<HashSet<(Uuid, BanScope)>>,
    /// private tables and their invite codes (`None`: revoked, nobody new gets in)
    private: RwLock<HashMap<Uuid, Option<String>>>,
    /// wrong invite codes per player
    wrong_codes: RateLimiter<Uuid>,
    /// wrong invite codes per client IP (five times the per-player limit: NAT)
    wrong_codes_by_ip: RateLimiter<IpAddr>,
}

impl Access {
    /// Nobody banned, every table public, with the configured wrong-code limits.
    pub fn new(config: &Config) -> Access {
        Access {
            bans: RwLock::default(),
            private: RwLock::default(),
            wrong_codes: RateLimiter::per_minute(config.invite_attempts_per_minute),
            wrong_codes_by_ip: RateLimiter::per_minute(config.invite_attempts_per_minute.saturating_mul(5)),
        }
    }

    /// Adds the bans read from the store.
    pub fn load_bans(&self, bans: &[Ban]) {
        let mut set = self.bans.write().unwrap_or_else(PoisonError::into_inner);
        set.extend(bans.iter().map(|b| (b.player_id, b.scope)));
    }

    /// The bans as the store has them now, in place of those held (a cluster's nodes follow
    /// the store: another gateway's operator may have banned or lifted a ban).
    pub fn replace_bans(&self, bans: &[Ban]) {
        let fresh: HashSet<(Uuid, BanScope)> = bans.iter().map(|b| (b.player_id, b.scope)).collect();
        *self.bans.write().unwrap_or_else(PoisonError::into_inner) = fresh;
    }

    /// Bans (or lifts a ban); the store is the caller's.
    pub fn set_ban(&self, player: Uuid, scope: BanScope, banned: bool) {
        let mut set = self.bans.write().unwrap_or_else(PoisonError::into_inner);
        if banned {
            set.insert((player, scope));
        } else {
            set.remove(&(player, scope));
        }
    }

    /// Whether `player` may not play at `table` (or anywhere, with `None`).
    pub fn is_banned(&self, player: Uuid, table: Option<Uuid>) -> bool {
        let set = self.bans.read().unwrap_or_else(PoisonError::into_inner);
        set.contains(&(player, BanScope::Server)) || table.is_some_and(|t| set.contains(&(player, BanScope::Table(t))))
    }

    /// Takes a table's access from its spec as stored (the operator's latest word, which a
    /// table running a hand may not have applied yet).
    pub fn set_table(&self, stored: &TableSpec) {
        let mut map = self.private.write().unwrap_or_else(PoisonError::into_inner);
        if stored.private {
            map.insert(stored.id, stored.invite_code.clone());
        } else {
            map.remove(&stored.id);
        }
    }

    /// Forgets a closed table.
    pub fn forget_table(&self, id: Uuid) {
        self.private.write().unwrap_or_else(PoisonError::into_inner).remove(&id);
    }

    /// Whether the table is private.
    pub fn is_private(&self, id: Uuid) -> bool {
        self.private.read().unwrap_or_else(PoisonError::into_inner).contains_key(&id)
    }

    /// Whether `player` (from `peer`) may watch or sit at `table` with `code`. A player
    /// `seated` there is always let back in (unless banned). Wrong codes are counted per
    /// player and per address; once either is over its limit no code is even looked at (so a
    /// right guess cannot slip through) until it refills. No code is no guess: not counted.
    ///
    /// # Errors
    /// [`Refusal`]: why not.
    pub fn admit(
        &self,
        player: Uuid,
        peer: IpAddr,
        table: Uuid,
        seated: bool,
        code: Option<&str>,
    ) -> Result<(), Refusal> {
        if self.is_banned(player, Some(table)) {
            return Err(Refusal::Banned);
        }
        if seated {
            return Ok(());
        }
        let expected = match self.private.read().unwrap_or_else(PoisonError::into_inner).get(&table) {
            None => return Ok(()),
            Some(expected) => expected.clone(),
        };
        self.check_code(player, peer, expected.as_deref(), code)
    }

    /// Whether `code` is `expected` (a private table's or tournament's invite code; `None`:
    /// a private table without one, which no code opens), compared in constant time. Wrong
    /// codes are counted per player and per address, in the same counters for tables and
    /// tournaments; once either is over its limit no code is even looked at (so a right guess
    /// cannot slip through) until it refills. No code is no guess: not counted.
    ///
    /// # Errors
    /// [`Refusal::CodeMissing`], [`Refusal::WrongCode`] or [`Refusal::TooManyCodes`].
    pub fn check_code(
        &self,
        player: Uuid,
        peer: IpAddr,
        expected: Option<&str>,
        code: Option<&str>,
    ) -> Result<(), Refusal> {
        let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
            return Err(Refusal::CodeMissing);
        };
        let limited = self.wrong_codes.exhausted(&player) || self.wrong_codes_by_ip.exhausted(&peer);
        if !limited && expected.is_some_and(|e| same_key(e, code)) {
            return Ok(());
        }
        let counted = self.wrong_codes.check(&player).and(self.wrong_codes_by_ip.check(&peer));
        if limited || counted.is_err() {
            return Err(Refusal::TooManyCodes);
        }
        Err(Refusal::WrongCode)
    }

    /// Drops the wrong-code counters that have refilled (run by the app's sweep).
    pub fn prune(&self) {
        self.wrong_codes.prune();
        self.wrong_codes_by_ip.prune();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(private: bool, code: Option<&str>) -> TableSpec {
        let config = stud_engine::TableConfig::new(stud_engine::Variant::Stud, 10, 20, 40, 80);
        let mut s = TableSpec::public(Uuid::from_u128(7), "T".into(), config, (100, 1_000), (1_000, 0));
        s.private = private;
        s.invite_code = code.map(str::to_owned);
        s
    }

    fn access(attempts: u32) -> Access {
        Access::new(&Config { invite_attempts_per_minute: attempts, ..Config::default() })
    }

    const IP: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[test]
    fn a_private_table_lets_in_its_code_its_seated_players_and_nobody_else() {
        let a = access(10);
        let (ann, table) = (Uuid::from_u128(1), Uuid::from_u128(7));
        assert_eq!(a.admit(ann, IP, table, false, None), Ok(()), "public");
        a.set_table(&spec(true, Some("ABC234")));
        assert_eq!(a.admit(ann, IP, table, false, None), Err(Refusal::CodeMissing));
        assert_eq!(a.admit(ann, IP, table, false, Some("  ")), Err(Refusal::CodeMissing));
        assert_eq!(a.admit(ann, IP, table, false, Some("XYZ999")), Err(Refusal::WrongCode));
        assert_eq!(a.admit(ann, IP, table, false, Some(" ABC234 ")), Ok(()));
        assert_eq!(a.admit(ann, IP, table, true, None), Ok(()), "seated");
        a.set_table(&spec(true, None));
        assert_eq!(a.admit(ann, IP, table, false, Some("ABC234")), Err(Refusal::WrongCode), "revoked");
        a.set_table(&spec(false, None));
        assert_eq!(a.admit(ann, IP, table, false, None), Ok(()), "public again");
        a.set_table(&spec(true, Some("ABC234")));
        a.forget_table(table);
        assert!(!a.is_private(table));
    }

    #[test]
    fn bans_keep_out_even_a_seated_player_and_wrong_codes_run_out() {
        let a = access(2);
        let (ann, bob, table) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(7));
        a.set_table(&spec(true, Some("ABC234")));
        a.set_ban(ann, BanScope::Table(table), true);
        assert_eq!(a.admit(ann, IP, table, true, Some("ABC234")), Err(Refusal::Banned));
        assert!(!a.is_banned(ann, None), "a table ban is not a server ban");
        a.set_ban(ann, BanScope::Table(table), false);
        assert_eq!(a.admit(bob, IP, table, false, Some("A")), Err(Refusal::WrongCode));
        assert_eq!(a.admit(bob, IP, table, false, Some("B")), Err(Refusal::WrongCode));
        assert_eq!(a.admit(bob, IP, table, false, Some("C")), Err(Refusal::TooManyCodes));
        // Past the limit even the right code is not looked at.
        assert_eq!(a.admit(bob, IP, table, false, Some("ABC234")), Err(Refusal::TooManyCodes));
        a.set_ban(bob, BanScope::Server, true);
        assert!(a.is_banned(bob, None) && a.is_banned(bob, Some(table)));
        let ann_banned = Ban { player_id: ann, scope: BanScope::Server, at_ms: 0, reason: String::new() };
        a.replace_bans(&[ann_banned]);
        assert!(a.is_banned(ann, None) && !a.is_banned(bob, None), "the store's bans replace those held");
    }
}
