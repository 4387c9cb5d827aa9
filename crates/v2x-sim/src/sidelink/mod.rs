//! The LTE-V2X sidelink, Mode 4 (3GPP Rel-14): `[access] kind = "lte-v2x-mode4"`.
//!
//! - [`tbs`]: transport-block sizes from MCS and PRBs (TS 36.213 tables);
//! - [`pool`]: the resource pool's sub-channels and how many a packet needs (SCI included);
//! - [`bler`]: BLER-SINR curves per MCS (3GPP R1-160284);
//! - [`sps`]: the sensing-based selection of TS 36.213 §14.1.1.6 on what a station sensed;
//! - [`ue`]: a station's semi-persistent reservation, its counter, probResourceKeep and
//!   the reservation policies for packets whose size changes;
//! - [`run`]: the subframe loop: mobility, CAMs with the security model's sizes, every
//!   station's MAC, reception per sub-channel, the metrics;
//! - what a run measures beyond the common metrics: [`crate::metrics::SidelinkStats`].
//!
//! The sidelink runs its own subframe-synchronous loop rather than the [`crate::air::Air`]
//! behind an [`crate::access::AccessLayer`]: the air's reception is the 802.11p receiver
//! (preamble lock, CCA, SINR chunks over one channel), while a sidelink receiver judges
//! whole subframes per sub-channel and its MAC needs each station's sensing report
//! (RSRP of the SCIs, S-RSSI per sub-channel). Both share the scenario's mobility, path
//! loss and fading models, the keyed draws and the security model's packet sizes.

pub mod bler;
pub mod nr_bler;
pub mod nr_tbs;
pub mod pool;
pub mod run;
pub mod sps;
pub mod tbs;
pub mod ue;

pub use crate::metrics::{LossBin, SidelinkStats};
