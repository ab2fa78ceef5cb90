//! How late the runtime wakes a task that asked to be woken: the server's own stall, the
//! figure Node servers report as event-loop delay. A task sleeps 5 ms at a time; how much later
//! than asked it wakes goes into the `orion_runtime_lag_seconds` histogram on `/metrics`, and
//! every 5 s the window's p99 and max are logged at debug level (target `orion_server::lag`) as
//! `[lag] t=…s p99=…ms max=…ms`, the line the peers' harness reads from a server's log.

use prometheus::{Histogram, HistogramOpts};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long the watching task asks to sleep each time.
const TICK: Duration = Duration::from_millis(5);
/// How often a window is summed up in the log.
const WINDOW: Duration = Duration::from_secs(5);

/// The histogram to register with the server's metrics.
pub fn histogram() -> Histogram {
    Histogram::with_opts(
        HistogramOpts::new(
            "orion_runtime_lag_seconds",
            "How much later than asked the runtime woke a task sleeping 5 ms (scheduling stalls).",
        )
        .buckets(vec![0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0]),
    )
    .unwrap_or_else(|_| unreachable!("metric orion_runtime_lag_seconds"))
}

/// Watches the runtime until `shutdown` turns true.
pub async fn watch(histogram: Histogram, mut shutdown: watch::Receiver<bool>) {
    let started = Instant::now();
    let mut window: Vec<Duration> =
        Vec::with_capacity((WINDOW.as_millis() / TICK.as_millis()) as usize);
    let mut window_began = Instant::now();
    loop {
        let asked = Instant::now();
        tokio::select! {
            _ = tokio::time::sleep(TICK) => {}
            _ = shutdown.changed() => return,
        }
        let late = asked.elapsed().saturating_sub(TICK);
        histogram.observe(late.as_secs_f64());
        window.push(late);
        if window_began.elapsed() >= WINDOW {
            window.sort_unstable();
            let p99 = window[(window.len() * 99).div_ceil(100).max(1) - 1];
            let max = window[window.len() - 1];
            tracing::debug!(
                "[lag] t={}s p99={:.1}ms max={:.1}ms",
                started.elapsed().as_secs(),
                p99.as_secs_f64() * 1000.0,
                max.as_secs_f64() * 1000.0
            );
            window.clear();
            window_began = Instant::now();
        }
    }
}
