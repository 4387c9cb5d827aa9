//! Locations: latitude/longitude in 1/10 micro-degree (1e-7 degree), elevation in decimetres.

use super::{Elevation, Latitude, Longitude, NinetyDegreeInt, OneEightyDegreeInt, ThreeDLocation, TwoDLocation};

/// Units per degree of `Latitude` / `Longitude` (1/10 micro-degree).
pub const UNITS_PER_DEGREE: f64 = 10_000_000.0;

/// `Latitude` of `degrees` (rounded to 1e-7°); `None` outside [-90, 90] or not finite.
pub fn latitude_from_degrees(degrees: f64) -> Option<Latitude> {
    let units = to_units(degrees)?;
    NinetyDegreeInt::new(units)
        .filter(|_| units <= NinetyDegreeInt::MAX)
        .map(Latitude)
}

/// `Longitude` of `degrees` (rounded to 1e-7°); `None` outside (-180, 180] or not finite.
pub fn longitude_from_degrees(degrees: f64) -> Option<Longitude> {
    let units = to_units(degrees)?;
    (OneEightyDegreeInt::MIN..=OneEightyDegreeInt::MAX)
        .contains(&units)
        .then_some(Longitude(OneEightyDegreeInt(units)))
}

fn to_units(degrees: f64) -> Option<i32> {
    let units = (degrees * UNITS_PER_DEGREE).round();
    (units.is_finite() && units >= f64::from(i32::MIN) && units <= f64::from(i32::MAX)).then_some(units as i32)
}

/// Degrees of a `Latitude`; `None` for the "unavailable" value 900 000 001 (or out of range).
pub fn latitude_degrees(lat: &Latitude) -> Option<f64> {
    let units: i32 = lat.0.clone().into();
    (NinetyDegreeInt::MIN..=NinetyDegreeInt::MAX)
        .contains(&units)
        .then(|| f64::from(units) / UNITS_PER_DEGREE)
}

/// Degrees of a `Longitude`; `None` for the "unavailable" value 1 800 000 001 (or out of range).
pub fn longitude_degrees(lon: &Longitude) -> Option<f64> {
    lon.0.is_known().then(|| f64::from(lon.0 .0) / UNITS_PER_DEGREE)
}

/// Lowest elevation representable (metres): the encoded value is decimetres above this.
pub const ELEVATION_MIN_M: f64 = -409.5;

/// `Elevation` of `metres` above the WGS-84 ellipsoid: decimetres above −409.5 m (1609.2
/// §6.4.x), clamped to the representable range [−409.5, 6143.9] m.
pub fn elevation_from_metres(metres: f64) -> Elevation {
    let dm = ((metres - ELEVATION_MIN_M) * 10.0).round();
    let dm = if dm.is_nan() { 0.0 } else { dm.clamp(0.0, 65_534.0) };
    Elevation(dm as u16)
}

/// Metres of an `Elevation` (inverse of [`elevation_from_metres`]).
pub fn elevation_metres(e: &Elevation) -> f64 {
    f64::from(e.0) / 10.0 + ELEVATION_MIN_M
}

/// A `TwoDLocation` from degrees; `None` if either coordinate is out of range.
pub fn two_d_location(lat_deg: f64, lon_deg: f64) -> Option<TwoDLocation> {
    Some(TwoDLocation {
        latitude: latitude_from_degrees(lat_deg)?,
        longitude: longitude_from_degrees(lon_deg)?,
    })
}

/// A `ThreeDLocation` from degrees and metres; `None` if a coordinate is out of range.
pub fn three_d_location(lat_deg: f64, lon_deg: f64, elevation_m: f64) -> Option<ThreeDLocation> {
    Some(ThreeDLocation {
        latitude: latitude_from_degrees(lat_deg)?,
        longitude: longitude_from_degrees(lon_deg)?,
        elevation: elevation_from_metres(elevation_m),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degrees_round_trip() {
        let l = three_d_location(48.858_370_1, 2.294_481_3, 35.0).unwrap();
        let i: i32 = l.latitude.0.clone().into();
        assert_eq!(i, 488_583_701);
        assert_eq!(l.longitude.0 .0, 22_944_813);
        assert!((latitude_degrees(&l.latitude).unwrap() - 48.858_370_1).abs() < 1e-9);
        assert!((longitude_degrees(&l.longitude).unwrap() - 2.294_481_3).abs() < 1e-9);
        assert!((elevation_metres(&l.elevation) - 35.0).abs() < 1e-9);
        assert!(latitude_from_degrees(90.5).is_none());
        assert!(longitude_from_degrees(-180.0).is_none());
        assert!(longitude_from_degrees(f64::NAN).is_none());
        assert_eq!(elevation_from_metres(-1000.0).0, 0);
    }
}
