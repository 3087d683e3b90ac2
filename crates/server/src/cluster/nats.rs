//! The cluster's connection to NATS and what every part of it shares: where its JetStream state
//! lives ([`ClusterConfig`]), how an operation fails ([`ClusterError`]), connecting, whether
//! NATS still answers ([`Health`]), and opening a KV bucket.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use async_nats::jetstream::{self, kv};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

/// How often [`Health`]'s probe asks NATS for an answer...
const PROBE_EVERY: Duration = Duration::from_secs(1);
/// ... and again after an unanswered probe, or while NATS is down (to see it back soon).
const PROBE_AGAIN: Duration = Duration::from_millis(200);
/// A probe unanswered this long fails; two failed in a row mean NATS is away (one could be a
/// moment of overload). With [`PROBE_EVERY`] and [`PROBE_AGAIN`], a nats-server that stops
/// answering (paused, a dead host whose TCP connection is still up) is noticed within
/// 1 + 2.5 + 0.2 + 2.5 = 6.2 s. The client's own pings cannot tell: every command it sends
/// restarts their timer, so a busy client never pings, and an idle one needs 3 missed pings
/// of its interval.
const PROBE_WAIT: Duration = Duration::from_millis(2_500);
/// Failed probes in a row that mark NATS down.
const PROBE_FAILURES: u32 = 2;

/// Where the cluster's JetStream state lives and how it is kept.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// the NATS server(s), e.g. `nats://127.0.0.1:4222` (several: comma separated)
    pub url: String,
    /// the journal stream's name
    pub journal_stream: String,
    /// the journal's subject prefix: a table's entries go to `PREFIX.<table id>`
    pub journal_prefix: String,
    /// the KV bucket of tables' snapshots
    pub snapshot_bucket: String,
    /// the KV bucket of table leases
    pub lease_bucket: String,
    /// JetStream replicas of each stream and bucket (1 on one server, 3 in production)
    pub replicas: usize,
    /// a lease lapses this long after its last renewal
    pub lease_ttl: Duration,
    /// how long a JetStream request (a publish's acknowledgement included) may take
    pub timeout: Duration,
    /// this node's name: its reply subjects are `_INBOX.<node>.…`, so NATS can let each node
    /// read only its own replies (`deploy/nats-auth.conf`); empty: NATS's shared `_INBOX.…`
    pub node: String,
    /// how this node signs in to NATS beyond what the URL carries, and its TLS
    pub auth: NatsAuth,
}

/// How a node signs in to NATS and checks its certificate. A user and password
/// (`nats://USER:PASSWORD@HOST`) or a token (`nats://TOKEN@HOST`) come from the URL.
#[derive(Clone, Debug, Default)]
pub struct NatsAuth {
    /// a credentials file: a user JWT and its nkey seed (NATS's decentralized auth)
    pub creds_file: Option<PathBuf>,
    /// a file holding an nkey seed (`SU…`)
    pub nkey_seed_file: Option<PathBuf>,
    /// the PEM certificate authority of NATS's TLS certificate; given, TLS is required
    pub tls_ca: Option<PathBuf>,
    /// a PEM client certificate and its key, for a NATS that verifies its clients
    pub tls_client: Option<(PathBuf, PathBuf)>,
}

impl ClusterConfig {
    /// The defaults for a NATS server at `url`.
    pub fn new(url: impl Into<String>) -> Self {
        ClusterConfig {
            url: url.into(),
            journal_stream: "STUD_JOURNAL".into(),
            journal_prefix: "stud.journal".into(),
            snapshot_bucket: "stud_snapshots".into(),
            lease_bucket: "stud_leases".into(),
            replicas: 1,
            lease_ttl: Duration::from_secs(3),
            timeout: Duration::from_secs(2),
            node: String::new(),
            auth: NatsAuth::default(),
        }
    }
}

/// A cluster operation that did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// NATS could not be reached, or did not answer in time.
    #[error("NATS is unavailable: {0}")]
    Unavailable(String),
    /// The table's journal is held by another worker (or by nobody here): nothing was written.
    #[error("table {0}: this worker does not hold its journal")]
    Fenced(uuid::Uuid),
    /// A stored value does not decode.
    #[error("stored cluster data does not decode: {0}")]
    Corrupt(String),
}

impl ClusterError {
    pub(super) fn nats(e: impl std::fmt::Display) -> Self {
        ClusterError::Unavailable(e.to_string())
    }
}

impl From<ClusterError> for stud_store::StoreError {
    fn from(e: ClusterError) -> Self {
        match e {
            ClusterError::Corrupt(s) => stud_store::StoreError::Corrupt(s),
            other => stud_store::StoreError::Db(std::io::Error::other(other.to_string()).into()),
        }
    }
}

/// Connects to NATS with the cluster's timeouts and this node's credentials; the client
/// reconnects by itself after.
///
/// # Errors
/// The first connection failed (NATS refused the credentials among other reasons), or a
/// credentials file does not read.
pub async fn connect(
    config: &ClusterConfig,
) -> Result<(async_nats::Client, async_nats::jetstream::Context), ClusterError> {
    let (servers, login) = split_login(&config.url)?;
    let mut options = async_nats::ConnectOptions::new()
        .connection_timeout(config.timeout)
        .request_timeout(Some(config.timeout))
        // Back soon after NATS is: a table refuses its inputs while it is away.
        .reconnect_delay_callback(|attempts| Duration::from_millis((attempts as u64).saturating_mul(100).min(1_000)))
        // What NATS refuses (a permission this node's user lacks) is otherwise silent.
        .event_callback(|event| async move {
            if let async_nats::Event::ServerError(e) = event {
                warn!(error = %e, "NATS refused an operation of this node");
            }
        });
    // async-nats reads no credentials from the URL itself: they are passed on here.
    options = match login {
        Some(Login::Password(user, password)) => options.user_and_password(user, password),
        Some(Login::Token(token)) => options.token(token),
        None => options,
    };
    let auth = &config.auth;
    if let Some(path) = &auth.creds_file {
        options = options
            .credentials_file(path)
            .await
            .map_err(|e| ClusterError::Unavailable(format!("NATS credentials file {}: {e}", path.display())))?;
    }
    if let Some(path) = &auth.nkey_seed_file {
        let seed = tokio::fs::read_to_string(path)
            .await
            .map_err(|e| ClusterError::Unavailable(format!("NATS nkey seed file {}: {e}", path.display())))?;
        options = options.nkey(seed.trim().to_owned());
    }
    if let Some(ca) = &auth.tls_ca {
        options = options.add_root_certificates(ca.clone()).require_tls(true);
    }
    if let Some((cert, key)) = &auth.tls_client {
        options = options.add_client_certificate(cert.clone(), key.clone());
    }
    if !config.node.is_empty() {
        options = options.custom_inbox_prefix(format!("_INBOX.{}", config.node));
    }
    let client = options.connect(servers).await.map_err(ClusterError::nats)?;
    let mut js = async_nats::jetstream::new(client.clone());
    js.set_timeout(config.timeout);
    Ok((client, js))
}

/// What a cluster URL's `USER:PASSWORD@` (or `TOKEN@`) part says.
#[derive(Debug, PartialEq, Eq)]
enum Login {
    Password(String, String),
    Token(String),
}

/// The servers of a cluster URL (several: comma separated) without their user info, and the
/// login they carry (percent-decoded; every server that names one must name the same).
fn split_login(urls: &str) -> Result<(Vec<String>, Option<Login>), ClusterError> {
    let mut servers = Vec::new();
    let mut login = None;
    for url in urls.split(',').map(str::trim).filter(|u| !u.is_empty()) {
        let (scheme, rest) = url.split_once("://").unwrap_or(("nats", url));
        // The authority ends at the first '/', '?' or '#'; its user info at the last '@'.
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let Some(at) = rest[..end].rfind('@') else {
            servers.push(url.to_owned());
            continue;
        };
        let decode = |s: &str| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned();
        let this = match rest[..at].split_once(':') {
            Some((user, password)) => Login::Password(decode(user), decode(password)),
            None => Login::Token(decode(&rest[..at])),
        };
        if login.as_ref().is_some_and(|l| *l != this) {
            return Err(ClusterError::Unavailable("the NATS servers of the cluster URL name different logins".into()));
        }
        login = Some(this);
        servers.push(format!("{scheme}://{}", &rest[at + 1..]));
    }
    Ok((servers, login))
}

/// Whether NATS answers this node: what a gateway asks before it forwards an input (refusing
/// with `unavailable` rather than publishing into a connection that leads nowhere).
#[derive(Debug)]
pub struct Health {
    up: AtomicBool,
}

impl Health {
    /// NATS answered the last probe (and none has failed since).
    pub fn up(&self) -> bool {
        self.up.load(Relaxed)
    }

    /// A node's health, up until a probe says otherwise.
    pub fn new() -> Arc<Health> {
        Arc::new(Health { up: AtomicBool::new(true) })
    }
}

/// Probes NATS every [`PROBE_EVERY`] until `stop`: a request on a subject nobody serves,
/// which the server itself answers with "no responders". After [`PROBE_FAILURES`] probes in
/// a row unanswered within [`PROBE_WAIT`], NATS is marked down in `health` and the client is
/// told to reconnect (its state then leaves `Connected`, so the journal refuses appends at
/// once instead of queueing them); the first answer again marks it up.
pub fn spawn_probe(
    client: async_nats::Client,
    node: &str,
    health: Arc<Health>,
    stop: CancellationToken,
) -> JoinHandle<()> {
    let subject = format!("stud.probe.{node}.{}", uuid::Uuid::new_v4().simple());
    tokio::spawn(async move {
        let mut failures = 0u32;
        loop {
            let wait = if failures == 0 { PROBE_EVERY } else { PROBE_AGAIN };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = stop.cancelled() => return,
            }
            let request = async_nats::Request::new().timeout(Some(PROBE_WAIT));
            let answered = match tokio::time::timeout(PROBE_WAIT, client.send_request(subject.clone(), request)).await {
                Ok(Ok(_)) => true,
                Ok(Err(e)) => e.kind() == async_nats::RequestErrorKind::NoResponders,
                Err(_) => false,
            };
            failures = if answered { 0 } else { failures.saturating_add(1) };
            if answered && !health.up() {
                health.up.store(true, Relaxed);
                info!("NATS answers again");
            } else if failures == PROBE_FAILURES {
                health.up.store(false, Relaxed);
                warn!("NATS does not answer: refusing inputs until it does; reconnecting");
                // Bounded: the client's command queue may itself be stuck behind the dead
                // connection.
                let _ = tokio::time::timeout(PROBE_WAIT, client.force_reconnect()).await;
            }
        }
    })
}

/// The bucket if it exists, else a new one with `config`.
pub(super) async fn open_bucket(js: &jetstream::Context, config: kv::Config) -> Result<kv::Store, ClusterError> {
    match js.get_key_value(config.bucket.as_str()).await {
        Ok(store) => Ok(store),
        Err(_) => js.create_key_value(config).await.map_err(ClusterError::nats),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_url_s_login_is_taken_out_and_decoded() {
        let (servers, login) = split_login("nats://gw%401:p%3Ass@n1:4222, nats://gw%401:p%3Ass@n2:4222").unwrap();
        assert_eq!(servers, ["nats://n1:4222", "nats://n2:4222"]);
        assert_eq!(login, Some(Login::Password("gw@1".into(), "p:ss".into())));
        let (servers, login) = split_login("tls://s3cret@[::1]:4222/x").unwrap();
        assert_eq!(servers, ["tls://[::1]:4222/x"]);
        assert_eq!(login, Some(Login::Token("s3cret".into())));
        assert_eq!(split_login("nats://h:4222").unwrap(), (vec!["nats://h:4222".to_owned()], None));
        assert!(split_login("nats://a:b@h1:4222,nats://a:c@h2:4222").is_err(), "two logins");
    }
}
