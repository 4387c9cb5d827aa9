//! Credentials of testbed stations: what the orchestrator provisions into a PKI
//! directory before a run, and how a station process turns that directory into its
//! [`Authenticator`]s — one per thread that needs protocol state.
//!
//! The directory is the project's 1609.2 PKI (`v2x pki init` / `issue --station NAME`,
//! [`v2x_security::Pki`]): root CA, EA, AA and a pool of authorization tickets
//! (pseudonyms) per station. Each protocol of the factory finds its material there:
//!
//! | protocol | material |
//! |---|---|
//! | `ieee1609.2` | the station's tickets (pseudonym pool) and a trust store of the root, EA, AA and CRL |
//! | `etsi-v1.2.1` | `DIR/v1.2.1/`: the legacy root and AA, `stations/NAME/at.*` ([`V1PkiDir`], the CLI's layout) |
//! | `tesla` | the station's 1609.2 tickets sign its chain commitments (PSID 0x1D, `bootstrap = "ieee1609.2"`) |
//! | `hash-chain` | the system seed every registered vehicle holds: `DIR/testbed/hash-chain.seed` (0600); PIDs drawn per station |
//! | `2flip` | the trusted authority's master and tracing secrets: `DIR/testbed/2flip.secrets` (0600) |
//! | `experimental-pq` | `DIR/experimental-pq/DESIGN/`: the design's root and AA, `stations/NAME/ticket-*` ([`PqPkiDir`], the CLI's layout) |
//! | `none` | nothing |
//!
//! The session-key schemes are not offered: their pairwise handshakes need the sending
//! and receiving halves of a station in one object, which the testbed's split of
//! sending and verifying threads does not give (refused with that reason).
//!
//! Ticket sets ([`TicketSet`]) give the attack and functional cases their credentials:
//! expired tickets (A-CER-03), tickets without the DENM permission (A-CON-01), without
//! the CAM permission (F-SIG-05/06) and tickets from an AA not allowed to grant CAMs
//! (F-SIG-07).

use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use v2x_protocols::dot2::{Dot2Profile, Dot2Station};
use v2x_protocols::dot2_pki::Clock;
use v2x_protocols::etsi_v1_2_1::EtsiV121Station;
use v2x_protocols::experimental_pq::{ExperimentalPqStation, PqMessageProfile};
use v2x_protocols::hash_chain::{HashChainStation, Registration, PID_LEN};
use v2x_protocols::none::NoneStation;
use v2x_protocols::tesla::{Bootstrap, TeslaSigner, TeslaStation};
use v2x_protocols::two_flip::{TrustedAuthority, TwoFlipStation};
use v2x_protocols::{Authenticator, ProtocolConfig, StationId};
use v2x_security::authority::{issue_sub_ca, issue_ticket};
use v2x_security::pq::store::{PqPkiDir, PqStoreError};
use v2x_security::pq::PqDesign;
use v2x_security::v1_2_1::{Credential as V1Credential, V1Entity, V1PkiDir, V1PkiError};
use v2x_security::{
    IssuePermissions, Pki, PkiConfig, PseudonymPool, SecurityEntity, SignerPolicy, TaiTime, TicketSpec, TrustStore,
};
use v2x_wire::ItsAid;

pub use v2x_protocols::tesla::PSID_TESLA_COMMITMENT;
const PSID_CAM: ItsAid = ItsAid::CAM;
const PSID_DENM: ItsAid = ItsAid::DENM;
const PSID_MISBEHAVIOUR_REPORTING: ItsAid = v2x_mbd::report::MISBEHAVIOUR_REPORTING;
/// Sub-directory of the PKI with the testbed's own shared secrets.
pub const TESTBED_SUBDIR: &str = "testbed";

/// The service AA's certificate, beside the run's PKI (`PKI/testbed/pki-service-aa.oer`).
pub const SERVICE_AA: &str = "pki-service-aa.oer";
const HASH_CHAIN_SEED: &str = "hash-chain.seed";
const TWO_FLIP_SECRETS: &str = "2flip.secrets";
/// The restricted AA of F-SIG-07 (its issue permissions lack CAM).
const RESTRICTED_AA: &str = "aa-without-cam";
const DAY: Duration = Duration::from_secs(86_400);

/// Why credentials could not be provisioned or loaded.
#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    #[error("PKI: {0}")]
    Pki(#[from] v2x_security::PkiError),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("protocol set-up: {0}")]
    Setup(#[from] v2x_protocols::SetupError),
    #[error("{0}")]
    Unsupported(String),
    #[error("issuing a certificate: {0}")]
    Issue(#[from] v2x_security::issue::IssueError),
    #[error("v1.2.1 credentials: {0}")]
    V1(#[from] V1PkiError),
    #[error("experimental post-quantum credentials: {0}")]
    Pq(#[from] PqStoreError),
    #[error("{0}")]
    Invalid(String),
}

fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> CredentialError + '_ {
    move |source| CredentialError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Which tickets a station gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TicketSet {
    /// CAM, DENM and TESLA-commitment permissions, valid for the PKI's ticket validity.
    #[default]
    Standard,
    /// Standard permissions, validity (one hour) ended an hour ago (A-CER-03): inside the
    /// AA's validity, so that a receiver names the expiry rather than an inconsistent chain.
    Expired,
    /// CAM only: a DENM signed with it is outside its permissions (A-CON-01).
    CamOnly,
    /// No CAM permission in any ticket (F-SIG-06).
    WithoutCam,
    /// The first (active) ticket lacks CAM, the next ones have it (F-SIG-05).
    FirstWithoutCam,
    /// CAM tickets from an AA whose issue permissions do not include CAM (F-SIG-07).
    UngrantedByAa,
    /// Standard permissions and misbehaviour reporting (TS 103 759): a closed-loop receiver.
    Reporter,
    /// Misbehaviour reporting only, with an encryption key: the closed loop's misbehaviour
    /// authority, to which reports are encrypted. A stand-in: a deployed MA holds an MA
    /// certificate from the root, which this PKI does not issue.
    MisbehaviourAuthority,
}

impl TicketSet {
    fn psids(self) -> Vec<ItsAid> {
        match self {
            TicketSet::Standard | TicketSet::Expired | TicketSet::UngrantedByAa | TicketSet::FirstWithoutCam => {
                vec![PSID_CAM, PSID_DENM, PSID_TESLA_COMMITMENT]
            }
            TicketSet::CamOnly => vec![PSID_CAM],
            TicketSet::WithoutCam => vec![PSID_DENM, PSID_TESLA_COMMITMENT],
            TicketSet::Reporter => vec![PSID_CAM, PSID_DENM, PSID_TESLA_COMMITMENT, PSID_MISBEHAVIOUR_REPORTING],
            TicketSet::MisbehaviourAuthority => vec![PSID_MISBEHAVIOUR_REPORTING],
        }
    }
}

/// Opens the PKI in `dir`, creating it (with CAM, DENM, TESLA-commitment and misbehaviour
/// reporting PSIDs) when there is none yet.
pub fn open_or_init_pki(dir: &Path) -> Result<Pki, CredentialError> {
    if dir.join("pki.toml").exists() {
        return Ok(Pki::open(dir)?);
    }
    let config = PkiConfig {
        psids: vec![PSID_CAM, PSID_DENM, PSID_TESLA_COMMITMENT, PSID_MISBEHAVIOUR_REPORTING],
        ..PkiConfig::default()
    };
    // `init` wants a first station; the orchestrator's stations are issued next.
    Ok(Pki::init(dir, config, "testbed-admin")?)
}

/// Issues `count` tickets of `set` to `station` (enrolling it first).
pub fn issue_tickets(pki: &Pki, station: &str, set: TicketSet, count: usize) -> Result<(), CredentialError> {
    let count = count.max(1);
    let validity = Duration::from_secs(pki.config().ticket_validity_secs);
    match set {
        TicketSet::Standard
        | TicketSet::CamOnly
        | TicketSet::WithoutCam
        | TicketSet::Reporter
        | TicketSet::MisbehaviourAuthority => {
            pki.issue_tickets(station, count, &TicketSpec::new(&set.psids(), validity))?;
        }
        TicketSet::Expired => {
            let hour = Duration::from_secs(3600);
            let mut spec = TicketSpec::new(&set.psids(), hour);
            spec.start = Some(TaiTime::now().saturating_sub(2 * hour));
            // The named lab option: A-CER-03 needs a ticket that is over when issued.
            spec.insecure_allow_expired = true;
            pki.issue_tickets(station, count, &spec)?;
        }
        TicketSet::FirstWithoutCam => {
            pki.issue_tickets(station, 1, &TicketSpec::new(&TicketSet::WithoutCam.psids(), validity))?;
            pki.issue_tickets(station, count, &TicketSpec::new(&set.psids(), validity))?;
        }
        TicketSet::UngrantedByAa => issue_from_restricted_aa(pki, station, count, validity)?,
    }
    Ok(())
}

/// F-SIG-07: a second AA, issued by the root with the right to grant DENM only, issues
/// CAM tickets into the station's pool (the chain above them does not grant CAM).
fn issue_from_restricted_aa(pki: &Pki, station: &str, count: usize, validity: Duration) -> Result<(), CredentialError> {
    let curve = pki.config().curve;
    let now = TaiTime::now();
    let aa = issue_sub_ca(
        pki.root(),
        "v2xsec AA without CAM",
        IssuePermissions::Psids(vec![PSID_DENM]),
        now.saturating_sub(DAY),
        30 * DAY,
        curve,
    )?;
    let dir = pki.dir().join(TESTBED_SUBDIR).join(RESTRICTED_AA);
    std::fs::create_dir_all(&dir).map_err(io_at(&dir))?;
    let path = dir.join("cert.oer");
    std::fs::write(&path, aa.certificate.encoded()).map_err(io_at(&path))?;
    pki.enrol(station)?;
    let tdir = pki.dir().join("stations").join(station).join("tickets");
    std::fs::create_dir_all(&tdir).map_err(io_at(&tdir))?;
    let mut spec = TicketSpec::new(&[PSID_CAM], validity);
    spec.encryption_key = false;
    for i in 0..count {
        let ticket = issue_ticket(&aa, &spec, spec.default_start(now), curve)?;
        let base = tdir.join(format!("at-{i:04}"));
        let p = base.with_extension("oer");
        std::fs::write(&p, ticket.certificate.encoded()).map_err(io_at(&p))?;
        let pem = ticket
            .signing_key
            .to_pem()
            .map_err(|e| CredentialError::Invalid(e.to_string()))?;
        write_private(&base.with_extension("pem"), &pem)?;
    }
    Ok(())
}

/// The v1.2.1 credentials beside the PKI (created on first use, [`V1PkiDir::beside`])
/// with a ticket for `station` (expired for [`TicketSet::Expired`]).
pub fn issue_v1_ticket(pki: &Pki, station: &str, set: TicketSet) -> Result<(), CredentialError> {
    let v1 = V1PkiDir::beside(pki)?;
    let now = u32::try_from(TaiTime::now().seconds()).unwrap_or(u32::MAX);
    let (start, days) = match set {
        TicketSet::Expired => (now.saturating_sub(3 * 86_400), 1),
        _ => (now.saturating_sub(300), 7),
    };
    v1.ticket_beside_at(pki, station, start, days)?;
    Ok(())
}

/// The experimental design's PKI beside `pki` (created on first use, [`PqPkiDir`]) with a
/// ticket of the design for `station`: its key is the design's message scheme (ML-DSA-44,
/// FN-DSA-512, composite or, for the partially hybrid design, ECDSA P-256), certified by the
/// design's AA.
pub fn issue_pq_ticket(pki: &Pki, station: &str, design: PqDesign) -> Result<(), CredentialError> {
    let now = TaiTime::now();
    PqPkiDir::open_or_create(pki.dir(), design, now)?.ticket(station, now)?;
    Ok(())
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<(), CredentialError> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(io_at(path))?;
    f.write_all(bytes).map_err(io_at(path))
}

/// A secret shared by every station of the deployment, created once (atomically: a
/// concurrent creator's file wins) with mode 0600.
fn shared_secret(pki_dir: &Path, name: &str, len: usize) -> Result<Vec<u8>, CredentialError> {
    let dir = pki_dir.join(TESTBED_SUBDIR);
    let path = dir.join(name);
    if !path.exists() {
        std::fs::create_dir_all(&dir).map_err(io_at(&dir))?;
        let tmp = dir.join(format!(".{name}.{}", std::process::id()));
        write_private(&tmp, &v2x_crypto::random_bytes(len))?;
        // hard_link fails if the file appeared meanwhile: the first one stays.
        let _ = std::fs::hard_link(&tmp, &path);
        let _ = std::fs::remove_file(&tmp);
    }
    let bytes = std::fs::read(&path).map_err(io_at(&path))?;
    if bytes.len() != len {
        return Err(CredentialError::Invalid(format!(
            "{}: {} bytes, expected {len}",
            path.display(),
            bytes.len()
        )));
    }
    Ok(bytes)
}

/// Creates the shared secrets `protocol` needs, so that stations only read them.
pub fn provision_protocol(pki: &Pki, protocol: &ProtocolConfig) -> Result<(), CredentialError> {
    match protocol {
        ProtocolConfig::HashChain(_) => {
            shared_secret(pki.dir(), HASH_CHAIN_SEED, 32)?;
        }
        ProtocolConfig::TwoFlip(_) => {
            shared_secret(pki.dir(), TWO_FLIP_SECRETS, 40)?;
        }
        ProtocolConfig::ExperimentalPq(c) => {
            c.validate()?;
            PqPkiDir::open_or_create(pki.dir(), c.design(), TaiTime::now())?;
        }
        _ => {}
    }
    Ok(())
}

/// Whose certificates a receiving station trusts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trust {
    /// Root, EA, AA and the CRL of the PKI.
    #[default]
    Full,
    /// The root only: the pseudonym CA (AA) certificate is missing (F-CER-02); it can be
    /// learnt from a peer through P2PCD.
    WithoutAa,
}

/// How to build a station's authenticators.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BuildOptions {
    /// Rotate to the next pseudonym this often (F-PSN-01; 1609.2).
    pub pseudonym_change: Option<Duration>,
    pub trust: Trust,
    /// Sign CAMs with the full certificate every time (attackers: the receiver must
    /// then check a signature for every packet).
    pub always_certificate: bool,
    /// How the station's 1609.2 receivers verify signatures (`plain` or the opt-in
    /// `precomputed` per-signer tables; docs/verification-strategies.md).
    pub verifier: v2x_crypto::VerifyStrategy,
    /// INSECURE, for the A-CER-03 attacker only: sign with a certificate that is not valid
    /// (expired) instead of refusing, as SN-ENCAP otherwise does.
    pub insecure_sign_with_invalid_certificate: bool,
    /// INSECURE, for the A-CON-01 attacker only: sign for a PSID the ticket does not
    /// permit instead of refusing (`EncapPolicy::insecure_sign_outside_permissions`).
    pub insecure_sign_outside_permissions: bool,
    /// 1609.2: secure with this profile instead of the scenario's (DENM attackers).
    pub profile: Option<Dot2Profile>,
}

/// Everything a station process needs to build its authenticators.
pub struct StationCredentials {
    pki_dir: PathBuf,
    pki: Option<Pki>,
    name: String,
    number: u32,
    protocol: ProtocolConfig,
    options: BuildOptions,
}

impl StationCredentials {
    /// Loads the PKI directory for station `name` (number `number`) of `protocol`.
    pub fn open(
        pki_dir: &Path,
        name: &str,
        number: u32,
        protocol: &ProtocolConfig,
        options: BuildOptions,
    ) -> Result<StationCredentials, CredentialError> {
        let pki = match protocol {
            ProtocolConfig::None(_) => None,
            ProtocolConfig::Session(_) => {
                return Err(CredentialError::Unsupported(
                    "protocol \"session\" is not supported by the testbed: its pairwise handshakes need the \
                     sending and receiving halves of a station in one object; use one of none, hash-chain, \
                     tesla, 2flip, ieee1609.2, etsi-v1.2.1"
                        .into(),
                ))
            }
            ProtocolConfig::Tesla(c) if c.bootstrap == Bootstrap::Compact => {
                return Err(CredentialError::Unsupported(
                    "tesla with bootstrap = \"compact\" needs a compact CA shared by every station, which \
                     the testbed does not distribute; use bootstrap = \"ieee1609.2\" (commitments signed with \
                     the station's tickets)"
                        .into(),
                ))
            }
            _ => Some(Pki::open(pki_dir)?),
        };
        Ok(StationCredentials {
            pki_dir: pki_dir.to_path_buf(),
            pki,
            name: name.to_string(),
            number,
            protocol: protocol.clone(),
            options,
        })
    }

    fn pki(&self) -> Result<&Pki, CredentialError> {
        self.pki
            .as_ref()
            .ok_or_else(|| CredentialError::Invalid("no PKI opened for this protocol".into()))
    }

    fn trust_store(&self) -> Result<TrustStore, CredentialError> {
        let pki = self.pki()?;
        match self.options.trust {
            Trust::Full => {
                let mut store = pki.trust_store()?;
                // `[pki_service]`: the service's AA, issued under the same root.
                if let Some(aa) = service_aa(pki.dir())? {
                    store.add_ca_certificate(aa);
                }
                if let Some(aa) = self.restricted_aa()? {
                    // F-SIG-07's issuer is known, so that its tickets are judged on what
                    // the chain grants (`inconsistent-chain`), not on an unknown issuer.
                    // Known is not trusted: every link is verified up to the root.
                    store.add_ca_certificate(aa);
                }
                Ok(store)
            }
            Trust::WithoutAa => {
                let mut store = TrustStore::new();
                store
                    .add_trust_anchor(pki.root().certificate.clone())
                    .map_err(|e| CredentialError::Invalid(e.to_string()))?;
                store.add_ca_certificate(pki.ea().certificate.clone());
                Ok(store)
            }
        }
    }

    /// F-SIG-07's AA (issue permissions without CAM), when the PKI has one.
    fn restricted_aa(&self) -> Result<Option<v2x_security::CertRef>, CredentialError> {
        let path = self
            .pki()?
            .dir()
            .join(TESTBED_SUBDIR)
            .join(RESTRICTED_AA)
            .join("cert.oer");
        if !path.exists() {
            return Ok(None);
        }
        Ok(Some(v2x_security::pki_store::read_certificate(&path)?))
    }

    fn entity(&self) -> Result<SecurityEntity, CredentialError> {
        let pki = self.pki()?;
        let mut pool: PseudonymPool = pki.pseudonyms(&self.name)?;
        pool.rotation_interval = self.options.pseudonym_change;
        let mut chain = vec![pki.aa().certificate.clone(), pki.root().certificate.clone()];
        chain.extend(service_aa(pki.dir())?);
        if let Some(aa) = self.restricted_aa()? {
            // Answer P2PCD requests for the restricted AA too (F-SIG-07's issuer).
            chain.insert(0, aa);
        }
        let mut entity = SecurityEntity::with_pseudonyms(self.trust_store()?, pool, chain);
        if self.options.always_certificate {
            entity.encap_profile_mut(v2x_security::ProfileKind::Cam).signer = SignerPolicy::Certificate;
        }
        entity.set_verify_strategy(self.options.verifier);
        entity.encap_policy_mut().insecure_sign_with_invalid_certificate =
            self.options.insecure_sign_with_invalid_certificate;
        entity.encap_policy_mut().insecure_sign_outside_permissions = self.options.insecure_sign_outside_permissions;
        Ok(entity)
    }

    /// The certificates `stations` sign with now (their active tickets): what a forger
    /// copies from their CAMs on the air. Only the public certificate is kept.
    pub fn certificates_of(&self, stations: &[String]) -> Result<Vec<v2x_security::CertRef>, CredentialError> {
        let pki = self.pki()?;
        stations
            .iter()
            .map(|s| Ok(pki.pseudonyms(s)?.active().certificate.clone()))
            .collect()
    }

    /// A new authenticator of this station. Every call gives an independent instance
    /// (own replay windows, caches, key chains) from the same credentials.
    pub fn authenticator(&self) -> Result<Box<dyn Authenticator>, CredentialError> {
        self.authenticator_with(self.options.profile)
    }

    /// [`Self::authenticator`] securing with `profile` (1609.2; `None`: the scenario's).
    pub fn authenticator_with(&self, profile: Option<Dot2Profile>) -> Result<Box<dyn Authenticator>, CredentialError> {
        let id = StationId(self.number);
        Ok(match &self.protocol {
            ProtocolConfig::None(c) => Box::new(NoneStation::new(id, c.clone())),
            ProtocolConfig::Ieee1609Dot2(c) => {
                let mut c = c.clone();
                c.time_base = v2x_protocols::dot2::TimeBase::Tai;
                if let Some(p) = profile {
                    c.profile = p;
                }
                if c.profile == Dot2Profile::Cam && self.options.always_certificate {
                    c.always_certificate = true;
                }
                Box::new(Dot2Station::from_entity(id, c, self.entity()?, Clock::tai()))
            }
            ProtocolConfig::EtsiV121(c) => {
                let mut c = c.clone();
                // Timestamps are TAI µs since 2004: epoch 0.
                c.epoch_tai_s = 0;
                let v1 = V1PkiDir::beside(self.pki()?)?;
                let sdir = v1.dir().join("stations").join(&self.name);
                let ticket = V1Credential::load(&sdir, "at")?;
                let entity = V1Entity::new(Some(ticket), vec![v1.pki.aa.certificate.clone()], v1.trust_store()?);
                Box::new(EtsiV121Station::from_entity(id, c, entity))
            }
            ProtocolConfig::ExperimentalPq(c) => {
                let mut c = c.clone();
                c.time_base = v2x_protocols::dot2::TimeBase::Tai;
                if profile == Some(Dot2Profile::Denm) {
                    c.profile = PqMessageProfile::Denm;
                }
                if self.options.always_certificate {
                    c.always_certificate = true;
                }
                let now = TaiTime::now();
                let dir = PqPkiDir::open(&self.pki_dir, c.design(), now)?;
                let ticket = dir.valid_ticket(&self.name, now)?.ok_or_else(|| {
                    CredentialError::Invalid(format!(
                        "station {} has no valid {} ticket in {}",
                        self.name,
                        c.design(),
                        dir.dir().display()
                    ))
                })?;
                Box::new(ExperimentalPqStation::with_ticket(id, &c, dir.pki(), ticket)?)
            }
            ProtocolConfig::Tesla(c) => {
                let mut c = c.clone();
                c.time_base = v2x_protocols::dot2::TimeBase::Tai;
                let entity = self.entity()?;
                let ticket = entity
                    .signing_certificate()
                    .and_then(|_| self.pki().ok())
                    .map(|p| p.pseudonyms(&self.name))
                    .transpose()?
                    .map(|p| p.active().clone())
                    .ok_or_else(|| CredentialError::Invalid(format!("station {} has no tickets", self.name)))?;
                let signer = TeslaSigner::Ieee1609Dot2 {
                    entity: Box::new(entity),
                    ticket,
                    clock: Clock::tai(),
                    psid: c.commitment_psid,
                };
                let measured = c.clone();
                let description = v2x_protocols::describe::SharedDescription::new(move || {
                    let len = v2x_protocols::tesla::measured_commitment_len(&measured).unwrap_or(0);
                    v2x_protocols::tesla::describe(&measured, len)
                });
                Box::new(TeslaStation::new(id, c, signer, description))
            }
            ProtocolConfig::HashChain(c) => {
                let seed_bytes = shared_secret(&self.pki_dir, HASH_CHAIN_SEED, 32)?;
                let mut seed = [0u8; 32];
                seed.copy_from_slice(&seed_bytes);
                let pseudonyms = (0..c.pseudonyms_per_vehicle.max(1))
                    .map(|_| {
                        let mut pid = [0u8; PID_LEN];
                        pid.copy_from_slice(&v2x_crypto::random_bytes(PID_LEN));
                        pid
                    })
                    .collect();
                // Vehicles only check RSU certificates against the anchor; the testbed
                // runs no RSU, so the PKI root's key stands in.
                let anchor =
                    v2x_protocols::cert::TrustAnchor::new(self.pki()?.root().certificate.verification_key().clone());
                Box::new(HashChainStation::vehicle(
                    id,
                    c.clone(),
                    Registration { seed, pseudonyms },
                    anchor,
                ))
            }
            ProtocolConfig::TwoFlip(c) => {
                let s = shared_secret(&self.pki_dir, TWO_FLIP_SECRETS, 40)?;
                let mut msk = [0u8; 20];
                let mut k_trace = [0u8; 20];
                msk.copy_from_slice(&s[..20]);
                k_trace.copy_from_slice(&s[20..]);
                let mut ta = TrustedAuthority::from_secrets(msk, k_trace);
                let (tpd, driver) = ta.register(self.number);
                Box::new(TwoFlipStation::new(
                    id,
                    c.clone(),
                    tpd,
                    driver,
                    Arc::new(Mutex::new(ta)),
                ))
            }
            ProtocolConfig::Session(_) => unreachable!("refused in open"),
        })
    }
}

/// The service AA a run's PKI directory names (see [`crate::run::pki_service::provision`]), if any: receivers add it to
/// their trust stores (a chain link, verified up to the root like any other) and senders answer
/// P2PCD requests for it.
pub fn service_aa(pki_dir: &Path) -> Result<Option<v2x_security::CertRef>, CredentialError> {
    let path = pki_dir.join(TESTBED_SUBDIR).join(SERVICE_AA);
    if !path.exists() {
        return Ok(None);
    }
    Ok(Some(v2x_security::pki_store::read_certificate(&path)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_protocols::DecapOutcome;

    fn exchange(protocol: &ProtocolConfig, dir: &Path) -> DecapOutcome {
        let pki = open_or_init_pki(dir).unwrap();
        for name in ["a", "b"] {
            issue_tickets(&pki, name, TicketSet::Standard, 2).unwrap();
            issue_v1_ticket(&pki, name, TicketSet::Standard).unwrap();
            if let ProtocolConfig::ExperimentalPq(c) = protocol {
                issue_pq_ticket(&pki, name, c.design()).unwrap();
            }
        }
        provision_protocol(&pki, protocol).unwrap();
        let a = StationCredentials::open(dir, "a", 1, protocol, BuildOptions::default()).unwrap();
        let b = StationCredentials::open(dir, "b", 2, protocol, BuildOptions::default()).unwrap();
        let mut sender = a.authenticator().unwrap();
        let mut receiver = b.authenticator().unwrap();
        let now = crate::clock::now();
        let mut last = None;
        for p in sender.encap(b"hello testbed", now).unwrap() {
            last = Some(receiver.decap(&p.bytes, now.plus_micros(500)).outcome);
        }
        last.unwrap()
    }

    #[test]
    fn every_supported_protocol_exchanges_between_separately_loaded_stations() {
        for text in [
            "protocol = \"none\"",
            "protocol = \"ieee1609.2\"",
            "protocol = \"etsi-v1.2.1\"",
            "protocol = \"hash-chain\"",
            "protocol = \"2flip\"",
            "protocol = \"tesla\"\nkey_disclosure = \"attached\"",
            "protocol = \"experimental-pq\"\ndesign = \"experimental-pq-only-fn-dsa-512\"",
            "protocol = \"experimental-pq\"\ndesign = \"experimental-partially-hybrid-ndss2024\"",
        ] {
            let dir = tempfile::tempdir().unwrap();
            let protocol: ProtocolConfig = toml::from_str(text).unwrap();
            let outcome = exchange(&protocol, dir.path());
            let ok = match &protocol {
                // TESLA holds data until the key is disclosed.
                ProtocolConfig::Tesla(_) => matches!(outcome, DecapOutcome::Pending(_)),
                _ => outcome.is_accepted(),
            };
            assert!(ok, "{text}: {outcome:?}");
        }
    }

    /// Each station process signs with its own ticket from the directory: two loads of the
    /// same station sign as one signer, another station as another; a station without a
    /// ticket is refused with the reason, not given a fresh one.
    #[test]
    fn experimental_pq_stations_sign_with_their_own_tickets_from_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let protocol: ProtocolConfig =
            toml::from_str("protocol = \"experimental-pq\"\ndesign = \"experimental-pq-only-ml-dsa-44\"").unwrap();
        let pki = open_or_init_pki(dir.path()).unwrap();
        provision_protocol(&pki, &protocol).unwrap();
        for name in ["a", "b", "rx"] {
            issue_pq_ticket(&pki, name, PqDesign::PqOnly(v2x_crypto::pq::PqAlgorithm::MlDsa44)).unwrap();
        }
        let open = |name: &str, number| {
            StationCredentials::open(dir.path(), name, number, &protocol, BuildOptions::default()).unwrap()
        };
        let now = crate::clock::now();
        let mut receiver = open("rx", 9).authenticator().unwrap();
        let mut signer_of = |name: &str, number, counter: u8| {
            let mut tx = open(name, number).authenticator().unwrap();
            let p = tx.encap(&[counter; 20], now).unwrap().remove(0);
            match receiver.decap(&p.bytes, now.plus_micros(500)).outcome {
                DecapOutcome::Accepted(d) => d.sender,
                other => panic!("{name}: {other:?}"),
            }
        };
        let a1 = signer_of("a", 1, 1);
        let a2 = signer_of("a", 1, 2);
        let b = signer_of("b", 2, 3);
        assert_eq!(a1, a2, "one ticket per station, loaded twice");
        assert_ne!(a1, b);
        let e = open("c", 3).authenticator().err().unwrap().to_string();
        assert!(e.contains("no valid") && e.contains("ml-dsa-44"), "{e}");
    }

    #[test]
    fn the_configured_verification_strategy_is_the_receivers() {
        let dir = tempfile::tempdir().unwrap();
        let protocol: ProtocolConfig = toml::from_str("protocol = \"ieee1609.2\"").unwrap();
        let pki = open_or_init_pki(dir.path()).unwrap();
        issue_tickets(&pki, "a", TicketSet::Standard, 2).unwrap();
        provision_protocol(&pki, &protocol).unwrap();
        let verifier: v2x_crypto::VerifyStrategy =
            toml::from_str("strategy = \"precomputed\"\nbuild_after = 2").unwrap();
        let options = BuildOptions {
            verifier,
            ..BuildOptions::default()
        };
        let a = StationCredentials::open(dir.path(), "a", 1, &protocol, options).unwrap();
        let mut sender = a.entity().unwrap();
        let mut receiver = a.entity().unwrap();
        assert_eq!(receiver.verifier().strategy().name(), "precomputed");
        let now = TaiTime::now();
        for i in 0..4u8 {
            let payload = [i; 20];
            let req = v2x_security::EncapRequest::new(v2x_security::ProfileKind::Cam, &payload).at(now);
            let msg = sender.encap(&req).unwrap();
            let out = receiver.decap_at(&msg.bytes, now);
            assert!(out.is_ok(), "{out:?}");
        }
        // Message 1 carries the certificate; the signer's table is built at its 2nd
        // message and serves the rest.
        let stats = receiver.verifier().cache_stats().unwrap();
        assert_eq!((stats.plain, stats.builds, stats.table_hits), (1, 1, 3), "{stats:?}");
        let bad: Result<v2x_crypto::VerifyStrategy, _> = toml::from_str("strategy = \"fastest\"");
        let e = bad.unwrap_err().to_string();
        assert!(e.contains("plain") && e.contains("precomputed"), "{e}");
    }

    #[test]
    fn unsupported_protocols_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let session: ProtocolConfig = toml::from_str("protocol = \"session\"").unwrap();
        let e = StationCredentials::open(dir.path(), "a", 1, &session, BuildOptions::default())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("session") && e.contains("ieee1609.2"), "{e}");
        let compact: ProtocolConfig = toml::from_str("protocol = \"tesla\"\nbootstrap = \"compact\"").unwrap();
        let e = StationCredentials::open(dir.path(), "a", 1, &compact, BuildOptions::default())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("bootstrap"), "{e}");
    }

    #[test]
    fn shared_secrets_are_private_and_stable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let a = shared_secret(dir.path(), "s", 32).unwrap();
        let b = shared_secret(dir.path(), "s", 32).unwrap();
        assert_eq!(a, b);
        let mode = std::fs::metadata(dir.path().join(TESTBED_SUBDIR).join("s"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(shared_secret(dir.path(), "s", 16).is_err(), "length is checked");
    }
}
