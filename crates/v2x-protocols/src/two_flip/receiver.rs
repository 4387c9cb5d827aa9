//! The receiving half of a 2FLIP station: freshness, the epoch of the system key (the
//! previous one only during the grace period), the replay window, and σ (2 hashes + 1
//! MAC, compared in constant time).

use super::authority::TrustedAuthority;
use super::config::TwoFlipConfig;
use super::tpd::{sigma, DriverFactors, Tpd};
use super::wire::{parse, TwoFlipPacket, SIGMA_LEN};
use crate::authenticator::{malformed, DecapOutcome, Delivery, SenderId, Timestamp};
use crate::freshness::{self, TagWindow};
use crate::{RejectReason, Rejection};
use std::sync::Mutex;
use v2x_crypto::ct_eq;

/// Freshness bounds and the replay window of a station.
pub struct TwoFlipReceiver {
    config: TwoFlipConfig,
    /// σ of messages accepted inside the freshness window (None: replay detection off).
    replay: Option<TagWindow<SIGMA_LEN>>,
}

impl TwoFlipReceiver {
    pub fn new(config: &TwoFlipConfig) -> TwoFlipReceiver {
        TwoFlipReceiver {
            config: config.clone(),
            replay: config.replay_detection.then(|| {
                TagWindow::new(
                    config.replay_cache_capacity,
                    config.freshness_window_ms,
                    config.max_future_ms,
                )
            }),
        }
    }

    /// Checks one received packet with the system keys `tpd` holds.
    pub fn decap(
        &mut self,
        tpd: &mut Tpd,
        driver: &DriverFactors,
        ta: &Mutex<TrustedAuthority>,
        packet: &[u8],
        now: Timestamp,
    ) -> DecapOutcome {
        let result = match parse(packet) {
            Err(e) => Err(malformed(e)),
            Ok(p) => self.verify(tpd, driver, ta, &p, now),
        };
        match result {
            Ok(d) => DecapOutcome::Accepted(d),
            Err(r) => DecapOutcome::Rejected(r),
        }
    }

    fn verify(
        &mut self,
        tpd: &mut Tpd,
        driver: &DriverFactors,
        ta: &Mutex<TrustedAuthority>,
        p: &TwoFlipPacket<'_>,
        now: Timestamp,
    ) -> Result<Delivery, Rejection> {
        freshness::check_fresh(now, p.ts, self.config.freshness_window_ms, self.config.max_future_ms)?;
        let (current, grace_over) = {
            let ta = ta.lock().unwrap_or_else(|e| e.into_inner());
            let started = ta.epoch_start(ta.epoch());
            let grace_over = started.plus_micros(self.config.epoch_grace_ms * 1000) < now;
            // A revoked driver's TPD keeps its old keys; receiving still works with them.
            let _ = ta.update(tpd, driver);
            (ta.epoch(), grace_over)
        };
        let accepted_epoch = p.epoch == current || (p.epoch + 1 == current && !grace_over);
        let key = match tpd.key_for_epoch(p.epoch) {
            Some(k) if accepted_epoch => *k,
            _ => {
                return Err(Rejection::new(
                    RejectReason::UnknownKey,
                    format!("system key epoch {} not accepted", p.epoch),
                ))
            }
        };
        if self.replay.as_ref().is_some_and(|w| w.contains(&p.sigma, now)) {
            return Err(Rejection::new(
                RejectReason::DuplicateMessage,
                "sigma seen inside the freshness window",
            ));
        }
        let expected = sigma(&key, p.pid, p.ts, p.payload);
        if !ct_eq(&expected, &p.sigma) {
            return Err(Rejection::new(RejectReason::FalseMac, "sigma does not verify"));
        }
        if let Some(w) = &mut self.replay {
            w.insert(p.sigma, now);
        }
        Ok(Delivery {
            payload: p.payload.to_vec(),
            sender: SenderId::Pseudonym(p.pid.to_vec()),
            generated: Some(freshness::expand_ts32(now, p.ts)),
        })
    }
}
