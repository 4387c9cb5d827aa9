//! Processor profiles and the vocabulary that names costs.
//!
//! - [`vocab`]: [`ProtocolId`], [`Operation`] and [`CostKey`], the names bench, profiles and
//!   simulator share;
//! - [`variant`]: the typed parts of a cost's variant (curve, hash, message, level, signer,
//!   payload, build), written as `p256/cam/sign/digest/100`;
//! - [`profile`]: a processor's costs (latency distributions, throughput) and
//!   [`sizes`] ([`PacketSizes`]: bytes on the air per protocol, certificate and key schedules);
//! - [`spread`]: the named service-time distribution ([`Spread`]) of costs published as a
//!   mean alone;
//! - [`names`]: the closed name sets and their [`UnknownName`] error, which lists the valid
//!   names.
//!
//! Profiles come either from `v2x bench` on the user's machine or from the papers'
//! published tables (shipped under `profiles/`, each marked with its source table).

pub mod names;
pub mod profile;
pub mod sizes;
pub mod spread;
pub mod variant;
pub mod vocab;

pub use names::UnknownName;
pub use profile::{LatencyDistribution, OperationCost, ProcessorProfile, ProfileError, ProfileSource};
pub use sizes::{CertificatePolicy, KeyDisclosure, PacketSizes, SizesError, SizesSource};
pub use spread::{Spread, SpreadFamily};
pub use variant::{BuildId, CurveId, HashId, Level, MessageId, Method, SignerKind, Variant, VariantError};
pub use vocab::{CostKey, CostKeyError, Operation, ProtocolId};

/// Processor profiles shipped with v2xsec, transcribed from the papers' tables.
const BUILTIN: &[(&str, &str)] = &[
    ("cubieboard", include_str!("../profiles/cubieboard.json")),
    ("xeon-e5-2667", include_str!("../profiles/xeon-e5-2667.json")),
    ("i7-4610m", include_str!("../profiles/i7-4610m.json")),
    ("mk5-software", include_str!("../profiles/mk5-software.json")),
    ("mk5-hsm", include_str!("../profiles/mk5-hsm.json")),
    ("atom-d510", include_str!("../profiles/atom-d510.json")),
];

/// Names accepted by [`ProcessorProfile::builtin`]: paper 000 Tables 4-6 (`cubieboard`,
/// `xeon-e5-2667`, `i7-4610m`), paper 001 Tables 1-11 (`mk5-software`, `mk5-hsm`) and paper
/// 002 Table 3.2 (`atom-d510`). Paper 004 publishes its Pentium 3 and Core 2 costs only as a
/// figure, so no profile is shipped for them.
pub const BUILTIN_NAMES: &[&str] = &[
    "cubieboard",
    "xeon-e5-2667",
    "i7-4610m",
    "mk5-software",
    "mk5-hsm",
    "atom-d510",
];
