//! An ITS-S that enrols and keeps a pool of authorization tickets from a TS 102 941 PKI, with
//! its state in a directory:
//!
//! | path | what |
//! |---|---|
//! | `station.json` | the canonical identifier and curve |
//! | `canonical-key.pem` | the canonical key (registered with the EA by the manufacturer / operator) |
//! | `trust/tlm.oer` | the trust anchor installed at provisioning: the TLM certificate |
//! | `trust/` (rest) | what the distribution centre serves: the ECTL, the RCA's CTL and CRL, the root certificate (a trust directory `v2x decap --trust` reads) |
//! | `ec/ID/` + `ec/current` | enrolment credentials (`cert.oer`, `key.pem`), the current one named |
//! | `tickets/ID.{oer,pem,enc.pem}` | authorization tickets with their keys |
//!
//! Keys are written before their certificates and a file is only ever created or atomically
//! replaced, so a killed process leaves no certificate without its key. The EA and AA are the
//! ones the RCA's CTL lists (their certificates and access points), verified from the
//! provisioned TLM down.

use crate::client::{HttpClient, HttpError};
use crate::config::paths;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey, PublicKey};
use v2x_security::certificate::{AppPermission, CertRef, Certificate};
use v2x_security::durable::{self, Access};
use v2x_security::trust_list::{verify_rca_ctl, verify_trust_list};
use v2x_security::ts102941::attributes::attributes;
use v2x_security::ts102941::station::{
    self, AuthorizationOptions, AuthorizationOutcome, EnrolmentIdentity, EnrolmentOutcome, StationError,
};
use v2x_security::{Authority, Credentials, ItsAid, TaiTime, TrustStore};
use v2x_wire::trust_list::TrustListEntry;

/// Why the station could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ItsError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Damaged { path: PathBuf, reason: String },
    #[error("{0}")]
    Http(#[from] HttpError),
    #[error("{0}")]
    Protocol(#[from] StationError),
    #[error("trust: {0}")]
    Trust(String),
    #[error("the EA refused the enrolment: {0}")]
    EnrolmentRefused(&'static str),
    #[error("the AA refused the authorization: {0}")]
    AuthorizationRefused(&'static str),
    #[error("not enrolled: run `v2x pki enrol` first")]
    NotEnrolled,
    #[error("{0} exists")]
    Exists(PathBuf),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ItsError + '_ {
    move |source| ItsError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn damaged(path: &Path, reason: impl ToString) -> ItsError {
    ItsError::Damaged {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// What the distribution centre told the station: the EA and AA and where to reach them.
#[derive(Debug, Clone)]
pub struct Authorities {
    pub root: CertRef,
    pub ea: CertRef,
    pub ea_url: String,
    pub aa: CertRef,
    pub aa_url: String,
}

/// An ITS-S's PKI state.
pub struct ItsStation {
    dir: PathBuf,
    pub its_id: String,
    canonical: PrivateKey,
}

/// The enrolment credential's permissions (ITS-AID 623, SSP "enrolment, authorization").
fn ec_request_permissions() -> Vec<AppPermission> {
    vec![AppPermission::new(ItsAid::CERT_REQUEST, Some(vec![0x01, 0xc0]))]
}

impl ItsStation {
    /// Creates a station in `dir` (which must not exist) with a new canonical key on `curve`.
    pub fn create(dir: &Path, its_id: &str, curve: Curve) -> Result<ItsStation, ItsError> {
        if dir.exists() {
            return Err(ItsError::Exists(dir.to_path_buf()));
        }
        if its_id.is_empty() || its_id.len() > 255 {
            return Err(damaged(dir, "the canonical id must have 1 to 255 bytes"));
        }
        durable::create_dir_all(dir).map_err(io(dir))?;
        let canonical = PrivateKey::generate(curve).map_err(|e| damaged(dir, e))?;
        let key = dir.join("canonical-key.pem");
        durable::create_new(
            &key,
            &canonical.to_pem().map_err(|e| damaged(&key, e))?,
            Access::OwnerOnly,
        )
        .map_err(io(&key))?;
        let meta = serde_json::json!({"its_id": its_id, "curve": curve.short_name()});
        let path = dir.join("station.json");
        durable::create_new(&path, meta.to_string().as_bytes(), Access::Public).map_err(io(&path))?;
        Ok(ItsStation {
            dir: dir.to_path_buf(),
            its_id: its_id.to_string(),
            canonical,
        })
    }

    /// Opens a station directory.
    pub fn open(dir: &Path) -> Result<ItsStation, ItsError> {
        let path = dir.join("station.json");
        let meta: serde_json::Value =
            serde_json::from_slice(&fs::read(&path).map_err(io(&path))?).map_err(|e| damaged(&path, e))?;
        let its_id = meta["its_id"]
            .as_str()
            .ok_or_else(|| damaged(&path, "no its_id"))?
            .to_string();
        let curve = meta["curve"]
            .as_str()
            .and_then(Curve::from_short_name)
            .ok_or_else(|| damaged(&path, "no curve"))?;
        let key = dir.join("canonical-key.pem");
        let canonical =
            PrivateKey::from_pem(curve, &fs::read(&key).map_err(io(&key))?).map_err(|e| damaged(&key, e))?;
        Ok(ItsStation {
            dir: dir.to_path_buf(),
            its_id,
            canonical,
        })
    }

    /// The station's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The canonical public key (what the EA's registry holds).
    pub fn canonical_public_key(&self) -> &PublicKey {
        self.canonical.public_key()
    }

    /// The curve of the station's keys.
    pub fn curve(&self) -> Curve {
        self.canonical.curve()
    }

    /// The trust directory (for `v2x decap --trust`).
    pub fn trust_dir(&self) -> PathBuf {
        self.dir.join("trust")
    }

    /// Installs the trust anchor (provisioning): the TLM certificate.
    pub fn install_trust_anchor(&self, tlm: &[u8]) -> Result<(), ItsError> {
        let cert = Certificate::from_bytes(tlm).map_err(|e| ItsError::Trust(format!("TLM certificate: {e}")))?;
        if !cert.is_self_signed() || !cert.verify_signature(None) {
            return Err(ItsError::Trust("the TLM certificate is not validly self-signed".into()));
        }
        let d = self.trust_dir();
        durable::create_dir_all(&d).map_err(io(&d))?;
        let p = d.join("tlm.oer");
        durable::replace(&p, tlm, Access::Public).map_err(io(&p))
    }

    fn tlm(&self) -> Result<Certificate, ItsError> {
        let p = self.trust_dir().join("tlm.oer");
        let bytes = fs::read(&p).map_err(|_| {
            ItsError::Trust(format!(
                "{} missing: the station is not provisioned (v2x pki register)",
                p.display()
            ))
        })?;
        Certificate::from_bytes(&bytes).map_err(|e| damaged(&p, e))
    }

    /// Downloads and verifies the ECTL (with the provisioned TLM), the RCA's CTL and CRL from
    /// the distribution centre at `dc` (a base URL), stores them in the trust directory and
    /// returns the EA and AA they name.
    pub fn refresh_trust(&self, http: &HttpClient, dc: &str) -> Result<Authorities, ItsError> {
        let base = dc.trim_end_matches('/');
        let tlm = self.tlm()?;
        let ectl = http.get(&format!("{base}{}", paths::ECTL))?;
        let verified = verify_trust_list(&ectl, &tlm).map_err(|e| ItsError::Trust(format!("ECTL: {e}")))?;
        let now = TaiTime::now();
        if u64::from(verified.list.next_update.0) <= now.seconds() {
            return Err(ItsError::Trust("the ECTL is past its nextUpdate".into()));
        }
        let root = verified
            .root_cas
            .first()
            .cloned()
            .ok_or_else(|| ItsError::Trust("the ECTL lists no root CA".into()))?;
        let mut store = TrustStore::new();
        store
            .add_trust_anchor(root.clone())
            .map_err(|e| ItsError::Trust(format!("root: {e}")))?;
        let id = root.hashed_id8();
        let ctl = http.get(&format!("{base}{}/{id}", paths::CTL))?;
        let ctl_v = verify_rca_ctl(&ctl, &store).map_err(|e| ItsError::Trust(format!("RCA CTL: {e}")))?;
        let crl = http.get(&format!("{base}{}/{id}", paths::CRL))?;
        v2x_security::crl::verify_crl(&crl, &store).map_err(|e| ItsError::Trust(format!("CRL: {e}")))?;
        let (mut ea, mut aa) = (None, None);
        for e in &ctl_v.list.entries {
            match e {
                TrustListEntry::Ea {
                    certificate,
                    its_access_point,
                    ..
                } => ea = Some((certificate.encoded.clone(), its_access_point.clone())),
                TrustListEntry::Aa {
                    certificate,
                    access_point,
                } => aa = Some((certificate.encoded.clone(), access_point.clone())),
                _ => {}
            }
        }
        let cert = |b: &[u8]| -> Result<CertRef, ItsError> {
            Certificate::from_bytes(b)
                .map(Arc::new)
                .map_err(|e| ItsError::Trust(e.to_string()))
        };
        let (ea_cert, ea_url) = ea.ok_or_else(|| ItsError::Trust("the CTL lists no EA".into()))?;
        let (aa_cert, aa_url) = aa.ok_or_else(|| ItsError::Trust("the CTL lists no AA".into()))?;
        let d = self.trust_dir();
        for (name, bytes) in [
            ("root.oer", root.encoded()),
            ("1-ectl.oer", &ectl[..]),
            ("2-rca-ctl.oer", &ctl[..]),
            ("crl.oer", &crl[..]),
        ] {
            let p = d.join(name);
            durable::replace(&p, bytes, Access::Public).map_err(io(&p))?;
        }
        let authorities = Authorities {
            root,
            ea: cert(&ea_cert)?,
            ea_url: ea_url.ok_or_else(|| ItsError::Trust("the CTL's EA has no ITS access point".into()))?,
            aa: cert(&aa_cert)?,
            aa_url,
        };
        let urls = serde_json::json!({"ea": authorities.ea_url, "aa": authorities.aa_url});
        let p = self.dir.join("access-points.json");
        durable::replace(&p, urls.to_string().as_bytes(), Access::Public).map_err(io(&p))?;
        Ok(authorities)
    }

    /// The current enrolment credential, if any.
    pub fn enrolment_credential(&self) -> Result<Option<Authority>, ItsError> {
        let current = self.dir.join("ec").join("current");
        let id = match fs::read_to_string(&current) {
            Ok(s) => s.trim().to_string(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(&current)(e)),
        };
        let d = self.dir.join("ec").join(&id);
        let cp = d.join("cert.oer");
        let cert = Certificate::from_bytes(&fs::read(&cp).map_err(io(&cp))?).map_err(|e| damaged(&cp, e))?;
        let kp = d.join("key.pem");
        let key = PrivateKey::from_pem(cert.curve(), &fs::read(&kp).map_err(io(&kp))?).map_err(|e| damaged(&kp, e))?;
        if key.public_key() != cert.verification_key() {
            return Err(damaged(&kp, "not the EC's key"));
        }
        Ok(Some(Authority {
            certificate: Arc::new(cert),
            key,
        }))
    }

    fn save_ec(&self, ec: &Authority) -> Result<(), ItsError> {
        let id = ec.certificate.hashed_id8().to_string();
        let d = self.dir.join("ec").join(&id);
        durable::create_dir_all(&d).map_err(io(&d))?;
        let kp = d.join("key.pem");
        durable::create_new(&kp, &ec.key.to_pem().map_err(|e| damaged(&kp, e))?, Access::OwnerOnly).map_err(io(&kp))?;
        let cp = d.join("cert.oer");
        durable::create_new(&cp, ec.certificate.encoded(), Access::Public).map_err(io(&cp))?;
        let cur = self.dir.join("ec").join("current");
        durable::replace(&cur, id.as_bytes(), Access::Public).map_err(io(&cur))
    }

    /// Enrols with `ea` at `ea_url`: an initial enrolment with the canonical key, or a
    /// re-enrolment signed by the current EC while it is valid. Returns the new EC.
    pub fn enrol(&self, http: &HttpClient, ea: &CertRef, ea_url: &str) -> Result<Authority, ItsError> {
        let now = TaiTime::now();
        let current = self
            .enrolment_credential()?
            .filter(|ec| ec.certificate.validity().contains(now));
        let requested = attributes(&ec_request_permissions(), None, None);
        let its_id = self.its_id.as_bytes();
        let identity = match &current {
            Some(ec) => EnrolmentIdentity::Reenrolment { ec },
            None => EnrolmentIdentity::Canonical {
                its_id,
                key: &self.canonical,
            },
        };
        let request = station::enrolment_request(identity, ea, &requested, self.curve(), false, now)?;
        let response = http.post(ea_url, &request.message)?;
        match station::read_enrolment_response(&response, request, ea)? {
            EnrolmentOutcome::Enrolled { ec, .. } => {
                self.save_ec(&ec)?;
                Ok(ec)
            }
            EnrolmentOutcome::Refused(code) => Err(ItsError::EnrolmentRefused(code.name())),
        }
    }

    /// The tickets on disk that are valid at `now` (and still `margin` later), oldest first.
    pub fn tickets(&self, now: TaiTime, margin: Duration) -> Result<Vec<Credentials>, ItsError> {
        let d = self.dir.join("tickets");
        let entries = match fs::read_dir(&d) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io(&d)(e)),
        };
        let mut out = Vec::new();
        let later = now.saturating_add(margin);
        for e in entries.filter_map(Result::ok) {
            let p = e.path();
            if p.extension().and_then(|x| x.to_str()) != Some("oer") {
                continue;
            }
            let cert = Certificate::from_bytes(&fs::read(&p).map_err(io(&p))?).map_err(|e| damaged(&p, e))?;
            let v = cert.validity();
            if !v.contains(now) || !v.contains(later) {
                continue;
            }
            let kp = p.with_extension("pem");
            let key =
                PrivateKey::from_pem(cert.curve(), &fs::read(&kp).map_err(io(&kp))?).map_err(|e| damaged(&kp, e))?;
            let ep = p.with_extension("enc.pem");
            let enc = match (fs::read(&ep), cert.encryption_key()) {
                (Ok(pem), Some(k)) => Some(PrivateKey::from_pem(k.curve(), &pem).map_err(|e| damaged(&ep, e))?),
                _ => None,
            };
            out.push(Credentials {
                certificate: Arc::new(cert),
                signing_key: key,
                encryption_key: enc,
            });
        }
        out.sort_by_key(|c| (c.certificate.validity().start, c.certificate.hashed_id8().0));
        Ok(out)
    }

    fn save_ticket(&self, t: &Credentials) -> Result<(), ItsError> {
        let d = self.dir.join("tickets");
        durable::create_dir_all(&d).map_err(io(&d))?;
        let stem = d.join(t.certificate.hashed_id8().to_string());
        let kp = stem.with_extension("pem");
        durable::create_new(
            &kp,
            &t.signing_key.to_pem().map_err(|e| damaged(&kp, e))?,
            Access::OwnerOnly,
        )
        .map_err(io(&kp))?;
        if let Some(enc) = &t.encryption_key {
            let ep = stem.with_extension("enc.pem");
            durable::create_new(&ep, &enc.to_pem().map_err(|e| damaged(&ep, e))?, Access::OwnerOnly)
                .map_err(io(&ep))?;
        }
        let cp = stem.with_extension("oer");
        durable::create_new(&cp, t.certificate.encoded(), Access::Public).map_err(io(&cp))
    }

    /// Obtains one authorization ticket from `aa` at `aa_url` (the EC from `ea`) and stores it.
    pub fn authorise_one(
        &self,
        http: &HttpClient,
        ec: &Authority,
        authorities: &Authorities,
        psids: &[ItsAid],
        options: AuthorizationOptions,
    ) -> Result<Credentials, ItsError> {
        let permissions: Vec<AppPermission> = psids
            .iter()
            .map(|&p| AppPermission::new(p, v2x_security::authority::default_ssp(p)))
            .collect();
        let requested = attributes(&permissions, None, None);
        let request = station::authorization_request(
            ec,
            &authorities.ea,
            &authorities.aa,
            &requested,
            options,
            TaiTime::now(),
        )?;
        let response = http.post(&authorities.aa_url, &request.message)?;
        match station::read_authorization_response(&response, request, &authorities.aa)? {
            AuthorizationOutcome::Authorized(t) => {
                self.save_ticket(&t)?;
                Ok(t)
            }
            AuthorizationOutcome::Refused(code) => Err(ItsError::AuthorizationRefused(code.name())),
        }
    }

    /// The EC to ask with: the current one, re-enrolled first when it ends within
    /// `reenrol_before`.
    fn usable_ec(
        &self,
        http: &HttpClient,
        authorities: &Authorities,
        reenrol_before: Duration,
    ) -> Result<Authority, ItsError> {
        let now = TaiTime::now();
        let ec = self.enrolment_credential()?.ok_or(ItsError::NotEnrolled)?;
        if ec.certificate.validity().contains(now.saturating_add(reenrol_before)) {
            Ok(ec)
        } else {
            self.enrol(http, &authorities.ea, &authorities.ea_url)
        }
    }

    /// Obtains `count` new tickets (re-enrolling first when due).
    pub fn obtain(
        &self,
        http: &HttpClient,
        authorities: &Authorities,
        count: usize,
        plan: &PoolPlan,
    ) -> Result<Vec<Credentials>, ItsError> {
        let ec = self.usable_ec(http, authorities, plan.reenrol_before)?;
        (0..count)
            .map(|_| self.authorise_one(http, &ec, authorities, &plan.psids, plan.options))
            .collect()
    }

    /// Keeps the pool: when fewer than `plan.refill_below` tickets stay valid for
    /// `plan.margin`, obtains tickets until there are `plan.target` (re-enrolling first when
    /// due). Returns the tickets obtained (none when the pool is full enough).
    pub fn refill(
        &self,
        http: &HttpClient,
        authorities: &Authorities,
        plan: &PoolPlan,
    ) -> Result<Vec<Credentials>, ItsError> {
        let valid = self.tickets(TaiTime::now(), plan.margin)?.len();
        if valid >= plan.refill_below {
            return Ok(Vec::new());
        }
        self.obtain(http, authorities, plan.target.saturating_sub(valid), plan)
    }
}

/// How a station keeps its pool of tickets.
#[derive(Debug, Clone)]
pub struct PoolPlan {
    /// Tickets to have after a refill.
    pub target: usize,
    /// Refill when fewer than this many tickets are valid for `margin` more.
    pub refill_below: usize,
    pub margin: Duration,
    /// Re-enrol when the EC ends within this.
    pub reenrol_before: Duration,
    pub psids: Vec<ItsAid>,
    pub options: AuthorizationOptions,
}

impl PoolPlan {
    /// A pool of `target` tickets refilled when fewer than `refill_below` stay valid for
    /// five more minutes; CAM and DENM; re-enrolment when the EC ends within a week.
    pub fn new(target: usize, refill_below: usize) -> PoolPlan {
        PoolPlan {
            target,
            refill_below,
            margin: Duration::from_secs(300),
            reenrol_before: Duration::from_secs(7 * 86_400),
            psids: vec![ItsAid::CAM, ItsAid::DENM],
            options: AuthorizationOptions::default(),
        }
    }
}
