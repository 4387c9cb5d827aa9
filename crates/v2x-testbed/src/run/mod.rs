//! Running a scenario: its plan ([`plan`]: every station, its tickets and addresses, a
//! pure function), the orchestrator that provisions and starts the processes
//! ([`orchestrator`]), the station process itself ([`station`]), the credentials it
//! loads ([`credentials`]), why a run failed ([`error`]), network namespaces ([`netns`]) and the runs that follow a
//! scenario's own ([`probes`]: load plan, flood search).

pub mod authority;
pub mod credentials;
pub mod error;
pub mod misbehaviour;
pub mod netns;
pub mod orchestrator;
pub mod pki_service;
pub mod plan;
pub mod probes;
pub mod station;
