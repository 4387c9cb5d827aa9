//! ETSI TS 103 097 v1.2.1 behind the [`Authenticator`] interface: every station holds an
//! authorization ticket from one deployment PKI (root CA → AA → tickets) and runs the
//! v1.2.1 security entity of `v2x_security::v1_2_1` (profiles, CAM certificate rules,
//! request_unrecognized_certificate, strict validation).
//!
//! Time: [`Timestamp`] 0 is `epoch_tai_s` (TAI seconds since 2004, the v1.2.1 time base);
//! certificates are valid from one day before it for `validity_days`.
//!
//! Encryption (`protection = "encrypt"` / `"sign-and-encrypt"`): each packet is
//! encrypted for every other station of the deployment known when it is sent (one
//! recipient_info each), so a bench pair has exactly one recipient.
//!
//! ```toml
//! protocol = "etsi-v1.2.1"
//! curve = "p256"            # p256 | p384 | bp256 | bp384 (all but p256 are the extension)
//! profile = "cam"           # cam | denm | generic
//! protection = "sign"       # sign | encrypt | sign-and-encrypt
//! symmetric = "aes128"      # aes128 | aes256 (extension)
//! ```

use crate::authenticator::{
    Authenticator, Decapsulated, Delivery, EncapError, OutgoingPacket, PacketKind, SenderId, StationId, Timestamp,
};
use crate::describe::{CryptoOp, MessageDescription, OpCount, ProtocolDescription, Schedule, REFERENCE_PAYLOAD_LEN};
use crate::setup::{ProtocolDeployment, Role, SetupError};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use v2x_crypto::Curve;
use v2x_security::time::TaiTime;
use v2x_security::v1_2_1::{SignerChoice, V1EncapRequest, V1Entity, V1Pki, V1Profile, V1Protection, V1TrustStore};
use v2x_wire::v1_2_1::{Certificate, SecuredMessage, SymmetricAlgorithm, ThreeDLocation};
use v2x_wire::ItsAid;

/// Which v1.2.1 security profile the stations use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum V1ProfileName {
    Cam,
    Denm,
    Generic,
}

/// What SN-ENCAP does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum V1ProtectionName {
    Sign,
    Encrypt,
    SignAndEncrypt,
}

/// Symmetric cipher for encrypted payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum V1Symmetric {
    Aes128,
    /// Non-standard extension (paper 000 measured it).
    Aes256,
}

/// Configuration of a v1.2.1 deployment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EtsiV121Config {
    pub curve: Curve,
    pub profile: V1ProfileName,
    /// ITS-AID of the generic profile (CAM = 36 and DENM = 37 are implied by their profiles).
    pub its_aid: ItsAid,
    pub protection: V1ProtectionName,
    pub symmetric: V1Symmetric,
    /// TAI seconds since 2004 that [`Timestamp`] 0 stands for.
    pub epoch_tai_s: u64,
    pub validity_days: u32,
    /// Generation location stamped on DENM / generic messages (1/10 micro-degree).
    pub latitude: i32,
    pub longitude: i32,
}

impl Default for EtsiV121Config {
    fn default() -> Self {
        EtsiV121Config {
            curve: Curve::NistP256,
            profile: V1ProfileName::Cam,
            its_aid: ItsAid::CAM,
            protection: V1ProtectionName::Sign,
            symmetric: V1Symmetric::Aes128,
            epoch_tai_s: 600_000_000,
            validity_days: 365,
            latitude: 481_000_000,
            longitude: 115_000_000,
        }
    }
}

impl EtsiV121Config {
    fn profile(&self) -> V1Profile {
        match self.profile {
            V1ProfileName::Cam => V1Profile::Cam,
            V1ProfileName::Denm => V1Profile::Denm,
            V1ProfileName::Generic => V1Profile::Generic {
                its_aid: self.its_aid.into(),
            },
        }
    }

    fn protection(&self) -> V1Protection {
        match self.protection {
            V1ProtectionName::Sign => V1Protection::Sign,
            V1ProtectionName::Encrypt => V1Protection::Encrypt,
            V1ProtectionName::SignAndEncrypt => V1Protection::SignAndEncrypt,
        }
    }

    fn symmetric(&self) -> SymmetricAlgorithm {
        match self.symmetric {
            V1Symmetric::Aes128 => SymmetricAlgorithm::AES_128_CCM,
            V1Symmetric::Aes256 => SymmetricAlgorithm::AES_256_CCM,
        }
    }

    fn tai(&self, t: Timestamp) -> TaiTime {
        TaiTime(self.epoch_tai_s.saturating_mul(1_000_000).saturating_add(t.as_micros()))
    }
}

type Registry = Arc<Mutex<Vec<(StationId, Certificate)>>>;

/// The PKI and station registry of one deployment.
pub struct EtsiV121Deployment {
    config: EtsiV121Config,
    pki: V1Pki,
    registry: Registry,
}

impl EtsiV121Deployment {
    pub fn new(config: &EtsiV121Config) -> Result<EtsiV121Deployment, SetupError> {
        let start = u32::try_from(config.epoch_tai_s.saturating_sub(86_400))
            .map_err(|_| SetupError::InvalidConfig("epoch_tai_s beyond Time32".into()))?;
        if config.profile == V1ProfileName::Cam && config.protection == V1ProtectionName::Encrypt {
            return Err(SetupError::InvalidConfig(
                "the CAM profile requires signed messages".into(),
            ));
        }
        let pki = V1Pki::generate(config.curve, start, config.validity_days.saturating_add(2))?;
        Ok(EtsiV121Deployment {
            config: config.clone(),
            pki,
            registry: Arc::default(),
        })
    }

    /// A station with its own ticket, trusting the deployment's root and AA (the
    /// [`ProtocolDeployment`] impl boxes it).
    pub fn station(&mut self, id: StationId, _role: Role) -> Result<EtsiV121Station, SetupError> {
        let start = u32::try_from(self.config.epoch_tai_s.saturating_sub(86_400)).unwrap_or(u32::MAX);
        let ticket = self
            .pki
            .ticket(self.config.curve, start, self.config.validity_days, None)?;
        let mut store = V1TrustStore::new();
        store.add_anchor(self.pki.root.certificate.clone());
        store.add_authority(self.pki.aa.certificate.clone());
        if let Ok(mut r) = self.registry.lock() {
            r.push((id, ticket.certificate.clone()));
        }
        let entity = V1Entity::new(Some(ticket), vec![self.pki.aa.certificate.clone()], store);
        Ok(EtsiV121Station {
            id,
            config: self.config.clone(),
            entity,
            registry: Arc::clone(&self.registry),
        })
    }
}

impl ProtocolDeployment for EtsiV121Deployment {
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError> {
        Ok(Box::new(EtsiV121Deployment::station(self, id, role)?))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// One station.
pub struct EtsiV121Station {
    id: StationId,
    config: EtsiV121Config,
    entity: V1Entity,
    registry: Registry,
}

impl EtsiV121Station {
    /// A station around an entity set up elsewhere (credentials from a PKI directory).
    /// It knows no other station's certificate, so it can sign but not encrypt.
    pub fn from_entity(id: StationId, config: EtsiV121Config, entity: V1Entity) -> EtsiV121Station {
        EtsiV121Station {
            id,
            config,
            entity,
            registry: Registry::default(),
        }
    }

    fn recipients(&self) -> Vec<Certificate> {
        self.registry
            .lock()
            .map(|r| {
                r.iter()
                    .filter(|(id, _)| *id != self.id)
                    .map(|(_, c)| c.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn request<'a>(&self, payload: &'a [u8], recipients: &'a [Certificate], now: Timestamp) -> V1EncapRequest<'a> {
        let mut req = V1EncapRequest::new(self.config.profile(), payload, self.config.tai(now));
        req.protection = self.config.protection();
        req.symmetric = self.config.symmetric();
        req.recipients = recipients;
        req.location = Some(ThreeDLocation {
            latitude: self.config.latitude,
            longitude: self.config.longitude,
            elevation: [0, 0],
        });
        req
    }

    /// Overhead of one message with the given signer for the reference payload.
    fn sample_overhead(&self, signer: SignerChoice) -> Option<usize> {
        let payload = [0u8; REFERENCE_PAYLOAD_LEN];
        let recipients = self.recipients();
        let recipients = if recipients.is_empty() {
            vec![self.entity.credential()?.certificate.clone()]
        } else {
            recipients
        };
        let mut req = self.request(&payload, &recipients, Timestamp(0));
        req.signer = signer;
        let mut scratch = self.entity.clone();
        scratch.encap(&req).ok().map(|b| b.len() - REFERENCE_PAYLOAD_LEN)
    }
}

impl Authenticator for EtsiV121Station {
    fn name(&self) -> &str {
        "etsi-v1.2.1"
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        let recipients = self.recipients();
        let req = self.request(payload, &recipients, now);
        let bytes = self.entity.encap(&req)?;
        Ok(vec![OutgoingPacket::broadcast(PacketKind::Data, bytes)])
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        match self.entity.decap(packet, self.config.tai(now)) {
            Ok(a) => Decapsulated::accepted(Delivery {
                payload: a.payload,
                // An encrypted-only message authenticates no sender.
                sender: a
                    .signer
                    .map(SenderId::Certificate)
                    .unwrap_or(SenderId::Claimed(StationId(0))),
                generated: a
                    .generation_time
                    .map(|t| Timestamp(t.0.saturating_sub(self.config.epoch_tai_s.saturating_mul(1_000_000)))),
            }),
            Err(r) => r.into(),
        }
    }

    fn describe(&self) -> ProtocolDescription {
        let curve = crate::describe::CurveName::from(self.config.curve);
        let signs = self.config.protection != V1ProtectionName::Encrypt;
        let encrypts = self.config.protection != V1ProtectionName::Sign;
        let mut sender_ops = Vec::new();
        let mut receiver_ops = Vec::new();
        if signs {
            sender_ops.push(OpCount::new(CryptoOp::EcdsaSign(curve), 1));
        }
        if encrypts {
            sender_ops.push(OpCount::new(
                CryptoOp::EciesEncrypt(curve),
                self.recipients().len().max(1) as u32,
            ));
            sender_ops.push(OpCount::new(CryptoOp::AesEncrypt, 1));
            receiver_ops.push(OpCount::new(CryptoOp::EciesDecrypt(curve), 1));
            receiver_ops.push(OpCount::new(CryptoOp::AesDecrypt, 1));
        }
        let message = |name: &str, signer: SignerChoice, schedule: Schedule, verifies: u32| {
            let overhead = self.sample_overhead(signer).unwrap_or(0);
            let mut rx = receiver_ops.clone();
            if signs {
                rx.push(OpCount::new(CryptoOp::EcdsaVerify(curve), verifies));
            }
            MessageDescription {
                message: name.into(),
                overhead_bytes: overhead,
                packet_bytes: overhead + REFERENCE_PAYLOAD_LEN,
                overhead_depends_on_payload: false,
                schedule,
                sender_ops: sender_ops.clone(),
                receiver_ops: rx,
            }
        };
        let messages = if self.config.profile == V1ProfileName::Cam {
            vec![
                message("data-digest", SignerChoice::Digest, Schedule::EveryPayload, 1),
                // A full certificate once per second; verifying an unseen ticket costs the
                // AA's signature on it too (later ones hit the verified-certificate cache).
                message(
                    "data-certificate",
                    SignerChoice::Certificate,
                    Schedule::Periodic { every_us: 1_000_000 },
                    2,
                ),
            ]
        } else {
            vec![message("data", SignerChoice::Certificate, Schedule::EveryPayload, 2)]
        };
        ProtocolDescription {
            protocol: "etsi-v1.2.1".into(),
            variant: format!(
                "{:?}/{:?}/{}/{:?}",
                self.config.profile, self.config.protection, self.config.curve, self.config.symmetric
            )
            .to_lowercase(),
            reference_payload_len: REFERENCE_PAYLOAD_LEN,
            messages,
            delayed_verification: None,
            notes: vec![
                "ETSI TS 103 097 v1.2.1 presentation-language encoding; curves other than P-256 and AES-256 are a documented non-standard extension (values 240..245)".into(),
                "CAM: certificate digest normally, full certificate once per second and on request_unrecognized_certificate".into(),
            ],
        }
    }
}

/// The v1.2.1 message of an encoded packet (for inspection in tests and tools).
pub fn parse(bytes: &[u8]) -> Result<SecuredMessage, v2x_wire::v1_2_1::V1Error> {
    SecuredMessage::from_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authenticator::{data_packet, DecapOutcome};
    use crate::RejectReason;

    fn pair(config: &EtsiV121Config) -> (EtsiV121Station, EtsiV121Station) {
        let mut d = EtsiV121Deployment::new(config).unwrap();
        (
            d.station(StationId(1), Role::Vehicle).unwrap(),
            d.station(StationId(2), Role::Vehicle).unwrap(),
        )
    }

    #[test]
    fn cam_stream_is_accepted_and_replays_rejected() {
        let (mut a, mut b) = pair(&EtsiV121Config::default());
        let mut last = Vec::new();
        for i in 0..12u64 {
            let now = Timestamp::from_millis(1000 + i * 100);
            let out = a.encap(b"cam body", now).unwrap();
            let pkt = data_packet(&out).unwrap();
            match b.decap(&pkt.bytes, now).outcome {
                DecapOutcome::Accepted(d) => {
                    assert_eq!(d.payload, b"cam body");
                    assert!(matches!(d.sender, SenderId::Certificate(_)));
                    assert_eq!(d.generated, Some(now));
                }
                other => panic!("{i}: {other:?}"),
            }
            last = pkt.bytes.clone();
        }
        let now = Timestamp::from_millis(2200);
        assert_eq!(
            b.decap(&last, now).outcome.reason(),
            Some(RejectReason::DuplicateMessage)
        );
    }

    #[test]
    fn generic_sign_and_encrypt_round_trips_on_every_curve() {
        for curve in Curve::ALL {
            let cfg = EtsiV121Config {
                curve,
                profile: V1ProfileName::Generic,
                protection: V1ProtectionName::SignAndEncrypt,
                symmetric: V1Symmetric::Aes256,
                ..EtsiV121Config::default()
            };
            let (mut a, mut b) = pair(&cfg);
            let now = Timestamp::from_millis(500);
            let out = a.encap(b"secret", now).unwrap();
            let outcome = b.decap(&data_packet(&out).unwrap().bytes, now).outcome;
            assert!(outcome.is_accepted(), "{curve}: {outcome:?}");
            let d = a.describe();
            assert!(d.messages[0].overhead_bytes > 100, "{d:?}");
        }
    }

    #[test]
    fn describe_reports_measured_cam_sizes() {
        let (a, _b) = pair(&EtsiV121Config::default());
        let d = a.describe();
        assert_eq!(d.message("data-digest").unwrap().overhead_bytes, 93);
        assert!(d.message("data-certificate").unwrap().overhead_bytes > 200);
    }
}
