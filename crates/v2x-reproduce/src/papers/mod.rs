//! The papers `v2x reproduce` rebuilds, one module each: what it runs (its shipped
//! scenarios; its benchmark and testbed values come from papers.json) and which of its
//! conclusions it judges.
//!
//! Adding a paper: its values to `crates/v2x-bench/data/papers.json` (each naming its
//! table or figure, how it is stated and its evidence class), its scenarios to
//! `scenarios/papers/`, and a module here whose `PAPER` joins [`ALL`]. Its `add` calls
//! [`Context::compare_published`] for every lookup comparison, then adds its own rows and
//! [`Finding`](crate::report::Finding)s.

use crate::rule::Estimate;
use crate::{Context, ReproduceError};

/// An estimate as the findings print it: `value [low, high]` to three decimals, `—` if none.
pub(crate) fn fmt(e: Option<Estimate>) -> String {
    e.map_or("—".to_string(), |e| {
        format!("{:.3} [{:.3}, {:.3}]", e.value, e.low, e.high)
    })
}

pub mod p000;
pub mod p001;
pub mod p002;
pub mod p003;
pub mod p004;
pub mod p005;

/// One paper of the reproduction.
pub struct Paper {
    /// The paper index's number (`--paper`).
    pub id: &'static str,
    pub citation: &'static str,
    /// Its simulation scenarios (`scenarios/papers/`), shipped inside the binary.
    pub scenarios: &'static [crate::sim::Shipped],
    /// What of the paper this reproduction does not rebuild, each with why (the report's
    /// "Not reproduced").
    pub not_done: &'static [&'static str],
    /// Adds its rows and conclusions.
    pub add: fn(&mut Context) -> Result<(), ReproduceError>,
}

/// Every paper, in the order of the report.
pub const ALL: &[Paper] = &[
    p000::PAPER,
    p001::PAPER,
    p002::PAPER,
    p003::PAPER,
    p004::PAPER,
    p005::PAPER,
];

/// The ids `--paper` accepts.
pub fn ids() -> Vec<&'static str> {
    ALL.iter().map(|p| p.id).collect()
}

/// The paper of an id.
pub fn get(id: &str) -> Option<&'static Paper> {
    ALL.iter().find(|p| p.id == id)
}
