//! Errors never show internals: with the database gone, every kind of request (good, bad,
//! unauthenticated, oversized; HTTP and WebSocket) gets a typed answer that names nothing of
//! the store. Store faults are 503 `unavailable` with a request id.

use std::str::FromStr;
use std::sync::Arc;

use stud_client::{Client, create_session, http_as};
use stud_proto::{ApiErrorBody, ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use stud_server::{Config, Server};
use stud_store::Store;
use uuid::Uuid;

use crate::WAIT;

const KEY: &str = "operator-key-for-hygiene-0123456789";

/// Words that would give the store away.
const DATABASE_WORDS: [&str; 9] =
    ["sqlx", "sqlstate", "relation", "connection refused", "database", "pool", "sqlite", "postgres", "schema"];

fn config() -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        hand_pause_ms: 20,
        showdown_pause_ms: 20,
        operator_key: Some(KEY.into()),
        ..Config::default()
    }
}

fn settings() -> String {
    serde_json::to_string(&crate::stud_table_settings("Hygiene")).unwrap()
}

fn assert_clean(what: &str, body: &str) {
    let lower = body.to_lowercase();
    for word in DATABASE_WORDS {
        assert!(!lower.contains(word), "{what}: the answer names {word:?}: {body}");
    }
}

/// (method, path, body, bearer, expected status)
type Case<'a> = (&'a str, String, Option<&'a str>, Option<&'a str>, u16);

/// Sends every kind of request to a server whose store is down (a session made before is
/// still in memory) and checks each status and body.
async fn hostile_requests_while_the_store_is_down(server: &Server, token: &str, session_id: Uuid) {
    let addr = server.addr.to_string();
    let table = server.app.lobby.list()[0].id;
    let none = Uuid::new_v4();
    let big = format!(r#"{{"name": "{}"}}"#, "x".repeat(server.app.config.max_body_bytes));
    let player = format!(r#"{{"player_id": "{none}"}}"#);
    let settings = settings();
    let cases: Vec<Case> = vec![
        ("POST", "/api/sessions".into(), Some(r#"{"name": "Bob"}"#), None, 503),
        ("POST", "/api/sessions".into(), Some("nonsense"), None, 400),
        ("POST", "/api/sessions".into(), Some(&big), None, 413),
        ("GET", format!("/api/sessions/{session_id}/hands"), None, Some(token), 503),
        ("GET", format!("/api/sessions/{session_id}/hands"), None, None, 401),
        ("GET", "/api/sessions/not-a-uuid/hands".into(), None, None, 401),
        ("GET", "/api/sessions/not-a-uuid/hands".into(), None, Some(token), 400),
        ("GET", format!("/api/sessions/{session_id}/hands?limit=0"), None, Some(token), 400),
        ("GET", format!("/api/sessions/{none}/hands"), None, Some("no-such-token"), 503),
        ("GET", format!("/api/hands/{none}"), None, Some(token), 503),
        ("GET", format!("/api/hands/{none}?format=phh"), None, Some(KEY), 503),
        ("GET", "/api/hands?limit=5".into(), None, Some(KEY), 503),
        ("GET", "/api/hands?limit=0".into(), None, Some(KEY), 400),
        ("GET", "/api/hands".into(), None, Some("wrong-key"), 503),
        ("GET", "/api/hands".into(), None, None, 401),
        ("GET", "/api/admin/tables".into(), None, Some(KEY), 503),
        ("GET", "/api/admin/tables".into(), None, Some("wrong-key"), 503),
        ("GET", "/api/admin/tables".into(), None, None, 401),
        ("GET", format!("/api/admin/tables/{table}"), None, Some(KEY), 503),
        ("GET", "/api/admin/tables/nope".into(), None, Some(KEY), 400),
        ("POST", "/api/admin/tables".into(), Some(&settings), Some(KEY), 503),
        ("POST", "/api/admin/tables".into(), Some("{"), Some(KEY), 400),
        ("PATCH", format!("/api/admin/tables/{table}"), Some(r#"{"name": "x"}"#), Some(KEY), 503),
        ("POST", format!("/api/admin/tables/{table}/pause"), None, Some(KEY), 503),
        ("POST", format!("/api/admin/tables/{table}/resume"), None, Some(KEY), 503),
        ("POST", format!("/api/admin/tables/{table}/invite"), None, Some(KEY), 503),
        ("DELETE", format!("/api/admin/tables/{table}/invite"), None, Some(KEY), 503),
        ("POST", format!("/api/admin/tables/{table}/kick"), Some(&player), Some(KEY), 503),
        ("POST", format!("/api/admin/tables/{table}/close"), None, Some(KEY), 503),
        ("GET", "/api/admin/bans".into(), None, Some(KEY), 503),
        ("POST", "/api/admin/bans".into(), Some(&player), Some(KEY), 503),
        ("DELETE", format!("/api/admin/bans?player_id={none}"), None, Some(KEY), 503),
        ("DELETE", "/api/admin/bans?player_id=".into(), None, Some(KEY), 400),
        ("GET", "/api/admin/log".into(), None, Some(KEY), 503),
        ("GET", "/api/admin/log?limit=x".into(), None, Some(KEY), 400),
        ("GET", format!("/api/sessions/{session_id}/ledger"), None, Some(token), 503),
        ("GET", format!("/api/sessions/{session_id}/ledger"), None, None, 401),
        ("GET", format!("/api/admin/ledger?player={none}"), None, Some(KEY), 503),
        ("GET", "/api/admin/ledger?cursor=bad".into(), None, Some(KEY), 400),
    ];
    for (method, path, body, bearer, expected) in &cases {
        let what = format!("{method} {path}");
        let (status, text) = http_as(&addr, method, path, *body, *bearer).await.unwrap();
        assert_clean(&what, &text);
        assert_eq!(status, *expected, "{what}: {text}");
        let error: ApiErrorBody = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
        if status == 503 {
            assert_eq!(error.code, "unavailable", "{what}");
            assert!(error.message.contains("(request "), "{what}: no request id in {text}");
        }
    }
    // The lobby and health do not need the store.
    let (status, _) = http_as(&addr, "GET", "/api/tables", None, None).await.unwrap();
    assert_eq!(status, 200);

    // Over the WebSocket: a token the server has not seen needs the store...
    let mut raw = Client::connect_raw(&addr).await.unwrap();
    raw.send(&ClientMsg::Hello { version: PROTOCOL_VERSION, token: "not-in-memory".into() }).await.unwrap();
    let text = raw.recv_text(WAIT).await.unwrap();
    assert_clean("hello", &text);
    let msg: ServerMsg = serde_json::from_str(&text).unwrap();
    assert!(matches!(msg, ServerMsg::Error { code: ErrorCode::Unavailable, .. }), "{text}");
    // ... one it has seen does not, but its history does.
    let (mut client, _) = Client::connect(&addr, token).await.unwrap();
    client.send(&ClientMsg::LastHands { request_id: Some("lh".into()) }).await.unwrap();
    let text = client.recv_text(WAIT).await.unwrap();
    assert_clean("last_hands", &text);
    let msg: ServerMsg = serde_json::from_str(&text).unwrap();
    assert!(
        matches!(&msg, ServerMsg::Error { code: ErrorCode::Unavailable, request_id: Some(r), .. } if r == "lh"),
        "{text}"
    );
}

#[tokio::test]
async fn no_answer_names_the_database_while_sqlite_is_closed() {
    let (path, url) = crate::temp_db("hygiene");
    let store = stud_store::SqliteStore::connect(&url).await.unwrap();
    let pool = store.pool().clone();
    let server = stud_server::start_with_store(config(), Arc::new(store)).await.unwrap();
    let session = create_session(&server.addr.to_string(), "Ann").await.unwrap();
    pool.close().await;
    hostile_requests_while_the_store_is_down(&server, &session.token, session.session_id).await;
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn no_answer_names_the_database_after_postgres_lost_the_schema() {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("notice: TEST_DATABASE_URL is not set; the Postgres half of this test is skipped");
        return;
    };
    // A schema of its own, dropped under the running server: every query then fails with
    // "relation … does not exist".
    let schema = format!("hygiene_{}", Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&admin).await.unwrap();
    let options = sqlx::postgres::PgConnectOptions::from_str(&url).unwrap().options([("search_path", schema.as_str())]);
    let store: Arc<dyn Store> = Arc::new(stud_store::PgStore::connect_with(options).await.unwrap());
    let server = stud_server::start_with_store(config(), store).await.unwrap();
    let session = create_session(&server.addr.to_string(), "Ann").await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE"))).execute(&admin).await.unwrap();
    hostile_requests_while_the_store_is_down(&server, &session.token, session.session_id).await;
    server.shutdown().await;
}
