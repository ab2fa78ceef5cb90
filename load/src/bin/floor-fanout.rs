//! The floor's fan-out to one big room, measured as `orion-load --spectators` measures Orion's:
//! connects `--receivers` clients and one sender to the peers' bare relay
//! (`../shared/bench/peers/floor-rust`, which forwards each text frame to every other member of
//! its room), sends `--rate` frames a second, and reports the time from each send until the
//! last receiver has it. The relay does nothing but forward, so what it reaches on one core is
//! what the kernel's loopback TCP allows any server there.

use clap::Parser;
use futures::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use std::time::{Duration, Instant};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser)]
struct Args {
    /// The relay's address; must be on the loopback interface.
    #[arg(long, default_value = "127.0.0.1:9100")]
    relay: String,
    /// Receivers in the room besides the sender.
    #[arg(long, default_value_t = 5000)]
    receivers: usize,
    /// Frames sent a second.
    #[arg(long, default_value_t = 5.0)]
    rate: f64,
    /// Seconds measured (after one second of warm-up).
    #[arg(long, default_value_t = 15)]
    seconds: u64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    anyhow::ensure!(
        args.relay.starts_with("127.") || args.relay.starts_with("localhost"),
        "floor-fanout only drives relays on the loopback interface"
    );
    let url = format!("ws://{}/?room=1", args.relay);
    let (mut sender, _) = connect_async(url.as_str()).await?;
    let mut receivers = futures::stream::SelectAll::new();
    for k in 0..args.receivers {
        let (ws, _) = connect_async(url.as_str()).await?;
        receivers.push(ws.map(move |m| (k, m)));
    }
    let mut latencies = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)?;
    let period = Duration::from_secs_f64(1.0 / args.rate);
    let measure_from = Instant::now() + Duration::from_secs(1);
    let stop = measure_from + Duration::from_secs(args.seconds);
    let mut id = 0u64;
    while Instant::now() < stop {
        id += 1;
        let frame = format!(r#"{{"t":"click","id":{id},"p":0,"x":1,"y":2}}"#);
        let sent = Instant::now();
        sender.send(Message::text(frame.as_str())).await?;
        let mut seen = 0;
        while seen < args.receivers {
            let Some((_, Ok(Message::Text(text)))) = receivers.next().await else {
                anyhow::bail!("a receiver closed");
            };
            if text.as_str() == frame {
                seen += 1;
            }
        }
        if sent >= measure_from {
            latencies.record(sent.elapsed().as_micros().max(1) as u64)?;
        }
        tokio::time::sleep_until((sent + period).into()).await;
    }
    let ms = |us: u64| (us as f64 / 10.0).round() / 100.0;
    println!(
        "{}",
        serde_json::json!({
            "mode": "floor-fanout", "receivers": args.receivers, "frames": latencies.len(),
            "p50_ms": ms(latencies.value_at_quantile(0.5)),
            "p99_ms": ms(latencies.value_at_quantile(0.99)),
            "max_ms": ms(latencies.max()),
        })
    );
    Ok(())
}
