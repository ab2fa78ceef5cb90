//! How the server's own threads are scheduled beside the rooms' runtime: the store's writer
//! and archiver on the same cores, and the computer players' threads on cores of their own
//! when the operator gives them some (`--bot-cpus`: a search on the rooms' core raised their
//! p99 by 4–5 ms, BENCHMARKS.md).

use std::fmt;
use std::str::FromStr;

/// Asks the kernel not to let the calling thread preempt the one that woke it (`SCHED_BATCH`,
/// same share of the core otherwise); for the writer and the archiver. A room's task wakes the
/// writer with each append: with wake-up preemption, a core running both switched to the
/// writer for every append (groups of about two rows, two context switches each); without it
/// the runtime first finishes what is ready, and the writer commits everything that came in as
/// one group. The same holds between the writer and the archiver it passes rows to.
pub fn no_wakeup_preemption() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `sched_setscheduler` reads `param` for the duration of the call; pid 0 is this
    // thread. A refusal leaves the thread as it was, which is only slower.
    let _ = unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) };
}

/// A range of CPU numbers as Linux counts them (`3`, or `2-5`): one item of `--bot-cpus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuRange {
    /// The first CPU.
    first: usize,
    /// The last CPU, included.
    last: usize,
}

impl CpuRange {
    /// Every CPU of `ranges`, in order, once each.
    pub fn expand(ranges: &[CpuRange]) -> Vec<usize> {
        let mut cpus: Vec<usize> = ranges.iter().flat_map(|r| r.first..=r.last).collect();
        cpus.sort_unstable();
        cpus.dedup();
        cpus
    }
}

impl FromStr for CpuRange {
    type Err = String;

    fn from_str(s: &str) -> Result<CpuRange, String> {
        let cpu = |n: &str| {
            let n: usize = (n.trim().parse())
                .map_err(|_| format!("{s:?} is not a CPU number or a range like 2-3"))?;
            if n >= libc::CPU_SETSIZE as usize {
                return Err(format!("CPU {n} is past the last this system can name"));
            }
            Ok(n)
        };
        let (first, last) = match s.split_once('-') {
            Some((a, b)) => (cpu(a)?, cpu(b)?),
            None => (cpu(s)?, cpu(s)?),
        };
        if first > last {
            return Err(format!(
                "{s:?}: a range goes from the lower CPU to the higher"
            ));
        }
        Ok(CpuRange { first, last })
    }
}

impl fmt::Display for CpuRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

/// The CPUs the calling thread may run on.
pub fn allowed_cpus() -> std::io::Result<Vec<usize>> {
    // SAFETY: a zeroed `cpu_set_t` is an empty set; `sched_getaffinity` writes at most its
    // size into it, and pid 0 is this thread.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        set
    };
    // SAFETY: `CPU_ISSET` reads the set for numbers below its size.
    Ok((0..libc::CPU_SETSIZE as usize)
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect())
}

/// Lets the calling thread (and the threads it starts from now on) run only on `cpus`.
pub fn run_on(cpus: &[usize]) -> std::io::Result<()> {
    // SAFETY: as in `allowed_cpus`; every number is below `CPU_SETSIZE` (`CpuRange` checks).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus {
            libc::CPU_SET(c, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// How the process's CPUs are shared when the computer players are given `bot_cpus`: the
/// rooms' runtime (and every thread but the bots') gets the CPUs it may use that the bots
/// were not given. `Ok(None)` when none were given (everything runs anywhere); an error the
/// operator can act on when the bots' CPUs are not the process's to give, or leave none.
pub fn share_cpus(bot_cpus: &[CpuRange]) -> Result<Option<SharedCpus>, String> {
    if bot_cpus.is_empty() {
        return Ok(None);
    }
    let bots = CpuRange::expand(bot_cpus);
    let allowed = allowed_cpus().map_err(|e| format!("could not read this process's CPUs: {e}"))?;
    let foreign: Vec<String> = (bots.iter())
        .filter(|c| !allowed.contains(c))
        .map(ToString::to_string)
        .collect();
    if !foreign.is_empty() {
        return Err(format!(
            "--bot-cpus names CPU {} that this process may not run on (it may use {})",
            foreign.join(", "),
            list(&allowed)
        ));
    }
    let rooms: Vec<usize> = allowed.into_iter().filter(|c| !bots.contains(c)).collect();
    if rooms.is_empty() {
        return Err(format!(
            "--bot-cpus {} leaves no CPU for the rooms: give the computer players fewer",
            list(&bots)
        ));
    }
    Ok(Some(SharedCpus { rooms, bots }))
}

/// The rooms' CPUs and the computer players' ([`share_cpus`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedCpus {
    /// Where the runtime, the store's threads and everything else run.
    pub rooms: Vec<usize>,
    /// Where the computer players think.
    pub bots: Vec<usize>,
}

/// `0,2,3` as a reader expects it.
fn list(cpus: &[usize]) -> String {
    cpus.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_list_reads_as_linux_writes_it_and_mistakes_are_named() {
        let ranges: Vec<CpuRange> = ["3", "0-1", "1"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(CpuRange::expand(&ranges), [0, 1, 3]);
        assert_eq!(ranges[1].to_string(), "0-1");
        assert!("3-1".parse::<CpuRange>().unwrap_err().contains("lower CPU"));
        assert!("x"
            .parse::<CpuRange>()
            .unwrap_err()
            .contains("not a CPU number"));
        assert!("99999"
            .parse::<CpuRange>()
            .unwrap_err()
            .contains("past the last"));
    }

    #[test]
    fn the_bots_cpus_must_be_the_processs_and_leave_the_rooms_one() {
        let allowed = allowed_cpus().unwrap();
        let all: Vec<CpuRange> = allowed
            .iter()
            .map(|c| c.to_string().parse().unwrap())
            .collect();
        let err = share_cpus(&all).unwrap_err();
        assert!(err.contains("leaves no CPU for the rooms"), "{err}");
        let foreign = (0..).find(|c| !allowed.contains(c)).unwrap();
        let err = share_cpus(&[foreign.to_string().parse().unwrap()]).unwrap_err();
        assert!(err.contains("may not run on"), "{err}");
        assert_eq!(share_cpus(&[]), Ok(None));
        if let [first, .., last] = allowed[..] {
            let shared = share_cpus(&[last.to_string().parse().unwrap()])
                .unwrap()
                .unwrap();
            assert_eq!(shared.bots, [last]);
            assert!(shared.rooms.contains(&first) && !shared.rooms.contains(&last));
        }
    }
}
