//! The one replay window of the project: it remembers the identity of every accepted
//! message until that message would be rejected as stale anyway, so a copy received
//! inside the freshness window is caught.
//!
//! [`ReplayWindow`] is keyed by any identity (`K`) and runs on any clock (`T`): SN-DECAP
//! keys it by [`ReplayKey`] on TAI time ([`ReplayCache`]); the MAC-based protocols of
//! `v2x-protocols` key it by the MAC tag on their own timestamps. Each entry carries its
//! expiry (for 1609.2: generation time + the longest freshness window of the profiles).
//!
//! Memory is bounded by `capacity`; when full, the oldest entry is evicted (a replay of
//! an evicted message that is still fresh would be accepted, so size `capacity` for the
//! expected message rate times the window: the default 65 536 covers 1000 messages/s over
//! 60 s).

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::time::TaiTime;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use v2x_crypto::HashedId8;

pub const DEFAULT_REPLAY_CAPACITY: usize = 65_536;

/// What identifies a signed 1609.2 message for duplicate detection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReplayKey {
    pub signer: HashedId8,
    pub generation_time: u64,
    /// The first 16 bytes of Hash(tbsData).
    pub tbs_hash: [u8; 16],
}

/// SN-DECAP's window: 1609.2 message identities on TAI time.
pub type ReplayCache = ReplayWindow<ReplayKey, TaiTime>;

/// Identities of accepted messages, each remembered until its expiry.
#[derive(Debug, Clone)]
pub struct ReplayWindow<K, T> {
    expiry: HashMap<K, T>,
    /// Keys in the order they were first recorded (eviction order).
    order: VecDeque<K>,
    capacity: usize,
}

impl<K: Eq + Hash + Clone, T: Ord + Copy> Default for ReplayWindow<K, T> {
    fn default() -> Self {
        ReplayWindow::new(DEFAULT_REPLAY_CAPACITY)
    }
}

impl<K: Eq + Hash + Clone, T: Ord + Copy> ReplayWindow<K, T> {
    /// A window holding at most `capacity` (at least 1) identities.
    pub fn new(capacity: usize) -> ReplayWindow<K, T> {
        ReplayWindow {
            expiry: HashMap::new(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// True when `key` was recorded and has not expired at `now` (a replay).
    pub fn contains(&self, key: &K, now: T) -> bool {
        self.expiry.get(key).is_some_and(|e| *e >= now)
    }

    /// Records `key` until `expires`. Entries expired at `now` are forgotten first (the
    /// oldest ones, in recording order) and, when the window is full, the oldest entry.
    /// Recording a key again keeps the later expiry.
    pub fn insert(&mut self, key: K, expires: T, now: T) {
        self.forget_expired(now);
        if let Some(e) = self.expiry.get_mut(&key) {
            *e = (*e).max(expires);
            return;
        }
        while self.order.len() >= self.capacity {
            self.evict_oldest();
        }
        self.order.push_back(key.clone());
        self.expiry.insert(key, expires);
    }

    /// Forgets the oldest entries that have expired at `now` (stops at the first oldest
    /// entry still valid; `contains` checks the expiry itself, so a later expired entry
    /// left behind never counts as a replay).
    pub fn forget_expired(&mut self, now: T) {
        while let Some(front) = self.order.front() {
            match self.expiry.get(front) {
                Some(e) if *e >= now => break,
                _ => self.evict_oldest(),
            }
        }
    }

    fn evict_oldest(&mut self) {
        if let Some(old) = self.order.pop_front() {
            self.expiry.remove(&old);
        }
    }

    /// Every identity with its expiry, oldest first (to persist the window).
    pub fn entries(&self) -> impl Iterator<Item = (&K, T)> + '_ {
        self.order.iter().filter_map(|k| self.expiry.get(k).map(|e| (k, *e)))
    }

    pub fn len(&self) -> usize {
        self.expiry.len()
    }

    pub fn is_empty(&self) -> bool {
        self.expiry.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(t: u64) -> ReplayKey {
        ReplayKey {
            signer: HashedId8([1; 8]),
            generation_time: t,
            tbs_hash: [2; 16],
        }
    }

    #[test]
    fn detects_and_bounds() {
        // Each 1609.2 entry expires at its generation time (window 0 here).
        let mut c = ReplayCache::new(3);
        c.insert(key(10), TaiTime(10), TaiTime(0));
        assert!(c.contains(&key(10), TaiTime(0)));
        for t in 11..20 {
            c.insert(key(t), TaiTime(t), TaiTime(0));
        }
        assert!(c.len() <= 3);
        assert!(!c.contains(&key(10), TaiTime(0)));
        c.insert(key(100), TaiTime(100), TaiTime(50));
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn forgets_after_expiry_and_capacity() {
        // The MAC-protocol use: keyed by tag, expiring a lifetime after receipt.
        let mut c: ReplayWindow<Vec<u8>, u64> = ReplayWindow::new(2);
        c.insert(b"a".to_vec(), 1_000, 0);
        assert!(c.contains(&b"a".to_vec(), 500));
        assert!(!c.contains(&b"a".to_vec(), 1_001));
        c.insert(b"b".to_vec(), 3_000, 2_000);
        c.insert(b"c".to_vec(), 3_000, 2_000);
        c.insert(b"d".to_vec(), 3_000, 2_000);
        assert!(c.len() <= 2);
        assert!(c.contains(&b"d".to_vec(), 2_000));
        assert!(!c.contains(&b"b".to_vec(), 2_000), "oldest evicted when full");
    }

    #[test]
    fn an_expired_entry_behind_a_valid_one_is_not_a_replay() {
        let mut c: ReplayWindow<u8, u64> = ReplayWindow::new(8);
        c.insert(1, 100, 0);
        c.insert(2, 10, 0);
        c.forget_expired(50);
        assert!(c.contains(&1, 50));
        assert!(!c.contains(&2, 50));
        // Re-recording keeps the later expiry.
        c.insert(1, 60, 50);
        assert!(c.contains(&1, 99));
    }
}
