//! What the stations of the `[misbehaviour]` closed loop record (TAI µs of the one testbed
//! clock): per run, each vehicle's lies, each receiver's view of each sender, the MA's
//! reports and revocations. Written by [`crate::run::misbehaviour`] (`runs.json`), read by
//! [`crate::analyse::misbehaviour`].

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What one vehicle did.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VehicleRecord {
    pub name: String,
    pub attacker: bool,
    /// HashedId8 (hex) of the ticket it signs with.
    pub certificate: String,
    pub cams_sent: u64,
    /// Lying CAMs (labelled as `v2x-mbd`'s attacks label them).
    pub lies_sent: u64,
    pub first_lie_us: Option<u64>,
}

/// What one receiver saw of one sender.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SenderView {
    pub accepted: u64,
    /// Accepted CAMs the detector flagged.
    pub flagged: u64,
    pub first_flagged_us: Option<u64>,
    pub report_sent_us: Option<u64>,
    /// Why the first flagged CAM was not reported (no TS 103 759 observation), if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_error: Option<String>,
    /// CAMs SN-DECAP rejected, by reason.
    pub rejected: BTreeMap<String, u64>,
    pub first_revoked_drop_us: Option<u64>,
    /// CAMs accepted after a CRL revoking the sender was installed (must stay 0).
    pub accepted_after_revocation: u64,
}

/// What one receiver did.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReceiverRecord {
    pub name: String,
    pub certificate: String,
    /// By sender certificate (hex).
    pub senders: BTreeMap<String, SenderView>,
    /// CRLs installed: (TAI µs, entries).
    pub crls_installed: Vec<(u64, usize)>,
    /// CRL datagrams refused, with the reason.
    pub crls_refused: Vec<String>,
}

/// One report the MA received.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportRecord {
    pub received_us: u64,
    pub decided_us: u64,
    /// `recorded`, `revoked`, `already-revoked`, or the rejection's code.
    pub outcome: String,
    pub subject: Option<String>,
    /// The reporter's ticket, when the report was accepted.
    pub reporter: Option<String>,
}

/// One revocation and its CRL's push to the receivers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RevocationRecord {
    pub subject: String,
    pub report_received_us: u64,
    pub decided_us: u64,
    pub crl_sent_us: u64,
    pub crl_bytes: usize,
}

/// One closed-loop run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunRecord {
    pub run: u32,
    pub vehicles: Vec<VehicleRecord>,
    pub receivers: Vec<ReceiverRecord>,
    pub reports: Vec<ReportRecord>,
    pub revocations: Vec<RevocationRecord>,
}
