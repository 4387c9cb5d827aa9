//! How every table of the report prints a number (the report's files and the criteria of
//! [`crate::judge`] alike).

/// A number for a table: four significant decimals, scientific outside 1e-3..1e5.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-3) {
        format!("{x:.3e}")
    } else {
        format!("{}", (x * 1e4).round() / 1e4)
    }
}
