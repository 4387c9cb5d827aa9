//! The Authenticator interface and its implementations.
//!
//! Every protocol is a station type implementing [`Authenticator`]; [`ProtocolConfig`]
//! names a protocol with its parameters and [`Deployment`] / [`build_pair`] build
//! stations that trust each other. See each module for its wire layout.

pub mod authenticator;
pub mod cert;
pub mod describe;
pub mod dot2;
pub mod etsi_v1_2_1;
pub mod factory;
pub mod freshness;
pub mod hash_chain;
pub mod none;
pub mod overhead;
pub mod overhead_etsi;
mod overhead_protocols;
mod rng;
pub mod session;
pub mod tesla;
pub mod two_flip;
pub mod wire;

pub use authenticator::{
    data_packet, Authenticator, DecapOutcome, Decapsulated, Delivery, Destination, EncapError, OutgoingPacket,
    PacketKind, PendingId, Polled, RejectReason, Rejection, Released, SenderId, StationId, Timestamp,
};
pub use describe::{CryptoOp, DelayedVerification, MessageDescription, OpCount, ProtocolDescription, Schedule};
pub use factory::{
    build_pair, build_stations, pair_sender_role, Deployment, ProtocolConfig, Role, SetupError, StationPair,
};
/// Curves of certificates and signatures (re-exported for configurations and fuzz targets).
pub use v2x_crypto::Curve;
