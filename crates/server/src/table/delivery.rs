//! Delivery to a table's subscribers: each connection's bounded outbox, and what happens to a
//! client that cannot keep up (it is skipped, then sent one fresh snapshot as soon as its
//! queue has room, and dropped if it stays full).

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;

use crate::outbox::{Outbox as Queue, TrySendError};
use stud_table::{ConnId, Millis, TableCore};
use tracing::{debug, warn};

use super::Conn;
use crate::metrics::Metrics;
use crate::wire::Frame;

/// Broadcasts a lagging subscriber may miss before it is disconnected.
pub(crate) const LAG_LIMIT: u32 = 64;

/// How often a table with a lagging subscriber looks whether its queue has room again, when
/// nothing else happens at the table (the player to act may be the one lagging: their prompt
/// must not wait for the next broadcast, or for the clock).
pub(crate) const LAG_POLL: std::time::Duration = std::time::Duration::from_millis(50);

struct Outbox {
    conn: Conn,
    lagging: bool,
    misses: u32,
}

/// The outboxes of a table's subscribers.
#[derive(Default)]
pub(super) struct Delivery {
    outboxes: HashMap<ConnId, Outbox>,
    /// Connections the table stopped sending to (left, refused, removed by an operator) whose
    /// sockets are still open: their later requests are still answered (one reply per
    /// request), nothing else. Pruned when their sockets close.
    departed: HashMap<ConnId, Queue>,
}

impl Delivery {
    /// A connection that asked to join (the core decides whether it stays).
    pub(super) fn add(&mut self, conn: Conn) {
        self.departed.remove(&conn.id);
        self.outboxes.entry(conn.id).or_insert(Outbox { conn, lagging: false, misses: 0 });
    }

    /// The table stopped sending to this connection (its replies still reach it).
    pub(super) fn remove(&mut self, conn: ConnId) {
        self.departed.retain(|_, outbox| !outbox.is_closed());
        if let Some(o) = self.outboxes.remove(&conn)
            && !o.conn.outbox.is_closed()
        {
            self.departed.insert(conn, o.conn.outbox);
        }
    }

    /// The socket closed: forget the connection.
    pub(super) fn forget(&mut self, conn: ConnId) {
        self.outboxes.remove(&conn);
        self.departed.remove(&conn);
    }

    /// Whether the connection asked for a fresh snapshot: it no longer lags.
    pub(super) fn caught_up(&mut self, conn: ConnId) {
        if let Some(o) = self.outboxes.get_mut(&conn) {
            o.lagging = false;
        }
    }

    /// Whether a subscriber is waiting for room in its queue (for a fresh snapshot).
    pub(super) fn any_lagging(&self) -> bool {
        self.outboxes.values().any(|o| o.lagging)
    }

    /// Queues a frame; a full queue marks the subscriber lagging. Returns false when the
    /// connection has closed (the table should forget it).
    pub(super) fn deliver(&mut self, metrics: &Metrics, conn: ConnId, frame: Frame) -> bool {
        let Some(o) = self.outboxes.get_mut(&conn) else {
            // Only a reply is ever addressed to a connection that is not subscribed.
            self.reply(conn, frame);
            return true;
        };
        if o.lagging {
            return true;
        }
        match o.conn.outbox.try_send(frame) {
            Ok(()) => {
                metrics.frames.fetch_add(1, Relaxed);
                true
            }
            Err(TrySendError::Full) => {
                o.lagging = true;
                o.misses = 0;
                metrics.lagging.fetch_add(1, Relaxed);
                debug!(conn_id = conn, "subscriber lagging");
                true
            }
            Err(TrySendError::Closed) => false,
        }
    }

    /// Lagging subscribers get a fresh snapshot (and their prompt) as soon as their queue has room. Returns
    /// the connections to drop: closed ones, and those that stayed full for `LAG_LIMIT` broadcasts
    /// (their socket is cancelled). `broadcast`: whether this round follows a broadcast (a
    /// [`LAG_POLL`] round only looks for room, it counts no miss).
    pub(super) fn resync(&mut self, core: &TableCore, now: Millis, broadcast: bool) -> Vec<ConnId> {
        let mut gone = Vec::new();
        for (id, o) in self.outboxes.iter_mut().filter(|(_, o)| o.lagging) {
            // All of the frames or none: a snapshot without the prompt that follows it would
            // leave the player unable to act. A queue with no room gets no snapshot built.
            let sent = if o.conn.outbox.is_closed() {
                Err(TrySendError::Closed)
            } else if o.conn.outbox.capacity() == 0 {
                Err(TrySendError::Full)
            } else {
                o.conn.outbox.try_send_all(core.resync_frames(*id, now))
            };
            match sent {
                Ok(()) => o.lagging = false,
                Err(TrySendError::Full) => {
                    o.misses += u32::from(broadcast);
                    if o.misses > LAG_LIMIT {
                        warn!(conn_id = id, "dropping a client that cannot keep up");
                        o.conn.kick.cancel();
                        gone.push(*id);
                    }
                }
                Err(TrySendError::Closed) => gone.push(*id),
            }
        }
        gone
    }

    /// The player on a connection.
    pub(super) fn player(&self, conn: ConnId) -> Option<uuid::Uuid> {
        self.outboxes.get(&conn).map(|o| o.conn.session.player_id)
    }

    /// The connection's outbox, for answers the core does not make (it never joined).
    pub(super) fn reply(&self, conn: ConnId, frame: Frame) {
        let outbox = self.outboxes.get(&conn).map(|o| &o.conn.outbox).or_else(|| self.departed.get(&conn));
        if let Some(outbox) = outbox {
            let _ = outbox.try_send(frame);
        }
    }
}
