//! Applications: periodic CAM/BSM beacons (with the certificate schedule and TESLA key
//! disclosure of the variant), the V2I query service, attackers, and TESLA key frames.

use super::trace::Observer;
use super::{Event, Frame, FrameKind, OwnCam, Sim};
use crate::access::AccessLayer;
use crate::node_id::NodeId;
use crate::scenario::AttackKind;
use crate::time::ns;
use rand::Rng;
use v2x_profile::ProtocolId;

impl<O: Observer, A: AccessLayer<Frame>> Sim<'_, O, A> {
    /// Schedules the first CAM of every station, the first query of every vehicle and
    /// the attackers (distinct vehicles chosen by the seed).
    pub(super) fn start_applications(&mut self) {
        let sc = self.sc;
        let vehicles = self.mobility.vehicles;
        if sc.cam.enabled {
            let period = 1.0 / sc.cam.rate_hz;
            for i in NodeId::all(self.nodes.len()) {
                if self.is_rsu[i.index()] && !sc.cam.rsus_send {
                    continue;
                }
                let offset = match sc.cam.start_offsets_s.get(i.index()) {
                    Some(o) => *o,
                    None => self.rng_app.gen_range(0.0..period),
                };
                self.schedule(ns(offset), Event::CamGen(i));
            }
        }
        if sc.query.enabled && sc.query.request_rate_per_vehicle_hz > 0.0 && !self.mobility.rsus.is_empty() {
            for i in NodeId::all(vehicles) {
                let t = self.exp_delay(sc.query.request_rate_per_vehicle_hz);
                self.schedule(t, Event::QueryGen(i));
            }
        }
        let mut order: Vec<NodeId> = NodeId::all(vehicles).collect();
        for i in (1..order.len()).rev() {
            let j = self.rng_app.gen_range(0..=i);
            order.swap(i, j);
        }
        let mut next = 0usize;
        for (k, a) in sc.attackers.iter().enumerate() {
            for _ in 0..a.count {
                let Some(&node) = order.get(next) else { break };
                next += 1;
                self.attackers.push((node, k));
                let phase = self.rng_app.gen_range(0.0..1.0 / a.rate_hz);
                self.schedule(ns(a.start_s + phase), Event::AttackGen { node, attacker: k });
            }
        }
    }

    fn exp_delay(&mut self, rate_hz: f64) -> u64 {
        let u: f64 = self.rng_app.gen_range(f64::MIN_POSITIVE..1.0);
        self.now + ns(-u.ln() / rate_hz)
    }

    /// Whole MPDU bytes: payload, security and MAC/LLC overhead.
    fn frame_bytes(&self, payload: u32, security: u32) -> u32 {
        payload + security + self.p.mac_overhead
    }

    pub(super) fn cam_gen(&mut self, n: NodeId) {
        // EN 302 637-2: an interval may grow up to T_GenCamMax, never shrink below the period.
        let jitter_s = self.sc.cam.generation_jitter_ms / 1000.0;
        let jitter = if jitter_s > 0.0 {
            ns(self.rng_app.gen_range(0.0..jitter_s))
        } else {
            0
        };
        let period = ns(1.0 / self.sc.cam.rate_hz);
        self.schedule(self.now + period + jitter, Event::CamGen(n));
        let Some(pos) = self.air.position(n) else { return };
        let sec = self.sec;
        let now = self.now;
        let OwnCam {
            seq,
            certificate,
            p2pcd_request,
        } = self.nodes[n].next_cam(sec, now);
        let overhead = if certificate {
            sec.overhead_certificate
        } else {
            sec.overhead_digest
        };
        // Real crypto: the real encoding decides the bytes and the certificate.
        let (certificate, overhead) = match self.crypto.as_mut().map(|c| c.secure_cam(n, seq, now)) {
            None => (certificate, overhead),
            Some(Ok(s)) => (s.certificate, s.security_bytes),
            Some(Err(_)) => {
                self.trace.rejected("encap-failed");
                return;
            }
        };
        let attached_key = (sec.kind == ProtocolId::TeslaAttached && seq > 0).then(|| seq - 1);
        let extra = if attached_key.is_some() {
            sec.tesla_attached_key_bytes
        } else {
            0
        };
        let ask = crate::security::p2pcd::request_bytes(p2pcd_request.as_ref().map_or(0, |r| r.len()));
        let bytes = self.frame_bytes(self.sc.cam.payload_bytes, overhead + extra + ask);
        if now >= self.p.warmup_ns {
            self.trace.cam_generated();
            if p2pcd_request.is_some() {
                self.trace.p2pcd_request_sent();
            }
            if certificate && crate::security::carries_certificates(sec.kind) {
                self.trace.certificate_sent();
            }
        }
        self.trace.cam_sent(n, seq, now, pos);
        let frame = Frame {
            kind: FrameKind::Cam {
                seq,
                gen_ns: now,
                pos,
                certificate,
                attached_key,
                p2pcd_request,
            },
            src: n,
            dst: None,
            bytes,
        };
        if sec.kind == ProtocolId::Tesla {
            self.schedule(
                now + sec.tesla_disclosure_ns,
                Event::TeslaKey { node: n, interval: seq },
            );
        }
        let ac = self.sc.cam.access_category;
        let cost = self.sec.sign.clone();
        self.prepare(n, frame, ac, &cost);
    }

    /// A separate TESLA key packet disclosing the key of `interval`.
    pub(super) fn tesla_key_gen(&mut self, node: NodeId, interval: u32) {
        let now = self.now;
        let bytes = match self.crypto.as_mut() {
            None => self.sec.tesla_key_frame_bytes,
            // The real sender's key packet, when one is due.
            Some(c) => match c.disclose_key(node, interval, now) {
                Some(b) => b + self.p.mac_overhead,
                None => return,
            },
        };
        let frame = Frame {
            kind: FrameKind::TeslaKey { interval },
            src: node,
            dst: None,
            bytes,
        };
        let ac = self.sc.cam.access_category;
        self.mac_enqueue(node, ac, frame);
    }

    pub(super) fn query_gen(&mut self, n: NodeId) {
        let t = self.exp_delay(self.sc.query.request_rate_per_vehicle_hz);
        self.schedule(t, Event::QueryGen(n));
        let Some(pos) = self.air.position(n) else { return };
        let vehicles = self.mobility.vehicles;
        let Some((rsu, _)) = self
            .mobility
            .rsus
            .iter()
            .enumerate()
            .map(|(k, r)| (k, self.air.grid().distance(*r, pos)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
        else {
            return;
        };
        let q = &self.sc.query;
        let counted = self.now >= self.p.warmup_ns && self.now + ns(q.timeout_s) <= self.p.end_ns;
        self.query_id += 1;
        let id = if counted { self.query_id } else { 0 };
        if counted {
            self.trace.query_request_sent();
        }
        let frame = Frame {
            kind: FrameKind::QueryRequest {
                id,
                gen_ns: self.now,
                vehicle: n,
            },
            src: n,
            dst: Some(NodeId::at(vehicles + rsu)),
            bytes: self.frame_bytes(q.request_payload_bytes, self.query_encryption_bytes()),
        };
        let cost = self.sec.encrypt.clone();
        self.prepare(n, frame, q.access_category, &cost);
    }

    /// The reply of a road side unit to a decrypted request.
    pub(super) fn query_reply(&mut self, n: NodeId, id: u32, gen_ns: u64, vehicle: NodeId) {
        let q = &self.sc.query;
        let frame = Frame {
            kind: FrameKind::QueryReply { id, gen_ns },
            src: n,
            dst: Some(vehicle),
            bytes: self.frame_bytes(q.reply_payload_bytes, self.query_encryption_bytes()),
        };
        let cost = self.sec.encrypt.clone();
        self.prepare(n, frame, q.access_category, &cost);
    }

    /// ECIES + AES-CCM bytes on a query message (none without security).
    fn query_encryption_bytes(&self) -> u32 {
        if self.sec.kind == ProtocolId::None {
            0
        } else {
            self.sc.query.encryption_overhead_bytes
        }
    }

    pub(super) fn attack_gen(&mut self, n: NodeId, k: usize) {
        let Some(a) = self.sc.attackers.get(k) else { return };
        let kind = a.kind;
        let period = ns(1.0 / a.rate_hz);
        self.schedule(self.now + period, Event::AttackGen { node: n, attacker: k });
        if self.air.position(n).is_none() {
            return;
        }
        let now = self.now;
        let security = match self.crypto.as_mut().map(|c| c.forge(n, kind, now)) {
            None if kind == AttackKind::Unsigned => 0,
            None => self.sec.overhead_digest,
            Some(Ok(bytes)) => bytes,
            Some(Err(_)) => {
                self.trace.rejected("forge-failed");
                return;
            }
        };
        let replay = match kind {
            AttackKind::Replay => match self.nodes[n].last_heard_cam {
                Some(r) => Some(r),
                None => return,
            },
            _ => None,
        };
        let bytes = self.frame_bytes(a.payload_bytes, security);
        if self.now >= self.p.warmup_ns {
            self.trace.attack_frame_sent();
        }
        let frame = Frame {
            kind: FrameKind::Attack {
                kind,
                gen_ns: now,
                replay,
            },
            src: n,
            dst: None,
            bytes,
        };
        self.mac_enqueue(n, self.sc.cam.access_category, frame);
    }
}
