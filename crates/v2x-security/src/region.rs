//! Geographic regions of certificates (1609.2 §6.4.17-6.4.24): conversion to and
//! from the wire, "is this point inside" and "is this region inside that one".
//!
//! Coordinates are in 1/10 micro-degrees as on the wire. Geometry is on a sphere
//! (haversine) for circles and in latitude/longitude for rectangles and polygons.
//! Identified regions (country codes) cannot be tested against a position without
//! boundary data, which this crate does not ship: such checks return `None`
//! ("undecidable") and the validator reports them as not checked; country lists are
//! still compared with each other for chain consistency.

use rasn_its::ieee1609dot2::base_types as bt;

const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// A position in 1/10 micro-degrees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeoPoint {
    pub lat: i32,
    pub lon: i32,
}

impl GeoPoint {
    pub fn from_degrees(lat: f64, lon: f64) -> GeoPoint {
        GeoPoint {
            lat: (lat * 1e7).round() as i32,
            lon: (lon * 1e7).round() as i32,
        }
    }
    fn lat_deg(self) -> f64 {
        f64::from(self.lat) / 1e7
    }
    fn lon_deg(self) -> f64 {
        f64::from(self.lon) / 1e7
    }
    /// Great-circle distance in metres.
    pub fn distance_m(self, other: GeoPoint) -> f64 {
        let (la1, la2) = (self.lat_deg().to_radians(), other.lat_deg().to_radians());
        let dla = la2 - la1;
        let dlo = (other.lon_deg() - self.lon_deg()).to_radians();
        let a = (dla / 2.0).sin().powi(2) + la1.cos() * la2.cos() * (dlo / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS_M * a.sqrt().min(1.0).asin()
    }
}

/// A certificate region.
#[derive(Debug, Clone, PartialEq)]
pub enum Region {
    Circle {
        center: GeoPoint,
        radius_m: u16,
    },
    /// A union of rectangles given by north-west and south-east corners.
    Rectangles(Vec<(GeoPoint, GeoPoint)>),
    Polygon(Vec<GeoPoint>),
    /// UN M.49 country codes (country-only granularity for containment).
    Countries(Vec<u16>),
}

fn pt(l: &bt::TwoDLocation) -> GeoPoint {
    GeoPoint {
        lat: *l.latitude.0,
        lon: l.longitude.0 .0,
    }
}

fn to_2d(p: GeoPoint) -> Option<bt::TwoDLocation> {
    Some(bt::TwoDLocation {
        latitude: bt::Latitude(bt::NinetyDegreeInt::new(p.lat)?),
        longitude: bt::Longitude(bt::OneEightyDegreeInt::new(p.lon)?),
    })
}

impl Region {
    /// From the wire; `None` for region kinds this crate does not model.
    pub fn from_wire(r: &bt::GeographicRegion) -> Option<Region> {
        Some(match r {
            bt::GeographicRegion::CircularRegion(c) => Region::Circle {
                center: pt(&c.center),
                radius_m: c.radius,
            },
            bt::GeographicRegion::RectangularRegion(rs) => {
                Region::Rectangles(rs.0.iter().map(|r| (pt(&r.north_west), pt(&r.south_east))).collect())
            }
            bt::GeographicRegion::PolygonalRegion(p) => Region::Polygon(p.0.iter().map(pt).collect()),
            bt::GeographicRegion::IdentifiedRegion(ids) => Region::Countries(
                ids.0
                    .iter()
                    .map(|i| match i {
                        bt::IdentifiedRegion::CountryOnly(c) => c.0,
                        bt::IdentifiedRegion::CountryAndRegions(c) => c.country_only.0,
                        bt::IdentifiedRegion::CountryAndSubregions(c) => c.country_only.0,
                        // Unknown identified-region kinds: a country code of 0 never matches.
                        #[allow(unreachable_patterns)]
                        _ => 0,
                    })
                    .collect(),
            ),
            #[allow(unreachable_patterns)]
            _ => return None,
        })
    }

    /// To the wire; `None` if a coordinate is out of range.
    pub fn to_wire(&self) -> Option<bt::GeographicRegion> {
        Some(match self {
            Region::Circle { center, radius_m } => bt::GeographicRegion::CircularRegion(bt::CircularRegion {
                center: to_2d(*center)?,
                radius: *radius_m,
            }),
            Region::Rectangles(rs) => bt::GeographicRegion::RectangularRegion(bt::SequenceOfRectangularRegion(
                rs.iter()
                    .map(|(nw, se)| {
                        Some(bt::RectangularRegion {
                            north_west: to_2d(*nw)?,
                            south_east: to_2d(*se)?,
                        })
                    })
                    .collect::<Option<Vec<_>>>()?,
            )),
            Region::Polygon(ps) => bt::GeographicRegion::PolygonalRegion(bt::PolygonalRegion(
                ps.iter().map(|p| to_2d(*p)).collect::<Option<Vec<_>>>()?,
            )),
            Region::Countries(cs) => bt::GeographicRegion::IdentifiedRegion(bt::SequenceOfIdentifiedRegion(
                cs.iter()
                    .map(|c| bt::IdentifiedRegion::CountryOnly(bt::UnCountryId(*c)))
                    .collect(),
            )),
        })
    }

    /// Whether `p` lies in the region; `None` when undecidable (country regions).
    pub fn contains(&self, p: GeoPoint) -> Option<bool> {
        match self {
            Region::Circle { center, radius_m } => Some(center.distance_m(p) <= f64::from(*radius_m)),
            Region::Rectangles(rs) => Some(rs.iter().any(|(nw, se)| in_rect(*nw, *se, p))),
            Region::Polygon(ps) => Some(in_polygon(ps, p)),
            Region::Countries(_) => None,
        }
    }

    /// Whether `self` lies within `outer`; `None` when undecidable (geometry against
    /// countries).
    pub fn within(&self, outer: &Region) -> Option<bool> {
        if let (Region::Countries(inner), Region::Countries(outer)) = (self, outer) {
            return Some(inner.iter().all(|c| outer.contains(c)));
        }
        if matches!(outer, Region::Countries(_)) || matches!(self, Region::Countries(_)) {
            return None;
        }
        Some(match (self, outer) {
            (
                Region::Circle { center, radius_m },
                Region::Circle {
                    center: oc,
                    radius_m: or,
                },
            ) => center.distance_m(*oc) + f64::from(*radius_m) <= f64::from(*or),
            (Region::Circle { center, radius_m }, _) => {
                // The circle's bounding points (N, S, E, W) must all be inside.
                let dlat = f64::from(*radius_m) / EARTH_RADIUS_M;
                let dlon = dlat / center.lat_deg().to_radians().cos().max(1e-6);
                let d_lat = (dlat.to_degrees() * 1e7).ceil() as i32;
                let d_lon = (dlon.to_degrees() * 1e7).ceil() as i32;
                let pts = [
                    GeoPoint {
                        lat: center.lat.saturating_add(d_lat),
                        lon: center.lon,
                    },
                    GeoPoint {
                        lat: center.lat.saturating_sub(d_lat),
                        lon: center.lon,
                    },
                    GeoPoint {
                        lat: center.lat,
                        lon: center.lon.saturating_add(d_lon),
                    },
                    GeoPoint {
                        lat: center.lat,
                        lon: center.lon.saturating_sub(d_lon),
                    },
                ];
                match outer {
                    Region::Rectangles(rs) => rs.iter().any(|(nw, se)| pts.iter().all(|p| in_rect(*nw, *se, *p))),
                    _ => pts.iter().all(|p| outer.contains(*p) == Some(true)),
                }
            }
            (Region::Rectangles(inner), _) => inner.iter().all(|(nw, se)| {
                let corners = [
                    *nw,
                    *se,
                    GeoPoint {
                        lat: nw.lat,
                        lon: se.lon,
                    },
                    GeoPoint {
                        lat: se.lat,
                        lon: nw.lon,
                    },
                ];
                match outer {
                    Region::Rectangles(rs) => rs
                        .iter()
                        .any(|(onw, ose)| corners.iter().all(|p| in_rect(*onw, *ose, *p))),
                    _ => corners.iter().all(|p| outer.contains(*p) == Some(true)),
                }
            }),
            (Region::Polygon(ps), _) => ps.iter().all(|p| outer.contains(*p) == Some(true)),
            (Region::Countries(_), _) => return None,
        })
    }
}

fn in_rect(nw: GeoPoint, se: GeoPoint, p: GeoPoint) -> bool {
    p.lat <= nw.lat && p.lat >= se.lat && p.lon >= nw.lon && p.lon <= se.lon
}

fn in_polygon(ps: &[GeoPoint], p: GeoPoint) -> bool {
    // Ray casting in (lon, lat).
    let mut inside = false;
    let n = ps.len();
    if n < 3 {
        return false;
    }
    let (x, y) = (f64::from(p.lon), f64::from(p.lat));
    let mut j = n - 1;
    for i in 0..n {
        let (xi, yi) = (f64::from(ps[i].lon), f64::from(ps[i].lat));
        let (xj, yj) = (f64::from(ps[j].lon), f64::from(ps[j].lat));
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            inside = !inside;
        }
        j = i;
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_contains_and_nests() {
        let c = GeoPoint::from_degrees(48.0, 11.0);
        let big = Region::Circle {
            center: c,
            radius_m: 10_000,
        };
        assert_eq!(big.contains(GeoPoint::from_degrees(48.05, 11.0)), Some(true));
        assert_eq!(big.contains(GeoPoint::from_degrees(48.2, 11.0)), Some(false));
        let small = Region::Circle {
            center: GeoPoint::from_degrees(48.01, 11.0),
            radius_m: 1000,
        };
        assert_eq!(small.within(&big), Some(true));
        assert_eq!(big.within(&small), Some(false));
        let rect = Region::Rectangles(vec![(
            GeoPoint::from_degrees(49.0, 10.0),
            GeoPoint::from_degrees(47.0, 12.0),
        )]);
        assert_eq!(big.within(&rect), Some(true));
        assert_eq!(rect.within(&big), Some(false));
        assert_eq!(big.within(&Region::Countries(vec![276])), None);
        assert_eq!(
            Region::Countries(vec![276]).within(&Region::Countries(vec![276, 250])),
            Some(true)
        );
        let w = big.to_wire().unwrap();
        assert_eq!(Region::from_wire(&w), Some(big));
    }

    #[test]
    fn polygon_contains() {
        let poly = Region::Polygon(vec![
            GeoPoint::from_degrees(0.0, 0.0),
            GeoPoint::from_degrees(0.0, 1.0),
            GeoPoint::from_degrees(1.0, 1.0),
            GeoPoint::from_degrees(1.0, 0.0),
        ]);
        assert_eq!(poly.contains(GeoPoint::from_degrees(0.5, 0.5)), Some(true));
        assert_eq!(poly.contains(GeoPoint::from_degrees(1.5, 0.5)), Some(false));
    }
}
