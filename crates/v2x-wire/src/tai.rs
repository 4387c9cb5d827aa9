//! TAI time as IEEE 1609.2 (§6.4.14) and ETSI TS 103 097 count it, and the one leap-second
//! table of v2xsec.
//!
//! `Time32` counts TAI seconds since 2004-01-01T00:00:00Z, `Time64` TAI microseconds since
//! then. TAI runs ahead of UTC by the leap seconds inserted since 2004, so converting from Unix
//! time (UTC, leap seconds not counted) adds the leap seconds that occurred between 2004 and that
//! instant. [`LEAP_SECONDS`] is the explicit table (IERS Bulletin C); it must be extended when
//! the IERS announces a new leap second (none announced as of 2026; the last one was
//! 2016-12-31T23:59:60Z, which makes TAI-since-2004 run 5 s ahead today).
//!
//! An inserted leap second (23:59:60) has no Unix time of its own: converting that TAI second
//! back gives the Unix time of the following midnight, as Unix clocks do.
//!
//! [`TaiTime`] is a point in time in `Time64` units; calendar dates (RFC 3339) go through the
//! `time` crate.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::OffsetDateTime;

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

const MICROS: i64 = 1_000_000;

/// Leap seconds inserted between the 1609.2 epoch and the Unix instant `unix_secs`.
pub fn leap_seconds_at(unix_secs: i64) -> i64 {
    LEAP_SECONDS.iter().filter(|&&l| unix_secs >= l).count() as i64
}

/// TAI seconds since 2004 of a Unix time in whole seconds (negative before 2004).
pub fn tai_secs_from_unix(unix_secs: i64) -> i64 {
    unix_secs - ITS_EPOCH_UNIX + leap_seconds_at(unix_secs)
}

/// Unix seconds of a count of TAI seconds since 2004.
pub fn unix_from_tai_secs(tai_secs: i64) -> i64 {
    // The TAI count at which the i-th leap second has been absorbed is L_i - epoch + (i + 1).
    let absorbed = LEAP_SECONDS
        .iter()
        .enumerate()
        .filter(|&(i, &l)| tai_secs > l - ITS_EPOCH_UNIX + i as i64)
        .count() as i64;
    // During an inserted leap second (TAI count L_i - epoch + i) only i leap seconds are
    // absorbed, which lands on L_i: the following midnight.
    tai_secs + ITS_EPOCH_UNIX - absorbed
}

/// Why a text is not a time [`TaiTime`] can hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaiTimeError {
    #[error("{input:?} is not an RFC 3339 time (e.g. 2026-01-01T12:00:00Z): {cause}")]
    NotRfc3339 { input: String, cause: time::error::Parse },
    #[error("{0} is before the 1609.2 epoch 2004-01-01T00:00:00Z")]
    BeforeEpoch(String),
}

/// A point in time as 1609.2 `Time64`: TAI microseconds since 2004-01-01T00:00:00Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TaiTime(pub u64);

impl TaiTime {
    pub const MICROS_PER_SECOND: u64 = 1_000_000;

    /// The current time from the system clock (a clock set before 2004 gives the epoch).
    pub fn now() -> TaiTime {
        TaiTime::from_system_time(SystemTime::now())
    }

    /// The instant `unix_micros` microseconds after 1970-01-01T00:00:00Z (UTC); `None` before
    /// 2004.
    pub fn from_unix_micros(unix_micros: i64) -> Option<TaiTime> {
        let secs = unix_micros.div_euclid(MICROS);
        let tai = tai_secs_from_unix(secs)
            .checked_mul(MICROS)?
            .checked_add(unix_micros.rem_euclid(MICROS))?;
        u64::try_from(tai).ok().map(TaiTime)
    }

    /// Microseconds since 1970-01-01T00:00:00Z; `None` beyond the i64 range (year ~294000).
    pub fn to_unix_micros(self) -> Option<i64> {
        let tai = i64::try_from(self.0).ok()?;
        unix_from_tai_secs(tai / MICROS)
            .checked_mul(MICROS)?
            .checked_add(tai % MICROS)
    }

    /// Converts a UTC system time (times before 2004 clamp to the epoch, times beyond the
    /// range to the largest value).
    pub fn from_system_time(t: SystemTime) -> TaiTime {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_micros()).map_or(TaiTime(u64::MAX), |us| {
                TaiTime::from_unix_micros(us).unwrap_or_default()
            }),
            Err(_) => TaiTime(0),
        }
    }

    /// Back to a UTC system time.
    pub fn to_system_time(self) -> SystemTime {
        let micros = self.to_unix_micros().unwrap_or(i64::MAX);
        UNIX_EPOCH + Duration::from_micros(micros.max(0) as u64)
    }

    /// From 1609.2 Time32 (TAI seconds).
    pub fn from_time32(t: u32) -> TaiTime {
        TaiTime(u64::from(t) * Self::MICROS_PER_SECOND)
    }

    /// Whole TAI seconds (saturating at the Time32 range).
    pub fn to_time32(self) -> u32 {
        u32::try_from(self.seconds()).unwrap_or(u32::MAX)
    }

    /// Whole TAI seconds since 2004.
    pub fn seconds(self) -> u64 {
        self.0 / Self::MICROS_PER_SECOND
    }

    pub fn saturating_add(self, d: Duration) -> TaiTime {
        TaiTime(self.0.saturating_add(u64::try_from(d.as_micros()).unwrap_or(u64::MAX)))
    }

    pub fn saturating_sub(self, d: Duration) -> TaiTime {
        TaiTime(self.0.saturating_sub(u64::try_from(d.as_micros()).unwrap_or(u64::MAX)))
    }

    /// Parses an RFC 3339 time with any offset (e.g. `2026-01-01T12:00:00Z`,
    /// `2026-01-01T13:00:00.5+01:00`).
    pub fn parse_rfc3339(s: &str) -> Result<TaiTime, TaiTimeError> {
        let t = OffsetDateTime::parse(s, &Rfc3339).map_err(|cause| TaiTimeError::NotRfc3339 {
            input: s.to_string(),
            cause,
        })?;
        let micros =
            i64::try_from(t.unix_timestamp_nanos() / 1_000).map_err(|_| TaiTimeError::BeforeEpoch(s.into()))?;
        TaiTime::from_unix_micros(micros).ok_or_else(|| TaiTimeError::BeforeEpoch(s.into()))
    }

    /// The UTC time in RFC 3339 (see [`rfc3339_from_unix_micros`]).
    pub fn to_rfc3339(self) -> String {
        match self.to_unix_micros() {
            Some(us) => rfc3339_from_unix_micros(us),
            None => format!("{} us TAI since 2004", self.0),
        }
    }
}

impl fmt::Display for TaiTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (TAI {} us since 2004)", self.to_rfc3339(), self.0)
    }
}

/// RFC 3339 UTC time of a Unix time in microseconds: `YYYY-MM-DDTHH:MM:SSZ`, with `.ffffff`
/// when there are microseconds. Instants the calendar cannot show (beyond year ±9999) are
/// given as Unix seconds.
pub fn rfc3339_from_unix_micros(unix_micros: i64) -> String {
    let whole = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    let micro = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");
    let formatted = OffsetDateTime::from_unix_timestamp_nanos(i128::from(unix_micros) * 1_000)
        .ok()
        .and_then(|t| {
            let format = if unix_micros.rem_euclid(MICROS) == 0 {
                whole
            } else {
                micro
            };
            t.format(format).ok()
        });
    formatted.unwrap_or_else(|| format!("unix {} s", unix_micros.div_euclid(MICROS)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_is_zero() {
        assert_eq!(TaiTime::from_unix_micros(ITS_EPOCH_UNIX * MICROS), Some(TaiTime(0)));
        assert_eq!(TaiTime(0).to_unix_micros(), Some(ITS_EPOCH_UNIX * MICROS));
        assert_eq!(TaiTime::from_unix_micros(ITS_EPOCH_UNIX * MICROS - 1), None);
        let t = UNIX_EPOCH + Duration::from_secs(ITS_EPOCH_UNIX as u64);
        assert_eq!(TaiTime::from_system_time(t), TaiTime(0));
        assert_eq!(TaiTime::from_system_time(UNIX_EPOCH), TaiTime(0), "clamps before 2004");
    }

    #[test]
    fn counts_the_five_leap_seconds_after_2017() {
        // 2020-01-01T00:00:00Z
        let unix = 1_577_836_800;
        let t = TaiTime::from_system_time(UNIX_EPOCH + Duration::from_secs(unix as u64));
        assert_eq!(t.seconds() as i64, unix - ITS_EPOCH_UNIX + 5);
        assert_eq!(t.to_system_time(), UNIX_EPOCH + Duration::from_secs(unix as u64));
    }

    #[test]
    fn round_trips_across_each_leap_second() {
        for &l in &LEAP_SECONDS {
            for u in l - 3..l + 3 {
                assert_eq!(unix_from_tai_secs(tai_secs_from_unix(u)), u, "unix {u}");
            }
            // The TAI second of the inserted 23:59:60 is skipped by UTC->TAI and maps forward.
            let before = tai_secs_from_unix(l - 1);
            assert_eq!(tai_secs_from_unix(l) - before, 2);
            assert_eq!(unix_from_tai_secs(before + 1), l);
        }
    }

    #[test]
    fn round_trips_with_micros() {
        let st = UNIX_EPOCH + Duration::from_micros(1_700_000_000_123_456);
        assert_eq!(TaiTime::from_system_time(st).to_system_time(), st);
        assert_eq!(TaiTime::from_time32(10).to_time32(), 10);
        assert_eq!(TaiTime(u64::MAX).to_unix_micros(), None);
    }

    #[test]
    fn rfc3339_both_ways() {
        assert_eq!(rfc3339_from_unix_micros(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_from_unix_micros(1_072_915_200_000_000), "2004-01-01T00:00:00Z");
        assert_eq!(
            rfc3339_from_unix_micros(951_782_400_000_001),
            "2000-02-29T00:00:00.000001Z"
        );
        assert_eq!(rfc3339_from_unix_micros(1_763_769_599_000_000), "2025-11-21T23:59:59Z");
        assert_eq!(rfc3339_from_unix_micros(-1_000_000), "1969-12-31T23:59:59Z");
        assert_eq!(rfc3339_from_unix_micros(i64::MAX), "unix 9223372036854 s");

        let t = TaiTime::parse_rfc3339("2020-01-01T01:00:00.25+01:00").unwrap();
        assert_eq!(t.to_rfc3339(), "2020-01-01T00:00:00.250000Z");
        assert_eq!(t.seconds() as i64, 1_577_836_800 - ITS_EPOCH_UNIX + 5);
        assert!(matches!(
            TaiTime::parse_rfc3339("2003-12-31T23:59:59Z"),
            Err(TaiTimeError::BeforeEpoch(_))
        ));
        assert!(matches!(
            TaiTime::parse_rfc3339("yesterday"),
            Err(TaiTimeError::NotRfc3339 { .. })
        ));
        assert_eq!(
            TaiTime(5_000_000).to_string(),
            "2004-01-01T00:00:05Z (TAI 5000000 us since 2004)"
        );
    }
}
