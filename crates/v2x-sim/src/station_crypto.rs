//! Real cryptography in the loop: the interface through which a run hands each station's
//! security decisions to a real implementation (`[[variant]] mode = "real-crypto"`).
//!
//! The simulator keeps no dependency on the security stack: the implementation (real
//! `Authenticator`s of `v2x-protocols`, one per station) lives in the `v2x-sim-crypto`
//! crate, which drives [`crate::run_with`]. Service times are still charged in simulated time
//! from the variant's profile (the measured costs), so a run differs from the cost model
//! only in what the protocol logic decides: the real packet sizes, and which packets the
//! real receivers accept or reject and why.

use crate::node_id::NodeId;
use crate::scenario::AttackKind;

/// A secured CAM: what its real encoding puts on the air.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Secured {
    /// Security bytes (the secured packet minus the application payload).
    pub security_bytes: u32,
    /// The packet carries the signer's full certificate (not only its digest).
    pub certificate: bool,
}

/// A frame a receiver verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameRef {
    /// CAM number `seq` of station `src`.
    Cam { src: NodeId, seq: u32 },
    /// The attack frame attacker `src` generated at `gen_ns`.
    Attack { src: NodeId, gen_ns: u64 },
}

/// What a receiver's real verification decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    /// Rejected with the reject reason's code (e.g. `false-signature`); `unknown_signer`
    /// when the signer's certificate (or key) is not known yet.
    Rejected {
        reason: &'static str,
        unknown_signer: bool,
    },
}

/// The fate of a CAM a delayed-verification protocol (TESLA) held until its key came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decided {
    pub src: NodeId,
    pub seq: u32,
    pub verdict: Verdict,
}

/// Each station's real security service, as one run sees it. The TESLA methods have
/// defaults for implementations without delayed verification.
pub trait StationCrypto: Send {
    /// Station `node` secures CAM `seq`, generated at `now_ns`, for broadcast.
    fn secure_cam(&mut self, node: NodeId, seq: u32, now_ns: u64) -> Result<Secured, String>;
    /// Attacker `node` builds an attack frame of `kind` at `now_ns`: its security bytes.
    fn forge(&mut self, node: NodeId, kind: AttackKind, now_ns: u64) -> Result<u32, String>;
    /// Station `node` verifies `frame` at `now_ns` with its real receiver state (for a
    /// TESLA CAM: the verdict its key decided, see [`Decided`]).
    fn verify(&mut self, node: NodeId, frame: FrameRef, now_ns: u64) -> Verdict;

    /// TESLA: station `node` receives CAM `seq` of `src` at `now_ns`, which waits for its
    /// key; returns the CAMs this reception decided (an attached key decides earlier ones;
    /// a malformed packet decides itself).
    fn receive_delayed(&mut self, _node: NodeId, _src: NodeId, _seq: u32, _now_ns: u64) -> Vec<Decided> {
        Vec::new()
    }

    /// TESLA with separate key packets: station `node` discloses the keys due at `now_ns`
    /// (after its CAM `seq`); returns the key packet's bytes, `None` when no key is due.
    fn disclose_key(&mut self, _node: NodeId, _seq: u32, _now_ns: u64) -> Option<u32> {
        None
    }

    /// TESLA: station `node` receives the key packet `src` disclosed after its CAM `seq`;
    /// returns the CAMs it decides.
    fn receive_key(&mut self, _node: NodeId, _src: NodeId, _seq: u32, _now_ns: u64) -> Vec<Decided> {
        Vec::new()
    }
}
