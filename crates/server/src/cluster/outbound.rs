//! A hosted table's frames on their way to the gateways.
//!
//! The table task queues each frame in the outbox of every connection it is for, as it does in
//! one process. After each command it calls `TableEnv::sent`, which drains every outbox at
//! once, on the table's task ([`Outbound::collect`]): a frame queued for several connections
//! (the same shared frame) becomes one message per gateway naming all of them
//! ([`super::wire::TO`]); a private frame goes alone, to its owner's gateway. [`coalesce`]
//! keeps every connection's frames in the order the table queued them. The table's publisher
//! task sends the messages to NATS in that order. (A socket that cannot keep up lags at its
//! gateway, which holds its real outbox: see `super::gateway`.)

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tracing::warn;

use super::wire::RemoteConn;
use crate::wire::Frame;

/// Messages waiting for the publisher at most (NATS away for long: the table can journal
/// nothing then, so it sends little; past this the newest are dropped).
const PENDING_LIMIT: usize = 1 << 16;

/// One remote connection's outbox, as the table's publisher reads it.
pub(super) struct Remote {
    /// the gateway's id for the connection
    pub(super) conn: RemoteConn,
    pub(super) rx: crate::outbox::Inbox,
    pub(super) kick: CancellationToken,
    /// the gateway was told to close the socket
    pub(super) kicked: bool,
}

/// What the table task and the worker's input task share with the table's publisher.
#[derive(Default)]
pub(super) struct Outbound {
    /// wakes the publisher: messages are pending
    pub(super) ready: Notify,
    remotes: Mutex<Vec<Remote>>,
    pending: Mutex<Vec<Message>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Outbound {
    /// A connection's outbox (before the table can queue anything in it: the join goes to
    /// the table after this).
    pub(super) fn add(&self, remote: Remote) {
        lock(&self.remotes).push(remote);
    }

    /// Turns what the table queued into messages for the publisher, and wakes it. Called on
    /// the table's task between commands, so a broadcast is never split.
    pub(super) fn collect(&self) {
        let messages = {
            let mut remotes = lock(&self.remotes);
            let mut messages = drain(&mut remotes);
            let mut kicks: BTreeMap<String, Vec<u64>> = BTreeMap::new();
            for r in remotes.iter_mut().filter(|r| !r.kicked && r.kick.is_cancelled()) {
                r.kicked = true;
                kicks.entry(r.conn.gw.clone()).or_default().push(r.conn.id);
            }
            let empty: Frame = Arc::from("");
            messages.extend(kicks.into_iter().map(|(gateway, conns)| Message {
                frame: empty.clone(),
                gateway,
                conns,
                kick: true,
            }));
            messages
        };
        if messages.is_empty() {
            return;
        }
        {
            let mut pending = lock(&self.pending);
            let room = PENDING_LIMIT.saturating_sub(pending.len());
            if messages.len() > room {
                warn!(dropped = messages.len() - room, "frames dropped: NATS is not taking them");
            }
            pending.extend(messages.into_iter().take(room));
        }
        self.ready.notify_one();
    }

    /// The messages to publish, in order.
    pub(super) fn take(&self) -> Vec<Message> {
        std::mem::take(&mut *lock(&self.pending))
    }
}

/// One message to publish: a frame (or a kick), the gateway, and its connections there.
#[derive(Debug, PartialEq)]
pub(super) struct Message {
    pub(super) frame: Frame,
    pub(super) gateway: String,
    pub(super) conns: Vec<u64>,
    /// close these sockets (no frame)
    pub(super) kick: bool,
}

/// Every frame queued in `remotes` now, as messages in an order that keeps each connection's
/// frames in their queue's order; the connections whose outboxes have closed are dropped
/// from `remotes`.
pub(super) fn drain(remotes: &mut Vec<Remote>) -> Vec<Message> {
    let mut queues: Vec<VecDeque<Frame>> = Vec::with_capacity(remotes.len());
    let mut closed = Vec::new();
    for (i, r) in remotes.iter_mut().enumerate() {
        let mut q = VecDeque::new();
        loop {
            match r.rx.try_recv() {
                Ok(frame) => q.push_back(frame),
                Err(crate::outbox::TryRecvError::Empty) => break,
                Err(crate::outbox::TryRecvError::Disconnected) => {
                    closed.push(i);
                    break;
                }
            }
        }
        queues.push(q);
    }
    let mut messages = Vec::new();
    for (frame, to) in coalesce(queues) {
        let mut by_gateway: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
        for i in to {
            by_gateway.entry(remotes[i].conn.gw.as_str()).or_default().push(remotes[i].conn.id);
        }
        for (gateway, conns) in by_gateway {
            messages.push(Message { frame: frame.clone(), gateway: gateway.to_owned(), conns, kick: false });
        }
    }
    for i in closed.into_iter().rev() {
        remotes.swap_remove(i);
    }
    messages
}

/// Merges per-connection queues into (frame, connections) pairs: a frame shared by several
/// queues (the same `Arc`) is emitted once for all of them where it heads each queue, and each
/// queue's frames come out in its order.
pub(super) fn coalesce(mut queues: Vec<VecDeque<Frame>>) -> Vec<(Frame, Vec<usize>)> {
    let mut out = Vec::new();
    loop {
        let heads: Vec<&Frame> = queues.iter().filter_map(VecDeque::front).collect();
        let Some(first) = heads.first() else { break };
        // A head that waits behind nothing in any queue goes first: taking it now cannot
        // split it. Otherwise the first head (some queue then gets it on its own later).
        let whole = |h: &Frame| queues.iter().all(|q| q.iter().skip(1).all(|f| !Arc::ptr_eq(f, h)));
        let pick = heads.iter().find(|h| whole(h)).copied().unwrap_or(first).clone();
        let mut to = Vec::new();
        for (i, q) in queues.iter_mut().enumerate() {
            if q.front().is_some_and(|f| Arc::ptr_eq(f, &pick)) {
                q.pop_front();
                to.push(i);
            }
        }
        out.push((pick, to));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> Frame {
        Arc::from(text)
    }

    fn names(out: &[(Frame, Vec<usize>)]) -> Vec<(String, Vec<usize>)> {
        out.iter().map(|(f, to)| (f.to_string(), to.clone())).collect()
    }

    #[test]
    fn a_shared_frame_goes_once_and_a_private_one_alone_in_each_queue_s_order() {
        let (public1, public2, private) = (f("p1"), f("p2"), f("down card of 1"));
        let queues = vec![
            VecDeque::from([public1.clone(), public2.clone()]),
            VecDeque::from([private.clone(), public2.clone()]),
            VecDeque::from([public1.clone(), public2.clone()]),
        ];
        let out = coalesce(queues);
        assert_eq!(
            names(&out),
            vec![("p1".into(), vec![0, 2]), ("down card of 1".into(), vec![1]), ("p2".into(), vec![0, 1, 2]),]
        );
    }

    #[test]
    fn equal_text_in_different_frames_is_not_merged() {
        let out = coalesce(vec![VecDeque::from([f("same")]), VecDeque::from([f("same")])]);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn a_queue_that_began_mid_broadcast_keeps_its_order() {
        // Queue 1 was drained after it already had the next broadcast's frame.
        let (a, b, c) = (f("a"), f("b"), f("c"));
        let queues = vec![VecDeque::from([b.clone(), c.clone()]), VecDeque::from([a.clone(), b.clone(), c.clone()])];
        let out = coalesce(queues);
        assert_eq!(names(&out), vec![("a".into(), vec![1]), ("b".into(), vec![0, 1]), ("c".into(), vec![0, 1])]);
    }

    proptest::proptest! {
        /// Whatever the queues, each comes out whole and in order, and nothing else comes out.
        #[test]
        fn every_queue_comes_out_whole_and_in_order(
            picks in proptest::collection::vec(proptest::collection::vec(0usize..6, 0..12), 0..6)
        ) {
            let pool: Vec<Frame> = (0..6).map(|i| f(&format!("frame {i}"))).collect();
            let queues: Vec<VecDeque<Frame>> =
                picks.iter().map(|p| p.iter().map(|&i| pool[i].clone()).collect()).collect();
            let out = coalesce(queues.clone());
            for (i, q) in queues.iter().enumerate() {
                let got: Vec<&Frame> = out.iter().filter(|(_, to)| to.contains(&i)).map(|(f, _)| f).collect();
                proptest::prop_assert_eq!(got.len(), q.len());
                for (g, want) in got.iter().zip(q) {
                    proptest::prop_assert!(Arc::ptr_eq(g, want));
                }
            }
            let total: usize = queues.iter().map(VecDeque::len).sum();
            proptest::prop_assert_eq!(out.iter().map(|(_, to)| to.len()).sum::<usize>(), total);
        }
    }

    #[test]
    fn drain_names_each_gateway_s_connections_and_forgets_closed_outboxes() {
        let mut remotes = Vec::new();
        let mut senders = Vec::new();
        for (gw, id) in [("g1", 1), ("g2", 7), ("g1", 3)] {
            let (tx, rx) = crate::outbox::channel(8);
            senders.push(tx);
            let conn = RemoteConn { gw: gw.into(), id };
            remotes.push(Remote { conn, rx, kick: CancellationToken::new(), kicked: false });
        }
        let event = f("event");
        for tx in &senders {
            tx.try_send(event.clone()).unwrap();
        }
        senders[1].try_send(f("prompt")).unwrap();
        drop(senders.remove(2));
        let messages = drain(&mut remotes);
        let sent: Vec<(&str, &str, Vec<u64>)> =
            messages.iter().map(|m| (&*m.frame, m.gateway.as_str(), m.conns.clone())).collect();
        assert_eq!(sent, vec![("event", "g1", vec![1, 3]), ("event", "g2", vec![7]), ("prompt", "g2", vec![7])]);
        assert_eq!(remotes.len(), 2, "the closed outbox is forgotten once drained");
        assert!(remotes.iter().all(|r| r.conn.id != 3));
    }
}
