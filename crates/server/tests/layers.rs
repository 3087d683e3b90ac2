//! The server crate's layer table (ARCHITECTURE.md, `crates/server`): every module uses only
//! modules on lower layers, every file is placed, no circles. Test code is exempt. "Where does
//! X go?" is answered here: put it on the lowest layer whose modules it needs, and give a new
//! file its row on purpose.

use std::path::Path;

/// Lowest first. A new file fails this test until it has a row.
const LAYERS: &[(&str, u32)] = &[
    // The foundation: settings, counters, who is asking, the wire's one serializer.
    ("config", 0),  // Config: parsed once at start
    ("metrics", 0), // counters and their text
    ("session", 0), // Session (a login, its token a secret) and Sessions (the cache of them)
    ("wire", 0),    // every conversion of engine and store values to wire types
    // Policies and ports.
    ("auth", 1),          // invite-code and key comparison
    ("auth::jwt", 1),     // the JWT verifier, built once at start
    ("limits", 1),        // rate and connection limiters
    ("journal", 1),       // the Journal port (the store's and its stats)
    ("outbox", 1),        // a socket's outbound queue
    ("journal::file", 2), // FileJournal: the Journal port in segment files, one syncing thread
    // What a table is to the rest of the server, and pure parts of tournaments.
    ("table::handle", 2),      // TableCmd, TableHandle, Conn, RemoteTables: the way into a table
    ("table::spec", 2),        // SpecExt: a TableSpec made, stored and read back
    ("table::env", 2),         // TableEnv: what a table task needs of the server; Start
    ("tournament", 2),         // TournamentCmd, TournamentHandle, Tournaments, Refusal
    ("tournament::tables", 2), // a tournament table's id and spec
    ("wire::tournament", 0),   // a tournament's wire views
    // The parts of the shared state, each the one owner of its state.
    ("access", 3),  // Access: bans, private tables' codes, wrong-code counters
    ("bank", 3),    // Bank: play-money balances, chips issued
    ("lobby", 3),   // Lobby: tables' handles and lobby lines
    ("players", 3), // Players: each player's open sockets and seats
    // The table task (and a tournament's resync with its tables).
    ("table::delivery", 3),    // subscribers' outboxes, lagging clients
    ("tournament::resync", 3), // a tournament and its tables agreeing after a restart
    ("table::actor", 4),       // the table task: receive, journal, apply, deliver
    ("table", 5),              // spawn_table_with (re-exports its children's names)
    // The state every connection, route and table shares.
    ("app", 6), // App: the parts plus config, store, writer, journal; sessions' life; TableEnv for App
    // What runs on the shared state.
    ("resume", 7),            // rebuilding tables from their journals at start
    ("tournament::actor", 7), // a tournament's task (it opens and drives its tables)
    ("http::error", 7),       // ApiError and every From<_> for it
    ("ws", 8),                // a WebSocket connection
    ("ws::strict", 0),        // the strict JSON frame parser (pure)
    ("ws::codec", 0),         // RFC 6455 framing, the server's side (pure)
    ("ws::socket", 2),        // a WebSocket's bytes: messages read, queued frames written
    ("http::extract", 8),     // Operator, Caller, PathId, Params, Body
    ("http::shared", 9),      // what several routes do: audit line, own session, ledger page, client IP
    // Routes: each uses http's error, extract and shared modules and the layers below, never a sibling.
    ("http::admin", 10),
    ("http::history", 10),
    ("http::sessions", 10),
    ("http::tournaments", 10),
    ("http::web", 10),
    ("http", 11), // the router, the server loop, health, metrics, the WebSocket upgrade
    // The cluster (`--cluster`): NATS JetStream journal, leases, workers, gateways.
    ("cluster::nats", 7),      // ClusterConfig, ClusterError, connect, KV buckets
    ("cluster::plan", 7),      // which tables a worker claims (pure)
    ("cluster::wire", 7),      // the subjects and messages between gateways and workers
    ("cluster::lease", 8),     // table leases in a KV bucket
    ("cluster::outbound", 8),  // a worker's frames, coalesced per gateway
    ("cluster::journal", 9),   // JetStreamJournal: fenced appends
    ("cluster::gateway", 10),  // implements RemoteTables: sockets here, tables on workers
    ("cluster::worker", 10),   // hosts the tables it holds leases for
    ("cluster::director", 10), // implements tournament::Directing: tournaments directed by one gateway
    ("cluster", 11),           // Node (re-exports)
    ("crate", 12),             // lib.rs: the composition root (start, shutdown); nothing imports it
];

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    if let Err(errors) = stud_tidy::check(&src, LAYERS) {
        panic!("the server's layer table is broken:\n{}", errors.join("\n"));
    }
}
