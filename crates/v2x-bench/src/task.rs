//! What a suite hands to the runner: labelled operations whose state is built lazily
//! (outside the timed region) and, for the scaling suite, factories that build one state
//! per worker.

use crate::pool::WorkerOp;
use crate::result::Measurement;
use crate::stats::LatencyStats;
use crate::BenchError;

/// The description of a measurement, before it is measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Label {
    pub suite: String,
    pub protocol: String,
    pub operation: String,
    pub variant: String,
    pub curve: Option<String>,
    pub message: Option<String>,
    pub level: Option<String>,
    pub signer: Option<String>,
    pub payload_bytes: Option<usize>,
    pub packet_bytes: Option<usize>,
    pub note: String,
}

impl Label {
    pub fn new(suite: &str, protocol: &str, operation: &str, variant: impl Into<String>) -> Label {
        Label {
            suite: suite.into(),
            protocol: protocol.into(),
            operation: operation.into(),
            variant: variant.into(),
            ..Label::default()
        }
    }

    pub fn curve(mut self, c: &str) -> Label {
        self.curve = Some(c.into());
        self
    }

    pub fn payload(mut self, n: usize) -> Label {
        self.payload_bytes = Some(n);
        self
    }

    pub fn note(mut self, n: &str) -> Label {
        self.note = n.into();
        self
    }

    pub fn key(&self) -> String {
        format!("{}/{}/{}", self.protocol, self.operation, self.variant)
    }

    /// The measurement, once measured. `packet_bytes` may be learnt during set-up.
    pub fn into_measurement(self, latency: LatencyStats, packet_bytes: Option<usize>) -> Measurement {
        let packet_bytes = packet_bytes.or(self.packet_bytes);
        let overhead_bytes = match (packet_bytes, self.payload_bytes) {
            (Some(p), Some(l)) if self.operation == "encap" || self.operation == "decap" => Some(p.saturating_sub(l)),
            _ => None,
        };
        Measurement {
            ops_per_sec: latency.ops_per_sec(),
            suite: self.suite,
            protocol: self.protocol,
            operation: self.operation,
            variant: self.variant,
            curve: self.curve,
            message: self.message,
            level: self.level,
            signer: self.signer,
            payload_bytes: self.payload_bytes,
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
    pub kind: String,
    /// Key of the single-core measurement it belongs to.
    pub key: String,
    pub label: String,
    pub factory: Factory,
}
