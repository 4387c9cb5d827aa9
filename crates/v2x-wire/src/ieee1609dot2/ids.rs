//! Identifiers: HashedId8/HashedId3 (digests computed elsewhere — no crypto here) and PSIDs
//! (their numbers are named by [`ItsAid`]).

use super::{HashedId3, HashedId8, Psid};
use crate::ItsAid;

/// A HashedId8 from its 8 octets (the low-order 8 octets of the hash; computed by the caller).
pub fn hashed_id8_from(bytes: [u8; 8]) -> HashedId8 {
    HashedId8(bytes.into())
}

/// The 8 octets of a HashedId8.
pub fn hashed_id8_bytes(id: &HashedId8) -> [u8; 8] {
    *id.0
}

/// A HashedId3 from its 3 octets.
pub fn hashed_id3_from(bytes: [u8; 3]) -> HashedId3 {
    HashedId3(bytes.into())
}

/// The 3 octets of a HashedId3.
pub fn hashed_id3_bytes(id: &HashedId3) -> [u8; 3] {
    *id.0
}

/// HashedId3 of a HashedId8: its low-order three octets (1609.2 §6.3.x, used by P2PCD).
pub fn hashed_id3_of(id8: &HashedId8) -> HashedId3 {
    let b = hashed_id8_bytes(id8);
    hashed_id3_from([b[5], b[6], b[7]])
}

/// A PSID from its number.
pub fn psid(value: u64) -> Psid {
    Psid(value.into())
}

impl From<ItsAid> for Psid {
    fn from(aid: ItsAid) -> Psid {
        psid(aid.value())
    }
}

/// The ITS-AID of a PSID, `None` if it does not fit in a u64 (see [`psid_value`]).
pub fn its_aid_of(psid: &Psid) -> Option<ItsAid> {
    psid_value(psid).map(ItsAid)
}

/// The number of a PSID, `None` if it does not fit in a u64 (a decoded PSID is an unbounded
/// INTEGER, so this is possible with hostile input).
pub fn psid_value(psid: &Psid) -> Option<u64> {
    u64::try_from(&psid.0).ok()
}
