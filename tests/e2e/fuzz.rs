//! Hostile input against a real server, with proptest on stable Rust: random and mutated
//! `ClientMsg` JSON, random text and binary frames, text that is not UTF-8, and random
//! bodies and query strings to every route of `proto/openapi.json`. Nothing may panic; every
//! refusal is typed (an `error` frame with a known code, or an HTTP `{code, message}` body
//! and a status below 500); every request with a `request_id` gets exactly one reply carrying
//! it; and two honest players at another table play whole hands all the while.

use std::cell::RefCell;

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use stud_client::{Client, create_session, http_as};
use stud_proto::{ClientMsg, ServerMsg};
use tokio::runtime::Handle;
use uuid::Uuid;

use crate::play::play;
use crate::{Player, WAIT, spawn_app, table_of};

const KEY: &str = "operator-key-for-the-fuzz-test-0123456789";

/// Frame cases and HTTP cases (each case is one round trip on localhost).
const FRAME_CASES: u32 = 400;
const HTTP_CASES: u32 = 300;

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,24}".prop_map(Value::from),
        Just(Value::from("00000000-0000-0000-0000-000000000000")),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,10}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// One valid message of every type, about `table` (never the honest players' table).
fn templates(table: Uuid) -> Vec<Value> {
    let t = table.to_string();
    let h = Uuid::new_v4().to_string();
    vec![
        json!({"type":"hello","version":1,"token":"not-a-token"}),
        json!({"type":"join_table","request_id":"r","table_id":t}),
        json!({"type":"sit","request_id":"r","table_id":t,"seat":3,"buy_in":2000}),
        json!({"type":"act","request_id":"r","table_id":t,"hand_id":h,"seq":3,"idempotency_key":"k","action":{"kind":"raise","to":400}}),
        json!({"type":"sit_out","request_id":"r","table_id":t}),
        json!({"type":"sit_in","request_id":"r","table_id":t}),
        json!({"type":"top_up","request_id":"r","table_id":t,"amount":100}),
        json!({"type":"leave","request_id":"r","table_id":t}),
        json!({"type":"snapshot","request_id":"r","table_id":t}),
        json!({"type":"last_hands","request_id":"r"}),
        json!({"type":"last_hand","request_id":"r","hand_id":h}),
        json!({"type":"ping","request_id":"r","nonce":1}),
    ]
}

/// How a template is changed.
#[derive(Clone, Debug)]
enum Mutation {
    /// sent as it is
    None,
    /// one key removed
    Drop(usize),
    /// one key's value replaced
    Replace(usize, Value),
    /// a new key
    Add(String, Value),
    /// the text cut short
    Truncate(usize),
    /// a key repeated with another value (text level)
    Duplicate(usize, Value),
}

/// One frame the fuzzer sends.
#[derive(Clone, Debug)]
enum Frame {
    /// a message of type `templates()[i]`, changed
    Message(usize, Mutation),
    /// any text
    Text(String),
    /// any JSON
    Json(Value),
    /// bytes in a binary frame
    Binary(Vec<u8>),
    /// a text frame that is not UTF-8 (the socket is closed with 1007)
    NotUtf8(Vec<u8>),
}

fn frame() -> impl Strategy<Value = Frame> {
    let mutation = prop_oneof![
        2 => Just(Mutation::None),
        2 => (0..8usize).prop_map(Mutation::Drop),
        4 => (0..8usize, json_value()).prop_map(|(k, v)| Mutation::Replace(k, v)),
        1 => ("[a-z_]{1,12}", json_value()).prop_map(|(k, v)| Mutation::Add(k, v)),
        2 => (0..200usize).prop_map(Mutation::Truncate),
        1 => (0..8usize, json_value()).prop_map(|(k, v)| Mutation::Duplicate(k, v)),
    ];
    prop_oneof![
        8 => (0..12usize, mutation).prop_map(|(i, m)| Frame::Message(i, m)),
        // At most 4 bytes a char: under the 4x limit that closes the socket, often over the
        // limit that is answered `frame_too_large`.
        2 => ".{0,900}".prop_map(Frame::Text),
        2 => json_value().prop_map(Frame::Json),
        1 => prop::collection::vec(any::<u8>(), 0..2000).prop_map(Frame::Binary),
        // Rare: each costs a reconnect.
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(|mut b| {
            b.extend_from_slice(b"\xff\xfe");
            Frame::NotUtf8(b)
        }),
    ]
}

/// The frame's text (for text frames), with a fresh `request_id` when the message has one.
fn render(templates: &[Value], frame: &Frame, id: &str) -> Option<String> {
    let message = |i: usize, m: &Mutation| -> String {
        let mut v = templates[i % templates.len()].clone();
        if let Some(r) = v.get_mut("request_id") {
            *r = Value::from(id);
        }
        let obj = v.as_object_mut().unwrap();
        let keys: Vec<String> = obj.keys().cloned().collect();
        let key = |k: usize| keys[k % keys.len()].clone();
        match m {
            Mutation::None | Mutation::Truncate(_) | Mutation::Duplicate(..) => {}
            Mutation::Drop(k) => {
                obj.remove(&key(*k));
            }
            Mutation::Replace(k, value) => {
                obj.insert(key(*k), value.clone());
            }
            Mutation::Add(k, value) => {
                obj.insert(k.clone(), value.clone());
            }
        }
        let mut text = v.to_string();
        match m {
            Mutation::Truncate(n) => text.truncate(floor_char_boundary(&text, *n)),
            Mutation::Duplicate(k, value) => {
                let at = text.len() - 1;
                text.insert_str(at, &format!(",{}:{value}", Value::from(key(*k))));
            }
            _ => {}
        }
        text
    };
    match frame {
        Frame::Message(i, m) => Some(message(*i, m)),
        Frame::Text(t) => Some(t.clone()),
        Frame::Json(v) => Some(v.to_string()),
        Frame::Binary(_) | Frame::NotUtf8(_) => None,
    }
}

fn floor_char_boundary(s: &str, n: usize) -> usize {
    (0..=n.min(s.len())).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0)
}

/// What the fuzzing socket checks after each frame: it sends a ping and reads up to the pong.
/// Every frame in between must be a server message; errors have a message; a request with a
/// `request_id` got exactly one reply carrying it; a frame that is no message got exactly one
/// error (with its id when the id was readable, else `unread`).
async fn check_replies(c: &mut Client, sent: Option<&str>, id: &str, n: u32) -> Result<(), String> {
    let parsed: Option<ClientMsg> = sent.and_then(|t| serde_json::from_str(t).ok());
    let sentinel = format!("sentinel-{n}");
    c.send(&ClientMsg::Ping { request_id: Some(sentinel.clone()), nonce: u64::from(n) })
        .await
        .map_err(|e| format!("send: {e}"))?;
    // A reply to a message with a request id may come after the sentinel's pong (a table
    // answers its own requests; the connection answers the ping): read until both came.
    let wants_reply = parsed.as_ref().is_some_and(|m| m.request_id().as_deref() == Some(id));
    let mut with_id = 0;
    let mut errors = 0;
    let mut ponged = false;
    while !(ponged && (with_id > 0 || !wants_reply)) {
        let text = c.recv_text(WAIT).await.map_err(|e| format!("no pong or no reply: {e}"))?;
        let msg: ServerMsg = serde_json::from_str(&text).map_err(|e| format!("untyped frame {text}: {e}"))?;
        let reply_id = match &msg {
            ServerMsg::Pong { request_id, .. } if request_id.as_deref() == Some(sentinel.as_str()) => {
                ponged = true;
                continue;
            }
            ServerMsg::Error { request_id, message, .. } => {
                if message.is_empty() {
                    return Err(format!("an error without a message: {text}"));
                }
                errors += 1;
                request_id.clone()
            }
            ServerMsg::Ack { request_id, .. }
            | ServerMsg::Snapshot { request_id, .. }
            | ServerMsg::Pong { request_id, .. }
            | ServerMsg::LastHands { request_id, .. }
            | ServerMsg::LastHand { request_id, .. } => request_id.clone(),
            _ => None,
        };
        if reply_id.as_deref() == Some(id) {
            with_id += 1;
        }
    }
    match parsed {
        Some(_) if wants_reply && with_id != 1 => Err(format!("{with_id} replies carry {id}: {sent:?}")),
        None if errors != 1 => Err(format!("{errors} errors for a frame that is no message: {sent:?}")),
        _ => Ok(()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_frames_and_requests_get_typed_errors_while_honest_players_play() {
    let (server, addr) = spawn_app(|c| {
        c.operator_key = Some(KEY.into());
        c.messages_per_second = 100_000;
        c.max_frame_bytes = 1024;
    })
    .await;
    // The honest players, at the stud table.
    let honest = table_of(&addr, stud_engine::Variant::Stud).await;
    let fuzz_table = table_of(&addr, stud_engine::Variant::Razz).await;
    let mut players = Vec::new();
    for seat in [1, 4] {
        let mut p = Player::new(&addr, &format!("honest{seat}")).await;
        p.sit(&honest, seat).await;
        players.push(p);
    }
    let hands_before = server.app.metrics.hands.load(std::sync::atomic::Ordering::Relaxed);
    let honest_game = tokio::spawn(play(players, 4, 77));

    // WebSocket frames.
    let session = create_session(&addr, "fuzz").await.unwrap();
    let templates = templates(fuzz_table.id);
    let handle = Handle::current();
    let (addr2, token) = (addr.clone(), session.token.clone());
    let frames = tokio::task::spawn_blocking(move || {
        let client = RefCell::new(handle.block_on(Client::connect(&addr2, &token)).unwrap().0);
        let count = RefCell::new(0u32);
        let mut runner = TestRunner::new(ProptestConfig {
            cases: FRAME_CASES,
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        let result = runner.run(&frame(), |f| {
            let n = {
                let mut c = count.borrow_mut();
                *c += 1;
                *c
            };
            let id = format!("fz{n}");
            let text = render(&templates, &f, &id);
            let mut c = client.borrow_mut();
            handle
                .block_on(async {
                    match &f {
                        Frame::Binary(b) => c.send_binary(b.clone()).await.map_err(|e| e.to_string())?,
                        Frame::NotUtf8(b) => {
                            c.send_text_bytes(b.clone()).await.map_err(|e| e.to_string())?;
                            let close = c.close_frame(WAIT).await.map_err(|e| e.to_string())?;
                            if close.as_ref().map(|c| c.0) != Some(1007) {
                                return Err(format!("not-UTF-8 text closed with {close:?}"));
                            }
                            *c = Client::connect(&addr2, &token).await.map_err(|e| e.to_string())?.0;
                            return Ok(());
                        }
                        _ => c.send_text(text.as_deref().unwrap_or("")).await.map_err(|e| e.to_string())?,
                    }
                    check_replies(&mut c, text.as_deref(), &id, n).await
                })
                .map_err(TestCaseError::fail)
        });
        (result.map_err(|e| e.to_string()), *count.borrow())
    })
    .await
    .unwrap();
    assert!(frames.0.is_ok(), "{:?}", frames.0);
    assert!(frames.1 >= FRAME_CASES, "{} frames sent", frames.1);

    // HTTP: every route of the OpenAPI document, with random ids, queries and bodies.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../proto/openapi.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // (method, path, the documented responses)
    let mut routes: Vec<(String, String, Value)> = Vec::new();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap().iter().filter(|(m, _)| *m != "parameters") {
            routes.push((method.to_uppercase(), path.clone(), op["responses"].clone()));
        }
    }
    assert!(routes.len() >= 20, "{routes:?}");
    let handle = Handle::current();
    let addr2 = addr.clone();
    let (fuzz_id, token) = (fuzz_table.id, session.token.clone());
    let http = tokio::task::spawn_blocking(move || {
        let query_value = prop_oneof![
            Just(String::new()),
            any::<i64>().prop_map(|n| n.to_string()),
            Just(Uuid::new_v4().to_string()),
            Just(fuzz_id.to_string()),
            "[A-Za-z0-9._~-]{0,40}",
            prop::collection::vec(any::<u8>(), 0..20).prop_map(|b| b.iter().map(|x| format!("%{x:02X}")).collect()),
        ];
        let query = prop::collection::vec(
            ("[a-z_]{1,8}|player|table|since|limit|cursor|format|player_id|table_id", query_value.clone()),
            0..5,
        );
        let body = prop_oneof![
            Just(None),
            json_value().prop_map(|v| Some(v.to_string())),
            ".{0,200}".prop_map(Some),
            Just(Some(r#"{"name":"fuzz"}"#.to_owned())),
        ];
        let bearer = prop_oneof![
            Just(None),
            Just(Some(KEY.to_owned())),
            Just(Some(token.clone())),
            Just(Some("nope".to_owned()))
        ];
        let case = (0..routes.len(), query_value, query, body, bearer);
        let mut runner = TestRunner::new(ProptestConfig {
            cases: HTTP_CASES,
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        let result = runner.run(&case, |(route, id, query, body, bearer)| {
            let (method, path, responses) = &routes[route];
            let path = path.replace("{id}", if id.is_empty() { "x" } else { &id });
            let query: Vec<String> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let target = if query.is_empty() { path.clone() } else { format!("{path}?{}", query.join("&")) };
            // Never close or change the honest players' table (its id is not generated).
            let (status, text) = handle
                .block_on(http_as(&addr2, method, &target, body.as_deref(), bearer.as_deref()))
                .map_err(|e| TestCaseError::fail(format!("{method} {target}: {e}")))?;
            if status >= 500 {
                return Err(TestCaseError::fail(format!("{method} {target} {body:?}: {status} {text}")));
            }
            if status >= 400 {
                // A status the document lists for the route, with a body of its kind: JSON
                // errors are `{code, message}`; the WebSocket route's refusals are plain text.
                let fail =
                    |why: String| TestCaseError::fail(format!("{method} {target} {body:?}: {status} {why}: {text}"));
                let documented = responses.get(status.to_string()).ok_or_else(|| fail("not documented".into()))?;
                let content = &documented["content"];
                if content.get("application/json").is_some() {
                    let v: Value = serde_json::from_str(&text).map_err(|e| fail(format!("not JSON ({e})")))?;
                    let typed = v["code"].as_str().is_some_and(|c| !c.is_empty()) && v["message"].is_string();
                    if !typed {
                        return Err(fail("not {code, message}".into()));
                    }
                } else if content.get("text/plain").is_none() || text.is_empty() {
                    return Err(fail("no body of a documented kind".into()));
                }
            }
            Ok(())
        });
        // The failure, shrunk, as text (the runner's error is large).
        result.map_err(|e| e.to_string())
    })
    .await
    .unwrap();
    assert!(http.is_ok(), "{http:?}");

    // The honest players finished their hands, saw nothing they should not, and the server
    // is still well.
    let players = tokio::time::timeout(WAIT * 4, honest_game).await.expect("the honest game finished").unwrap();
    for p in &players {
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
    }
    let hands = server.app.metrics.hands.load(std::sync::atomic::Ordering::Relaxed) - hands_before;
    assert!(hands >= 4, "{hands} hands");
    let (status, _) = http_as(&addr, "GET", "/healthz", None, None).await.unwrap();
    assert_eq!(status, 200);
    server.shutdown().await;
}
