//! Freshness and replay checks shared by the MAC-based protocols.
//!
//! Paper 001's headers carry a 4-byte timestamp. We put milliseconds modulo 2^32 in it
//! (wraps every 49.7 days) and compare with wrap-around arithmetic, which is exact as
//! long as clocks differ by less than 24 days — far beyond any freshness window.

use crate::{RejectReason, Rejection, Timestamp};
use std::collections::{HashSet, VecDeque};

/// The 4-byte wire timestamp for `now`.
pub fn ts32(now: Timestamp) -> u32 {
    (now.as_millis() & 0xffff_ffff) as u32
}

/// Age in milliseconds of a 4-byte timestamp at `now` (negative: from the future).
pub fn age_ms(now: Timestamp, ts: u32) -> i64 {
    i64::from(ts32(now).wrapping_sub(ts) as i32)
}

/// The full generation time a 4-byte timestamp stands for, seen from `now`.
pub fn expand_ts32(now: Timestamp, ts: u32) -> Timestamp {
    let age = age_ms(now, ts);
    let now_ms = now.as_millis() as i64;
    Timestamp::from_millis(now_ms.saturating_sub(age).max(0) as u64)
}

/// Accepts a timestamp no older than `window_ms` and no more than `future_ms` ahead.
pub fn check_fresh(now: Timestamp, ts: u32, window_ms: u32, future_ms: u32) -> Result<(), Rejection> {
    let age = age_ms(now, ts);
    if age > i64::from(window_ms) {
        return Err(Rejection::new(
            RejectReason::StaleMessage,
            format!("{age} ms old, window {window_ms} ms"),
        ));
    }
    if -age > i64::from(future_ms) {
        return Err(Rejection::new(
            RejectReason::FutureMessage,
            format!("{} ms in the future", -age),
        ));
    }
    Ok(())
}

/// Remembers recently accepted messages (by a caller-chosen key, e.g. the MAC tag) for
/// as long as they would pass the freshness check, so a replay inside the window is
/// caught. Bounded: when full, the oldest entries are forgotten first.
#[derive(Debug, Clone)]
pub struct ReplayCache {
    seen: HashSet<Vec<u8>>,
    order: VecDeque<(Timestamp, Vec<u8>)>,
    capacity: usize,
    lifetime_us: u64,
}

impl ReplayCache {
    pub fn new(capacity: usize, lifetime_us: u64) -> ReplayCache {
        ReplayCache {
            seen: HashSet::new(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
            lifetime_us,
        }
    }

    fn prune(&mut self, now: Timestamp) {
        while let Some((t, _)) = self.order.front() {
            if t.plus_micros(self.lifetime_us) < now || self.order.len() > self.capacity {
                if let Some((_, k)) = self.order.pop_front() {
                    self.seen.remove(&k);
                }
            } else {
                break;
            }
        }
    }

    /// True when `key` was seen inside the lifetime (a replay).
    pub fn contains(&mut self, key: &[u8], now: Timestamp) -> bool {
        self.prune(now);
        self.seen.contains(key)
    }

    /// Records `key` as accepted at `now`.
    pub fn insert(&mut self, key: Vec<u8>, now: Timestamp) {
        if self.seen.insert(key.clone()) {
            self.order.push_back((now, key));
        }
        self.prune(now);
    }

    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ts32_wraps_and_ages_are_signed() {
        let now = Timestamp::from_millis((1u64 << 32) + 5);
        assert_eq!(ts32(now), 5);
        assert_eq!(age_ms(now, u32::MAX), 6);
        assert_eq!(age_ms(now, 10), -5);
        assert_eq!(expand_ts32(now, u32::MAX), Timestamp::from_millis((1u64 << 32) - 1));
    }

    #[test]
    fn freshness_window_and_future_skew() {
        let now = Timestamp::from_millis(10_000);
        assert!(check_fresh(now, 9_900, 100, 10).is_ok());
        assert_eq!(
            check_fresh(now, 9_899, 100, 10).unwrap_err().reason,
            RejectReason::StaleMessage
        );
        assert_eq!(
            check_fresh(now, 10_011, 100, 10).unwrap_err().reason,
            RejectReason::FutureMessage
        );
    }

    #[test]
    fn replay_cache_forgets_after_lifetime_and_capacity() {
        let mut c = ReplayCache::new(2, 1_000);
        c.insert(b"a".to_vec(), Timestamp(0));
        assert!(c.contains(b"a", Timestamp(500)));
        assert!(!c.contains(b"a", Timestamp(1_001)));
        c.insert(b"b".to_vec(), Timestamp(2_000));
        c.insert(b"c".to_vec(), Timestamp(2_000));
        c.insert(b"d".to_vec(), Timestamp(2_000));
        assert!(c.len() <= 2);
        assert!(c.contains(b"d", Timestamp(2_000)));
    }
}
