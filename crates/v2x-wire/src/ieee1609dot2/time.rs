//! Time32 / Time64 <-> Unix time, on [`crate::tai`] (the leap-second table and the TAI
//! arithmetic live there).

use std::time::SystemTime;

use super::{Time32, Time64};
use crate::tai::{tai_secs_from_unix, unix_from_tai_secs, TaiTime};

/// `Time32` of a Unix time in seconds; `None` before 2004 or after Time32's range (2140).
pub fn time32_from_unix(unix_secs: i64) -> Option<Time32> {
    u32::try_from(tai_secs_from_unix(unix_secs)).ok().map(Time32)
}

/// Unix time in seconds of a `Time32`.
pub fn unix_from_time32(t: &Time32) -> i64 {
    unix_from_tai_secs(i64::from(t.0))
}

/// `Time64` of a Unix time in microseconds; `None` before 2004.
pub fn time64_from_unix_micros(unix_micros: i64) -> Option<Time64> {
    TaiTime::from_unix_micros(unix_micros).map(|t| Time64(t.0))
}

/// Unix time in microseconds of a `Time64`; `None` if beyond the i64 range (year ~294000).
pub fn unix_micros_from_time64(t: &Time64) -> Option<i64> {
    TaiTime(t.0).to_unix_micros()
}

/// `Time64` of a `SystemTime`; `None` before 2004.
pub fn time64_from_system_time(t: SystemTime) -> Option<Time64> {
    let micros = i64::try_from(t.duration_since(std::time::UNIX_EPOCH).ok()?.as_micros()).ok()?;
    time64_from_unix_micros(micros)
}

/// `Time32` of a `SystemTime`; `None` before 2004 or after 2140.
pub fn time32_from_system_time(t: SystemTime) -> Option<Time32> {
    let secs = i64::try_from(t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs()).ok()?;
    time32_from_unix(secs)
}

/// The current time as `Time64` (the system clock is after 2004 on any sane machine; a clock set
/// before 2004 yields Time64 0).
pub fn time64_now() -> Time64 {
    time64_from_system_time(SystemTime::now()).unwrap_or(Time64(0))
}

/// The current time as `Time32` (see [`time64_now`] for the clock caveat).
pub fn time32_now() -> Time32 {
    time32_from_system_time(SystemTime::now()).unwrap_or(Time32(0))
}

/// Seconds in a `Duration` as 1609.2 §6.4.16 defines them (`years` are 31 556 952 s, i.e.
/// 365.2425 days; `sixtyHours` 216 000 s); sub-second units are rounded down.
pub fn duration_secs(d: &super::Duration) -> u64 {
    use super::Duration as D;
    match *d {
        D::Microseconds(n) => u64::from(n) / 1_000_000,
        D::Milliseconds(n) => u64::from(n) / 1_000,
        D::Seconds(n) => u64::from(n),
        D::Minutes(n) => u64::from(n) * 60,
        D::Hours(n) => u64::from(n) * 3_600,
        D::SixtyHours(n) => u64::from(n) * 216_000,
        D::Years(n) => u64::from(n) * 31_556_952,
    }
}

/// The validity period as `[start, end)` in TAI seconds since 2004 (Time32 units; `end` may
/// exceed u32 for long durations, hence u64).
pub fn validity_bounds(v: &super::ValidityPeriod) -> (u64, u64) {
    let start = u64::from(v.start.0);
    (start, start + duration_secs(&v.duration))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tai::{ITS_EPOCH_UNIX, LEAP_SECONDS};

    #[test]
    fn epoch_is_zero() {
        assert_eq!(time32_from_unix(ITS_EPOCH_UNIX), Some(Time32(0)));
        assert_eq!(unix_from_time32(&Time32(0)), ITS_EPOCH_UNIX);
        assert_eq!(time32_from_unix(ITS_EPOCH_UNIX - 1), None);
    }

    #[test]
    fn five_leap_seconds_since_2017() {
        // 2020-01-01T00:00:00Z = 1577836800 Unix; 16 years minus... TAI count is +5.
        let t = time32_from_unix(1_577_836_800).unwrap();
        assert_eq!(i64::from(t.0), 1_577_836_800 - ITS_EPOCH_UNIX + 5);
        assert_eq!(unix_from_time32(&t), 1_577_836_800);
    }

    #[test]
    fn round_trip_across_each_leap_second() {
        for &l in &LEAP_SECONDS {
            for u in l - 3..l + 3 {
                let t = time32_from_unix(u).unwrap();
                assert_eq!(unix_from_time32(&t), u, "unix {u}");
            }
            // The TAI second of the inserted 23:59:60 is skipped by UTC->TAI and maps forward.
            let before = time32_from_unix(l - 1).unwrap().0;
            let after = time32_from_unix(l).unwrap().0;
            assert_eq!(after - before, 2);
            assert_eq!(unix_from_time32(&Time32(before + 1)), l);
        }
    }

    #[test]
    fn time64_micros_round_trip() {
        let u = 1_700_000_000_123_456i64;
        let t = time64_from_unix_micros(u).unwrap();
        assert_eq!(t.0 % 1_000_000, 123_456);
        assert_eq!(unix_micros_from_time64(&t), Some(u));
        assert_eq!(time64_from_unix_micros(ITS_EPOCH_UNIX * 1_000_000 - 1), None);
    }

    #[test]
    fn durations() {
        assert_eq!(duration_secs(&crate::ieee1609dot2::Duration::Years(1)), 31_556_952);
        assert_eq!(duration_secs(&crate::ieee1609dot2::Duration::SixtyHours(2)), 432_000);
        assert_eq!(duration_secs(&crate::ieee1609dot2::Duration::Milliseconds(2500)), 2);
    }
}
