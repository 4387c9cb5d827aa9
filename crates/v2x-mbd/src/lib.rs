//! Misbehaviour detection: the insider with a valid certificate who lies in the content.
//!
//! - [`message`]: one received CAM as a receiver logs it, in the VeReMi NextGen schema (the
//!   unit attacks, checks, datasets and scores share), with its ground truth;
//! - [`observation`]: the neutral per-message view the checks read (from a logged message or a
//!   decoded [`v2x_wire::facilities::Cam`]);
//! - [`attacks`]: F2MD's and VeReMi NextGen's attacks, faulty sensors and intermittent
//!   attackers as pure functions over traces;
//! - [`checks`]: F2MD legacy and CaTCh plausibility and consistency checks, a Kalman
//!   consistency check; [`evidence`]: what a V2X receiver holds besides (replay state,
//!   per-pseudonym rate, co-location); [`detector`]: per-sender state and fusion;
//! - [`dataset`]: VeReMi, VeReMi Extension and VeReMi NextGen readers, a NextGen writer;
//!   [`export`]: per-receiver traces from `v2x-sim`'s mobility; [`eval`]: scores with
//!   vehicle-bootstrap intervals; [`features`]: per-message feature vectors for learned
//!   detectors;
//! - [`report`]: ETSI TS 103 759 misbehaviour reports in C-OER, signed and encrypted through
//!   SN-ENCAP, and [`report::authority`], a misbehaviour authority that decides and revokes;
//! - [`sim`]: `[misbehaviour]` in `v2x sim`: insiders, online detection on what the
//!   simulated channel delivers, a misbehaviour authority model that revokes;
//! - [`workload`]: a synthetic dense receiver log for the benchmark.

pub mod attacks;
pub mod checks;
pub mod dataset;
pub mod detector;
pub mod eval;
pub mod evidence;
pub mod export;
pub mod features;
pub mod geometry;
pub mod message;
pub mod observation;
pub mod report;
pub mod sim;
pub mod workload;

pub use detector::{Detector, DetectorConfig, Verdict};
pub use message::{Kinematics, Message};
pub use observation::Observation;
