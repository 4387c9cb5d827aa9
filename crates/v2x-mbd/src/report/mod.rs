//! ETSI TS 103 759 misbehaviour reports: the C-OER types ([`asn`]), a CAM report built from
//! a detector's verdict with the offending CAMs as evidence, signed with a ticket permitted
//! for misbehaviour reporting and encrypted to the misbehaviour authority's certificate
//! through the ordinary SN-ENCAP ([`secure`]), and the authority ([`authority`]).
//!
//! Checks map to TS 103 759's CAM observations where the standard names one (target,
//! observation): beacon interval too small (0, 1); position change too large (3, 4); speed
//! value too large for the vehicle type (4, 3); speed change too large (4, 5). The other
//! checks (range, road, heading, overlap, sudden appearance, replay, co-location) have no
//! normative observation: they travel as non-V2X-PDU evidence item 255 with the check's
//! name, a private extension an authority that does not know it ignores.

pub mod asn;
pub mod authority;

use crate::checks::CheckId;
use asn::{
    AidSpecificReport, AsrCam, EtsiTs103759Data, EtsiTs103759Mbr, MbSingleObservation, MbrSec, NonV2xPduEvidenceItem,
    ObservationsByTarget, ThreeDLocation, V2xPduStream,
};
use rasn::types::{Integer, OctetString};
use v2x_security::{CertRef, EncapRequest, ProfileKind, Recipient, SecurityEntity, TaiTime};
use v2x_wire::ItsAid;

/// The ITS-AID misbehaviour reports are signed under. TS 102 965's registry could not be
/// consulted from here; 38 is the value the issue names and is NOT verified against it.
pub const MISBEHAVIOUR_REPORTING: ItsAid = ItsAid(38);

/// Non-V2X-PDU evidence id of this crate's private check names.
pub const PRIVATE_CHECK_EVIDENCE: u8 = 255;

/// Why a report cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("no evidence PDU (TS 103 759 requires at least one)")]
    NoEvidence,
    #[error("no failed check")]
    NoObservation,
    #[error("encoding: {0}")]
    Codec(#[from] asn::ReportCodecError),
    #[error("SN-ENCAP: {0}")]
    Encap(#[from] v2x_security::EncapError),
}

/// TS 103 759's CAM (target, observation) for a check, where one exists.
pub fn standard_observation(c: CheckId) -> Option<(u8, u8)> {
    match c {
        CheckId::BeaconFrequency | CheckId::DuplicateContent => Some((0, 1)),
        CheckId::PositionConsistency | CheckId::PositionSpeedConsistency | CheckId::KalmanPosition => Some((3, 4)),
        CheckId::SpeedPlausibility => Some((4, 3)),
        CheckId::SpeedConsistency | CheckId::KalmanVelocity => Some((4, 5)),
        _ => None,
    }
}

/// A CAM report: `failed` checks about the station that sent `evidence` (secured CAMs as
/// received, the subject first), observed at `location` at `generation_time_us` (TAI µs).
pub fn cam_report(
    failed: &[CheckId],
    evidence: Vec<Vec<u8>>,
    generation_time_us: u64,
    location: ThreeDLocation,
) -> Result<EtsiTs103759Mbr, ReportError> {
    cam_report_with_certificate(failed, evidence, None, generation_time_us, location)
}

/// [`cam_report`] with the reported station's certificate in the evidence stream
/// (`V2xPduStream.certificate`): what lets the authority verify evidence CAMs signed with
/// a digest, as most CAMs are.
pub fn cam_report_with_certificate(
    failed: &[CheckId],
    evidence: Vec<Vec<u8>>,
    certificate: Option<&v2x_security::Certificate>,
    generation_time_us: u64,
    location: ThreeDLocation,
) -> Result<EtsiTs103759Mbr, ReportError> {
    if evidence.is_empty() {
        return Err(ReportError::NoEvidence);
    }
    if failed.is_empty() {
        return Err(ReportError::NoObservation);
    }
    let mut by_target: Vec<ObservationsByTarget> = Vec::new();
    let mut private = Vec::new();
    for c in failed {
        match standard_observation(*c) {
            Some((tgt, obs)) => {
                let t = match by_target.iter_mut().find(|t| t.tgt_id == tgt) {
                    Some(t) => t,
                    None => {
                        by_target.push(ObservationsByTarget {
                            tgt_id: tgt,
                            observations: Vec::new(),
                        });
                        by_target.last_mut().expect("pushed")
                    }
                };
                if !t.observations.iter().any(|o| o.obs_id == obs) {
                    t.observations.push(MbSingleObservation {
                        obs_id: obs,
                        obs: OctetString::default(),
                    });
                }
            }
            None => private.push(NonV2xPduEvidenceItem {
                id: PRIVATE_CHECK_EVIDENCE,
                evidence: OctetString::from(c.name().as_bytes().to_vec()),
            }),
        }
    }
    if by_target.is_empty() {
        // The standard requires an observation: report the beacon as implausible content
        // is not ours to invent; without a standard observation there is no report.
        return Err(ReportError::NoObservation);
    }
    let certificate = certificate
        .map(|c| rasn::coer::decode(c.encoded()))
        .transpose()
        .map_err(|e| asn::ReportCodecError::Asn(e.to_string()))?;
    let asr = AsrCam {
        observations: by_target,
        v2x_pdu_evidence: vec![V2xPduStream {
            pdu_type: 2,
            v2x_pdus: evidence.into_iter().map(OctetString::from).collect(),
            certificate,
            subject_pdu_index: 0,
        }],
        non_v2x_pdu_evidence: private,
    };
    let content = rasn::coer::encode(&asr).map_err(|e| asn::ReportCodecError::Asn(e.to_string()))?;
    Ok(EtsiTs103759Mbr {
        generation_time: generation_time_us,
        observation_location: location,
        report: AidSpecificReport {
            aid: Integer::from(ItsAid::CAM.value() as i64),
            content: OctetString::from(content),
        },
    })
}

/// Signs `mbr` with the reporter's current ticket (PSID [`MISBEHAVIOUR_REPORTING`]) and
/// encrypts it to `authority`: the bytes of an `EtsiTs103759Data` with content `sTE`.
pub fn secure(
    reporter: &mut SecurityEntity,
    mbr: &EtsiTs103759Mbr,
    authority: &CertRef,
    at: TaiTime,
) -> Result<Vec<u8>, ReportError> {
    let payload = rasn::coer::encode(mbr).map_err(|e| asn::ReportCodecError::Asn(e.to_string()))?;
    let req = EncapRequest::new(ProfileKind::Generic, &payload)
        .with_psid(MISBEHAVIOUR_REPORTING)
        .encrypted_to(Recipient::Certificate(authority.clone()))
        .at(at);
    let sealed = reporter.encap(&req)?;
    Ok(EtsiTs103759Data {
        content: MbrSec::SignedThenEncrypted(sealed.bytes),
    }
    .encode()?)
}
