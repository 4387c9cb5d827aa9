//! One clock for every process of a run: TAI microseconds since 2004-01-01 (IEEE 1609.2
//! `Time64`), read from the system clock. All stations of a testbed share the host's
//! clock (loopback or network namespaces of one kernel), so send and receive times of
//! different processes compare directly — the role NTP played in PRESERVE's test bench
//! (paper 002 §2.2.2). The same value is the `Timestamp` every `Authenticator` gets.

use std::time::{Duration, SystemTime};
use v2x_protocols::Timestamp;
use v2x_security::TaiTime;

/// Now, in TAI microseconds.
pub fn now_us() -> u64 {
    TaiTime::from_system_time(SystemTime::now()).0
}

/// Now, as the `Timestamp` the protocols take.
pub fn now() -> Timestamp {
    Timestamp(now_us())
}

/// Sleeps until `deadline_us` (TAI µs); returns at once if it has passed. Sleeps in
/// one call, then yields for the last stretch so that periodic senders keep their
/// phase without burning a core.
pub fn sleep_until(deadline_us: u64) {
    loop {
        let now = now_us();
        if now >= deadline_us {
            return;
        }
        let left = deadline_us - now;
        if left > 200 {
            std::thread::sleep(Duration::from_micros(left - 100));
        } else {
            std::thread::yield_now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_is_tai_and_sleep_reaches_its_deadline() {
        let t = now_us();
        // TAI since 2004: more than 20 years of microseconds.
        assert!(t > 20 * 365 * 86_400 * 1_000_000);
        sleep_until(t + 3_000);
        assert!(now_us() >= t + 3_000);
        sleep_until(t); // in the past: immediate
    }
}
