//! SUMO floating-car-data output (`sumo --fcd-output`): XML or CSV.
//!
//! XML: `<fcd-export><timestep time="0.00"><vehicle id=".." x=".." y=".." .../>...`.
//! CSV (`--fcd-output x.csv`): `;`-separated with columns `timestep_time`, `vehicle_id`,
//! `vehicle_x`, `vehicle_y` (comma-separated files are accepted too).

use super::trace::{Trace, TraceBuilder};
use crate::error::MobilityError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};
use std::path::Path;

/// Reads an FCD file, XML unless the extension is `.csv`.
pub fn read(path: &Path) -> Result<Trace, MobilityError> {
    let p = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| MobilityError::Io {
        path: p.clone(),
        source: e,
    })?;
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")) {
        parse_csv(&bytes, &p)
    } else {
        parse_xml(&bytes, &p)
    }
}

fn attr_f64(e: &BytesStart, name: &[u8], origin: &str, offset: u64) -> Result<Option<f64>, MobilityError> {
    for a in e.attributes() {
        let a = a.map_err(|err| MobilityError::Format {
            path: origin.into(),
            message: format!("byte {offset}: bad attribute: {err}"),
        })?;
        if a.key.as_ref() == name {
            let v = a
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|err| MobilityError::Format {
                    path: origin.into(),
                    message: format!("byte {offset}: bad attribute value: {err}"),
                })?;
            return v.trim().parse::<f64>().map(Some).map_err(|_| MobilityError::Format {
                path: origin.into(),
                message: format!(
                    "byte {offset}: attribute {} is not a number: {v:?}",
                    String::from_utf8_lossy(name)
                ),
            });
        }
    }
    Ok(None)
}

fn attr_string(e: &BytesStart, name: &[u8]) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == name)
        .and_then(|a| a.normalized_value(XmlVersion::Implicit1_0).ok().map(|v| v.into_owned()))
}

/// Parses FCD XML from memory.
pub fn parse_xml(bytes: &[u8], origin: &str) -> Result<Trace, MobilityError> {
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().trim_text(true);
    let mut buf = Vec::new();
    let mut builder = TraceBuilder::default();
    let mut time: Option<f64> = None;
    loop {
        let offset = reader.buffer_position();
        let ev = reader.read_event_into(&mut buf).map_err(|e| MobilityError::Format {
            path: origin.into(),
            message: format!("XML error near byte {}: {e}", reader.error_position()),
        })?;
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => match e.name().as_ref() {
                b"timestep" => {
                    time = Some(
                        attr_f64(e, b"time", origin, offset)?.ok_or_else(|| MobilityError::Format {
                            path: origin.into(),
                            message: format!("byte {offset}: <timestep> without time"),
                        })?,
                    );
                }
                b"vehicle" | b"person" | b"container" => {
                    let t = time.ok_or_else(|| MobilityError::Format {
                        path: origin.into(),
                        message: format!("byte {offset}: <vehicle> outside a <timestep>"),
                    })?;
                    let id = attr_string(e, b"id").ok_or_else(|| MobilityError::Format {
                        path: origin.into(),
                        message: format!("byte {offset}: <vehicle> without id"),
                    })?;
                    let x = attr_f64(e, b"x", origin, offset)?;
                    let y = attr_f64(e, b"y", origin, offset)?;
                    match (x, y) {
                        (Some(x), Some(y)) => builder.push(&id, t, x, y),
                        _ => {
                            return Err(MobilityError::Format {
                                path: origin.into(),
                                message: format!(
                                    "byte {offset}: vehicle {id} without x/y (use SUMO without --fcd-output.geo)"
                                ),
                            })
                        }
                    }
                }
                _ => {}
            },
            Event::End(ref e) if e.name().as_ref() == b"timestep" => time = None,
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if builder.samples() == 0 {
        return Err(MobilityError::Format {
            path: origin.into(),
            message: "no vehicle samples found".into(),
        });
    }
    Ok(builder.build())
}

/// Parses FCD CSV from memory.
pub fn parse_csv(bytes: &[u8], origin: &str) -> Result<Trace, MobilityError> {
    let first_line = bytes.split(|b| *b == b'\n').next().unwrap_or(&[]);
    let delimiter = if first_line.contains(&b';') { b';' } else { b',' };
    let mut builder = TraceBuilder::default();
    crate::mobility::ngsim::read_csv_columns(
        bytes,
        origin,
        delimiter,
        &["timestep_time", "vehicle_id", "vehicle_x", "vehicle_y"],
        |line, fields| {
            // Rows of persons or empty timesteps leave the vehicle columns empty.
            if fields[1].is_empty() || fields[2].is_empty() {
                return Ok(());
            }
            let num = |s: &str, what: &str| {
                s.trim().parse::<f64>().map_err(|_| MobilityError::Line {
                    path: origin.into(),
                    line,
                    message: format!("{what} is not a number: {s:?}"),
                })
            };
            builder.push(
                fields[1],
                num(fields[0], "timestep_time")?,
                num(fields[2], "vehicle_x")?,
                num(fields[3], "vehicle_y")?,
            );
            Ok(())
        },
    )?;
    if builder.samples() == 0 {
        return Err(MobilityError::Format {
            path: origin.into(),
            message: "no vehicle samples found".into(),
        });
    }
    Ok(builder.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<fcd-export>
  <timestep time="0.00">
    <vehicle id="v0" x="0.00" y="10.00" angle="90" type="car" speed="10" pos="5" lane="e_0" slope="0"/>
  </timestep>
  <timestep time="1.00">
    <vehicle id="v0" x="10.00" y="10.00" angle="90" type="car" speed="10" pos="15" lane="e_0" slope="0"/>
    <vehicle id="v1" x="50.00" y="0.00" angle="90" type="car" speed="0" pos="5" lane="e_0" slope="0"/>
  </timestep>
</fcd-export>"#;

    #[test]
    fn xml_and_csv_give_the_same_trace() {
        let mut t = parse_xml(XML.as_bytes(), "x").unwrap();
        assert_eq!(t.ids(), ["v0", "v1"]);
        let mut out = Vec::new();
        t.positions_at(0.5, &mut out);
        assert_eq!(out, vec![Some([5.0, 10.0]), None]);
        let csv = "timestep_time;vehicle_angle;vehicle_id;vehicle_x;vehicle_y\n0.00;90;v0;0.00;10.00\n1.00;90;v0;10.00;10.00\n1.00;90;v1;50.00;0.00\n";
        let mut c = parse_csv(csv.as_bytes(), "c").unwrap();
        let mut out2 = Vec::new();
        c.positions_at(0.5, &mut out2);
        assert_eq!(out, out2);
    }

    #[test]
    fn malformed_inputs_are_errors() {
        assert!(parse_xml(b"<fcd-export><vehicle id='a' x='1' y='2'/></fcd-export>", "x").is_err());
        assert!(parse_xml(b"<fcd-export><timestep time='zz'>", "x").is_err());
        assert!(parse_xml(
            b"<fcd-export><timestep time='1'><vehicle id='a' x='1'/></timestep>",
            "x"
        )
        .is_err());
        assert!(parse_xml(b"", "x").is_err());
        let e = parse_csv(b"timestep_time;vehicle_id;vehicle_x;vehicle_y\n0;a;1;oops\n", "c").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        assert!(parse_csv(b"a;b\n1;2\n", "c").is_err());
    }
}
