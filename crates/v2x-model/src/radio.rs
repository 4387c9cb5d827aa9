//! Per-hop transmission and propagation time.
//!
//! - `ideal` (paper 003): bytes * 8 / rate, nothing else — no framing, no channel access.
//! - `802.11p` (10 MHz OFDM, unloaded channel): the message is split into MSDUs of at most
//!   [`DOT11P_MAX_MSDU`] bytes; each frame waits AIFS and the mean backoff of AC_BE and
//!   then takes the PHY airtime of its PSDU (MAC header, LLC/SNAP and FCS added). The
//!   airtime is the simulator's ([`v2x_sim::phy::airtime_ns`]).
//! - `c-v2x` (LTE-V2X PC5, simplified): the message occupies whole 1-ms subframes at the
//!   given rate (the transport block size of the chosen MCS and subchannels, which the
//!   user states as a rate). The semi-persistent scheduling wait is not included.

use serde::{Deserialize, Serialize};
use std::fmt;

v2x_profile::named_enum! {
    /// How transmission time is computed.
    pub enum RadioKind ("radio") {
        /// bytes * 8 / rate (paper 003).
        Ideal = "ideal",
        /// 802.11p 10 MHz frames with AIFS and mean backoff on an idle channel.
        Dot11p = "802.11p",
        /// LTE-V2X sidelink: whole 1-ms subframes at the stated rate.
        Cv2x = "c-v2x",
    }
}

/// Propagation speed used by paper 003 ("250/(3*10^8)").
pub const PROPAGATION_M_PER_S: f64 = 3.0e8;

/// Largest MSDU per 802.11p frame: the 1500-byte MTU of IPv6/GeoNetworking over 802.11p.
pub const DOT11P_MAX_MSDU: u64 = 1500;
/// QoS data MAC header (26) + LLC/SNAP (8) + FCS (4).
pub const DOT11P_MAC_OVERHEAD: u64 = 38;
/// 802.11p OCB timing at 10 MHz (IEEE 802.11-2020 Tables 17-21 and 9-155): slot and SIFS.
pub const DOT11P_SLOT_US: f64 = 13.0;
pub const DOT11P_SIFS_US: f64 = 32.0;
/// AC_BE: AIFSN 6, CWmin 15 (a handshake is not a safety message).
pub const DOT11P_AIFSN_BE: f64 = 6.0;
pub const DOT11P_CWMIN_BE: f64 = 15.0;

/// The data rates of 802.11p at 10 MHz, in Mbit/s.
pub const DOT11P_RATES: [f64; 8] = [3.0, 4.5, 6.0, 9.0, 12.0, 18.0, 24.0, 27.0];

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RadioError {
    #[error("{0} Mbit/s is not an 802.11p rate at 10 MHz (valid: 3, 4.5, 6, 9, 12, 18, 24, 27)")]
    NotDot11pRate(f64),
    #[error("the rate must be a positive number of Mbit/s, not {0}")]
    BadRate(f64),
    #[error("the hop distance must be a finite distance >= 0 m, not {0}")]
    BadDistance(f64),
}

/// A radio: how long one hop takes to carry a message.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Radio {
    pub kind: RadioKind,
    pub rate_mbps: f64,
    pub hop_distance_m: f64,
}

impl Radio {
    pub fn new(kind: RadioKind, rate_mbps: f64, hop_distance_m: f64) -> Result<Radio, RadioError> {
        if !(rate_mbps.is_finite() && rate_mbps > 0.0) {
            return Err(RadioError::BadRate(rate_mbps));
        }
        if kind == RadioKind::Dot11p && !DOT11P_RATES.iter().any(|r| (r - rate_mbps).abs() < 1e-9) {
            return Err(RadioError::NotDot11pRate(rate_mbps));
        }
        if !(hop_distance_m.is_finite() && hop_distance_m >= 0.0) {
            return Err(RadioError::BadDistance(hop_distance_m));
        }
        Ok(Radio {
            kind,
            rate_mbps,
            hop_distance_m,
        })
    }

    /// Time to put `bytes` on the air over one hop, in ms.
    pub fn transmission_ms(&self, bytes: u64) -> f64 {
        match self.kind {
            RadioKind::Ideal => bytes as f64 * 8.0 / (self.rate_mbps * 1e6) * 1e3,
            RadioKind::Dot11p => {
                let access_us =
                    DOT11P_SIFS_US + DOT11P_AIFSN_BE * DOT11P_SLOT_US + DOT11P_CWMIN_BE / 2.0 * DOT11P_SLOT_US;
                let full = bytes / DOT11P_MAX_MSDU;
                let rest = bytes % DOT11P_MAX_MSDU;
                let frame_us = |msdu: u64| {
                    let psdu = u32::try_from(msdu + DOT11P_MAC_OVERHEAD).unwrap_or(u32::MAX);
                    access_us + v2x_sim::phy::airtime_ns(psdu, self.rate_mbps) as f64 / 1e3
                };
                let mut us = full as f64 * frame_us(DOT11P_MAX_MSDU);
                if rest > 0 || bytes == 0 {
                    us += frame_us(rest);
                }
                us / 1e3
            }
            RadioKind::Cv2x => {
                let bits_per_subframe = self.rate_mbps * 1e3;
                (bytes as f64 * 8.0 / bits_per_subframe).ceil().max(1.0)
            }
        }
    }

    /// Time for the signal to cross one hop, in ms.
    pub fn propagation_ms(&self) -> f64 {
        self.hop_distance_m / PROPAGATION_M_PER_S * 1e3
    }
}

impl fmt::Display for Radio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} Mbit/s, {} m per hop",
            self.kind, self.rate_mbps, self.hop_distance_m
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ideal_matches_table_4_worked_example() {
        // "2088 (=40+1024+1024) bytes ... 1.5185 (=2088*8/(11*10^6)*10^3) ms"
        let r = Radio::new(RadioKind::Ideal, 11.0, 250.0).unwrap();
        assert!((r.transmission_ms(2088) - 2088.0 * 8.0 / 11e6 * 1e3).abs() < 1e-12);
        assert!((r.transmission_ms(2088) - 1.5185).abs() < 1e-4);
        // "250/(3*10^8) seconds"
        assert!((r.propagation_ms() - 250.0 / 3e8 * 1e3).abs() < 1e-15);
    }

    #[test]
    fn dot11p_adds_access_framing_and_fragments() {
        let r = Radio::new(RadioKind::Dot11p, 6.0, 250.0).unwrap();
        // 100 B: AIFS 110 µs + backoff 97.5 µs + 40 µs + ceil((22 + 8*138)/48) = 24 symbols of 8 µs.
        let expect = (32.0 + 6.0 * 13.0 + 7.5 * 13.0 + 40.0 + 24.0 * 8.0) / 1e3;
        assert!(
            (r.transmission_ms(100) - expect).abs() < 1e-12,
            "{}",
            r.transmission_ms(100)
        );
        // 3000 B = two full 1500-B frames; 3001 B needs a third.
        let one = r.transmission_ms(1500);
        assert!((r.transmission_ms(3000) - 2.0 * one).abs() < 1e-12);
        assert!(r.transmission_ms(3001) > 2.0 * one + 0.2);
        // Faster rates take less time, never less than bits / rate.
        let fast = Radio::new(RadioKind::Dot11p, 27.0, 250.0).unwrap();
        assert!(fast.transmission_ms(2000) < r.transmission_ms(2000));
        assert!(fast.transmission_ms(2000) > 2000.0 * 8.0 / 27e6 * 1e3);
    }

    #[test]
    fn cv2x_uses_whole_subframes() {
        let r = Radio::new(RadioKind::Cv2x, 8.0, 250.0).unwrap();
        assert_eq!(r.transmission_ms(1), 1.0);
        assert_eq!(r.transmission_ms(1000), 1.0, "8000 bits fill one subframe at 8 Mbit/s");
        assert_eq!(r.transmission_ms(1001), 2.0);
    }

    #[test]
    fn invalid_radios_are_errors() {
        assert_eq!(
            Radio::new(RadioKind::Dot11p, 11.0, 250.0),
            Err(RadioError::NotDot11pRate(11.0))
        );
        assert!(Radio::new(RadioKind::Ideal, 0.0, 250.0).is_err());
        assert!(Radio::new(RadioKind::Ideal, 6.0, f64::NAN).is_err());
        let e = "wifi".parse::<RadioKind>().unwrap_err().to_string();
        assert!(e.contains("ideal, 802.11p, c-v2x"), "{e}");
    }
}
