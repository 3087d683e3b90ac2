//! Who is connected and who is seated where: each player's open sockets after `hello` (how a
//! tournament tells its players where they sit) and the tables where each holds a seat.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use uuid::Uuid;

use crate::outbox::Outbox;
use crate::wire::Frame;

/// One open socket of a player: (conn id, session id, its outbox).
type PlayerSocket = (u64, Uuid, Outbox);

/// The players' sockets and seats (memory: one entry per open socket and per seat).
pub struct Players {
    sockets: Mutex<HashMap<Uuid, Vec<PlayerSocket>>>,
    seated: Mutex<HashMap<Uuid, HashSet<Uuid>>>,
    next_conn: AtomicU64,
}

impl Default for Players {
    fn default() -> Players {
        Players { sockets: Mutex::default(), seated: Mutex::default(), next_conn: AtomicU64::new(1) }
    }
}

impl Players {
    /// A fresh connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Relaxed)
    }

    /// Numbers the connections from `first` on (a cluster gateway: the workers know its sockets
    /// by its name and these numbers, so each process of a gateway numbers apart from the
    /// last; see `cluster::gateway::first_conn_id`). Called before any socket opens.
    pub fn number_conns_from(&self, first: u64) {
        self.next_conn.store(first, Relaxed);
    }

    /// A socket said `hello` as `player`'s `session`.
    pub fn socket_opened(&self, player: Uuid, session: Uuid, conn: u64, outbox: Outbox) {
        let mut map = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        let list = map.entry(player).or_default();
        if !list.iter().any(|(c, _, _)| *c == conn) {
            list.push((conn, session, outbox));
        }
    }

    /// A socket of `player` closed.
    pub fn socket_closed(&self, player: Uuid, conn: u64) {
        let mut map = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(list) = map.get_mut(&player) {
            list.retain(|(c, _, _)| *c != conn);
            if list.is_empty() {
                map.remove(&player);
            }
        }
    }

    /// Sends a frame to every open socket of `player` (never waits: a full outbox loses it).
    pub fn notify_player(&self, player: Uuid, frame: &Frame) {
        let map = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        for (_, _, outbox) in map.get(&player).into_iter().flatten() {
            let _ = outbox.try_send(frame.clone());
        }
    }

    /// The session of one of `player`'s open sockets, if any.
    pub fn session_of(&self, player: Uuid) -> Option<Uuid> {
        let map = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(&player).and_then(|l| l.first()).map(|(_, s, _)| *s)
    }

    /// Records that `player` holds a seat at `table` (or no longer does).
    pub fn set_seated(&self, player: Uuid, table: Uuid, seated: bool) {
        let mut map = self.seated.lock().unwrap_or_else(PoisonError::into_inner);
        if seated {
            map.entry(player).or_default().insert(table);
        } else if let Some(tables) = map.get_mut(&player) {
            tables.remove(&table);
            // Only players with a seat have an entry: the map is as big as the tables' seats.
            if tables.is_empty() {
                map.remove(&player);
            }
        }
    }

    /// Every player who holds a seat somewhere.
    pub fn seated_players(&self) -> Vec<Uuid> {
        self.seated.lock().unwrap_or_else(PoisonError::into_inner).keys().copied().collect()
    }

    /// The tables where `player` holds a seat.
    pub fn seated_tables(&self, player: Uuid) -> Vec<Uuid> {
        self.seated
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&player)
            .map(|t| t.iter().copied().collect())
            .unwrap_or_default()
    }
}
