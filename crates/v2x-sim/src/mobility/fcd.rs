//! SUMO floating-car-data output (`sumo --fcd-output`): XML or CSV.
//!
//! XML: `<fcd-export><timestep time="0.00"><vehicle id=".." x=".." y=".." .../>...`.
//! CSV (`--fcd-output x.csv`): `;`-separated with columns `timestep_time`, `vehicle_id`,
//! `vehicle_x`, `vehicle_y` (comma-separated files are accepted too).
//!
//! Files written with `--fcd-output.geo` hold longitude/latitude in `x`/`y`: they are
//! recognised (every coordinate a valid lon/lat, written with 5 or more decimals as SUMO
//! does for degrees, against 2 for metres, within 1° overall) and converted to metres with
//! a local equirectangular projection about the trace's centre (error under 0.1 % over a
//! few tens of km). A gzipped file (`.xml.gz`) is refused with the command to unpack it.

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
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Err(MobilityError::Format {
            path: p,
            message: "gzip-compressed; unpack it first (`gunzip -k FILE`) and give the .xml or .csv".into(),
        });
    }
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
    let mut geo = GeoEvidence::default();
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
                        (Some(x), Some(y)) => {
                            geo.note(attr_string(e, b"x").as_deref(), x, y);
                            builder.push(&id, t, x, y)
                        }
                        _ => {
                            return Err(MobilityError::Format {
                                path: origin.into(),
                                message: format!("byte {offset}: vehicle {id} without x/y"),
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
    Ok(geo.finish(builder))
}

/// Whether x/y look like `--fcd-output.geo` longitude/latitude.
#[derive(Debug)]
struct GeoEvidence {
    all_in_range: bool,
    many_decimals: bool,
    lon: (f64, f64),
    lat: (f64, f64),
}

impl Default for GeoEvidence {
    fn default() -> Self {
        GeoEvidence {
            all_in_range: true,
            many_decimals: false,
            lon: (f64::INFINITY, f64::NEG_INFINITY),
            lat: (f64::INFINITY, f64::NEG_INFINITY),
        }
    }
}

impl GeoEvidence {
    fn note(&mut self, x_text: Option<&str>, x: f64, y: f64) {
        self.all_in_range &= (-180.0..=180.0).contains(&x) && (-90.0..=90.0).contains(&y);
        if let Some((_, decimals)) = x_text.and_then(|t| t.trim().split_once('.')) {
            self.many_decimals |= decimals.len() >= 5;
        }
        self.lon = (self.lon.0.min(x), self.lon.1.max(x));
        self.lat = (self.lat.0.min(y), self.lat.1.max(y));
    }

    fn is_geo(&self) -> bool {
        self.all_in_range && self.many_decimals && self.lon.1 - self.lon.0 <= 1.0 && self.lat.1 - self.lat.0 <= 1.0
    }

    /// The trace, in metres: converted about its centre when the input was lon/lat.
    fn finish(self, builder: TraceBuilder) -> Trace {
        if !self.is_geo() {
            return builder.build();
        }
        const EARTH_RADIUS_M: f64 = 6_371_008.8;
        let lon0 = (self.lon.0 + self.lon.1) / 2.0;
        let lat0 = (self.lat.0 + self.lat.1) / 2.0;
        let kx = EARTH_RADIUS_M * lat0.to_radians().cos() * std::f64::consts::PI / 180.0;
        let ky = EARTH_RADIUS_M * std::f64::consts::PI / 180.0;
        builder.map_positions(|x, y| ((x - lon0) * kx, (y - lat0) * ky)).build()
    }
}

/// Parses FCD CSV from memory.
pub fn parse_csv(bytes: &[u8], origin: &str) -> Result<Trace, MobilityError> {
    let first_line = bytes.split(|b| *b == b'\n').next().unwrap_or(&[]);
    let delimiter = if first_line.contains(&b';') { b';' } else { b',' };
    let mut builder = TraceBuilder::default();
    let mut geo = GeoEvidence::default();
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
            let (x, y) = (num(fields[2], "vehicle_x")?, num(fields[3], "vehicle_y")?);
            geo.note(Some(fields[2]), x, y);
            builder.push(fields[1], num(fields[0], "timestep_time")?, x, y);
            Ok(())
        },
    )?;
    if builder.samples() == 0 {
        return Err(MobilityError::Format {
            path: origin.into(),
            message: "no vehicle samples found".into(),
        });
    }
    Ok(geo.finish(builder))
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
    fn geo_fcd_is_projected_to_metres() {
        // Two vehicles 0.001° of longitude apart at 52.5° N: 67.7 m; 0.001° of latitude: 111.2 m.
        let geo = r#"<fcd-export><timestep time="0.00">
            <vehicle id="a" x="13.386900" y="52.516300"/>
            <vehicle id="b" x="13.387900" y="52.517300"/>
        </timestep></fcd-export>"#;
        let mut t = parse_xml(geo.as_bytes(), "g").unwrap();
        let mut out = Vec::new();
        t.positions_at(0.0, &mut out);
        let (a, b) = (out[0].unwrap(), out[1].unwrap());
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        assert!((dx - 67.7).abs() < 0.5, "dx {dx}");
        assert!((dy - 111.2).abs() < 0.5, "dy {dy}");
        // The same numbers with metre precision (2 decimals) stay metres.
        let metres = geo
            .replace("13.386900", "13.39")
            .replace("13.387900", "13.40")
            .replace("52.516300", "52.52")
            .replace("52.517300", "52.53");
        let mut t = parse_xml(metres.as_bytes(), "m").unwrap();
        out.clear();
        t.positions_at(0.0, &mut out);
        assert_eq!(out[0].unwrap()[0], 13.39);
        // CSV too.
        let csv =
            "timestep_time;vehicle_id;vehicle_x;vehicle_y\n0.00;a;13.386900;52.516300\n0.00;b;13.387900;52.517300\n";
        let mut c = parse_csv(csv.as_bytes(), "c").unwrap();
        out.clear();
        c.positions_at(0.0, &mut out);
        assert!((out[1].unwrap()[0] - out[0].unwrap()[0] - 67.7).abs() < 0.5);
    }

    #[test]
    fn gzipped_fcd_is_refused_with_the_way_out() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("fcd.xml.gz");
        std::fs::write(&p, [0x1f, 0x8b, 8, 0, 0, 0, 0, 0]).unwrap();
        let e = read(&p).unwrap_err().to_string();
        assert!(e.contains("gzip-compressed") && e.contains("gunzip"), "{e}");
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
