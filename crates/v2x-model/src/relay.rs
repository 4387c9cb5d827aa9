//! The model against a simulated relay chain: paper 003's signed step 1 (M1, Sig, Cert)
//! sent from the first vehicle of a chain to the vehicle k hops away, each relay verifying
//! before it forwards, in the closed form and in `v2x sim` with the same per-operation
//! costs, message bytes, rate and hop distance.
//!
//! Closed form (Sec. 3): T(k) = sign + k * (bytes * 8 / rate + hop / c + verify).
//!
//! What the simulator adds, per hop, on an idle chain:
//! - the frame's air time instead of bytes * 8 / rate: the PHY preamble and SIGNAL field
//!   (40 µs at 10 MHz), the MAC framing (`mac_overhead_bytes`), the service and tail bits and
//!   the padding to whole OFDM symbols;
//! - no propagation delay (a frame is delivered at the end of its transmission);
//! - channel access: 802.11 sends at once on a medium idle for AIFS with no backoff pending
//!   (each relay sends one frame per message, long after its last one); a relay whose
//!   verification ends sooner than AIFS after the frame it received waits out the rest of
//!   AIFS.
//!
//! With other traffic (the vehicles' own CAMs) the relays also wait in their verification
//! queue behind CAMs, and for the medium (AIFS and a backoff when it is busy), and frames
//! can collide (a broadcast is not retransmitted, so a message lost at one hop is lost to
//! the rest of the chain): the difference left once air time and AIFS are accounted for.

use crate::costs::CostSet;
use crate::model::{self, Combination, Conditions, ModelError};
use crate::radio::{Radio, RadioKind, PROPAGATION_M_PER_S};
use crate::scheme::{Scheme, Topology};
use serde::Serialize;
use v2x_sim::scenario::{MobilityConfig, Overrides, Scenario};

/// The shipped relay-chain scenario (the paper's inputs); [`scenario`] rewrites its chain,
/// costs, sizes and rate.
pub const SCENARIO_FILE: &str = "003-relay-chain.toml";
pub const SCENARIO_TEXT: &str = include_str!("../../../scenarios/papers/003-relay-chain.toml");

/// Why a chain could not be compared.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error("scenario {SCENARIO_FILE}: {0}")]
    Scenario(#[from] v2x_sim::ScenarioError),
    #[error(transparent)]
    Sim(#[from] v2x_sim::SimError),
}

/// One chain to compare.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChainSetup {
    /// E.g. `paper 003 DSA`.
    pub label: String,
    /// Signature algorithm of the cost set.
    pub signature: String,
    /// 802.11p rate of the simulation; the closed form uses the same.
    pub rate_mbps: f64,
    pub hop_distance_m: f64,
    /// Hops of the chain (vehicles: hops + 1).
    pub hops: u32,
    /// Messages of the source, one every `interval_s`.
    pub messages: u32,
    pub interval_s: f64,
    /// CAMs every vehicle also sends (Hz), verified on the same processor; 0: none.
    pub cam_rate_hz: f64,
    pub seed: u64,
}

/// The per-hop terms of both sides (ms).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Terms {
    /// Bytes of the message (message, signature, certificate).
    pub bytes: u64,
    pub sign_ms: f64,
    pub verify_ms: f64,
    /// bytes * 8 / rate.
    pub transmission_ms: f64,
    pub propagation_ms: f64,
    /// The simulator's frame: the message plus the MAC framing, in whole OFDM symbols after
    /// the PHY preamble.
    pub air_time_ms: f64,
    pub mac_overhead_bytes: u32,
    /// SIFS + AIFSN x slot of the relay's access category.
    pub aifs_ms: f64,
}

impl Terms {
    /// The closed form for k hops.
    pub fn closed_form_ms(&self, k: u32) -> f64 {
        self.sign_ms + f64::from(k) * (self.transmission_ms + self.propagation_ms + self.verify_ms)
    }

    /// What a relay waits for the medium on an idle chain: the rest of AIFS after the
    /// frame it received, if its verification ends sooner.
    pub fn aifs_wait_ms(&self) -> f64 {
        (self.aifs_ms - self.verify_ms).max(0.0)
    }

    /// What an idle 802.11p chain takes for k hops: the closed form with the simulator's
    /// per-hop physics (air time, no propagation, the AIFS wait at every relay).
    pub fn idle_chain_ms(&self, k: u32) -> f64 {
        self.sign_ms
            + f64::from(k) * (self.air_time_ms + self.verify_ms)
            + f64::from(k.saturating_sub(1)) * self.aifs_wait_ms()
    }
}

/// One hop count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HopRow {
    pub hops: u32,
    pub closed_form_ms: f64,
    /// Mean over the messages verified at that vehicle.
    pub simulated_ms: f64,
    pub simulated_max_ms: f64,
    pub verified: u64,
    pub generated: u64,
    /// Simulated minus closed form.
    pub difference_ms: f64,
    /// Of the difference: the frame's air time over bytes * 8 / rate, less propagation.
    pub air_time_part_ms: f64,
    /// Of the difference: the relays' wait for the rest of AIFS on the idle chain.
    pub aifs_part_ms: f64,
    /// Of the difference: waiting in the relays' verification queues (behind CAMs).
    pub queueing_part_ms: f64,
    /// The rest: the source's wait behind its own CAM signing, channel access on a busy
    /// medium (AIFS + backoff). Approximate when messages are lost: the queueing part sums
    /// means over the messages that reached each hop.
    pub access_part_ms: f64,
    pub reason: String,
}

/// A chain's closed form beside its simulation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChainComparison {
    pub setup: ChainSetup,
    pub costs: String,
    pub terms: Terms,
    pub rows: Vec<HopRow>,
    /// Least-squares slope and intercept of the simulated delay over the hop count, and
    /// the largest distance of a point from that line (ms).
    pub fit: (f64, f64, f64),
}

/// The closed form's terms for `setup` with the cost set's costs (step 1 of Raya–Hubaux
/// pairwise: the source signs, every receiving node verifies; its destination does
/// nothing more).
pub fn terms(set: &CostSet, setup: &ChainSetup, base: &Scenario) -> Result<Terms, ModelError> {
    let mac_overhead_bytes = base.mac.mac_overhead_bytes;
    let cipher = model::combinations(set, Scheme::RayaHubaux, Topology::Pairwise)
        .into_iter()
        .find(|c| c.signature == setup.signature)
        .map(|c| c.cipher)
        .unwrap_or_default();
    let combo = Combination::new(Scheme::RayaHubaux, Topology::Pairwise, &setup.signature, &cipher);
    let radio = Radio::new(RadioKind::Ideal, setup.rate_mbps, setup.hop_distance_m)?;
    let e = model::evaluate(
        set,
        &combo,
        &Conditions {
            radio,
            group_members: 1,
        },
        &[],
    )?;
    let step = &e.steps[0];
    let frame = u32::try_from(step.bytes)
        .unwrap_or(u32::MAX)
        .saturating_add(mac_overhead_bytes);
    Ok(Terms {
        bytes: step.bytes,
        sign_ms: step.processing_fixed_ms,
        verify_ms: step.processing_per_hop_ms,
        transmission_ms: step.transmission_ms,
        propagation_ms: setup.hop_distance_m / PROPAGATION_M_PER_S * 1e3,
        air_time_ms: v2x_sim::phy::airtime_ns(frame, setup.rate_mbps) as f64 / 1e6,
        mac_overhead_bytes,
        aifs_ms: base.mac.aifs_us(base.relay.access_category) / 1e3,
    })
}

/// The shipped scenario rewritten for `setup` with `terms`' costs and sizes.
pub fn scenario(setup: &ChainSetup, terms: &Terms, message_bytes: u64) -> Result<Scenario, v2x_sim::ScenarioError> {
    let mut sc = Scenario::parse(SCENARIO_TEXT, SCENARIO_FILE)?;
    sc.name = format!("relay-chain-{}", setup.label.replace(' ', "-").to_lowercase());
    sc.mobility = MobilityConfig::Static {
        positions_m: (0..=setup.hops)
            .map(|i| [f64::from(i) * setup.hop_distance_m, 0.0])
            .collect(),
    };
    sc.radio.data_rate_mbps = setup.rate_mbps;
    sc.radio.cutoff_range_m = setup.hop_distance_m * 1.2;
    sc.mac.mac_overhead_bytes = terms.mac_overhead_bytes;
    sc.cam.enabled = setup.cam_rate_hz > 0.0;
    if sc.cam.enabled {
        sc.cam.rate_hz = setup.cam_rate_hz;
    }
    let r = &mut sc.relay;
    r.messages = setup.messages;
    r.interval_s = setup.interval_s;
    r.max_hops = setup.hops;
    r.payload_bytes = u32::try_from(message_bytes).unwrap_or(u32::MAX);
    r.security_bytes = Some(u32::try_from(terms.bytes.saturating_sub(message_bytes)).unwrap_or(u32::MAX));
    let v = &mut sc.variants[0];
    v.name = setup.signature.clone();
    v.sign_cost_us = terms.sign_ms * 1e3;
    v.verify_cost_us = terms.verify_ms * 1e3;
    // A CAM carries a digest or the certificate; both cost a verification here.
    v.overhead_bytes = Some(u32::try_from(terms.bytes.saturating_sub(message_bytes)).unwrap_or(u32::MAX));
    v.overhead_with_certificate_bytes = v.overhead_bytes;
    sc.seed = setup.seed;
    let duration_s = sc.relay.start_s + f64::from(setup.messages) * setup.interval_s + 1.0;
    sc.apply(&Overrides {
        duration_s: Some(duration_s),
        seed: None,
        replications: Some(1),
    })?;
    Ok(sc)
}

/// Runs the chain and sets it beside the closed form.
pub fn compare(set: &CostSet, setup: &ChainSetup) -> Result<ChainComparison, RelayError> {
    let base = Scenario::parse(SCENARIO_TEXT, SCENARIO_FILE)?;
    let terms = terms(set, setup, &base)?;
    let sc = scenario(setup, &terms, set.sizes.message_bytes)?;
    let results = v2x_sim::run(&sc, &v2x_report::progress::Silent)?;
    let relay = &results.variants[0].pooled.relay;
    let mut rows = Vec::new();
    let mut queueing = 0.0;
    for k in 1..=setup.hops {
        let h = relay.hops.get(k as usize - 1);
        let (simulated, max, verified) = h.map_or((f64::NAN, f64::NAN, 0), |h| {
            (h.e2e.mean_ms(), h.e2e.max_ns as f64 / 1e6, h.e2e.count)
        });
        // Mean wait in the verification queue at this hop, summed along the chain.
        queueing += h.map_or(f64::NAN, |h| (h.at_receiver.mean_ms() - terms.verify_ms).max(0.0));
        let closed = terms.closed_form_ms(k);
        let air = f64::from(k) * (terms.air_time_ms - terms.transmission_ms - terms.propagation_ms);
        let aifs = f64::from(k.saturating_sub(1)) * terms.aifs_wait_ms();
        let access = simulated - terms.idle_chain_ms(k) - queueing;
        let mut row = HopRow {
            hops: k,
            closed_form_ms: closed,
            simulated_ms: simulated,
            simulated_max_ms: max,
            verified,
            generated: relay.generated,
            difference_ms: simulated - closed,
            air_time_part_ms: air,
            aifs_part_ms: aifs,
            queueing_part_ms: queueing,
            access_part_ms: access,
            reason: String::new(),
        };
        row.reason = reason(&terms, &row, setup);
        rows.push(row);
    }
    let fit = line_fit(&rows);
    Ok(ChainComparison {
        setup: setup.clone(),
        costs: set.name.clone(),
        terms,
        rows,
        fit,
    })
}

/// One line: where the difference comes from.
fn reason(t: &Terms, r: &HopRow, setup: &ChainSetup) -> String {
    let k = f64::from(r.hops);
    let mut parts = vec![format!(
        "frame air time incl. PHY preamble/header and {} B MAC framing over bytes x 8 / rate, less the {:.2} µs propagation the simulator does not delay delivery by: {:+.3} ms",
        t.mac_overhead_bytes,
        t.propagation_ms * 1e3,
        r.air_time_part_ms
    )];
    if r.aifs_part_ms > 0.0 {
        parts.push(format!(
            "AIFS: a relay's verification ({:.1} µs) ends before the medium has been idle for AIFS ({:.0} µs): {:+.3} ms",
            t.verify_ms * 1e3,
            t.aifs_ms * 1e3,
            r.aifs_part_ms
        ));
    }
    // Nanosecond rounding of service and air times stays below 1 µs per hop.
    let noise = k * 1e-3;
    if r.queueing_part_ms > noise {
        parts.push(format!(
            "queueing behind CAM verifications ({} Hz CAMs): {:+.3} ms",
            setup.cam_rate_hz, r.queueing_part_ms
        ));
    }
    if r.access_part_ms.abs() > noise {
        parts.push(format!(
            "the rest (the source's wait behind its own CAM signing, channel access on a medium busy with CAMs: AIFS + backoff): {:+.3} ms",
            r.access_part_ms
        ));
    }
    if r.verified < r.generated {
        parts.push(format!(
            "{} of {} messages lost on the way (collisions with CAMs; a broadcast is not retransmitted, so the rest of the chain loses it too)",
            r.generated - r.verified,
            r.generated
        ));
    }
    parts.join("; ")
}

/// Least squares of the simulated delay on the hop count: (slope, intercept, largest
/// residual), all in ms.
fn line_fit(rows: &[HopRow]) -> (f64, f64, f64) {
    let pts: Vec<(f64, f64)> = rows
        .iter()
        .filter(|r| r.simulated_ms.is_finite())
        .map(|r| (f64::from(r.hops), r.simulated_ms))
        .collect();
    let n = pts.len() as f64;
    if pts.len() < 2 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let worst = pts
        .iter()
        .map(|(x, y)| (y - (slope * x + intercept)).abs())
        .fold(0.0, f64::max);
    (slope, intercept, worst)
}

/// The comparison as a text table (`v2x model --relay-chain`).
pub fn text(c: &ChainComparison) -> String {
    let t = &c.terms;
    let mut s = format!(
        "Relay chain, {} ({} costs): {} B message, sign {:.4} ms, verify {:.4} ms, {} Mbit/s, {} m per hop, {} messages\n",
        c.setup.label, c.costs, t.bytes, t.sign_ms, t.verify_ms, c.setup.rate_mbps, c.setup.hop_distance_m, c.setup.messages
    );
    s.push_str("hops  closed form ms  simulated ms  difference ms  verified  reason\n");
    for r in &c.rows {
        s.push_str(&format!(
            "{:>4}  {:>14.4}  {:>12.4}  {:>+13.4}  {:>4}/{:<3}  {}\n",
            r.hops, r.closed_form_ms, r.simulated_ms, r.difference_ms, r.verified, r.generated, r.reason
        ));
    }
    s
}

/// The chains `v2x reproduce --paper 003` runs: the paper's DSA costs (Tables 2-4) at
/// 12 Mbit/s (the 802.11p rate nearest its 11 Mbit/s) and today's ECDSA P-256 costs at
/// 6 Mbit/s, each on an idle chain and with every vehicle beaconing CAMs at 10 Hz.
pub fn reproduce_setups(quick: bool) -> Vec<(ChainSetup, bool)> {
    let messages = if quick { 3 } else { 20 };
    let chain = |label: &str, signature: &str, rate: f64, cam: f64, paper: bool| {
        (
            ChainSetup {
                label: label.into(),
                signature: signature.into(),
                rate_mbps: rate,
                hop_distance_m: 250.0,
                hops: 10,
                messages,
                // Not a multiple of the CAM period: messages meet CAMs at every phase.
                interval_s: 0.5 + 0.0137,
                cam_rate_hz: cam,
                seed: 1,
            },
            paper,
        )
    };
    vec![
        chain("paper DSA idle", "dsa", 12.0, 0.0, true),
        chain("paper DSA with CAMs", "dsa", 12.0, 10.0, true),
        chain("today ECDSA-P256 idle", "ecdsa-p256", 6.0, 0.0, false),
        chain("today ECDSA-P256 with CAMs", "ecdsa-p256", 6.0, 10.0, false),
    ]
}
