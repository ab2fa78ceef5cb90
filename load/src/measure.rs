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

/// One window's figures: its index, how many clicks, p99 and max, microseconds.
#[derive(Debug, PartialEq)]
pub struct Window {
    pub index: u32,
    pub clicks: usize,
    pub p99_us: u64,
    pub max_us: u64,
}

/// Each window's count, p99 (nearest rank) and max; `samples` as for [`worst_window_p99`].
pub fn windows(samples: &mut [(u32, u64)]) -> Vec<Window> {
    samples.sort_unstable();
    samples
        .chunk_by(|a, b| a.0 == b.0)
        .map(|w| Window {
            index: w[0].0,
            clicks: w.len(),
            p99_us: w[(w.len() * 99).div_ceil(100).max(1) - 1].1,
            max_us: w[w.len() - 1].1,
        })
        .collect()
}

/// The worst p99 of any one window: `samples` are `(window, microseconds)`, in any order
/// (sorted here). A stall of a few tens of ms every few seconds hides in a whole run's p99
/// but is the p99 of the second it falls in. `None` without samples.
pub fn worst_window_p99(samples: &mut [(u32, u64)]) -> Option<f64> {
    // Nearest rank: the smallest value with at least 99 % of the window at or below it.
    let worst = windows(samples).iter().map(|w| w.p99_us).max();
    worst.map(|us| (us as f64 / 1000.0 * 100.0).round() / 100.0)
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
    /// The whole machine's steal and total CPU ticks from `/proc/stat`, if readable.
    pub host: Option<(u64, u64)>,
}

/// Steal and total ticks of the `cpu` line of `/proc/stat` (user, nice, system, idle, iowait,
/// irq, softirq, steal: the time a hypervisor gave this machine's CPUs to someone else is
/// steal, and it makes a latency run meaningless).
pub fn steal_of(stat: &str) -> Option<(u64, u64)> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    (ticks.len() == 8).then(|| (ticks[7], ticks.iter().sum()))
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
        let host = std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|s| steal_of(&s));
        Ok(Proc {
            ticks: tick(11) + tick(12),
            rss_kb,
            at: std::time::Instant::now(),
            host,
        })
    }

    /// CPU use between `earlier` and this reading, in percent of one core (100 ticks/s).
    pub fn cpu_percent_since(&self, earlier: &Proc) -> f64 {
        let secs = self.at.duration_since(earlier.at).as_secs_f64().max(1e-9);
        let used = self.ticks.saturating_sub(earlier.ticks) as f64 / 100.0;
        (used / secs * 1000.0).round() / 10.0
    }

    /// The share of the machine's CPU time stolen by the hypervisor between `earlier` and
    /// this reading, in percent.
    pub fn steal_percent_since(&self, earlier: &Proc) -> Option<f64> {
        let ((s1, t1), (s0, t0)) = (self.host?, earlier.host?);
        let total = t1.checked_sub(t0).filter(|t| *t > 0)?;
        Some((s1.saturating_sub(s0) as f64 * 1000.0 / total as f64).round() / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_window_is_the_one_with_the_stall() {
        // Three seconds of 1 ms clicks, one of which holds a 45 ms stall for 2 % of its
        // clicks: the whole run's p99 is 1 ms, the worst second's is 45 ms.
        let mut samples: Vec<(u32, u64)> = (0..300).map(|i| (i / 100, 1_000)).collect();
        for s in samples.iter_mut().skip(100).take(2) {
            s.1 = 45_000;
        }
        let mut all: Vec<u64> = samples.iter().map(|s| s.1).collect();
        all.sort_unstable();
        assert_eq!(all[all.len() * 99 / 100 - 1], 1_000);
        assert_eq!(worst_window_p99(&mut samples), Some(45.0));
        assert_eq!(worst_window_p99(&mut []), None);
        let each = windows(&mut samples);
        assert_eq!(each.len(), 3);
        assert_eq!(
            (
                each[1].index,
                each[1].clicks,
                each[1].p99_us,
                each[1].max_us
            ),
            (1, 100, 45_000, 45_000)
        );
        assert_eq!((each[2].p99_us, each[2].max_us), (1_000, 1_000));
    }

    #[test]
    fn steal_is_read_from_the_cpu_line() {
        let stat = "cpu  100 5 50 800 10 0 5 30 0 0\ncpu0 50 2 25 400 5 0 2 15 0 0\n";
        assert_eq!(steal_of(stat), Some((30, 1000)));
        assert_eq!(steal_of("cpu0 1 2 3\n"), None);
        let at = std::time::Instant::now();
        let reading = |steal, total| Proc {
            ticks: 0,
            rss_kb: 0,
            at,
            host: Some((steal, total)),
        };
        assert_eq!(
            reading(130, 2000).steal_percent_since(&reading(30, 1000)),
            Some(10.0)
        );
    }
}
