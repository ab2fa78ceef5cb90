//! The password throttle: how many `login` attempts an account name and a client address may
//! make before each further try must wait, with a wait that doubles at every failure. It is
//! checked before anything else a `login` does, so a refused try costs neither a store read
//! nor an Argon2 hash.
//!
//! Policy (per key, for an account's name key and for a peer address alike): every attempt
//! counts as a failure from the moment it starts (so a crowd of simultaneous guesses cannot all
//! slip through before the first is counted) until it succeeds. After `free` failures, the
//! key is blocked for `base × 2^(failures − free)`, at most `max`; a try while it is blocked
//! is refused with `rate_limited` and the wait left. A key whose last failure is older than
//! `forget` starts again from nothing. A success clears the account's count (not the
//! address's: one account of one's own must not reset a guesser's address).
//!
//! The state is in memory, per server (on a cluster, per node: a guesser spread over `k`
//! nodes gets `k` times the budget), bounded by [`MAX_KEYS`] keys per table, least recently
//! touched evicted first. Tokens are never throttled: a player who says `hello` with his token
//! is never locked out by someone guessing his password.

use crate::clock::Millis;
use lru::LruCache;
use std::net::IpAddr;
use std::num::NonZeroUsize;
use std::sync::Mutex;

/// Keys kept per table (account names, addresses): some 10 MB at most in all. Past it the
/// least recently touched key is forgotten (an attacker would need that many addresses,
/// each blocked in turn, to flush a victim's count).
pub const MAX_KEYS: usize = 65_536;

/// When a key starts to wait, and how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Failures allowed before the first wait.
    pub free: u32,
    /// The first wait, in ms; each further failure doubles it.
    pub base: Millis,
    /// The longest wait, in ms.
    pub max: Millis,
    /// A key with no failure for this long (ms) is forgotten.
    pub forget: Millis,
}

/// Per account name: 5 tries, then 1 s, 2 s, 4 s … at most 5 minutes a try; forgotten after
/// 15 minutes without a failure.
pub const PER_ACCOUNT: Policy = Policy {
    free: 5,
    base: 1_000,
    max: 5 * 60_000,
    forget: 15 * 60_000,
};

/// Per client address (an IPv6 address by its /64): 20 tries, then 1 s, 2 s, 4 s … at most
/// 15 minutes a try; forgotten after an hour without a failure.
pub const PER_ADDRESS: Policy = Policy {
    free: 20,
    base: 1_000,
    max: 15 * 60_000,
    forget: 60 * 60_000,
};

/// One key's failures.
#[derive(Clone, Copy, Debug)]
struct Failures {
    /// Failures counted (attempts begun and not yet succeeded).
    count: u32,
    /// When the last one began.
    last: Millis,
}

impl Failures {
    /// Until when this key must wait under `policy` (`None`: it may try now).
    fn blocked_until(&self, policy: &Policy, now: Millis) -> Option<Millis> {
        if now.saturating_sub(self.last) >= policy.forget || self.count < policy.free {
            return None;
        }
        let doublings = (self.count - policy.free).min(32);
        let wait = policy
            .base
            .saturating_mul(1u64 << doublings)
            .min(policy.max);
        let until = self.last.saturating_add(wait);
        (until > now).then_some(until)
    }
}

/// One table of keys under one policy.
struct Table<K: std::hash::Hash + Eq> {
    /// The policy its keys follow.
    policy: Policy,
    /// Failures by key, least recently touched evicted first.
    keys: LruCache<K, Failures>,
}

impl<K: std::hash::Hash + Eq + Clone> Table<K> {
    fn new(policy: Policy, capacity: NonZeroUsize) -> Table<K> {
        Table {
            policy,
            keys: LruCache::new(capacity),
        }
    }

    fn blocked_until(&mut self, key: &K, now: Millis) -> Option<Millis> {
        let policy = self.policy;
        self.keys.get(key)?.blocked_until(&policy, now)
    }

    fn fail(&mut self, key: &K, now: Millis) {
        let policy = self.policy;
        let entry = self.keys.get_or_insert_mut(key.clone(), || Failures {
            count: 0,
            last: now,
        });
        if now.saturating_sub(entry.last) >= policy.forget {
            entry.count = 0;
        }
        entry.count = entry.count.saturating_add(1);
        entry.last = now;
    }

    fn forget(&mut self, key: &K) {
        self.keys.pop(key);
    }

    fn undo(&mut self, key: &K) {
        if let Some(entry) = self.keys.get_mut(key) {
            entry.count = entry.count.saturating_sub(1);
        }
    }
}

/// The address a client is throttled by: an IPv4 address, or an IPv6 address's /64 (one
/// host usually holds a whole /64).
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

/// Both tables, behind one lock held for a few map operations, never across an `.await`.
struct Tables {
    accounts: Table<String>,
    addresses: Table<IpAddr>,
}

/// The server's password throttle.
pub struct Throttle {
    tables: Mutex<Tables>,
}

/// An attempt let through: it counts as a failure until [`Throttle::succeeded`].
#[derive(Debug)]
pub struct Attempt {
    account: String,
    address: IpAddr,
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::new(PER_ACCOUNT, PER_ADDRESS, MAX_KEYS)
    }
}

impl Throttle {
    /// A throttle with these policies, keeping at most `max_keys` keys per table.
    pub fn new(accounts: Policy, addresses: Policy, max_keys: usize) -> Throttle {
        let capacity = NonZeroUsize::new(max_keys).unwrap_or(NonZeroUsize::MIN);
        Throttle {
            tables: Mutex::new(Tables {
                accounts: Table::new(accounts, capacity),
                addresses: Table::new(addresses, capacity),
            }),
        }
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, Tables> {
        // The tables hold counts only: one left half-updated by a panic is still usable.
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lets a password attempt at the account named by `account_key` from `peer` begin (and
    /// counts it as a failure), or says how many ms to wait first.
    pub fn begin(&self, account_key: &str, peer: IpAddr, now: Millis) -> Result<Attempt, Millis> {
        let address = address_key(peer);
        let account = account_key.to_string();
        let mut t = self.tables();
        let until = [
            t.accounts.blocked_until(&account, now),
            t.addresses.blocked_until(&address, now),
        ]
        .into_iter()
        .flatten()
        .max();
        if let Some(until) = until {
            return Err(until - now);
        }
        t.accounts.fail(&account, now);
        t.addresses.fail(&address, now);
        Ok(Attempt { account, address })
    }

    /// The attempt gave the right password: the account's failures are forgotten, and the
    /// address is not charged for it.
    pub fn succeeded(&self, attempt: Attempt) {
        let mut t = self.tables();
        t.accounts.forget(&attempt.account);
        t.addresses.undo(&attempt.address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    const HOME: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));
    const AWAY: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

    #[test]
    fn an_account_waits_after_five_failures_and_the_wait_doubles() {
        let t = Throttle::default();
        for _ in 0..5 {
            t.begin("alice", HOME, 0).unwrap();
        }
        assert_eq!(t.begin("alice", AWAY, 0).unwrap_err(), 1_000);
        assert_eq!(t.begin("alice", AWAY, 400).unwrap_err(), 600);
        // Another name from the same address is not blocked by alice's count.
        assert!(t.begin("bob", HOME, 400).is_ok());
        t.begin("alice", AWAY, 1_000).unwrap();
        assert_eq!(t.begin("alice", HOME, 1_000).unwrap_err(), 2_000);
        t.begin("alice", AWAY, 3_000).unwrap();
        assert_eq!(t.begin("alice", HOME, 3_000).unwrap_err(), 4_000);
        // Capped at five minutes however long it goes on.
        let mut now = 3_000;
        for _ in 0..20 {
            now += PER_ACCOUNT.max;
            t.begin("alice", AWAY, now).unwrap();
        }
        assert_eq!(t.begin("alice", HOME, now).unwrap_err(), PER_ACCOUNT.max);
        // Quiet for the forget time: a fresh start.
        assert!(t.begin("alice", HOME, now + PER_ACCOUNT.forget).is_ok());
    }

    #[test]
    fn a_success_clears_the_account_but_not_the_address() {
        let t = Throttle::default();
        for _ in 0..4 {
            t.begin("alice", HOME, 0).unwrap();
        }
        let ok = t.begin("alice", HOME, 0).unwrap();
        t.succeeded(ok);
        for _ in 0..5 {
            t.begin("alice", HOME, 0).unwrap();
        }
        assert!(t.begin("alice", HOME, 0).is_err());
        // The address: 4 + 5 failures so far (the success was not charged); 20 are free.
        for i in 0..11 {
            t.begin(&format!("n{i}"), HOME, 0).unwrap();
        }
        assert_eq!(t.begin("zed", HOME, 0).unwrap_err(), 1_000);
        assert!(t.begin("zed", AWAY, 0).is_ok(), "another address may");
    }

    #[test]
    fn an_ipv6_host_is_throttled_by_its_slash_64() {
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let t = Throttle::default();
        for i in 0..PER_ADDRESS.free {
            t.begin(&format!("n{i}"), if i % 2 == 0 { a } else { b }, 0)
                .unwrap();
        }
        assert!(t.begin("x", a, 0).is_err());
        assert!(t.begin("x", c, 0).is_ok());
    }

    #[test]
    fn the_tables_are_bounded_and_forget_the_least_recently_touched() {
        let t = Throttle::new(PER_ACCOUNT, PER_ADDRESS, 3);
        for _ in 0..5 {
            t.begin("alice", HOME, 0).unwrap();
        }
        assert!(t.begin("alice", HOME, 0).is_err());
        for name in ["b", "c", "d"] {
            t.begin(name, AWAY, 0).unwrap();
        }
        assert!(t.begin("alice", HOME, 0).is_ok(), "evicted, so forgotten");
        assert!(t.tables().accounts.keys.len() <= 3);
    }
}
