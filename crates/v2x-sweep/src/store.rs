//! The sweep folder: `runs.csv` (every run id with its parameters), `runs/<id>/` per run
//! (`record.json` written last and atomically: its presence means the run is finished;
//! `summary.json` and `resolved.toml` for a human), and the merged tables.

use crate::error::SweepError;
use crate::record::Record;
use crate::spec::{Run, Sweep};
use std::path::{Path, PathBuf};
use v2x_sim::SimResults;

fn io(path: &Path) -> impl Fn(std::io::Error) -> SweepError + '_ {
    move |e| SweepError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

pub fn run_dir(out: &Path, id: &str) -> PathBuf {
    out.join("runs").join(id)
}

/// Creates the folder and writes the run list.
pub fn prepare(sweep: &Sweep, out: &Path) -> Result<(), SweepError> {
    std::fs::create_dir_all(out.join("runs")).map_err(io(out))?;
    let path = out.join("runs.csv");
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec![
        "run_id".to_string(),
        "point".into(),
        "replication".into(),
        "seed".into(),
    ];
    header.extend(sweep.axis_keys());
    let csv_err = |e: csv::Error| SweepError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    w.write_record(&header).map_err(csv_err)?;
    for r in &sweep.runs {
        let mut f = vec![
            r.id.clone(),
            r.point.to_string(),
            r.replication.to_string(),
            r.seed.to_string(),
        ];
        f.extend(
            r.params
                .iter()
                .map(|(_, v)| v.as_str().map_or_else(|| v.to_string(), str::to_string)),
        );
        w.write_record(&f).map_err(csv_err)?;
    }
    let bytes = w.into_inner().map_err(|e| SweepError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    std::fs::write(&path, bytes).map_err(io(&path))
}

/// The finished record of a run, if its folder has one.
pub fn load(out: &Path, run: &Run) -> Result<Option<Record>, SweepError> {
    let path = run_dir(out, &run.id).join("record.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(&path)(e)),
    };
    let rec: Record = serde_json::from_str(&text).map_err(|e| SweepError::Record {
        path: path.display().to_string(),
        message: format!("{e} (delete the folder to run it again)"),
    })?;
    if rec.id != run.id {
        return Err(SweepError::Record {
            path: path.display().to_string(),
            message: format!("holds run {}, expected {}", rec.id, run.id),
        });
    }
    Ok(Some(rec))
}

pub fn is_done(out: &Path, run: &Run) -> bool {
    run_dir(out, &run.id).join("record.json").is_file()
}

/// Stores a finished run (with its scenario and summary when the results are at hand).
pub fn save(out: &Path, rec: &Record, results: Option<&SimResults>) -> Result<(), SweepError> {
    let dir = run_dir(out, &rec.id);
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    if let Some(res) = results {
        let p = dir.join("resolved.toml");
        std::fs::write(&p, res.scenario.to_toml()).map_err(io(&p))?;
        let p = dir.join("summary.json");
        let s = serde_json::to_string_pretty(&v2x_sim::output::summary(res)).unwrap_or_default();
        std::fs::write(&p, s).map_err(io(&p))?;
    }
    let p = dir.join("record.json");
    let tmp = dir.join("record.json.tmp");
    let text = serde_json::to_string(rec).map_err(|e| SweepError::Output {
        path: p.display().to_string(),
        message: e.to_string(),
    })?;
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, &p).map_err(io(&p))
}
