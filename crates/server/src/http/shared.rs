//! What more than one route does: the operator's audit line, the check that a session's data
//! is read with its own token, a page of the ledger, and the client's address behind proxies.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use serde::Serialize;
use stud_proto::LedgerPage;
use stud_store::{AdminLogEntry, LedgerCursor, LedgerQuery};
use uuid::Uuid;

use crate::app::App;
use crate::http::error::ApiError;
use crate::http::extract::{Caller, Operator};
use crate::session::Session;

/// Writes the audit line; the action is refused if it cannot be logged.
pub(crate) async fn audit(
    app: &App,
    who: &Operator,
    action: &str,
    target: Option<String>,
    detail: impl Serialize,
) -> Result<(), ApiError> {
    let entry = AdminLogEntry {
        at_ms: stud_store::now_ms(),
        operator: who.0.clone(),
        action: action.to_owned(),
        target,
        detail: serde_json::to_string(&detail).unwrap_or_default(),
    };
    tracing::info!(operator = %who.0, action, target = entry.target.as_deref().unwrap_or(""), "admin");
    Ok(app.store.log_admin(&entry).await?)
}

/// Most ledger lines a page holds.
const MAX_LEDGER_PAGE: u32 = 500;

/// A page of the ledger: `query` with the page's limit and cursor, once the writer has stored
/// what happened before the request.
pub(crate) async fn ledger_page(
    app: &App,
    mut query: LedgerQuery,
    limit: Option<u32>,
    cursor: Option<&str>,
) -> Result<LedgerPage, ApiError> {
    query.limit = limit.unwrap_or(100);
    if !(1..=MAX_LEDGER_PAGE).contains(&query.limit) {
        return Err(ApiError::BadRequest(format!("limit must be 1 to {MAX_LEDGER_PAGE}")));
    }
    if let Some(c) = cursor {
        query.before = Some(LedgerCursor::decode(c).ok_or_else(|| ApiError::BadRequest("bad cursor".into()))?);
    }
    match tokio::time::timeout(crate::app::HISTORY_WAIT, app.writer.flush()).await {
        Ok(true) => {}
        Ok(false) | Err(_) => return Err(crate::app::HistoryError::Behind.into()),
    }
    let lines = app.store.ledger(&query).await?;
    let next_cursor = (lines.len() == query.limit as usize).then(|| lines.last().map(|l| l.cursor.encode())).flatten();
    let entries = lines
        .iter()
        .map(|l| {
            crate::wire::ledger_line(l)
                .ok_or_else(|| ApiError::Internal(format!("ledger line of unknown kind {:?}", l.kind)))
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(LedgerPage { entries, next_cursor })
}

/// The session `id`, if the caller holds its token; 403 otherwise.
pub(crate) fn own_session(caller: Caller, id: Uuid) -> Result<Arc<Session>, ApiError> {
    let Caller::Player(session) = caller else {
        return Err(ApiError::Forbidden("a session's data is read with that session's token".into()));
    };
    if session.session_id != id {
        return Err(ApiError::Forbidden("this token belongs to another session".into()));
    }
    Ok(session)
}

/// The client's address: the peer's, or, when the peer is a trusted proxy, the nearest address
/// in `X-Forwarded-For` that is not a trusted proxy (the header is read from the right: only
/// what trusted proxies appended is believed). Without a usable header, the peer's. Every
/// address is compared and returned in its canonical form: on a dual-stack socket an IPv4 peer
/// arrives as `::ffff:a.b.c.d`, which is `a.b.c.d` here (for the trusted list and for the
/// per-address limits alike).
pub fn client_ip(
    peer: std::net::IpAddr,
    headers: &axum::http::HeaderMap,
    trusted: &[std::net::IpAddr],
) -> std::net::IpAddr {
    let peer = peer.to_canonical();
    let is_trusted = |ip: &std::net::IpAddr| trusted.iter().any(|t| t.to_canonical() == *ip);
    if !is_trusted(&peer) {
        return peer;
    }
    let hops = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    for hop in hops.into_iter().rev() {
        match hop.parse::<std::net::IpAddr>().map(|ip| ip.to_canonical()) {
            Ok(ip) if is_trusted(&ip) => {}
            Ok(ip) => return ip,
            // Not an address: nothing to its left can be believed.
            Err(_) => return peer,
        }
    }
    peer
}

/// A [`Caller`] reading the hand history: a player's read is counted against the history
/// limits (per player and per client IP, `history_reads_per_minute`; 429 past them); an
/// operator's is not.
pub struct Reader(pub Caller);

impl<S> FromRequestParts<S> for Reader
where
    Arc<App>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Reader, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        if let Caller::Player(session) = &caller {
            let app = Arc::<App>::from_ref(state);
            let peer = parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
            let peer = peer.unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
            let ip = client_ip(peer, &parts.headers, &app.config.trusted_proxies);
            app.limits.read_history(session.player_id, ip).map_err(ApiError::RateLimited)?;
        }
        Ok(Reader(caller))
    }
}

/// A fresh invite code: 12 characters from an alphabet without look-alikes.
pub fn invite_code() -> Result<String, ApiError> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(bytes.iter().map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()])).collect())
}

#[cfg(test)]
mod tests {
    use super::client_ip;
    use axum::http::{HeaderMap, HeaderValue};
    use std::net::IpAddr;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    fn xff(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap_or(HeaderValue::from_static("")));
        }
        h
    }

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let proxy = [ip("10.0.0.1"), ip("10.0.0.2")];
        // From a stranger the header is ignored (it could name anyone).
        assert_eq!(client_ip(ip("203.0.113.9"), &xff(&["198.51.100.7"]), &proxy), ip("203.0.113.9"));
        // From a proxy: the nearest untrusted hop, read from the right.
        assert_eq!(client_ip(ip("10.0.0.1"), &xff(&["198.51.100.7"]), &proxy), ip("198.51.100.7"));
        assert_eq!(client_ip(ip("10.0.0.1"), &xff(&["6.6.6.6, 198.51.100.7, 10.0.0.2"]), &proxy), ip("198.51.100.7"));
        assert_eq!(client_ip(ip("10.0.0.1"), &xff(&["6.6.6.6", "198.51.100.7"]), &proxy), ip("198.51.100.7"));
        // No header, or garbage: the proxy's own address.
        assert_eq!(client_ip(ip("10.0.0.1"), &HeaderMap::new(), &proxy), ip("10.0.0.1"));
        assert_eq!(client_ip(ip("10.0.0.1"), &xff(&["6.6.6.6, unknown"]), &proxy), ip("10.0.0.1"));
        // Nothing trusted: never read.
        assert_eq!(client_ip(ip("10.0.0.1"), &xff(&["198.51.100.7"]), &[]), ip("10.0.0.1"));
    }

    #[test]
    fn ipv4_mapped_addresses_are_their_ipv4_addresses() {
        // A dual-stack bind sees an IPv4 proxy as ::ffff:10.0.0.1: still the trusted proxy.
        let proxy = [ip("10.0.0.1")];
        assert_eq!(client_ip(ip("::ffff:10.0.0.1"), &xff(&["198.51.100.7"]), &proxy), ip("198.51.100.7"));
        // A proxy listed in mapped form trusts the plain address too.
        assert_eq!(client_ip(ip("10.0.0.1"), &xff(&["198.51.100.7"]), &[ip("::ffff:10.0.0.1")]), ip("198.51.100.7"));
        // A client is one address however it arrives (one per-address limit), and a mapped
        // trusted hop in the header is skipped like the plain one.
        assert_eq!(client_ip(ip("::ffff:203.0.113.9"), &HeaderMap::new(), &proxy), ip("203.0.113.9"));
        assert_eq!(
            client_ip(ip("10.0.0.1"), &xff(&["::ffff:198.51.100.7, ::ffff:10.0.0.1"]), &proxy),
            ip("198.51.100.7")
        );
        // Plain IPv6 stays as it is.
        assert_eq!(client_ip(ip("2001:db8::1"), &HeaderMap::new(), &proxy), ip("2001:db8::1"));
    }
}
