//! Multi-hop forwarding (`[relay]`, paper 003's model): the source signs a message and
//! broadcasts it; every node that receives a copy it has not had verifies it on its
//! security processor (queue included, the CAM verification's cost and deadline) and, if
//! it has crossed fewer than `max_hops` hops, broadcasts it again (signing it again where
//! `resign_at_relays`). Along a chain whose nodes reach only their neighbours this is a
//! relay chain; elsewhere it is flooding with duplicate suppression.
//!
//! Each node's first verified copy is recorded by its hop count: the end-to-end delay
//! (from the source's generation) and the per-hop delay (from the previous node's decision
//! to send).

use super::trace::Observer;
use super::{Event, Frame, FrameKind, Sim};
use crate::access::AccessLayer;
use crate::node_id::NodeId;
use crate::security::Cost;
use crate::time::ns;
use rand::Rng;
use std::collections::HashSet;

/// What the stations know of the relayed messages.
#[derive(Debug, Default)]
pub struct RelayState {
    /// (node, message) pairs already received, signed or forwarded.
    seen: HashSet<(NodeId, u32)>,
}

impl<O: Observer, A: AccessLayer<Frame>> Sim<'_, O, A> {
    /// Schedules the source's messages.
    pub(super) fn start_relay(&mut self) {
        let r = &self.sc.relay;
        if !r.enabled {
            return;
        }
        for seq in 0..r.messages {
            let t = ns(r.start_s + f64::from(seq) * r.interval_s);
            self.schedule(t, Event::RelayGen { seq });
        }
    }

    /// Bytes of a relayed frame: payload, security and MAC overhead.
    fn relay_frame_bytes(&self) -> u32 {
        let r = &self.sc.relay;
        let security = match self.sec.kind {
            v2x_profile::ProtocolId::None => 0,
            _ => r.security_bytes.unwrap_or(self.sec.overhead_certificate),
        };
        r.payload_bytes + security + self.p.mac_overhead
    }

    /// The source generates message `seq`: signed on its processor, then to the MAC.
    pub(super) fn relay_gen(&mut self, seq: u32) {
        let src = NodeId(self.sc.relay.source);
        if self.air.position(src).is_none() {
            return;
        }
        let now = self.now;
        self.catch_up(src, now);
        self.relay.seen.insert((src, seq));
        if now >= self.p.warmup_ns {
            self.trace.relay_generated();
        }
        let frame = Frame {
            kind: FrameKind::Relay {
                seq,
                gen_ns: now,
                hops: 0,
                decided_ns: now,
            },
            src,
            dst: None,
            bytes: self.relay_frame_bytes(),
        };
        let cost = self.sec.sign.clone();
        self.prepare(src, frame, self.sc.relay.access_category, &cost);
    }

    /// A relayed frame decoded at `n`: the first copy goes to verification (at the cost of
    /// verifying a message that carries its certificate), later copies are ignored.
    pub(super) fn relay_received(&mut self, n: NodeId, frame: Frame, dist: f32) {
        let FrameKind::Relay { seq, .. } = frame.kind else {
            return;
        };
        if !self.relay.seen.insert((n, seq)) {
            self.trace.relay_duplicate();
            return;
        }
        let service_ns = self.sec.verify_certificate.sample_ns(self.rng_proc.gen());
        let now = self.now;
        self.enqueue_verify(n, frame, now, dist, service_ns);
    }

    /// `n` verified a relayed message: recorded by its hop count, then forwarded.
    pub(super) fn relay_verified(&mut self, n: NodeId, frame: Frame, rx_ns: u64) {
        let FrameKind::Relay {
            seq,
            gen_ns,
            hops,
            decided_ns,
        } = frame.kind
        else {
            return;
        };
        let now = self.now;
        let hops = hops + 1;
        if gen_ns >= self.p.warmup_ns {
            self.trace
                .relay_verified(hops, now - gen_ns, now - decided_ns, now - rx_ns);
        }
        let r = &self.sc.relay;
        if hops >= r.max_hops {
            return;
        }
        let cost = if r.resign_at_relays {
            self.sec.sign.clone()
        } else {
            Cost::Free
        };
        let forward = Frame {
            kind: FrameKind::Relay {
                seq,
                gen_ns,
                hops,
                decided_ns: now,
            },
            src: n,
            dst: None,
            bytes: frame.bytes,
        };
        self.prepare(n, forward, r.access_category, &cost);
    }
}
