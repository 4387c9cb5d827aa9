//! NGSIM-style trajectory tables (one row per vehicle and frame), CSV or Parquet.
//!
//! Column names are configurable; the defaults match the NGSIM I-80 sample
//! (`vehicle_id`, `frame_id`, `local_x`, `local_y`). Rows repeated for the same vehicle
//! and time at the same place (the car-following-pairs sample lists a vehicle once per
//! pair) collapse into one sample; the same vehicle and time at two places (two vehicles
//! sharing an id, or tables of several sources mixed) is refused, naming both rows.

use super::trace::{ConflictingRows, Trace, TraceBuilder};
use crate::error::MobilityError;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use std::path::Path;

/// Names of the columns to read.
pub struct Columns<'a> {
    pub id: &'a str,
    pub time: &'a str,
    pub x: &'a str,
    pub y: &'a str,
}

/// Reads a table by extension: `.parquet` or CSV.
pub fn read(path: &Path, cols: &Columns, time_unit_s: f64, length_unit_m: f64) -> Result<Trace, MobilityError> {
    let p = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| MobilityError::Io {
        path: p.clone(),
        source: e,
    })?;
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("parquet")) {
        parse_parquet(bytes, &p, cols, time_unit_s, length_unit_m)
    } else {
        parse_csv(&bytes, &p, cols, time_unit_s, length_unit_m)
    }
}

/// Calls `row(line, fields)` for each record with the `wanted` columns in that order.
pub(crate) fn read_csv_columns(
    bytes: &[u8],
    origin: &str,
    delimiter: u8,
    wanted: &[&str],
    mut row: impl FnMut(u64, &[&str]) -> Result<(), MobilityError>,
) -> Result<(), MobilityError> {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let headers = rdr
        .headers()
        .map_err(|e| MobilityError::Format {
            path: origin.into(),
            message: format!("bad CSV header: {e}"),
        })?
        .clone();
    let mut idx = Vec::with_capacity(wanted.len());
    for w in wanted {
        let i = headers
            .iter()
            .position(|h| h == *w)
            .ok_or_else(|| MobilityError::Format {
                path: origin.into(),
                message: format!(
                    "missing column {w:?} (header: {})",
                    headers.iter().collect::<Vec<_>>().join(",")
                ),
            })?;
        idx.push(i);
    }
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            MobilityError::Line {
                path: origin.into(),
                line,
                message: e.to_string(),
            }
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let mut fields: Vec<&str> = Vec::with_capacity(wanted.len());
        for &i in &idx {
            fields.push(rec.get(i).ok_or_else(|| MobilityError::Line {
                path: origin.into(),
                line,
                message: format!("row has {} fields, column {i} missing", rec.len()),
            })?);
        }
        row(line, &fields)?;
    }
    Ok(())
}

/// Parses an NGSIM CSV table from memory.
pub fn parse_csv(
    bytes: &[u8],
    origin: &str,
    cols: &Columns,
    time_unit_s: f64,
    length_unit_m: f64,
) -> Result<Trace, MobilityError> {
    let mut b = TraceBuilder::default();
    read_csv_columns(bytes, origin, b',', &[cols.id, cols.time, cols.x, cols.y], |line, f| {
        let num = |s: &str, what: &str| {
            s.parse::<f64>().map_err(|_| MobilityError::Line {
                path: origin.into(),
                line,
                message: format!("{what} is not a number: {s:?}"),
            })
        };
        let t = num(f[1], cols.time)? * time_unit_s;
        b.push_row(
            f[0],
            t,
            num(f[2], cols.x)? * length_unit_m,
            num(f[3], cols.y)? * length_unit_m,
            line,
        )
        .map_err(|c| MobilityError::Line {
            path: origin.into(),
            line,
            message: conflict_message(f[0], t, &c, "line"),
        })
    })?;
    if b.samples() == 0 {
        return Err(MobilityError::Format {
            path: origin.into(),
            message: "no rows".into(),
        });
    }
    Ok(b.build())
}

/// Why two rows of one vehicle and time are refused.
fn conflict_message(id: &str, t: f64, c: &ConflictingRows, unit: &str) -> String {
    format!(
        "vehicle {id} at time {t} s is at ({:.3}, {:.3}) m here and at ({:.3}, {:.3}) m on {unit} {}: \
         two vehicles share an id or the table mixes sources; refusing to merge them",
        c.second.0, c.second.1, c.first.0, c.first.1, c.first_row
    )
}

fn field_f64(f: &Field) -> Option<f64> {
    match f {
        Field::Double(v) => Some(*v),
        Field::Float(v) => Some(f64::from(*v)),
        Field::Int(v) => Some(f64::from(*v)),
        Field::Long(v) => Some(*v as f64),
        Field::Short(v) => Some(f64::from(*v)),
        Field::Byte(v) => Some(f64::from(*v)),
        Field::UInt(v) => Some(f64::from(*v)),
        Field::ULong(v) => Some(*v as f64),
        Field::UShort(v) => Some(f64::from(*v)),
        Field::UByte(v) => Some(f64::from(*v)),
        Field::Str(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn field_id(f: &Field) -> Option<String> {
    match f {
        Field::Str(s) => Some(s.clone()),
        Field::Null => None,
        other => field_f64(other).map(|v| {
            if v.fract() == 0.0 {
                format!("{}", v as i64)
            } else {
                format!("{v}")
            }
        }),
    }
}

/// Parses an NGSIM Parquet table from memory (row API; Snappy-compressed files supported).
pub fn parse_parquet(
    bytes: Vec<u8>,
    origin: &str,
    cols: &Columns,
    time_unit_s: f64,
    length_unit_m: f64,
) -> Result<Trace, MobilityError> {
    let fmt = |m: String| MobilityError::Format {
        path: origin.into(),
        message: m,
    };
    // The parquet decoder is third-party code fed untrusted bytes: a panic inside it is
    // turned into an error rather than taking the simulator down.
    let result = std::panic::catch_unwind(|| -> Result<Trace, MobilityError> {
        let reader = SerializedFileReader::new(bytes::Bytes::from(bytes))
            .map_err(|e| fmt(format!("not a Parquet file: {e}")))?;
        let schema = reader.metadata().file_metadata().schema_descr_ptr();
        let find = |name: &str| {
            schema
                .columns()
                .iter()
                .position(|c| c.name() == name)
                .ok_or_else(|| fmt(format!("missing column {name:?}")))
        };
        let wanted = [find(cols.id)?, find(cols.time)?, find(cols.x)?, find(cols.y)?];
        let mut b = TraceBuilder::default();
        let rows = reader
            .get_row_iter(None)
            .map_err(|e| fmt(format!("cannot read rows: {e}")))?;
        for (n, row) in rows.enumerate() {
            let row = row.map_err(|e| fmt(format!("row {n}: {e}")))?;
            let mut vals: [Option<&Field>; 4] = [None; 4];
            for (i, (_, f)) in row.get_column_iter().enumerate() {
                if let Some(k) = wanted.iter().position(|&w| w == i) {
                    vals[k] = Some(f);
                }
            }
            let bad = |what: &str| fmt(format!("row {n}: column {what} missing or not usable"));
            let id = vals[0].and_then(field_id).ok_or_else(|| bad(cols.id))?;
            let t = vals[1].and_then(field_f64).ok_or_else(|| bad(cols.time))?;
            let x = vals[2].and_then(field_f64).ok_or_else(|| bad(cols.x))?;
            let y = vals[3].and_then(field_f64).ok_or_else(|| bad(cols.y))?;
            let t = t * time_unit_s;
            b.push_row(&id, t, x * length_unit_m, y * length_unit_m, n as u64)
                .map_err(|c| fmt(format!("row {n}: {}", conflict_message(&id, t, &c, "row"))))?;
        }
        if b.samples() == 0 {
            return Err(fmt("no rows".into()));
        }
        Ok(b.build())
    });
    result.unwrap_or_else(|_| Err(fmt("the Parquet decoder failed on this file".into())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_vehicle_at_one_time_in_two_places_is_refused_with_both_rows() {
        let cols = Columns {
            id: "vehicle_id",
            time: "frame_id",
            x: "local_x",
            y: "local_y",
        };
        // The same row repeated (one per car-following pair) is one sample.
        let same = "vehicle_id,frame_id,local_x,local_y\n7,1,10,20\n7,1,10,20\n7,2,11,20\n";
        let t = parse_csv(same.as_bytes(), "s", &cols, 0.1, 0.3048).unwrap();
        assert_eq!(t.ids(), ["7"]);
        let clash = "vehicle_id,frame_id,local_x,local_y\n7,1,10,20\n8,1,0,0\n7,1,500,20\n";
        let e = parse_csv(clash.as_bytes(), "s", &cols, 0.1, 0.3048)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 4"), "{e}");
        assert!(e.contains("on line 2"), "{e}");
        assert!(e.contains("vehicle 7"), "{e}");
    }

    const COLS: Columns = Columns {
        id: "vehicle_id",
        time: "frame_id",
        x: "local_x",
        y: "local_y",
    };

    #[test]
    fn csv_rows_become_tracks_in_seconds_and_metres() {
        let csv = "vehicle_id,frame_id,local_x,local_y\n7,100,1,10\n7,110,1,20\n7,110,1,20\n8,105,0,0\n";
        let mut t = parse_csv(csv.as_bytes(), "c", &COLS, 0.1, 0.3048).unwrap();
        assert_eq!(t.len(), 2);
        let mut out = Vec::new();
        t.positions_at(0.5, &mut out);
        let p = out[0].unwrap();
        assert!((p[1] - 15.0 * 0.3048).abs() < 1e-9);
        assert!(parse_csv(b"vehicle_id,frame_id\n1,2\n", "c", &COLS, 0.1, 1.0).is_err());
        assert!(parse_csv(b"vehicle_id,frame_id,local_x,local_y\n1,x,2,3\n", "c", &COLS, 0.1, 1.0).is_err());
    }

    #[test]
    fn garbage_is_not_parquet() {
        assert!(parse_parquet(b"PAR1garbagePAR1".to_vec(), "p", &COLS, 0.1, 1.0).is_err());
        assert!(parse_parquet(Vec::new(), "p", &COLS, 0.1, 1.0).is_err());
    }
}
