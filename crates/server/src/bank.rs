//! The play-money bank: the balances of the players this process serves, and the chips it
//! has issued. Chips move between it and table stacks only.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use stud_engine::Chips;
use uuid::Uuid;

/// The play-money bank: balances off the tables. Chips move between it and table stacks only.
///
/// It holds the accounts of players who are active; [`App::sweep`] drops the others (their
/// balance is in the store, which loads it again when they come back), so it stays bounded.
#[derive(Default)]
pub struct Bank {
    accounts: Mutex<Accounts>,
    issued: AtomicU64,
}

#[derive(Default)]
struct Accounts {
    /// per player: the balance and the `tick` of the last time the account was used
    map: HashMap<Uuid, (Chips, u64)>,
    /// counts every use, so a sweep can tell an account used since it looked
    tick: u64,
}

impl Accounts {
    fn used(&mut self, player: Uuid) -> Option<&mut Chips> {
        self.tick += 1;
        let tick = self.tick;
        self.map.get_mut(&player).map(|(balance, used)| {
            *used = tick;
            balance
        })
    }
}

impl Bank {
    fn accounts(&self) -> std::sync::MutexGuard<'_, Accounts> {
        self.accounts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens an account with `amount` new chips (counted as issued).
    pub fn open(&self, player: Uuid, amount: Chips) {
        self.issued.fetch_add(amount, Relaxed);
        let mut a = self.accounts();
        a.tick += 1;
        let tick = a.tick;
        a.map.insert(player, (amount, tick));
    }

    /// The balance.
    pub fn balance(&self, player: Uuid) -> Chips {
        self.accounts().map.get(&player).map_or(0, |(b, _)| *b)
    }

    /// Whether this process holds the player's account.
    pub fn holds(&self, player: Uuid) -> bool {
        self.accounts().map.contains_key(&player)
    }

    /// Accounts held.
    pub fn len(&self) -> usize {
        self.accounts().map.len()
    }

    /// Whether no account is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes `amount` out, or returns false and changes nothing.
    pub fn withdraw(&self, player: Uuid, amount: Chips) -> bool {
        match self.accounts().used(player) {
            Some(balance) if *balance >= amount => {
                *balance -= amount;
                true
            }
            _ => false,
        }
    }

    /// Loads an account kept in the store (a returning session after a restart), unless this
    /// process already holds it. The loaded chips count as issued here.
    pub fn load(&self, player: Uuid, amount: Chips) {
        let mut a = self.accounts();
        if a.used(player).is_none() {
            let tick = a.tick;
            a.map.insert(player, (amount, tick));
            self.issued.fetch_add(amount, Relaxed);
        }
    }

    /// Puts `amount` back.
    pub fn deposit(&self, player: Uuid, amount: Chips) {
        let mut a = self.accounts();
        match a.used(player) {
            Some(balance) => *balance += amount,
            None => {
                let tick = a.tick;
                a.map.insert(player, (amount, tick));
            }
        }
    }

    /// Puts `amount` back if this process holds the account; otherwise the store's balance
    /// (loaded with the session) already has it.
    pub fn refund(&self, player: Uuid, amount: Chips) {
        if let Some(balance) = self.accounts().used(player) {
            *balance += amount;
        }
    }

    /// All chips ever issued.
    pub fn issued(&self) -> Chips {
        self.issued.load(Relaxed)
    }

    /// Sum of all balances.
    pub fn total_balances(&self) -> Chips {
        self.accounts().map.values().map(|(b, _)| b).sum()
    }

    /// A new use count: every account used before this call has a smaller one, every use
    /// after it a larger one (see [`Bank::forget`]).
    pub(crate) fn tick(&self) -> u64 {
        let mut a = self.accounts();
        a.tick += 1;
        a.tick
    }

    /// Players whose accounts were last used before `tick`.
    pub(crate) fn idle(&self, tick: u64) -> Vec<Uuid> {
        self.accounts().map.iter().filter(|(_, (_, used))| *used < tick).map(|(p, _)| *p).collect()
    }

    /// Drops the accounts of `players` not used since `tick` (their chips leave `issued` with
    /// them, so `issued = balances + stacks` still holds); returns how many.
    pub(crate) fn forget(&self, players: &[Uuid], tick: u64) -> usize {
        let mut a = self.accounts();
        let mut dropped = 0;
        for p in players {
            if let Some((balance, _)) = a.map.get(p).filter(|(_, used)| *used < tick).copied() {
                a.map.remove(p);
                self.issued.fetch_sub(balance, Relaxed);
                dropped += 1;
            }
        }
        if a.map.capacity() > 64 && a.map.capacity() > 4 * a.map.len() {
            a.map.shrink_to_fit();
        }
        dropped
    }
}
