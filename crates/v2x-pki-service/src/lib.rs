//! The ETSI TS 102 941 PKI service: an enrolment authority (EA), an authorization authority
//! (AA) and the distribution of the root CA's CRL and CTL and the TLM's ECTL over HTTP, on an
//! embedded SQLite database or a shared PostgreSQL one; and the ITS-S side that enrols and
//! keeps a pool of authorization tickets. The protocol's messages are `v2x_wire::ts102941`, what
//! each party checks and builds is `v2x_security::ts102941`; this crate adds transport, state
//! and the processes.
//!
//! | module | what |
//! |---|---|
//! | [`config`] | a service process: roles, listen address, store, limits, lab options; the binding's paths and content types |
//! | [`store`] | the store interface and its SQLite and PostgreSQL implementations (sqlx, embedded migrations; SQLite's hot path on rusqlite) |
//! | [`workers`] | crypto inline on the serving thread (measured) and the committer (group commit) |
//! | [`service`] | what the EA, AA and distribution do with a request, transport aside |
//! | [`distribution`] | the RCA's CRL and CTL, the TLM's ECTL, re-signed when due |
//! | [`http`] | the HTTP binding on axum: routes, content types, status codes, body limit, load shedding |
//! | [`server`] | starting a process: authorities, store, listener, pruning |
//! | [`client`] | the blocking HTTP client of the binding |
//! | [`its_station`] | an ITS-S's PKI state on disk: enrolment, re-enrolment, the ticket pool, trust lists |
//! | [`cpu`] | per-thread and per-process CPU time from `/proc`, inline work by the thread's CPU clock (the benchmark's split) |
//! | [`pg_cluster`] | a throwaway PostgreSQL server (tests, benchmark) |
//! | [`bench`](mod@bench) | the throughput benchmark |
//!
//! The `server` feature (default) brings the service (axum, sqlx, tokio); without it the crate
//! is the ITS-S client alone (for the Python package).

pub mod client;
pub mod config;
pub mod its_station;

#[cfg(feature = "server")]
pub mod bench;
#[cfg(feature = "server")]
pub mod cpu;
#[cfg(feature = "server")]
pub mod distribution;
#[cfg(feature = "server")]
pub mod http;
#[cfg(feature = "server")]
pub mod pg_cluster;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod service;
#[cfg(feature = "server")]
pub mod store;
#[cfg(feature = "server")]
pub mod workers;
