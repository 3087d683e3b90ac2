//! Slow clients are bounded by timeouts: request headers sent a byte at a time are cut off
//! after `header_timeout_ms`, WebSocket upgrades that never say `hello` are closed (1008)
//! after `hello_timeout_ms`; meanwhile two honest players go on playing at the same pace.
//! A connection that sends nothing, a body that never comes and a keep-alive connection left
//! idle are closed too, and one address holds a bounded number of sockets.

use std::time::{Duration, Instant};

use stud_client::Client;
use stud_engine::Variant;
use stud_proto::{ClientMsg, ServerMsg};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::{Player, passive, spawn_app, table_of};

/// Plays until `hands` more hands have ended; returns each action's round trip (the act sent,
/// the next frame back to its sender).
async fn play(a: &mut Player, b: &mut Player, table: uuid::Uuid, hands: usize) -> Vec<Duration> {
    let mut ended = 0;
    let mut trips = Vec::new();
    while ended < hands {
        let (is_a, msg) = tokio::select! {
            m = a.client.recv(crate::WAIT) => (true, m.unwrap()),
            m = b.client.recv(crate::WAIT) => (false, m.unwrap()),
        };
        let p = if is_a { &mut *a } else { &mut *b };
        p.audit(&msg);
        match msg {
            ServerMsg::YourTurn { seq, hand_id, legal, .. } => {
                let sent = Instant::now();
                p.send(ClientMsg::Act {
                    request_id: None,
                    table_id: table,
                    hand_id,
                    seq,
                    idempotency_key: format!("{hand_id}-{seq}"),
                    action: passive(&legal),
                })
                .await;
                p.recv().await;
                trips.push(sent.elapsed());
            }
            ServerMsg::HandResult { .. } if is_a => ended += 1,
            _ => {}
        }
    }
    trips
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Sends a request's headers one byte every `every` for ever; returns when the server hangs up.
async fn trickle(addr: String, every: Duration) -> Duration {
    let began = Instant::now();
    let mut s = TcpStream::connect(&addr).await.unwrap();
    let head = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    for byte in head.iter().cycle() {
        if s.write_all(&[*byte]).await.is_err() {
            break;
        }
        let mut buf = [0u8; 512];
        match tokio::time::timeout(every, s.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(_)) => {}
            Err(_) => {}
        }
        assert!(began.elapsed() < Duration::from_secs(20), "a trickling client was never cut off");
    }
    began.elapsed()
}

#[tokio::test]
async fn slow_clients_are_cut_off_and_players_do_not_notice() {
    let (server, addr) = spawn_app(|c| {
        c.header_timeout_ms = 1_000;
        c.hello_timeout_ms = 1_000;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut a = Player::new(&addr, "Ann").await;
    let mut b = Player::new(&addr, "Bo").await;
    a.sit(&table, 1).await;
    b.sit(&table, 2).await;
    let calm = play(&mut a, &mut b, table.id, 3).await;

    // 40 connections trickling headers, 20 upgrades that never say hello.
    let trickles: Vec<_> = (0..40).map(|_| tokio::spawn(trickle(addr.clone(), Duration::from_millis(100)))).collect();
    let mut silent = Vec::new();
    for _ in 0..20 {
        silent.push(Client::connect_raw(&addr).await.unwrap());
    }
    let stormy = play(&mut a, &mut b, table.id, 3).await;
    for t in trickles {
        let lasted = t.await.unwrap();
        assert!(lasted < Duration::from_secs(5), "cut off after {lasted:?}");
    }
    for mut c in silent {
        let close = c.close_frame(Duration::from_secs(5)).await.unwrap();
        let (code, reason) = close.expect("a silent socket got no close frame");
        assert_eq!(code, 1008, "{reason}");
        assert!(reason.contains("hello"), "{reason}");
    }
    let (calm, stormy) = (median(calm), median(stormy));
    eprintln!("action round trip, median: {calm:?} calm, {stormy:?} with 60 slow clients");
    assert!(stormy <= calm * 3 + Duration::from_millis(50), "{calm:?} calm, {stormy:?} under attack");
    assert!(a.leaks.is_empty() && b.leaks.is_empty());
    server.shutdown().await;
}

/// What the server sends on `s` until it hangs up (at most 5 s), and how long that took.
async fn until_closed(s: &mut TcpStream) -> (String, Duration) {
    let began = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => panic!("still open after 5 s; sent {:?}", String::from_utf8_lossy(&got)),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), began.elapsed())
}

#[tokio::test]
async fn silent_stalled_and_idle_http_connections_are_closed() {
    let (server, addr) = spawn_app(|c| {
        c.header_timeout_ms = 400;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    // Not one byte.
    let mut silent = TcpStream::connect(&addr).await.unwrap();
    let (said, after) = until_closed(&mut silent).await;
    assert!(said.is_empty() && after < Duration::from_secs(2), "{said:?} after {after:?}");

    // Headers, then a body that never comes: 408, closed.
    let mut stalled = TcpStream::connect(&addr).await.unwrap();
    let head =
        "POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"na";
    stalled.write_all(head.as_bytes()).await.unwrap();
    let (said, after) = until_closed(&mut stalled).await;
    assert!(said.starts_with("HTTP/1.1 408"), "{said}");
    assert!(said.contains("request_timeout"), "{said}");
    assert!(after < Duration::from_secs(2), "{after:?}");

    // One request answered, then idle between requests.
    let mut idle = TcpStream::connect(&addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let (said, after) = until_closed(&mut idle).await;
    assert!(said.starts_with("HTTP/1.1 200"), "{said}");
    assert!(after < Duration::from_secs(2), "{after:?}");

    // A body that arrives whole still works.
    let body = r#"{"name":"Ann"}"#;
    let (status, text) = stud_client::http(&addr, "POST", "/api/sessions", Some(body)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    server.shutdown().await;
}

#[tokio::test]
async fn one_address_holds_a_bounded_number_of_sockets() {
    let (server, addr) = spawn_app(|c| {
        c.header_timeout_ms = 10_000;
        c.max_connections_per_ip = 2;
    })
    .await;
    let cap = 2 + stud_server::app::SOCKETS_BESIDE_WEBSOCKETS;
    let mut held = Vec::new();
    for _ in 0..cap {
        held.push(TcpStream::connect(&addr).await.unwrap());
    }
    // Accepted in order: the last one held is counted once the next is refused.
    let mut over = TcpStream::connect(&addr).await.unwrap();
    let (said, after) = until_closed(&mut over).await;
    assert!(said.starts_with("HTTP/1.1 429"), "{said}");
    assert!(said.contains("rate_limited"), "{said}");
    assert!(after < Duration::from_secs(2), "{after:?}");
    // One closed frees its slot.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, _) = stud_client::http(&addr, "GET", "/healthz", None).await.unwrap();
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "no slot came free");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.shutdown().await;
}
