//! The server's one `Config`: defaults, then an optional TOML file, then `STUD_*` environment
//! variables, then command-line flags; parsed once at start-up with clear errors.

use std::net::SocketAddr;
use std::time::Duration;

use serde::Deserialize;
use stud_engine::{Chips, ConfigError, TableConfig, Variant};

/// Why the configuration is unusable.
#[derive(Debug, thiserror::Error)]
pub enum ConfigLoadError {
    /// The file cannot be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// the file
        path: String,
        /// why
        source: std::io::Error,
    },
    /// The file is not valid TOML for this config.
    #[error("config file {path}: {message}")]
    Parse {
        /// the file
        path: String,
        /// what is wrong
        message: String,
    },
    /// An environment variable has a bad value.
    #[error("environment variable {name}={value:?}: {message}")]
    Env {
        /// the variable
        name: String,
        /// its value
        value: String,
        /// what is wrong
        message: String,
    },
    /// A value breaks a rule.
    #[error("invalid configuration: {0}")]
    Invalid(String),
    /// The table stakes break RULES.md section 2.
    #[error("invalid table stakes: {0}")]
    Stakes(#[from] ConfigError),
}

/// Stakes and buy-in of the default public tables.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Stakes {
    /// ante
    pub ante: Chips,
    /// bring-in
    pub bring_in: Chips,
    /// small bet
    pub small_bet: Chips,
    /// big bet
    pub big_bet: Chips,
    /// smallest buy-in
    pub min_buy_in: Chips,
    /// largest buy-in
    pub max_buy_in: Chips,
}

impl Default for Stakes {
    fn default() -> Stakes {
        // $2/$4 in cents: ante 0.40, bring-in 0.50; buy-in 10 to 100 big bets.
        Stakes { ante: 40, bring_in: 50, small_bet: 200, big_bet: 400, min_buy_in: 4_000, max_buy_in: 40_000 }
    }
}

/// The server configuration. `Debug` shows no secret: the operator key is redacted and so is
/// the database URL's password.
#[derive(Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// address to listen on (port 0 picks a free port)
    pub bind: SocketAddr,
    /// public tables opened per variant at start
    pub tables_per_variant: usize,
    /// a single server opens the house sit-and-go once, at its first start: a recurring
    /// Stud sit-and-go, so the lobby shows the tournament room from the first run
    /// (`STUD_HOUSE_SIT_AND_GO=false` or `--no-house-sit-and-go` keeps it closed; an
    /// operator's cancel ends it for good)
    pub house_sit_and_go: bool,
    /// the variants that get public tables
    pub variants: Vec<Variant>,
    /// stakes of the public tables
    pub stakes: Stakes,
    /// time to act before the time bank is used, milliseconds
    pub action_timeout_ms: u64,
    /// per-player time bank, milliseconds
    pub time_bank_ms: u64,
    /// a disconnected player to act gets this long before the clock acts, milliseconds
    pub disconnect_grace_ms: u64,
    /// pause between hands, milliseconds
    pub hand_pause_ms: u64,
    /// pause after a hand that went to showdown, milliseconds (the longer of this and
    /// `hand_pause_ms` applies): the cards shown and the winning hand stay readable
    pub showdown_pause_ms: u64,
    /// play-money balance of a new player
    pub starting_balance: Chips,
    /// largest accepted WebSocket text frame, bytes
    pub max_frame_bytes: usize,
    /// per-connection outbound queue, messages
    pub outbound_queue: usize,
    /// per-table command queue, messages
    pub table_queue: usize,
    /// hands in LAST HAND (the session's newest)
    pub last_hands: usize,
    /// the database: `sqlite://FILE` (the default, `stud.db` in the working directory) or
    /// `postgres://…`; also `DATABASE_URL`
    pub database_url: String,
    /// where the tables' journal is kept: `None` (the default) in segment files next to a
    /// SQLite database file (`stud.db.journal/`) and in the database otherwise; `"database"`
    /// in the database; any other value names the directory of its segment files
    pub journal: Option<String>,
    /// most writes per store transaction
    pub store_batch: usize,
    /// writes queued for the database past which tables stop starting hands
    pub store_backlog: usize,
    /// a database connection unused this long is closed (the pool opens another when needed),
    /// seconds
    pub database_idle_secs: u64,
    /// bearer key of the operator routes (`STUD_OPERATOR_KEY`); none = only keys made with
    /// `stud operator create-key` work
    pub operator_key: Option<String>,
    /// guest sessions a client IP may create per minute (0: no limit)
    pub sessions_per_minute_per_ip: u32,
    /// WebSocket messages a connection may send per second, bursts of twice that (0: no limit)
    pub messages_per_second: u32,
    /// wrong invite codes a player may try per minute, an IP five times that (0: no limit)
    pub invite_attempts_per_minute: u32,
    /// WebSocket connections open at once per client IP (0: no limit)
    pub max_connections_per_ip: usize,
    /// largest HTTP request body, bytes
    pub max_body_bytes: usize,
    /// a guest session unused this long expires (its token is refused from then on); days,
    /// fractions allowed
    pub session_idle_days: f64,
    /// sessions kept in memory at most (least recently used ones are dropped past it and
    /// read from the store again when used)
    pub session_cache: usize,
    /// HS256 secret of operator-signed JWTs for `POST /api/sessions` (`STUD_JWT_SECRET`)
    pub jwt_secret: Option<String>,
    /// a JWKS file with the RS256/ES256 public keys of operator-signed JWTs
    pub jwt_jwks_file: Option<String>,
    /// the `aud` a JWT must carry (required when JWTs are accepted)
    pub jwt_audience: Option<String>,
    /// LAST HAND and history reads (WebSocket `last_hands`/`last_hand`, the history routes)
    /// per player per minute, and five times as many per client IP (0: no limit;
    /// `STUD_HISTORY_READS_PER_MINUTE`); operators are not limited
    pub history_reads_per_minute: u32,
    /// guests may sign in with a name alone (`STUD_GUEST_SESSIONS`, `true`); `false` leaves
    /// only the operator's JWTs (which must then be configured)
    pub guest_sessions: bool,
    /// an HTTP request's headers must arrive within this, milliseconds
    pub header_timeout_ms: u64,
    /// a WebSocket must say `hello` within this after it opens, milliseconds
    pub hello_timeout_ms: u64,
    /// the NATS server of a cluster, `nats://HOST:PORT` (`STUD_CLUSTER`, `--cluster`); none:
    /// one process, as always
    pub cluster: Option<String>,
    /// this process's part in the cluster (`STUD_ROLE`, `--role`; only with `cluster`, which
    /// defaults it to `all`)
    pub role: Option<Role>,
    /// this node's name in the cluster (`STUD_NODE`, `--node`; required with `cluster`):
    /// letters, digits, `-` and `_`
    pub node: Option<String>,
    /// JetStream replicas of the cluster's journal stream and buckets (`STUD_CLUSTER_REPLICAS`):
    /// 1 on one NATS server, 3 on a NATS cluster of three or more
    pub cluster_replicas: usize,
    /// reverse proxies whose `X-Forwarded-For` is believed (`STUD_TRUSTED_PROXIES`, comma
    /// separated): the per-IP limits then count the client's address; from anyone else the
    /// header is ignored
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// a NATS credentials file (a user JWT and its nkey seed: NATS's decentralized auth) this
    /// node signs in with (`STUD_NATS_CREDS`). A user and password, or a token, go in the
    /// cluster URL instead: `nats://USER:PASSWORD@HOST:PORT`, `nats://TOKEN@HOST:PORT`
    pub nats_creds: Option<String>,
    /// a file holding the nkey seed (`SU...`) this node signs in with (`STUD_NATS_NKEY_FILE`)
    pub nats_nkey_file: Option<String>,
    /// the PEM certificate authority that signed NATS's TLS certificate (`STUD_NATS_TLS_CA`):
    /// TLS is then required
    pub nats_tls_ca: Option<String>,
    /// this node's PEM client certificate, for a NATS that verifies clients
    /// (`STUD_NATS_TLS_CERT`, with `STUD_NATS_TLS_KEY`)
    pub nats_tls_cert: Option<String>,
    /// the client certificate's PEM private key (`STUD_NATS_TLS_KEY`)
    pub nats_tls_key: Option<String>,
}

/// A cluster node's part (see `crate::cluster`).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// HTTP API and WebSockets; routes to tables on workers; holds no table state
    Gateway,
    /// hosts table cores claimed through leases
    Worker,
    /// both in one process
    All,
}

impl Role {
    /// Whether this process serves HTTP and WebSockets.
    pub fn gateway(self) -> bool {
        matches!(self, Role::Gateway | Role::All)
    }

    /// Whether this process hosts tables.
    pub fn worker(self) -> bool {
        matches!(self, Role::Worker | Role::All)
    }
}

impl std::str::FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Role, String> {
        match s.trim() {
            "gateway" => Ok(Role::Gateway),
            "worker" => Ok(Role::Worker),
            "all" => Ok(Role::All),
            other => Err(format!("{other:?} is not a role: gateway, worker or all")),
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            tables_per_variant: 1,
            house_sit_and_go: true,
            variants: vec![Variant::Stud, Variant::Stud8, Variant::Razz],
            stakes: Stakes::default(),
            action_timeout_ms: 15_000,
            time_bank_ms: 30_000,
            disconnect_grace_ms: 5_000,
            hand_pause_ms: 2_000,
            showdown_pause_ms: 4_000,
            starting_balance: 100_000,
            max_frame_bytes: 16 * 1024,
            outbound_queue: 256,
            table_queue: 1024,
            last_hands: 50,
            database_url: "sqlite://stud.db".into(),
            journal: None,
            store_batch: 1000,
            store_backlog: 50_000,
            database_idle_secs: stud_store::PoolSettings::default().idle_timeout.as_secs(),
            operator_key: None,
            sessions_per_minute_per_ip: 60,
            messages_per_second: 20,
            invite_attempts_per_minute: 10,
            max_connections_per_ip: 256,
            max_body_bytes: 16 * 1024,
            session_idle_days: 30.0,
            session_cache: 100_000,
            jwt_secret: None,
            jwt_jwks_file: None,
            jwt_audience: None,
            guest_sessions: true,
            history_reads_per_minute: 120,
            header_timeout_ms: 10_000,
            hello_timeout_ms: 10_000,
            cluster: None,
            role: None,
            node: None,
            cluster_replicas: 1,
            trusted_proxies: Vec::new(),
            nats_creds: None,
            nats_nkey_file: None,
            nats_tls_ca: None,
            nats_tls_cert: None,
            nats_tls_key: None,
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Every field is listed: a new one must be placed here, and considered for redaction.
        let Config {
            bind,
            tables_per_variant,
            house_sit_and_go,
            variants,
            stakes,
            action_timeout_ms,
            time_bank_ms,
            disconnect_grace_ms,
            hand_pause_ms,
            showdown_pause_ms,
            starting_balance,
            max_frame_bytes,
            outbound_queue,
            table_queue,
            last_hands,
            database_url,
            journal,
            store_batch,
            store_backlog,
            database_idle_secs,
            operator_key,
            sessions_per_minute_per_ip,
            messages_per_second,
            invite_attempts_per_minute,
            max_connections_per_ip,
            max_body_bytes,
            session_idle_days,
            session_cache,
            jwt_secret,
            jwt_jwks_file,
            jwt_audience,
            guest_sessions,
            history_reads_per_minute,
            header_timeout_ms,
            hello_timeout_ms,
            cluster,
            role,
            node,
            cluster_replicas,
            trusted_proxies,
            nats_creds,
            nats_nkey_file,
            nats_tls_ca,
            nats_tls_cert,
            nats_tls_key,
        } = self;
        f.debug_struct("Config")
            .field("bind", bind)
            .field("tables_per_variant", tables_per_variant)
            .field("house_sit_and_go", house_sit_and_go)
            .field("variants", variants)
            .field("stakes", stakes)
            .field("action_timeout_ms", action_timeout_ms)
            .field("time_bank_ms", time_bank_ms)
            .field("disconnect_grace_ms", disconnect_grace_ms)
            .field("hand_pause_ms", hand_pause_ms)
            .field("showdown_pause_ms", showdown_pause_ms)
            .field("starting_balance", starting_balance)
            .field("max_frame_bytes", max_frame_bytes)
            .field("outbound_queue", outbound_queue)
            .field("table_queue", table_queue)
            .field("last_hands", last_hands)
            .field("database_url", &redact_url(database_url))
            .field("journal", journal)
            .field("store_batch", store_batch)
            .field("store_backlog", store_backlog)
            .field("database_idle_secs", database_idle_secs)
            .field("operator_key", &operator_key.as_ref().map(|_| "<redacted>"))
            .field("sessions_per_minute_per_ip", sessions_per_minute_per_ip)
            .field("messages_per_second", messages_per_second)
            .field("invite_attempts_per_minute", invite_attempts_per_minute)
            .field("max_connections_per_ip", max_connections_per_ip)
            .field("max_body_bytes", max_body_bytes)
            .field("session_idle_days", session_idle_days)
            .field("session_cache", session_cache)
            .field("jwt_secret", &jwt_secret.as_ref().map(|_| "<redacted>"))
            .field("jwt_jwks_file", jwt_jwks_file)
            .field("jwt_audience", jwt_audience)
            .field("guest_sessions", guest_sessions)
            .field("history_reads_per_minute", history_reads_per_minute)
            .field("header_timeout_ms", header_timeout_ms)
            .field("hello_timeout_ms", hello_timeout_ms)
            .field("cluster", &cluster.as_deref().map(redact_url))
            .field("role", role)
            .field("node", node)
            .field("cluster_replicas", cluster_replicas)
            .field("trusted_proxies", trusted_proxies)
            // Paths, not secrets.
            .field("nats_creds", nats_creds)
            .field("nats_nkey_file", nats_nkey_file)
            .field("nats_tls_ca", nats_tls_ca)
            .field("nats_tls_cert", nats_tls_cert)
            .field("nats_tls_key", nats_tls_key)
            .finish()
    }
}

/// `url` with the password of its `user:password@` part (if any) replaced.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    // The authority ends at the first '/', '?' or '#'; its userinfo at the last '@' in it.
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    let Some((userinfo, host)) = authority.rsplit_once('@') else { return url.to_owned() };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:<redacted>@{host}{path}"),
        None => url.to_owned(),
    }
}

/// Where the tables' journal is kept ([`Config::journal_place`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalPlace {
    /// in the database, group-committed (`StoreJournal`)
    Database,
    /// segment files in this directory (`FileJournal`)
    Files(std::path::PathBuf),
}

impl Config {
    /// Where the tables' journal goes: the `journal` setting, or by default files next to a
    /// SQLite database file (`stud.db` → `stud.db.journal/`) and the database otherwise (an
    /// in-memory SQLite database keeps no file).
    pub fn journal_place(&self) -> JournalPlace {
        match self.journal.as_deref() {
            Some("database") => JournalPlace::Database,
            Some(dir) => JournalPlace::Files(dir.into()),
            None => match sqlite_file(&self.database_url) {
                Some(db) => {
                    let mut name = db.into_os_string();
                    name.push(".journal");
                    JournalPlace::Files(name.into())
                }
                None => JournalPlace::Database,
            },
        }
    }
}

/// The file a `sqlite:` URL names (`None` for Postgres and in-memory databases).
fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or_default();
    if path.is_empty() || path == ":memory:" || path.starts_with(":memory:") || url.contains("mode=memory") {
        return None;
    }
    Some(path.into())
}

impl Config {
    /// Defaults, then the file named by `file` (or `STUD_CONFIG`), then `STUD_*` variables.
    ///
    /// # Errors
    /// [`ConfigLoadError`] naming the bad file, variable or value.
    pub fn load(file: Option<&str>) -> Result<Config, ConfigLoadError> {
        let env: Vec<(String, String)> =
            std::env::vars().filter(|(k, _)| k.starts_with("STUD_") || k == "DATABASE_URL").collect();
        Config::load_from(file, &env)
    }

    /// [`Config::load`] with the environment given (tests use it).
    ///
    /// # Errors
    /// [`ConfigLoadError`] naming the bad file, variable or value.
    pub fn load_from(file: Option<&str>, env: &[(String, String)]) -> Result<Config, ConfigLoadError> {
        let env_file = env.iter().find(|(k, _)| k == "STUD_CONFIG").map(|(_, v)| v.as_str());
        let mut config = match file.or(env_file) {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|source| ConfigLoadError::Read { path: path.to_owned(), source })?;
                toml::from_str(&text)
                    .map_err(|e| ConfigLoadError::Parse { path: path.to_owned(), message: e.to_string() })?
            }
            None => Config::default(),
        };
        for (name, value) in env {
            config.apply_env(name, value)?;
        }
        config.validate()?;
        Ok(config)
    }

    fn apply_env(&mut self, name: &str, value: &str) -> Result<(), ConfigLoadError> {
        fn num<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, ConfigLoadError> {
            value.trim().parse().map_err(|_| ConfigLoadError::Env {
                name: name.to_owned(),
                value: value.to_owned(),
                message: "expected a non-negative whole number".into(),
            })
        }
        fn yes_no(name: &str, value: &str) -> Result<bool, ConfigLoadError> {
            match value.trim() {
                "true" | "1" | "yes" | "on" => Ok(true),
                "false" | "0" | "no" | "off" => Ok(false),
                _ => Err(ConfigLoadError::Env {
                    name: name.to_owned(),
                    value: value.to_owned(),
                    message: "expected true or false".into(),
                }),
            }
        }
        match name {
            "STUD_BIND" => {
                self.bind = value.trim().parse().map_err(|_| ConfigLoadError::Env {
                    name: name.to_owned(),
                    value: value.to_owned(),
                    message: "expected an address like 127.0.0.1:8080".into(),
                })?;
            }
            "STUD_TABLES_PER_VARIANT" => self.tables_per_variant = num(name, value)?,
            "STUD_ACTION_TIMEOUT_MS" => self.action_timeout_ms = num(name, value)?,
            "STUD_TIME_BANK_MS" => self.time_bank_ms = num(name, value)?,
            "STUD_DISCONNECT_GRACE_MS" => self.disconnect_grace_ms = num(name, value)?,
            "STUD_HAND_PAUSE_MS" => self.hand_pause_ms = num(name, value)?,
            "STUD_SHOWDOWN_PAUSE_MS" => self.showdown_pause_ms = num(name, value)?,
            "STUD_STARTING_BALANCE" => self.starting_balance = num(name, value)?,
            "STUD_MAX_FRAME_BYTES" => self.max_frame_bytes = num(name, value)?,
            "STUD_OUTBOUND_QUEUE" => self.outbound_queue = num(name, value)?,
            "STUD_ANTE" => self.stakes.ante = num(name, value)?,
            "STUD_BRING_IN" => self.stakes.bring_in = num(name, value)?,
            "STUD_SMALL_BET" => self.stakes.small_bet = num(name, value)?,
            "STUD_BIG_BET" => self.stakes.big_bet = num(name, value)?,
            "STUD_MIN_BUY_IN" => self.stakes.min_buy_in = num(name, value)?,
            "STUD_MAX_BUY_IN" => self.stakes.max_buy_in = num(name, value)?,
            "DATABASE_URL" | "STUD_DATABASE_URL" => self.database_url = value.trim().to_owned(),
            "STUD_JOURNAL" => self.journal = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_STORE_BATCH" => self.store_batch = num(name, value)?,
            "STUD_SESSIONS_PER_MINUTE_PER_IP" => self.sessions_per_minute_per_ip = num(name, value)?,
            "STUD_MESSAGES_PER_SECOND" => self.messages_per_second = num(name, value)?,
            "STUD_INVITE_ATTEMPTS_PER_MINUTE" => self.invite_attempts_per_minute = num(name, value)?,
            "STUD_MAX_CONNECTIONS_PER_IP" => self.max_connections_per_ip = num(name, value)?,
            "STUD_MAX_BODY_BYTES" => self.max_body_bytes = num(name, value)?,
            "STUD_STORE_BACKLOG" => self.store_backlog = num(name, value)?,
            "STUD_DATABASE_IDLE_SECS" => self.database_idle_secs = num(name, value)?,
            "STUD_SESSION_IDLE_DAYS" => {
                self.session_idle_days = value.trim().parse().map_err(|_| ConfigLoadError::Env {
                    name: name.to_owned(),
                    value: value.to_owned(),
                    message: "expected a number of days, like 30 or 0.5".into(),
                })?;
            }
            "STUD_SESSION_CACHE" => self.session_cache = num(name, value)?,
            "STUD_HEADER_TIMEOUT_MS" => self.header_timeout_ms = num(name, value)?,
            "STUD_HELLO_TIMEOUT_MS" => self.hello_timeout_ms = num(name, value)?,
            "STUD_JWT_SECRET" => self.jwt_secret = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_JWT_JWKS_FILE" => self.jwt_jwks_file = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_HISTORY_READS_PER_MINUTE" => self.history_reads_per_minute = num(name, value)?,
            "STUD_GUEST_SESSIONS" => self.guest_sessions = yes_no(name, value)?,
            "STUD_HOUSE_SIT_AND_GO" => self.house_sit_and_go = yes_no(name, value)?,
            "STUD_JWT_AUDIENCE" => self.jwt_audience = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_CLUSTER" => self.cluster = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_ROLE" => {
                self.role = Some(value.parse().map_err(|message| ConfigLoadError::Env {
                    name: name.to_owned(),
                    value: value.to_owned(),
                    message,
                })?);
            }
            "STUD_CLUSTER_REPLICAS" => self.cluster_replicas = num(name, value)?,
            "STUD_TRUSTED_PROXIES" => {
                self.trusted_proxies = value
                    .split(',')
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(|v| {
                        v.parse().map_err(|_| ConfigLoadError::Env {
                            name: name.to_owned(),
                            value: value.to_owned(),
                            message: format!("{v:?} is not an IP address"),
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            "STUD_NATS_CREDS" => self.nats_creds = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_NATS_NKEY_FILE" => self.nats_nkey_file = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_NATS_TLS_CA" => self.nats_tls_ca = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_NATS_TLS_CERT" => self.nats_tls_cert = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_NATS_TLS_KEY" => self.nats_tls_key = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_NODE" => self.node = Some(value.trim().to_owned()).filter(|v| !v.is_empty()),
            "STUD_OPERATOR_KEY" => {
                let key = value.trim();
                self.operator_key = (!key.is_empty()).then(|| key.to_owned());
            }
            // Variables of other parts (log filter, config file, database) are not ours to judge.
            _ => {}
        }
        Ok(())
    }

    /// Checks every rule the server relies on.
    ///
    /// # Errors
    /// [`ConfigLoadError::Invalid`] or [`ConfigLoadError::Stakes`].
    pub fn validate(&self) -> Result<(), ConfigLoadError> {
        for v in &self.variants {
            self.table_config(*v).validate()?;
        }
        let s = &self.stakes;
        if s.min_buy_in == 0 || s.min_buy_in > s.max_buy_in {
            return Err(ConfigLoadError::Invalid("need 0 < min_buy_in <= max_buy_in".into()));
        }
        if self.outbound_queue < 4 || self.table_queue < 4 {
            return Err(ConfigLoadError::Invalid("queues need at least 4 slots".into()));
        }
        if self.max_frame_bytes < 256 {
            return Err(ConfigLoadError::Invalid("max_frame_bytes must be at least 256".into()));
        }
        if !(self.database_url.starts_with("sqlite:")
            || self.database_url.starts_with("postgres://")
            || self.database_url.starts_with("postgresql://"))
        {
            return Err(ConfigLoadError::Invalid(format!(
                "database_url {:?} must start with sqlite: or postgres://",
                self.database_url
            )));
        }
        if self.journal.as_deref().is_some_and(|j| j != "database" && self.cluster.is_some()) {
            return Err(ConfigLoadError::Invalid(
                "journal: a cluster journals to JetStream; only \"database\" (or nothing) applies".into(),
            ));
        }
        if self.max_body_bytes < 256 {
            return Err(ConfigLoadError::Invalid("max_body_bytes must be at least 256".into()));
        }
        if self.store_batch == 0 || self.store_backlog == 0 {
            return Err(ConfigLoadError::Invalid("store_batch and store_backlog must be at least 1".into()));
        }
        if self.operator_key.as_ref().is_some_and(|k| k.len() < 16) {
            return Err(ConfigLoadError::Invalid("operator_key must be at least 16 characters".into()));
        }
        // A second at least, a thousand years at most (milliseconds fit easily).
        if !(self.session_idle_days.is_finite()
            && self.session_idle_days * 86_400.0 >= 1.0
            && self.session_idle_days <= 365_000.0)
        {
            return Err(ConfigLoadError::Invalid("session_idle_days must be between 1 second and 365000 days".into()));
        }
        if self.database_idle_secs == 0 {
            return Err(ConfigLoadError::Invalid("database_idle_secs must be at least 1".into()));
        }
        if self.session_cache == 0 {
            return Err(ConfigLoadError::Invalid("session_cache must be at least 1".into()));
        }
        if self.header_timeout_ms == 0 || self.hello_timeout_ms == 0 {
            return Err(ConfigLoadError::Invalid("header_timeout_ms and hello_timeout_ms must be at least 1".into()));
        }
        if self.jwt_secret.as_ref().is_some_and(|k| k.len() < 32) {
            return Err(ConfigLoadError::Invalid("jwt_secret must be at least 32 bytes".into()));
        }
        if (self.jwt_secret.is_some() || self.jwt_jwks_file.is_some()) && self.jwt_audience.is_none() {
            return Err(ConfigLoadError::Invalid("jwt_audience is required when JWTs are accepted".into()));
        }
        if !self.guest_sessions && self.jwt_secret.is_none() && self.jwt_jwks_file.is_none() {
            return Err(ConfigLoadError::Invalid(
                "guest_sessions = false leaves no way to sign in: configure JWTs (jwt_secret or jwt_jwks_file)".into(),
            ));
        }
        if self.tables_per_variant > 10_000 {
            return Err(ConfigLoadError::Invalid("at most 10000 tables per variant".into()));
        }
        self.validate_cluster()
    }

    /// The cluster settings: all or nothing, on Postgres, with a node name fit for a subject.
    fn validate_cluster(&self) -> Result<(), ConfigLoadError> {
        if !(1..=5).contains(&self.cluster_replicas) {
            return Err(ConfigLoadError::Invalid("cluster_replicas must be 1 to 5 (JetStream's limit)".into()));
        }
        let nats_files =
            [&self.nats_creds, &self.nats_nkey_file, &self.nats_tls_ca, &self.nats_tls_cert, &self.nats_tls_key];
        let Some(url) = &self.cluster else {
            if nats_files.iter().any(|f| f.is_some()) {
                return Err(ConfigLoadError::Invalid(
                    "NATS credentials and TLS files (STUD_NATS_*) need a cluster (STUD_CLUSTER)".into(),
                ));
            }
            if self.role.is_some() || self.node.is_some() {
                return Err(ConfigLoadError::Invalid(
                    "role and node (STUD_ROLE, STUD_NODE, --role, --node) need a cluster (STUD_CLUSTER, --cluster nats://HOST:PORT)"
                        .into(),
                ));
            }
            return Ok(());
        };
        if !(url.starts_with("nats://") || url.starts_with("tls://")) {
            return Err(ConfigLoadError::Invalid(format!(
                "cluster {:?} must start with nats:// or tls://",
                redact_url(url)
            )));
        }
        if self.nats_tls_cert.is_some() != self.nats_tls_key.is_some() {
            return Err(ConfigLoadError::Invalid(
                "a NATS client certificate needs its key: STUD_NATS_TLS_CERT and STUD_NATS_TLS_KEY together".into(),
            ));
        }
        if self.nats_creds.is_some() && self.nats_nkey_file.is_some() {
            return Err(ConfigLoadError::Invalid(
                "sign in to NATS with a credentials file or an nkey, not both (STUD_NATS_CREDS, STUD_NATS_NKEY_FILE)"
                    .into(),
            ));
        }
        if !(self.database_url.starts_with("postgres://") || self.database_url.starts_with("postgresql://")) {
            return Err(ConfigLoadError::Invalid(
                "a cluster keeps hands, the ledger and sessions in one shared Postgres: database_url must be postgres://".into(),
            ));
        }
        let Some(node) = &self.node else {
            return Err(ConfigLoadError::Invalid("a cluster node needs a name: STUD_NODE or --node NAME".into()));
        };
        if node.is_empty()
            || node.len() > 64
            || !node.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(ConfigLoadError::Invalid(format!(
                "node {node:?}: 1 to 64 letters, digits, '-' or '_' (it names NATS subjects)"
            )));
        }
        Ok(())
    }

    /// The cluster role: `None` without a cluster, `all` when not given.
    pub fn cluster_role(&self) -> Option<Role> {
        self.cluster.as_ref().map(|_| self.role.unwrap_or(Role::All))
    }

    /// The engine configuration of a public table of `variant`.
    pub fn table_config(&self, variant: Variant) -> TableConfig {
        let s = &self.stakes;
        TableConfig::new(variant, s.ante, s.bring_in, s.small_bet, s.big_bet)
    }

    /// The store's connection pools.
    pub fn pool_settings(&self) -> stud_store::PoolSettings {
        stud_store::PoolSettings { idle_timeout: Duration::from_secs(self.database_idle_secs) }
    }

    /// How long a guest session may go unused, milliseconds.
    pub fn session_idle_ms(&self) -> u64 {
        // validate() keeps it between 1 s and 365000 days: the cast neither truncates to 0 nor
        // saturates.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let ms = (self.session_idle_days * 86_400_000.0).round() as u64;
        ms.max(1)
    }

    /// Action time as a duration.
    pub fn action_timeout(&self) -> Duration {
        Duration::from_millis(self.action_timeout_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn the_journal_goes_to_files_beside_a_sqlite_file_and_to_the_database_otherwise() {
        let place = |url: &str, journal: Option<&str>| {
            Config { database_url: url.into(), journal: journal.map(str::to_owned), ..Config::default() }
                .journal_place()
        };
        let files = |p: &str| JournalPlace::Files(p.into());
        assert_eq!(place("sqlite://stud.db", None), files("stud.db.journal"));
        assert_eq!(place("sqlite:///var/lib/stud/s.db?mode=rwc", None), files("/var/lib/stud/s.db.journal"));
        assert_eq!(place("sqlite::memory:", None), JournalPlace::Database);
        assert_eq!(place("postgres://u@h/db", None), JournalPlace::Database);
        assert_eq!(place("sqlite://stud.db", Some("database")), JournalPlace::Database);
        assert_eq!(place("postgres://u@h/db", Some("/srv/journal")), files("/srv/journal"));
        let cluster = Config {
            cluster: Some("nats://127.0.0.1:4222".into()),
            database_url: "postgres://u@h/db".into(),
            journal: Some("/j".into()),
            ..Config::default()
        };
        let refused = cluster.validate().map_err(|e| e.to_string());
        assert!(refused.as_ref().is_err_and(|e| e.contains("JetStream")), "{refused:?}");
    }

    #[test]
    fn defaults_are_the_two_four_game_on_8080() {
        let c = Config::load_from(None, &[]).unwrap();
        assert_eq!(c.bind.port(), 8080);
        assert_eq!((c.stakes.ante, c.stakes.bring_in, c.stakes.small_bet, c.stakes.big_bet), (40, 50, 200, 400));
        assert_eq!(c.action_timeout_ms, 15_000);
        assert_eq!(c.time_bank_ms, 30_000);
    }

    #[test]
    fn environment_overrides_and_bad_values_are_named() {
        let c =
            Config::load_from(None, &env(&[("STUD_BIND", "127.0.0.1:0"), ("STUD_TABLES_PER_VARIANT", "3")])).unwrap();
        assert_eq!(c.bind.port(), 0);
        assert_eq!(c.tables_per_variant, 3);
        let err = Config::load_from(None, &env(&[("STUD_BIND", "nowhere")])).unwrap_err().to_string();
        assert!(err.contains("STUD_BIND"), "{err}");
        let err = Config::load_from(None, &env(&[("STUD_BRING_IN", "0")])).unwrap_err().to_string();
        assert!(err.contains("bring_in"), "{err}");
    }

    #[test]
    fn idle_database_connections_close_after_the_configured_time() {
        assert_eq!(Config::default().pool_settings().idle_timeout, Duration::from_secs(600));
        let c = Config::load_from(None, &env(&[("STUD_DATABASE_IDLE_SECS", "30")])).unwrap();
        assert_eq!(c.pool_settings(), stud_store::PoolSettings { idle_timeout: Duration::from_secs(30) });
        let err = Config::load_from(None, &env(&[("STUD_DATABASE_IDLE_SECS", "0")])).unwrap_err().to_string();
        assert!(err.contains("database_idle_secs"), "{err}");
        let err = Config::load_from(None, &env(&[("STUD_DATABASE_IDLE_SECS", "soon")])).unwrap_err().to_string();
        assert!(err.contains("STUD_DATABASE_IDLE_SECS"), "{err}");
    }

    #[test]
    fn debug_shows_no_secret() {
        let key = "operator-key-0123456789-secret";
        let c = Config {
            operator_key: Some(key.into()),
            database_url: "postgres://stud:hunter2-pw@db.example:5432/stud?sslmode=require".into(),
            ..Config::default()
        };
        let text = format!("{c:?}");
        assert!(!text.contains(key) && !text.contains("hunter2"), "{text}");
        // The rest is still there to read.
        assert!(text.contains("postgres://stud:<redacted>@db.example:5432/stud?sslmode=require"), "{text}");
        assert!(text.contains("operator_key: Some(\"<redacted>\")"), "{text}");
        assert!(text.contains("max_body_bytes: 16384"), "{text}");
        let pretty = format!("{c:#?}");
        assert!(!pretty.contains(key) && !pretty.contains("hunter2"), "{pretty}");
        assert_eq!(redact_url("sqlite://stud.db"), "sqlite://stud.db");
        assert_eq!(redact_url("postgres://user@host/db"), "postgres://user@host/db");
        assert_eq!(redact_url("postgres://u:p@ss@host/db"), "postgres://u:<redacted>@host/db");
        assert_eq!(redact_url("postgres://host/db?x=a@b"), "postgres://host/db?x=a@b");
    }

    #[test]
    fn file_is_read_and_unknown_keys_are_errors() {
        let dir = std::env::temp_dir().join(format!("stud-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.toml");
        std::fs::write(&good, "tables_per_variant = 2\n[stakes]\nante = 10\nbring_in = 20\nsmall_bet = 40\nbig_bet = 80\nmin_buy_in = 800\nmax_buy_in = 8000\n").unwrap();
        let c = Config::load_from(good.to_str(), &[]).unwrap();
        assert_eq!((c.tables_per_variant, c.stakes.big_bet), (2, 80));
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "tables_per_varient = 2\n").unwrap();
        let err = Config::load_from(bad.to_str(), &[]).unwrap_err().to_string();
        assert!(err.contains("tables_per_varient"), "{err}");
        assert!(Config::load_from(Some("/nonexistent/stud.toml"), &[]).is_err());
    }

    #[test]
    fn trusted_proxies_are_addresses() {
        let c = Config::load_from(None, &env(&[("STUD_TRUSTED_PROXIES", "10.0.0.1, ::1")])).unwrap();
        assert_eq!(c.trusted_proxies, vec!["10.0.0.1".parse::<std::net::IpAddr>().unwrap(), "::1".parse().unwrap()]);
        let err = Config::load_from(None, &env(&[("STUD_TRUSTED_PROXIES", "proxy")])).unwrap_err().to_string();
        assert!(err.contains("STUD_TRUSTED_PROXIES"), "{err}");
    }

    #[test]
    fn cluster_settings_are_all_or_nothing() {
        let pg = ("DATABASE_URL", "postgres://u@h/db");
        let c = Config::load_from(
            None,
            &env(&[("STUD_CLUSTER", "nats://127.0.0.1:4222"), ("STUD_NODE", "w-1"), ("STUD_ROLE", "worker"), pg]),
        )
        .unwrap();
        assert_eq!(c.cluster_role(), Some(Role::Worker));
        let c = Config::load_from(None, &env(&[("STUD_CLUSTER", "nats://h:4222"), ("STUD_NODE", "a"), pg])).unwrap();
        assert_eq!(c.cluster_role(), Some(Role::All), "all by default");
        assert_eq!(Config::default().cluster_role(), None);
        let tls = [("STUD_NATS_TLS_CA", "/ca.pem"), ("STUD_NATS_TLS_CERT", "/c.pem"), ("STUD_NATS_TLS_KEY", "/k.pem")];
        let c = Config::load_from(
            None,
            &env(&[&[("STUD_CLUSTER", "tls://h:4222"), ("STUD_NODE", "a"), pg][..], &tls].concat()),
        )
        .unwrap();
        assert_eq!((c.nats_tls_ca.as_deref(), c.nats_tls_key.as_deref()), (Some("/ca.pem"), Some("/k.pem")));
        let bad = [
            (vec![("STUD_ROLE", "worker")], "need a cluster"),
            (vec![("STUD_NODE", "n1")], "need a cluster"),
            (vec![("STUD_CLUSTER", "nats://h:4222"), ("STUD_NODE", "n1")], "postgres"),
            (vec![("STUD_CLUSTER", "nats://h:4222"), pg], "needs a name"),
            (vec![("STUD_CLUSTER", "nats://h:4222"), ("STUD_NODE", "a.b"), pg], "letters"),
            (vec![("STUD_CLUSTER", "http://h:4222"), ("STUD_NODE", "a"), pg], "nats://"),
            (vec![("STUD_ROLE", "boss")], "STUD_ROLE"),
            (vec![("STUD_NATS_NKEY_FILE", "/k.nk")], "need a cluster"),
            (
                vec![("STUD_CLUSTER", "nats://h:4222"), ("STUD_NODE", "a"), ("STUD_NATS_TLS_CERT", "/c.pem"), pg],
                "together",
            ),
            (
                vec![
                    ("STUD_CLUSTER", "nats://h:4222"),
                    ("STUD_NODE", "a"),
                    ("STUD_NATS_CREDS", "/u.creds"),
                    ("STUD_NATS_NKEY_FILE", "/k.nk"),
                    pg,
                ],
                "not both",
            ),
        ];
        for (vars, says) in bad {
            let err = Config::load_from(None, &env(&vars)).unwrap_err().to_string();
            assert!(err.contains(says), "{vars:?}: {err}");
        }
    }
}
