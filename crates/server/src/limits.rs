//! Keyed admission limits, meant for client IPs: a token bucket per key ([`RateLimiter`]) and a
//! cap on open connections per key ([`ConnectionLimiter`]).
//!
//! Both keep their state behind short `std` locks that are never held across an `.await`: a
//! check is one hash lookup and a few integer operations under the lock. Memory follows the keys
//! that are busy now, not every key ever seen: a bucket that has refilled is dropped (nothing is
//! lost, since a missing key *is* a full bucket), and a connection count that falls to zero is
//! removed. Keys are hashed with `std`'s randomly keyed SipHash, so a client cannot choose keys
//! that collide.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Shards of a [`RateLimiter`], so that checks on different keys rarely wait for each other.
const SHARDS: usize = 16;

/// Checks a shard takes before it prunes itself (at least: see [`ShardState::prune_due`]).
/// Over all shards that is about one prune every 1024 checks.
const PRUNE_EVERY: u32 = 64;

/// A token bucket per key: `burst` tokens, refilled at `per_second`.
///
/// Each check takes one token; a key holds at most `burst`. It is kept as GCRA (the "generic
/// cell rate algorithm"): per key, only the instant its bucket is full again, moved on by one
/// refill interval (`1 / per_second`) per check taken. That is a token bucket exactly, in integer
/// nanoseconds, so a client that waits the `retry_after` it was given is let in.
///
/// A refused check takes nothing and does not put the refill back, so a client that keeps
/// hammering gets in again as soon as it has earned one token.
///
/// Degenerate settings never panic. A `burst` of 0, a `per_second` that is not above 0 (or is
/// NaN), or one so small that a single token takes longer than [`Duration::MAX`], make a *closed*
/// limiter: every check is refused with a `retry_after` of [`Duration::MAX`] and nothing is stored.
/// (A limiter that never refills would give each key `burst` checks for life and have to remember
/// every key forever; a closed one fails visibly instead.) Callers putting `retry_after` in a
/// header should clamp it. A `per_second` of infinity admits everything.
///
/// The state is a `Mutex<HashMap>` per shard (16 shards chosen by a hash of the key); a check
/// holds its shard's lock for a hash lookup and a little arithmetic. Every 64 checks or so per
/// shard (about every 1024 overall), a check also drops that shard's full buckets, so a client
/// rotating keys cannot grow memory without bound: the map stays below about twice the number of
/// keys not yet refilled, plus 1024. A pruning pass is paid for by at least as many checks as
/// there are keys it walks.
pub struct RateLimiter<K> {
    burst: u32,
    /// time to earn one token; `None` for a closed limiter
    interval: Option<Duration>,
    /// `burst * interval`: how far ahead of now a key's full-again instant may be after a check
    tolerance: Duration,
    hasher: RandomState,
    shards: [Shard<K>; SHARDS],
}

/// Aligned to 128 bytes (two cache lines, as crossbeam's `CachePadded` does on x86-64) so that
/// neighbouring shards' locks do not share a line.
#[repr(align(128))]
struct Shard<K> {
    state: Mutex<ShardState<K>>,
}

struct ShardState<K> {
    /// per key, the instant its bucket is full again; always after the check that stored it
    full_at: HashMap<K, Instant>,
    /// checks since the last prune
    checks: u32,
    /// keys the last prune kept
    kept: usize,
}

impl<K: Eq + Hash> ShardState<K> {
    /// A prune is due after `PRUNE_EVERY` checks, or after as many checks as the last prune kept
    /// keys, whichever is more: that keeps its cost per check constant however many keys are busy.
    fn prune_due(&self) -> bool {
        let checks = usize::try_from(self.checks).unwrap_or(usize::MAX);
        self.checks >= PRUNE_EVERY && checks >= self.kept
    }

    fn prune(&mut self, now: Instant) -> usize {
        self.full_at.retain(|_, full_at| *full_at > now);
        // A burst of keys (a wave of clients) leaves no table behind at its peak size.
        if self.full_at.capacity() > 64 && self.full_at.capacity() > 4 * self.full_at.len() {
            self.full_at.shrink_to_fit();
        }
        self.checks = 0;
        self.kept = self.full_at.len();
        self.kept
    }
}

impl<K: Eq + Hash + Clone> RateLimiter<K> {
    /// `n` checks a minute per key, in bursts of up to `n`; 0 admits everything (the
    /// configuration's way of saying "no limit").
    pub fn per_minute(n: u32) -> Self {
        if n == 0 { RateLimiter::new(u32::MAX, f64::INFINITY) } else { RateLimiter::new(n, f64::from(n) / 60.0) }
    }

    /// A limiter giving each key `burst` tokens, refilled at `per_second` tokens a second.
    /// See the type's documentation for a `burst` of 0 or a `per_second` not above 0.
    pub fn new(burst: u32, per_second: f64) -> Self {
        let interval = if burst > 0 && per_second > 0.0 {
            // 1 / +inf is 0: no wait at all. 1 / tiny is too long for a Duration: closed.
            Duration::try_from_secs_f64(per_second.recip()).ok()
        } else {
            None
        };
        let tolerance = interval.map_or(Duration::ZERO, |i| i.saturating_mul(burst));
        RateLimiter {
            burst,
            interval,
            tolerance,
            hasher: RandomState::new(),
            shards: std::array::from_fn(|_| Shard {
                state: Mutex::new(ShardState { full_at: HashMap::new(), checks: 0, kept: 0 }),
            }),
        }
    }

    /// Takes one token for `key` at time `now`.
    ///
    /// `now` may go backwards a little (threads read the clock before they take the lock): an
    /// earlier `now` only sees fewer tokens.
    ///
    /// # Errors
    /// The bucket is empty: `Err(retry_after)`, the wait until it holds a token again
    /// ([`Duration::MAX`] for a closed limiter).
    pub fn check_at(&self, key: &K, now: Instant) -> Result<(), Duration> {
        let Some(interval) = self.interval else {
            return Err(Duration::MAX);
        };
        if interval.is_zero() {
            // An infinite rate: nothing to remember. (Stored, a `now` read a little before
            // another thread's would see that bucket "ahead" and be refused.)
            return Ok(());
        }
        let mut shard = self.shard(key).state.lock().unwrap_or_else(PoisonError::into_inner);
        shard.checks = shard.checks.saturating_add(1);
        if shard.prune_due() {
            shard.prune(now);
        }
        // How far ahead of now the bucket's full-again instant is after taking one more token;
        // up to `tolerance` (that is, `burst` tokens' worth) is allowed.
        let held = shard.full_at.get_mut(key);
        let ahead = held.as_ref().map_or(Duration::ZERO, |t| t.saturating_duration_since(now));
        let next = ahead.saturating_add(interval);
        if next > self.tolerance {
            return Err(next - self.tolerance);
        }
        // Only overflows for a refill interval of centuries.
        let full_at = now.checked_add(next).ok_or(Duration::MAX)?;
        match held {
            Some(t) => *t = full_at,
            None => {
                shard.full_at.insert(key.clone(), full_at);
            }
        }
        Ok(())
    }

    /// Whether a check at `now` would be refused, without taking a token.
    pub fn exhausted_at(&self, key: &K, now: Instant) -> bool {
        let Some(interval) = self.interval else { return true };
        let shard = self.shard(key).state.lock().unwrap_or_else(PoisonError::into_inner);
        let ahead = shard.full_at.get(key).map_or(Duration::ZERO, |t| t.saturating_duration_since(now));
        ahead.saturating_add(interval) > self.tolerance
    }

    /// [`RateLimiter::exhausted_at`] now.
    pub fn exhausted(&self, key: &K) -> bool {
        self.exhausted_at(key, Instant::now())
    }

    /// [`RateLimiter::check_at`] with [`Instant::now`].
    ///
    /// # Errors
    /// As [`RateLimiter::check_at`].
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    /// Drops the buckets that are full again at `now` (idle keys: dropping one changes nothing,
    /// a missing key is a full bucket), so memory stays bounded; returns how many remain.
    /// Checks do this by themselves from time to time; calling it too (from a periodic task,
    /// say) only makes the map smaller sooner.
    pub fn prune_at(&self, now: Instant) -> usize {
        self.shards.iter().map(|s| s.state.lock().unwrap_or_else(PoisonError::into_inner).prune(now)).sum()
    }

    /// [`RateLimiter::prune_at`] with [`Instant::now`].
    pub fn prune(&self) -> usize {
        self.prune_at(Instant::now())
    }

    /// Buckets held: keys that are not full again, plus full ones not pruned yet.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.state.lock().unwrap_or_else(PoisonError::into_inner).full_at.len()).sum()
    }

    /// No bucket is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every check is refused (see the type's documentation).
    pub fn is_closed(&self) -> bool {
        self.interval.is_none()
    }

    fn shard(&self, key: &K) -> &Shard<K> {
        // The remainder is below SHARDS, so the cast cannot truncate and the index is in range.
        let i = (self.hasher.hash_one(key) % SHARDS as u64) as usize;
        &self.shards[i]
    }
}

impl<K> fmt::Debug for RateLimiter<K> {
    /// Settings only: the keys are client addresses, and there may be many.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimiter")
            .field("burst", &self.burst)
            .field("interval", &self.interval)
            .finish_non_exhaustive()
    }
}

/// Open connections per key (IP), with a cap.
///
/// One `Mutex<HashMap>` (taken once when a connection opens and once when it closes, for a hash
/// lookup each). A key is in the map only while it has a connection open. A `max_per_key` of 0
/// refuses every connection.
pub struct ConnectionLimiter<K> {
    max_per_key: usize,
    open: Mutex<HashMap<K, usize>>,
}

impl<K: Eq + Hash + Clone> ConnectionLimiter<K> {
    /// A limiter allowing `max_per_key` connections open at once per key.
    pub fn new(max_per_key: usize) -> Self {
        ConnectionLimiter { max_per_key, open: Mutex::new(HashMap::new()) }
    }

    /// A guard while under the cap (dropping it releases the slot), or None at the cap.
    /// A refusal changes nothing.
    pub fn acquire(self: &Arc<Self>, key: K) -> Option<ConnectionGuard<K>> {
        {
            let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            match open.get_mut(&key) {
                Some(n) if *n >= self.max_per_key => return None,
                Some(n) => *n += 1,
                None if self.max_per_key == 0 => return None,
                None => {
                    open.insert(key.clone(), 1);
                }
            }
        }
        Some(ConnectionGuard { limiter: Arc::clone(self), key })
    }

    /// Connections open for `key`.
    pub fn count(&self, key: &K) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).get(key).copied().unwrap_or(0)
    }

    /// Connections open over all keys.
    pub fn total(&self) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).values().sum()
    }

    /// Keys with at least one connection open.
    pub fn len(&self) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// No connection is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cap per key.
    pub fn max_per_key(&self) -> usize {
        self.max_per_key
    }

    fn release(&self, key: &K) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        // Every guard counted itself in `acquire`, so the count is there and at least 1.
        if let Some(n) = open.get_mut(key) {
            debug_assert!(*n > 0, "a counted connection key holds 0");
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(key);
            }
        }
    }
}

impl<K> fmt::Debug for ConnectionLimiter<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectionLimiter").field("max_per_key", &self.max_per_key).finish_non_exhaustive()
    }
}

/// One open connection counted against its key; dropping it releases the slot.
#[must_use = "the slot is released as soon as the guard is dropped"]
pub struct ConnectionGuard<K: Eq + Hash + Clone> {
    limiter: Arc<ConnectionLimiter<K>>,
    key: K,
}

impl<K: Eq + Hash + Clone> ConnectionGuard<K> {
    /// The key this connection counts against.
    pub fn key(&self) -> &K {
        &self.key
    }
}

impl<K: Eq + Hash + Clone> Drop for ConnectionGuard<K> {
    fn drop(&mut self) {
        self.limiter.release(&self.key);
    }
}

impl<K: Eq + Hash + Clone> fmt::Debug for ConnectionGuard<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectionGuard").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_infinite_rate_admits_a_clock_read_out_of_order() {
        let limiter = RateLimiter::new(u32::MAX, f64::INFINITY);
        let now = Instant::now() + Duration::from_secs(1);
        assert!(limiter.check_at(&1u8, now).is_ok());
        // Another thread read the clock first but took the lock second.
        assert!(limiter.check_at(&1u8, now - Duration::from_millis(1)).is_ok());
        assert!(!limiter.exhausted_at(&1u8, now - Duration::from_millis(1)));
    }

    use super::*;

    use std::net::{IpAddr, Ipv4Addr};

    const MS: Duration = Duration::from_millis(1);

    fn ip(n: u32) -> IpAddr {
        IpAddr::V4(Ipv4Addr::from(n))
    }

    /// `k` checks of `key` at `now`: how many were let in.
    fn admitted<K: Eq + Hash + Clone>(limiter: &RateLimiter<K>, key: &K, now: Instant, k: u32) -> u32 {
        (0..k).map(|_| u32::from(limiter.check_at(key, now).is_ok())).sum()
    }

    #[test]
    fn burst_then_refuse_with_the_wait_for_one_token() {
        let t0 = Instant::now();
        let limiter = RateLimiter::new(3, 2.0);
        for _ in 0..3 {
            assert_eq!(limiter.check_at(&ip(1), t0), Ok(()));
        }
        assert_eq!(limiter.check_at(&ip(1), t0), Err(500 * MS));
        // Refused checks take nothing and do not push the refill back.
        assert_eq!(limiter.check_at(&ip(1), t0 + 100 * MS), Err(400 * MS));
        assert_eq!(limiter.check_at(&ip(1), t0 + 499 * MS), Err(MS));
        // Waiting exactly the retry_after is enough.
        assert_eq!(limiter.check_at(&ip(1), t0 + 500 * MS), Ok(()));
        assert_eq!(limiter.check_at(&ip(1), t0 + 500 * MS), Err(500 * MS));
    }

    #[test]
    fn tokens_refill_at_the_rate_up_to_the_burst() {
        let t0 = Instant::now();
        let limiter = RateLimiter::new(5, 4.0);
        assert_eq!(admitted(&limiter, &"a", t0, 10), 5);
        // 4 a second: one token every 250 ms.
        assert_eq!(admitted(&limiter, &"a", t0 + 250 * MS, 10), 1);
        assert_eq!(admitted(&limiter, &"a", t0 + 1_000 * MS, 10), 3);
        // A long rest fills the bucket to `burst`, not beyond.
        assert_eq!(admitted(&limiter, &"a", t0 + Duration::from_secs(60), 100), 5);
        // A steady 4 a second is always let in.
        let t1 = t0 + Duration::from_secs(120);
        for i in 0..100 {
            assert_eq!(limiter.check_at(&"a", t1 + i * 250 * MS), Ok(()), "check {i}");
        }
    }

    #[test]
    fn exhausted_peeks_without_taking() {
        let t0 = Instant::now();
        let l = RateLimiter::new(2, 1.0);
        assert!(!l.exhausted_at(&"k", t0));
        assert!(l.check_at(&"k", t0).is_ok());
        assert!(!l.exhausted_at(&"k", t0), "a peek takes nothing");
        assert!(l.check_at(&"k", t0).is_ok());
        assert!(l.exhausted_at(&"k", t0));
        assert!(l.check_at(&"k", t0).is_err());
        assert!(!l.exhausted_at(&"k", t0 + Duration::from_secs(1)), "refilled");
    }

    #[test]
    fn keys_are_independent() {
        let t0 = Instant::now();
        let limiter = RateLimiter::new(2, 1.0);
        assert_eq!(admitted(&limiter, &ip(1), t0, 5), 2);
        assert_eq!(admitted(&limiter, &ip(2), t0, 5), 2);
        assert_eq!(limiter.check_at(&ip(1), t0), Err(Duration::from_secs(1)));
        assert_eq!(limiter.len(), 2);
    }

    #[test]
    fn prune_drops_full_buckets_and_keeps_busy_ones() {
        let t0 = Instant::now();
        let limiter = RateLimiter::new(4, 1.0);
        // idle: one token taken at t0, full again at t0 + 1 s
        assert_eq!(limiter.check_at(&"idle", t0), Ok(()));
        // busy: emptied at t0 + 2 s, full again at t0 + 6 s
        assert_eq!(admitted(&limiter, &"busy", t0 + Duration::from_secs(2), 4), 4);
        assert_eq!(limiter.len(), 2);
        assert_eq!(limiter.prune_at(t0 + 999 * MS), 2, "idle is not full yet");
        assert_eq!(limiter.prune_at(t0 + Duration::from_secs(3)), 1);
        assert_eq!(limiter.len(), 1);
        // Pruning took nothing from the busy key: at +3 s it has earned one token back.
        assert_eq!(admitted(&limiter, &"busy", t0 + Duration::from_secs(3), 4), 1);
        // A pruned key comes back full.
        assert_eq!(admitted(&limiter, &"idle", t0 + Duration::from_secs(3), 10), 4);
        assert_eq!(limiter.prune_at(t0 + Duration::from_secs(60)), 0);
        assert!(limiter.is_empty());
    }

    #[test]
    fn rotating_keys_cannot_grow_the_map() {
        // An attacker with a fresh address for every request, 1000 a second, against a bucket
        // that is full again 100 ms after one check: at most 101 keys are ever not full.
        let t0 = Instant::now();
        let limiter = RateLimiter::new(5, 10.0);
        let mut largest = 0;
        for n in 0..10_000u32 {
            let now = t0 + n * MS;
            assert_eq!(limiter.check_at(&ip(n), now), Ok(()));
            largest = largest.max(limiter.len());
        }
        // Bound: twice the busy keys plus 64 checks per shard between prunes.
        assert!(largest <= 2 * 101 + 16 * 64, "the map grew to {largest} keys");
        let end = t0 + 9_999 * MS;
        assert!(limiter.prune_at(end) <= 101);
    }

    #[test]
    fn keys_that_are_not_full_are_never_pruned() {
        // The same 10 000 keys at one instant: none is full again, so all must be remembered
        // (dropping one would hand it a fresh burst).
        let t0 = Instant::now();
        let limiter = RateLimiter::new(1, 1.0);
        for n in 0..10_000u32 {
            assert_eq!(limiter.check_at(&ip(n), t0), Ok(()));
        }
        assert_eq!(limiter.len(), 10_000);
        for n in 0..10_000u32 {
            assert_eq!(limiter.check_at(&ip(n), t0 + 500 * MS), Err(500 * MS));
        }
        assert_eq!(limiter.prune_at(t0 + Duration::from_secs(1)), 0);
    }

    #[test]
    fn degenerate_settings_refuse_without_panicking() {
        let t0 = Instant::now();
        for (burst, per_second) in [(0, 1.0), (0, 0.0), (3, 0.0), (3, -1.0), (3, f64::NAN), (3, f64::MIN_POSITIVE)] {
            let limiter = RateLimiter::new(burst, per_second);
            assert!(limiter.is_closed(), "{burst} {per_second}");
            assert_eq!(limiter.check_at(&1, t0), Err(Duration::MAX), "{burst} {per_second}");
            assert!(limiter.is_empty());
        }
        // An infinite rate admits everything and remembers nothing past a prune.
        let limiter = RateLimiter::new(1, f64::INFINITY);
        assert_eq!(admitted(&limiter, &1, t0, 1_000), 1_000);
        assert_eq!(limiter.prune_at(t0), 0);
        // A huge burst does not overflow.
        let limiter = RateLimiter::new(u32::MAX, 1e-6);
        assert_eq!(admitted(&limiter, &1, t0, 1_000), 1_000);
    }

    #[test]
    fn a_clock_going_backwards_only_sees_fewer_tokens() {
        let t0 = Instant::now();
        let t1 = t0 + Duration::from_secs(10);
        let limiter = RateLimiter::new(2, 1.0);
        assert_eq!(admitted(&limiter, &1, t1, 2), 2);
        assert_eq!(limiter.check_at(&1, t0), Err(Duration::from_secs(11)));
        assert_eq!(limiter.check_at(&1, t1 + Duration::from_secs(1)), Ok(()));
    }

    #[test]
    fn concurrent_checks_take_each_token_once() {
        let t0 = Instant::now();
        let limiter = RateLimiter::new(100, 1.0);
        let let_in: u32 = std::thread::scope(|s| {
            let threads: Vec<_> = (0..8).map(|_| s.spawn(|| admitted(&limiter, &"shared", t0, 1_000))).collect();
            threads.into_iter().map(|t| t.join().unwrap()).sum()
        });
        assert_eq!(let_in, 100);
    }

    #[test]
    fn check_uses_the_clock() {
        let limiter = RateLimiter::new(1, 0.001);
        assert_eq!(limiter.check(&1), Ok(()));
        let wait = limiter.check(&1).unwrap_err();
        assert!(wait > Duration::from_secs(990) && wait <= Duration::from_secs(1000), "{wait:?}");
        assert_eq!(limiter.prune(), 1);
    }

    #[test]
    fn connections_up_to_the_cap_and_a_drop_frees_a_slot() {
        let limiter = Arc::new(ConnectionLimiter::new(2));
        let a = limiter.acquire(ip(1)).unwrap();
        let b = limiter.acquire(ip(1)).unwrap();
        assert_eq!(a.key(), &ip(1));
        assert_eq!(limiter.count(&ip(1)), 2);
        assert!(limiter.acquire(ip(1)).is_none());
        assert_eq!(limiter.count(&ip(1)), 2, "a refusal changes nothing");
        // Another key has its own slots.
        let other = limiter.acquire(ip(2)).unwrap();
        assert_eq!((limiter.count(&ip(2)), limiter.total(), limiter.len()), (1, 3, 2));
        drop(a);
        assert_eq!(limiter.count(&ip(1)), 1);
        let c = limiter.acquire(ip(1)).unwrap();
        assert!(limiter.acquire(ip(1)).is_none());
        drop(b);
        drop(c);
        drop(other);
        assert_eq!(limiter.count(&ip(1)), 0);
        assert_eq!(limiter.count(&ip(2)), 0);
        assert!(limiter.is_empty(), "closed keys leave the map");
        assert_eq!(limiter.total(), 0);
    }

    #[test]
    fn a_cap_of_zero_refuses_and_stores_nothing() {
        let limiter = Arc::new(ConnectionLimiter::new(0));
        assert!(limiter.acquire(ip(1)).is_none());
        assert!(limiter.is_empty());
    }

    #[test]
    fn guards_are_released_from_other_threads() {
        let limiter = Arc::new(ConnectionLimiter::new(64));
        let guards: Vec<_> = (0..64).map(|_| limiter.acquire(ip(7)).unwrap()).collect();
        assert!(limiter.acquire(ip(7)).is_none());
        std::thread::scope(|s| {
            for g in guards {
                s.spawn(move || drop(g));
            }
        });
        assert_eq!(limiter.count(&ip(7)), 0);
        assert!(limiter.is_empty());
    }
}
