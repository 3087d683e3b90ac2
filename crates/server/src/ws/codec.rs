//! RFC 6455 framing, the server's side: what a client's bytes say, and the header of a frame
//! we send. Pure: no socket, no clock.
//!
//! Ours rather than tungstenite's so that an idle socket holds no buffer: tungstenite keeps a
//! read buffer and a write buffer per socket, each at its largest size for the life of the
//! connection (about 2.6 KB a socket with ours sized small). Here the bytes of a frame not yet
//! complete are the only thing kept between reads, and we write our frames from the shared
//! `Frame` itself (a header on the stack, the payload as it is).
//!
//! What a client may send, and what it gets for breaking the rules (the close frame we send
//! before closing the connection):
//! - frames must be masked (5.1); no extension is negotiated, so the reserved bits are zero
//!   (5.2); opcodes 3-7 and 11-15 are reserved: 1002 (protocol error);
//! - control frames (close, ping, pong) are at most 125 bytes and never fragmented (5.5): 1002;
//! - a message is a data frame, or a first frame and continuation frames (5.4); a continuation
//!   with no message begun, or a new message inside one, is 1002; control frames may come
//!   between the fragments;
//! - a message over the limit (`max_frame_bytes` x 4 on our sockets) is 1009, refused from its
//!   header before its payload is read;
//! - text that is not UTF-8 (the whole message), or a close reason that is not, is 1007;
//! - a close frame of one byte, or with a code a peer may not send (7.4), is 1002.

/// What a client sent: a whole message, or a control frame.
#[derive(Debug, PartialEq, Eq)]
pub enum Incoming {
    /// a text message, whole
    Text(String),
    /// a binary message (we read JSON text only; its bytes are dropped)
    Binary,
    /// a ping: answer with a pong carrying its payload
    Ping(Vec<u8>),
    /// a pong (nothing to do)
    Pong,
    /// the client closes: its code, if it gave one (the reason is not kept)
    Close(Option<u16>),
}

/// A rule broken: the close frame owed (its code and reason), then the connection ends.
#[derive(Debug, PartialEq, Eq)]
pub struct Violation {
    pub code: u16,
    pub reason: String,
}

impl Violation {
    fn protocol(reason: &str) -> Violation {
        Violation { code: PROTOCOL_ERROR, reason: reason.to_owned() }
    }
}

/// Close codes (RFC 6455 7.4.1).
pub const NORMAL: u16 = 1000;
pub const GOING_AWAY: u16 = 1001;
pub const PROTOCOL_ERROR: u16 = 1002;
pub const INVALID_DATA: u16 = 1007;
pub const POLICY: u16 = 1008;
pub const TOO_BIG: u16 = 1009;

/// A partial frame's buffer larger than this is shrunk to what it holds.
const SHRINK_ABOVE: usize = 4096;

const CONTINUATION: u8 = 0x0;
const TEXT: u8 = 0x1;
const BINARY: u8 = 0x2;
const CLOSE: u8 = 0x8;
const PING: u8 = 0x9;
const PONG: u8 = 0xA;

/// A client's bytes, read into messages.
#[derive(Debug)]
pub struct Decoder {
    /// bytes received; those before `read` are done with (dropped once per read, not per
    /// frame: a read of many small frames is not moved once for each)
    pending: Vec<u8>,
    read: usize,
    /// a fragmented message's payload so far, and whether it is text
    message: Option<(bool, Vec<u8>)>,
    /// the largest message, bytes
    limit: usize,
}

impl Decoder {
    /// A decoder refusing messages over `limit` bytes.
    pub fn new(limit: usize) -> Decoder {
        Decoder { pending: Vec::new(), read: 0, message: None, limit }
    }

    /// Takes bytes read from the socket.
    pub fn push(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    /// The next message or control frame the bytes so far hold, if they hold a whole one.
    /// Once it has returned an error, the connection is to be closed (with its close frame).
    ///
    /// # Errors
    /// [`Violation`]: the client broke a rule of the protocol.
    pub fn next_message(&mut self) -> Result<Option<Incoming>, Violation> {
        loop {
            let Some(frame) = self.frame()? else {
                self.pending.drain(..self.read);
                self.read = 0;
                if self.pending.is_empty() {
                    // Nothing kept between messages: an idle socket holds no buffer.
                    self.pending = Vec::new();
                } else if self.pending.capacity() > SHRINK_ABOVE {
                    // The start of a frame after a long one: not the long one's room.
                    self.pending.shrink_to_fit();
                }
                return Ok(None);
            };
            if let Some(incoming) = frame {
                return Ok(Some(incoming));
            }
        }
    }

    /// Reads one frame off `pending`: `None` if it is not whole yet, `Some(None)` for a
    /// fragment of a message not yet whole.
    fn frame(&mut self) -> Result<Option<Option<Incoming>>, Violation> {
        let buf = &mut self.pending[self.read..];
        let Some(&[b0, b1]) = buf.get(..2) else { return Ok(None) };
        let (fin, opcode) = (b0 & 0x80 != 0, b0 & 0x0F);
        if b0 & 0x70 != 0 {
            return Err(Violation::protocol("reserved bits set (no extension was agreed)"));
        }
        if b1 & 0x80 == 0 {
            return Err(Violation::protocol("a client's frames must be masked"));
        }
        let control = opcode & 0x08 != 0;
        match opcode {
            CONTINUATION | TEXT | BINARY | CLOSE | PING | PONG => {}
            _ => return Err(Violation::protocol("reserved opcode")),
        }
        let (len, at) = match b1 & 0x7F {
            126 => match buf.get(2..4) {
                Some(b) => (u64::from(u16::from_be_bytes([b[0], b[1]])), 4),
                None => return Ok(None),
            },
            127 => match buf.get(2..10).and_then(|b| <[u8; 8]>::try_from(b).ok()) {
                Some(b) if b[0] & 0x80 != 0 => return Err(Violation::protocol("a payload length's top bit is set")),
                Some(b) => (u64::from_be_bytes(b), 10),
                None => return Ok(None),
            },
            n => (u64::from(n), 2),
        };
        if control && (!fin || len > 125) {
            return Err(Violation::protocol("a control frame is at most 125 bytes and not fragmented"));
        }
        let so_far = match (&self.message, opcode) {
            (Some((_, m)), CONTINUATION) => m.len(),
            _ => 0,
        };
        let len = match usize::try_from(len) {
            Ok(len) if len <= self.limit.saturating_sub(so_far) => len,
            _ => return Err(Violation { code: TOO_BIG, reason: format!("frame over {} bytes", self.limit) }),
        };
        let end = at + 4 + len;
        if buf.len() < end {
            // Grown as the bytes arrive, not reserved from the header: a header alone must not
            // make us hold the frame's size.
            return Ok(None);
        }
        let mut mask = [0; 4];
        mask.copy_from_slice(&buf[at..at + 4]);
        let payload = &mut buf[at + 4..end];
        for (i, b) in payload.iter_mut().enumerate() {
            *b ^= mask[i & 3];
        }
        let incoming = match opcode {
            PING => Some(Incoming::Ping(payload.to_vec())),
            PONG => Some(Incoming::Pong),
            CLOSE => Some(Incoming::Close(close_code(payload)?)),
            CONTINUATION => {
                let Some((text, mut message)) = self.message.take() else {
                    return Err(Violation::protocol("a continuation frame with no message begun"));
                };
                message.extend_from_slice(payload);
                if fin {
                    Some(whole(text, message)?)
                } else {
                    self.message = Some((text, message));
                    None
                }
            }
            _ if self.message.is_some() => {
                return Err(Violation::protocol("a new message inside a fragmented one"));
            }
            _ if fin => Some(whole(opcode == TEXT, payload.to_vec())?),
            _ => {
                self.message = Some((opcode == TEXT, payload.to_vec()));
                None
            }
        };
        self.read += end;
        Ok(Some(incoming))
    }
}

/// A whole message.
fn whole(text: bool, payload: Vec<u8>) -> Result<Incoming, Violation> {
    if !text {
        return Ok(Incoming::Binary);
    }
    String::from_utf8(payload)
        .map(Incoming::Text)
        .map_err(|_| Violation { code: INVALID_DATA, reason: "text frame is not valid UTF-8".to_owned() })
}

/// A close frame's code (7.1.5, 7.4): none, or one a peer may send, with a UTF-8 reason.
fn close_code(payload: &[u8]) -> Result<Option<u16>, Violation> {
    match payload {
        [] => Ok(None),
        [_] => Err(Violation::protocol("a close frame's code is two bytes")),
        [a, b, reason @ ..] => {
            let code = u16::from_be_bytes([*a, *b]);
            let allowed = matches!(code, 1000..=1003 | 1007..=1014 | 3000..=4999);
            if !allowed {
                return Err(Violation::protocol("a close code a peer may not send"));
            }
            if std::str::from_utf8(reason).is_err() {
                return Err(Violation { code: INVALID_DATA, reason: "a close reason is not valid UTF-8".to_owned() });
            }
            Ok(Some(code))
        }
    }
}

/// The header of a frame we send (unmasked, final) of `len` payload bytes: its bytes and how
/// many of them there are.
pub fn header(opcode: Opcode, len: usize) -> ([u8; 10], usize) {
    let mut h = [0u8; 10];
    h[0] = 0x80 | opcode as u8;
    let n = match len {
        0..=125 => {
            h[1] = len as u8;
            2
        }
        126..=0xFFFF => {
            h[1] = 126;
            h[2..4].copy_from_slice(&(len as u16).to_be_bytes());
            4
        }
        _ => {
            h[1] = 127;
            h[2..10].copy_from_slice(&(len as u64).to_be_bytes());
            10
        }
    };
    (h, n)
}

/// The opcodes we send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Opcode {
    Text = TEXT,
    Close = CLOSE,
    Pong = PONG,
}

/// A whole control frame of ours (a pong or a close), header included.
pub fn control(opcode: Opcode, payload: &[u8]) -> Box<[u8]> {
    let payload = &payload[..payload.len().min(125)];
    let (h, n) = header(opcode, payload.len());
    [&h[..n], payload].concat().into_boxed_slice()
}

/// A close frame of ours: `code` and `reason` (cut to fit 125 bytes on a character boundary),
/// or no body.
pub fn close(code_reason: Option<(u16, &str)>) -> Box<[u8]> {
    let Some((code, reason)) = code_reason else { return control(Opcode::Close, &[]) };
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    control(Opcode::Close, &[&code.to_be_bytes()[..], &reason.as_bytes()[..end]].concat())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A client's frame: masked with `mask`.
    fn masked(fin: bool, opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
        let mut f = vec![u8::from(fin) << 7 | opcode];
        match payload.len() {
            n @ 0..=125 => f.push(0x80 | n as u8),
            n @ 126..=0xFFFF => {
                f.push(0x80 | 126);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(0x80 | 127);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        f.extend_from_slice(&mask);
        f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        f
    }

    /// A client's frame, masked (also for `socket`'s tests).
    pub(in crate::ws) fn client(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        masked(fin, opcode, payload, [0x37, 0xfa, 0x21, 0x3d])
    }

    /// Everything `bytes` holds, fed at once.
    fn read_all(bytes: &[u8], limit: usize) -> (Vec<Incoming>, Option<Violation>) {
        let mut d = Decoder::new(limit);
        d.push(bytes);
        let mut out = Vec::new();
        loop {
            match d.next_message() {
                Ok(Some(m)) => out.push(m),
                Ok(None) => return (out, None),
                Err(v) => return (out, Some(v)),
            }
        }
    }

    fn refused(bytes: &[u8]) -> u16 {
        read_all(bytes, 1 << 20).1.map_or(0, |v| v.code)
    }

    #[test]
    fn rfc_examples_are_read() {
        // RFC 6455 5.7: "Hello", masked.
        let hello = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58];
        assert_eq!(read_all(&hello, 100), (vec![Incoming::Text("Hello".into())], None));
        // Its fragmented form, and a masked ping between the fragments.
        let mut bytes = client(false, TEXT, b"Hel");
        bytes.extend(client(true, PING, b"p"));
        bytes.extend(client(true, CONTINUATION, b"lo"));
        let (got, err) = read_all(&bytes, 100);
        assert_eq!(got, [Incoming::Ping(b"p".to_vec()), Incoming::Text("Hello".into())]);
        assert_eq!(err, None);
    }

    #[test]
    fn lengths_of_each_size_are_read() {
        for n in [0, 125, 126, 65_535, 65_536, 70_000] {
            let text = "y".repeat(n);
            let (got, err) = read_all(&client(true, TEXT, text.as_bytes()), 1 << 20);
            assert_eq!((got, err), (vec![Incoming::Text(text)], None), "{n}");
        }
    }

    #[test]
    fn control_frames_binary_and_close_codes() {
        let (got, _) = read_all(&client(true, BINARY, &[1, 2, 3]), 100);
        assert_eq!(got, [Incoming::Binary]);
        let (got, _) = read_all(&client(true, PONG, b"x"), 100);
        assert_eq!(got, [Incoming::Pong]);
        let (got, _) = read_all(&client(true, CLOSE, b""), 100);
        assert_eq!(got, [Incoming::Close(None)]);
        let (got, _) = read_all(&client(true, CLOSE, &[0x03, 0xE8, b'b', b'y', b'e']), 100);
        assert_eq!(got, [Incoming::Close(Some(1000))]);
        let (got, _) = read_all(&client(true, CLOSE, &4000u16.to_be_bytes()), 100);
        assert_eq!(got, [Incoming::Close(Some(4000))]);
    }

    #[test]
    fn each_broken_rule_has_its_close_code() {
        let unmasked = [0x81, 0x02, b'h', b'i'];
        assert_eq!(refused(&unmasked), PROTOCOL_ERROR);
        assert_eq!(refused(&client(true, TEXT | 0x40, b"hi")), PROTOCOL_ERROR, "reserved bit");
        for op in [3, 7, 0xB, 0xF] {
            assert_eq!(refused(&client(true, op, b"hi")), PROTOCOL_ERROR, "opcode {op}");
        }
        assert_eq!(refused(&client(false, PING, b"p")), PROTOCOL_ERROR, "fragmented ping");
        assert_eq!(refused(&client(true, PING, &[0; 126])), PROTOCOL_ERROR, "long ping");
        assert_eq!(refused(&client(true, CONTINUATION, b"x")), PROTOCOL_ERROR, "continuation first");
        let mut two = client(false, TEXT, b"a");
        two.extend(client(true, TEXT, b"b"));
        assert_eq!(refused(&two), PROTOCOL_ERROR, "a message inside a message");
        assert_eq!(refused(&client(true, CLOSE, &[3])), PROTOCOL_ERROR, "one-byte close");
        for code in [0u16, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            assert_eq!(refused(&client(true, CLOSE, &code.to_be_bytes())), PROTOCOL_ERROR, "close code {code}");
        }
        assert_eq!(refused(&client(true, CLOSE, &[0x03, 0xE8, 0xff])), INVALID_DATA, "close reason");
        assert_eq!(refused(&client(true, TEXT, &[b'a', 0xff, 0xfe])), INVALID_DATA);
        let mut split = client(false, TEXT, &[0xe2, 0x82]);
        split.extend(client(true, CONTINUATION, &[0xac])); // '€' across two fragments: fine
        assert_eq!(read_all(&split, 10).0, [Incoming::Text("€".into())]);
        let mut long = vec![0x81, 0x80 | 127];
        long.extend_from_slice(&(1u64 << 63).to_be_bytes());
        assert_eq!(refused(&long), PROTOCOL_ERROR, "top bit of a 64-bit length");
    }

    #[test]
    fn a_message_over_the_limit_is_refused_from_its_header() {
        let header_only = &client(true, TEXT, &[b'x'; 101])[..4];
        let mut d = Decoder::new(100);
        d.push(header_only);
        assert_eq!(d.next_message().map_err(|v| v.code), Err(TOO_BIG));
        // Fragments count together.
        let mut parts = client(false, TEXT, &[b'x'; 60]);
        parts.extend(client(true, CONTINUATION, &[b'x'; 41]));
        assert_eq!(read_all(&parts, 100).1.map(|v| v.code), Some(TOO_BIG));
        assert_eq!(read_all(&client(true, TEXT, &[b'x'; 100]), 100).1, None);
    }

    #[test]
    fn nothing_is_kept_between_messages() {
        let mut d = Decoder::new(1000);
        let frame = client(true, TEXT, &[b'a'; 300]);
        d.push(&frame[..100]);
        assert_eq!(d.next_message(), Ok(None));
        assert!(d.pending.capacity() < frame.len(), "nothing reserved from the header");
        d.push(&frame[100..]);
        assert!(matches!(d.next_message(), Ok(Some(Incoming::Text(_)))));
        assert_eq!(d.next_message(), Ok(None));
        assert_eq!(d.pending.capacity(), 0);
    }

    #[test]
    fn a_long_frame_leaves_no_room_behind() {
        let mut bytes = client(true, TEXT, &[b'a'; 60_000]);
        let next = client(true, TEXT, b"next");
        bytes.extend_from_slice(&next[..3]);
        let mut d = Decoder::new(1 << 16);
        for chunk in bytes.chunks(4096) {
            d.push(chunk);
        }
        assert!(matches!(d.next_message(), Ok(Some(Incoming::Text(t))) if t.len() == 60_000));
        assert_eq!(d.next_message(), Ok(None));
        assert!(d.pending.capacity() <= SHRINK_ABOVE, "{} bytes held for 3", d.pending.capacity());
        d.push(&next[3..]);
        assert_eq!(d.next_message(), Ok(Some(Incoming::Text("next".into()))));
    }

    #[test]
    fn our_frames_have_the_shortest_header() {
        assert_eq!(header(Opcode::Text, 5), ([0x81, 5, 0, 0, 0, 0, 0, 0, 0, 0], 2));
        assert_eq!(header(Opcode::Text, 126).1, 4);
        assert_eq!(header(Opcode::Text, 65_535), ([0x81, 126, 0xff, 0xff, 0, 0, 0, 0, 0, 0], 4));
        assert_eq!(header(Opcode::Text, 65_536), ([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0], 10));
        assert_eq!(&*close(Some((1008, "bye"))), &[0x88, 5, 0x03, 0xF0, b'b', b'y', b'e']);
        assert_eq!(&*close(None), &[0x88, 0]);
        let long = "€".repeat(60); // 180 bytes: cut to 123 on a character boundary
        let frame = close(Some((1009, &long)));
        assert_eq!(frame.len(), 2 + 2 + 123);
        assert!(std::str::from_utf8(&frame[4..]).is_ok());
        assert_eq!(&*control(Opcode::Pong, b"hi"), &[0x8A, 2, b'h', b'i']);
    }

    proptest! {
        /// However the bytes are cut by the network, and however the messages are cut into
        /// fragments, the same messages are read, in order.
        #[test]
        fn any_cuts_read_the_same_messages(
            texts in proptest::collection::vec("\\PC{0,300}", 1..6),
            pieces in proptest::collection::vec(1usize..4, 6),
            cuts in proptest::collection::vec(1usize..200, 1..40),
            mask in any::<[u8; 4]>(),
        ) {
            let mut bytes = Vec::new();
            for (text, &n) in texts.iter().zip(pieces.iter().cycle()) {
                let b = text.as_bytes();
                let size = b.len().div_ceil(n).max(1);
                let chunks: Vec<&[u8]> = if b.is_empty() { vec![b] } else { b.chunks(size).collect() };
                for (i, chunk) in chunks.iter().enumerate() {
                    let op = if i == 0 { TEXT } else { CONTINUATION };
                    bytes.extend(masked(i + 1 == chunks.len(), op, chunk, mask));
                    if i == 0 {
                        bytes.extend(masked(true, PING, b"!", mask));
                    }
                }
            }
            let mut d = Decoder::new(1 << 16);
            let mut got = Vec::new();
            let mut at = 0;
            for cut in cuts.iter().cycle() {
                if at >= bytes.len() {
                    break;
                }
                let end = (at + cut).min(bytes.len());
                d.push(&bytes[at..end]);
                at = end;
                while let Some(m) = d.next_message().map_err(|v| TestCaseError::fail(v.reason))? {
                    if let Incoming::Text(t) = m {
                        got.push(t);
                    }
                }
            }
            prop_assert_eq!(got, texts);
            prop_assert_eq!(d.pending.capacity(), 0);
        }
    }
}
