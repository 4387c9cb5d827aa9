//! The sending half of a 2FLIP station: keep the TPD's system key current (a revoked
//! driver's TPD gets no new key and can no longer sign), then have the TPD sign.

use super::authority::TrustedAuthority;
use super::tpd::{DriverFactors, Tpd};
use super::wire;
use crate::authenticator::{EncapError, Timestamp};
use crate::freshness;
use std::sync::Mutex;

/// The packet for `payload` at `now`, signed by `tpd` for `driver`.
pub fn sign_packet(
    tpd: &mut Tpd,
    driver: &DriverFactors,
    ta: &Mutex<TrustedAuthority>,
    payload: &[u8],
    now: Timestamp,
) -> Result<Vec<u8>, EncapError> {
    ta.lock().unwrap_or_else(|e| e.into_inner()).update(tpd, driver)?;
    let header = tpd.sign(driver, payload, freshness::ts32(now))?;
    Ok(wire::encode(&header, payload))
}
