//! Codecs only — no crypto, no policy.
//!
//! * [`ieee1609dot2`]: IEEE 1609.2 / ETSI TS 103 097 v2 in C-OER (types from `rasn-its`),
//!   with exact-length decoding and the byte ranges that signatures cover.
//! * [`trust_list`]: ETSI TS 102 941 certificate trust lists (ECTL / CTL).
//! * [`v1_2_1`]: the legacy ETSI TS 103 097 v1.2.1 format, hand-written.
//! * [`geonet`]: GeoNetworking basic/common/SHB headers and BTP-B.
//! * [`facilities`]: the facilities-layer payloads BTP carries, ETSI CAM and DENM (UPER).
//! * [`pcap`]: capture files Wireshark reads (Ethernet, ethertype 0x8947).
//! * [`inspect`]: a decoded tree of any of the above, like Wireshark's detail pane.
//! * [`tai`]: TAI time (1609.2 Time32/Time64), the leap-second table, RFC 3339.
//! * [`cursor`]: the one bounds-checked byte [`cursor::Reader`] / [`cursor::Writer`] of the
//!   hand-written codecs; [`its_aid`]: ITS-AID / PSID numbers by name; [`shared`]: dependency
//!   errors made `Clone` + `PartialEq` for the error enums.
//!
//! Untrusted C-OER reaches `rasn` only after the structural pre-scan of
//! `ieee1609dot2::guard` (see [`ieee1609dot2::decode_exact`]), and the `rasn` linked is the
//! patched copy in `third_party/rasn`.

// Untrusted bytes get a typed error, never a panic (issue 29): outside tests, no unwrap,
// expect, panic or unchecked indexing in this crate.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]
pub mod cursor;
pub mod experimental_pq;
pub mod facilities;
pub mod format;
pub mod geonet;
pub mod ieee1609dot2;
pub mod inspect;
pub mod its_aid;
pub mod pcap;
pub mod shared;
pub mod tai;
pub mod trust_list;
pub mod ts102941;
pub mod v1_2_1;

pub use its_aid::ItsAid;
pub use rasn;
pub use rasn_its;
