//! The live testbed (issue 14, after PRESERVE D3.2 — paper 002): station processes
//! exchanging real secured packets over UDP under load and attack — on loopback, between
//! network namespaces, or through a channel-emulator process that relays them through
//! `v2x sim`'s 802.11p channel ([`medium`]) — an orchestrator that runs the PRESERVE test
//! plan, and the analysis of their logs.

pub mod analysis;
pub mod clock;
pub mod credentials;
pub mod defence;
pub mod emulator;
pub mod flood;
pub mod functional;
pub mod load_plan;
pub mod log;
pub mod medium;
pub mod netns;
pub mod orchestrator;
pub mod payload;
pub mod pki_service;
mod process;
pub mod report;
pub mod station;
