//! Result tables written twice: CSV for eyes and spreadsheets, Parquet beside it so that
//! pandas (`pd.read_parquet`), polars or Arrow load it typed, without parsing options.
//!
//! A [`Table`] is named, typed columns. Commands that build their CSV row by row hand the
//! text to [`write_csv_and_parquet`], which types each column the way `pandas.read_csv`
//! would (integers, numbers with empty cells as null, booleans, else text).

use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A column of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    Text(Vec<String>),
    Int(Vec<i64>),
    /// Nullable (a NaN or an empty CSV cell is null).
    Float(Vec<Option<f64>>),
    Bool(Vec<bool>),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::Text(v) => v.len(),
            Column::Int(v) => v.len(),
            Column::Float(v) => v.len(),
            Column::Bool(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The column of CSV cells, typed as `pandas.read_csv` would type it.
    pub fn infer(cells: &[&str]) -> Column {
        let filled = || cells.iter().filter(|c| !c.is_empty());
        if !cells.is_empty() && cells.iter().all(|c| c.parse::<i64>().is_ok()) {
            Column::Int(cells.iter().filter_map(|c| c.parse().ok()).collect())
        } else if filled().all(|c| c.parse::<f64>().is_ok()) {
            Column::Float(
                cells
                    .iter()
                    .map(|c| c.parse::<f64>().ok().filter(|x| !x.is_nan()))
                    .collect(),
            )
        } else if cells.iter().all(|c| *c == "true" || *c == "false") {
            Column::Bool(cells.iter().map(|c| *c == "true").collect())
        } else {
            Column::Text(cells.iter().map(|c| (*c).to_owned()).collect())
        }
    }
}

/// Named columns, all of the same length.
pub type Table = Vec<(String, Column)>;

/// A table that could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct TableError {
    pub path: PathBuf,
    pub message: String,
}

fn failed(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> TableError + '_ {
    move |e| TableError {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Parses CSV text (with a header) into a typed table.
pub fn from_csv(text: &str, path: &Path) -> Result<Table, TableError> {
    let err = failed(path);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().map_err(|e| err(&e))?.iter().map(str::to_owned).collect();
    let records: Vec<csv::StringRecord> = r.records().collect::<Result<_, _>>().map_err(|e| err(&e))?;
    Ok(header
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let cells: Vec<&str> = records.iter().map(|rec| rec.get(i).unwrap_or("")).collect();
            (name, Column::infer(&cells))
        })
        .collect())
}

/// Writes the table as one Parquet file (one row group), replacing `path` atomically.
pub fn write_parquet(t: &Table, path: &Path) -> Result<(), TableError> {
    let err = failed(path);
    if let Some((name, _)) = t.iter().find(|(_, c)| c.len() != t[0].1.len()) {
        return Err(err(&format!("column {name} has a different length")));
    }
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
        .map_err(|e| err(&e))?;
    let schema = Arc::new(
        Type::group_type_builder("table")
            .with_fields(fields)
            .build()
            .map_err(|e| err(&e))?,
    );
    let tmp = path.with_extension("parquet.tmp");
    let file = std::fs::File::create(&tmp).map_err(|e| failed(&tmp)(&e))?;
    let write = || -> Result<(), parquet::errors::ParquetError> {
        let mut w = SerializedFileWriter::new(file, schema, Arc::new(WriterProperties::builder().build()))?;
        let mut rg = w.next_row_group()?;
        let mut cols = t.iter();
        while let Some(mut cw) = rg.next_column()? {
            let Some((_, c)) = cols.next() else { break };
            match c {
                Column::Text(v) => {
                    let b: Vec<ByteArray> = v.iter().map(|s| ByteArray::from(s.as_str())).collect();
                    cw.typed::<ByteArrayType>().write_batch(&b, None, None)?;
                }
                Column::Int(v) => {
                    cw.typed::<Int64Type>().write_batch(v, None, None)?;
                }
                Column::Bool(v) => {
                    cw.typed::<BoolType>().write_batch(v, None, None)?;
                }
                Column::Float(v) => {
                    let present: Vec<f64> = v.iter().flatten().copied().collect();
                    let def: Vec<i16> = v.iter().map(|x| i16::from(x.is_some())).collect();
                    cw.typed::<DoubleType>().write_batch(&present, Some(&def), None)?;
                }
            }
            cw.close()?;
        }
        rg.close()?;
        w.close()?;
        Ok(())
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(err(&e));
    }
    std::fs::rename(&tmp, path).map_err(|e| err(&e))
}

/// Writes the table as CSV (an empty cell for null).
pub fn write_csv(t: &Table, path: &Path) -> Result<(), TableError> {
    let err = failed(path);
    let mut w = csv::Writer::from_path(path).map_err(|e| err(&e))?;
    w.write_record(t.iter().map(|(n, _)| n.as_str())).map_err(|e| err(&e))?;
    let n = t.first().map_or(0, |(_, c)| c.len());
    for i in 0..n {
        let fields = t.iter().map(|(_, c)| match c {
            Column::Text(v) => v[i].clone(),
            Column::Int(v) => v[i].to_string(),
            Column::Float(v) => v[i].map_or_else(String::new, |x| x.to_string()),
            Column::Bool(v) => v[i].to_string(),
        });
        w.write_record(fields).map_err(|e| err(&e))?;
    }
    w.flush().map_err(|e| err(&e))
}

/// Writes `csv_text` to `dir/name` and the same table, typed, to the `.parquet` beside it.
pub fn write_csv_and_parquet(dir: &Path, name: &str, csv_text: &str) -> Result<(), TableError> {
    let path = dir.join(name);
    std::fs::write(&path, csv_text).map_err(|e| failed(&path)(&e))?;
    write_parquet_of(csv_text, &path)
}

/// The table of `csv_text` (the contents of `csv_path`) as the `.parquet` beside that file.
/// An empty CSV (not even a header: nothing was logged) has no Parquet twin.
fn write_parquet_of(csv_text: &str, csv_path: &Path) -> Result<(), TableError> {
    let t = from_csv(csv_text, csv_path)?;
    let parquet = csv_path.with_extension("parquet");
    if t.is_empty() {
        return match std::fs::remove_file(&parquet) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(failed(&parquet)(&e)),
            _ => Ok(()),
        };
    }
    write_parquet(&t, &parquet)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    #[test]
    fn columns_are_typed_as_pandas_types_them() {
        assert_eq!(Column::infer(&["1", "-2"]), Column::Int(vec![1, -2]));
        assert_eq!(
            Column::infer(&["1", "", "0.5", "NaN"]),
            Column::Float(vec![Some(1.0), None, Some(0.5), None])
        );
        assert_eq!(Column::infer(&["true", "false"]), Column::Bool(vec![true, false]));
        assert_eq!(
            Column::infer(&["ecdsa", "1"]),
            Column::Text(vec!["ecdsa".into(), "1".into()])
        );
        // An empty column is numbers that are all null, as pandas reads it.
        assert_eq!(Column::infer(&["", ""]), Column::Float(vec![None, None]));
    }

    #[test]
    fn parquet_beside_a_csv_holds_the_same_typed_rows() {
        let dir = std::env::temp_dir().join(format!("v2x-report-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = "variant,replication,pdr,ok\necdsa,0,0.5,true\nnone,1,,false\n";
        write_csv_and_parquet(&dir, "runs.csv", csv).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("runs.csv")).unwrap(), csv);
        let file = std::fs::File::open(dir.join("runs.parquet")).unwrap();
        let reader = SerializedFileReader::new(file).unwrap();
        assert_eq!(reader.metadata().file_metadata().num_rows(), 2);
        let rows: Vec<Vec<Field>> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().get_column_iter().map(|(_, f)| f.clone()).collect())
            .collect();
        assert_eq!(
            rows[0],
            vec![
                Field::Str("ecdsa".into()),
                Field::Long(0),
                Field::Double(0.5),
                Field::Bool(true)
            ]
        );
        assert_eq!(
            rows[1],
            vec![
                Field::Str("none".into()),
                Field::Long(1),
                Field::Null,
                Field::Bool(false)
            ]
        );
        assert!(!dir.join("runs.parquet.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_empty_csv_has_no_parquet_twin_and_a_header_only_one_has_no_rows() {
        let dir = std::env::temp_dir().join(format!("v2x-report-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_csv_and_parquet(&dir, "none.csv", "").unwrap();
        assert!(!dir.join("none.parquet").exists());
        write_csv_and_parquet(&dir, "header.csv", "a,b\n").unwrap();
        let file = std::fs::File::open(dir.join("header.parquet")).unwrap();
        let reader = SerializedFileReader::new(file).unwrap();
        assert_eq!(reader.metadata().file_metadata().num_rows(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_ragged_table_is_refused() {
        let t: Table = vec![
            ("a".into(), Column::Int(vec![1, 2])),
            ("b".into(), Column::Int(vec![1])),
        ];
        let e = write_parquet(&t, Path::new("/nonexistent/x.parquet")).unwrap_err();
        assert!(e.message.contains("column b"), "{e}");
    }
}
