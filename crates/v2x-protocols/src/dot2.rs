//! IEEE 1609.2 / ETSI TS 103 097 v2 behind the Authenticator interface: a thin wrapper
//! around the security entity of `v2x-security` (SN-ENCAP / SN-DECAP with the CAM, DENM
//! and generic profiles), plus an in-memory PKI (root CA → AA → authorization tickets)
//! that deployments of this protocol and TESLA's 1609.2 bootstrap share.
//!
//! Time: the entity works in TAI microseconds since 2004 (`Time64`). A deployment maps
//! the caller's [`Timestamp`] onto TAI by adding the TAI time at which it was created
//! (`time_base = "deployment-start"`, the default: simulations start at 0), or uses it as
//! TAI directly (`time_base = "tai"`: the testbed passes real time). Certificates are
//! valid from one day before the deployment's creation for `ticket_validity_s`.

use crate::authenticator::{
    Authenticator, DecapOutcome, Decapsulated, Delivery, EncapError, OutgoingPacket, PacketKind, SenderId, StationId,
    Timestamp,
};
use crate::describe::{CryptoOp, CurveName, MessageDescription, OpCount, ProtocolDescription, Schedule};
use crate::factory::{Role, SetupError};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_security::{
    issue_certificate, AppPermission, CertRef, CertificateSpec, Credentials, EncapRequest, GeoPoint, IssuePermissions,
    IssuerKey, ItsAid, Location, ProfileKind, SecurityEntity, TaiTime, TrustStore,
};

/// PSID this project uses for TESLA chain commitments signed by the standard stack.
/// Chosen by us (not an IEEE 1609.12 assignment); configurable in [`crate::tesla`].
pub const PSID_TESLA_COMMITMENT: u64 = 0x7f;

/// How `Timestamp`s map to TAI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeBase {
    /// TAI = deployment creation time + timestamp.
    #[default]
    DeploymentStart,
    /// The timestamp is already TAI µs since 2004-01-01.
    Tai,
}

/// An in-memory 1609.2 PKI: root CA, authorization authority, tickets on demand.
pub struct Dot2Pki {
    curve: Curve,
    root: CertRef,
    aa: CertRef,
    aa_key: PrivateKey,
    psids: Vec<u64>,
    start: TaiTime,
    validity: Duration,
    base_tai: u64,
    time_base: TimeBase,
}

impl Dot2Pki {
    /// Root and AA valid for ten years from a day before now; tickets for `psids`.
    pub fn new(
        curve: Curve,
        psids: &[u64],
        ticket_validity: Duration,
        time_base: TimeBase,
    ) -> Result<Dot2Pki, SetupError> {
        let now = TaiTime::now();
        let start = now.saturating_sub(Duration::from_secs(24 * 3600));
        let ca_validity = Duration::from_secs(10 * 31_556_952);
        let err = |e: String| SetupError::Crypto(e);
        let root_key = PrivateKey::generate(curve)?;
        let mut spec = CertificateSpec::new(Some("v2x-protocols root CA"), start, ca_validity);
        spec.issue_permissions = Some(IssuePermissions::All);
        let root = issue_certificate(&spec, root_key.public_key(), IssuerKey::SelfSigned(&root_key))
            .map_err(|e| err(e.to_string()))?;
        let aa_key = PrivateKey::generate(curve)?;
        let mut spec = CertificateSpec::new(Some("v2x-protocols AA"), start, ca_validity);
        spec.issue_permissions = Some(IssuePermissions::Psids(psids.iter().map(|&p| ItsAid(p)).collect()));
        let aa = issue_certificate(
            &spec,
            aa_key.public_key(),
            IssuerKey::Ca {
                cert: &root,
                key: &root_key,
            },
        )
        .map_err(|e| err(e.to_string()))?;
        Ok(Dot2Pki {
            curve,
            root: Arc::new(root),
            aa: Arc::new(aa),
            aa_key,
            psids: psids.to_vec(),
            start,
            validity: ticket_validity,
            base_tai: now.0,
            time_base,
        })
    }

    /// A trust store with the root as anchor and the AA as chain link.
    pub fn trust_store(&self) -> Result<TrustStore, SetupError> {
        let mut store = TrustStore::new();
        store
            .add_trust_anchor(self.root.clone())
            .map_err(|e| SetupError::Crypto(e.to_string()))?;
        store.add_ca_certificate(self.aa.clone());
        Ok(store)
    }

    /// A fresh authorization ticket with its keys.
    pub fn ticket(&self) -> Result<Credentials, SetupError> {
        let key = PrivateKey::generate(self.curve)?;
        let mut spec = CertificateSpec::new(None, self.start, self.validity);
        spec.app_permissions = self
            .psids
            .iter()
            .map(|&psid| AppPermission {
                psid: ItsAid(psid),
                ssp: v2x_security::pki_store::default_ssp(psid),
            })
            .collect();
        let cert = issue_certificate(
            &spec,
            key.public_key(),
            IssuerKey::Ca {
                cert: &self.aa,
                key: &self.aa_key,
            },
        )
        .map_err(|e| SetupError::Crypto(e.to_string()))?;
        Ok(Credentials {
            certificate: Arc::new(cert),
            signing_key: key,
            encryption_key: None,
        })
    }

    /// A security entity signing with a fresh ticket.
    pub fn entity(&self) -> Result<(SecurityEntity, Credentials), SetupError> {
        let creds = self.ticket()?;
        let entity = SecurityEntity::with_credentials(
            self.trust_store()?,
            creds.clone(),
            vec![self.aa.clone(), self.root.clone()],
        );
        Ok((entity, creds))
    }

    /// The clock mapping of this PKI's deployment.
    pub fn clock(&self) -> Clock {
        Clock {
            base_tai: self.base_tai,
            time_base: self.time_base,
        }
    }
}

/// Maps [`Timestamp`] to TAI and back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    base_tai: u64,
    time_base: TimeBase,
}

impl Clock {
    pub fn to_tai(&self, t: Timestamp) -> TaiTime {
        match self.time_base {
            TimeBase::DeploymentStart => TaiTime(self.base_tai.saturating_add(t.as_micros())),
            TimeBase::Tai => TaiTime(t.as_micros()),
        }
    }

    pub fn from_tai(&self, t: TaiTime) -> Timestamp {
        match self.time_base {
            TimeBase::DeploymentStart => Timestamp(t.0.saturating_sub(self.base_tai)),
            TimeBase::Tai => Timestamp(t.0),
        }
    }
}

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

/// A station of the standard stack.
pub struct Dot2Station {
    id: StationId,
    config: Dot2Config,
    entity: SecurityEntity,
    clock: Clock,
}

impl Dot2Station {
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
        let out = self.entity.encap(&req).map_err(|e| EncapError::Crypto(e.to_string()))?;
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, out.bytes)])
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
        describe(&self.config)
    }
}

/// Sizes (from real messages) and costs of the standard stack for `config`.
pub fn describe(config: &Dot2Config) -> ProtocolDescription {
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    let curve = CurveName::from(config.curve);
    let sizes = Dot2Deployment::new(config)
        .and_then(|mut d| {
            let mut s = d.station(StationId(1), Role::Vehicle)?;
            let payload = vec![0u8; reference];
            let first = s.encap(&payload, Timestamp(0)).map(|p| p[0].bytes.len()).unwrap_or(0);
            let second = s
                .encap(&payload, Timestamp(100_000))
                .map(|p| p[0].bytes.len())
                .unwrap_or(0);
            Ok((first, second))
        })
        .unwrap_or((0, 0));
    let sign = OpCount::new(CryptoOp::EcdsaSign(curve), 1);
    let verify = OpCount::new(CryptoOp::EcdsaVerify(curve), 1);
    let mut messages = vec![MessageDescription {
        message: "data-certificate".into(),
        overhead_bytes: sizes.0.saturating_sub(reference),
        packet_bytes: sizes.0,
        overhead_depends_on_payload: false,
        schedule: if config.profile == Dot2Profile::Cam && !config.always_certificate {
            Schedule::Periodic { every_us: 1_000_000 }
        } else {
            Schedule::EveryPayload
        },
        sender_ops: vec![sign],
        // Message signature + the ticket's AA signature (chain validation, cached after).
        receiver_ops: vec![OpCount::new(CryptoOp::EcdsaVerify(curve), 2)],
    }];
    if config.profile == Dot2Profile::Cam && !config.always_certificate {
        messages.push(MessageDescription {
            message: "data-digest".into(),
            overhead_bytes: sizes.1.saturating_sub(reference),
            packet_bytes: sizes.1,
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

/// Shared material of a 1609.2 deployment: the PKI.
pub struct Dot2Deployment {
    config: Dot2Config,
    pki: Dot2Pki,
}

impl Dot2Deployment {
    pub fn new(config: &Dot2Config) -> Result<Dot2Deployment, SetupError> {
        let pki = Dot2Pki::new(
            config.curve,
            &[ItsAid::CAM.value(), ItsAid::DENM.value()],
            Duration::from_secs(config.ticket_validity_s),
            config.time_base,
        )?;
        Ok(Dot2Deployment {
            config: config.clone(),
            pki,
        })
    }

    pub fn station(&mut self, id: StationId, _role: Role) -> Result<Dot2Station, SetupError> {
        let (mut entity, _) = self.pki.entity()?;
        if self.config.always_certificate {
            entity.encap_profile_mut(ProfileKind::Cam).signer = v2x_security::SignerPolicy::Certificate;
        }
        Ok(Dot2Station {
            id,
            config: self.config.clone(),
            entity,
            clock: self.pki.clock(),
        })
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
            Some(RejectReason::UntrustedRoot)
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
        let d = describe(&Dot2Config::default());
        let cert = d.message("data-certificate").unwrap();
        let digest = d.message("data-digest").unwrap();
        assert!(cert.overhead_bytes > digest.overhead_bytes && digest.overhead_bytes > 64);
    }
}
