//! The live testbed (issue 14, after PRESERVE D3.2 — paper 002): station processes
//! exchanging real secured packets over UDP under load and attack — on loopback, between
//! network namespaces, or through a channel-emulator process that relays them through
//! `v2x sim`'s 802.11p channel — an orchestrator that runs the PRESERVE test plan, and the
//! analysis of their logs.
//!
//! The floor plan: [`scenario`] (the scenario format), [`run`] (the plan of a run, the
//! orchestrator, the station processes as sans-I/O sender and receiver behind thin socket
//! loops), [`analyse`] (what the logs add up to, after the run). [`case`] (roles, attack
//! cases as data, functional cases), [`log`], [`misbehaviour_log`], [`payload`] and [`clock`] are shared by all
//! three; the running stations never import [`analyse`].

pub mod analyse;
pub mod case;
pub mod clock;
pub mod emulator;
pub mod log;
pub mod misbehaviour_log;
pub mod payload;
mod process;
pub mod run;
pub mod scenario;

// The paths the CLI and `v2x reproduce` use.
pub use analyse::{load_plan, summary as analysis};
pub use run::{orchestrator, station};
