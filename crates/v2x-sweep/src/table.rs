//! The sweep's one tidy table: a row per run x variant x metric (or distance bin), with the
//! run id, parameter values and seed on every row; written as Parquet and CSV.

use crate::error::SweepError;
use crate::record::Record;
use serde_json::Value;
use std::path::Path;
use v2x_report::table::{self, TableError};
pub use v2x_report::table::{Column, Table};

/// A parameter column typed by its values: integers, numbers, booleans, else text.
fn param_column(values: Vec<&Value>) -> Column {
    if values.iter().all(|v| v.is_i64()) {
        Column::Int(values.iter().filter_map(|v| v.as_i64()).collect())
    } else if values.iter().all(|v| v.is_number()) {
        Column::Float(values.iter().map(|v| v.as_f64()).collect())
    } else if values.iter().all(|v| v.is_boolean()) {
        Column::Bool(values.iter().filter_map(|v| v.as_bool()).collect())
    } else {
        Column::Text(
            values
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect(),
        )
    }
}

/// Builds the table from records (in the order given) and the axis keys.
pub fn build(records: &[Record], axes: &[String]) -> Table {
    let n: usize = records.iter().map(|r| r.rows.len()).sum();
    let per_row = |f: &dyn Fn(&Record) -> i64| -> Vec<i64> {
        records
            .iter()
            .flat_map(|r| std::iter::repeat_n(f(r), r.rows.len()))
            .collect()
    };
    let mut t: Table = vec![
        (
            "run_id".into(),
            Column::Text(
                records
                    .iter()
                    .flat_map(|r| std::iter::repeat_n(r.id.clone(), r.rows.len()))
                    .collect(),
            ),
        ),
        ("point".into(), Column::Int(per_row(&|r| r.point as i64))),
        (
            "replication".into(),
            Column::Int(per_row(&|r| i64::from(r.replication))),
        ),
        ("seed".into(), Column::Int(per_row(&|r| r.seed as i64))),
    ];
    let null = Value::Null;
    for key in axes {
        let values: Vec<&Value> = records
            .iter()
            .flat_map(|r| {
                let v = r.params.iter().find(|(k, _)| k == key).map_or(&null, |(_, v)| v);
                std::iter::repeat_n(v, r.rows.len())
            })
            .collect();
        t.push((key.clone(), param_column(values)));
    }
    let rows = || records.iter().flat_map(|r| &r.rows);
    t.push((
        "variant".into(),
        Column::Text(rows().map(|x| x.variant.clone()).collect()),
    ));
    t.push((
        "protocol".into(),
        Column::Text(rows().map(|x| x.protocol.clone()).collect()),
    ));
    t.push((
        "metric".into(),
        Column::Text(rows().map(|x| x.metric.clone()).collect()),
    ));
    t.push((
        "distance_from_m".into(),
        Column::Float(rows().map(|x| x.distance_from_m).collect()),
    ));
    t.push((
        "distance_to_m".into(),
        Column::Float(rows().map(|x| x.distance_to_m).collect()),
    ));
    t.push(("value".into(), Column::Float(rows().map(|x| x.value).collect())));
    debug_assert!(t.iter().all(|(_, c)| c.len() == n));
    t
}

/// Writes the table as `results.parquet` and `results.csv` in `out`.
pub fn write(t: &Table, out: &Path) -> Result<(), SweepError> {
    let output = |e: TableError| SweepError::Output {
        path: e.path.display().to_string(),
        message: e.message,
    };
    table::write_parquet(t, &out.join("results.parquet")).map_err(output)?;
    table::write_csv(t, &out.join("results.csv")).map_err(output)
}
