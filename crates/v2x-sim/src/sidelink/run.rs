//! A run on the sidelink: LTE-V2X Mode 4 in 1 ms subframes or NR-V2X Mode 2 in slots of
//! its numerology (a "subframe" below is then a slot), every station's MAC ([`Ue`]), and
//! the reception of each subframe's transmissions.
//!
//! Every transmission of a subframe starts and ends with it, so reception is judged per
//! subframe: a receiver sums, per sub-channel, the power of everything sent on it
//! (path loss from `[radio.path_loss]`, log-normal shadowing, fading from
//! `[radio.fading]`, each drawn per transmission and receiver with the run's keyed draws);
//! a transmission's SINR is the mean over its sub-channels of its own power against
//! noise plus the others' on that sub-channel; the BLER at that SINR (Mode 4: the MCS's
//! curve; NR: `nr_bler`'s approximation for the transport block) decides
//! the data. A receiver sending in the subframe receives nothing (half duplex); a
//! transmission below the sensing threshold is not detected (neither its SCI nor its
//! data). What each station hears feeds its sensing: the SCIs detected (RSRP and the
//! announced reservation) and the S-RSSI per sub-channel.
//!
//! With several threads (`[engine] threads`, `v2x sim --threads`) the transmissions of a
//! subframe are shared among them for their links' received power, then for each link's
//! outcome, each writing only its own transmission's buffers with keyed draws; then the
//! receivers, in contiguous ranges, take in the SCIs they detected in transmission order.
//! The sums over transmissions (the power per sub-channel at a receiver), the S-RSSI, the
//! metrics and the MAC stay on one thread in transmission order: a run is identical for
//! a seed whatever the thread count.

use super::bler::BlerCurve;
use super::nr_bler;
use super::pool::ResourcePool;
use super::sps::{Heard, SensedPower};
use super::ue::{MacParams, NrMac, Send, Ue};
use crate::channel::{dbm_to_mw, noise_dbm, Fading, GainQuantiles, PathLoss};
use crate::engine::security_layer::{Decoded, SecurityLayer};
use crate::error::ScenarioError;
use crate::error::SimError;
use crate::keyed_rng::{stream, Draw, RunDice, Stream, TxDice};
use crate::metrics::{DistanceBin, RunMetrics};
use crate::metrics::{LossBin, SidelinkStats};
use crate::mobility::{Mobility, Position};
use crate::node_id::NodeId;
use crate::scenario::{AccessKind, CertificatePolicy, Scenario};
use crate::security::SecurityModel;
use crate::spatial::SpatialGrid;
use rand::Rng;
use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, Normal};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

const SUBFRAME_NS: u64 = 1_000_000;
/// Subframes the schedule looks ahead at most on LTE (RRI 1000 + T2 100), rounded up.
const WHEEL: usize = 2048;

/// The BLER curve of a transmission: LTE's one per MCS; NR's by its transport block, so
/// by its sub-channels.
enum Curves {
    Lte(BlerCurve),
    Nr(Vec<nr_bler::Block>),
}

impl Curves {
    fn bler(&self, len: u16, sinr_db: f64) -> f64 {
        match self {
            Curves::Lte(c) => c.bler(sinr_db),
            Curves::Nr(by_len) => by_len[usize::from(len)].bler(sinr_db),
        }
    }
}

/// The bytes of a CAM: message, security (certificate or digest), layer-2 overhead.
struct Sizes {
    payload: u32,
    digest: u32,
    certificate: u32,
    attached_key: u32,
    l2: u32,
    /// Which of the two the variant's schedule sends.
    sends_digest: bool,
    sends_certificate: bool,
    /// A P2PCD request's bytes where the variant asks (`p2pcd`), else 0.
    request: u32,
}

impl Sizes {
    fn bytes(&self, certificate: bool, attached_key: bool) -> u32 {
        let sec = if certificate { self.certificate } else { self.digest };
        self.payload + sec + if attached_key { self.attached_key } else { 0 } + self.l2
    }
    /// The security overheads the schedule sends.
    fn overheads(&self) -> impl Iterator<Item = u32> + '_ {
        [
            (self.sends_digest, self.digest),
            (self.sends_certificate, self.certificate),
        ]
        .into_iter()
        .filter_map(|(sent, bytes)| sent.then_some(bytes))
    }
    fn smallest(&self) -> u32 {
        self.payload + self.overheads().min().unwrap_or(0) + self.l2
    }
    fn largest(&self) -> u32 {
        self.payload + self.overheads().max().unwrap_or(0) + self.attached_key + self.request + self.l2
    }
}

/// A transmission of the current subframe.
struct Tx {
    src: u32,
    /// Its number in the run (the keyed draws of the receivers' processing).
    serial: u64,
    pos: Position,
    send: Send,
    /// Its keyed draws at each receiver.
    dice: TxDice,
}

/// One receiver of a transmission of the current subframe.
struct Link {
    rx: u32,
    mw: f64,
    dist: f64,
}

/// What became of a link's packet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// The receiver was sending.
    HalfDuplex,
    /// Below the sensing threshold: neither SCI nor data.
    NotDetected,
    /// The data lost at the SINR, and it would have been at the SNR alone.
    Propagation,
    /// The data lost at the SINR only because of the others on its sub-channels.
    Collision,
    Received,
}

/// The buffers of one transmission of the current subframe, kept across subframes.
#[derive(Default)]
struct TxLinks {
    near: Vec<(NodeId, f64)>,
    links: Vec<Link>,
    outcomes: Vec<Outcome>,
}

/// Calls `f` on each transmission with its buffers: on the run's threads when it has
/// several, each call writing only its own buffers.
fn each_tx(pool: Option<&rayon::ThreadPool>, txs: &[Tx], bufs: &mut [TxLinks], f: impl Fn(&Tx, &mut TxLinks) + Sync) {
    match pool {
        Some(pool) => pool.install(|| bufs.par_iter_mut().zip(txs).for_each(|(b, tx)| f(tx, b))),
        None => bufs.iter_mut().zip(txs).for_each(|(b, tx)| f(tx, b)),
    }
}

/// The radio channel of a sidelink run.
struct Channel {
    path_loss: PathLoss,
    fading: Fading,
    /// The fading's gain quantiles per Nakagami shape it uses.
    quantiles: Vec<(f64, GainQuantiles)>,
    tx_dbm: f64,
    shadowing_sd_db: f64,
    normal: Normal,
}

impl Channel {
    /// Received power (mW) of the transmission drawing `d` at `rx`, `dist` metres away.
    fn power_mw(&self, d: TxDice, rx: NodeId, dist: f64) -> f64 {
        let shadow = if self.shadowing_sd_db > 0.0 {
            let u = d.uniform(rx, Draw::Shadowing).clamp(1e-15, 1.0 - 1e-15);
            self.shadowing_sd_db * self.normal.inverse_cdf(u)
        } else {
            0.0
        };
        let gain = match self.fading.m_at(dist) {
            None => 1.0,
            Some(m) => {
                let (_, q) = self
                    .quantiles
                    .iter()
                    .find(|(q, _)| *q == m)
                    .expect("the quantiles of every shape of the fading model");
                q.quantile(d.uniform(rx, Draw::Fading))
            }
        };
        dbm_to_mw(self.tx_dbm - self.path_loss.loss_db(dist) + shadow) * gain
    }
}

/// One replication of a sidelink scenario with the security model `sec`: the common
/// metrics (PDR by distance, inter-packet gaps, CBR) with the sidelink's own
/// ([`RunMetrics::sidelink`]); also the node count and the radius of the receivers.
pub fn run(sc: &Scenario, sec: &SecurityModel, seed: u64) -> Result<(RunMetrics, usize, f64), SimError> {
    let started = std::time::Instant::now();
    let cfg = &sc.sidelink;
    let nr = (sc.access.kind == AccessKind::NrV2xMode2).then(|| cfg.nr());
    let (pool, bandwidth_mhz, channel_prbs, slot_ns) = match &nr {
        None => (
            ResourcePool::new(cfg),
            cfg.bandwidth_mhz,
            cfg.channel_prbs(),
            SUBFRAME_NS,
        ),
        Some(c) => (
            ResourcePool::nr(c),
            c.bandwidth_mhz,
            c.channel_prbs().unwrap_or(1),
            c.slot_ns(),
        ),
    };
    let curve = match &nr {
        None => Curves::Lte(cfg.curve()?),
        Some(c) => Curves::Nr(
            (0..=pool.subchannels)
                .map(|l| {
                    let prbs = pool.data_prbs(l.max(1)).map(u32::from);
                    prbs.zip(pool.nr.as_ref())
                        .and_then(|(prbs, layout)| nr_bler::Block::of(layout, prbs, c.implementation_loss_db))
                        .ok_or_else(|| ScenarioError::invalid("sidelink.nr.mcs", "no transport block on a sub-channel"))
                })
                .collect::<Result<_, _>>()?,
        ),
    };
    let s = usize::from(pool.subchannels);
    let radio = &sc.radio;
    let prb_noise_mw =
        dbm_to_mw(noise_dbm(f64::from(bandwidth_mhz) * 1e6, radio.noise_figure_db)) / f64::from(channel_prbs);
    let subchannel_noise_mw = prb_noise_mw * f64::from(pool.size_prb);
    // Noise over the data PRBs of a transmission on `len` sub-channels.
    let data_noise_mw: Vec<f64> = (0..=pool.subchannels)
        .map(|l| prb_noise_mw * f64::from(pool.data_prbs(l).unwrap_or(1)))
        .collect();
    let sizes = Sizes {
        payload: sc.cam.payload_bytes,
        digest: sec.overhead_digest,
        certificate: sec.overhead_certificate,
        attached_key: if sec.kind == v2x_profile::ProtocolId::TeslaAttached {
            sec.tesla_attached_key_bytes
        } else {
            0
        },
        l2: cfg.l2_overhead_bytes,
        sends_digest: sec.certificate != CertificatePolicy::Always,
        sends_certificate: sec.certificate != CertificatePolicy::Never,
        request: if sec.p2pcd {
            crate::security::p2pcd::request_bytes(crate::security::p2pcd::MAX_REQUESTS_PER_CAM)
        } else {
            0
        },
    };
    let len_of = |bytes: u32| pool.subchannels_for(bytes).unwrap_or(pool.subchannels);
    let (rri, window) = match &nr {
        None => (cfg.rri_ms, cfg.selection_window_ms),
        Some(c) => (c.slots(c.rri_ms), [c.t1_slots, c.slots(c.t2_ms)]),
    };
    let p = MacParams {
        pool,
        rri,
        window,
        counter: cfg.reselection_counter,
        keep: cfg.prob_resource_keep,
        threshold_mw: dbm_to_mw(cfg.rsrp_threshold_dbm),
        share: cfg.min_candidate_share,
        noise_mw: subchannel_noise_mw,
        policy: cfg.reservation_policy,
        smallest_len: len_of(sizes.smallest()),
        largest_len: len_of(sizes.largest()),
        nr: nr.as_ref().map(|c| {
            let mut periods = [0u64; 16];
            for (to, &ms) in periods.iter_mut().zip(&c.reservation_periods_ms) {
                *to = u64::from(c.slots(ms));
            }
            NrMac {
                periods,
                periods_len: c.reservation_periods_ms.len().min(16),
                window: u64::from(c.slots(c.sensing_window_ms)),
                span: u64::from(c.slots(c.t2_ms)),
                proc0: u64::from(c.t_proc0()),
                reevaluate: c.re_evaluation.then_some(u64::from(c.t_proc1())),
            }
        }),
    };
    // The schedule's wheel covers the longest look-ahead (a reservation period and T2).
    let wheel_len = match &nr {
        None => WHEEL,
        Some(c) => {
            let longest = c.reservation_periods_ms.iter().max().copied().unwrap_or(0) + c.t2_ms;
            (c.slots(longest) as usize + 1).next_power_of_two().max(WHEEL)
        }
    };
    let fading = Fading::new(&radio.fading);
    let channel = Channel {
        path_loss: PathLoss::new(&radio.path_loss, radio.frequency_hz),
        quantiles: fading
            .shapes()
            .into_iter()
            .map(|m| (m, GainQuantiles::new(m)))
            .collect(),
        fading,
        tx_dbm: radio.tx_power_dbm,
        shadowing_sd_db: cfg.shadowing_sd_db,
        normal: Normal::new(0.0, 1.0).expect("a standard normal"),
    };
    // Receivers up to where the mean power is 10 dB below a sub-channel's noise (or the
    // scenario's cutoff), and at least as far as the metrics reach.
    let cutoff = if radio.cutoff_range_m > 0.0 {
        radio.cutoff_range_m
    } else {
        channel
            .path_loss
            .range_m(
                radio.tx_power_dbm,
                crate::channel::mw_to_dbm(subchannel_noise_mw) - 10.0,
            )
            .min(100_000.0)
    };
    let radius = cutoff.max(sc.metrics.max_distance_m);

    let mut rng_mobility = stream(seed, Stream::Mobility);
    let mut mobility = Mobility::build(&sc.mobility, &mut rng_mobility)?;
    let n = mobility.nodes();
    let mut grid = SpatialGrid::wrapping(radius / 4.0, sc.mobility.periods());
    let mut pos: Vec<Option<Position>> = Vec::with_capacity(n);
    mobility.positions_at(0.0, &mut rng_mobility, &mut pos);
    grid.rebuild(&pos);
    // Stations on the map (they change only at a mobility update).
    let mut on_map = pos.iter().filter(|q| q.is_some()).count() as u64;
    let mut next_update_ns = secs_ns(mobility.update_interval_s);

    let dice = RunDice::new(seed);
    let threads = sc.engine.threads_per_run(sc.variants.len() * sc.replications as usize);
    let pool = if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|source| SimError::Threads { threads, source })?;
        Some(pool)
    } else {
        None
    };
    let receivers_per_thread = n.div_ceil(threads).max(1);
    let mut rng_mac = stream(seed, Stream::Mac);
    let mut rng_app = stream(seed, Stream::Applications);
    let mut ues: Vec<Ue> = (0..n).map(|_| Ue::new(&p)).collect();
    // What every station sensed per sub-channel (LTE ranks by it; NR does not).
    let mut power = match &nr {
        None => SensedPower::new(n, p.pool.subchannels),
        Some(_) => SensedPower::none(),
    };
    let mut security = SecurityLayer::new(sc, sec, n, mobility.vehicles, seed);
    // The CAMs decoded in one subframe, for the receivers' security layers.
    let mut decoded: Vec<Decoded> = Vec::new();
    let signs = crate::security::carries_certificates(sec.kind);
    let period_ns = secs_ns(1.0 / sc.cam.rate_hz);
    let jitter_s = sc.cam.generation_jitter_ms / 1e3;
    let mut gens: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
    if sc.cam.enabled {
        for i in 0..n {
            if i >= mobility.vehicles && !sc.cam.rsus_send {
                continue;
            }
            let offset = match sc.cam.start_offsets_s.get(i) {
                Some(o) => *o,
                None => rng_app.gen_range(0.0..1.0 / sc.cam.rate_hz),
            };
            gens.push(Reverse((secs_ns(offset), i as u32)));
        }
    }

    let warmup_ns = secs_ns(sc.warmup_s);
    let end_sf = secs_ns(sc.duration_s) / slot_ns;
    let bin_m = sc.metrics.distance_bin_m;
    let bins = (sc.metrics.max_distance_m / bin_m).ceil() as usize;
    let mut m = RunMetrics {
        bins: vec![DistanceBin::default(); bins],
        ..Default::default()
    };
    let mut st = SidelinkStats {
        losses: vec![LossBin::default(); bins],
        ..Default::default()
    };
    let sensing_mw = dbm_to_mw(cfg.sensing_threshold_dbm);
    let cbr_mw = dbm_to_mw(cfg.cbr_threshold_dbm);

    let mut wheel: Vec<Vec<(u64, u32)>> = vec![Vec::new(); wheel_len];
    let mut wake = Vec::new();
    let mut due = Vec::new();
    let mut txs: Vec<Tx> = Vec::new();
    let mut per_tx: Vec<TxLinks> = Vec::new();
    let mut sending_in = vec![u64::MAX; n];
    let mut touched_in = vec![u64::MAX; n];
    let mut touched: Vec<u32> = Vec::new();
    let mut acc = vec![0f64; n * s];
    // Last reception per (sender, receiver) within the headline range, by sender: a
    // transmission's receptions probe one small table (the fast non-cryptographic hash,
    // since nothing untrusted keys it).
    let mut last_rx: Vec<HashMap<u32, u64, foldhash::fast::FixedState>> = vec![HashMap::default(); n];
    let mut serial = 0u64;

    for k in 0..end_sf {
        let now_ns = k * slot_ns;
        let warm = now_ns >= warmup_ns;
        if now_ns >= next_update_ns {
            mobility.positions_at(now_ns as f64 / 1e9, &mut rng_mobility, &mut pos);
            grid.rebuild(&pos);
            on_map = pos.iter().filter(|q| q.is_some()).count() as u64;
            next_update_ns += secs_ns(mobility.update_interval_s);
        }
        security.sample_awareness(now_ns, &grid, &pos);
        // Messages generated since the last subframe reach the MAC.
        while let Some(&Reverse((t, i))) = gens.peek() {
            if t > now_ns {
                break;
            }
            gens.pop();
            let jitter = if jitter_s > 0.0 {
                secs_ns(rng_app.gen_range(0.0..jitter_s))
            } else {
                0
            };
            gens.push(Reverse((t + period_ns + jitter, i)));
            let u = i as usize;
            let Some(at) = pos[u] else {
                continue;
            };
            let cam = security.next_cam(NodeId(i), t, at);
            let (seq, certificate) = (u64::from(cam.seq), cam.certificate);
            let asked = crate::security::p2pcd::request_bytes(cam.p2pcd_request.as_ref().map_or(0, |r| r.len()));
            let asks = cam.p2pcd_request.is_some();
            let bytes = sizes.bytes(certificate, sizes.attached_key > 0 && seq > 0) + asked;
            if t >= warmup_ns {
                m.cams_generated += 1;
                m.certificates_sent += u64::from(certificate && signs);
                m.p2pcd_requests_sent += u64::from(asks);
                // Larger than the whole pool's transport block: the MAC refuses it
                // (`Ue::arrive` drops it, counted `oversize`); no fragmentation below.
                if p.pool.subchannels_for(bytes).is_none() {
                    m.cams_refused_oversize += 1;
                    m.frames_refused_oversize += 1;
                }
            }
            ues[u].arrive(k, seq, t, bytes, &p, power.of(u), &mut rng_mac, &mut st, &mut wake);
            for w in wake.drain(..) {
                wheel[(w as usize) % wheel_len].push((w, i));
            }
        }
        // This subframe's transmissions.
        let slot = (k as usize) % wheel_len;
        due.clear();
        wheel[slot].retain(|&(t, i)| {
            if t == k {
                due.push(i);
            }
            t != k
        });
        txs.clear();
        for &i in &due {
            let u = i as usize;
            let send = ues[u].due(k, &p, power.of(u), &mut rng_mac, &mut st, &mut wake);
            for w in wake.drain(..) {
                wheel[(w as usize) % wheel_len].push((w, i));
            }
            let (Some(send), Some(at)) = (send, pos[u]) else {
                continue;
            };
            ues[u].sensing.sent(k);
            sending_in[u] = k;
            serial += 1;
            txs.push(Tx {
                src: i,
                serial,
                pos: at,
                send,
                dice: dice.transmission(serial),
            });
            if send.packet.gen_ns >= warmup_ns {
                m.frames_sent += 1;
                m.mac_delay.record(now_ns.saturating_sub(send.packet.gen_ns));
                st.transmissions += 1;
                st.subchannels_used += u64::from(send.len);
            }
        }
        if warm {
            st.cbr_monitored += (on_map - txs.len() as u64) * s as u64;
            if subchannel_noise_mw > cbr_mw {
                st.cbr_busy += (on_map - txs.len() as u64) * s as u64;
            }
        }
        if txs.is_empty() {
            continue;
        }
        // Every transmission at every receiver in range (on the run's threads).
        if per_tx.len() < txs.len() {
            per_tx.resize_with(txs.len(), TxLinks::default);
        }
        let bufs = &mut per_tx[..txs.len()];
        each_tx(pool.as_ref(), &txs, bufs, |tx, b| {
            grid.within(tx.pos, radius, &mut b.near);
            b.links.clear();
            b.links
                .extend(b.near.iter().filter(|(r, _)| r.0 != tx.src).map(|&(r, dist)| Link {
                    rx: r.0,
                    mw: channel.power_mw(tx.dice, r, dist),
                    dist,
                }));
        });
        // The power per sub-channel at each receiver, summed in transmission order.
        touched.clear();
        for (tx, b) in txs.iter().zip(bufs.iter()) {
            m.signals += b.links.len() as u64;
            let first = usize::from(tx.send.first);
            let len = usize::from(tx.send.len);
            for l in &b.links {
                let ri = l.rx as usize;
                if sending_in[ri] == k {
                    continue;
                }
                if touched_in[ri] != k {
                    touched_in[ri] = k;
                    touched.push(l.rx);
                }
                let share = l.mw / f64::from(tx.send.len);
                for c in &mut acc[ri * s + first..ri * s + first + len] {
                    *c += share;
                }
            }
        }
        // Each link's outcome (on the run's threads).
        let (acc_now, sending_now) = (&acc, &sending_in);
        each_tx(pool.as_ref(), &txs, bufs, |tx, b| {
            let len = f64::from(tx.send.len);
            let noise = data_noise_mw[usize::from(tx.send.len)];
            b.outcomes.clear();
            b.outcomes.extend(b.links.iter().map(|l| {
                let ri = l.rx as usize;
                if sending_now[ri] == k {
                    return Outcome::HalfDuplex;
                }
                if l.mw < sensing_mw {
                    return Outcome::NotDetected;
                }
                let own = l.mw / len;
                let first = ri * s + usize::from(tx.send.first);
                let sinr = acc_now[first..first + usize::from(tx.send.len)]
                    .iter()
                    .map(|&total| own / (noise / len + (total - own).max(0.0)))
                    .sum::<f64>()
                    / len;
                let u = tx.dice.uniform(NodeId(l.rx), Draw::Data);
                if u >= curve.bler(tx.send.len, 10.0 * sinr.log10()) {
                    Outcome::Received
                } else if u < curve.bler(tx.send.len, 10.0 * (l.mw / noise).log10()) {
                    Outcome::Propagation
                } else {
                    Outcome::Collision
                }
            }));
        });
        // The SCIs each receiver detected, in transmission order (the receivers split
        // among the run's threads in contiguous ranges).
        let hear = |base: usize, ues: &mut [Ue]| {
            for (tx, b) in txs.iter().zip(bufs.iter()) {
                for (l, &outcome) in b.links.iter().zip(&b.outcomes) {
                    let Some(ue) = (l.rx as usize).checked_sub(base).and_then(|i| ues.get_mut(i)) else {
                        continue;
                    };
                    if !matches!(outcome, Outcome::HalfDuplex | Outcome::NotDetected) {
                        ue.sensing.heard(Heard {
                            subframe: k,
                            first: tx.send.first,
                            len: tx.send.len,
                            rsrp_mw: l.mw,
                            rri: tx.send.rri,
                        });
                    }
                }
            }
        };
        match pool.as_ref() {
            Some(pool) => pool.install(|| {
                ues.par_chunks_mut(receivers_per_thread)
                    .enumerate()
                    .for_each(|(i, part)| hear(i * receivers_per_thread, part))
            }),
            None => hear(0, &mut ues),
        }
        decoded.clear();
        // The metrics, in transmission order.
        for (tx, b) in txs.iter().zip(bufs.iter()) {
            let last_rx = &mut last_rx[tx.src as usize];
            for (l, &outcome) in b.links.iter().zip(&b.outcomes) {
                let counted = tx.send.packet.gen_ns >= warmup_ns && l.dist <= sc.metrics.max_distance_m;
                if outcome == Outcome::Received {
                    // Received as the subframe ends.
                    decoded.push(Decoded {
                        src: NodeId(tx.src),
                        seq: tx.send.packet.seq as u32,
                        rx: NodeId(l.rx),
                        serial: tx.serial,
                        dist: l.dist,
                        now: now_ns + slot_ns,
                    });
                }
                if !counted {
                    m.receptions += u64::from(outcome == Outcome::Received);
                    continue;
                }
                let bin = (l.dist / bin_m) as usize;
                let headline = l.dist <= sc.metrics.headline_range_m;
                if let Some(b) = m.bins.get_mut(bin) {
                    b.attempts += 1;
                }
                m.headline_attempts += u64::from(headline);
                let cause = st.losses.get_mut(bin);
                match outcome {
                    Outcome::HalfDuplex => cause.map_or((), |b| b.half_duplex += 1),
                    Outcome::NotDetected => cause.map_or((), |b| b.sensing += 1),
                    Outcome::Propagation => cause.map_or((), |b| b.propagation += 1),
                    Outcome::Collision => cause.map_or((), |b| b.collision += 1),
                    Outcome::Received => {
                        m.receptions += 1;
                        if let Some(b) = m.bins.get_mut(bin) {
                            b.received += 1;
                        }
                        if headline {
                            m.headline_received += 1;
                            if let Some(last) = last_rx.insert(l.rx, now_ns) {
                                m.inter_arrival.record(now_ns - last);
                            }
                        }
                    }
                }
            }
        }
        security.decoded_all(&decoded, pool.as_ref(), receivers_per_thread);
        // What each receiver sensed per sub-channel.
        for &r in &touched {
            let ri = r as usize;
            for c in 0..s {
                let mw = std::mem::take(&mut acc[ri * s + c]);
                if mw > 0.0 {
                    power.receive(ri, k, c as u16, mw);
                }
                if warm && mw + subchannel_noise_mw > cbr_mw && subchannel_noise_mw <= cbr_mw {
                    st.cbr_busy += 1;
                }
            }
        }
        m.events += 1;
    }
    security.finish(secs_ns(sc.duration_s), &mut m);
    // The CBR as station time: sub-channel-subframes in ns per sub-channel.
    let scale = slot_ns as f64 / s as f64;
    m.presence_ns = st.cbr_monitored as f64 * scale;
    m.busy_ns = st.cbr_busy as f64 * scale;
    m.sidelink = Some(st);
    m.wall_s = started.elapsed().as_secs_f64();
    Ok((m, n, radius))
}

fn secs_ns(s: f64) -> u64 {
    crate::time::ns(s)
}
