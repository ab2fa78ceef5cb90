//! `orion-load`: opens R rooms of four players (plus S spectators each) on a running server,
//! starts real Hydra for Four games through quick match, and drives legal clicks at an offered
//! rate, open loop and evenly spaced per room. Each click's latency is the time from its send
//! until every other member of the room has received its event. Prints one JSON line per run.
//! Loopback only; bounded in time and in connections. `--bot-games N` also runs N games
//! against the server's computer players beside the measured rooms (`bot_games`).

mod bot_games;
mod measure;
mod room;

use clap::Parser;
use measure::{Proc, Stats};
use std::time::{Duration, Instant};

/// The most connections one run opens (rooms x (4 + spectators)).
const MAX_CLIENTS: usize = 20_000;

/// Drive an Orion Online server with rooms of four players.
#[derive(Parser, Debug, Clone)]
#[command(name = "orion-load", version, about)]
struct Args {
    /// WebSocket endpoint; must be on the loopback interface.
    #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
    server: String,
    /// Number of rooms of four players.
    #[arg(long, default_value_t = 10)]
    rooms: usize,
    /// Spectators per room.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// Offered clicks per second over all rooms.
    #[arg(long, default_value_t = 20.0)]
    rate: f64,
    /// Seconds of measured load (after all rooms have started).
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Seconds of load before measuring.
    #[arg(long, default_value_t = 2)]
    warmup: u64,
    /// Server process id, for CPU and memory from /proc.
    #[arg(long)]
    pid: Option<u32>,
    /// Only open connections, say hello and hold them idle for --seconds (no rooms).
    #[arg(long)]
    idle: Option<usize>,
    /// Also print each measured second's clicks, p99 and max on stderr, with the second's
    /// start as UTC time of day, to line stalls up with the server's log.
    #[arg(long)]
    each_second: bool,
    /// Games against the server's computer players run beside the measured rooms, from
    /// before the first room opens until the last click is measured (one connection each).
    #[arg(long, default_value_t = 0)]
    bot_games: usize,
    /// The computer players' level in those games, 1 to 8.
    #[arg(long, default_value_t = 8)]
    bot_level: u8,
    /// A label for the JSON line (e.g. `sqlite` or `memory`).
    #[arg(long, default_value = "")]
    label: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let host = args
        .server
        .strip_prefix("ws://")
        .and_then(|rest| rest.split(['/', ':']).next())
        .unwrap_or("");
    anyhow::ensure!(
        host == "localhost" || host.starts_with("127.") || host == "[::1]",
        "orion-load only drives servers on the loopback interface, not `{host}`"
    );
    let clients = args.idle.unwrap_or(args.rooms * (4 + args.spectators)) + args.bot_games;
    anyhow::ensure!(clients <= MAX_CLIENTS, "at most {MAX_CLIENTS} connections");
    let proc_before = args.pid.map(Proc::read).transpose()?;

    if let Some(n) = args.idle {
        let held = room::hold_idle(&args.server, n, Duration::from_secs(args.seconds)).await?;
        let after = args.pid.map(Proc::read).transpose()?;
        let rss = after.as_ref().map(|p| p.rss_kb);
        let base = proc_before.as_ref().map(|p| p.rss_kb);
        let per_client = match (rss, base) {
            (Some(a), Some(b)) if held > 0 => {
                Some((a.saturating_sub(b)) as f64 * 1024.0 / held as f64)
            }
            _ => None,
        };
        println!(
            "{}",
            serde_json::json!({
                "mode": "idle", "label": args.label, "connections": held,
                "server_rss_kb": rss, "rss_before_kb": base,
                "bytes_per_client": per_client.map(|b| b.round()),
            })
        );
        return Ok(());
    }

    let plan = room::Plan {
        server: args.server.clone(),
        rooms: args.rooms,
        spectators: args.spectators,
        rate_per_room: args.rate / args.rooms.max(1) as f64,
        warmup: Duration::from_secs(args.warmup),
        measure: Duration::from_secs(args.seconds),
    };
    let started = Instant::now();
    let (stop_bots, stopped) = tokio::sync::watch::channel(false);
    let bots = if args.bot_games > 0 {
        Some(bot_games::start(&args.server, args.bot_games, args.bot_level, stopped).await?)
    } else {
        None
    };
    let mut outcome = room::run(&plan, proc_before.is_some().then_some(args.pid).flatten()).await?;
    if args.each_second {
        let since = outcome.measured_from.elapsed();
        let wall = std::time::SystemTime::now() - since;
        for w in measure::windows(&mut outcome.by_second) {
            let at = wall + Duration::from_secs(w.index.into());
            let ms = at.duration_since(std::time::UNIX_EPOCH)?.as_millis() % 86_400_000;
            let (h, m, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
            eprintln!(
                "second {:>3} at {h:02}:{m:02}:{s:02}.{milli:03}: {:>6} clicks, p99 {:>8.2} ms, max {:>8.2} ms",
                w.index,
                w.clicks,
                w.p99_us as f64 / 1000.0,
                w.max_us as f64 / 1000.0
            );
        }
    }
    let _ = stop_bots.send(true);
    let bots = match bots {
        Some(task) => Some(task.await??),
        None => None,
    };
    let ms = |h: &hdrhistogram::Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    let bot_report = bots.as_ref().map(|b| {
        serde_json::json!({
            "games": args.bot_games, "level": args.bot_level, "finished": b.finished,
            "abandoned": b.abandoned, "bot_turns": b.bot_turns,
            "reply_p50_ms": ms(&b.replies, 0.5), "reply_p99_ms": ms(&b.replies, 0.99),
            "reply_max_ms": b.replies.max() as f64 / 1000.0,
        })
    });
    let worst_second = measure::worst_window_p99(&mut outcome.by_second);
    let worst_second_late = measure::worst_window_p99(&mut outcome.late_by_second);
    let stats = Stats::from(&outcome.latencies, &outcome.late);
    let delivered = outcome.measured_clicks as f64 / plan.measure.as_secs_f64();
    let cpu = match (&outcome.proc_start, &outcome.proc_end) {
        (Some(a), Some(b)) => Some(b.cpu_percent_since(a)),
        _ => None,
    };
    let rss = outcome.proc_end.as_ref().map(|p| p.rss_kb);
    let steal = match (&outcome.proc_start, &outcome.proc_end) {
        (Some(a), Some(b)) => b.steal_percent_since(a),
        _ => None,
    };
    println!(
        "{}",
        serde_json::json!({
            "mode": "rooms", "label": args.label,
            "rooms": args.rooms, "spectators_per_room": args.spectators, "clients": clients,
            "offered_clicks_per_s": args.rate, "delivered_clicks_per_s": delivered.round(),
            "clicks": outcome.measured_clicks, "errors": outcome.errors, "games_finished": outcome.finished,
            "p50_ms": stats.p50, "p99_ms": stats.p99, "max_ms": stats.max,
            "p99_from_schedule_ms": stats.p99_late,
            "p99_worst_second_ms": worst_second,
            "p99_from_schedule_worst_second_ms": worst_second_late,
            "server_cpu_percent": cpu, "server_rss_kb": rss, "host_steal_percent": steal,
            "wall_seconds": started.elapsed().as_secs_f64().round(),
            "bots": bot_report,
        })
    );
    Ok(())
}
