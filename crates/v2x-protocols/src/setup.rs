//! What setting up any protocol involves: the role a station plays, why set-up can fail,
//! and the [`ProtocolDeployment`] every protocol implements for itself (the factory only
//! maps a configuration to one).

use crate::authenticator::{Authenticator, EncapError, StationId};
use crate::Rejection;
use serde::{Deserialize, Serialize};
use v2x_crypto::CryptoError;

/// What a station is in the deployment (some protocols treat roadside units or group
/// leaders differently; others ignore it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    #[default]
    Vehicle,
    RoadsideUnit,
    GroupLeader,
}

/// Why a deployment or station could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    #[error("role {role:?} not supported by {protocol}")]
    UnsupportedRole { protocol: String, role: Role },
    #[error("station {0} already exists in this deployment")]
    DuplicateStation(StationId),
    #[error("crypto backend: {0}")]
    Crypto(#[from] CryptoError),
    #[error("issuing a certificate: {0}")]
    Certificate(#[from] v2x_security::issue::IssueError),
    /// A field does not fit its length prefix (a key, a certificate).
    #[error("encoding: {0}")]
    Encoding(#[from] v2x_wire::cursor::CursorError),
    #[error("trust store: {0}")]
    TrustStore(#[from] v2x_security::trust_store::AnchorError),
    /// The experimental post-quantum PKI could not issue a certificate.
    #[error("experimental post-quantum PKI: {0}")]
    ExperimentalPq(#[from] v2x_security::pq::PqPkiError),
    /// A station of the deployment could not build a packet (while measuring sizes).
    #[error("building a packet: {0}")]
    Encap(#[from] EncapError),
    /// A genuine packet was rejected while measuring sizes: the deployment is broken.
    #[error("a genuine packet was rejected: {0}")]
    Rejected(Rejection),
}

/// A sender and a receiver station.
pub type StationPair = (Box<dyn Authenticator>, Box<dyn Authenticator>);

/// The shared material of one protocol's deployment (CA keys, seeds, trust anchors):
/// every station it builds trusts every other one.
pub trait ProtocolDeployment: Send {
    /// A new station numbered `id` playing `role`.
    fn station(&mut self, id: StationId, role: Role) -> Result<Box<dyn Authenticator>, SetupError>;

    /// Station 1 (playing `sender_role`) and station 2 (a vehicle), ready for the first
    /// to send to the second (a protocol with pairwise sessions points the sender at its
    /// peer).
    fn pair(&mut self, sender_role: Role) -> Result<StationPair, SetupError> {
        let sender = self.station(StationId(1), sender_role)?;
        let receiver = self.station(StationId(2), Role::Vehicle)?;
        Ok((sender, receiver))
    }

    /// The concrete deployment, for typed access to a protocol's authority (the
    /// hash-chain CA, the 2FLIP trusted authority).
    fn as_any(&self) -> &dyn std::any::Any;
}
