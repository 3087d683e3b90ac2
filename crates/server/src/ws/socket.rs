//! One WebSocket's bytes in its connection's one task: the client's messages read (`codec`)
//! and the socket's queued frames written as they come, from the same `poll`. No writer task,
//! no split socket, no buffer kept while the socket is idle.

use std::collections::VecDeque;
use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::codec::{self, Decoder, Incoming, Opcode, Violation};
use crate::outbox::Inbox;
use crate::wire::Frame;

/// What a socket's reader saw.
#[derive(Debug)]
pub enum Event {
    /// a message or control frame from the client
    Message(Incoming),
    /// the client broke the protocol: close with this
    Violation(Violation),
    /// the connection is gone (closed without a close frame, reset, or not writable)
    Gone,
}

/// The most frames one write carries (the rest go in the next).
const WRITE_BATCH: usize = 32;

/// Bytes read at once (on the stack of a poll, not kept).
const READ_CHUNK: usize = 4096;

/// How long a closing socket may take to send its last frames and hear the client close.
pub const LINGER: Duration = Duration::from_secs(1);

enum Out {
    /// one of ours, sent as one text frame
    Frame(Frame),
    /// a pong, header included
    Pong(Box<[u8]>),
    /// our close frame, header included
    Close(Box<[u8]>),
}

impl Out {
    fn len(&self) -> usize {
        match self {
            Out::Frame(f) => codec::header(Opcode::Text, f.len()).1 + f.len(),
            Out::Pong(c) | Out::Close(c) => c.len(),
        }
    }
}

/// A WebSocket after its upgrade.
pub struct Socket<T> {
    io: T,
    decoder: Decoder,
    inbox: Inbox,
    /// being written: frames taken from the inbox, and control frames (at most a batch)
    out: VecDeque<Out>,
    /// bytes of `out`'s first item already written
    written: usize,
}

impl<T: AsyncRead + AsyncWrite + Unpin> Socket<T> {
    /// A socket over `io` writing what `inbox` receives, refusing messages over `limit` bytes.
    pub fn new(io: T, inbox: Inbox, limit: usize) -> Socket<T> {
        Socket { io, decoder: Decoder::new(limit), inbox, out: VecDeque::new(), written: 0 }
    }

    /// The next thing the client sends; meanwhile the frames queued for it are written.
    /// Cancel-safe: what was read or is being written stays in the socket.
    pub async fn next(&mut self) -> Event {
        poll_fn(|cx| self.poll_next(cx)).await
    }

    /// Writes the frames queued for the client as they come, without reading (while the
    /// connection works on a message); returns only once the socket cannot be written. Once
    /// every sender is gone it waits for nothing more: race it against the work it runs beside
    /// (the connection keeps a sender for its life).
    pub async fn write(&mut self) {
        poll_fn(|cx| match self.poll_write(cx) {
            Poll::Ready(Err(_)) => Poll::Ready(()),
            _ => Poll::Pending,
        })
        .await;
    }

    /// Answers a ping, after the frames being written. A pong not yet begun is replaced
    /// (RFC 6455 5.5.3 lets the last ping alone be answered), so a client that pings without
    /// reading holds one pong here, not one per ping.
    pub fn pong(&mut self, payload: &[u8]) {
        let pong = Out::Pong(codec::control(Opcode::Pong, payload));
        let waiting = self.out.iter().rposition(|o| matches!(o, Out::Pong(_))).filter(|&i| i > 0 || self.written == 0);
        match waiting {
            Some(i) => self.out[i] = pong,
            None => self.out.push_back(pong),
        }
    }

    /// Ends the connection within [`LINGER`]: the frames being written, then our close frame
    /// (`code` and `reason`, or none), the write side shut, and the client's last bytes read
    /// and dropped until it closes (a socket closed with bytes unread is reset, and a reset
    /// can discard our close frame before the client reads it). Frames still queued are dropped.
    pub async fn close(&mut self, frame: Option<(u16, &str)>) {
        self.out.push_back(Out::Close(codec::close(frame)));
        let ending = async {
            if poll_fn(|cx| self.poll_flush_out(cx)).await.is_err()
                || poll_fn(|cx| Pin::new(&mut self.io).poll_shutdown(cx)).await.is_err()
            {
                return;
            }
            poll_fn(|cx| {
                loop {
                    let mut chunk = [0u8; READ_CHUNK];
                    let mut buf = ReadBuf::new(&mut chunk);
                    match ready!(Pin::new(&mut self.io).poll_read(cx, &mut buf)) {
                        Ok(()) if !buf.filled().is_empty() => {}
                        _ => return Poll::Ready(()),
                    }
                }
            })
            .await;
        };
        let _ = tokio::time::timeout(LINGER, ending).await;
    }

    fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Event> {
        if let Poll::Ready(Err(_)) = self.poll_write(cx) {
            return Poll::Ready(Event::Gone);
        }
        loop {
            match self.decoder.next_message() {
                Ok(Some(incoming)) => return Poll::Ready(Event::Message(incoming)),
                Ok(None) => {}
                Err(violation) => return Poll::Ready(Event::Violation(violation)),
            }
            let mut chunk = [0u8; READ_CHUNK];
            let mut buf = ReadBuf::new(&mut chunk);
            match ready!(Pin::new(&mut self.io).poll_read(cx, &mut buf)) {
                Ok(()) if !buf.filled().is_empty() => self.decoder.push(buf.filled()),
                _ => return Poll::Ready(Event::Gone),
            }
        }
    }

    /// Writes until nothing is queued (`Pending`, waiting for the next frame) or the socket
    /// is full (`Pending`, waiting for room). `Ready` only with the error that ends it.
    fn poll_write(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        loop {
            ready!(self.poll_flush_out(cx))?;
            // Every frame already queued goes out with the first: one write for a table's
            // burst (an event, the next prompt, ...), not one per frame.
            match self.inbox.poll_recv(cx) {
                Poll::Ready(Some(frame)) => {
                    self.out.push_back(Out::Frame(frame));
                    while self.out.len() < WRITE_BATCH {
                        let Ok(frame) = self.inbox.try_recv() else { break };
                        self.out.push_back(Out::Frame(frame));
                    }
                }
                // Every sender is gone: nothing more will come.
                Poll::Ready(None) | Poll::Pending => return Poll::Pending,
            }
        }
    }

    /// Writes what `out` holds, gathered (a header on the stack, then each frame's own bytes).
    fn poll_flush_out(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.out.is_empty() {
            let mut headers = [([0u8; 10], 0usize); WRITE_BATCH];
            for (h, out) in headers.iter_mut().zip(&self.out) {
                if let Out::Frame(f) = out {
                    *h = codec::header(Opcode::Text, f.len());
                }
            }
            let mut slices = [io::IoSlice::new(&[]); 2 * WRITE_BATCH];
            let mut n = 0;
            let mut skip = self.written;
            for (out, (h, h_len)) in self.out.iter().zip(&headers) {
                let parts: [&[u8]; 2] = match out {
                    Out::Frame(f) => [&h[..*h_len], f.as_bytes()],
                    Out::Pong(c) | Out::Close(c) => [c, &[]],
                };
                for part in parts {
                    if skip >= part.len() {
                        skip -= part.len();
                        continue;
                    }
                    slices[n] = io::IoSlice::new(&part[skip..]);
                    skip = 0;
                    n += 1;
                }
            }
            let wrote = ready!(Pin::new(&mut self.io).poll_write_vectored(cx, &slices[..n]))?;
            if wrote == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += wrote;
            while let Some(first) = self.out.front() {
                let len = first.len();
                if self.written < len {
                    break;
                }
                self.written -= len;
                self.out.pop_front();
            }
        }
        // Drained: the batch's buffer is given back (an idle socket holds none).
        self.out = VecDeque::new();
        Pin::new(&mut self.io).poll_flush(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::super::codec::tests::client;
    use super::*;
    use std::sync::Arc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Reads one of our frames: opcode and payload.
    async fn frame(peer: &mut tokio::io::DuplexStream) -> (u8, Vec<u8>) {
        let mut h = [0u8; 2];
        peer.read_exact(&mut h).await.unwrap();
        assert_eq!(h[0] & 0x80, 0x80, "final");
        assert_eq!(h[1] & 0x80, 0, "a server's frames are not masked");
        let len = match h[1] & 0x7F {
            126 => usize::from(peer.read_u16().await.unwrap()),
            127 => usize::try_from(peer.read_u64().await.unwrap()).unwrap(),
            n => usize::from(n),
        };
        let mut payload = vec![0; len];
        peer.read_exact(&mut payload).await.unwrap();
        (h[0] & 0x0F, payload)
    }

    #[tokio::test]
    async fn frames_are_written_while_messages_are_read_and_a_ping_is_answered() {
        let (io, mut peer) = tokio::io::duplex(64);
        let (outbox, inbox) = crate::outbox::channel(64);
        let mut socket = Socket::new(io, inbox, 1 << 16);
        let long: Frame = Arc::from("z".repeat(70_000));
        for f in ["one", "two"] {
            outbox.try_send(Arc::from(f)).unwrap();
        }
        outbox.try_send(long.clone()).unwrap();
        // The duplex holds 64 bytes: the frames go out in many writes while the socket reads.
        let client_side = async {
            let mut got = Vec::new();
            for _ in 0..3 {
                got.push(frame(&mut peer).await);
            }
            peer.write_all(&client(false, 0x1, b"hel")).await.unwrap();
            peer.write_all(&client(true, 0x9, b"ping!")).await.unwrap();
            peer.write_all(&client(true, 0x0, b"lo")).await.unwrap();
            (got, peer)
        };
        let server_side = async {
            let first = socket.next().await;
            let second = socket.next().await;
            (first, second)
        };
        let ((got, mut peer), (first, second)) = tokio::join!(client_side, server_side);
        assert_eq!(got[0], (0x1, b"one".to_vec()));
        assert_eq!(got[1], (0x1, b"two".to_vec()));
        assert_eq!(got[2], (0x1, long.as_bytes().to_vec()));
        assert!(matches!(first, Event::Message(Incoming::Ping(ref p)) if p == b"ping!"), "{first:?}");
        assert!(matches!(second, Event::Message(Incoming::Text(ref t)) if t == "hello"), "{second:?}");
        if let Event::Message(Incoming::Ping(p)) = first {
            socket.pong(&p);
        }
        outbox.try_send(Arc::from("after")).unwrap();
        let client_side = async {
            let pong = frame(&mut peer).await;
            let after = frame(&mut peer).await;
            peer.write_all(&client(true, 0x8, &1000u16.to_be_bytes())).await.unwrap();
            (pong, after, peer)
        };
        let (pong, after, mut peer) = tokio::join!(client_side, async {
            tokio::select! {
                () = socket.write() => panic!("the socket stopped writing"),
                () = tokio::time::sleep(Duration::from_millis(200)) => {}
            }
        })
        .0;
        assert_eq!(pong, (0xA, b"ping!".to_vec()));
        assert_eq!(after, (0x1, b"after".to_vec()));
        assert!(matches!(socket.next().await, Event::Message(Incoming::Close(Some(1000)))));
        // Our close: its frame, then end of stream once the client's side is done.
        let closing = async {
            let close = frame(&mut peer).await;
            let mut rest = Vec::new();
            peer.read_to_end(&mut rest).await.unwrap();
            drop(peer);
            (close, rest)
        };
        let ((close, rest), ()) = tokio::join!(closing, socket.close(Some((1000, ""))));
        assert_eq!(close, (0x8, 1000u16.to_be_bytes().to_vec()));
        assert!(rest.is_empty());
        assert_eq!(socket.out.capacity(), 0, "nothing kept");
    }

    #[tokio::test]
    async fn a_broken_rule_and_a_vanished_client_are_told_apart() {
        let (io, mut peer) = tokio::io::duplex(1024);
        let (_outbox, inbox) = crate::outbox::channel(4);
        let mut socket = Socket::new(io, inbox, 10);
        peer.write_all(&client(true, 0x1, b"over ten bytes")).await.unwrap();
        match socket.next().await {
            Event::Violation(v) => assert_eq!(v.code, codec::TOO_BIG),
            e => panic!("{e:?}"),
        }
        let (io, peer) = tokio::io::duplex(1024);
        let (_outbox, inbox) = crate::outbox::channel(4);
        let mut socket = Socket::new(io, inbox, 10);
        drop(peer);
        assert!(matches!(socket.next().await, Event::Gone));
    }

    #[tokio::test]
    async fn pings_from_a_client_that_does_not_read_hold_one_pong() {
        let (io, mut peer) = tokio::io::duplex(16);
        let (outbox, inbox) = crate::outbox::channel(4);
        let mut socket = Socket::new(io, inbox, 100);
        outbox.try_send(Arc::from("a frame longer than the pipe")).unwrap();
        for n in 0..1000u16 {
            peer.write_all(&client(true, 0x9, &n.to_be_bytes())).await.unwrap();
            match socket.next().await {
                Event::Message(Incoming::Ping(p)) => socket.pong(&p),
                e => panic!("{e:?}"),
            }
        }
        assert_eq!(socket.out.len(), 2, "the frame being written and one pong");
        // The client reads: the frame, then the last ping's pong.
        let reading = async {
            let first = frame(&mut peer).await;
            let pong = frame(&mut peer).await;
            (first, pong)
        };
        let ((first, pong), ()) = tokio::join!(reading, async {
            tokio::select! {
                () = socket.write() => panic!("the socket stopped writing"),
                () = tokio::time::sleep(Duration::from_millis(200)) => {}
            }
        });
        assert_eq!(first, (0x1, b"a frame longer than the pipe".to_vec()));
        assert_eq!(pong, (0xA, 999u16.to_be_bytes().to_vec()));
    }

    /// A socket's close ends within `LINGER` when the client never reads nor closes.
    #[tokio::test(start_paused = true)]
    async fn a_close_to_a_client_that_never_answers_gives_up() {
        let (io, _peer) = tokio::io::duplex(8);
        let (outbox, inbox) = crate::outbox::channel(4);
        let mut socket = Socket::new(io, inbox, 100);
        outbox.try_send(Arc::from("more than the pipe holds")).unwrap();
        tokio::select! {
            () = socket.write() => panic!("the socket stopped writing"),
            () = tokio::time::sleep(Duration::from_millis(10)) => {}
        }
        let started = tokio::time::Instant::now();
        socket.close(Some((1001, "going away"))).await;
        assert!(started.elapsed() >= LINGER);
    }
}
