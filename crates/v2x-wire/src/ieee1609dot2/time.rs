//! Time32 / Time64 <-> Unix time.
//!
//! 1609.2 §6.4.14: `Time32` counts TAI seconds since 2004-01-01T00:00:00Z, `Time64` TAI
//! microseconds since then. TAI runs ahead of UTC by the leap seconds inserted since 2004, so
//! converting from Unix time (UTC, leap seconds not counted) adds the leap seconds that occurred
//! between 2004 and that instant. [`LEAP_SECONDS`] is the explicit table (IERS Bulletin C); it
//! must be extended when the IERS announces a new leap second (none announced as of 2026; the
//! last one was 2016-12-31T23:59:60Z, which makes TAI-since-2004 run 5 s ahead today).
//!
//! An inserted leap second (23:59:60) has no Unix time of its own: converting that TAI second
//! back gives the Unix time of the following midnight, as Unix clocks do.

use std::time::{SystemTime, UNIX_EPOCH};

use super::{Time32, Time64};

/// Unix time (seconds) of 2004-01-01T00:00:00Z, the 1609.2 epoch.
pub const ITS_EPOCH_UNIX: i64 = 1_072_915_200;

/// Unix times (seconds) of the first second after each leap second inserted since 2004
/// (i.e. the UTC midnights that followed a 23:59:60).
pub const LEAP_SECONDS: [i64; 5] = [
    1_136_073_600, // 2006-01-01 (after 2005-12-31T23:59:60Z)
    1_230_768_000, // 2009-01-01
    1_341_100_800, // 2012-07-01
    1_435_708_800, // 2015-07-01
    1_483_228_800, // 2017-01-01
];

/// Leap seconds inserted between the 1609.2 epoch and the Unix instant `unix_secs`.
pub fn leap_seconds_at(unix_secs: i64) -> i64 {
    LEAP_SECONDS.iter().filter(|&&l| unix_secs >= l).count() as i64
}

/// TAI seconds since 2004 of a Unix time (floor, i.e. fractional seconds dropped by the caller).
fn its_secs_from_unix(unix_secs: i64) -> i64 {
    unix_secs - ITS_EPOCH_UNIX + leap_seconds_at(unix_secs)
}

/// Unix seconds of a count of TAI seconds since 2004.
fn unix_from_its_secs(its_secs: i64) -> i64 {
    // The TAI count at which the i-th leap second has been absorbed is L_i - epoch + (i + 1).
    let absorbed = LEAP_SECONDS
        .iter()
        .enumerate()
        .filter(|&(i, &l)| its_secs > l - ITS_EPOCH_UNIX + i as i64)
        .count() as i64;
    // During an inserted leap second (TAI count L_i - epoch + i) only i leap seconds are
    // absorbed, which lands on L_i: the following midnight.
    its_secs + ITS_EPOCH_UNIX - absorbed
}

/// `Time32` of a Unix time in seconds; `None` before 2004 or after Time32's range (2140).
pub fn time32_from_unix(unix_secs: i64) -> Option<Time32> {
    u32::try_from(its_secs_from_unix(unix_secs)).ok().map(Time32)
}

/// Unix time in seconds of a `Time32`.
pub fn unix_from_time32(t: &Time32) -> i64 {
    unix_from_its_secs(i64::from(t.0))
}

/// `Time64` of a Unix time in microseconds; `None` before 2004.
pub fn time64_from_unix_micros(unix_micros: i64) -> Option<Time64> {
    let secs = unix_micros.div_euclid(1_000_000);
    let micros = unix_micros.rem_euclid(1_000_000);
    let its = its_secs_from_unix(secs).checked_mul(1_000_000)?.checked_add(micros)?;
    u64::try_from(its).ok().map(Time64)
}

/// Unix time in microseconds of a `Time64`; `None` if beyond the i64 range (year ~294000).
pub fn unix_micros_from_time64(t: &Time64) -> Option<i64> {
    let its = i64::try_from(t.0).ok()?;
    let secs = unix_from_its_secs(its / 1_000_000);
    secs.checked_mul(1_000_000)?.checked_add(its % 1_000_000)
}

/// `Time64` of a `SystemTime`; `None` before 2004.
pub fn time64_from_system_time(t: SystemTime) -> Option<Time64> {
    let micros = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_micros()).ok()?,
        Err(_) => return None,
    };
    time64_from_unix_micros(micros)
}

/// `Time32` of a `SystemTime`; `None` before 2004 or after 2140.
pub fn time32_from_system_time(t: SystemTime) -> Option<Time32> {
    let secs = i64::try_from(t.duration_since(UNIX_EPOCH).ok()?.as_secs()).ok()?;
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
