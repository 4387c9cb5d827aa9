//! The native half of the `v2xsec` Python package (`v2xsec._native`): the simulator, the
//! sweep engine, the benchmark, the overhead report, `inspect` and the security stack
//! (`security`: PKI, SN-ENCAP, SN-DECAP) and misbehaviour detection (`mbd`: traces,
//! features, detectors, scores), called as libraries (no CLI in between). The GIL is
//! released while Rust works; failures raise the typed exceptions below. The Python half
//! (crates/v2x-py/python/v2xsec) turns the results into pandas DataFrames and runs sweeps on
//! Dask.

mod mbd;
mod pki_client;
mod security;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::{Path, PathBuf};
use v2x_sim::Scenario;
use v2x_sweep::{Record, Sweep, SweepError as SweepFailure};

create_exception!(_native, V2xError, PyException, "Base class of every v2xsec error.");
create_exception!(
    _native,
    ScenarioError,
    V2xError,
    "A scenario is malformed or has an invalid value."
);
create_exception!(
    _native,
    SimulationError,
    V2xError,
    "The simulator could not run a scenario."
);
create_exception!(
    _native,
    SweepError,
    V2xError,
    "A sweep spec, run or folder is unusable."
);
create_exception!(_native, DecodeError, V2xError, "Bytes that no decoder accepts.");
create_exception!(_native, BenchError, V2xError, "The benchmark could not run.");
create_exception!(
    _native,
    DatasetError,
    V2xError,
    "A misbehaviour-detection trace (VeReMi, VeReMi NextGen) is missing or malformed."
);
create_exception!(
    _native,
    PkiError,
    V2xError,
    "A PKI directory is missing, damaged or cannot do what was asked."
);
create_exception!(
    _native,
    EncapError,
    V2xError,
    "SN-ENCAP refused to sign or encrypt (e.g. an expired ticket, a PSID outside its permissions)."
);

/// An error from the Rust side, kept typed until it becomes a Python exception.
enum Failure {
    Scenario(String),
    Sim(String),
    Sweep(String),
    Decode(String),
    Bench(String),
    Dataset(String),
    Pki(String),
    Encap(String),
    /// A bad argument (raised as Python's `ValueError`).
    Value(String),
}

impl From<Failure> for PyErr {
    fn from(f: Failure) -> PyErr {
        match f {
            Failure::Scenario(m) => ScenarioError::new_err(m),
            Failure::Sim(m) => SimulationError::new_err(m),
            Failure::Sweep(m) => SweepError::new_err(m),
            Failure::Decode(m) => DecodeError::new_err(m),
            Failure::Bench(m) => BenchError::new_err(m),
            Failure::Dataset(m) => DatasetError::new_err(m),
            Failure::Pki(m) => PkiError::new_err(m),
            Failure::Encap(m) => EncapError::new_err(m),
            Failure::Value(m) => PyValueError::new_err(m),
        }
    }
}

fn sim_failure(e: v2x_sim::SimError) -> Failure {
    match e {
        v2x_sim::SimError::Scenario(s) => Failure::Scenario(s.to_string()),
        other => Failure::Sim(other.to_string()),
    }
}

fn sweep_failure(e: SweepFailure) -> Failure {
    match e {
        SweepFailure::Scenario { .. } => Failure::Scenario(e.to_string()),
        SweepFailure::Sim { .. } => Failure::Sim(e.to_string()),
        other => Failure::Sweep(other.to_string()),
    }
}

/// A rayon pool of `threads` workers (0: every core).
fn pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Sim(format!("cannot start {threads} threads: {e}")))
}

/// Scenario from TOML text or a JSON object (a Python dict), paths relative to `base_dir`.
fn scenario(text: &str, format: &str, base_dir: &Path) -> Result<Scenario, Failure> {
    let toml_text = match format {
        "toml" => text.to_string(),
        "json" => {
            let v: toml::Value = serde_json::from_str(text)
                .map_err(|e| Failure::Scenario(format!("scenario dict: {e} (None values are not allowed)")))?;
            toml::to_string(&v).map_err(|e| Failure::Scenario(format!("scenario dict: {e}")))?
        }
        other => {
            return Err(Failure::Scenario(format!(
                "unknown scenario format {other:?} (toml or json)"
            )))
        }
    };
    let mut sc = Scenario::parse(&toml_text, "<scenario>").map_err(|e| Failure::Scenario(e.to_string()))?;
    sc.resolve_paths(base_dir);
    Ok(sc)
}

fn sweep_spec(text: &str, format: &str, base_dir: &Path) -> Result<Sweep, Failure> {
    match format {
        "toml" => Sweep::parse_toml(text, base_dir),
        "json" => Sweep::parse_json(text, base_dir),
        other => return Err(Failure::Sweep(format!("unknown spec format {other:?} (toml or json)"))),
    }
    .map_err(sweep_failure)
}

/// Runs a scenario; returns `{"summary": json text, "rows": {column: list}, "wall_s": s}`
/// (rows: one per variant x replication x metric or distance bin).
#[pyfunction]
#[pyo3(signature = (text, format, base_dir, out=None, threads=0))]
fn sim(
    py: Python<'_>,
    text: &str,
    format: &str,
    base_dir: PathBuf,
    out: Option<PathBuf>,
    threads: usize,
) -> PyResult<Py<PyDict>> {
    let (summary, rows, wall) = py.detach(|| -> Result<_, Failure> {
        let sc = scenario(text, format, &base_dir)?;
        let results = pool(threads)?
            .install(|| v2x_sim_crypto::run(&sc, &v2x_report::Silent))
            .map_err(sim_failure)?;
        if let Some(dir) = &out {
            v2x_sim::output::write_all(&results, dir).map_err(sim_failure)?;
        }
        let summary = v2x_sim::output::summary(&results).to_string();
        Ok((summary, v2x_sim::tidy::rows(&results), results.wall_s))
    })?;
    let d = PyDict::new(py);
    d.set_item("summary", summary)?;
    let cols = PyDict::new(py);
    cols.set_item("replication", rows.iter().map(|(r, _)| *r).collect::<Vec<_>>())?;
    cols.set_item(
        "variant",
        rows.iter().map(|(_, x)| x.variant.as_str()).collect::<Vec<_>>(),
    )?;
    cols.set_item(
        "protocol",
        rows.iter().map(|(_, x)| x.protocol.as_str()).collect::<Vec<_>>(),
    )?;
    cols.set_item(
        "metric",
        rows.iter().map(|(_, x)| x.metric.as_str()).collect::<Vec<_>>(),
    )?;
    cols.set_item(
        "distance_from_m",
        rows.iter().map(|(_, x)| x.distance_from_m).collect::<Vec<_>>(),
    )?;
    cols.set_item(
        "distance_to_m",
        rows.iter().map(|(_, x)| x.distance_to_m).collect::<Vec<_>>(),
    )?;
    cols.set_item("value", rows.iter().map(|(_, x)| x.value).collect::<Vec<_>>())?;
    d.set_item("rows", cols)?;
    d.set_item("wall_s", wall)?;
    Ok(d.unbind())
}

/// One run of a sweep for Python: (id, point, replication, seed, params as JSON text).
type RunRow = (String, usize, u32, u64, String);

/// The runs of a sweep.
#[pyfunction]
fn sweep_runs(text: &str, format: &str, base_dir: PathBuf) -> PyResult<Vec<RunRow>> {
    let s = sweep_spec(text, format, &base_dir)?;
    Ok(s.runs
        .iter()
        .map(|r| {
            let params: serde_json::Map<String, serde_json::Value> = r
                .params
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::to_value(v).unwrap_or_default()))
                .collect();
            (
                r.id.clone(),
                r.point,
                r.replication,
                r.seed,
                serde_json::Value::Object(params).to_string(),
            )
        })
        .collect())
}

/// Simulates one run of a sweep (one Dask task) on `threads` threads; returns its record
/// as JSON text, to be stored with [`sweep_store`] wherever the table is gathered.
#[pyfunction]
#[pyo3(signature = (text, format, base_dir, run_id, threads=1))]
fn sweep_run_one(
    py: Python<'_>,
    text: &str,
    format: &str,
    base_dir: PathBuf,
    run_id: &str,
    threads: usize,
) -> PyResult<String> {
    let rec = py.detach(|| -> Result<Record, Failure> {
        let s = sweep_spec(text, format, &base_dir)?;
        let run = s.run_by_id(run_id).map_err(sweep_failure)?;
        let (_, rec) = pool(threads)?
            .install(|| v2x_sweep::record::execute(&s, run))
            .map_err(sweep_failure)?;
        Ok(rec)
    })?;
    serde_json::to_string(&rec).map_err(|e| SweepError::new_err(e.to_string()))
}

/// Stores a record from [`sweep_run_one`] in its run folder under `out`.
#[pyfunction]
fn sweep_store(out: PathBuf, record: &str) -> PyResult<()> {
    let rec: Record =
        serde_json::from_str(record).map_err(|e| SweepError::new_err(format!("not a run record: {e}")))?;
    v2x_sweep::store::save(&out, &rec, None).map_err(|e| PyErr::from(sweep_failure(e)))
}

/// Writes `runs.csv` and rebuilds `results.parquet`/`results.csv` from the finished runs;
/// returns (rows, runs not finished).
#[pyfunction]
fn sweep_merge(text: &str, format: &str, base_dir: PathBuf, out: PathBuf) -> PyResult<(usize, usize)> {
    let s = sweep_spec(text, format, &base_dir)?;
    v2x_sweep::store::prepare(&s, &out).map_err(sweep_failure)?;
    Ok(v2x_sweep::merge(&s, &out).map_err(sweep_failure)?)
}

/// Whether a run's folder under `out` holds its finished record.
#[pyfunction]
fn sweep_is_done(out: PathBuf, run_id: &str) -> bool {
    v2x_sweep::store::run_dir(&out, run_id).join("record.json").is_file()
}

/// Runs a whole sweep in this process (resumable; `only`: these run ids); returns
/// (ran, reused, missing, rows).
#[pyfunction]
#[pyo3(signature = (text, format, base_dir, out, threads=0, only=Vec::new()))]
fn sweep(
    py: Python<'_>,
    text: &str,
    format: &str,
    base_dir: PathBuf,
    out: PathBuf,
    threads: usize,
    only: Vec<String>,
) -> PyResult<(usize, usize, usize, usize)> {
    let o = py.detach(|| -> Result<_, Failure> {
        let s = sweep_spec(text, format, &base_dir)?;
        v2x_sweep::run(&s, &out, threads, &only, &v2x_report::Silent).map_err(sweep_failure)
    })?;
    Ok((o.ran, o.reused, o.missing, o.rows))
}

/// The security overhead report (every protocol and message, field by field) as JSON text.
#[pyfunction]
fn overhead(py: Python<'_>) -> PyResult<String> {
    py.detach(|| -> Result<String, Failure> {
        let r = v2x_protocols::overhead::try_report().map_err(|e| Failure::Bench(e.to_string()))?;
        serde_json::to_string(&r).map_err(|e| Failure::Bench(e.to_string()))
    })
    .map_err(PyErr::from)
}

/// Benchmarks the given suites (comma separated, e.g. "raw" or "raw,protocols"); returns
/// the whole result as JSON text (the `v2x bench --json` document).
#[pyfunction]
#[pyo3(name = "bench", signature = (suites="all", quick=true, threads=None, trials=None))]
fn run_bench(
    py: Python<'_>,
    suites: &str,
    quick: bool,
    threads: Option<usize>,
    trials: Option<usize>,
) -> PyResult<String> {
    let list = v2x_bench::Suite::parse_list(suites).map_err(|e| BenchError::new_err(e.to_string()))?;
    py.detach(|| -> Result<String, Failure> {
        let mut config = v2x_bench::Config::new(list, quick);
        if let Some(t) = threads {
            config.threads = t.max(1);
        }
        config.trials = trials;
        config.command = "v2xsec.bench".into();
        let r = v2x_bench::run(&config).map_err(|e| Failure::Bench(e.to_string()))?;
        v2x_bench::output::to_json(&r).map_err(|e| Failure::Bench(e.to_string()))
    })
    .map_err(PyErr::from)
}

/// Decodes a secured message, certificate, trust list, GeoNetworking packet, frame or pcap
/// (binary or hex text); returns (format name, tree as JSON text, tree as text).
#[pyfunction]
fn inspect(py: Python<'_>, data: &Bound<'_, PyBytes>) -> PyResult<(String, String, String)> {
    let raw = data.as_bytes().to_vec();
    py.detach(|| -> Result<_, Failure> {
        let bytes = v2x_wire::inspect::decode_input(&raw);
        let i = v2x_wire::inspect::inspect_any(&bytes).map_err(|e| Failure::Decode(e.to_string()))?;
        let json = serde_json::to_string(&i).map_err(|e| Failure::Decode(e.to_string()))?;
        Ok((i.format.name().to_string(), json, i.tree.render_text()))
    })
    .map_err(PyErr::from)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("V2xError", py.get_type::<V2xError>())?;
    m.add("ScenarioError", py.get_type::<ScenarioError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("SweepError", py.get_type::<SweepError>())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("BenchError", py.get_type::<BenchError>())?;
    m.add("DatasetError", py.get_type::<DatasetError>())?;
    m.add("PkiError", py.get_type::<PkiError>())?;
    m.add("EncapError", py.get_type::<EncapError>())?;
    m.add_class::<mbd::PyMbdTrace>()?;
    m.add_class::<security::PyPki>()?;
    m.add_class::<security::PySender>()?;
    m.add_class::<security::PyReceiver>()?;
    m.add_class::<pki_client::PyPkiStation>()?;
    m.add_class::<security::PyPqPki>()?;
    m.add_class::<security::PyPqSender>()?;
    m.add_class::<security::PyPqReceiver>()?;
    m.add_function(wrap_pyfunction!(security::pq_designs, m)?)?;
    m.add_function(wrap_pyfunction!(mbd::mbd_feature_names, m)?)?;
    m.add_function(wrap_pyfunction!(sim, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_runs, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_run_one, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_store, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_merge, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_is_done, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(overhead, m)?)?;
    m.add_function(wrap_pyfunction!(run_bench, m)?)?;
    m.add_function(wrap_pyfunction!(inspect, m)?)?;
    Ok(())
}
