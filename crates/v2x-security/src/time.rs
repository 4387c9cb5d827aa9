//! IEEE 1609.2 time: TAI since 2004-01-01 00:00:00 UTC (Time32 in seconds, Time64 in
//! microseconds).
//!
//! The 1609.2 epoch counts TAI seconds, so UTC instants after a leap second are one
//! second further from the epoch than a naive subtraction gives. The table below holds
//! the leap seconds inserted since 2004 (none has been announced after 2016-12-31).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Unix time of 2004-01-01 00:00:00 UTC.
pub const EPOCH_2004_UNIX: u64 = 1_072_915_200;

/// Unix times (UTC) right after each leap second inserted since 2004.
const LEAP_SECONDS_SINCE_2004: [u64; 5] = [
    1_136_073_600, // 2006-01-01
    1_230_768_000, // 2009-01-01
    1_341_100_800, // 2012-07-01
    1_435_708_800, // 2015-07-01
    1_483_228_800, // 2017-01-01
];

fn leap_seconds_at_unix(unix_s: u64) -> u64 {
    LEAP_SECONDS_SINCE_2004.iter().filter(|&&t| unix_s >= t).count() as u64
}

/// A point in time as 1609.2 Time64: TAI microseconds since 2004-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TaiTime(pub u64);

impl TaiTime {
    pub const MICROS_PER_SECOND: u64 = 1_000_000;

    /// The current time from the system clock.
    pub fn now() -> TaiTime {
        TaiTime::from_system_time(SystemTime::now())
    }

    /// Converts a UTC system time (times before 2004 clamp to the epoch).
    pub fn from_system_time(t: SystemTime) -> TaiTime {
        let unix = t.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
        let secs = unix.as_secs();
        if secs < EPOCH_2004_UNIX {
            return TaiTime(0);
        }
        let tai_s = secs - EPOCH_2004_UNIX + leap_seconds_at_unix(secs);
        TaiTime(
            tai_s
                .saturating_mul(Self::MICROS_PER_SECOND)
                .saturating_add(u64::from(unix.subsec_micros())),
        )
    }

    /// Back to a UTC system time.
    pub fn to_system_time(self) -> SystemTime {
        let tai_s = self.0 / Self::MICROS_PER_SECOND;
        let micros = self.0 % Self::MICROS_PER_SECOND;
        // Find the leap-second count that makes the mapping consistent.
        let mut unix = EPOCH_2004_UNIX + tai_s;
        for _ in 0..2 {
            unix = EPOCH_2004_UNIX + tai_s - leap_seconds_at_unix(unix).min(tai_s);
        }
        UNIX_EPOCH + Duration::from_secs(unix) + Duration::from_micros(micros)
    }

    /// From 1609.2 Time32 (TAI seconds).
    pub fn from_time32(t: u32) -> TaiTime {
        TaiTime(u64::from(t) * Self::MICROS_PER_SECOND)
    }

    /// Whole TAI seconds (saturating at the Time32 range).
    pub fn to_time32(self) -> u32 {
        u32::try_from(self.0 / Self::MICROS_PER_SECOND).unwrap_or(u32::MAX)
    }

    pub fn seconds(self) -> u64 {
        self.0 / Self::MICROS_PER_SECOND
    }

    pub fn saturating_add(self, d: Duration) -> TaiTime {
        TaiTime(self.0.saturating_add(u64::try_from(d.as_micros()).unwrap_or(u64::MAX)))
    }

    pub fn saturating_sub(self, d: Duration) -> TaiTime {
        TaiTime(self.0.saturating_sub(u64::try_from(d.as_micros()).unwrap_or(u64::MAX)))
    }
}

impl std::fmt::Display for TaiTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let unix = self
            .to_system_time()
            .duration_since(UNIX_EPOCH)
            .unwrap_or(Duration::ZERO);
        write!(
            f,
            "TaiTime({} = unix {}.{:06})",
            self.0,
            unix.as_secs(),
            unix.subsec_micros()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_maps_to_zero() {
        let t = UNIX_EPOCH + Duration::from_secs(EPOCH_2004_UNIX);
        assert_eq!(TaiTime::from_system_time(t), TaiTime(0));
    }

    #[test]
    fn counts_the_five_leap_seconds_after_2017() {
        // 2020-01-01 00:00:00 UTC
        let unix = 1_577_836_800;
        let t = TaiTime::from_system_time(UNIX_EPOCH + Duration::from_secs(unix));
        assert_eq!(t.seconds(), unix - EPOCH_2004_UNIX + 5);
        assert_eq!(t.to_system_time(), UNIX_EPOCH + Duration::from_secs(unix));
    }

    #[test]
    fn round_trips_with_micros() {
        let st = UNIX_EPOCH + Duration::from_micros(1_700_000_000_123_456);
        assert_eq!(TaiTime::from_system_time(st).to_system_time(), st);
        assert_eq!(TaiTime::from_time32(10).to_time32(), 10);
    }
}
