//! Everything a run writes into its results folder.

pub mod csv;
pub mod html;
pub mod markdown;
pub mod profile;
pub mod svg;

use crate::result::BenchResult;
use crate::BenchError;
use std::path::{Path, PathBuf};

/// Files written by [`write_all`], relative to the results folder.
pub const FILES: [&str; 14] = [
    "results.json",
    "measurements.csv",
    "measurements.parquet",
    "scaling.csv",
    "scaling.parquet",
    "comparison.csv",
    "comparison.parquet",
    "results.md",
    "comparison.md",
    "profile.json",
    "ops_per_sec.svg",
    "latency_per_curve.svg",
    "overhead.svg",
    "report.html",
];

pub(crate) fn write_file(path: &Path, contents: &[u8]) -> Result<(), BenchError> {
    std::fs::write(path, contents).map_err(|source| BenchError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The whole result as pretty JSON.
pub fn to_json(result: &BenchResult) -> Result<String, BenchError> {
    serde_json::to_string_pretty(result).map_err(BenchError::Json)
}

/// Writes every output file into `dir` (created if needed); returns their paths.
pub fn write_all(result: &BenchResult, dir: &Path) -> Result<Vec<PathBuf>, BenchError> {
    std::fs::create_dir_all(dir).map_err(|source| BenchError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let p = |name: &str| dir.join(name);
    write_file(&p("results.json"), to_json(result)?.as_bytes())?;
    // Each table as CSV and, typed, as Parquet beside it (for pandas).
    let table = |name: &str, bytes: Vec<u8>| -> Result<(), BenchError> {
        let text = String::from_utf8(bytes).map_err(|e| ::csv::Error::from(std::io::Error::other(e)))?;
        Ok(v2x_report::table::write_csv_and_parquet(dir, name, &text)?)
    };
    table("measurements.csv", csv::measurements(result)?)?;
    table("scaling.csv", csv::scaling(result)?)?;
    table("comparison.csv", csv::comparison(result)?)?;
    write_file(&p("results.md"), markdown::results(result).as_bytes())?;
    write_file(&p("comparison.md"), markdown::comparison(result).as_bytes())?;
    let profile = profile::from_result(result);
    profile.validate()?;
    write_file(&p("profile.json"), profile.to_json().as_bytes())?;
    let plots = svg::all(result)?;
    let mut written: Vec<PathBuf> = FILES.iter().map(|f| p(f)).collect();
    for f in plots.all() {
        // The SVG is the figure; its PNG twin (300 dpi) is written where a font allows.
        let files = v2x_report::plot::write_figure(dir, f.stem, &f.svg).map_err(|source| BenchError::Io {
            path: p(f.stem).display().to_string(),
            source,
        })?;
        written.extend(files.png);
    }
    write_file(&p("report.html"), html::report(result, &plots).as_bytes())?;
    Ok(written)
}
