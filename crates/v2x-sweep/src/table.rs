//! The sweep's one tidy table: a row per run x variant x metric (or distance bin), with the
//! run id, parameter values and seed on every row; written as Parquet and CSV.

use crate::error::SweepError;
use crate::record::Record;
use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// A column of the table.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    Text(Vec<String>),
    Int(Vec<i64>),
    Float(Vec<Option<f64>>),
    Bool(Vec<bool>),
}

/// Named columns, all of the same length.
pub type Table = Vec<(String, Column)>;

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
    debug_assert!(t.iter().all(|(_, c)| len(c) == n));
    t
}

fn len(c: &Column) -> usize {
    match c {
        Column::Text(v) => v.len(),
        Column::Int(v) => v.len(),
        Column::Float(v) => v.len(),
        Column::Bool(v) => v.len(),
    }
}

fn out_err(path: &Path) -> impl Fn(parquet::errors::ParquetError) -> SweepError + '_ {
    move |e| SweepError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Writes the table as one Parquet file (one row group; floats nullable, NaN as null).
pub fn write_parquet(t: &Table, path: &Path) -> Result<(), SweepError> {
    let err = out_err(path);
    let fields: Vec<Arc<Type>> = t
        .iter()
        .map(|(name, c)| {
            let (phys, rep, logical) = match c {
                Column::Text(_) => (Physical::BYTE_ARRAY, Repetition::REQUIRED, Some(LogicalType::String)),
                Column::Int(_) => (Physical::INT64, Repetition::REQUIRED, None),
                Column::Float(_) => (Physical::DOUBLE, Repetition::OPTIONAL, None),
                Column::Bool(_) => (Physical::BOOLEAN, Repetition::REQUIRED, None),
            };
            Type::primitive_type_builder(name, phys)
                .with_repetition(rep)
                .with_logical_type(logical)
                .build()
                .map(Arc::new)
        })
        .collect::<Result<_, _>>()
        .map_err(&err)?;
    let schema = Arc::new(
        Type::group_type_builder("sweep")
            .with_fields(fields)
            .build()
            .map_err(&err)?,
    );
    let tmp = path.with_extension("parquet.tmp");
    let file = std::fs::File::create(&tmp).map_err(|e| SweepError::Output {
        path: tmp.display().to_string(),
        message: e.to_string(),
    })?;
    let mut w = SerializedFileWriter::new(file, schema, Arc::new(WriterProperties::builder().build())).map_err(&err)?;
    let mut rg = w.next_row_group().map_err(&err)?;
    let mut cols = t.iter();
    while let Some(mut cw) = rg.next_column().map_err(&err)? {
        let Some((_, c)) = cols.next() else { break };
        match c {
            Column::Text(v) => {
                let b: Vec<ByteArray> = v.iter().map(|s| ByteArray::from(s.as_str())).collect();
                cw.typed::<ByteArrayType>().write_batch(&b, None, None).map_err(&err)?;
            }
            Column::Int(v) => {
                cw.typed::<Int64Type>().write_batch(v, None, None).map_err(&err)?;
            }
            Column::Bool(v) => {
                cw.typed::<BoolType>().write_batch(v, None, None).map_err(&err)?;
            }
            Column::Float(v) => {
                let present: Vec<f64> = v.iter().flatten().copied().collect();
                let def: Vec<i16> = v.iter().map(|x| i16::from(x.is_some())).collect();
                cw.typed::<DoubleType>()
                    .write_batch(&present, Some(&def), None)
                    .map_err(&err)?;
            }
        }
        cw.close().map_err(&err)?;
    }
    rg.close().map_err(&err)?;
    w.close().map_err(&err)?;
    std::fs::rename(&tmp, path).map_err(|e| SweepError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

/// Writes the table as CSV (empty field for null).
pub fn write_csv(t: &Table, path: &Path) -> Result<(), SweepError> {
    let err = |e: csv::Error| SweepError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    w.write_record(t.iter().map(|(n, _)| n.as_str())).map_err(err)?;
    let n = t.first().map_or(0, |(_, c)| len(c));
    for i in 0..n {
        let fields = t.iter().map(|(_, c)| match c {
            Column::Text(v) => v[i].clone(),
            Column::Int(v) => v[i].to_string(),
            Column::Float(v) => v[i].map_or_else(String::new, |x| x.to_string()),
            Column::Bool(v) => v[i].to_string(),
        });
        w.write_record(fields).map_err(err)?;
    }
    w.flush().map_err(|e| SweepError::Output {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}
