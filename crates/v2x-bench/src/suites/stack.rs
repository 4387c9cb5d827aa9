//! Full-stack ENCAP / DECAP of both standard formats (IEEE 1609.2 / TS 103 097 v2 and the
//! legacy TS 103 097 v1.2.1), per curve, security level (sign, encrypt, sign and encrypt),
//! signer form (certificate digest or full certificate), message type (CAM, DENM,
//! BSM-like) and payload size.
//!
//! Set-up (untimed): a PKI per format and curve (root, AA, sender and receiver tickets
//! with encryption keys), a sender entity and a receiver entity that has already heard
//! the sender's certificate ("known signer").
//!
//! ENCAP is timed as an application calls it: generation time from the clock, a fresh
//! ECIES ephemeral key and data key for every encrypted message.
//!
//! DECAP runs the strict checks (chain from cache, validity, permissions, freshness,
//! replay, signature). Strict replay detection rejects a message seen twice, so DECAP
//! consumes a pool of distinct messages made at set-up; when the pool is used up, the
//! receiver is rebuilt (fresh replay cache, priming with one certificate-signed message)
//! inside the timed loop, spread over the pool: about 0.3% for P-256 (2048 messages),
//! up to ~3% for the 384-bit curves, whose pools are smaller (set-up time budget). The receiver's
//! clock is pinned just after the pool's generation times so that the freshness check
//! passes however long the run takes (the check itself still runs).
//!
//! ECIES in 1609.2 exists only on P-256 and brainpoolP256r1: tickets on P-384 use a
//! P-256 encryption key (brainpoolP384r1 tickets a brainpoolP256r1 one). The v1.2.1
//! stack wraps keys on the ticket's own curve (its non-standard extension values).

use crate::pool::WorkerOp;
use crate::suites::raw::curve_id;
use crate::task::{Factory, Label, Prepared, ScalingTask, Setup, Task};
use crate::{BenchError, Suite};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_profile::{CostKey, MessageId, Operation, ProtocolId, SignerKind, Variant as CostVariant};
use v2x_security::memory_pki::InMemoryPki;
use v2x_security::v1_2_1::{
    CertSpec, Credential, SignerChoice, V1EncapRequest, V1Entity, V1Profile, V1Protection, V1TrustStore,
};
use v2x_security::{
    CertRef, Credentials, EncapRequest, GeoPoint, Location, ProfileKind, Recipient, SecurityEntity, SignerPolicy,
    TaiTime,
};
use v2x_wire::ItsAid;

/// PSID / ITS-AID of the BSM-like message (SAE J2735 BSM, PSID 0x20).
const PSID_BSM: u64 = ItsAid::BSM.value();

/// Payload sizes of the message sweep.
pub const PAYLOADS: [usize; 3] = [100, 300, 500];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// IEEE 1609.2 / ETSI TS 103 097 v2.
    Ieee16092,
    /// ETSI TS 103 097 v1.2.1.
    EtsiV121,
}

impl Format {
    pub fn protocol(self) -> ProtocolId {
        match self {
            Format::Ieee16092 => ProtocolId::Ieee16092,
            Format::EtsiV121 => ProtocolId::EtsiV121,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Sign,
    Encrypt,
    SignEncrypt,
}

impl Level {
    pub fn id(self) -> v2x_profile::Level {
        match self {
            Level::Sign => v2x_profile::Level::Sign,
            Level::Encrypt => v2x_profile::Level::Encrypt,
            Level::SignEncrypt => v2x_profile::Level::SignEncrypt,
        }
    }
    fn signs(self) -> bool {
        self != Level::Encrypt
    }
    fn encrypts(self) -> bool {
        self != Level::Sign
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    Cam,
    Denm,
    Bsm,
    /// Generic profile (PSID 0x20): encrypted-only data, which the CAM and DENM profiles
    /// forbid (they require a signature).
    Generic,
}

impl Message {
    pub fn id(self) -> MessageId {
        match self {
            Message::Cam => MessageId::Cam,
            Message::Denm => MessageId::Denm,
            Message::Bsm => MessageId::Bsm,
            Message::Generic => MessageId::Generic,
        }
    }
}

/// One stack configuration. `certificate` chooses the signer form (ignored when not signing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    pub format: Format,
    pub curve: Curve,
    pub message: Message,
    pub level: Level,
    pub certificate: bool,
    pub payload: usize,
}

impl Variant {
    pub fn signer(&self) -> SignerKind {
        match (self.level.signs(), self.certificate) {
            (false, _) => SignerKind::None,
            (true, true) => SignerKind::Certificate,
            (true, false) => SignerKind::Digest,
        }
    }

    /// The profile variant, e.g. `p256/cam/sign/digest/100`.
    pub fn cost_variant(&self) -> CostVariant {
        CostVariant {
            curve: Some(curve_id(self.curve)),
            message: Some(self.message.id()),
            level: Some(self.level.id()),
            signer: Some(self.signer()),
            payload_bytes: Some(self.payload as u32),
            ..CostVariant::default()
        }
    }

    fn label(&self, operation: Operation) -> Label {
        Label::new(Suite::Stack, self.format.protocol(), operation, self.cost_variant())
    }

    /// The headline configuration: P-256, digest-signed CAM, 100-byte payload, 1609.2.
    pub fn headline() -> Variant {
        Variant {
            format: Format::Ieee16092,
            curve: Curve::NistP256,
            message: Message::Cam,
            level: Level::Sign,
            certificate: false,
            payload: 100,
        }
    }
}

/// The variants measured: every format x curve x level x signer form for a 100-byte CAM,
/// then every message type and payload size at P-256 (quick mode: P-256 only, fewer sizes).
pub fn variants(quick: bool) -> Vec<Variant> {
    let curves: &[Curve] = if quick { &[Curve::NistP256] } else { &Curve::ALL };
    let levels = [
        (Level::Sign, false),
        (Level::Sign, true),
        (Level::Encrypt, false),
        (Level::SignEncrypt, false),
        (Level::SignEncrypt, true),
    ];
    let mut out = Vec::new();
    for format in [Format::Ieee16092, Format::EtsiV121] {
        for &curve in curves {
            for (level, certificate) in levels {
                let message = if level == Level::Encrypt {
                    Message::Generic
                } else {
                    Message::Cam
                };
                out.push(Variant {
                    format,
                    curve,
                    message,
                    level,
                    certificate,
                    payload: 100,
                });
            }
        }
        let payloads: &[usize] = if quick { &[100] } else { &PAYLOADS };
        for message in [Message::Cam, Message::Denm, Message::Bsm] {
            for &payload in payloads {
                // CAMs carry a digest; DENMs (profile) and BSM-like messages (generic
                // profile: the entity sends digests only under the CAM profile) the
                // full certificate.
                let certificate = message != Message::Cam;
                let v = Variant {
                    format,
                    curve: Curve::NistP256,
                    message,
                    level: Level::Sign,
                    certificate,
                    payload,
                };
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

pub(super) fn err<E: std::error::Error + Send + Sync + 'static>(what: &str) -> impl FnOnce(E) -> BenchError + '_ {
    move |e| BenchError::SetupFailed {
        what: what.into(),
        source: Box::new(e),
    }
}

pub(super) fn rejected<E: std::fmt::Debug>(e: E) -> BenchError {
    BenchError::Rejected(format!("{e:?}"))
}

/// Messages pre-made for DECAP (per receiver lifetime): at most this many, within a
/// set-up time budget (slow curves get smaller pools, rebuilt more often).
fn pool_size(quick: bool) -> (usize, Duration) {
    if quick {
        (128, Duration::from_millis(20))
    } else {
        (2048, Duration::from_millis(250))
    }
}

const LOCATION_LAT: i32 = 488_566_000;
const LOCATION_LON: i32 = 23_522_000;

// ------------------------------------------------------------------ IEEE 1609.2

/// An in-memory PKI (root, AA) on one curve and two tickets (sender, receiver) with CAM,
/// DENM and BSM permissions, encryption keys and no assurance level.
pub(super) struct Pki2 {
    pki: InMemoryPki,
    pub(super) sender: Credentials,
    pub(super) receiver: Credentials,
}

impl Pki2 {
    pub(super) fn new(curve: Curve) -> Result<Pki2, BenchError> {
        let pki = InMemoryPki::builder()
            .curve(curve)
            .now(TaiTime::now())
            .psids(&[ItsAid::CAM, ItsAid::DENM, ItsAid::BSM])
            .ticket_assurance_level(None)
            .build()
            .map_err(err("PKI"))?;
        Ok(Pki2 {
            sender: pki.ticket().map_err(err("ticket"))?,
            receiver: pki.ticket().map_err(err("ticket"))?,
            pki,
        })
    }

    /// A fresh authorization ticket from the AA.
    fn ticket(&self) -> Result<Credentials, BenchError> {
        self.pki.ticket().map_err(err("ticket"))
    }

    /// An entity signing with `creds` and trusting the PKI. The suite's payloads are random
    /// bytes of the stated size, not CAMs or DENMs, so the receiver's ETSI SSP rules must not
    /// read them (a DENM would fail closed, `ssp-unverifiable`): they check the SSP's version
    /// and length only, as the protocols' adapter does (`v2x_protocols::dot2`). The rows thus
    /// leave out the facilities decode a real CAM/DENM's SSP check costs.
    pub(super) fn entity(&self, creds: &Credentials) -> SecurityEntity {
        let mut e = self.pki.sender(creds.clone());
        for profile in e.policy_mut().profiles.values_mut() {
            profile.insecure_synthetic_payload();
        }
        e
    }

    /// The sender, with the signer policy the variant asks for.
    pub(super) fn sender(&self, v: &Variant) -> Result<SecurityEntity, BenchError> {
        let mut e = self.entity(&self.sender);
        let kind = profile_kind(v.message);
        e.encap_profile_mut(kind).signer = if v.certificate {
            SignerPolicy::Certificate
        } else {
            // Digest from the first message on: the receiver is primed separately.
            SignerPolicy::DigestWithCertificateEvery(Duration::from_secs(365 * 86_400))
        };
        if kind == ProfileKind::Generic {
            e.encap_profile_mut(kind).psid = ItsAid::BSM;
        }
        Ok(e)
    }
}

fn profile_kind(m: Message) -> ProfileKind {
    match m {
        Message::Cam => ProfileKind::Cam,
        Message::Denm => ProfileKind::Denm,
        Message::Bsm | Message::Generic => ProfileKind::Generic,
    }
}

pub(super) fn request<'a>(v: &Variant, payload: &'a [u8], recipient: &CertRef) -> EncapRequest<'a> {
    let mut r = EncapRequest::new(profile_kind(v.message), payload);
    if matches!(v.message, Message::Bsm | Message::Generic) {
        r = r.with_psid(PSID_BSM);
    }
    if v.message == Message::Denm {
        r = r.with_location(Location {
            point: GeoPoint {
                lat: LOCATION_LAT,
                lon: LOCATION_LON,
            },
            elevation: 0,
        });
    }
    if v.level.encrypts() {
        r = r.encrypted_to(Recipient::Certificate(recipient.clone()));
    }
    if !v.level.signs() {
        r = r.unsigned();
    }
    r
}

fn ieee_encap(v: Variant) -> Result<Prepared, BenchError> {
    let pki = Pki2::new(v.curve)?;
    let mut sender = pki.sender(&v)?;
    let recipient = pki.receiver.certificate.clone();
    let payload = v2x_crypto::random_bytes(v.payload);
    // The first CAM after start-up carries the certificate; measure the steady state.
    sender.encap(&request(&v, &payload, &recipient)).map_err(err("encap"))?;
    let sample = sender.encap(&request(&v, &payload, &recipient)).map_err(err("encap"))?;
    // The label must say what is on the wire.
    if v.level.signs() && sample.signer_was_certificate != v.certificate {
        return Err(BenchError::Setup(format!(
            "the entity chose signer certificate={}",
            sample.signer_was_certificate
        )));
    }
    let size = sample.bytes.len();
    let op: WorkerOp = Box::new(move || {
        let out = sender.encap(&request(&v, &payload, &recipient)).map_err(err("encap"))?;
        black_box(out);
        Ok(())
    });
    Ok(Prepared::with_packet(op, size))
}

/// A 1609.2 receiver that knows the sender, and a pool of distinct messages.
fn ieee_decap(v: Variant, quick: bool) -> Result<Prepared, BenchError> {
    let pki = Arc::new(Pki2::new(v.curve)?);
    let recipient = pki.receiver.certificate.clone();
    let payload = v2x_crypto::random_bytes(v.payload);
    let t0 = TaiTime::now();
    // Priming message: signed with the full certificate, so the receiver learns it.
    let mut primer_sender = pki.entity(&pki.sender);
    primer_sender.encap_profile_mut(profile_kind(v.message)).signer = SignerPolicy::Certificate;
    let primer_variant = Variant { certificate: true, ..v };
    let primer = primer_sender
        .encap(&request(&primer_variant, &payload, &recipient).at(t0))
        .map_err(err("primer encap"))?
        .bytes;
    let mut sender = pki.sender(&v)?;
    let (n, budget) = pool_size(quick);
    let mut pool = Vec::with_capacity(n);
    let started = std::time::Instant::now();
    let mut i = 0usize;
    while pool.len() < n && (pool.len() < 64 || started.elapsed() < budget) {
        let t = TaiTime(t0.0 + 10 * (i as u64 + 1));
        pool.push(
            sender
                .encap(&request(&v, &payload, &recipient).at(t))
                .map_err(err("encap"))?
                .bytes,
        );
        i += 1;
    }
    let n = pool.len();
    let now = TaiTime(t0.0 + 10 * (n as u64 + 1) + 50_000);
    let size = pool.last().map(Vec::len).unwrap_or(0);
    let build = {
        let pki = pki.clone();
        let accept_unsigned = !v.level.signs();
        move || -> Result<SecurityEntity, BenchError> {
            let mut rx = pki.entity(&pki.receiver);
            // Encrypt-only data has no signature to check: the receiver opts in for it.
            rx.policy_mut().accept_unsigned = accept_unsigned;
            rx.decap_at(&primer, now).map_err(rejected)?;
            Ok(rx)
        }
    };
    let mut rx = build()?;
    // Check the whole pool once before timing anything.
    for m in &pool {
        rx.decap_at(m, now).map_err(rejected)?;
    }
    let mut rx = build()?;
    let mut i = 0usize;
    let op: WorkerOp = Box::new(move || {
        if i == pool.len() {
            rx = build()?;
            i = 0;
        }
        let out = rx.decap_at(&pool[i], now).map_err(rejected)?;
        i += 1;
        black_box(out);
        Ok(())
    });
    Ok(Prepared::with_packet(op, size))
}

/// DECAP of digest-signed 100-byte CAMs from `signers` stations in round-robin order (a
/// receiver surrounded by that many neighbours), under a verification strategy. The
/// receiver has heard every station's certificate once and every message of the pool once
/// (untimed, so a strategy's per-signer state is warm). When the pool is used up, a new
/// receiver is primed inside the timed loop and inherits the verifier (and so the signer
/// tables), as a long-running receiver keeps them.
pub fn repeat_signer_decap(
    curve: Curve,
    signers: usize,
    strategy: v2x_crypto::VerifyStrategy,
    compressed_r: bool,
    quick: bool,
) -> Setup {
    Box::new(move || {
        let pki = Arc::new(Pki2::new(curve)?);
        let recipient = pki.receiver.certificate.clone();
        let payload = v2x_crypto::random_bytes(100);
        let v = Variant {
            curve,
            certificate: false,
            ..Variant::headline()
        };
        let t0 = TaiTime::now();
        let mut senders = Vec::with_capacity(signers);
        let mut primers = Vec::with_capacity(signers);
        for _ in 0..signers {
            let creds = pki.ticket()?;
            let mut primer_sender = pki.entity(&creds);
            primer_sender.encap_profile_mut(ProfileKind::Cam).signer = SignerPolicy::Certificate;
            let primer_variant = Variant { certificate: true, ..v };
            primers.push(
                primer_sender
                    .encap(&request(&primer_variant, &payload, &recipient).at(t0))
                    .map_err(err("primer encap"))?
                    .bytes,
            );
            let mut sender = pki.entity(&creds);
            sender.encap_profile_mut(ProfileKind::Cam).signer =
                SignerPolicy::DigestWithCertificateEvery(Duration::from_secs(365 * 86_400));
            sender.set_sign_compressed_r(compressed_r);
            senders.push(sender);
        }
        // Enough messages for the whole measurement where the set-up budget allows.
        let (n, budget) = if quick {
            (4 * signers, Duration::from_millis(200))
        } else {
            (60 * signers, Duration::from_millis(2500))
        };
        let mut pool = Vec::with_capacity(n);
        let started = std::time::Instant::now();
        while pool.len() < n && (pool.len() < 2 * signers || started.elapsed() < budget) {
            let i = pool.len();
            let t = TaiTime(t0.0 + 10 * (i as u64 + 1));
            pool.push(
                senders[i % signers]
                    .encap(&request(&v, &payload, &recipient).at(t))
                    .map_err(err("encap"))?
                    .bytes,
            );
        }
        let now = TaiTime(t0.0 + 10 * (pool.len() as u64 + 1) + 50_000);
        let size = pool.last().map(Vec::len).unwrap_or(0);
        let build = {
            let pki = pki.clone();
            move || -> Result<SecurityEntity, BenchError> {
                let mut rx = pki.entity(&pki.receiver);
                for p in &primers {
                    rx.decap_at(p, now).map_err(rejected)?;
                }
                Ok(rx)
            }
        };
        // Check the whole pool once before timing anything; this also lets the strategy
        // hear every station (the precomputed one builds its tables here), and the timed
        // receiver inherits that verifier: the rows measure the steady state.
        let mut checked = build()?;
        checked.set_verify_strategy(strategy);
        for m in &pool {
            checked.decap_at(m, now).map_err(rejected)?;
        }
        let mut rx = build()?;
        std::mem::swap(rx.verifier_mut(), checked.verifier_mut());
        let mut i = 0usize;
        let op: WorkerOp = Box::new(move || {
            if i == pool.len() {
                let mut next = build()?;
                std::mem::swap(next.verifier_mut(), rx.verifier_mut());
                rx = next;
                i = 0;
            }
            let out = rx.decap_at(&pool[i], now).map_err(rejected)?;
            i += 1;
            black_box(out);
            Ok(())
        });
        Ok(Prepared::with_packet(op, size))
    })
}

/// ENCAP of a digest-signed 100-byte CAM on `curve` (x-only or compressed R).
pub fn cam_encap(curve: Curve, compressed_r: bool) -> Setup {
    Box::new(move || {
        let pki = Pki2::new(curve)?;
        let v = Variant {
            curve,
            certificate: false,
            ..Variant::headline()
        };
        let mut sender = pki.sender(&v)?;
        sender.set_sign_compressed_r(compressed_r);
        let recipient = pki.receiver.certificate.clone();
        let payload = v2x_crypto::random_bytes(100);
        let size = sender
            .encap(&request(&v, &payload, &recipient))
            .map_err(err("encap"))?
            .bytes
            .len();
        let op: WorkerOp = Box::new(move || {
            let out = sender.encap(&request(&v, &payload, &recipient)).map_err(err("encap"))?;
            black_box(out);
            Ok(())
        });
        Ok(Prepared::with_packet(op, size))
    })
}

// ------------------------------------------------------------------ ETSI TS 103 097 v1.2.1

struct Pki1 {
    root: Credential,
    aa: Credential,
    sender: Credential,
    receiver: Credential,
}

impl Pki1 {
    fn new(curve: Curve) -> Result<Pki1, BenchError> {
        let start = TaiTime::now().to_time32().saturating_sub(3600);
        let end = start.saturating_add(7 * 86_400);
        let mut root_spec = CertSpec::root("bench-root", curve, start, end);
        root_spec.its_aids.push(PSID_BSM);
        let root = Credential::issue_root(&root_spec)?;
        let mut aa_spec = CertSpec::authorization_authority("bench-aa", curve, start, end);
        aa_spec.its_aids.push(PSID_BSM);
        let aa = root.issue(&aa_spec)?;
        let mut ticket = CertSpec::authorization_ticket(curve, start, end);
        ticket.its_aid_ssps.push(v2x_wire::v1_2_1::ItsAidSsp {
            its_aid: PSID_BSM,
            service_specific_permissions: Vec::new(),
        });
        let sender = aa.issue(&ticket)?;
        let receiver = aa.issue(&ticket)?;
        Ok(Pki1 {
            root,
            aa,
            sender,
            receiver,
        })
    }

    fn entity(&self, own: &Credential) -> V1Entity {
        let mut store = V1TrustStore::new();
        store.add_anchor(self.root.certificate.clone());
        store.add_authority(self.aa.certificate.clone());
        V1Entity::new(Some(own.clone()), vec![self.aa.certificate.clone()], store)
    }
}

fn v1_profile(m: Message) -> V1Profile {
    match m {
        Message::Cam => V1Profile::Cam,
        Message::Denm => V1Profile::Denm,
        Message::Bsm | Message::Generic => V1Profile::Generic { its_aid: PSID_BSM },
    }
}

fn v1_request<'a>(
    v: &Variant,
    payload: &'a [u8],
    recipients: &'a [v2x_wire::v1_2_1::Certificate],
    now: TaiTime,
) -> V1EncapRequest<'a> {
    let mut r = V1EncapRequest::new(v1_profile(v.message), payload, now);
    r.protection = match v.level {
        Level::Sign => V1Protection::Sign,
        Level::Encrypt => V1Protection::Encrypt,
        Level::SignEncrypt => V1Protection::SignAndEncrypt,
    };
    r.signer = if v.certificate {
        SignerChoice::Certificate
    } else {
        SignerChoice::Digest
    };
    if v.level.encrypts() {
        r.recipients = recipients;
    }
    if v.message == Message::Denm {
        r.location = Some(v2x_wire::v1_2_1::ThreeDLocation {
            latitude: LOCATION_LAT,
            longitude: LOCATION_LON,
            elevation: [0, 0],
        });
    }
    r
}

fn v1_encap(v: Variant) -> Result<Prepared, BenchError> {
    let pki = Pki1::new(v.curve)?;
    let mut sender = pki.entity(&pki.sender);
    let recipients = vec![pki.receiver.certificate.clone()];
    let payload = v2x_crypto::random_bytes(v.payload);
    let size = sender
        .encap(&v1_request(&v, &payload, &recipients, TaiTime::now()))
        .map_err(err("v1 encap"))?
        .len();
    let op: WorkerOp = Box::new(move || {
        let out = sender
            .encap(&v1_request(&v, &payload, &recipients, TaiTime::now()))
            .map_err(err("encap"))?;
        black_box(out);
        Ok(())
    });
    Ok(Prepared::with_packet(op, size))
}

fn v1_decap(v: Variant, quick: bool) -> Result<Prepared, BenchError> {
    let pki = Pki1::new(v.curve)?;
    let mut sender = pki.entity(&pki.sender);
    let recipients = vec![pki.receiver.certificate.clone()];
    let payload = v2x_crypto::random_bytes(v.payload);
    let t0 = TaiTime::now();
    let primer_variant = Variant { certificate: true, ..v };
    let primer = sender
        .encap(&v1_request(&primer_variant, &payload, &recipients, t0))
        .map_err(err("v1 primer"))?;
    let (n, budget) = pool_size(quick);
    let mut pool = Vec::with_capacity(n);
    let started = std::time::Instant::now();
    let mut i = 0usize;
    while pool.len() < n && (pool.len() < 64 || started.elapsed() < budget) {
        let t = TaiTime(t0.0 + 10 * (i as u64 + 1));
        pool.push(
            sender
                .encap(&v1_request(&v, &payload, &recipients, t))
                .map_err(err("v1 encap"))?,
        );
        i += 1;
    }
    let n = pool.len();
    let now = TaiTime(t0.0 + 10 * (n as u64 + 1) + 50_000);
    let size = pool.last().map(Vec::len).unwrap_or(0);
    let mut primed = pki.entity(&pki.receiver);
    primed.decap(&primer, now).map_err(rejected)?;
    let mut check = primed.clone();
    for m in &pool {
        check.decap(m, now).map_err(rejected)?;
    }
    let mut rx = primed.clone();
    let mut i = 0usize;
    let op: WorkerOp = Box::new(move || {
        if i == pool.len() {
            rx = primed.clone();
            i = 0;
        }
        let out = rx.decap(&pool[i], now).map_err(rejected)?;
        i += 1;
        black_box(out);
        Ok(())
    });
    Ok(Prepared::with_packet(op, size))
}

// ------------------------------------------------------------------ tasks

pub(super) fn encap_setup(v: Variant) -> Setup {
    Box::new(move || match v.format {
        Format::Ieee16092 => ieee_encap(v),
        Format::EtsiV121 => v1_encap(v),
    })
}

pub(super) fn decap_setup(v: Variant, quick: bool) -> Setup {
    Box::new(move || match v.format {
        Format::Ieee16092 => ieee_decap(v, quick),
        Format::EtsiV121 => v1_decap(v, quick),
    })
}

pub fn tasks(quick: bool) -> Vec<Task> {
    let mut out = Vec::new();
    for v in variants(quick) {
        out.push(Task {
            label: v.label(Operation::Encap),
            setup: encap_setup(v),
        });
        out.push(Task {
            label: v.label(Operation::Decap),
            setup: decap_setup(v, quick),
        });
    }
    out
}

fn factory(v: Variant, decap: bool, quick: bool) -> Factory {
    Box::new(move || {
        let p = if decap {
            decap_setup(v, quick)()?
        } else {
            encap_setup(v)()?
        };
        Ok(p.op)
    })
}

/// Full stack on one core vs all cores (paper 002 Table 3.2, "VSSKit2" rows).
pub fn scaling_tasks(quick: bool) -> Vec<ScalingTask> {
    let v = Variant::headline();
    let key = |op| CostKey::new(v.format.protocol(), op, v.cost_variant());
    vec![
        ScalingTask {
            kind: Suite::Stack,
            key: key(Operation::Encap),
            label: format!("{} encap {}", v.format.protocol(), v.cost_variant()),
            factory: factory(v, false, quick),
        },
        ScalingTask {
            kind: Suite::Stack,
            key: key(Operation::Decap),
            label: format!("{} decap {}", v.format.protocol(), v.cost_variant()),
            factory: factory(v, true, quick),
        },
    ]
}

pub fn headline_encap() -> Setup {
    encap_setup(Variant::headline())
}

pub fn headline_decap(quick: bool) -> Setup {
    decap_setup(Variant::headline(), quick)
}

pub fn headline_decap_factory(quick: bool) -> Factory {
    factory(Variant::headline(), true, quick)
}
