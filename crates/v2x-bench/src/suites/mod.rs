//! The suites: each turns its part of the benchmark into labelled tasks.

pub mod breakdown;
pub mod mbd;
pub mod pq;
pub mod protocols;
pub mod raw;
pub mod stack;
pub mod verify;
