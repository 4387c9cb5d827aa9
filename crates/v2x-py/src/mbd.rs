//! Misbehaviour detection for Python (`v2x-mbd`): a trace of received CAMs (VeReMi NextGen or
//! VeReMi files, or our attacks on one), the per-message features our detectors decide on,
//! our built-in detectors, and the evaluation (precision, recall, F1, accuracy on one half of
//! the sending vehicles, bootstrap intervals over vehicles) for any per-message predictions:
//! a learned detector written in Python is scored exactly like ours. The Python half
//! (`v2xsec.mbd`) calls the learned detector and turns the results into numpy and pandas.

use crate::Failure;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use v2x_mbd::attacks::{choose, inject_logs, Attack, InjectConfig};
use v2x_mbd::checks::Family;
use v2x_mbd::dataset::{nextgen, veremi};
use v2x_mbd::detector::DetectorConfig;
use v2x_mbd::{eval, features, Message};

fn family(name: &str) -> Result<Family, Failure> {
    match name {
        "catch" => Ok(Family::Catch),
        "legacy" => Ok(Family::Legacy),
        o => Err(Failure::Value(format!("unknown family {o:?}; valid: catch, legacy"))),
    }
}

/// A built-in detector by name (`v2x-mbd score --detector`).
fn detector(name: &str, fam: Family) -> Result<DetectorConfig, Failure> {
    match name {
        "catch-reference" => Ok(DetectorConfig::catch_reference()),
        "plausibility" => Ok(DetectorConfig::plausibility(fam)),
        "full" => Ok(DetectorConfig::full(fam)),
        o => Err(Failure::Value(format!(
            "unknown detector {o:?}; valid: catch-reference, plausibility, full"
        ))),
    }
}

fn dataset_failure(e: impl std::fmt::Display) -> Failure {
    Failure::Dataset(e.to_string())
}

/// Received messages, one log per receiver (each in reception order), with ground truth.
#[pyclass(module = "v2xsec._native", name = "MbdTrace", frozen)]
pub struct PyMbdTrace {
    logs: Vec<(String, Vec<Message>)>,
}

impl PyMbdTrace {
    fn rows(&self) -> usize {
        self.logs.iter().map(|(_, m)| m.len()).sum()
    }

    /// Flat per-row predictions as one list per log.
    fn split_rows(&self, flat: &[bool]) -> Result<Vec<Vec<bool>>, Failure> {
        if flat.len() != self.rows() {
            return Err(Failure::Value(format!(
                "{} predictions for {} messages (one per row of features())",
                flat.len(),
                self.rows()
            )));
        }
        let mut out = Vec::with_capacity(self.logs.len());
        let mut at = 0;
        for (_, m) in &self.logs {
            out.push(flat[at..at + m.len()].to_vec());
            at += m.len();
        }
        Ok(out)
    }
}

#[pymethods]
impl PyMbdTrace {
    /// A VeReMi NextGen file (one receiver) or a folder of them (`*.json`, ground-truth
    /// files skipped).
    #[staticmethod]
    fn read_nextgen(py: Python<'_>, path: PathBuf) -> PyResult<PyMbdTrace> {
        py.detach(|| -> Result<_, Failure> {
            let logs = if path.is_dir() {
                nextgen::read_dir(&path).map_err(dataset_failure)?
            } else {
                let name = path
                    .file_stem()
                    .map_or_else(|| "log".to_string(), |s| s.to_string_lossy().into_owned());
                vec![(name, nextgen::read(&path).map_err(dataset_failure)?)]
            };
            Ok(PyMbdTrace { logs })
        })
        .map_err(PyErr::from)
    }

    /// VeReMi / VeReMi Extension receiver logs (JSON lines) labelled by their ground-truth log.
    #[staticmethod]
    fn read_veremi(py: Python<'_>, logs: Vec<PathBuf>, ground_truth: PathBuf) -> PyResult<PyMbdTrace> {
        py.detach(|| -> Result<_, Failure> {
            let read =
                |p: &PathBuf| std::fs::read_to_string(p).map_err(|e| Failure::Dataset(format!("{}: {e}", p.display())));
            let truth = veremi::parse_ground_truth(&read(&ground_truth)?, &ground_truth.display().to_string())
                .map_err(dataset_failure)?;
            let mut out = Vec::new();
            for p in &logs {
                let msgs =
                    veremi::parse_receiver_log(&read(p)?, &p.display().to_string(), &truth).map_err(dataset_failure)?;
                let name = p
                    .file_stem()
                    .map_or_else(|| "log".to_string(), |s| s.to_string_lossy().into_owned());
                out.push((name, msgs));
            }
            Ok(PyMbdTrace { logs: out })
        })
        .map_err(PyErr::from)
    }

    /// This trace with `attack` injected by our attack implementations (`v2x-mbd attack`):
    /// `ratio` of the vehicles attack, draws from `seed`.
    fn attack(&self, py: Python<'_>, name: &str, ratio: f64, seed: u64) -> PyResult<PyMbdTrace> {
        py.detach(|| -> Result<_, Failure> {
            let attack = Attack::from_name(name).map_err(Failure::Value)?;
            if !(0.0..=1.0).contains(&ratio) {
                return Err(Failure::Value(format!("ratio {ratio} is not in [0, 1]")));
            }
            let cfg = InjectConfig { ratio, seed };
            let attackers = choose(self.logs.iter().flat_map(|(_, m)| m), &attack, &cfg);
            Ok(PyMbdTrace {
                logs: inject_logs(&self.logs, &attack, &attackers, seed),
            })
        })
        .map_err(PyErr::from)
    }

    fn __len__(&self) -> usize {
        self.rows()
    }

    /// The receivers' log names, in row order.
    fn logs(&self) -> Vec<String> {
        self.logs.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Per-row identifiers and ground truth: a dict of equal-length lists (`log`,
    /// `message_id`, `sender_id`, `sender_alias`, `rcv_time_s`, `attacker`).
    fn meta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let all = || self.logs.iter().flat_map(|(n, m)| m.iter().map(move |m| (n, m)));
        d.set_item("log", all().map(|(n, _)| n.as_str()).collect::<Vec<_>>())?;
        d.set_item("message_id", all().map(|(_, m)| m.message_id).collect::<Vec<_>>())?;
        d.set_item(
            "sender_id",
            all().map(|(_, m)| m.sender_id.as_str()).collect::<Vec<_>>(),
        )?;
        d.set_item("sender_alias", all().map(|(_, m)| m.sender_alias).collect::<Vec<_>>())?;
        d.set_item("rcv_time_s", all().map(|(_, m)| m.rcv_time_s()).collect::<Vec<_>>())?;
        d.set_item("attacker", all().map(|(_, m)| m.is_attack()).collect::<Vec<_>>())?;
        Ok(d)
    }

    /// The feature matrix (`v2x_mbd::features`): (names, row-major float64 bytes, rows).
    fn features<'py>(
        &self,
        py: Python<'py>,
        family_name: &str,
    ) -> PyResult<(Vec<&'static str>, Bound<'py, PyBytes>, usize)> {
        let fam = family(family_name)?;
        let bytes = py.detach(|| {
            let mut out = Vec::with_capacity(self.rows() * features::WIDTH * 8);
            for (_, m) in &self.logs {
                for row in features::features(m, fam) {
                    for v in row {
                        out.extend_from_slice(&v.to_ne_bytes());
                    }
                }
            }
            out
        });
        Ok((features::names(), PyBytes::new(py, &bytes), self.rows()))
    }

    /// A built-in detector's per-row predictions (retroactive flags applied).
    fn predict(&self, py: Python<'_>, detector_name: &str, family_name: &str) -> PyResult<Vec<bool>> {
        let config = detector(detector_name, family(family_name)?)?;
        Ok(py.detach(|| self.logs.iter().flat_map(|(_, m)| eval::predict(m, &config)).collect()))
    }

    /// Whether each row's sending vehicle is in `half` (`test`, `tune`, `all`).
    fn in_half(&self, half: &str, test_share: f64) -> PyResult<Vec<bool>> {
        let h = eval::Half::from_name(half).map_err(Failure::Value)?;
        let counted = eval::counted_vehicles(&self.logs, h, test_share);
        Ok(self
            .logs
            .iter()
            .flat_map(|(_, m)| m.iter().map(|m| counted.contains(&m.sender_id)))
            .collect())
    }

    /// Scores per-row predictions as `v2x-mbd score` does (JSON text of `eval::Scored`).
    fn score(
        &self,
        py: Python<'_>,
        predictions: Vec<bool>,
        half: &str,
        test_share: f64,
        reps: usize,
    ) -> PyResult<String> {
        let h = eval::Half::from_name(half).map_err(Failure::Value)?;
        let per_log = self.split_rows(&predictions)?;
        py.detach(|| -> Result<String, Failure> {
            let s = eval::score(&self.logs, &per_log, h, test_share, reps).map_err(Failure::Value)?;
            serde_json::to_string(&s).map_err(|e| Failure::Value(e.to_string()))
        })
        .map_err(PyErr::from)
    }
}

/// The feature columns, in order (`v2x_mbd::features::names`).
#[pyfunction]
pub fn mbd_feature_names() -> Vec<&'static str> {
    features::names()
}
