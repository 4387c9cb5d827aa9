//! v2x-model: analytical models of what security costs.
//!
//! Today: paper 003's multi-hop security cost model (Lo, Yang, Yeh) of the Raya–Hubaux
//! and Wang et al. session-key schemes — per step, transmission + propagation per hop,
//! signature verification at every hop, and the sender's and destination's crypto once,
//! summed into `a * n + b` for n nodes on the route.
//!
//! - [`costs`]: a cost set (per-operation times and sizes; the `--costs` file format);
//! - [`radio`]: per-hop transmission (ideal, 802.11p, C-V2X) and propagation;
//! - [`scheme`]: the steps of each scheme and what each node computes;
//! - [`model`]: evaluation into per-step terms and the closed form;
//! - [`crossover`]: where the cheapest combination changes;
//! - [`paper003`]: the paper's inputs and printed results, and their reproduction.
//! - [`relay`]: the closed form beside a simulated relay chain (`v2x sim`);
//! - [`measure`]: this machine's cost set, timed with the benchmark's harness;
//! - [`today`]: the model with another cost set on today's radios;
//! - [`run`], [`output`], [`figures`]: one `v2x model` run, its results folder and figures.
//!
//! `v2x reproduce` (every paper beside its published values) is the `v2x-reproduce` crate.

pub mod costs;
pub mod crossover;
pub mod figures;
pub mod measure;
pub mod model;
pub mod output;
pub mod paper003;
pub mod radio;
pub mod relay;
pub mod run;
pub mod scheme;
pub mod today;

pub use costs::{CostError, CostSet};
pub use model::{Combination, Conditions, Evaluation, Line, ModelError};
pub use paper003::{Paper003, Reading};
pub use radio::{Radio, RadioKind};
pub use scheme::{Scheme, Topology};
