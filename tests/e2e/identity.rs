//! Identity for app clients: `POST /api/sessions` with `{"jwt": "..."}`, an operator-signed
//! JWT (HS256 with the configured secret; RS256 and ES256 with keys from a JWKS file). Good
//! tokens sign in; the same `sub` is the same player (balance and history) on every device;
//! expired, not-yet-valid, foreign-audience and wrongly signed tokens are 401 with a code
//! that says which.

use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use stud_client::{Client, http};
use stud_engine::Variant;
use stud_proto::{ApiErrorBody, ClientMsg, ServerMsg, SessionCreated};
use uuid::Uuid;

use crate::{WAIT, spawn_app, table_of};

const SECRET: &str = "an-operator-secret-of-at-least-32-bytes!";
const AUDIENCE: &str = "stud-e2e";
const RSA_PEM: &[u8] = include_bytes!("data/jwt_rs256.pem");
const EC_PEM: &[u8] = include_bytes!("data/jwt_es256.pem");

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

fn claims(sub: &str) -> serde_json::Value {
    serde_json::json!({"sub": sub, "name": "Ann Operator", "aud": AUDIENCE, "exp": now() + 600, "iat": now()})
}

fn hs256(claims: &serde_json::Value, secret: &str) -> String {
    jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &EncodingKey::from_secret(secret.as_bytes())).unwrap()
}

fn signed(alg: Algorithm, kid: &str, claims: &serde_json::Value) -> String {
    let key = match alg {
        Algorithm::RS256 => EncodingKey::from_rsa_pem(RSA_PEM).unwrap(),
        _ => EncodingKey::from_ec_pem(EC_PEM).unwrap(),
    };
    let mut header = Header::new(alg);
    header.kid = Some(kid.into());
    jsonwebtoken::encode(&header, claims, &key).unwrap()
}

/// A JWKS file with the public halves of the test keys.
fn jwks_file() -> String {
    let mut rsa = Jwk::from_encoding_key(&EncodingKey::from_rsa_pem(RSA_PEM).unwrap(), Algorithm::RS256).unwrap();
    rsa.common.key_id = Some("rsa-1".into());
    let mut ec = Jwk::from_encoding_key(&EncodingKey::from_ec_pem(EC_PEM).unwrap(), Algorithm::ES256).unwrap();
    ec.common.key_id = Some("ec-1".into());
    let path = std::env::temp_dir().join(format!("stud-jwks-{}.json", Uuid::new_v4()));
    std::fs::write(&path, serde_json::to_string(&JwkSet { keys: vec![rsa, ec] }).unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

async fn sign_in(addr: &str, jwt: &str) -> Result<SessionCreated, (u16, ApiErrorBody)> {
    let body = serde_json::json!({ "jwt": jwt }).to_string();
    let (status, text) = http(addr, "POST", "/api/sessions", Some(&body)).await.unwrap();
    if status == 201 {
        Ok(serde_json::from_str(&text).unwrap())
    } else {
        Err((status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{status} {text}: {e}"))))
    }
}

async fn refused(addr: &str, jwt: &str) -> String {
    let (status, body) = sign_in(addr, jwt).await.expect_err("a bad token signed in");
    assert_eq!(status, 401, "{body:?}");
    body.code
}

#[tokio::test]
async fn operator_signed_jwts_sign_in_and_map_to_one_player() {
    let jwks = jwks_file();
    let (server, addr) = spawn_app(|c| {
        c.jwt_secret = Some(SECRET.into());
        c.jwt_audience = Some(AUDIENCE.into());
        c.jwt_jwks_file = Some(jwks.clone());
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let sub = format!("user-{}", Uuid::new_v4());
    let first = sign_in(&addr, &hs256(&claims(&sub), SECRET)).await.unwrap();
    assert_eq!((first.name.as_str(), first.balance), ("Ann Operator", 100_000));

    // The token works on the WebSocket; Ann buys in, so her balance changes.
    let table = table_of(&addr, Variant::Razz).await;
    let (mut phone, _) = Client::connect(&addr, &first.token).await.unwrap();
    phone
        .send(&ClientMsg::Sit {
            request_id: Some("sit".into()),
            table_id: table.id,
            invite_code: None,
            seat: Some(2),
            buy_in: table.min_buy_in,
        })
        .await
        .unwrap();
    loop {
        match phone.recv(WAIT).await.unwrap() {
            ServerMsg::Ack { request_id: Some(r), .. } if r == "sit" => break,
            ServerMsg::Error { message, .. } => panic!("{message}"),
            _ => {}
        }
    }

    // Same sub from another device (RS256, then ES256): same player, same balance.
    for (alg, kid) in [(Algorithm::RS256, "rsa-1"), (Algorithm::ES256, "ec-1")] {
        let again = sign_in(&addr, &signed(alg, kid, &claims(&sub))).await.unwrap();
        assert_eq!(again.player_id, first.player_id, "{alg:?}");
        assert_ne!(again.token, first.token);
        assert_eq!(again.balance, 100_000 - table.min_buy_in, "{alg:?}");
        let (_, welcome) = Client::connect(&addr, &again.token).await.unwrap();
        assert!(matches!(welcome, ServerMsg::Welcome { player_id, .. } if player_id == first.player_id));
    }
    // Another sub: another player.
    let bo = sign_in(&addr, &hs256(&claims("someone-else"), SECRET)).await.unwrap();
    assert_ne!(bo.player_id, first.player_id);

    // What is refused, and how.
    let past = serde_json::json!({"sub": &sub, "aud": AUDIENCE, "exp": now() - 3_600});
    assert_eq!(refused(&addr, &hs256(&past, SECRET)).await, "token_expired");
    let early = serde_json::json!({"sub": &sub, "aud": AUDIENCE, "exp": now() + 7_200, "nbf": now() + 3_600});
    assert_eq!(refused(&addr, &hs256(&early, SECRET)).await, "token_not_yet_valid");
    let foreign = serde_json::json!({"sub": &sub, "aud": "another-service", "exp": now() + 600});
    assert_eq!(refused(&addr, &hs256(&foreign, SECRET)).await, "token_audience");
    assert_eq!(refused(&addr, &signed(Algorithm::RS256, "rsa-1", &foreign)).await, "token_audience");
    let forged = hs256(&claims(&sub), "not-the-operator-secret-but-as-long-as-it");
    assert_eq!(refused(&addr, &forged).await, "token_invalid");
    let no_audience = serde_json::json!({"sub": &sub, "exp": now() + 600});
    assert_eq!(refused(&addr, &hs256(&no_audience, SECRET)).await, "token_invalid");
    let no_subject = serde_json::json!({"aud": AUDIENCE, "exp": now() + 600});
    assert_eq!(refused(&addr, &hs256(&no_subject, SECRET)).await, "token_invalid");
    // An RS256 token whose key id names the EC key, and one with its signature swapped.
    assert_eq!(refused(&addr, &signed(Algorithm::RS256, "ec-1", &claims(&sub))).await, "token_invalid");
    let good = signed(Algorithm::ES256, "ec-1", &claims(&sub));
    let other = signed(Algorithm::ES256, "ec-1", &claims("mallory"));
    let swapped = format!("{}.{}", other.rsplit_once('.').unwrap().0, good.rsplit_once('.').unwrap().1);
    assert_eq!(refused(&addr, &swapped).await, "token_invalid");
    // alg "none", and not a JWT at all.
    let none = format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{}.", good.split('.').nth(1).unwrap());
    assert_eq!(refused(&addr, &none).await, "token_invalid");
    assert_eq!(refused(&addr, "not.a.jwt").await, "token_invalid");
    drop(phone);
    server.shutdown().await;
    let _ = std::fs::remove_file(jwks);
}

#[tokio::test]
async fn a_server_without_jwt_keys_refuses_jwts() {
    let (server, addr) = spawn_app(|_| {}).await;
    assert_eq!(refused(&addr, &hs256(&claims("x"), SECRET)).await, "jwt_disabled");
    server.shutdown().await;
}

/// `guest_sessions = false`: a guest's sign-in is 401 `guests_disabled`, an operator's user
/// still signs in; and the setting is refused where it would leave no way in.
#[tokio::test]
async fn guest_sign_in_can_be_turned_off_where_jwts_sign_players_in() {
    let (server, addr) = spawn_app(|c| {
        c.jwt_secret = Some(SECRET.into());
        c.jwt_audience = Some(AUDIENCE.into());
        c.guest_sessions = false;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let (status, text) = http(&addr, "POST", "/api/sessions", Some(r#"{"name":"Guest"}"#)).await.unwrap();
    assert_eq!(status, 401, "{text}");
    let body: ApiErrorBody = serde_json::from_str(&text).unwrap();
    assert_eq!(body.code, "guests_disabled");
    let user = sign_in(&addr, &hs256(&claims(&format!("user-{}", Uuid::new_v4())), SECRET)).await.unwrap();
    assert_eq!(user.name, "Ann Operator");
    server.shutdown().await;

    let alone = stud_server::Config { guest_sessions: false, ..stud_server::Config::default() };
    let err = alone.validate().unwrap_err().to_string();
    assert!(err.contains("no way to sign in"), "{err}");
}

/// Display names refuse invisible and text-direction characters (a blank-looking name, one
/// that reads as another, one that turns the chat around it), as the schema's pattern says,
/// from a guest and from a JWT's `name` (which then falls back to the user id).
#[tokio::test]
async fn display_names_refuse_invisible_and_bidirectional_characters() {
    let (server, addr) = spawn_app(|c| {
        c.jwt_secret = Some(SECRET.into());
        c.jwt_audience = Some(AUDIENCE.into());
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    for name in ["\u{202e}nimda", "Ann\u{200b}", "\u{3164}", "a\u{2066}b\u{2069}", "\u{feff}x", "x\u{ad}y"] {
        let body = serde_json::json!({ "name": name }).to_string();
        let (status, text) = http(&addr, "POST", "/api/sessions", Some(&body)).await.unwrap();
        assert_eq!(status, 400, "{name:?}: {text}");
    }
    for name in ["Zoë", "李", "👨\u{200d}👩\u{200d}👧", "می\u{200c}خواهم"] {
        let body = serde_json::json!({ "name": name }).to_string();
        let (status, text) = http(&addr, "POST", "/api/sessions", Some(&body)).await.unwrap();
        assert_eq!(status, 201, "{name:?}: {text}");
    }
    let sub = format!("user-{}", Uuid::new_v4());
    let mut forged = claims(&sub);
    forged["name"] = "\u{202e}rotarepO".into();
    let user = sign_in(&addr, &hs256(&forged, SECRET)).await.unwrap();
    assert_eq!(user.name, sub.chars().take(24).collect::<String>(), "the id's short form, not the reversed name");
    server.shutdown().await;
}
