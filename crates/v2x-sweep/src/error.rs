//! Typed sweep errors: a bad spec names the key, a failed run names its id.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum SweepError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The spec itself is malformed (syntax, unknown key, empty axis...).
    #[error("sweep spec {origin}: {message}")]
    Spec { origin: String, message: String },
    /// A run's scenario (base + axis values) is not a valid scenario.
    #[error("run {run} ({params}): {source}")]
    Scenario {
        run: String,
        params: String,
        #[source]
        source: Box<v2x_sim::ScenarioError>,
    },
    /// The simulator failed on a run.
    #[error("run {run} ({params}): {source}")]
    Sim {
        run: String,
        params: String,
        #[source]
        source: Box<v2x_sim::SimError>,
    },
    #[error("no run {id} in this sweep (`v2x sweep SPEC --list` shows the run ids)")]
    UnknownRun { id: String },
    #[error("run folder {path}: {message}")]
    Record { path: String, message: String },
    #[error("writing {path}: {message}")]
    Output { path: String, message: String },
}

impl SweepError {
    pub(crate) fn spec(origin: &str, message: impl Into<String>) -> Self {
        SweepError::Spec {
            origin: origin.into(),
            message: message.into(),
        }
    }
}
