//! A guest's or a player's login: [`Session`], the one value every layer passes to say who is
//! asking. Its token is a secret (`Debug` leaves it out); logging out cancels it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use uuid::Uuid;

/// A guest login: one token, one player, one session. `Debug` leaves the token out.
pub struct Session {
    /// bearer token (secret)
    pub token: String,
    /// the player
    pub player_id: Uuid,
    /// this session (LAST HAND is per session)
    pub session_id: Uuid,
    /// display name
    pub name: String,
    /// cancelled when the session is logged out ([`App::end_session`]): its sockets close
    ended: tokio_util::sync::CancellationToken,
}

impl Session {
    /// A session (not yet ended).
    pub fn new(token: String, player_id: Uuid, session_id: Uuid, name: String) -> Session {
        Session { token, player_id, session_id, name, ended: tokio_util::sync::CancellationToken::new() }
    }

    /// Resolves when the session is logged out (at once if it is already).
    pub async fn ended(&self) {
        self.ended.cancelled().await;
    }

    /// Logs the session out: its sockets close ([`Session::ended`] resolves).
    pub(crate) fn end(&self) {
        self.ended.cancel();
    }

    /// Whether the session has been logged out.
    pub fn is_ended(&self) -> bool {
        self.ended.is_cancelled()
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("token", &"<redacted>")
            .field("player_id", &self.player_id)
            .field("session_id", &self.session_id)
            .field("name", &self.name)
            .field("ended", &self.is_ended())
            .finish()
    }
}

/// A session held in memory, with when it was last used and when that was last stored.
struct Cached {
    session: Arc<Session>,
    used_ms: AtomicU64,
    stored_ms: AtomicU64,
}

impl Cached {
    fn new(session: Arc<Session>, now: u64) -> Cached {
        Cached { session, used_ms: AtomicU64::new(now), stored_ms: AtomicU64::new(now) }
    }
}

/// Memory kept bounded, counted (on `/metrics`).
#[derive(Default)]
pub struct SweepCounts {
    /// sessions that expired (refused in memory, or deleted from the store)
    pub expired: AtomicU64,
    /// sessions dropped from memory (unused, or past the cap); they resolve again from the store
    pub evicted: AtomicU64,
    /// accounts dropped from the bank (loaded again from the store when their player is back)
    pub accounts: AtomicU64,
}

/// How long a logged-out session's id is remembered (a store lookup in flight takes far less).
const ENDED_KEPT_MS: u64 = 60_000;

/// How long sessions read ahead at start ([`Sessions::warm`]) wait for their players: a
/// reconnect storm comes in seconds; a player back later reads the store as usual.
pub const WARM_KEPT_MS: u64 = 10 * 60_000;

/// What memory knows of a token ([`Sessions::lookup`]).
pub enum Lookup {
    /// a live session; `touch`: its use is due to be stored
    Live {
        /// the session
        session: Arc<Session>,
        /// whether to store its use now (at most once per `touch_every_ms`)
        touch: bool,
    },
    /// it was held but has expired (it is dropped, and counted)
    Expired,
    /// not held here (ask the store)
    Unknown,
}

/// The sessions held in memory: a bounded cache of the store's (least recently used ones go
/// past the cap), the sessions logged out lately, and the counts of what was dropped.
pub struct Sessions {
    map: RwLock<HashMap<String, Cached>>,
    /// sessions logged out in the last [`ENDED_KEPT_MS`] (id -> when): a lookup in the store
    /// that began before a log out cannot bring its session back into memory
    ended: Mutex<HashMap<Uuid, u64>>,
    cap: usize,
    /// sessions read ahead from the store at start, by token hash (the token itself is never
    /// stored), with when: the players of the resumed tables, who all reconnect at once. Each
    /// is taken by its first `hello`; the rest go after [`WARM_KEPT_MS`].
    warm: Mutex<(u64, HashMap<String, stud_store::StoredSession>)>,
    /// sessions expired or dropped from memory, and accounts dropped, since start
    pub counts: SweepCounts,
}

impl Sessions {
    /// An empty cache of at most `cap` sessions.
    pub fn new(cap: usize) -> Sessions {
        Sessions {
            map: RwLock::default(),
            ended: Mutex::default(),
            cap,
            warm: Mutex::default(),
            counts: SweepCounts::default(),
        }
    }

    fn warm_map(&self) -> std::sync::MutexGuard<'_, (u64, HashMap<String, stud_store::StoredSession>)> {
        self.warm.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds sessions read ahead from the store (token hash, session) at `now`, at most the
    /// cache's cap of them; returns how many are held.
    pub fn warm(&self, sessions: impl IntoIterator<Item = (String, stud_store::StoredSession)>, now: u64) -> usize {
        let mut warm = self.warm_map();
        warm.0 = now;
        let room = self.cap.saturating_sub(warm.1.len());
        warm.1.extend(sessions.into_iter().take(room));
        warm.1.len()
    }

    /// Whether any session read ahead waits for its player (else a lookup need not hash).
    pub fn any_warm(&self) -> bool {
        !self.warm_map().1.is_empty()
    }

    /// The session read ahead for this token hash, taken (it is cached like any other from
    /// then on).
    pub fn take_warm(&self, token_hash: &str) -> Option<stud_store::StoredSession> {
        self.warm_map().1.remove(token_hash)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Cached>> {
        self.map.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Cached>> {
        self.map.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// The session of a token, if held (expired or not).
    pub fn get(&self, token: &str) -> Option<Arc<Session>> {
        self.read().get(token).map(|c| c.session.clone())
    }

    /// Sessions held.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether none is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A token's session at `now` if held: live (marked used), or expired after `idle` ms
    /// without use (then dropped).
    pub fn lookup(&self, token: &str, now: u64, idle: u64, touch_every: u64) -> Lookup {
        let cached = self.read().get(token).map(|c| {
            let used = c.used_ms.load(Relaxed);
            let expired = now.saturating_sub(used) > idle;
            let mut touch = false;
            if !expired {
                c.used_ms.fetch_max(now, Relaxed);
                let stored = c.stored_ms.load(Relaxed);
                touch = now.saturating_sub(stored) >= touch_every
                    && c.stored_ms.compare_exchange(stored, now, Relaxed, Relaxed).is_ok();
            }
            (c.session.clone(), expired, touch)
        });
        match cached {
            Some((session, false, touch)) => Lookup::Live { session, touch },
            Some((_, true, _)) => {
                self.write().remove(token);
                self.counts.expired.fetch_add(1, Relaxed);
                Lookup::Expired
            }
            None => Lookup::Unknown,
        }
    }

    /// Keeps a session, dropping the least recently used ones past the cap.
    pub fn remember(&self, session: Arc<Session>, now: u64) {
        let mut sessions = self.write();
        self.remember_locked(&mut sessions, session, now);
    }

    /// A session just read from the store: the one memory holds for its token if there is one,
    /// else this one, kept; `None` if it was logged out meanwhile (checked under the cache's
    /// lock, which [`Sessions::forget_ended`] holds too).
    pub fn remember_resolved(&self, session: Arc<Session>, now: u64) -> Option<Arc<Session>> {
        let mut sessions = self.write();
        if self.ended.lock().unwrap_or_else(PoisonError::into_inner).contains_key(&session.session_id) {
            return None;
        }
        if let Some(known) = sessions.get(&session.token) {
            return Some(known.session.clone());
        }
        self.remember_locked(&mut sessions, session.clone(), now);
        Some(session)
    }

    fn remember_locked(&self, sessions: &mut HashMap<String, Cached>, session: Arc<Session>, now: u64) {
        let cap = self.cap;
        sessions.insert(session.token.clone(), Cached::new(session, now));
        if sessions.len() > cap {
            // Down to 7/8 of the cap at once, so the sort is paid once per cap/8 sessions.
            let keep = cap - cap / 8;
            let mut idle: Vec<(u64, String)> = sessions
                .iter()
                .filter(|(_, c)| Arc::strong_count(&c.session) == 1)
                .map(|(t, c)| (c.used_ms.load(Relaxed), t.clone()))
                .collect();
            let excess = sessions.len().saturating_sub(keep).min(idle.len());
            if excess > 0 {
                idle.select_nth_unstable(excess - 1);
                for (_, token) in &idle[..excess] {
                    sessions.remove(token);
                }
            }
            self.counts.evicted.fetch_add(u64::try_from(excess).unwrap_or(u64::MAX), Relaxed);
        }
    }

    /// A logged-out session leaves memory and is remembered as ended for a while; returns the
    /// copy memory held, if any (to end it too).
    pub fn forget_ended(&self, session: &Session, now: u64) -> Option<Arc<Session>> {
        let mut sessions = self.write();
        let mut ended = self.ended.lock().unwrap_or_else(PoisonError::into_inner);
        // Bounded: only the last minute's log outs (each needed a session of its own).
        ended.retain(|_, at| now.saturating_sub(*at) < ENDED_KEPT_MS);
        ended.insert(session.session_id, now);
        self.take_warm(&stud_store::token_hash(&session.token));
        sessions.remove(&session.token).map(|c| c.session)
    }

    /// Drops the sessions not used for `keep_for` ms (one a socket or a table holds counts as
    /// used now); returns the held ones whose use is due to be stored.
    pub fn sweep(&self, now: u64, keep_for: u64, touch_every: u64) -> Vec<Uuid> {
        {
            let mut warm = self.warm_map();
            if now.saturating_sub(warm.0) > WARM_KEPT_MS && !warm.1.is_empty() {
                warm.1 = HashMap::new();
            }
        }
        let mut touches = Vec::new();
        let mut sessions = self.write();
        let before = sessions.len();
        sessions.retain(|_, c| {
            if Arc::strong_count(&c.session) > 1 {
                c.used_ms.fetch_max(now, Relaxed);
                if now.saturating_sub(c.stored_ms.load(Relaxed)) >= touch_every {
                    c.stored_ms.store(now, Relaxed);
                    touches.push(c.session.session_id);
                }
                return true;
            }
            now.saturating_sub(c.used_ms.load(Relaxed)) <= keep_for
        });
        self.counts.evicted.fetch_add(u64::try_from(before - sessions.len()).unwrap_or(0), Relaxed);
        if sessions.capacity() > 64 && sessions.capacity() > 4 * sessions.len() {
            sessions.shrink_to_fit();
        }
        touches
    }

    /// Runs `f` on the players whose sessions are held, under the cache's lock: a session cached
    /// before keeps its account; one cached after loads (or opens) its account after caching
    /// itself.
    pub fn with_cached_players<R>(&self, f: impl FnOnce(&HashSet<Uuid>) -> R) -> R {
        let sessions = self.read();
        let cached: HashSet<Uuid> = sessions.values().map(|c| c.session.player_id).collect();
        let r = f(&cached);
        drop(sessions);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(name: &str) -> stud_store::StoredSession {
        stud_store::StoredSession { player_id: Uuid::new_v4(), session_id: Uuid::new_v4(), name: name.into() }
    }

    #[test]
    fn sessions_read_ahead_are_taken_once_forgotten_on_log_out_and_dropped_after_a_while() {
        let sessions = Sessions::new(3);
        assert!(!sessions.any_warm());
        let (ann, bo, cy, di) = (stored("Ann"), stored("Bo"), stored("Cy"), stored("Di"));
        // Held by token hash, as the store keeps them.
        let bo_hash = stud_store::token_hash("token-b");
        let list =
            [("a", &ann), (bo_hash.as_str(), &bo), ("c", &cy), ("d", &di)].map(|(h, s)| (h.to_owned(), s.clone()));
        assert_eq!(sessions.warm(list, 1_000), 3, "at most the cache's cap");
        assert!(sessions.any_warm());
        assert_eq!(sessions.take_warm("a"), Some(ann));
        assert_eq!(sessions.take_warm("a"), None, "taken once");
        assert_eq!(sessions.take_warm("d"), None, "past the cap");
        // A log out: a session read ahead does not come back.
        let out = Session::new("token-b".into(), bo.player_id, bo.session_id, bo.name.clone());
        sessions.forget_ended(&out, 2_000);
        assert_eq!(sessions.take_warm(&bo_hash), None);
        // Kept for WARM_KEPT_MS, then dropped by the sweep.
        sessions.sweep(1_000 + WARM_KEPT_MS, 60_000, 60_000);
        assert!(sessions.any_warm());
        sessions.sweep(1_001 + WARM_KEPT_MS, 60_000, 60_000);
        assert!(!sessions.any_warm());
        assert_eq!(sessions.take_warm("c"), None);
    }
}
