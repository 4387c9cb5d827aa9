//! Why a testbed run failed ([`TestbedError`]), shared by the orchestrator and the runs it
//! starts after a scenario's own (the misbehaviour closed loop).

use crate::run::credentials;
use crate::scenario::ScenarioError;

/// Why a testbed run failed.
#[derive(Debug, thiserror::Error)]
pub enum TestbedError {
    #[error("scenario: {0}")]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Credentials(#[from] credentials::CredentialError),
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },
    #[error("station {name} failed: {status}")]
    StationFailed { name: String, status: String },
    #[error("interrupted")]
    Interrupted,
}

pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> TestbedError {
    let context = context.into();
    move |source| TestbedError::Io { context, source }
}
