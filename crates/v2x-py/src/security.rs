//! The security stack for Python: a PKI directory (`Pki`), a signing station (`Sender`,
//! SN-ENCAP) and a receiver (`Receiver`, SN-DECAP with its state: learnt certificates,
//! replay window, P2PCD), over the same `v2x_security` types the CLI uses. One `Receiver`
//! kept across calls is a real receiver: digest-signed messages verify once the signer's
//! certificate was seen, and a second copy of a message is a replay.
//!
//! Times cross the boundary as Unix seconds (floats); the Python half turns them into
//! `datetime`s. A rejection is not an exception here: `decap` returns the verdict with the
//! reason code, and the Python half raises `Rejected` from it.

use crate::Failure;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use v2x_security::pq::store::PqPkiDir;
use v2x_security::pq::{PqDesign, PqReceiver, PqSender};
use v2x_security::v1_2_1::{V1EncapRequest, V1Entity, V1PkiDir, V1Profile};
use v2x_security::{
    Certificate, DecapMode, EncapRequest, GeoPoint, ItsAid, Location, Pki, PkiConfig, ProfileKind, Recipient,
    SecurityEntity, TaiTime, TicketSpec,
};
use v2x_wire::format::{locate_secured_message, MessageFormat};
use v2x_wire::ieee1609dot2::assemble::GenerationLocation;

fn pki_failure(e: impl std::fmt::Display) -> Failure {
    Failure::Pki(e.to_string())
}

/// `at` (Unix seconds) as 1609.2 time, or now.
fn tai(at: Option<f64>) -> Result<TaiTime, Failure> {
    match at {
        None => Ok(TaiTime::now()),
        // An f64 beyond i64 microseconds would saturate silently (`as`): refused instead.
        Some(s) if s.is_finite() && (s * 1e6).abs() < i64::MAX as f64 => {
            TaiTime::from_unix_micros((s * 1e6).round() as i64)
                .ok_or_else(|| Failure::Value(format!("time {s} s is before 2004 (1609.2 time starts there)")))
        }
        Some(s) if s.is_finite() => Err(Failure::Value(format!(
            "time {s} s is out of range (more than 292,000 years from 1970)"
        ))),
        Some(s) => Err(Failure::Value(format!("time {s} is not a number of seconds"))),
    }
}

fn unix_seconds(t: TaiTime) -> Option<f64> {
    t.to_unix_micros().map(|us| us as f64 / 1e6)
}

fn parse_psid(s: &str) -> Result<ItsAid, Failure> {
    ItsAid::parse(s).ok_or_else(|| {
        let names: Vec<&str> = ItsAid::NAMED.iter().filter_map(|a| a.name()).collect();
        Failure::Value(format!(
            "unknown PSID {s:?}: give a number (e.g. 36 or 0x24) or one of {}",
            names.join(", ")
        ))
    })
}

fn certificate(bytes: &[u8], what: &str) -> Result<Arc<Certificate>, Failure> {
    Certificate::from_bytes(bytes)
        .map(Arc::new)
        .map_err(|e| Failure::Decode(format!("{what} is not a 1609.2 certificate: {e}")))
}

/// A PKI directory (`v2x pki`): root CA, EA, AA, stations with their pseudonym tickets, CRL.
#[pyclass(module = "v2xsec._native", name = "Pki")]
pub struct PyPki {
    pki: Pki,
}

#[pymethods]
impl PyPki {
    /// Opens an existing PKI directory.
    #[new]
    fn open(dir: PathBuf) -> PyResult<Self> {
        let pki = Pki::open(&dir).map_err(|e| pki_failure(format!("opening PKI {}: {e}", dir.display())))?;
        Ok(PyPki { pki })
    }

    /// Creates a PKI in `dir` (which must not hold one) with one station.
    #[staticmethod]
    #[pyo3(signature = (dir, station="station-1", curve="p256"))]
    fn init(py: Python<'_>, dir: PathBuf, station: &str, curve: &str) -> PyResult<Self> {
        let curve = v2x_crypto::Curve::from_short_name(curve)
            .ok_or_else(|| Failure::Value(format!("unknown curve {curve:?} (p256, p384, bp256, bp384)")))?;
        let config = PkiConfig {
            curve,
            ..PkiConfig::default()
        };
        let pki = py
            .detach(|| Pki::init(&dir, config, station))
            .map_err(|e| pki_failure(format!("creating PKI in {}: {e}", dir.display())))?;
        Ok(PyPki { pki })
    }

    #[getter]
    fn dir(&self) -> PathBuf {
        self.pki.dir().to_path_buf()
    }

    #[getter]
    fn stations(&self) -> Vec<String> {
        self.pki.stations()
    }

    /// HashedId8 (hex) of the root CA, the EA and the AA.
    fn authorities(&self) -> Vec<(&'static str, String)> {
        vec![
            ("root", self.pki.root().certificate.hashed_id8().to_string()),
            ("ea", self.pki.ea().certificate.hashed_id8().to_string()),
            ("aa", self.pki.aa().certificate.hashed_id8().to_string()),
        ]
    }

    /// Issues `count` tickets for `station` (enrolled on first use); returns their HashedId8s.
    #[pyo3(signature = (station, count=1, psids=Vec::new(), validity_s=604_800, encryption_key=true))]
    fn issue(
        &self,
        py: Python<'_>,
        station: &str,
        count: usize,
        psids: Vec<String>,
        validity_s: u64,
        encryption_key: bool,
    ) -> PyResult<Vec<String>> {
        if count == 0 || count > 100_000 {
            return Err(Failure::Value("count must be between 1 and 100000".into()).into());
        }
        if validity_s == 0 {
            return Err(Failure::Value("validity_s must be positive".into()).into());
        }
        let psids = if psids.is_empty() {
            self.pki.config().psids.clone()
        } else {
            psids.iter().map(|s| parse_psid(s)).collect::<Result<_, _>>()?
        };
        let mut spec = TicketSpec::new(&psids, Duration::from_secs(validity_s));
        spec.encryption_key = encryption_key;
        let issued = py
            .detach(|| self.pki.issue_tickets(station, count, &spec))
            .map_err(pki_failure)?;
        Ok(issued.iter().map(|t| t.certificate.hashed_id8().to_string()).collect())
    }

    /// The tickets of `station`: (HashedId8 hex, certificate C-OER bytes), in ticket order.
    fn tickets<'py>(&self, py: Python<'py>, station: &str) -> PyResult<Vec<(String, Bound<'py, PyBytes>)>> {
        let tickets = self.pki.tickets(station).map_err(pki_failure)?;
        Ok(tickets
            .iter()
            .map(|t| {
                (
                    t.certificate.hashed_id8().to_string(),
                    PyBytes::new(py, t.certificate.encoded()),
                )
            })
            .collect())
    }

    /// Revokes a certificate (C-OER bytes): the root re-issues the CRL; returns its serial.
    fn revoke(&mut self, certificate_bytes: &[u8]) -> PyResult<u32> {
        let cert = certificate(certificate_bytes, "the certificate to revoke")?;
        Ok(self.pki.revoke(&cert).map_err(pki_failure)?)
    }

    /// A signing station: `station`'s first valid ticket (or the one at `pseudonym`); with
    /// `format = "v1.2.1"`, its v1.2.1 ticket in the credentials beside the PKI (created on
    /// first use, as `v2x encap --format v1.2.1` does).
    #[pyo3(signature = (station, pseudonym=None, format="v2"))]
    fn sender(&self, station: &str, pseudonym: Option<usize>, format: &str) -> PyResult<PySender> {
        match format {
            "v2" => {}
            "v1.2.1" => {
                if pseudonym.is_some() {
                    return Err(
                        Failure::Value("a v1.2.1 station has one ticket: no pseudonym to choose".into()).into(),
                    );
                }
                let v1 = V1PkiDir::beside(&self.pki).map_err(pki_failure)?;
                let days = u32::try_from(self.pki.config().ticket_validity_secs / 86_400)
                    .unwrap_or(u32::MAX)
                    .max(1);
                let ticket = v1.ticket_beside(&self.pki, station, days).map_err(pki_failure)?;
                let certificate = (hex(&ticket.digest()), ticket.certificate.to_bytes());
                return Ok(PySender {
                    signer: Signer::V1 {
                        entity: Box::new(v1.entity(ticket).map_err(pki_failure)?),
                        certificate,
                    },
                    station: station.to_owned(),
                });
            }
            other => return Err(Failure::Value(format!("unknown format {other:?} (v2, v1.2.1)")).into()),
        }
        let mut pool = self.pki.pseudonyms(station).map_err(pki_failure)?;
        if pool.is_empty() {
            return Err(pki_failure(format!("station {station} has no ticket")).into());
        }
        if let Some(i) = pseudonym {
            if pool.select(i).is_none() {
                return Err(Failure::Value(format!(
                    "pseudonym {i}: station {station} has {} tickets (0 to {})",
                    pool.len(),
                    pool.len() - 1
                ))
                .into());
            }
        }
        let chain = vec![self.pki.aa().certificate.clone(), self.pki.root().certificate.clone()];
        let entity = SecurityEntity::with_pseudonyms(self.pki.trust_store().map_err(pki_failure)?, pool, chain);
        Ok(PySender {
            signer: Signer::V2(Box::new(entity)),
            station: station.to_owned(),
        })
    }

    /// A receiver trusting this PKI; with `station`, it also decrypts with that station's
    /// ticket keys. `signature_only` is the insecure lab mode (only the message signature).
    #[pyo3(signature = (station=None, signature_only=false, sender_clock_omits_leap_seconds=false))]
    fn receiver(
        &self,
        station: Option<&str>,
        signature_only: bool,
        sender_clock_omits_leap_seconds: bool,
    ) -> PyResult<PyReceiver> {
        let mut entity = SecurityEntity::new(self.pki.trust_store().map_err(pki_failure)?);
        if let Some(station) = station {
            for t in self.pki.tickets(station).map_err(pki_failure)? {
                if let Some(k) = t.encryption_key {
                    entity.add_decryption_key(t.certificate.clone(), k);
                }
            }
        }
        if signature_only {
            entity.set_decap_mode(DecapMode::SignatureOnly);
        }
        if sender_clock_omits_leap_seconds {
            entity.policy_mut().sender_clock_lag = v2x_security::LEAP_SECONDS_SINCE_2004;
        }
        // The v1.2.1 credentials beside the PKI, when it has them: v1.2.1 messages verify.
        let v1 = if self.pki.dir().join(v2x_security::v1_2_1::pki_dir::SUBDIR).is_dir() {
            Some(
                V1PkiDir::beside(&self.pki)
                    .map_err(pki_failure)?
                    .verifier()
                    .map_err(pki_failure)?,
            )
        } else {
            None
        };
        Ok(PyReceiver { entity, v1 })
    }

    /// The EXPERIMENTAL post-quantum design `design`'s PKI beside this one
    /// (`DIR/experimental-pq/DESIGN/`: root and AA, created on first use).
    fn experimental_pq(&self, py: Python<'_>, design: &str) -> PyResult<PyPqPki> {
        let design = PqDesign::from_name(design).map_err(Failure::Value)?;
        let dir = py.detach(|| -> Result<PqPkiDir, Failure> {
            let _lock = self.pki.lock_within(LOCK_PATIENCE).map_err(pki_failure)?;
            PqPkiDir::open_or_create(self.pki.dir(), design, TaiTime::now()).map_err(pki_failure)
        })?;
        Ok(PyPqPki {
            dir,
            pki_dir: self.pki.dir().to_path_buf(),
        })
    }
}

/// The generation location `(lat, lon)` in degrees, checked; the DENM profile requires one.
fn generation_location(location: Option<(f64, f64)>, kind: ProfileKind) -> PyResult<Option<Location>> {
    match location {
        Some((lat, lon)) => {
            if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
                return Err(Failure::Value(format!("location {lat},{lon} out of range")).into());
            }
            Ok(Some(Location {
                point: GeoPoint::from_degrees(lat, lon),
                elevation: 0,
            }))
        }
        None if kind == ProfileKind::Denm => {
            Err(Failure::Value("the denm profile needs location=(lat, lon), the generation location".into()).into())
        }
        None => Ok(None),
    }
}

/// SN-ENCAP with a station's pseudonym tickets. It keeps the sender's state: a CAM carries
/// the full certificate once per second and after a pseudonym change, a digest otherwise.
#[pyclass(module = "v2xsec._native", name = "Sender")]
pub struct PySender {
    signer: Signer,
    station: String,
}

/// The entity a sender signs with, by message format.
enum Signer {
    V2(Box<SecurityEntity>),
    V1 {
        entity: Box<V1Entity>,
        /// The ticket's HashedId8 (hex) and certificate bytes.
        certificate: (String, Vec<u8>),
    },
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl PySender {
    fn v2(&mut self, what: &str) -> Result<&mut SecurityEntity, Failure> {
        match &mut self.signer {
            Signer::V2(e) => Ok(e),
            Signer::V1 { .. } => Err(Failure::Value(format!("{what} is not offered for v1.2.1 senders"))),
        }
    }

    /// SN-ENCAP of the v1.2.1 format: a signed CAM, DENM or generic message.
    fn encap_v1(
        entity: &mut V1Entity,
        payload: &[u8],
        kind: ProfileKind,
        psid: Option<ItsAid>,
        location: Option<(f64, f64)>,
        at: TaiTime,
    ) -> Result<Vec<u8>, Failure> {
        let profile = match kind {
            ProfileKind::Cam => V1Profile::Cam,
            ProfileKind::Denm => V1Profile::Denm,
            ProfileKind::Generic => V1Profile::Generic {
                its_aid: psid.unwrap_or(ItsAid::CAM).value(),
            },
        };
        let mut req = V1EncapRequest::new(profile, payload, at);
        req.location = location.map(|(lat, lon)| v2x_wire::v1_2_1::ThreeDLocation {
            latitude: (lat * 1e7).round() as i32,
            longitude: (lon * 1e7).round() as i32,
            elevation: [0, 0],
        });
        entity.encap(&req).map_err(|e| Failure::Encap(e.to_string()))
    }
}

#[pymethods]
impl PySender {
    #[getter]
    fn station(&self) -> &str {
        &self.station
    }

    /// The signing ticket: (HashedId8 hex, certificate C-OER bytes).
    fn certificate<'py>(&self, py: Python<'py>) -> Option<(String, Bound<'py, PyBytes>)> {
        match &self.signer {
            Signer::V2(e) => e
                .signing_certificate()
                .map(|c| (c.hashed_id8().to_string(), PyBytes::new(py, c.encoded()))),
            Signer::V1 { certificate, .. } => Some((certificate.0.clone(), PyBytes::new(py, &certificate.1))),
        }
    }

    /// Signs `payload` (and encrypts it to `encrypt_to`, a recipient certificate); returns
    /// (message bytes, whether the full certificate signs). The `insecure_*` options are lab
    /// options named as such.
    #[pyo3(signature = (payload, profile="cam", psid=None, location=None, encrypt_to=None, at=None,
                        insecure_unsigned=false, insecure_sign_outside_permissions=false,
                        insecure_sign_with_invalid_ticket=false))]
    #[allow(clippy::too_many_arguments)]
    fn encap<'py>(
        &mut self,
        py: Python<'py>,
        payload: &[u8],
        profile: &str,
        psid: Option<&str>,
        location: Option<(f64, f64)>,
        encrypt_to: Option<&[u8]>,
        at: Option<f64>,
        insecure_unsigned: bool,
        insecure_sign_outside_permissions: bool,
        insecure_sign_with_invalid_ticket: bool,
    ) -> PyResult<(Bound<'py, PyBytes>, bool)> {
        let kind = ProfileKind::from_name(profile)
            .ok_or_else(|| Failure::Value(format!("unknown profile {profile:?} (cam, denm, generic)")))?;
        let psid = psid.map(parse_psid).transpose()?;
        if let Signer::V1 { entity, .. } = &mut self.signer {
            if encrypt_to.is_some()
                || insecure_unsigned
                || insecure_sign_outside_permissions
                || insecure_sign_with_invalid_ticket
            {
                return Err(Failure::Value(
                    "encrypt_to and the insecure_* options are not offered for v1.2.1 senders".into(),
                )
                .into());
            }
            generation_location(location, ProfileKind::Generic)?; // the same range check as v2's
            let out = PySender::encap_v1(entity, payload, kind, psid, location, tai(at)?)?;
            return Ok((PyBytes::new(py, &out), true));
        }
        let mut req = EncapRequest::new(kind, payload).at(tai(at)?);
        if let Some(p) = psid {
            req = req.with_psid(p);
        }
        if let Some(l) = generation_location(location, kind)? {
            req = req.with_location(l);
        }
        if let Some(bytes) = encrypt_to {
            let cert = certificate(bytes, "encrypt_to")?;
            if cert.encryption_key().is_none() {
                return Err(Failure::Value("the encrypt_to certificate has no encryption key".into()).into());
            }
            req = req.encrypted_to(Recipient::Certificate(cert));
        }
        if insecure_unsigned {
            req = req.unsigned();
        }
        let entity = self.v2("encap")?;
        let policy = entity.encap_policy_mut();
        policy.insecure_sign_outside_permissions = insecure_sign_outside_permissions;
        policy.insecure_sign_with_invalid_certificate = insecure_sign_with_invalid_ticket;
        let out = entity.encap(&req).map_err(|e| Failure::Encap(e.to_string()))?;
        Ok((PyBytes::new(py, &out.bytes), out.signer_was_certificate))
    }

    /// Moves to the next valid ticket (the next message carries its full certificate);
    /// returns the new ticket's HashedId8 hex.
    #[pyo3(signature = (at=None))]
    fn change_pseudonym(&mut self, at: Option<f64>) -> PyResult<String> {
        let at = tai(at)?;
        let entity = self.v2("change_pseudonym (one v1.2.1 ticket per station)")?;
        let before = entity.signing_certificate().map(|c| c.hashed_id8());
        entity.rotate_pseudonym(at);
        let after = entity.signing_certificate().map(|c| c.hashed_id8());
        match after {
            Some(a) if Some(a) != before => Ok(a.to_string()),
            _ => Err(pki_failure(format!(
                "station {} has no other valid ticket (Pki.issue adds some)",
                self.station
            ))
            .into()),
        }
    }
}

/// SN-DECAP with a receiver's state (learnt certificates, replay window, P2PCD).
#[pyclass(module = "v2xsec._native", name = "Receiver")]
pub struct PyReceiver {
    entity: SecurityEntity,
    /// The v1.2.1 verifier, when the PKI has v1.2.1 credentials.
    v1: Option<V1Entity>,
}

#[pymethods]
impl PyReceiver {
    /// Verifies a secured message (bare, or inside a GeoNetworking packet) as of `at`
    /// (Unix seconds; default now). Returns a dict: `accepted`, and `reason` and `detail`
    /// when rejected, or the payload and what was verified when accepted.
    #[pyo3(signature = (message, at=None))]
    fn decap<'py>(&mut self, py: Python<'py>, message: &[u8], at: Option<f64>) -> PyResult<Bound<'py, PyDict>> {
        let now = tai(at)?;
        // A bare v2 or v1.2.1 message, or either inside a GeoNetworking packet (as
        // `v2x decap` reads its input).
        let (format, bytes) = locate_secured_message(message);
        if format == MessageFormat::V1_2_1 {
            return self.decap_v1(py, bytes, now);
        }
        let d = PyDict::new(py);
        d.set_item("format", "v2")?;
        match self.entity.decap_at(bytes, now) {
            Ok(m) => {
                d.set_item("accepted", true)?;
                d.set_item("payload", PyBytes::new(py, &m.payload))?;
                d.set_item("signed", m.signed)?;
                d.set_item("encrypted", m.encrypted)?;
                d.set_item("psid", m.psid.map(|p| p.value()))?;
                d.set_item("generation_time", m.generation_time.and_then(unix_seconds))?;
                d.set_item(
                    "generation_location",
                    m.generation_location
                        .map(|p| (f64::from(p.lat) / 1e7, f64::from(p.lon) / 1e7)),
                )?;
                d.set_item("signer", m.signer.as_ref().map(|c| c.hashed_id8().to_string()))?;
                d.set_item("ssp", m.ssp.as_deref().map(|s| PyBytes::new(py, s)))?;
                d.set_item(
                    "mode",
                    match m.mode {
                        DecapMode::Strict => "strict",
                        DecapMode::SignatureOnly => "signature-only",
                    },
                )?;
                d.set_item("region_checked", m.region_checked)?;
            }
            Err(r) => {
                d.set_item("accepted", false)?;
                d.set_item("reason", r.reason.code())?;
                d.set_item("detail", r.detail)?;
            }
        }
        Ok(d)
    }

    /// Whether this receiver verifies v1.2.1 messages (the PKI has v1.2.1 credentials).
    #[getter]
    fn verifies_v1_2_1(&self) -> bool {
        self.v1.is_some()
    }

    /// Signers whose certificate chain this receiver has validated (digest-signed messages
    /// from them verify).
    #[getter]
    fn known_signers(&self) -> usize {
        self.entity.trust_store().known_chains().len()
    }
}

impl PyReceiver {
    /// SN-DECAP of a v1.2.1 message with the v1.2.1 verifier: the same dict as for v2.
    fn decap_v1<'py>(&mut self, py: Python<'py>, bytes: &[u8], now: TaiTime) -> PyResult<Bound<'py, PyDict>> {
        let v1 = self.v1.as_mut().ok_or_else(|| {
            Failure::Value(
                "a v1.2.1 message, and this PKI has no v1.2.1 credentials (Pki.sender(..., format=\"v1.2.1\") \
                 or `v2x encap --format v1.2.1` creates them)"
                    .into(),
            )
        })?;
        let d = PyDict::new(py);
        d.set_item("format", "v1.2.1")?;
        match v1.decap(bytes, now) {
            Ok(m) => {
                use v2x_wire::v1_2_1::PayloadType;
                d.set_item("accepted", true)?;
                d.set_item("payload", PyBytes::new(py, &m.payload))?;
                d.set_item("signed", m.signer.is_some())?;
                d.set_item(
                    "encrypted",
                    m.payload_type == PayloadType::ENCRYPTED || m.payload_type == PayloadType::SIGNED_AND_ENCRYPTED,
                )?;
                d.set_item("psid", m.its_aid)?;
                d.set_item("generation_time", m.generation_time.and_then(unix_seconds))?;
                d.set_item("generation_location", None::<(f64, f64)>)?;
                d.set_item("signer", m.signer.map(|h| hex(&h)))?;
                d.set_item("ssp", None::<Bound<'py, PyBytes>>)?;
                d.set_item("mode", "strict")?;
                d.set_item("region_checked", false)?;
            }
            Err(r) => {
                d.set_item("accepted", false)?;
                d.set_item("reason", r.reason.code())?;
                d.set_item("detail", r.detail)?;
            }
        }
        Ok(d)
    }
}

/// The EXPERIMENTAL post-quantum designs (no standard), by name.
#[pyfunction]
pub fn pq_designs() -> Vec<String> {
    PqDesign::ALL.iter().map(|d| d.name()).collect()
}

/// How long a call waits for another process holding the PKI directory's lock.
const LOCK_PATIENCE: Duration = Duration::from_secs(10);

/// One experimental design's PKI on disk (from `Pki.experimental_pq`).
#[pyclass(module = "v2xsec._native", name = "PqPki")]
pub struct PyPqPki {
    dir: PqPkiDir,
    pki_dir: PathBuf,
}

#[pymethods]
impl PyPqPki {
    #[getter]
    fn design(&self) -> String {
        self.dir.pki().design().name()
    }

    #[getter]
    fn dir(&self) -> PathBuf {
        self.dir.dir().to_path_buf()
    }

    /// HashedId8 (hex) of the design's root and AA.
    fn authorities(&self) -> Vec<(&'static str, String)> {
        vec![
            ("root", self.dir.pki().root().cert.id().to_string()),
            ("aa", self.dir.pki().aa().cert.id().to_string()),
        ]
    }

    /// A signing station: `station`'s newest valid ticket of the design (issued on first use).
    fn sender(&self, py: Python<'_>, station: &str) -> PyResult<PyPqSender> {
        let ticket = py.detach(|| -> Result<_, Failure> {
            let pki = Pki::open(&self.pki_dir).map_err(pki_failure)?;
            let _lock = pki.lock_within(LOCK_PATIENCE).map_err(pki_failure)?;
            self.dir.ticket(station, TaiTime::now()).map_err(pki_failure)
        })?;
        Ok(PyPqSender {
            sender: self.dir.pki().sender(ticket),
        })
    }

    /// A receiver whose policy is this design (a message lacking a part of its signature, a
    /// standard 1609.2 message or a stripped hybrid is `downgrade-refused`).
    fn receiver(&self) -> PyPqReceiver {
        PyPqReceiver {
            receiver: self.dir.pki().receiver(),
        }
    }
}

/// SN-ENCAP of an experimental design; it keeps the CAM rule's state (the certificate when
/// none went out in the last second).
#[pyclass(module = "v2xsec._native", name = "PqSender")]
pub struct PyPqSender {
    sender: PqSender,
}

#[pymethods]
impl PyPqSender {
    /// The signing ticket: (HashedId8 hex, certificate bytes in the experimental format).
    fn certificate<'py>(&self, py: Python<'py>) -> (String, Bound<'py, PyBytes>) {
        let c = &self.sender.ticket().cert;
        (c.id().to_string(), PyBytes::new(py, c.bytes()))
    }

    /// Signs `payload` (profile cam, denm with `location`, or generic with `psid`); returns
    /// (message bytes, whether it carries the whole ticket). A CAM carries it when none went
    /// out in the last second; `with_certificate` overrides.
    #[pyo3(signature = (payload, profile="cam", psid=None, location=None, at=None, with_certificate=None))]
    #[allow(clippy::too_many_arguments)]
    fn encap<'py>(
        &mut self,
        py: Python<'py>,
        payload: &[u8],
        profile: &str,
        psid: Option<&str>,
        location: Option<(f64, f64)>,
        at: Option<f64>,
        with_certificate: Option<bool>,
    ) -> PyResult<(Bound<'py, PyBytes>, bool)> {
        let kind = ProfileKind::from_name(profile)
            .ok_or_else(|| Failure::Value(format!("unknown profile {profile:?} (cam, denm, generic)")))?;
        let now = tai(at)?;
        let psid = match (psid, kind) {
            (Some(p), _) => parse_psid(p)?,
            (None, ProfileKind::Denm) => ItsAid::DENM,
            (None, _) => ItsAid::CAM,
        };
        let location = generation_location(location, kind)?.map(|l| GenerationLocation {
            latitude: l.point.lat,
            longitude: l.point.lon,
            elevation: l.elevation,
        });
        if self.sender.ticket().cert.permission_for(psid).is_none() {
            return Err(Failure::Encap(format!("the experimental ticket does not permit PSID {psid}")).into());
        }
        let (bytes, carried) = match with_certificate {
            None if kind == ProfileKind::Cam && location.is_none() && psid == ItsAid::CAM => {
                let m = self
                    .sender
                    .encap_cam(payload, now)
                    .map_err(|e| Failure::Encap(e.to_string()))?;
                let carried = matches!(
                    v2x_wire::experimental_pq::PqSecuredMessage::decode(&m).map(|x| x.signer),
                    Ok(v2x_wire::experimental_pq::PqSigner::Certificate(_))
                );
                (m, carried)
            }
            w => {
                let w = w.unwrap_or(true);
                let m = self
                    .sender
                    .encap(payload, psid, location, now, w)
                    .map_err(|e| Failure::Encap(e.to_string()))?;
                (m, w)
            }
        };
        Ok((PyBytes::new(py, &bytes), carried))
    }
}

/// SN-DECAP of one experimental design, with a receiver's state (validated tickets, replay
/// window).
#[pyclass(module = "v2xsec._native", name = "PqReceiver")]
pub struct PyPqReceiver {
    receiver: PqReceiver,
}

#[pymethods]
impl PyPqReceiver {
    /// Verifies a message as of `at` (Unix seconds; default now). Returns a dict:
    /// `accepted`, and `reason`, `detail`, `step` when rejected, or the payload and what was
    /// verified when accepted.
    #[pyo3(signature = (message, at=None))]
    fn decap<'py>(&mut self, py: Python<'py>, message: &[u8], at: Option<f64>) -> PyResult<Bound<'py, PyDict>> {
        let now = tai(at)?;
        let d = PyDict::new(py);
        match self.receiver.decap_at(message, now) {
            Ok(m) => {
                d.set_item("accepted", true)?;
                d.set_item("payload", PyBytes::new(py, &m.payload))?;
                d.set_item("psid", m.psid.value())?;
                d.set_item("generation_time", unix_seconds(m.generation_time))?;
                d.set_item("signer", m.signer.to_string())?;
                d.set_item("ssp", m.ssp.as_deref().map(|s| PyBytes::new(py, s)))?;
                d.set_item("design", m.design.name())?;
            }
            Err(r) => {
                d.set_item("accepted", false)?;
                d.set_item("reason", r.rejection.reason.code())?;
                d.set_item("detail", r.rejection.detail)?;
                d.set_item("step", r.step.name())?;
            }
        }
        Ok(d)
    }
}
