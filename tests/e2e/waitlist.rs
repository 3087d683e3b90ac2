//! The waiting list over real sockets: players watching a full table line up, the lobby counts
//! them, a freed seat is offered to the first in line only, who takes it with a `sit`.

use stud_client::{http_as, tables};
use stud_proto::{AdminTable, ClientMsg, ErrorCode, ServerMsg, TableSettings, TableState};

use crate::{Player, spawn_app};

const KEY: &str = "waitlist-operator-key-0123456789abcdef";

/// The next snapshot of `p`'s that `pred` accepts.
async fn snapshot_where(p: &mut Player, mut pred: impl FnMut(&TableState) -> bool) -> TableState {
    let msg = p.until(|m| matches!(m, ServerMsg::Snapshot { table, .. } if pred(table))).await;
    let ServerMsg::Snapshot { table, .. } = msg else { unreachable!() };
    table
}

/// `p`'s answer to its request `id`: the ack's detail, or the error's code.
async fn answer(p: &mut Player, id: &str) -> Result<String, ErrorCode> {
    let id = Some(id.to_owned());
    match p.until(|m| matches!(m, ServerMsg::Ack { request_id, .. } | ServerMsg::Error { request_id, .. } if *request_id == id)).await {
        ServerMsg::Ack { detail, .. } => Ok(detail),
        ServerMsg::Error { code, .. } => Err(code),
        _ => unreachable!(),
    }
}

/// A `sit` in any free seat with the table's smallest buy-in.
fn sit_any(table_id: uuid::Uuid, request: &str) -> ClientMsg {
    ClientMsg::Sit { request_id: Some(request.into()), table_id, invite_code: None, seat: None, buy_in: 800 }
}

#[tokio::test]
async fn a_freed_seat_goes_to_the_first_in_line_and_the_lobby_counts_the_line() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let settings = TableSettings { seats: 2, ..crate::stud_table_settings("Two seats") };
    let body = serde_json::to_string(&settings).unwrap();
    let (status, text) = http_as(&addr, "POST", "/api/admin/tables", Some(&body), Some(KEY)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let created: AdminTable = serde_json::from_str(&text).unwrap();
    let id = created.id;
    let table = tables(&addr).await.unwrap().into_iter().find(|t| t.id == id).unwrap();
    let (mut ann, mut bob) = (Player::new(&addr, "Ann").await, Player::new(&addr, "Bob").await);
    ann.sit(&table, 1).await;
    bob.sit(&table, 2).await;

    let (mut cat, mut dan) = (Player::new(&addr, "Cat").await, Player::new(&addr, "Dan").await);
    let wait = |request: &str, on: bool| ClientMsg::Waitlist { request_id: Some(request.into()), table_id: id, on };
    // Not watching yet: join first.
    cat.send(wait("early", true)).await;
    assert_eq!(answer(&mut cat, "early").await, Err(ErrorCode::NotSeated));
    for p in [&mut cat, &mut dan] {
        p.send(ClientMsg::JoinTable { request_id: Some("j".into()), table_id: id, invite_code: None }).await;
        assert_eq!(answer(p, "j").await, Ok("joined".into()));
    }
    // The table is full: Dan cannot sit; both line up.
    dan.send(sit_any(id, "d0")).await;
    assert_eq!(answer(&mut dan, "d0").await, Err(ErrorCode::TableFull));
    cat.send(wait("c1", true)).await;
    assert_eq!(answer(&mut cat, "c1").await, Ok("on the waiting list: position 1".into()));
    dan.send(wait("d1", true)).await;
    assert_eq!(answer(&mut dan, "d1").await, Ok("on the waiting list: position 2".into()));
    let seen = snapshot_where(&mut dan, |t| t.waiting == 2).await;
    assert_eq!(seen.wait.map(|w| (w.position, w.offer_ms)), Some((2, None)));
    let lobby = tables(&addr).await.unwrap().into_iter().find(|t| t.id == id).unwrap();
    assert_eq!(lobby.waiting, 2, "the lobby counts the line");

    // Ann leaves (her hand, if one is in play, is played out first): her seat is offered to
    // Cat alone, for 30 s.
    ann.send(ClientMsg::Leave { request_id: Some("l".into()), table_id: id }).await;
    let offered = snapshot_where(&mut cat, |t| t.wait.as_ref().is_some_and(|w| w.offer_ms.is_some())).await;
    let offer = offered.wait.unwrap();
    assert_eq!(offer.position, 1);
    assert!(offer.offer_ms.is_some_and(|ms| ms > 20_000 && ms <= stud_proto::SEAT_OFFER_MS), "{offer:?}");
    dan.send(sit_any(id, "d2")).await;
    assert_eq!(answer(&mut dan, "d2").await, Err(ErrorCode::TableFull), "the seat is Cat's");
    cat.send(sit_any(id, "c2")).await;
    assert_eq!(answer(&mut cat, "c2").await, Ok("seated at 1".into()));
    let seen = snapshot_where(&mut dan, |t| t.waiting == 1).await;
    assert_eq!(seen.wait.map(|w| w.position), Some(1), "Dan is first in line now");
    // Dan leaves the line.
    dan.send(wait("d3", false)).await;
    assert_eq!(answer(&mut dan, "d3").await, Ok("off the waiting list".into()));
    let lobby = tables(&addr).await.unwrap().into_iter().find(|t| t.id == id).unwrap();
    assert_eq!(lobby.waiting, 0);
    for p in [&ann, &bob, &cat, &dan] {
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
    }
    server.shutdown().await;
}
