//! `stud load`: real WebSocket bot clients against a running server.
//!
//! Each bot creates a guest session, sits at one of the first N public tables and plays with
//! the engine's one bot policy (`stud_engine::bot::Bot`, seeded per bot: random but legal). Latency is measured from sending an action to receiving the table update
//! that shows it. Prints one JSON line at the end, with the servers' own CPU, memory and frames
//! over the measured window (`"server"`, read from their `/metrics`; null if it cannot be read).

use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::Args;
use stud_client::{Client, ClientError, create_session, host_port, tables};
use stud_engine::Action;
use stud_engine::bot::Bot as Policy;
use stud_proto::ClientMsg;
use uuid::Uuid;

#[derive(Args, Clone)]
pub struct LoadArgs {
    /// The server, e.g. ws://127.0.0.1:8080. A cluster's gateways: several, comma separated;
    /// a table's bots are spread over them by seat, and a bot that loses its gateway (with
    /// `--reconnect`) comes back through the next one.
    #[arg(long, default_value = "ws://127.0.0.1:8080")]
    url: String,
    /// Play at the first N tables of the public lobby.
    #[arg(long, default_value_t = 1)]
    tables: usize,
    /// Bots per table (2..=8).
    #[arg(long, default_value_t = 8)]
    players_per_table: u8,
    /// How long to play, in seconds (`30` or `30s`).
    #[arg(long, default_value = "10", value_parser = parse_seconds)]
    duration: f64,
    /// Think time before each action, milliseconds, counted from the prompt's arrival (a
    /// reconnect in between does not start it again: the player thinks on while the client
    /// comes back, and the socket is read meanwhile). With little or none, a bot acts more
    /// often than a server's per-connection message limit allows (STUD_MESSAGES_PER_SECOND,
    /// 20 by default): its refused actions count as errors; set the limit to 0 on the server
    /// for such a run.
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Seconds of play before measuring (connecting and seating thousands of bots takes a
    /// while); not counted in `--duration` or in any figure.
    #[arg(long, default_value = "5", value_parser = parse_seconds_or_zero)]
    warmup: f64,
    /// When the server goes away, reconnect with the same token (every 50 ms until it
    /// answers) and play on; reports `reconnects`, `back_at_table_ms` (from losing the socket
    /// to the table's snapshot after coming back) and `resume_gap_ms` (to the first event,
    /// turn or prompt after it: the table plays again).
    #[arg(long)]
    reconnect: bool,
    /// Also open this many sockets that create a guest session, say hello and then only
    /// read until the end (idle connections: the server's memory per socket is the point);
    /// reported as `idle_sockets`, those that got their welcome. With `--tables 0`, only these.
    #[arg(long, default_value_t = 0)]
    idle: usize,
    /// Register `--players` bots for this tournament instead, play until every one is
    /// placed, and print `{"entrants", "hands", "duration_s", "winner", "payouts", "errors",
    /// "moves", "rebuys", "addons", "bounties_paid"}` (`--tables`, `--players-per-table`, `--duration` and
    /// `--warmup` do not apply).
    #[arg(long, requires = "players")]
    tournament: Option<Uuid>,
    /// With `--tournament`: how many bots register.
    #[arg(long, requires = "tournament")]
    players: Option<usize>,
    /// With `--tournament`: the bots buy every rebuy and add-on they are offered
    /// (`tournament_offer`); the line adds `rebuys` and `addons`, the tournament's counts.
    #[arg(long, requires = "tournament")]
    rebuy: bool,
}

fn parse_seconds_or_zero(s: &str) -> Result<f64, String> {
    if s.trim() == "0" { Ok(0.0) } else { parse_seconds(s) }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    let t = s.trim().trim_end_matches('s');
    t.parse::<f64>().ok().filter(|v| *v > 0.0).ok_or_else(|| format!("not a duration in seconds: {s}"))
}

#[derive(Default)]
struct BotStats {
    hands: u64,
    actions: u64,
    latencies_us: Vec<u64>,
    errors: u64,
    disconnects: u64,
    reconnects: u64,
    /// from losing the socket to the table's snapshot after the reconnect
    back_us: Vec<u64>,
    /// from losing the socket to the first event, turn or prompt after the reconnect
    gaps_us: Vec<u64>,
}

pub fn run(args: &LoadArgs) -> anyhow::Result<()> {
    if let (Some(tournament), Some(players)) = (args.tournament, args.players) {
        let runtime =
            tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
        let think = Duration::from_millis(args.think_ms);
        // Bot k connects to the k-th server named (round robin): a cluster's gateways.
        let urls: Vec<&str> = args.url.split(',').map(str::trim).filter(|u| !u.is_empty()).collect();
        return runtime.block_on(crate::load_tournament::run(&urls, tournament, players, think, args.rebuy));
    }
    if !(2..=8).contains(&args.players_per_table) {
        bail!("--players-per-table must be 2..=8");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(load(args.clone()))
}

async fn load(args: LoadArgs) -> anyhow::Result<()> {
    let addrs: std::sync::Arc<Vec<String>> =
        std::sync::Arc::new(args.url.split(',').map(str::trim).filter(|u| !u.is_empty()).map(host_port).collect());
    let Some(first) = addrs.first() else { bail!("--url names no server") };
    let lobby = tables(first).await.context("reading the lobby")?;
    if lobby.len() < args.tables {
        bail!(
            "the lobby has {} tables, {} asked for (start the server with --tables-per-variant)",
            lobby.len(),
            args.tables
        );
    }
    let start = Instant::now() + Duration::from_secs_f64(args.warmup);
    let end = start + Duration::from_secs_f64(args.duration);
    let mut tasks = Vec::new();
    // Logins a few dozen at a time: thousands at once would measure the database's login
    // storm (each is a transaction), not play.
    let logins = std::sync::Arc::new(tokio::sync::Semaphore::new(LOGINS_IN_FLIGHT));
    for (t, table) in lobby.iter().take(args.tables).enumerate() {
        for seat in 1..=args.players_per_table {
            let addrs = addrs.clone();
            let (table_id, buy_in) = (table.id, table.max_buy_in);
            let think = Duration::from_millis(args.think_ms);
            let counts_hands = seat == 1;
            let seed = (t as u64) << 8 | u64::from(seat);
            let reconnect = args.reconnect;
            let logins = logins.clone();
            tasks.push(tokio::spawn(async move {
                let mut stats = BotStats::default();
                let window = (start, end);
                let home = usize::from(seat) % addrs.len();
                let bot =
                    Bot { addrs: &addrs, home, table_id, seat, buy_in, think, window, counts_hands, seed, logins };
                if let Err(e) = bot.run(reconnect, &mut stats).await {
                    tracing::debug!(error = %e, "bot stopped");
                    stats.disconnects += 1;
                }
                stats
            }));
        }
    }
    let mut idle = Vec::new();
    for i in 0..args.idle {
        let (addr, logins) = (addrs[i % addrs.len()].clone(), logins.clone());
        idle.push(tokio::spawn(async move { hold_idle(&addr, i, &logins, end).await }));
    }
    let watcher = tokio::spawn(watch_servers(addrs.clone(), start, end));
    let mut total = BotStats::default();
    for task in tasks {
        let s = task.await.unwrap_or_default();
        total.hands += s.hands;
        total.actions += s.actions;
        total.errors += s.errors;
        total.disconnects += s.disconnects;
        total.reconnects += s.reconnects;
        total.latencies_us.extend(s.latencies_us);
        total.gaps_us.extend(s.gaps_us);
        total.back_us.extend(s.back_us);
    }
    let mut idle_sockets = 0usize;
    for task in idle {
        idle_sockets += usize::from(matches!(task.await, Ok(Ok(()))));
    }
    total.gaps_us.sort_unstable();
    total.back_us.sort_unstable();
    total.latencies_us.sort_unstable();
    // The `p` quantile of sorted microseconds, in milliseconds (0 when there is none).
    let at = |v: &[u64], p: f64| -> f64 {
        let i = ((v.len().max(1) as f64 - 1.0) * p).round() as usize;
        v.get(i).copied().unwrap_or(0) as f64 / 1000.0
    };
    let gap = |p: f64| at(&total.gaps_us, p);
    let back = |p: f64| at(&total.back_us, p);
    let pct = |p: f64| at(&total.latencies_us, p);
    let elapsed = args.duration;
    println!(
        "{}",
        serde_json::json!({
            "hands": total.hands,
            "hands_per_s": (total.hands as f64 / elapsed * 10.0).round() / 10.0,
            "actions_per_s": (total.actions as f64 / elapsed * 10.0).round() / 10.0,
            "latency_ms": {"p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0)},
            "errors": total.errors,
            "disconnects": total.disconnects,
            "reconnects": total.reconnects,
            "back_at_table_ms": {"p50": back(0.5), "p90": back(0.9), "max": back(1.0)},
            "resume_gap_ms": {"p50": gap(0.5), "p90": gap(0.9), "max": gap(1.0)},
            "idle_sockets": idle_sockets,
            "server": watcher.await.ok().flatten().map(|w| w.json(elapsed)),
        })
    );
    Ok(())
}

/// One idle socket: a guest session, `hello`, then reading (and dropping) whatever comes until
/// `end`. `Ok` if it got its welcome and held the socket to the end.
async fn hold_idle(addr: &str, i: usize, logins: &tokio::sync::Semaphore, end: Instant) -> Result<(), ClientError> {
    let permit = logins.acquire().await.map_err(|_| ClientError::Closed)?;
    let session = create_session(addr, &format!("idle{i}")).await?;
    let (mut client, _) = Client::connect(addr, &session.token).await?;
    drop(permit);
    loop {
        match client.recv_text(end.saturating_duration_since(Instant::now()).max(Duration::from_millis(1))).await {
            Ok(_) => {}
            Err(ClientError::Timeout) => return Ok(()),
            Err(e) => return Err(e),
        }
    }
}

/// The servers' own figures from their `/metrics` (`process_*` and `stud_frames_total`),
/// read when the measured window opens, every second in it, and when it closes.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct ServerFigures {
    cpu_seconds: f64,
    resident_bytes: f64,
    peak_resident_bytes: f64,
    frames: f64,
}

/// What the servers did over the window: CPU and memory are summed over every address given
/// (a cluster's gateways; its workers are not seen here), frames are the first server's
/// count (a gateway already adds its workers' tables).
struct ServerWindow {
    start: ServerFigures,
    end: ServerFigures,
    /// the largest summed resident size seen in a one-second sample
    max_resident_bytes: f64,
}

impl ServerWindow {
    fn json(&self, seconds: f64) -> serde_json::Value {
        let mb = |b: f64| (b / 1e5).round() / 10.0;
        serde_json::json!({
            "cpu_cores": ((self.end.cpu_seconds - self.start.cpu_seconds) / seconds * 100.0).round() / 100.0,
            "rss_mb": mb(self.end.resident_bytes),
            "rss_max_mb": mb(self.max_resident_bytes.max(self.end.resident_bytes)),
            "peak_rss_mb": mb(self.end.peak_resident_bytes),
            "frames_per_s": ((self.end.frames - self.start.frames) / seconds).round(),
        })
    }
}

/// The figures of one `/metrics` text (`None` without the process figures: another server,
/// or a system without `/proc`).
fn server_figures(text: &str) -> Option<ServerFigures> {
    let value =
        |name: &str| text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse::<f64>().ok());
    Some(ServerFigures {
        cpu_seconds: value("process_cpu_seconds_total")?,
        resident_bytes: value("process_resident_memory_bytes")?,
        peak_resident_bytes: value("stud_process_peak_resident_memory_bytes")?,
        frames: value("stud_frames_total").unwrap_or(0.0),
    })
}

/// Every server's figures summed (frames: the first server's); `None` if one cannot be read.
async fn read_servers(addrs: &[String]) -> Option<ServerFigures> {
    let mut sum = ServerFigures::default();
    for (i, addr) in addrs.iter().enumerate() {
        let (status, body) = stud_client::http(addr, "GET", "/metrics", None).await.ok()?;
        let f = server_figures(&body).filter(|_| status == 200)?;
        sum.cpu_seconds += f.cpu_seconds;
        sum.resident_bytes += f.resident_bytes;
        sum.peak_resident_bytes += f.peak_resident_bytes;
        if i == 0 {
            sum.frames = f.frames;
        }
    }
    Some(sum)
}

/// Reads the servers at `start`, each second, and at `end`.
async fn watch_servers(addrs: std::sync::Arc<Vec<String>>, start: Instant, end: Instant) -> Option<ServerWindow> {
    tokio::time::sleep_until(start.into()).await;
    let first = read_servers(&addrs).await?;
    let mut max_resident_bytes = first.resident_bytes;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    while Instant::now() + Duration::from_secs(1) < end {
        tick.tick().await;
        if let Some(f) = read_servers(&addrs).await {
            max_resident_bytes = max_resident_bytes.max(f.resident_bytes);
        }
    }
    tokio::time::sleep_until(end.into()).await;
    let last = read_servers(&addrs).await?;
    Some(ServerWindow { start: first, end: last, max_resident_bytes })
}

/// The few fields of a server frame the bots look at.
#[derive(serde::Deserialize)]
struct Frame<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    seq: Option<u64>,
    hand_id: Option<Uuid>,
    #[serde(default)]
    legal: Vec<Action>,
    /// big-bet stud: the wagers' ranges (sizes are picked anywhere in them)
    #[serde(default)]
    wagers: Vec<stud_engine::LegalEntry>,
    #[serde(borrow)]
    event: Option<FrameEvent<'a>>,
}

/// The few fields of a snapshot the bots look at (a reconnect storm brings thousands at once:
/// the whole message's parse was the generator's largest cost there).
#[derive(serde::Deserialize)]
struct SnapshotFrame {
    table: SnapshotTable,
}

#[derive(serde::Deserialize)]
struct SnapshotTable {
    max_buy_in: u64,
    seats: Vec<SnapshotSeat>,
    your_seat: Option<u8>,
}

#[derive(serde::Deserialize)]
struct SnapshotSeat {
    seat: u8,
    stack: u64,
    sitting_out: bool,
}

#[derive(serde::Deserialize)]
struct FrameEvent<'a> {
    #[serde(rename = "event", borrow)]
    kind: &'a str,
    seat: Option<u8>,
    automatic: Option<bool>,
}

/// What a bot carries over a lost connection.
#[derive(Default)]
struct Carry {
    /// when the socket was lost, until the table plays again
    gone: Option<Instant>,
    /// when the socket was lost, until the table's snapshot
    back: Option<Instant>,
    /// the last idempotency key given to a decision (keys go on across reconnects: the server
    /// remembers the recent ones)
    key: u64,
    /// the prompt being answered
    thought: Option<Thought>,
}

/// A decision in the making: the prompt it answers, when it is due (the prompt's arrival plus
/// the think time), its key, and the action once chosen. The socket is read while the bot
/// thinks, so a lost server is seen at once, as a browser sees it, not when the think ends.
struct Thought {
    hand_id: Uuid,
    seq: u64,
    due: Instant,
    legal: Vec<Action>,
    wagers: Vec<stud_engine::LegalEntry>,
    key: u64,
    /// chosen at the first send; a send again (the server did not take it) repeats it
    action: Option<Action>,
    /// sent, or the socket was lost: nothing is sent until the server prompts again
    waiting: bool,
}

struct Bot<'a> {
    /// the servers (a cluster's gateways), and the one this bot uses first
    addrs: &'a [String],
    home: usize,
    table_id: Uuid,
    seat: u8,
    buy_in: u64,
    think: Duration,
    window: (Instant, Instant),
    counts_hands: bool,
    seed: u64,
    logins: std::sync::Arc<tokio::sync::Semaphore>,
}

/// Guest sessions created at once by the load generator.
const LOGINS_IN_FLIGHT: usize = 32;

impl Bot<'_> {
    /// Sits and plays until the end of the window; with `reconnect`, comes back after the
    /// server went away (its `hello` gives the seat back).
    async fn run(&self, reconnect: bool, stats: &mut BotStats) -> Result<(), ClientError> {
        let permit = self.logins.acquire().await;
        let mut at = self.home;
        let addr = |i: usize| self.addrs[i % self.addrs.len()].as_str();
        let session = create_session(addr(at), &format!("bot-{}-{}", self.seat, self.seed >> 8)).await?;
        drop(permit);
        let (mut client, _) = Client::connect(addr(at), &session.token).await?;
        let sit = ClientMsg::Sit {
            request_id: None,
            table_id: self.table_id,
            invite_code: None,
            seat: Some(self.seat),
            buy_in: self.buy_in,
        };
        client.send(&sit).await?;
        // The engine's bot policy (the one `stud sim` and the benches use), seeded per bot.
        let mut rng = Policy::new(self.seed);
        let mut carry = Carry::default();
        loop {
            match self.play(&mut client, &mut rng, &mut carry, stats).await {
                Ok(()) => return Ok(()),
                Err(e) if !reconnect => return Err(e),
                Err(_) => {
                    let lost = Instant::now();
                    carry.gone = Some(lost);
                    carry.back = Some(lost);
                    // Whatever was being decided waits for the server's prompt again: it comes
                    // with the table's snapshot when the turn is still ours.
                    if let Some(thought) = carry.thought.as_mut() {
                        thought.waiting = true;
                    }
                    stats.reconnects += 1;
                    client = loop {
                        if Instant::now() >= self.window.1 {
                            return Ok(());
                        }
                        // The next server first (a cluster's other gateway), then round.
                        at += 1;
                        match Client::connect(addr(at), &session.token).await {
                            Ok((c, _)) => break c,
                            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                        }
                    };
                }
            }
        }
    }

    async fn play(
        &self,
        client: &mut Client,
        rng: &mut Policy,
        carry: &mut Carry,
        stats: &mut BotStats,
    ) -> Result<(), ClientError> {
        let Bot { table_id, seat, think, window: (start, end), counts_hands, seed, .. } = *self;
        let mut last_seq = 0u64;
        let mut pending: Option<Instant> = None;
        // Sitting in again was asked for: every snapshot until it is taken says we sit out,
        // and asking again would top up twice (refused) and count errors of our own making.
        let mut sitting_in = false;
        while Instant::now() < end {
            if let Some(thought) = carry.thought.as_mut().filter(|t| !t.waiting && t.due <= Instant::now()) {
                let action = match thought.action {
                    Some(again) => again,
                    None => {
                        let chosen = rng.choose_sized(&thought.legal, &thought.wagers);
                        thought.action = Some(chosen);
                        if Instant::now() >= start {
                            stats.actions += 1;
                        }
                        chosen
                    }
                };
                thought.waiting = true;
                pending = Some(Instant::now());
                client
                    .send(&ClientMsg::Act {
                        request_id: None,
                        table_id,
                        hand_id: thought.hand_id,
                        seq: thought.seq,
                        idempotency_key: format!("{seed}-{}", thought.key),
                        action,
                    })
                    .await?;
            }
            // Read until the end of the window or until the decision in the making is due.
            let wake = carry.thought.as_ref().filter(|t| !t.waiting).map_or(end, |t| t.due.min(end));
            let text = match client
                .recv_text(wake.saturating_duration_since(Instant::now()).max(Duration::from_millis(1)))
                .await
            {
                Ok(t) => t,
                Err(ClientError::Timeout) => continue,
                Err(e) => return Err(e),
            };
            // Most frames are only looked at for a few fields: parse those, not the whole message,
            // so the load generator is not the bottleneck it measures.
            let Ok(frame) = serde_json::from_str::<Frame<'_>>(&text) else {
                stats.errors += 1;
                continue;
            };
            if let Some(lost) = carry.gone.take_if(|_| matches!(frame.kind, "event" | "turn" | "your_turn")) {
                // Playing again after the server came back.
                stats.gaps_us.push(u64::try_from(lost.elapsed().as_micros()).unwrap_or(u64::MAX));
            }
            if let Some(lost) = carry.back.take_if(|_| frame.kind == "snapshot") {
                // At the table again (its state as it is now).
                stats.back_us.push(u64::try_from(lost.elapsed().as_micros()).unwrap_or(u64::MAX));
            }
            if let Some(seq) = frame.seq {
                if seq > last_seq + 1 && last_seq > 0 && frame.kind != "snapshot" {
                    client.send(&ClientMsg::Snapshot { request_id: None, table_id }).await?;
                }
                last_seq = last_seq.max(seq);
            }
            match frame.kind {
                "event" => {
                    let mine = frame.event.as_ref().is_some_and(|e| {
                        e.seat == Some(seat)
                            && matches!(
                                e.kind,
                                "bring_in" | "complete" | "bet" | "raise" | "call" | "check" | "fold" | "mucked"
                            )
                            || (e.kind == "shown" && e.seat == Some(seat) && e.automatic == Some(false))
                    });
                    if mine {
                        // The turn is over (our action, or the server's for us).
                        carry.thought = None;
                        if let Some(sent) = pending.take().filter(|t| *t >= start) {
                            stats.latencies_us.push(u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX));
                        }
                    }
                }
                "your_turn" => {
                    let (Some(seq), Some(hand_id)) = (frame.seq, frame.hand_id) else { continue };
                    if frame.legal.is_empty() {
                        continue;
                    }
                    // Prompted again (after a reconnect): a decision not sent yet keeps its due
                    // time (the player thought on while the client came back) and takes the
                    // prompt's seq; one sent for this very prompt is sent again, the same action
                    // with its key (the server did not take it).
                    if let Some(same) =
                        carry.thought.as_mut().filter(|t| t.hand_id == hand_id && (t.seq == seq || t.action.is_none()))
                    {
                        same.waiting = false;
                        if same.action.is_none() {
                            (same.seq, same.legal, same.wagers) = (seq, frame.legal, frame.wagers);
                        }
                        continue;
                    }
                    carry.key += 1;
                    carry.thought = Some(Thought {
                        hand_id,
                        seq,
                        due: Instant::now() + think,
                        legal: frame.legal,
                        wagers: frame.wagers,
                        key: carry.key,
                        action: None,
                        waiting: false,
                    });
                }
                "hand_result" if counts_hands && Instant::now() >= start => stats.hands += 1,
                "snapshot" => {
                    // Busted or timed out: buy back in and sit in again.
                    let Ok(SnapshotFrame { table }) = serde_json::from_str::<SnapshotFrame>(&text) else {
                        continue;
                    };
                    if let Some(me) = table.seats.iter().find(|s| Some(s.seat) == table.your_seat) {
                        if !me.sitting_out {
                            sitting_in = false;
                        } else if !sitting_in {
                            sitting_in = true;
                            if me.stack < table.max_buy_in / 2 {
                                let amount = table.max_buy_in - me.stack;
                                client.send(&ClientMsg::TopUp { request_id: None, table_id, amount }).await?;
                            }
                            client.send(&ClientMsg::SitIn { request_id: None, table_id }).await?;
                        }
                    }
                }
                "error" => stats.errors += 1,
                _ => {}
            }
        }
        let _ = client.send(&ClientMsg::Leave { request_id: None, table_id }).await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bots' light reading of a snapshot sees what the whole message says.
    #[test]
    fn a_snapshot_s_few_fields_read_as_the_whole_message_has_them() {
        let text = r#"{"type":"snapshot","table_id":"00000000-0000-0000-0000-000000000001","seq":7,"table":{
            "table_id":"00000000-0000-0000-0000-000000000001","name":"Stud 1",
            "config":{"variant":"stud","ante":40,"bring_in":50,"small_bet":200,"big_bet":400,"max_raises":3,
                      "open_pair_big_bet":true,"uncapped_heads_up":false},
            "min_buy_in":4000,"max_buy_in":40000,
            "seats":[{"seat":1,"player_id":"00000000-0000-0000-0000-0000000000a1","name":"Ann","stack":12000,
                      "sitting_out":true,"sitting_out_reason":"busted","connected":true},
                     {"seat":3,"player_id":"00000000-0000-0000-0000-0000000000a3","name":"Bo","stack":40000,
                      "sitting_out":false,"sitting_out_reason":null,"connected":false}],
            "your_seat":1,"hand":null}}"#;
        let Ok(stud_proto::ServerMsg::Snapshot { table: whole, .. }) = serde_json::from_str(text) else {
            panic!("not a snapshot: {text}");
        };
        let SnapshotFrame { table: light } = serde_json::from_str(text).unwrap();
        assert_eq!((light.your_seat, light.max_buy_in), (whole.your_seat, whole.max_buy_in));
        let seats = |t: &SnapshotTable| t.seats.iter().map(|s| (s.seat, s.stack, s.sitting_out)).collect::<Vec<_>>();
        let whole_seats = whole.seats.iter().map(|s| (s.seat, s.stack, s.sitting_out)).collect::<Vec<_>>();
        assert_eq!(seats(&light), whole_seats);
        assert_eq!(whole_seats, [(1, 12_000, true), (3, 40_000, false)]);
    }

    #[test]
    fn a_server_s_figures_are_read_from_its_metrics_and_summed_over_the_window() {
        let text = "# HELP stud_frames_total Frames.\n# TYPE stud_frames_total counter\nstud_frames_total 1200\n\
                    process_cpu_seconds_total 10.5\nprocess_resident_memory_bytes 52428800\n\
                    stud_process_peak_resident_memory_bytes 104857600\n";
        let start = server_figures(text).unwrap();
        assert_eq!(start.frames, 1200.0);
        assert_eq!(start.cpu_seconds, 10.5);
        let end = ServerFigures { cpu_seconds: 25.5, frames: 31_200.0, ..start };
        let window = ServerWindow { start, end, max_resident_bytes: 60_000_000.0 };
        let json = window.json(10.0);
        assert_eq!(json["cpu_cores"], 1.5);
        assert_eq!(json["frames_per_s"], 3000.0);
        assert_eq!(json["rss_mb"], 52.4);
        assert_eq!(json["rss_max_mb"], 60.0);
        assert_eq!(json["peak_rss_mb"], 104.9);
        // A server without process figures (another program, or no /proc): none.
        assert!(server_figures("stud_frames_total 3\n").is_none());
    }
}
