//! The Authenticator interface and its implementations.
//!
//! Every protocol is a station type implementing [`Authenticator`]; [`ProtocolConfig`]
//! names a protocol with its parameters and [`Deployment`] / [`build_pair`] build
//! stations that trust each other. Each protocol module sets itself up through
//! [`ProtocolDeployment`]; the protocols with their own packet layouts (`hash_chain`,
//! `tesla`, `two_flip`, `session`) are directories of the same shape (config, wire,
//! sender, receiver, station, describe, deployment, tests). See the crate README.

pub mod authenticator;
pub mod cert;
pub mod cert_schedule;
pub mod describe;
pub mod dot2;
pub mod dot2_pki;
pub mod etsi_v1_2_1;
pub mod experimental_pq;
pub mod factory;
pub mod freshness;
pub mod hash_chain;
pub mod loopback;
pub mod none;
pub mod overhead;
mod rng;
pub mod session;
pub mod setup;
pub mod tesla;
pub mod two_flip;

pub use authenticator::{
    data_packet, Authenticator, DecapOutcome, Decapsulated, Delivery, Destination, EncapError, OutgoingPacket,
    PacketKind, PendingId, Polled, Precheck, RejectReason, Rejection, Released, SenderId, StationId, Timestamp,
};
pub use describe::{CryptoOp, DelayedVerification, MessageDescription, OpCount, ProtocolDescription, Schedule};
pub use factory::{build_pair, build_stations, pair_sender_role, Deployment, ProtocolConfig};
pub use setup::{ProtocolDeployment, Role, SetupError, StationPair};
/// Curves of certificates and signatures (re-exported for configurations and fuzz targets).
pub use v2x_crypto::Curve;
