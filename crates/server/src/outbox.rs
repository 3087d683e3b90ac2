//! A socket's outbound queue: bounded, any number of senders (the tables it joined, its own
//! replies, the player's other notices), one receiver (the socket's writer).
//!
//! Not tokio's `mpsc`: every open socket has one, and an `mpsc` channel costs about 1.6 KB
//! whether or not anything is queued (its cache-padded state, and a first block of 32 slots
//! allocated up front). This one is a mutex around a `VecDeque` that allocates when the first
//! frame is queued and gives its memory back when it has been drained: an idle socket's queue
//! is one small allocation. Its critical sections are a push or a pop of one `Arc`.
//!
//! Semantics as `mpsc`'s where we use them: sending never waits (a full queue refuses), the
//! receiver sees `None` once every sender is gone and the queue is empty, and a sender sees
//! the queue closed once the receiver is dropped.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use crate::wire::Frame;

/// Why a frame was not queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrySendError {
    /// the queue holds its bound: the socket does not keep up
    Full,
    /// the socket is gone (its receiver was dropped)
    Closed,
}

/// Why no frame was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryRecvError {
    /// nothing queued now
    Empty,
    /// nothing queued, and every sender is gone
    Disconnected,
}

/// A queue's capacity kept once it has been drained: a burst's larger buffer is freed.
const KEEP: usize = 8;

struct State {
    queue: VecDeque<Frame>,
    /// the receiver, waiting for a frame
    waker: Option<Waker>,
    senders: usize,
    receiver: bool,
}

struct Shared {
    state: Mutex<State>,
    bound: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held left a queue of whole frames: still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A new queue of at most `bound` frames (at least one).
pub fn channel(bound: usize) -> (Outbox, Inbox) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State { queue: VecDeque::new(), waker: None, senders: 1, receiver: true }),
        bound: bound.max(1),
    });
    (Outbox { shared: shared.clone() }, Inbox { shared })
}

/// The sending side; clone it for each sender.
pub struct Outbox {
    shared: Arc<Shared>,
}

impl Outbox {
    /// Queues `frame` unless the queue is full or its receiver is gone.
    ///
    /// # Errors
    /// [`TrySendError`]: the frame was dropped.
    pub fn try_send(&self, frame: Frame) -> Result<(), TrySendError> {
        self.try_send_all(std::iter::once(frame))
    }

    /// Queues all of `frames` or none of them (a snapshot without the prompt that follows it
    /// would leave a player unable to act).
    ///
    /// # Errors
    /// [`TrySendError`]: there is not room for all of them, or the receiver is gone.
    pub fn try_send_all<I>(&self, frames: I) -> Result<(), TrySendError>
    where
        I: IntoIterator<Item = Frame>,
        I::IntoIter: ExactSizeIterator,
    {
        let frames = frames.into_iter();
        let waker = {
            let mut state = self.shared.lock();
            if !state.receiver {
                return Err(TrySendError::Closed);
            }
            if state.queue.len() + frames.len() > self.shared.bound {
                return Err(TrySendError::Full);
            }
            state.queue.extend(frames);
            state.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
        Ok(())
    }

    /// How many more frames fit now.
    pub fn capacity(&self) -> usize {
        self.shared.bound.saturating_sub(self.shared.lock().queue.len())
    }

    /// How many frames the queue holds at most.
    pub fn max_capacity(&self) -> usize {
        self.shared.bound
    }

    /// Whether the receiver is gone (the socket closed).
    pub fn is_closed(&self) -> bool {
        !self.shared.lock().receiver
    }
}

impl Clone for Outbox {
    fn clone(&self) -> Outbox {
        self.shared.lock().senders += 1;
        Outbox { shared: self.shared.clone() }
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        let waker = {
            let mut state = self.shared.lock();
            state.senders -= 1;
            if state.senders == 0 { state.waker.take() } else { None }
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox").field("bound", &self.shared.bound).finish_non_exhaustive()
    }
}

/// The receiving side: the socket's writer.
pub struct Inbox {
    shared: Arc<Shared>,
}

impl Inbox {
    /// The next frame; `None` once the queue is empty and every sender is gone.
    pub async fn recv(&mut self) -> Option<Frame> {
        std::future::poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// The next frame, or a wake-up when one is queued; `None` as [`Inbox::recv`].
    pub fn poll_recv(&self, cx: &mut Context<'_>) -> Poll<Option<Frame>> {
        let mut state = self.shared.lock();
        match Self::take(&mut state) {
            Ok(frame) => Poll::Ready(Some(frame)),
            Err(TryRecvError::Disconnected) => Poll::Ready(None),
            Err(TryRecvError::Empty) => {
                match &mut state.waker {
                    Some(w) => w.clone_from(cx.waker()),
                    none => *none = Some(cx.waker().clone()),
                }
                Poll::Pending
            }
        }
    }

    /// The next frame if one is queued now.
    ///
    /// # Errors
    /// [`TryRecvError`]: none is queued (and whether any sender is left).
    pub fn try_recv(&mut self) -> Result<Frame, TryRecvError> {
        Self::take(&mut self.shared.lock())
    }

    /// How many frames are queued.
    pub fn len(&self) -> usize {
        self.shared.lock().queue.len()
    }

    /// Whether no frame is queued.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn take(state: &mut State) -> Result<Frame, TryRecvError> {
        match state.queue.pop_front() {
            Some(frame) => {
                if state.queue.is_empty() && state.queue.capacity() > KEEP {
                    state.queue = VecDeque::new();
                }
                Ok(frame)
            }
            None if state.senders == 0 => Err(TryRecvError::Disconnected),
            None => Err(TryRecvError::Empty),
        }
    }
}

impl Drop for Inbox {
    fn drop(&mut self) {
        let queued = {
            let mut state = self.shared.lock();
            state.receiver = false;
            state.waker = None;
            std::mem::take(&mut state.queue)
        };
        // The frames are freed outside the lock.
        drop(queued);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &str) -> Frame {
        Arc::from(text)
    }

    #[test]
    fn frames_come_out_in_order_up_to_the_bound() {
        let (tx, mut rx) = channel(3);
        assert_eq!(tx.max_capacity(), 3);
        for t in ["a", "b", "c"] {
            tx.try_send(frame(t)).unwrap();
        }
        assert_eq!(tx.capacity(), 0);
        assert_eq!(tx.try_send(frame("d")), Err(TrySendError::Full));
        assert_eq!(rx.len(), 3);
        assert_eq!(&*rx.try_recv().unwrap(), "a");
        assert_eq!(tx.capacity(), 1);
        tx.try_send(frame("d")).unwrap();
        let rest: Vec<String> = std::iter::from_fn(|| rx.try_recv().ok()).map(|f| f.to_string()).collect();
        assert_eq!(rest, ["b", "c", "d"]);
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    }

    #[test]
    fn all_of_a_batch_or_none() {
        let (tx, rx) = channel(4);
        tx.try_send(frame("a")).unwrap();
        tx.try_send(frame("b")).unwrap();
        assert_eq!(tx.try_send_all([frame("c"), frame("d"), frame("e")]), Err(TrySendError::Full));
        assert_eq!(rx.len(), 2, "nothing of the refused batch was queued");
        tx.try_send_all([frame("c"), frame("d")]).unwrap();
        assert_eq!(rx.len(), 4);
    }

    #[test]
    fn the_receiver_ends_when_every_sender_is_gone_and_the_queue_is_drained() {
        let (tx, mut rx) = channel(4);
        let other = tx.clone();
        tx.try_send(frame("a")).unwrap();
        drop(tx);
        assert_eq!(&*rx.try_recv().unwrap(), "a");
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty), "one sender is left");
        other.try_send(frame("b")).unwrap();
        drop(other);
        assert_eq!(&*rx.try_recv().unwrap(), "b", "what was queued is still delivered");
        assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
    }

    #[test]
    fn senders_see_the_queue_closed_once_the_receiver_is_gone() {
        let (tx, rx) = channel(4);
        assert!(!tx.is_closed());
        drop(rx);
        assert!(tx.is_closed());
        assert_eq!(tx.try_send(frame("a")), Err(TrySendError::Closed));
    }

    #[test]
    fn a_drained_queue_gives_its_burst_buffer_back() {
        let (tx, mut rx) = channel(64);
        tx.try_send_all((0..40).map(|i| frame(&i.to_string()))).unwrap();
        assert!(rx.shared.lock().queue.capacity() >= 40);
        while rx.try_recv().is_ok() {}
        assert_eq!(rx.shared.lock().queue.capacity(), 0, "freed once empty");
        tx.try_send(frame("a")).unwrap();
        rx.try_recv().unwrap();
        assert!(rx.shared.lock().queue.capacity() <= KEEP, "a small buffer is kept");
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_for_a_frame_and_for_the_last_sender_leaving() {
        let (tx, mut rx) = channel(4);
        let waiting = tokio::spawn(async move {
            let first = rx.recv().await;
            let second = rx.recv().await;
            (first, second)
        });
        tokio::task::yield_now().await;
        tx.try_send(frame("a")).unwrap();
        tokio::task::yield_now().await;
        drop(tx);
        let (first, second) = waiting.await.unwrap();
        assert_eq!(first.as_deref(), Some("a"));
        assert_eq!(second, None);
    }

    #[test]
    fn an_idle_queue_is_small() {
        // What an open socket's queue costs while nothing is queued: the shared state only.
        assert!(std::mem::size_of::<Shared>() <= 96, "{}", std::mem::size_of::<Shared>());
    }
}
