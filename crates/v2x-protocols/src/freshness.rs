//! Freshness checks shared by the MAC-based protocols (hash chain, 2FLIP).
//!
//! Paper 001's headers carry a 4-byte timestamp. We put milliseconds modulo 2^32 in it
//! (wraps every 49.7 days) and compare with wrap-around arithmetic, which is exact as
//! long as clocks differ by less than 24 days — far beyond any freshness window.
//!
//! Replays inside the window are caught by the project's one replay window
//! ([`v2x_security::replay::ReplayWindow`]), keyed by the MAC tag: [`TagWindow`].

use crate::{RejectReason, Rejection, Timestamp};
use v2x_security::replay::ReplayWindow;

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

/// Accepted MAC tags of `N` bytes, each remembered for as long as its message would
/// pass [`check_fresh`] (window + future skew after receipt).
#[derive(Debug, Clone)]
pub struct TagWindow<const N: usize> {
    window: ReplayWindow<[u8; N], Timestamp>,
    lifetime_us: u64,
}

impl<const N: usize> TagWindow<N> {
    /// A window of at most `capacity` tags for the freshness bounds given.
    pub fn new(capacity: usize, window_ms: u32, future_ms: u32) -> TagWindow<N> {
        TagWindow {
            window: ReplayWindow::new(capacity),
            lifetime_us: (u64::from(window_ms) + u64::from(future_ms)) * 1000,
        }
    }

    /// True when `tag` was accepted inside the window (a replay). Tags are public (they
    /// were broadcast), so the look-up need not be constant-time.
    pub fn contains(&self, tag: &[u8; N], now: Timestamp) -> bool {
        self.window.contains(tag, now)
    }

    /// Records `tag` as accepted at `now`.
    pub fn insert(&mut self, tag: [u8; N], now: Timestamp) {
        self.window.insert(tag, now.plus_micros(self.lifetime_us), now);
    }

    pub fn len(&self) -> usize {
        self.window.len()
    }

    pub fn is_empty(&self) -> bool {
        self.window.is_empty()
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
    fn tag_window_forgets_after_the_freshness_lifetime_and_capacity() {
        // Lifetime 0.9 + 0.1 s.
        let mut c = TagWindow::<1>::new(2, 900, 100);
        c.insert(*b"a", Timestamp(0));
        assert!(c.contains(b"a", Timestamp(500_000)));
        assert!(!c.contains(b"a", Timestamp(1_000_001)));
        c.insert(*b"b", Timestamp(2_000_000));
        c.insert(*b"c", Timestamp(2_000_000));
        c.insert(*b"d", Timestamp(2_000_000));
        assert!(c.len() <= 2);
        assert!(c.contains(b"d", Timestamp(2_000_000)));
    }
}
