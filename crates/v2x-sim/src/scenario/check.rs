//! Range checks shared by the models' `validate()`; each error names the field.

use crate::error::ScenarioError;

pub fn pos(field: &str, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(ScenarioError::invalid(
            field,
            format!("must be a positive number, got {v}"),
        ))
    }
}

pub fn nonneg(field: &str, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(ScenarioError::invalid(
            field,
            format!("must be a finite number >= 0, got {v}"),
        ))
    }
}

pub fn finite(field: &str, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(ScenarioError::invalid(field, format!("must be finite, got {v}")))
    }
}

/// Positions `[x_m, y_m]`: finite and within 1e9 m.
pub fn coordinates(field: &str, positions: &[[f64; 2]]) -> Result<(), ScenarioError> {
    if positions.iter().flatten().any(|v| !(v.is_finite() && v.abs() < 1e9)) {
        return Err(ScenarioError::invalid(
            field,
            "coordinates must be finite and within 1e9 m",
        ));
    }
    Ok(())
}
