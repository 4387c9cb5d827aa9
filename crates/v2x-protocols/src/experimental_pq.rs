//! The EXPERIMENTAL post-quantum designs of `v2x_security::pq` behind the Authenticator
//! interface (no standard defines them: IEEE 1609.2 and TS 103 097 have no post-quantum
//! types yet). One protocol key, `experimental-pq`, with the design named:
//!
//! ```toml
//! protocol = "experimental-pq"
//! design = "experimental-composite-ml-dsa-44"   # required: each design has its own costs
//! profile = "cam"                                # cam | denm
//! certificate = "once-per-second"                # once-per-second | etsi-cam | adaptive
//! always_certificate = false
//! ```
//!
//! Each station is a [`PqSender`] and a [`PqReceiver`] of the deployment's in-memory
//! [`PqPki`] (root and AA of the design; a ticket per station, issued when the station first
//! sends, so that a receive-only station costs no key generation), so SN-DECAP runs the
//! standard steps, order and reasons, and refuses downgrades (`downgrade-refused`). Every
//! station's receiver is a copy of one the deployment validated its root and AA for. A
//! station of a PKI kept on disk (the testbed's processes) is built with its ticket instead
//! ([`ExperimentalPqStation::with_ticket`]).
//! [`Authenticator::name`] is the design's name, which is its profile protocol id
//! (`experimental-pq-only-ml-dsa-44`, ...).
//!
//! When a message carries the full certificate is the certificate schedule's choice
//! ([`crate::cert_schedule`]); a station counts the signers it accepted as stations heard.
//! The experimental format carries no P2PCD request yet, so `p2pcd` (certificates only when
//! asked) is refused, and under `etsi-cam` and `adaptive` a receiver that missed a
//! certificate waits for the next one the schedule sends.

use crate::authenticator::{
    Authenticator, DecapOutcome, Decapsulated, Delivery, EncapError, OutgoingPacket, PacketKind, SenderId, StationId,
    Timestamp,
};
use crate::cert_schedule::{CertificateSchedule, CertificateScheduler};
use crate::describe::{CryptoOp, CurveName, MessageDescription, OpCount, ProtocolDescription, Schedule};
use crate::dot2_pki::{Clock, TimeBase};
use crate::setup::{ProtocolDeployment, Role, SetupError};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use v2x_crypto::pq::SignatureScheme;
use v2x_security::pq::{PqCredential, PqDesign, PqPki, PqPkiError, PqReceiver, PqSender};
use v2x_security::TaiTime;
use v2x_wire::ieee1609dot2::assemble::GenerationLocation;
use v2x_wire::ItsAid;

/// A design named in a configuration (serde: its name; an unknown name lists the valid ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DesignName(pub PqDesign);

impl Serialize for DesignName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.name())
    }
}

impl<'de> Deserialize<'de> for DesignName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str> as Deserialize>::deserialize(d)?;
        PqDesign::from_name(&s)
            .map(DesignName)
            .map_err(serde::de::Error::custom)
    }
}

/// Which messages the stations send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PqMessageProfile {
    /// CAM (PSID 36): a digest or the certificate as the schedule says.
    #[default]
    Cam,
    /// DENM (PSID 37): the certificate every time, a generation location.
    Denm,
}

/// Parameters of the experimental designs. `design` has no default: it decides every cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentalPqConfig {
    pub design: DesignName,
    #[serde(default)]
    pub profile: PqMessageProfile,
    /// When a CAM carries the full certificate (default: once per second, the 1609.2 CAM
    /// rule `ieee1609.2` uses too).
    #[serde(default = "once_per_second")]
    pub certificate: CertificateSchedule,
    /// CAM only: the full certificate on every message.
    #[serde(default)]
    pub always_certificate: bool,
    #[serde(default)]
    pub time_base: TimeBase,
}

fn once_per_second() -> CertificateSchedule {
    CertificateSchedule::OncePerSecond
}

impl ExperimentalPqConfig {
    /// `design` with every other field at its default.
    pub fn new(design: PqDesign) -> ExperimentalPqConfig {
        ExperimentalPqConfig {
            design: DesignName(design),
            profile: PqMessageProfile::Cam,
            certificate: CertificateSchedule::OncePerSecond,
            always_certificate: false,
            time_base: TimeBase::DeploymentStart,
        }
    }

    pub fn design(&self) -> PqDesign {
        self.design.0
    }

    /// Refuses what the designs cannot do (`certificate = "p2pcd"`).
    pub fn validate(&self) -> Result<(), SetupError> {
        if self.certificate == CertificateSchedule::P2pcd {
            return Err(SetupError::InvalidConfig(
                "certificate = \"p2pcd\": the experimental format carries no P2PCD request yet, so a certificate \
                 would go out only once; use once-per-second, etsi-cam or adaptive"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Whether every message carries the certificate.
    fn certificate_every_message(&self) -> bool {
        self.always_certificate || self.profile == PqMessageProfile::Denm
    }

    /// Configuration summary, e.g. `cam/once-per-second`.
    pub fn variant(&self) -> String {
        match (self.profile, self.certificate_every_message()) {
            (PqMessageProfile::Denm, _) => "denm/certificate".into(),
            (PqMessageProfile::Cam, true) => "cam/always-certificate".into(),
            (PqMessageProfile::Cam, false) => format!("cam/{}", self.certificate.name()),
        }
    }
}

/// What a station signs with: a ticket the deployment issues at its first `encap`, or one
/// it was given (the testbed's, issued beforehand into the PKI directory).
enum Signing {
    Pending(Arc<PqPki>),
    Ready(PqSender),
}

/// A station of an experimental design: its sender, its receiver and its schedule.
pub struct ExperimentalPqStation {
    id: StationId,
    name: String,
    config: ExperimentalPqConfig,
    signing: Signing,
    receiver: PqReceiver,
    scheduler: CertificateScheduler,
    clock: Clock,
    description: Arc<ProtocolDescription>,
}

impl ExperimentalPqStation {
    /// A station of a deployment kept elsewhere (a PKI directory: the testbed's station
    /// processes): it signs with `ticket`, issued beforehand by `pki`'s AA, and verifies with
    /// a receiver of `pki`. Sizes are measured with that ticket.
    pub fn with_ticket(
        id: StationId,
        config: &ExperimentalPqConfig,
        pki: &PqPki,
        ticket: PqCredential,
    ) -> Result<ExperimentalPqStation, SetupError> {
        config.validate()?;
        let now = TaiTime::now();
        let description = Arc::new(describe(config, measure_with(pki.sender(ticket.clone()), now)?));
        Ok(ExperimentalPqStation {
            id,
            name: config.design().name(),
            config: config.clone(),
            signing: Signing::Ready(pki.sender(ticket)),
            receiver: pki.receiver(),
            scheduler: CertificateScheduler::new(config.certificate),
            clock: Clock::at(now, config.time_base),
            description,
        })
    }

    pub fn receiver_mut(&mut self) -> &mut PqReceiver {
        &mut self.receiver
    }

    /// The sending side, once the station has sent (or was given its ticket).
    pub fn sender(&self) -> Option<&PqSender> {
        match &self.signing {
            Signing::Ready(s) => Some(s),
            Signing::Pending(_) => None,
        }
    }
}

/// A ticket failure at the first `encap`, as the encap error of its cause.
fn ticket_error(e: PqPkiError) -> EncapError {
    match e {
        PqPkiError::Crypto(c) => EncapError::Crypto(c),
        PqPkiError::Encoding(c) => EncapError::Encoding(c),
    }
}

/// The station number the schedule keys a signer by (the first four bytes of its
/// HashedId8: the schedule only needs to tell stations apart).
fn heard_id(signer: [u8; 8]) -> u32 {
    u32::from_be_bytes([signer[0], signer[1], signer[2], signer[3]])
}

impl Authenticator for ExperimentalPqStation {
    fn name(&self) -> &str {
        &self.name
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        let tai = self.clock.to_tai(now);
        let (psid, location) = match self.config.profile {
            PqMessageProfile::Cam => (ItsAid::CAM, None),
            // The adapter has no positions; DENMs carry a fixed location (0°, 0°), as the
            // ieee1609.2 adapter's do.
            PqMessageProfile::Denm => (
                ItsAid::DENM,
                Some(GenerationLocation {
                    latitude: 0,
                    longitude: 0,
                    elevation: 0,
                }),
            ),
        };
        let with_certificate =
            self.config.certificate_every_message() || self.scheduler.next_carries_certificate(now.as_micros());
        if let Signing::Pending(pki) = &self.signing {
            self.signing = Signing::Ready(pki.sender(pki.ticket().map_err(ticket_error)?));
        }
        let Signing::Ready(sender) = &mut self.signing else {
            unreachable!("issued just above")
        };
        let bytes = sender.encap(payload, psid, location, tai, with_certificate)?;
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, bytes)])
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        match self.receiver.decap_at(packet, self.clock.to_tai(now)) {
            Ok(d) => {
                self.scheduler.heard(heard_id(d.signer.0));
                Decapsulated::outcome(DecapOutcome::Accepted(Delivery {
                    payload: d.payload,
                    sender: SenderId::Certificate(d.signer.0),
                    generated: Some(self.clock.from_tai(d.generation_time)),
                }))
            }
            Err(r) => Decapsulated::outcome(DecapOutcome::Rejected(r.rejection)),
        }
    }

    fn describe(&self) -> ProtocolDescription {
        (*self.description).clone()
    }
}

/// Lengths of real messages of a design for the reference payload: certificate and digest
/// signer forms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MeasuredSizes {
    pub with_certificate: usize,
    pub with_digest: usize,
}

/// Encodes the reference payload both ways with a fresh ticket of `pki`.
pub fn measure(pki: &PqPki, now: TaiTime) -> Result<MeasuredSizes, SetupError> {
    measure_with(pki.sender(pki.ticket()?), now)
}

/// Encodes the reference payload both ways with `tx` (a copy of a station's sender: the
/// station's own schedule is untouched).
fn measure_with(mut tx: PqSender, now: TaiTime) -> Result<MeasuredSizes, SetupError> {
    let payload = vec![0u8; crate::describe::REFERENCE_PAYLOAD_LEN];
    let mut len = |with_certificate: bool| -> Result<usize, SetupError> {
        let bytes = tx
            .encap(&payload, ItsAid::CAM, None, now, with_certificate)
            .map_err(EncapError::from)?;
        Ok(bytes.len())
    };
    Ok(MeasuredSizes {
        with_certificate: len(true)?,
        with_digest: len(false)?,
    })
}

fn sign_ops(scheme: SignatureScheme) -> Vec<OpCount> {
    match scheme {
        SignatureScheme::Ecdsa(c) => vec![OpCount::new(CryptoOp::EcdsaSign(c.into()), 1)],
        SignatureScheme::Pq(a) => vec![OpCount::new(CryptoOp::PqSign(a), 1)],
        SignatureScheme::Composite(a) => vec![
            OpCount::new(CryptoOp::EcdsaSign(CurveName::P256), 1),
            OpCount::new(CryptoOp::PqSign(a), 1),
        ],
    }
}

fn verify_ops(scheme: SignatureScheme) -> Vec<OpCount> {
    match scheme {
        SignatureScheme::Ecdsa(c) => vec![OpCount::new(CryptoOp::EcdsaVerify(c.into()), 1)],
        SignatureScheme::Pq(a) => vec![OpCount::new(CryptoOp::PqVerify(a), 1)],
        SignatureScheme::Composite(a) => vec![
            OpCount::new(CryptoOp::EcdsaVerify(CurveName::P256), 1),
            OpCount::new(CryptoOp::PqVerify(a), 1),
        ],
    }
}

/// Sizes (`sizes`, from real messages) and costs of `config`'s design: the message scheme
/// signs every message; a receiver verifies it, and the ticket's AA signature (certificate
/// scheme) the first time it sees the ticket.
pub fn describe(config: &ExperimentalPqConfig, sizes: MeasuredSizes) -> ProtocolDescription {
    let reference = crate::describe::REFERENCE_PAYLOAD_LEN;
    let design = config.design();
    let sign = sign_ops(design.message_scheme());
    let mut verify_with_chain = verify_ops(design.message_scheme());
    verify_with_chain.extend(verify_ops(design.certificate_scheme()));
    let every = config.certificate_every_message();
    let mut messages = vec![MessageDescription {
        message: "data-certificate".into(),
        overhead_bytes: sizes.with_certificate.saturating_sub(reference),
        packet_bytes: sizes.with_certificate,
        overhead_depends_on_payload: false,
        schedule: match (every, config.certificate) {
            (true, _) => Schedule::EveryPayload,
            (false, CertificateSchedule::Adaptive) => Schedule::OnEvent,
            (false, _) => Schedule::Periodic { every_us: 1_000_000 },
        },
        sender_ops: sign.clone(),
        receiver_ops: verify_with_chain,
    }];
    if !every {
        messages.push(MessageDescription {
            message: "data-digest".into(),
            overhead_bytes: sizes.with_digest.saturating_sub(reference),
            packet_bytes: sizes.with_digest,
            overhead_depends_on_payload: false,
            schedule: Schedule::EveryPayload,
            sender_ops: sign,
            receiver_ops: verify_ops(design.message_scheme()),
        });
    }
    let mut notes = vec![
        "EXPERIMENTAL: no standard defines post-quantum V2X messages; v2xsec's 0xE1 wrapper around the 1609.2 \
         ToBeSignedData (v2x_wire::experimental_pq)"
            .into(),
        format!(
            "messages signed with {}, certificates with {}; chain validation cached per ticket",
            design.message_scheme(),
            design.certificate_scheme()
        ),
    ];
    if !every && config.certificate != CertificateSchedule::OncePerSecond {
        notes.push(format!(
            "certificate schedule {}: no P2PCD request in the experimental format yet",
            config.certificate.name()
        ));
    }
    ProtocolDescription {
        protocol: design.name(),
        variant: config.variant(),
        reference_payload_len: reference,
        messages,
        delayed_verification: None,
        notes,
    }
}

/// Shared material of one design's deployment: its PKI, a receiver that validated the
/// PKI's root and AA, and the clock.
pub struct ExperimentalPqDeployment {
    config: ExperimentalPqConfig,
    pki: Arc<PqPki>,
    receiver: PqReceiver,
    clock: Clock,
    description: Arc<ProtocolDescription>,
}

impl ExperimentalPqDeployment {
    /// Root and AA of the design, valid from an hour before now; sizes measured once.
    pub fn new(config: &ExperimentalPqConfig) -> Result<ExperimentalPqDeployment, SetupError> {
        config.validate()?;
        let now = TaiTime::now();
        let pki = PqPki::new(config.design(), now)?;
        let description = Arc::new(describe(config, measure(&pki, now)?));
        Ok(ExperimentalPqDeployment {
            config: config.clone(),
            clock: Clock::at(now, config.time_base),
            receiver: pki.receiver(),
            pki: Arc::new(pki),
            description,
        })
    }

    /// A station (every role is a plain station); its ticket comes with its first message.
    pub fn station(&mut self, id: StationId, _role: Role) -> Result<ExperimentalPqStation, SetupError> {
        Ok(ExperimentalPqStation {
            id,
            name: self.config.design().name(),
            config: self.config.clone(),
            signing: Signing::Pending(self.pki.clone()),
            receiver: self.receiver.clone(),
            scheduler: CertificateScheduler::new(self.config.certificate),
            clock: self.clock,
            description: self.description.clone(),
        })
    }

    pub fn pki(&self) -> &PqPki {
        &self.pki
    }
}

impl ProtocolDeployment for ExperimentalPqDeployment {
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(ExperimentalPqDeployment::station(self, id, role)?))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RejectReason;

    fn pair(config: &ExperimentalPqConfig) -> (ExperimentalPqStation, ExperimentalPqStation) {
        let mut d = ExperimentalPqDeployment::new(config).unwrap();
        (
            d.station(StationId(1), Role::Vehicle).unwrap(),
            d.station(StationId(2), Role::Vehicle).unwrap(),
        )
    }

    #[test]
    fn every_design_round_trips_certificate_then_digest_and_rejects_by_reason() {
        for design in PqDesign::ALL {
            let (mut a, mut b) = pair(&ExperimentalPqConfig::new(design));
            assert_eq!(a.name(), design.name());
            let p1 = a.encap(b"cam1", Timestamp(0)).unwrap().remove(0);
            let p2 = a.encap(b"cam2", Timestamp(100_000)).unwrap().remove(0);
            assert!(
                p1.bytes.len() > p2.bytes.len(),
                "{design}: first carries the certificate"
            );
            for (p, t, m) in [(&p1, 1_000, b"cam1"), (&p2, 101_000, b"cam2")] {
                match b.decap(&p.bytes, Timestamp(t)).outcome {
                    DecapOutcome::Accepted(d) => {
                        assert_eq!(d.payload, m);
                        assert!(matches!(d.sender, SenderId::Certificate(_)));
                        assert_eq!(d.generated, Some(Timestamp(t - 1_000)));
                    }
                    other => panic!("{design}: {other:?}"),
                }
            }
            assert_eq!(
                b.decap(&p2.bytes, Timestamp(102_000)).outcome.reason(),
                Some(RejectReason::DuplicateMessage)
            );
            let mut bad = a.encap(b"cam3", Timestamp(200_000)).unwrap().remove(0).bytes;
            let n = bad.len();
            bad[n - 1] ^= 1;
            assert_eq!(
                b.decap(&bad, Timestamp(201_000)).outcome.reason(),
                Some(RejectReason::FalseSignature),
                "{design}"
            );
            let stale = a.encap(b"cam4", Timestamp(300_000)).unwrap().remove(0);
            assert_eq!(
                b.decap(&stale.bytes, Timestamp(10_000_000)).outcome.reason(),
                Some(RejectReason::StaleMessage)
            );
        }
    }

    #[test]
    fn a_station_of_another_design_is_refused_as_a_downgrade_and_another_pki_is_untrusted() {
        // Real time on both sides: the deployments are made at different instants.
        let tai = |design| ExperimentalPqConfig {
            time_base: TimeBase::Tai,
            ..ExperimentalPqConfig::new(design)
        };
        let now = || Timestamp(TaiTime::now().0);
        let composite = tai(PqDesign::Composite(v2x_crypto::pq::PqAlgorithm::MlDsa44));
        let (_, mut rx) = pair(&composite);
        let (mut partial, _) = pair(&tai(PqDesign::PartiallyHybrid));
        let m = partial.encap(b"x", now()).unwrap().remove(0);
        assert_eq!(
            rx.decap(&m.bytes, now()).outcome.reason(),
            Some(RejectReason::DowngradeRefused)
        );
        let (mut foreign, _) = pair(&composite);
        let m = foreign.encap(b"x", now()).unwrap().remove(0);
        assert_eq!(
            rx.decap(&m.bytes, now()).outcome.reason(),
            Some(RejectReason::UntrustedRoot)
        );
    }

    #[test]
    fn describe_reports_the_measured_sizes_and_the_design_operations() {
        let design = PqDesign::PartiallyHybrid;
        let (a, _) = pair(&ExperimentalPqConfig::new(design));
        let d = a.describe();
        assert_eq!(d.protocol, "experimental-partially-hybrid-ndss2024");
        let cert = d.message("data-certificate").unwrap();
        let digest = d.message("data-digest").unwrap();
        // ECDSA P-256 on every message; the ticket's certificate signature is the composite.
        assert_eq!(
            digest.receiver_ops,
            [OpCount::new(CryptoOp::EcdsaVerify(CurveName::P256), 1)]
        );
        assert_eq!(cert.receiver_ops.len(), 3);
        assert!(cert.receiver_ops.contains(&OpCount::new(
            CryptoOp::PqVerify(v2x_crypto::pq::PqAlgorithm::FnDsa512),
            1
        )));
        // The certificate form carries the whole ticket: its composite signature (64 + 666)
        // and an ECDSA key.
        assert!(cert.packet_bytes > digest.packet_bytes + 64 + 666);
        assert_eq!(
            digest.packet_bytes - crate::describe::REFERENCE_PAYLOAD_LEN,
            digest.overhead_bytes
        );
    }

    #[test]
    fn schedules_decide_the_signer_form_and_p2pcd_is_refused() {
        let design = PqDesign::PqOnly(v2x_crypto::pq::PqAlgorithm::FnDsa512);
        let mut c = ExperimentalPqConfig::new(design);
        c.certificate = CertificateSchedule::P2pcd;
        assert!(matches!(
            ExperimentalPqDeployment::new(&c),
            Err(SetupError::InvalidConfig(m)) if m.contains("P2PCD")
        ));
        // Adaptive: the certificate again only when a new station was heard.
        c.certificate = CertificateSchedule::Adaptive;
        let (mut a, mut b) = pair(&c);
        let len = |s: &mut ExperimentalPqStation, t: u64| s.encap(b"x", Timestamp(t)).unwrap().remove(0).bytes;
        let first = len(&mut a, 0);
        let second = len(&mut a, 2_000_000);
        assert!(first.len() > second.len(), "no timer under adaptive");
        let from_b = len(&mut b, 2_000_000);
        assert!(a.decap(&from_b, Timestamp(2_001_000)).outcome.is_accepted());
        assert!(len(&mut a, 2_100_000).len() > second.len(), "a new station was heard");
        let e = toml::from_str::<crate::ProtocolConfig>("protocol = \"experimental-pq\"\ndesign = \"pq-only\"")
            .unwrap_err()
            .to_string();
        for d in PqDesign::ALL {
            assert!(e.contains(&d.name()), "{e}");
        }
    }
}
