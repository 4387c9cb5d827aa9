//! The ITS-S side of the TS 102 941 PKI service from Python (`v2xsec.PkiStation`): a station
//! directory that enrols with an EA and keeps a pool of authorization tickets from an AA over
//! HTTP (crate `v2x-pki-service`, client only).

use crate::Failure;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::time::Duration;
use v2x_pki_service::client::HttpClient;
use v2x_pki_service::config::paths;
use v2x_pki_service::its_station::{ItsError, ItsStation, PoolPlan};
use v2x_security::ts102941::station::AuthorizationOptions;
use v2x_security::TaiTime;

fn failure(e: ItsError) -> Failure {
    Failure::Pki(e.to_string())
}

/// An ITS-S's PKI state (a station directory).
#[pyclass(module = "v2xsec._native", name = "PkiStation")]
pub struct PyPkiStation {
    station: ItsStation,
    http: HttpClient,
}

#[pymethods]
impl PyPkiStation {
    /// Opens a station directory (`v2x pki register` creates one).
    #[new]
    fn open(dir: PathBuf) -> PyResult<Self> {
        Ok(PyPkiStation {
            station: ItsStation::open(&dir).map_err(failure)?,
            http: HttpClient::new(Duration::from_secs(30)),
        })
    }

    /// The canonical identifier.
    #[getter]
    fn its_id(&self) -> String {
        self.station.its_id.clone()
    }

    /// Enrols (or re-enrols with a valid EC) at the EA of the service at `ea` (base URL);
    /// trust lists from `dc` (default: the same service). Returns the EC's HashedId8.
    #[pyo3(signature = (ea, dc = None))]
    fn enrol(&self, py: Python<'_>, ea: &str, dc: Option<&str>) -> PyResult<String> {
        let ec = py
            .detach(|| {
                let a = self.station.refresh_trust(&self.http, dc.unwrap_or(ea))?;
                let url = format!("{}{}", ea.trim_end_matches('/'), paths::ENROLMENT);
                self.station.enrol(&self.http, &a.ea, &url)
            })
            .map_err(failure)?;
        Ok(ec.certificate.hashed_id8().to_string())
    }

    /// Obtains `count` tickets from the AA of the service at `aa` — or, with `refill_below`,
    /// tops the pool up to `count` when fewer than `refill_below` remain. Returns the new
    /// tickets' HashedId8s.
    #[allow(clippy::too_many_arguments)] // the Python keyword arguments
    #[pyo3(signature = (aa, count = 1, refill_below = None, privacy = true, proof_of_possession = true, dc = None))]
    fn authorise(
        &self,
        py: Python<'_>,
        aa: &str,
        count: usize,
        refill_below: Option<usize>,
        privacy: bool,
        proof_of_possession: bool,
        dc: Option<&str>,
    ) -> PyResult<Vec<String>> {
        let got = py
            .detach(|| {
                let mut a = self.station.refresh_trust(&self.http, dc.unwrap_or(aa))?;
                a.aa_url = format!("{}{}", aa.trim_end_matches('/'), paths::AUTHORIZATION);
                let mut plan = PoolPlan::new(count, refill_below.unwrap_or(usize::MAX));
                plan.options = AuthorizationOptions {
                    privacy,
                    proof_of_possession,
                    ..AuthorizationOptions::default()
                };
                match refill_below {
                    Some(_) => self.station.refill(&self.http, &a, &plan),
                    None => self.station.obtain(&self.http, &a, count, &plan),
                }
            })
            .map_err(failure)?;
        Ok(got.iter().map(|t| t.certificate.hashed_id8().to_string()).collect())
    }

    /// The valid tickets: (HashedId8, certificate bytes), oldest first.
    fn tickets<'py>(&self, py: Python<'py>) -> PyResult<Vec<(String, Bound<'py, PyBytes>)>> {
        let t = self.station.tickets(TaiTime::now(), Duration::ZERO).map_err(failure)?;
        Ok(t.iter()
            .map(|c| {
                (
                    c.certificate.hashed_id8().to_string(),
                    PyBytes::new(py, c.certificate.encoded()),
                )
            })
            .collect())
    }

    /// The station's trust directory (for `Pki`-less receivers and `v2x decap --trust`).
    #[getter]
    fn trust_dir(&self) -> PathBuf {
        self.station.trust_dir()
    }
}
