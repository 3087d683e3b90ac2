//! Which tables a worker claims: pure functions of what it sees (the tables, who holds which,
//! the live workers), so they are tested without NATS.
//!
//! Each worker's share is `tables / workers`, the first `tables % workers` workers by name
//! taking one more. A worker claims unowned tables up to its share, first those it is the
//! rendezvous-hash choice for (highest `hash(table, worker)`), then the ones it ranks highest.
//! Workers planning from the same view therefore reach first for different tables, and a
//! claim that loses the race (the KV create is refused) costs one request.

use std::collections::{BTreeMap, BTreeSet};

use uuid::Uuid;

/// The tables a cluster serves (workers host them, gateways route to them): the open ones, and
/// those an operator closed mid-hand that still have chips on them (`closing`: they finish
/// their hand, then close).
pub fn served<'a>(stored: &'a [stud_store::StoredTable], closing: &[Uuid]) -> Vec<&'a stud_store::StoredTable> {
    stored.iter().filter(|t| !t.closed || closing.contains(&t.id)).collect()
}

/// Who holds the `leased` tables as far as the plan needs: `me` those this worker holds
/// (`held`), [`ANOTHER`] the rest (the plan never asks which other worker). A lease this worker
/// still holds is its own even when the bucket no longer lists it (lapsed, not yet noticed by
/// the heartbeat): claiming it again would host the table twice here.
pub fn owners<V>(
    me: &str,
    leased: &BTreeSet<Uuid>,
    held: &std::collections::HashMap<Uuid, V>,
) -> BTreeMap<Uuid, String> {
    let mut owners: BTreeMap<Uuid, String> =
        leased.iter().filter(|t| !held.contains_key(t)).map(|t| (*t, ANOTHER.to_owned())).collect();
    owners.extend(held.keys().map(|t| (*t, me.to_owned())));
    owners
}

/// The owner [`owners`] names for a table another worker holds (never a node's name: names
/// are checked at start to be non-empty words).
pub const ANOTHER: &str = "";

/// How many of `tables` tables `me` should hold among `workers` (`me` counts as one of them).
pub fn share(me: &str, tables: usize, workers: &BTreeSet<String>) -> usize {
    let mut all: Vec<&str> = workers.iter().map(String::as_str).collect();
    if !workers.contains(me) {
        all.push(me);
        all.sort_unstable();
    }
    let count = all.len();
    let rank = all.iter().position(|w| *w == me).unwrap_or(0);
    tables / count + usize::from(rank < tables % count)
}

/// The unowned tables `me` should claim now, best first (at most its share minus what it
/// holds). `owners`: who holds which table; `workers`: the live workers.
pub fn claims(me: &str, tables: &[Uuid], owners: &BTreeMap<Uuid, String>, workers: &BTreeSet<String>) -> Vec<Uuid> {
    let held = tables.iter().filter(|t| owners.get(t).is_some_and(|o| o == me)).count();
    let room = share(me, tables.len(), workers).saturating_sub(held);
    let mut free: Vec<(bool, u64, Uuid)> = tables
        .iter()
        .filter(|t| !owners.contains_key(t))
        .map(|&t| (preferred(t, workers).is_none_or(|w| w == me), score(t, me), t))
        .collect();
    free.sort_unstable_by(|a, b| b.cmp(a));
    free.dedup_by_key(|x| x.2);
    free.into_iter().take(room).map(|(_, _, t)| t).collect()
}

/// How many tables `me` holds above its share (to release between hands when workers join).
pub fn surplus(me: &str, tables: &[Uuid], owners: &BTreeMap<Uuid, String>, workers: &BTreeSet<String>) -> usize {
    let held = tables.iter().filter(|t| owners.get(t).is_some_and(|o| o == me)).count();
    held.saturating_sub(share(me, tables.len(), workers))
}

/// The worker that ranks `table` highest.
pub fn preferred(table: Uuid, workers: &BTreeSet<String>) -> Option<&str> {
    workers.iter().max_by_key(|w| (score(table, w), w.as_str())).map(String::as_str)
}

/// A stable hash of (table, worker): FNV-1a, then a 64-bit finaliser for spread. The same on
/// every machine and build, unlike `std`'s hasher.
fn score(table: Uuid, worker: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in table.as_bytes().iter().chain([0xff].iter()).chain(worker.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: u128) -> Vec<Uuid> {
        (1..=n).map(|i| Uuid::from_u128(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835))).collect()
    }

    fn workers(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    /// What one listing of the bucket gives is all the plan needs: a worker's share and its
    /// claims come out the same as from every owner's name.
    #[test]
    fn the_owners_listed_without_names_plan_as_the_named_ones() {
        let tables = ids(30);
        let live = workers(&["a", "b", "c"]);
        let mut named = BTreeMap::new();
        for (i, t) in tables.iter().enumerate().filter(|(i, _)| i % 3 != 0) {
            named.insert(*t, if i % 2 == 0 { "a" } else { "b" }.to_owned());
        }
        let leased: BTreeSet<Uuid> = named.keys().copied().collect();
        for me in ["a", "b", "c"] {
            let held: std::collections::HashMap<Uuid, ()> =
                named.iter().filter(|(_, o)| *o == me).map(|(t, _)| (*t, ())).collect();
            let seen = owners(me, &leased, &held);
            assert_eq!(claims(me, &tables, &seen, &live), claims(me, &tables, &named, &live));
            assert_eq!(surplus(me, &tables, &seen, &live), surplus(me, &tables, &named, &live));
        }
    }

    /// A lease this worker holds that the listing misses (it lapsed; the heartbeat drops it at
    /// its next round) is still its own: never claimed again while it is hosted here.
    #[test]
    fn a_held_lease_the_listing_misses_is_not_claimed_again() {
        let tables = ids(4);
        let live = workers(&["a"]);
        let held: std::collections::HashMap<Uuid, ()> = [(tables[0], ())].into_iter().collect();
        let seen = owners("a", &BTreeSet::new(), &held);
        assert_eq!(seen.get(&tables[0]).map(String::as_str), Some("a"));
        let claimed = claims("a", &tables, &seen, &live);
        assert_eq!(claimed.len(), 3);
        assert!(!claimed.contains(&tables[0]));
    }

    /// Every worker claims in turn against the owners so far, until nobody claims more.
    fn settle(tables: &[Uuid], owners: &mut BTreeMap<Uuid, String>, live: &BTreeSet<String>) {
        loop {
            let mut any = false;
            for w in live {
                for t in claims(w, tables, owners, live) {
                    assert!(owners.insert(t, w.clone()).is_none(), "claimed an owned table");
                    any = true;
                }
            }
            if !any {
                return;
            }
        }
    }

    fn counts(owners: &BTreeMap<Uuid, String>) -> BTreeMap<String, usize> {
        let mut c = BTreeMap::new();
        for o in owners.values() {
            *c.entry(o.clone()).or_insert(0) += 1;
        }
        c
    }

    #[test]
    fn shares_add_up_and_differ_by_at_most_one() {
        for n in [0, 1, 2, 7, 10, 1000] {
            let w = workers(&["a", "b", "c"]);
            let s: Vec<usize> = w.iter().map(|me| share(me, n, &w)).collect();
            assert_eq!(s.iter().sum::<usize>(), n, "{n} tables: {s:?}");
            assert!(s.iter().max().unwrap_or(&0) - s.iter().min().unwrap_or(&0) <= 1, "{s:?}");
        }
        // A worker not yet in the list counts itself.
        assert_eq!(share("d", 8, &workers(&["a", "b", "c"])), 2);
    }

    #[test]
    fn never_claims_an_owned_table_nor_past_its_share() {
        let tables = ids(10);
        let live = workers(&["a", "b", "c"]);
        let mut owners = BTreeMap::new();
        for t in &tables[..3] {
            owners.insert(*t, "b".to_owned());
        }
        let mine = claims("a", &tables, &owners, &live);
        assert_eq!(mine.len(), share("a", 10, &live));
        assert!(mine.iter().all(|t| !owners.contains_key(t)));
        // b already holds its share: nothing more.
        assert_eq!(claims("b", &tables, &owners, &live), Vec::<Uuid>::new());
        assert_eq!(surplus("b", &tables, &owners, &live), 0);
    }

    #[test]
    fn workers_in_turn_spread_every_table_evenly() {
        let tables = ids(100);
        let live = workers(&["w1", "w2", "w3"]);
        let mut owners = BTreeMap::new();
        settle(&tables, &mut owners, &live);
        assert_eq!(owners.len(), 100);
        let c = counts(&owners);
        assert_eq!(c.values().copied().collect::<Vec<_>>(), vec![34, 33, 33], "{c:?}");
    }

    #[test]
    fn a_dead_workers_tables_go_to_the_others() {
        let tables = ids(90);
        let mut live = workers(&["w1", "w2", "w3"]);
        let mut owners = BTreeMap::new();
        settle(&tables, &mut owners, &live);
        // w2 dies: its leases lapse.
        live.remove("w2");
        owners.retain(|_, o| o != "w2");
        settle(&tables, &mut owners, &live);
        assert_eq!(owners.len(), 90);
        let c = counts(&owners);
        assert_eq!(c.get("w1"), Some(&45));
        assert_eq!(c.get("w3"), Some(&45));
    }

    #[test]
    fn a_joining_worker_claims_what_is_released() {
        let tables = ids(60);
        let mut live = workers(&["w1", "w2"]);
        let mut owners = BTreeMap::new();
        settle(&tables, &mut owners, &live);
        live.insert("w3".to_owned());
        // Nothing is free yet: the newcomer waits for the others to release their surplus.
        assert!(claims("w3", &tables, &owners, &live).is_empty());
        for w in ["w1", "w2"] {
            let extra = surplus(w, &tables, &owners, &live);
            assert_eq!(extra, 10);
            let drop: Vec<Uuid> = owners.iter().filter(|(_, o)| *o == w).map(|(t, _)| *t).take(extra).collect();
            for t in drop {
                owners.remove(&t);
            }
        }
        settle(&tables, &mut owners, &live);
        assert_eq!(counts(&owners).values().copied().collect::<Vec<_>>(), vec![20, 20, 20]);
    }

    #[test]
    fn workers_planning_from_one_view_reach_first_for_different_tables() {
        let tables = ids(300);
        let live = workers(&["w1", "w2", "w3"]);
        let empty = BTreeMap::new();
        let firsts: Vec<BTreeSet<Uuid>> = live
            .iter()
            .map(|w| {
                let preferred_count = tables.iter().filter(|t| preferred(**t, &live) == Some(w.as_str())).count();
                claims(w, &tables, &empty, &live).into_iter().take(preferred_count.min(share(w, 300, &live))).collect()
            })
            .collect();
        for (i, a) in firsts.iter().enumerate() {
            assert!(!a.is_empty());
            for b in &firsts[i + 1..] {
                assert!(a.is_disjoint(b), "two workers reach first for the same table");
            }
        }
        // The hash spreads: each worker is the first choice for a fair part of the tables.
        for w in &live {
            let n = tables.iter().filter(|t| preferred(**t, &live) == Some(w.as_str())).count();
            assert!((60..=140).contains(&n), "{w}: first choice for {n} of 300");
        }
    }
}
