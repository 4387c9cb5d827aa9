//! IEEE 1609.2 / ETSI TS 103 097 v2 behind the Authenticator interface: a thin wrapper
//! around the security entity of `v2x-security` (SN-ENCAP / SN-DECAP with the CAM, DENM
//! and generic profiles). Every deployment has its own in-memory PKI
//! ([`crate::dot2_pki`]); certificates are valid from one day before the deployment's
//! creation for `ticket_validity_s`, and time maps onto TAI as `time_base` says.
//!
//! The file follows the protocols' order: configuration, station, description,
//! deployment, tests.

use crate::authenticator::{
    Authenticator, DecapOutcome, Decapsulated, Delivery, EncapError, OutgoingPacket, PacketKind, Precheck, SenderId,
    StationId, Timestamp,
};
use crate::describe::{
    CryptoOp, CurveName, MessageDescription, OpCount, ProtocolDescription, Schedule, SharedDescription,
};
use crate::dot2_pki::{Clock, Dot2Pki};
use crate::setup::{ProtocolDeployment, Role, SetupError};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::{EncapRequest, GeoPoint, Location, ProfileKind, SecurityEntity};
use v2x_wire::ItsAid;

pub use crate::dot2_pki::TimeBase;

/// Which profile the station's messages use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dot2Profile {
    /// CAM: digest signer, full certificate once per second.
    #[default]
    Cam,
    /// DENM: certificate signer, generation location.
    Denm,
    /// Generic: certificate signer.
    Generic,
}

/// Parameters of the 1609.2 wrapper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Dot2Config {
    pub curve: Curve,
    pub profile: Dot2Profile,
    /// CAM only: send the full certificate every message instead of once per second.
    pub always_certificate: bool,
    pub time_base: TimeBase,
    pub ticket_validity_s: u64,
}

impl Default for Dot2Config {
    fn default() -> Self {
        Dot2Config {
            curve: Curve::NistP256,
            profile: Dot2Profile::Cam,
            always_certificate: false,
            time_base: TimeBase::DeploymentStart,
            ticket_validity_s: 7 * 24 * 3600,
        }
    }
}

/// The payloads an [`Authenticator`] carries are the caller's measurement records (the
/// testbed's, the simulator's, the benchmarks'), not CAMs or DENMs, so the receiver's ETSI SSP
/// rules must not read them: they would fail closed (`ssp-unverifiable`) on every DENM. The
/// SSP's version and length are still checked (INSECURE as a vehicle's policy, which this
/// adapter is not: it measures the stack's cost).
fn synthetic_payloads(entity: &mut SecurityEntity) {
    for profile in entity.policy_mut().profiles.values_mut() {
        profile.insecure_synthetic_payload();
    }
}

/// A station of the standard stack.
pub struct Dot2Station {
    id: StationId,
    config: Dot2Config,
    entity: SecurityEntity,
    clock: Clock,
    description: SharedDescription,
}

impl Dot2Station {
    /// A station around an entity set up elsewhere (a PKI directory's pseudonym pool,
    /// as the testbed's station processes load it), with `clock` mapping timestamps.
    pub fn from_entity(id: StationId, config: Dot2Config, mut entity: SecurityEntity, clock: Clock) -> Dot2Station {
        synthetic_payloads(&mut entity);
        let measured = config.clone();
        Dot2Station {
            id,
            config,
            entity,
            clock,
            description: SharedDescription::new(move || describe(&measured, measure(&measured).unwrap_or_default())),
        }
    }

    pub fn entity_mut(&mut self) -> &mut SecurityEntity {
        &mut self.entity
    }

    fn kind(&self) -> ProfileKind {
        match self.config.profile {
            Dot2Profile::Cam => ProfileKind::Cam,
            Dot2Profile::Denm => ProfileKind::Denm,
            Dot2Profile::Generic => ProfileKind::Generic,
        }
    }
}

impl Authenticator for Dot2Station {
    fn name(&self) -> &str {
        "ieee1609.2"
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        let tai = self.clock.to_tai(now);
        let mut req = EncapRequest::new(self.kind(), payload).at(tai);
        if self.config.profile == Dot2Profile::Denm {
            // The wrapper has no positions; DENMs carry a fixed location (0°, 0°).
            req = req.with_location(Location {
                point: GeoPoint { lat: 0, lon: 0 },
                elevation: 0,
            });
        }
        let out = self.entity.encap(&req)?;
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, out.bytes)])
    }

    fn precheck(&self, packet: &[u8], now: Timestamp) -> Option<Precheck> {
        Some(self.entity.precheck(packet, self.clock.to_tai(now)))
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        match self.entity.decap_at(packet, self.clock.to_tai(now)) {
            Ok(d) => Decapsulated::outcome(DecapOutcome::Accepted(Delivery {
                payload: d.payload,
                sender: match &d.signer {
                    Some(c) => SenderId::Certificate(c.hashed_id8().0),
                    None => SenderId::Claimed(StationId(0)),
                },
                generated: d.generation_time.map(|t| self.clock.from_tai(t)),
            })),
            Err(r) => Decapsulated::outcome(DecapOutcome::Rejected(r)),
        }
    }

    fn describe(&self) -> ProtocolDescription {
        self.description.get()
    }
}

/// Packet lengths of real messages for the reference payload: the first one (full
/// certificate) and the next one 100 ms later (a digest, for CAMs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MeasuredSizes {
    pub with_certificate: usize,
    pub next: usize,
}

/// Sizes (`sizes`, from real messages) and costs of the standard stack for `config`.
pub fn describe(config: &Dot2Config, sizes: MeasuredSizes) -> ProtocolDescription {
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    let curve = CurveName::from(config.curve);
    let sign = OpCount::new(CryptoOp::EcdsaSign(curve), 1);
    let verify = OpCount::new(CryptoOp::EcdsaVerify(curve), 1);
    let periodic_certificate = config.profile == Dot2Profile::Cam && !config.always_certificate;
    let mut messages = vec![MessageDescription {
        message: "data-certificate".into(),
        overhead_bytes: sizes.with_certificate.saturating_sub(reference),
        packet_bytes: sizes.with_certificate,
        overhead_depends_on_payload: false,
        schedule: if periodic_certificate {
            Schedule::Periodic { every_us: 1_000_000 }
        } else {
            Schedule::EveryPayload
        },
        sender_ops: vec![sign],
        // Message signature + the ticket's AA signature (chain validation, cached after).
        receiver_ops: vec![OpCount::new(CryptoOp::EcdsaVerify(curve), 2)],
    }];
    if periodic_certificate {
        messages.push(MessageDescription {
            message: "data-digest".into(),
            overhead_bytes: sizes.next.saturating_sub(reference),
            packet_bytes: sizes.next,
            overhead_depends_on_payload: false,
            schedule: Schedule::EveryPayload,
            sender_ops: vec![sign],
            receiver_ops: vec![verify],
        });
    }
    ProtocolDescription {
        protocol: "ieee1609.2".into(),
        variant: format!("{}/{:?}", config.curve, config.profile).to_lowercase(),
        reference_payload_len: reference,
        messages,
        delayed_verification: None,
        notes: vec!["v2x-security SN-ENCAP/SN-DECAP, strict mode; chain validation cached per certificate".into()],
    }
}

/// Lengths of the first two messages of a fresh station of a new deployment of `config`.
pub fn measure(config: &Dot2Config) -> Result<MeasuredSizes, SetupError> {
    let mut s = Dot2Deployment::new(config)?.station(StationId(1), Role::Vehicle)?;
    let payload = vec![0u8; crate::describe::REFERENCE_PAYLOAD_LEN];
    let mut len_at = |t: u64| -> Result<usize, SetupError> {
        Ok(s.encap(&payload, Timestamp(t))?.first().map_or(0, |p| p.bytes.len()))
    };
    Ok(MeasuredSizes {
        with_certificate: len_at(0)?,
        next: len_at(100_000)?,
    })
}

/// Shared material of a 1609.2 deployment: the PKI.
pub struct Dot2Deployment {
    config: Dot2Config,
    pki: Dot2Pki,
    description: SharedDescription,
}

impl Dot2Deployment {
    pub fn new(config: &Dot2Config) -> Result<Dot2Deployment, SetupError> {
        let pki = Dot2Pki::new(
            config.curve,
            &[ItsAid::CAM, ItsAid::DENM],
            Duration::from_secs(config.ticket_validity_s),
            config.time_base,
        )?;
        let measured = config.clone();
        Ok(Dot2Deployment {
            config: config.clone(),
            pki,
            // Unmeasurable sizes (a failing crypto backend) are reported as 0.
            description: SharedDescription::new(move || describe(&measured, measure(&measured).unwrap_or_default())),
        })
    }

    /// A station with a fresh ticket (every role is a plain station of the stack); the
    /// [`ProtocolDeployment`] impl boxes it.
    pub fn station(&mut self, id: StationId, _role: Role) -> Result<Dot2Station, SetupError> {
        let (mut entity, _) = self.pki.entity()?;
        synthetic_payloads(&mut entity);
        if self.config.always_certificate {
            entity.encap_profile_mut(ProfileKind::Cam).signer = v2x_security::SignerPolicy::Certificate;
        }
        Ok(Dot2Station {
            id,
            config: self.config.clone(),
            entity,
            clock: self.pki.clock(),
            description: self.description.clone(),
        })
    }
}

impl ProtocolDeployment for Dot2Deployment {
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(Dot2Deployment::station(self, id, role)?))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RejectReason;

    fn pair(config: Dot2Config) -> (Dot2Station, Dot2Station) {
        let mut d = Dot2Deployment::new(&config).unwrap();
        (
            d.station(StationId(1), Role::Vehicle).unwrap(),
            d.station(StationId(2), Role::Vehicle).unwrap(),
        )
    }

    #[test]
    fn cam_round_trip_certificate_then_digest() {
        let (mut a, mut b) = pair(Dot2Config::default());
        let p1 = a.encap(b"cam1", Timestamp(0)).unwrap().remove(0);
        let p2 = a.encap(b"cam2", Timestamp(100_000)).unwrap().remove(0);
        assert!(p1.bytes.len() > p2.bytes.len(), "first carries the certificate");
        for (p, t, m) in [(&p1, 1_000, b"cam1"), (&p2, 101_000, b"cam2")] {
            match b.decap(&p.bytes, Timestamp(t)).outcome {
                DecapOutcome::Accepted(d) => {
                    assert_eq!(d.payload, m);
                    assert!(matches!(d.sender, SenderId::Certificate(_)));
                }
                other => panic!("{other:?}"),
            }
        }
        // Replay, tampering, staleness and a foreign PKI are rejected with reasons.
        assert_eq!(
            b.decap(&p2.bytes, Timestamp(102_000)).outcome.reason(),
            Some(RejectReason::DuplicateMessage)
        );
        let mut bad = a.encap(b"cam3", Timestamp(200_000)).unwrap().remove(0).bytes;
        let n = bad.len();
        bad[n - 70] ^= 1;
        assert!(b.decap(&bad, Timestamp(201_000)).outcome.reason().is_some());
        let p4 = a.encap(b"cam4", Timestamp(300_000)).unwrap().remove(0);
        assert_eq!(
            b.decap(&p4.bytes, Timestamp(10_000_000)).outcome.reason(),
            Some(RejectReason::StaleMessage)
        );
        let (mut x, _) = pair(Dot2Config {
            always_certificate: true,
            ..Dot2Config::default()
        });
        let foreign = x.encap(b"x", Timestamp(0)).unwrap().remove(0);
        assert_eq!(
            b.decap(&foreign.bytes, Timestamp(0)).outcome.reason(),
            Some(RejectReason::IssuerCertificateNotFound)
        );
    }

    #[test]
    fn revoked_signer_is_rejected() {
        let (mut a, mut b) = pair(Dot2Config {
            always_certificate: true,
            ..Dot2Config::default()
        });
        let cert = a.entity_mut().signing_certificate().cloned().unwrap();
        b.entity_mut().trust_store_mut().revoke(&cert);
        let p = a.encap(b"cam", Timestamp(0)).unwrap().remove(0);
        assert_eq!(
            b.decap(&p.bytes, Timestamp(1_000)).outcome.reason(),
            Some(RejectReason::RevokedCertificate)
        );
    }

    #[test]
    fn describe_reports_measured_sizes() {
        let config = Dot2Config::default();
        let d = describe(&config, measure(&config).unwrap());
        let cert = d.message("data-certificate").unwrap();
        let digest = d.message("data-digest").unwrap();
        assert!(cert.overhead_bytes > digest.overhead_bytes && digest.overhead_bytes > 64);
    }
}
