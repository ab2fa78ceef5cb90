//! The server's clock: milliseconds since the Unix epoch for the engine (claim windows, turn
//! clocks, seat holds) and a way to wait for a given instant. Tests swap in a `ManualClock`
//! so a window can close or a turn clock run out without anyone sleeping.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// Milliseconds since the Unix epoch (the engines count time the same way).
pub type Millis = u64;

/// A future that completes at a given clock time.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Where the server reads the time. Every deadline in the server goes through it.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> Millis;
    /// A future that completes once `now_ms() >= at`.
    fn sleep_until(&self, at: Millis) -> Sleep;
}

/// The wall clock, with tokio timers for waiting.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> Millis {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0)
    }

    fn sleep_until(&self, at: Millis) -> Sleep {
        let wait = at.saturating_sub(self.now_ms());
        Box::pin(tokio::time::sleep(Duration::from_millis(wait)))
    }
}

/// A clock that moves only when told to: for tests of claim windows and clocks.
#[derive(Debug)]
pub struct ManualClock {
    /// The current time; waiters subscribe and wake on every change.
    now: watch::Sender<Millis>,
}

impl ManualClock {
    /// A clock reading `start`.
    pub fn new(start: Millis) -> ManualClock {
        ManualClock {
            now: watch::Sender::new(start),
        }
    }

    /// Moves the clock forward by `ms`, waking every deadline that has passed.
    pub fn advance(&self, ms: Millis) {
        self.now.send_modify(|t| *t = t.saturating_add(ms));
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> Millis {
        *self.now.borrow()
    }

    fn sleep_until(&self, at: Millis) -> Sleep {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            loop {
                if *rx.borrow_and_update() >= at {
                    return;
                }
                if rx.changed().await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
        })
    }
}
