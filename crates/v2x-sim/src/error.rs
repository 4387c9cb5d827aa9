//! Typed errors: bad scenario files, unreadable traces and missing costs are reported with
//! the file, line and field, never as panics.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ScenarioError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("invalid value for `{field}`: {message}")]
    Invalid { field: String, message: String },
}

impl ScenarioError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// A mobility trace that cannot be used.
#[derive(Debug, Error)]
pub enum MobilityError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: line {line}: {message}")]
    Line { path: String, line: u64, message: String },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
}

#[derive(Debug, Error)]
pub enum SimError {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Mobility(#[from] MobilityError),
    /// A variant's costs or sizes cannot be resolved.
    #[error("variant {variant}: {source}")]
    Costs {
        variant: String,
        #[source]
        source: CostsError,
    },
    #[error("cannot write {path}: {source}")]
    Output {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("CSV output: {0}")]
    Csv(#[source] csv::Error),
    #[error("cannot start the run's {threads} threads: {source}")]
    Threads {
        threads: usize,
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    #[error("plot: {0}")]
    Plot(String),
    /// A results table (CSV and the Parquet file beside it) could not be written.
    #[error("cannot write table {0}")]
    Table(#[from] v2x_report::table::TableError),
}

/// A cost the scenario must choose: the variant field to set, the profile's choices.
#[derive(Debug, Error)]
#[error("`{field}`: profile {profile}: {cost}: {why}; name one of: {}", choices.join(", "))]
pub struct Choose {
    pub field: String,
    /// `protocol/operation`.
    pub cost: String,
    pub profile: String,
    pub why: String,
    /// The variants of the profile's rows to choose from.
    pub choices: Vec<String>,
}

/// Why a variant's costs or sizes cannot be resolved.
#[derive(Debug, Error)]
pub enum CostsError {
    /// The profile cannot be loaded or lacks a cost.
    #[error(transparent)]
    Profile(#[from] Box<v2x_profile::ProfileError>),
    /// A name in the variant is wrong.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// Something the model needs is missing (a profile, sizes).
    #[error("{0}")]
    Missing(String),
    /// A profile file that does not exist; says how to make one.
    #[error("profile {path} does not exist: measure this machine with `v2x bench --suite stack,protocols --out {dir}`, or name a shipped profile ({})", v2x_profile::BUILTIN_NAMES.join(", "))]
    ProfileMissing { path: String, dir: String },
    /// A default would pick one cost among several, or the obvious one is not in the
    /// profile: the scenario must name it.
    #[error(transparent)]
    Choose(Box<Choose>),
    /// A deadline the protocol cannot meet, left at its default.
    #[error("{0}")]
    Deadline(String),
}
