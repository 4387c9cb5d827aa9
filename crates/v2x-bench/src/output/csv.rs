//! CSV tables: measurements, scaling rows, paper comparisons.

use crate::result::BenchResult;
use crate::BenchError;

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

fn finish(w: csv::Writer<Vec<u8>>) -> Result<Vec<u8>, BenchError> {
    w.into_inner().map_err(|e| BenchError::Csv(e.into_error().into()))
}

fn err(e: csv::Error) -> BenchError {
    BenchError::Csv(e)
}

pub fn measurements(r: &BenchResult) -> Result<Vec<u8>, BenchError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "suite",
        "protocol",
        "operation",
        "variant",
        "curve",
        "message",
        "level",
        "signer",
        "payload_bytes",
        "packet_bytes",
        "overhead_bytes",
        "mean_us",
        "median_us",
        "p99_us",
        "min_us",
        "max_us",
        "ci95_low_us",
        "ci95_high_us",
        "median_of_trials_us",
        "ops_per_sec",
        "ops_per_sec_all_cores",
        "batch",
        "samples",
    ])
    .map_err(err)?;
    for m in &r.measurements {
        let l = &m.latency;
        w.write_record([
            m.suite.to_string(),
            m.protocol.to_string(),
            m.operation.to_string(),
            m.variant.to_string(),
            opt(&m.curve),
            opt(&m.message),
            opt(&m.level),
            opt(&m.signer),
            opt(&m.payload_bytes),
            opt(&m.packet_bytes),
            opt(&m.overhead_bytes),
            format!("{:.4}", l.mean_us),
            format!("{:.4}", l.median_us),
            format!("{:.4}", l.p99_us),
            format!("{:.4}", l.min_us),
            format!("{:.4}", l.max_us),
            format!("{:.4}", l.ci95_low_us),
            format!("{:.4}", l.ci95_high_us),
            format!("{:.4}", l.median_of_trials_us),
            format!("{:.2}", m.ops_per_sec),
            m.ops_per_sec_all_cores.map(|v| format!("{v:.2}")).unwrap_or_default(),
            l.batch.to_string(),
            l.samples.to_string(),
        ])
        .map_err(err)?;
    }
    finish(w)
}

pub fn scaling(r: &BenchResult) -> Result<Vec<u8>, BenchError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "kind",
        "key",
        "label",
        "threads",
        "one_core_ops_per_sec",
        "all_cores_ops_per_sec",
        "speedup",
    ])
    .map_err(err)?;
    for s in &r.scaling {
        w.write_record([
            s.kind.to_string(),
            s.key.to_string(),
            s.label.clone(),
            s.all_cores.threads.to_string(),
            format!("{:.2}", s.one_core.ops_per_sec),
            format!("{:.2}", s.all_cores.ops_per_sec),
            format!("{:.3}", s.speedup),
        ])
        .map_err(err)?;
    }
    finish(w)
}

pub fn comparison(r: &BenchResult) -> Result<Vec<u8>, BenchError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "paper",
        "source",
        "hardware",
        "procedure",
        "scheme",
        "metric",
        "unit",
        "paper_value",
        "ours",
        "ratio",
        "ratio_meaning",
        "ours_key",
        "note",
    ])
    .map_err(err)?;
    for t in &r.comparisons {
        for row in &t.rows {
            w.write_record([
                t.paper.clone(),
                row.source.clone(),
                row.hardware.clone(),
                row.procedure.clone(),
                opt(&row.scheme),
                row.metric.to_string(),
                row.unit.clone(),
                row.paper_value.to_string(),
                row.ours.map(|v| format!("{v:.4}")).unwrap_or_default(),
                row.ratio.map(|v| format!("{v:.3}")).unwrap_or_default(),
                row.ratio_meaning.clone(),
                opt(&row.ours_key),
                row.note.clone(),
            ])
            .map_err(err)?;
        }
    }
    finish(w)
}
