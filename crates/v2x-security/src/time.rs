//! IEEE 1609.2 time: [`TaiTime`] is `Time64` (TAI microseconds since 2004-01-01). It and the
//! leap-second table are owned by `v2x_wire::tai`; this module keeps the `v2x_security::time`
//! path that the security API and its users name.

pub use v2x_wire::tai::{TaiTime, TaiTimeError};
