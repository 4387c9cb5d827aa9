//! What a suite hands to the runner: labelled operations whose state is built lazily
//! (outside the timed region) and, for the scaling suite, factories that build one state
//! per worker.

use crate::pool::WorkerOp;
use crate::result::Measurement;
use crate::stats::LatencyStats;
use crate::{BenchError, Suite};
use v2x_profile::{CostKey, Operation, ProtocolId, Variant};

/// The description of a measurement, before it is measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub suite: Suite,
    pub key: CostKey,
    pub packet_bytes: Option<usize>,
    pub note: String,
}

impl Label {
    pub fn new(suite: Suite, protocol: ProtocolId, operation: Operation, variant: Variant) -> Label {
        Label {
            suite,
            key: CostKey::new(protocol, operation, variant),
            packet_bytes: None,
            note: String::new(),
        }
    }

    pub fn note(mut self, n: &str) -> Label {
        self.note = n.into();
        self
    }

    pub fn key(&self) -> CostKey {
        self.key
    }

    /// The measurement, once measured. `packet_bytes` may be learnt during set-up.
    pub fn into_measurement(self, latency: LatencyStats, packet_bytes: Option<usize>) -> Measurement {
        let packet_bytes = packet_bytes.or(self.packet_bytes);
        let v = self.key.variant;
        let payload_bytes = v.payload_bytes.map(|p| p as usize);
        let overhead_bytes = match (packet_bytes, payload_bytes) {
            (Some(p), Some(l)) if matches!(self.key.operation, Operation::Encap | Operation::Decap) => {
                Some(p.saturating_sub(l))
            }
            _ => None,
        };
        Measurement {
            ops_per_sec: latency.ops_per_sec(),
            suite: self.suite,
            protocol: self.key.protocol,
            operation: self.key.operation,
            variant: v,
            curve: v.curve,
            message: v.message,
            level: v.level,
            signer: v.signer,
            payload_bytes,
            packet_bytes,
            overhead_bytes,
            latency,
            ops_per_sec_all_cores: None,
            note: self.note,
        }
    }
}

/// A prepared operation: the closure to time and, for encap/decap, the packet size.
pub struct Prepared {
    pub op: WorkerOp,
    pub packet_bytes: Option<usize>,
    /// At most this many calls (a finite pool of inputs that cannot be renewed).
    pub max_calls: Option<u64>,
}

impl Prepared {
    pub fn new(op: WorkerOp) -> Prepared {
        Prepared {
            op,
            packet_bytes: None,
            max_calls: None,
        }
    }

    pub fn with_packet(op: WorkerOp, packet_bytes: usize) -> Prepared {
        Prepared {
            op,
            packet_bytes: Some(packet_bytes),
            max_calls: None,
        }
    }
}

/// Builds the state of one operation (untimed).
pub type Setup = Box<dyn FnOnce() -> Result<Prepared, BenchError> + Send>;

/// Builds one worker's state; called once per worker thread.
pub type Factory = Box<dyn Fn() -> Result<WorkerOp, BenchError> + Send + Sync>;

/// One single-core measurement.
pub struct Task {
    pub label: Label,
    pub setup: Setup,
}

/// One one-core-vs-all-cores measurement.
pub struct ScalingTask {
    /// `raw` or `stack`.
    pub kind: Suite,
    /// Key of the single-core measurement it belongs to.
    pub key: CostKey,
    pub label: String,
    pub factory: Factory,
}
