//! What the outside audit found at the protocol's edges, each over a real socket: request ids
//! on errors raised before parsing, close codes for frames the WebSocket layer refuses, 413
//! before a body is read, a second `hello`, duplicate keys, and invite codes not sent.

use stud_client::{Client, create_session, http_as};
use stud_proto::{AdminTable, ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg, TableSettings};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::{Player, WAIT, spawn_app, table_of};

const KEY: &str = "operator-key-for-protocol-0123456789";

/// The next error frame: (request_id, code, message).
async fn next_error(c: &mut Client) -> (Option<String>, ErrorCode, String) {
    let (request_id, code, message, _) = next_error_unread(c).await;
    (request_id, code, message)
}

/// The next error frame: (request_id, code, message, unread).
async fn next_error_unread(c: &mut Client) -> (Option<String>, ErrorCode, String, bool) {
    loop {
        if let ServerMsg::Error { request_id, code, message, unread, .. } = c.recv(WAIT).await.unwrap() {
            return (request_id, code, message, unread);
        }
    }
}

#[tokio::test]
async fn errors_raised_before_parsing_carry_the_request_id_when_it_can_be_read() {
    let (server, addr) = spawn_app(|c| {
        c.max_frame_bytes = 1024;
        c.messages_per_second = 2;
    })
    .await;
    let session = create_session(&addr, "Ann").await.unwrap();

    // Too large: the id is read from the frame; when the frame is not JSON, the error says so.
    let (mut a, _) = Client::connect(&addr, &session.token).await.unwrap();
    let pad = "x".repeat(2_000);
    a.send_text(&format!(r#"{{"type":"ping","request_id":"big","nonce":1,"pad":"{pad}"}}"#)).await.unwrap();
    let (id, code, message, unread) = next_error_unread(&mut a).await;
    assert_eq!((id.as_deref(), code, unread), (Some("big"), ErrorCode::FrameTooLarge, false), "{message}");
    a.send_text(&format!(r#"{{"type":"ping","request_id":"cut","pad":"{pad}"#)).await.unwrap();
    let (id, code, message, unread) = next_error_unread(&mut a).await;
    assert_eq!((id, code, unread), (None, ErrorCode::FrameTooLarge, true), "{message}");

    // Rate limited (2 a second, bursts of 4; the hello took one): every ping is answered, by a
    // pong or an error, with its own id.
    let (mut b, _) = Client::connect(&addr, &session.token).await.unwrap();
    for n in 0..10u64 {
        b.send(&ClientMsg::Ping { request_id: Some(format!("p{n}")), nonce: n }).await.unwrap();
    }
    let mut answered = Vec::new();
    let mut limited = 0;
    for _ in 0..10 {
        match b.recv(WAIT).await.unwrap() {
            ServerMsg::Pong { request_id, .. } => answered.push(request_id.unwrap()),
            ServerMsg::Error { request_id, code: ErrorCode::RateLimited, .. } => {
                limited += 1;
                answered.push(request_id.unwrap());
            }
            other => panic!("{other:?}"),
        }
    }
    let expected: Vec<String> = (0..10).map(|n| format!("p{n}")).collect();
    assert_eq!(answered, expected, "one answer per request, in order, each with its id");
    assert!(limited >= 5, "{limited} limited");
    server.shutdown().await;
}

#[tokio::test]
async fn an_error_says_when_the_request_id_could_not_be_read() {
    let (server, addr) = spawn_app(|_| {}).await;
    let session = create_session(&addr, "Ann").await.unwrap();
    let (mut a, _) = Client::connect(&addr, &session.token).await.unwrap();
    // Not JSON, a request_id that is not a string, a binary frame: `unread`.
    for bad in [r#"{"type":"ping","request_id":"x""#, r#"{"type":"ping","request_id":7}"#] {
        a.send_text(bad).await.unwrap();
        let (id, code, message, unread) = next_error_unread(&mut a).await;
        assert_eq!((id, code, unread), (None, ErrorCode::Malformed, true), "{bad}: {message}");
    }
    a.send_binary(b"{}".to_vec()).await.unwrap();
    let (id, code, message, unread) = next_error_unread(&mut a).await;
    assert_eq!((id, code, unread), (None, ErrorCode::Malformed, true), "{message}");
    // JSON without a request_id, or with one: not `unread`, and the id comes back.
    a.send_text(r#"{"type":"pong"}"#).await.unwrap();
    let (id, code, message, unread) = next_error_unread(&mut a).await;
    assert_eq!((id, code, unread), (None, ErrorCode::UnknownType, false), "{message}");
    a.send_text(r#"{"type":"ping","request_id":"n","nonce":-1}"#).await.unwrap();
    let (id, code, message, unread) = next_error_unread(&mut a).await;
    assert_eq!((id.as_deref(), code, unread), (Some("n"), ErrorCode::Malformed, false), "{message}");
    server.shutdown().await;
}

#[tokio::test]
async fn frames_the_websocket_layer_refuses_close_with_1009_or_1007_and_a_reason() {
    let (server, addr) = spawn_app(|c| c.max_frame_bytes = 1024).await;
    let session = create_session(&addr, "Ann").await.unwrap();
    // Over 4x max_frame_bytes: closed with 1009.
    let (mut a, _) = Client::connect(&addr, &session.token).await.unwrap();
    a.send_text(&format!(r#"{{"type":"ping","nonce":1,"pad":"{}"}}"#, "x".repeat(5_000))).await.unwrap();
    let (code, reason) = a.close_frame(WAIT).await.unwrap().expect("a close frame");
    assert_eq!(code, 1009, "{reason}");
    assert!(reason.contains("4096"), "{reason}");
    // Not UTF-8: closed with 1007.
    let (mut b, _) = Client::connect(&addr, &session.token).await.unwrap();
    b.send_text_bytes(b"{\"type\":\"ping\",\"nonce\":1,\"x\":\"\xff\xfe\"}".to_vec()).await.unwrap();
    let (code, reason) = b.close_frame(WAIT).await.unwrap().expect("a close frame");
    assert_eq!(code, 1007, "{reason}");
    assert!(reason.contains("UTF-8"), "{reason}");
    // Up to 4x the limit is an error frame and the socket stays open.
    let (mut c, _) = Client::connect(&addr, &session.token).await.unwrap();
    c.send_text(&format!(r#"{{"type":"ping","nonce":1,"pad":"{}"}}"#, "x".repeat(3_000))).await.unwrap();
    assert_eq!(next_error(&mut c).await.1, ErrorCode::FrameTooLarge);
    c.send(&ClientMsg::Ping { request_id: None, nonce: 9 }).await.unwrap();
    assert!(matches!(c.recv(WAIT).await.unwrap(), ServerMsg::Pong { nonce: 9, .. }));
    server.shutdown().await;
}

/// Sends `head` (and nothing more) and reads the response's status line.
async fn status_of_head_only(addr: &str, head: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut response = vec![0u8; 4096];
    let n = tokio::time::timeout(WAIT, stream.read(&mut response)).await.expect("an answer before the body").unwrap();
    String::from_utf8_lossy(&response[..n]).lines().next().unwrap_or("").to_owned()
}

#[tokio::test]
async fn an_http_body_announced_over_the_limit_is_refused_before_it_is_sent() {
    let (server, addr) = spawn_app(|_| {}).await;
    // 8 MiB announced, none sent: answered at once (no 100 Continue), from Content-Length.
    let head = format!(
        "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        8 * 1024 * 1024
    );
    let status = status_of_head_only(&addr, &head).await;
    assert!(status.starts_with("HTTP/1.1 413"), "{status}");
    // Without `Expect`, the same: the answer comes while the body is still owed.
    let head =
        format!("POST /api/admin/tables HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n", 8 * 1024 * 1024);
    let status = status_of_head_only(&addr, &head).await;
    assert!(status.starts_with("HTTP/1.1 413"), "{status}");
    // A body within the limit is read as before.
    let (status, body) = http_as(&addr, "POST", "/api/sessions", Some(r#"{"name":"Ann"}"#), None).await.unwrap();
    assert_eq!(status, 201, "{body}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_second_hello_is_refused_and_the_socket_keeps_its_player() {
    let (server, addr) = spawn_app(|_| {}).await;
    let table = table_of(&addr, stud_engine::Variant::Stud).await;
    let mut ann = Player::new(&addr, "Ann").await;
    // The same token again refreshes: a second welcome, Ann's.
    ann.send(ClientMsg::Hello { version: PROTOCOL_VERSION, token: ann.token.clone() }).await;
    let again = ann.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
    let ServerMsg::Welcome { player_id, .. } = again else { unreachable!() };
    assert_eq!(player_id, ann.player_id);
    // Another token is refused.
    let bob = create_session(&addr, "Bob").await.unwrap();
    ann.send(ClientMsg::Hello { version: PROTOCOL_VERSION, token: bob.token.clone() }).await;
    let (_, code, message) = next_error(&mut ann.client).await;
    assert_eq!(code, ErrorCode::AlreadyAuthenticated, "{message}");
    // Still Ann's: the seat taken is hers.
    ann.sit(&table, 3).await;
    let seated =
        ann.until(|m| matches!(m, ServerMsg::Snapshot { table, .. } if table.seats.iter().any(|s| s.seat == 3))).await;
    let ServerMsg::Snapshot { table: snapshot, .. } = seated else { unreachable!() };
    let seat = snapshot.seats.iter().find(|s| s.seat == 3).unwrap();
    assert_eq!((seat.player_id, seat.name.as_str()), (ann.player_id, "Ann"));
    server.shutdown().await;
}

#[tokio::test]
async fn a_message_with_a_duplicate_key_is_refused() {
    let (server, addr) = spawn_app(|_| {}).await;
    let session = create_session(&addr, "Ann").await.unwrap();
    let (mut c, _) = Client::connect(&addr, &session.token).await.unwrap();
    c.send_text(r#"{"type":"ping","request_id":"d1","nonce":1,"nonce":2}"#).await.unwrap();
    let (id, code, message) = next_error(&mut c).await;
    assert_eq!((id.as_deref(), code), (Some("d1"), ErrorCode::Malformed), "{message}");
    assert!(message.contains("duplicate key \"nonce\""), "{message}");
    // Nested too, and "type" twice is no way to smuggle a second message kind.
    c.send_text(r#"{"type":"ping","type":"hello","version":1,"token":"x","nonce":3}"#).await.unwrap();
    assert_eq!(next_error(&mut c).await.1, ErrorCode::Malformed);
    c.send_text(r#"{"type":"act","request_id":"d2","table_id":"00000000-0000-0000-0000-000000000000","hand_id":"00000000-0000-0000-0000-000000000000","seq":1,"idempotency_key":"k","action":{"kind":"bet","to":1,"to":2}}"#)
        .await
        .unwrap();
    let (id, code, message) = next_error(&mut c).await;
    assert_eq!((id.as_deref(), code), (Some("d2"), ErrorCode::Malformed), "{message}");
    // The same keys once each are fine.
    c.send_text(r#"{"type":"ping","request_id":"ok","nonce":4}"#).await.unwrap();
    assert!(matches!(c.recv(WAIT).await.unwrap(), ServerMsg::Pong { nonce: 4, .. }));
    server.shutdown().await;
}

#[tokio::test]
async fn joining_without_an_invite_code_is_not_a_wrong_guess() {
    let (server, addr) = spawn_app(|c| {
        c.operator_key = Some(KEY.into());
        c.invite_attempts_per_minute = 2;
    })
    .await;
    let settings = TableSettings { private: true, ..crate::stud_table_settings("Private") };
    let (status, body) =
        http_as(&addr, "POST", "/api/admin/tables", Some(&serde_json::to_string(&settings).unwrap()), Some(KEY))
            .await
            .unwrap();
    assert_eq!(status, 201, "{body}");
    let table: AdminTable = serde_json::from_str(&body).unwrap();
    let code = table.invite_code.clone().unwrap();
    let join = |request: &str, invite_code: Option<&str>| ClientMsg::JoinTable {
        request_id: Some(request.into()),
        table_id: table.id,
        invite_code: invite_code.map(str::to_owned),
    };
    // Ten joins without a code (five times the limit): each is told a code is needed...
    let session = create_session(&addr, "Ann").await.unwrap();
    let (mut ann, _) = Client::connect(&addr, &session.token).await.unwrap();
    for n in 0..10 {
        ann.send(&join(&format!("n{n}"), None)).await.unwrap();
        let (_, code, message) = next_error(&mut ann).await;
        assert_eq!(code, ErrorCode::InviteRequired, "{message}");
    }
    ann.send(&join("blank", Some("  "))).await.unwrap();
    assert_eq!(next_error(&mut ann).await.1, ErrorCode::InviteRequired);
    // ... and the right code still works.
    ann.send(&join("right", Some(&code))).await.unwrap();
    let reply = loop {
        if let m @ (ServerMsg::Ack { .. } | ServerMsg::Error { .. }) = ann.recv(WAIT).await.unwrap() {
            break m;
        }
    };
    assert!(matches!(&reply, ServerMsg::Ack { request_id: Some(r), .. } if r == "right"), "{reply:?}");
    // Wrong codes still count: after two, even the right one waits.
    let session = create_session(&addr, "Bob").await.unwrap();
    let (mut bob, _) = Client::connect(&addr, &session.token).await.unwrap();
    for n in 0..2 {
        bob.send(&join(&format!("w{n}"), Some("WRONGCODE"))).await.unwrap();
        assert_eq!(next_error(&mut bob).await.1, ErrorCode::InviteRequired);
    }
    bob.send(&join("late", Some(&code))).await.unwrap();
    assert_eq!(next_error(&mut bob).await.1, ErrorCode::RateLimited);
    server.shutdown().await;
}

#[tokio::test]
async fn every_message_with_a_request_id_gets_exactly_one_reply_carrying_it() {
    let (server, addr) = spawn_app(|_| {}).await;
    let table = table_of(&addr, stud_engine::Variant::Razz).await;
    let session = create_session(&addr, "Ann").await.unwrap();
    let (mut c, _) = Client::connect(&addr, &session.token).await.unwrap();
    let t = table.id;
    let id = |s: &str| Some(s.to_owned());
    // Alone at the table (no hand starts): each request in turn, with the reply it gets.
    let cases: Vec<(ClientMsg, &str)> = vec![
        (ClientMsg::Snapshot { request_id: id("m0"), table_id: t }, "error not_seated"),
        (ClientMsg::JoinTable { request_id: id("m1"), table_id: t, invite_code: None }, "ack joined"),
        (
            ClientMsg::Sit {
                request_id: id("m2"),
                table_id: t,
                invite_code: None,
                seat: Some(2),
                buy_in: table.max_buy_in,
            },
            "ack seated at 2",
        ),
        (
            ClientMsg::Sit {
                request_id: id("m3"),
                table_id: t,
                invite_code: None,
                seat: Some(3),
                buy_in: table.max_buy_in,
            },
            "error already_seated",
        ),
        (
            ClientMsg::Act {
                request_id: id("m4"),
                table_id: t,
                hand_id: uuid::Uuid::new_v4(),
                seq: 1,
                idempotency_key: "k".into(),
                action: stud_engine::Action::Fold,
            },
            "error stale",
        ),
        (ClientMsg::SitOut { request_id: id("m5"), table_id: t }, "ack sitting out"),
        (ClientMsg::SitIn { request_id: id("m6"), table_id: t }, "ack sitting in"),
        (ClientMsg::TopUp { request_id: id("m7"), table_id: t, amount: 1 }, "error buy_in_out_of_range"),
        (ClientMsg::Snapshot { request_id: id("m8"), table_id: t }, "snapshot"),
        (ClientMsg::LastHands { request_id: id("m9") }, "last_hands"),
        (ClientMsg::LastHand { request_id: id("m10"), hand_id: uuid::Uuid::new_v4() }, "error unknown_hand"),
        (ClientMsg::Ping { request_id: id("m11"), nonce: 5 }, "pong"),
        (ClientMsg::Leave { request_id: id("m12"), table_id: t }, "ack left"),
        (ClientMsg::Snapshot { request_id: id("m13"), table_id: t }, "error not_seated"),
        (ClientMsg::TopUp { request_id: id("m14"), table_id: uuid::Uuid::new_v4(), amount: 1 }, "error unknown_table"),
    ];
    for (n, (msg, want)) in cases.into_iter().enumerate() {
        let mine = msg.request_id().unwrap();
        c.send(&msg).await.unwrap();
        c.send(&ClientMsg::Ping { request_id: Some(format!("end{n}")), nonce: 0 }).await.unwrap();
        // The reply may come after the ping's pong (the ping is answered by the connection,
        // a table's request by the table): read until both came.
        let mut replies = Vec::new();
        let mut ponged = false;
        while !ponged || replies.is_empty() {
            let m = c.recv(WAIT).await.unwrap();
            let (rid, what) = match &m {
                ServerMsg::Ack { request_id, detail, .. } => (request_id.clone(), format!("ack {detail}")),
                ServerMsg::Error { request_id, code, .. } => {
                    (request_id.clone(), format!("error {}", serde_json::to_value(code).unwrap().as_str().unwrap()))
                }
                ServerMsg::Snapshot { request_id, .. } => (request_id.clone(), "snapshot".into()),
                ServerMsg::LastHands { request_id, .. } => (request_id.clone(), "last_hands".into()),
                ServerMsg::LastHand { request_id, .. } => (request_id.clone(), "last_hand".into()),
                ServerMsg::Pong { request_id, .. } if request_id.as_deref() == Some(format!("end{n}").as_str()) => {
                    ponged = true;
                    continue;
                }
                ServerMsg::Pong { request_id, .. } => (request_id.clone(), "pong".into()),
                _ => (None, String::new()),
            };
            if rid.as_deref() == Some(mine.as_str()) {
                replies.push(what);
            }
        }
        assert_eq!(replies, vec![want.to_owned()], "{mine}");
    }
    server.shutdown().await;
}

/// A WebSocket opened by hand over TCP: the upgrade's answer read up to its blank line.
async fn raw_websocket(addr: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    while !answer.ends_with(b"\r\n\r\n") {
        answer.push(tokio::time::timeout(WAIT, stream.read_u8()).await.expect("the upgrade's answer").unwrap());
    }
    let answer = String::from_utf8_lossy(&answer).to_lowercase();
    assert!(answer.starts_with("http/1.1 101"), "{answer}");
    // RFC 6455 1.3's example key and its accept value.
    assert!(answer.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="), "{answer}");
    stream
}

/// A client's frame, masked (or not, to break the rule).
fn client_frame(fin: bool, opcode: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let mask = [0x12, 0x34, 0x56, 0x78];
    let mut f = vec![u8::from(fin) << 7 | opcode];
    let bit = if masked { 0x80 } else { 0 };
    match u8::try_from(payload.len()) {
        Ok(n) if n < 126 => f.push(bit | n),
        _ => {
            f.push(bit | 126);
            f.extend_from_slice(&u16::try_from(payload.len()).unwrap().to_be_bytes());
        }
    }
    if !masked {
        f.extend_from_slice(payload);
        return f;
    }
    f.extend_from_slice(&mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

/// The next frame the server sends: (final, opcode, payload); `None` at the end of the stream.
async fn server_frame(stream: &mut TcpStream) -> Option<(bool, u8, Vec<u8>)> {
    let mut h = [0u8; 2];
    tokio::time::timeout(WAIT, stream.read_exact(&mut h)).await.expect("a frame or the end").ok()?;
    assert_eq!(h[1] & 0x80, 0, "a server's frames are not masked");
    let len = match h[1] & 0x7F {
        126 => usize::from(stream.read_u16().await.unwrap()),
        127 => usize::try_from(stream.read_u64().await.unwrap()).unwrap(),
        n => usize::from(n),
    };
    let mut payload = vec![0; len];
    stream.read_exact(&mut payload).await.unwrap();
    Some((h[0] & 0x80 != 0, h[0] & 0x0F, payload))
}

#[tokio::test]
async fn the_websocket_layer_reads_fragments_answers_pings_and_closes_by_the_rfc() {
    let (server, addr) = spawn_app(|_| {}).await;
    // A message in two fragments with a ping between them: the ping is answered with its
    // payload, the message is read whole.
    let mut ws = raw_websocket(&addr).await;
    let ping = br#"{"type":"ping","request_id":"frag","nonce":5}"#;
    let mut bytes = client_frame(false, 0x1, &ping[..10], true);
    bytes.extend(client_frame(true, 0x9, b"are you there", true));
    bytes.extend(client_frame(true, 0x0, &ping[10..], true));
    ws.write_all(&bytes).await.unwrap();
    let mut got = [server_frame(&mut ws).await.unwrap(), server_frame(&mut ws).await.unwrap()];
    got.sort_by_key(|f| f.1);
    assert_eq!((got[0].0, got[0].1), (true, 0x1), "one text frame");
    let reply: ServerMsg = serde_json::from_slice(&got[0].2).unwrap();
    assert!(matches!(&reply, ServerMsg::Pong { nonce: 5, request_id: Some(r) } if r == "frag"), "{reply:?}");
    assert_eq!(got[1], (true, 0xA, b"are you there".to_vec()));
    // A long reply comes as one frame: an error quoting a long unknown type.
    let long = format!(r#"{{"type":"{}","request_id":"l"}}"#, "x".repeat(1500));
    ws.write_all(&client_frame(true, 0x1, long.as_bytes(), true)).await.unwrap();
    let (fin, opcode, reply) = server_frame(&mut ws).await.unwrap();
    assert!(fin && opcode == 0x1 && reply.len() > 1500, "{} bytes", reply.len());
    let reply: ServerMsg = serde_json::from_slice(&reply).unwrap();
    assert!(matches!(reply, ServerMsg::Error { code: ErrorCode::UnknownType, .. }), "{reply:?}");
    // An unmasked frame breaks the rules: a 1002 close frame, then the end.
    ws.write_all(&client_frame(true, 0x1, ping, false)).await.unwrap();
    let (_, opcode, close) = server_frame(&mut ws).await.unwrap();
    assert_eq!((opcode, &close[..2]), (0x8, &1002u16.to_be_bytes()[..]), "{}", String::from_utf8_lossy(&close));
    assert!(String::from_utf8_lossy(&close[2..]).contains("masked"));
    assert_eq!(server_frame(&mut ws).await, None);
    // A client's close is echoed, then the server ends the connection.
    let mut ws = raw_websocket(&addr).await;
    ws.write_all(&client_frame(true, 0x8, &[0x0F, 0xA0, b'b', b'y', b'e'], true)).await.unwrap();
    assert_eq!(server_frame(&mut ws).await, Some((true, 0x8, 4000u16.to_be_bytes().to_vec())));
    assert_eq!(server_frame(&mut ws).await, None);
    server.shutdown().await;
}

/// A peer gone without a word is found by TCP keepalive: the server's end of a quiet
/// connection has the kernel's keepalive timer running (`tr` 2 in Linux's /proc/net/tcp), due
/// within the first probe's delay; our end of it, which asked for none, has no timer (0).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_quiet_connection_is_probed_by_tcp_keepalive() {
    use std::net::SocketAddr;
    /// The timer (`tr`) and when it is due (clock ticks, `tm->when`) of the TCP socket from
    /// `local` to `remote`.
    fn timer(local: SocketAddr, remote: SocketAddr) -> Option<(u8, u64)> {
        let port = |hex_addr: &str| hex_addr.rsplit(':').next().and_then(|p| u16::from_str_radix(p, 16).ok());
        ["/proc/net/tcp", "/proc/net/tcp6"].iter().filter_map(|f| std::fs::read_to_string(f).ok()).find_map(|table| {
            table.lines().skip(1).find_map(|line| {
                let f: Vec<&str> = line.split_whitespace().collect();
                if port(f.get(1)?)? != local.port() || port(f.get(2)?)? != remote.port() {
                    return None;
                }
                let (tr, when) = f.get(5)?.split_once(':')?;
                Some((u8::from_str_radix(tr, 16).ok()?, u64::from_str_radix(when, 16).ok()?))
            })
        })
    }
    let (server, addr) = spawn_app(|_| {}).await;
    let ws = raw_websocket(&addr).await;
    let (ours, theirs) = (ws.local_addr().unwrap(), ws.peer_addr().unwrap());
    // Quiet: no retransmission timer left from the upgrade.
    let mut seen = None;
    for _ in 0..40 {
        seen = timer(theirs, ours);
        if seen.is_some_and(|(tr, _)| tr == 2) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (tr, when) = seen.expect("the server's end of the connection in /proc/net/tcp");
    assert_eq!(tr, 2, "the server's end of a quiet connection has no keepalive timer");
    // /proc/net/tcp counts in USER_HZ (100 a second).
    let first_probe = 100 * stud_server::http::KEEPALIVE_IDLE.as_secs();
    assert!(when > 0 && when <= first_probe, "the first probe due in {when} ticks, over {first_probe}");
    assert_eq!(timer(ours, theirs).map(|(tr, _)| tr), Some(0), "our end, which asked for no keepalive");
    drop(ws);
    server.shutdown().await;
}
