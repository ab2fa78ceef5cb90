//! Measurements: latency percentiles (HdrHistogram, microsecond resolution) and the server's
//! CPU time and resident memory read from `/proc`.

use hdrhistogram::Histogram;

/// Latency summary in milliseconds.
pub struct Stats {
    /// Median send-to-everyone latency.
    pub p50: f64,
    /// 99th percentile send-to-everyone latency.
    pub p99: f64,
    /// Worst latency.
    pub max: f64,
    /// 99th percentile measured from the scheduled send time (includes queueing at the sender).
    pub p99_late: f64,
}

impl Stats {
    /// Summarises two histograms of microseconds.
    pub fn from(latency: &Histogram<u64>, late: &Histogram<u64>) -> Stats {
        let ms = |us: u64| (us as f64 / 1000.0 * 100.0).round() / 100.0;
        Stats {
            p50: ms(latency.value_at_quantile(0.5)),
            p99: ms(latency.value_at_quantile(0.99)),
            max: ms(latency.max()),
            p99_late: ms(late.value_at_quantile(0.99)),
        }
    }
}

/// A reading of a process from `/proc`.
#[derive(Clone, Debug)]
pub struct Proc {
    /// User + system CPU time in clock ticks.
    pub ticks: u64,
    /// Resident set size, KiB.
    pub rss_kb: u64,
    /// When it was read.
    pub at: std::time::Instant,
}

impl Proc {
    /// Reads `/proc/PID/stat` and `/proc/PID/status`.
    pub fn read(pid: u32) -> anyhow::Result<Proc> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
        // Fields after the command name (which may hold spaces) start after the last ')'.
        let rest = stat
            .rsplit_once(')')
            .map(|(_, r)| r)
            .ok_or_else(|| anyhow::anyhow!("unreadable /proc/{pid}/stat"))?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the name.
        let tick = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
        let rss_kb = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        Ok(Proc {
            ticks: tick(11) + tick(12),
            rss_kb,
            at: std::time::Instant::now(),
        })
    }

    /// CPU use between `earlier` and this reading, in percent of one core (100 ticks/s).
    pub fn cpu_percent_since(&self, earlier: &Proc) -> f64 {
        let secs = self.at.duration_since(earlier.at).as_secs_f64().max(1e-9);
        let used = self.ticks.saturating_sub(earlier.ticks) as f64 / 100.0;
        (used / secs * 1000.0).round() / 10.0
    }
}
