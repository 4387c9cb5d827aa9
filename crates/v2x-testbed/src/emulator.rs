//! The channel emulator (`v2x channel-emulator --config FILE`): one process that relays
//! every frame between the stations through the simulator's air ([`v2x_sim::air`]), so
//! that real secured packets cross a simulated radio channel. The air is the one `v2x sim`
//! drives in simulated time; here [`run`] plays it in wall time ([`Standalone`]).
//!
//! Senders send each datagram to the emulator instead of to the receivers. The emulator
//! knows every station's address and position; for each frame the air
//! - refuses a frame whose MSDU exceeds 802.11's 2,304 octets as the simulator does
//!   ([`v2x_sim::access::fits_one_msdu`]: 802.11 does not fragment broadcast MSDUs):
//!   it never goes on the air and every link counts it as `refused-oversize` (a
//!   post-quantum message with an ML-DSA-44 signature, 2,420 octets, is one);
//! - queues it in the sender's access layer: the simulator's EDCA
//!   ([`v2x_sim::access::Edca`]), which goes on the air after AIFS and its back-off, frozen
//!   while the sender's radio senses the medium busy; or, with `carrier_sense = false`,
//!   [`v2x_sim::access::Immediate`] (on the air as soon as the sender's previous frame is
//!   done);
//! - charges the air time of the real packet plus the MAC overhead at the data rate
//!   ([`v2x_sim::phy::airtime_ns`]);
//! - draws the received power at every station within the cutoff range from the same path
//!   loss, Nakagami fading and link budget `v2x sim` uses;
//! - judges reception with the simulator's own receiver ([`v2x_sim::reception::Radio`]):
//!   preamble detection, SIGNAL field and data chunk by chunk under the summed
//!   interference of every overlapping frame (collisions), with its error-rate model;
//! - delivers a received frame to the receiver at the end of its air time; this module
//!   logs what became of every frame at every receiver ([`FrameOutcome`]).
//!
//! The `[radio]` table is the simulator's, defaults included: with `weak_interference =
//! "aggregate"` a station beyond the weak radius hears a frame only as part of its map
//! cell's summed weak power and its record says `below-sensitivity` with no power;
//! `"per-receiver"` judges every frame at every station within the cutoff range. Not
//! modelled: propagation delay on delivery (below a microsecond at these ranges; it does
//! delay when a station senses a frame), mobility.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use v2x_sim::access::edca::MacParams;
use v2x_sim::access::{Edca, Immediate, Packet};
use v2x_sim::air::standalone::Happened;
use v2x_sim::air::{Air, AirConfig, Standalone};
use v2x_sim::node_id::NodeId;
use v2x_sim::phy;
use v2x_sim::scenario::{AccessCategory, MacConfig, RadioConfig};

/// The channel the emulator applies: the simulator's `[radio]` and `[mac]` keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelModel {
    /// The simulator's `[radio]` table (same keys and defaults as in `v2x sim` scenarios).
    #[serde(default)]
    pub radio: RadioConfig,
    /// The simulator's `[mac]` table: EDCA timing, queue limits, MAC overhead on the air.
    #[serde(default)]
    pub mac: MacConfig,
    /// The stations' access category (as `[cam] access_category`).
    #[serde(default = "default_access_category")]
    pub access_category: AccessCategory,
    /// Carrier sense and back-off before each frame ([`v2x_sim::access::Edca`], the
    /// simulator's EDCA); off, a frame goes on the air when its station hands it over
    /// ([`v2x_sim::access::Immediate`]).
    #[serde(default = "yes")]
    pub carrier_sense: bool,
    /// Seed of the fading, error and back-off draws.
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_access_category() -> AccessCategory {
    v2x_sim::scenario::CamConfig::default().access_category
}
fn yes() -> bool {
    true
}
fn default_seed() -> u64 {
    1
}

impl Default for ChannelModel {
    fn default() -> Self {
        ChannelModel {
            radio: RadioConfig::default(),
            mac: MacConfig::default(),
            access_category: default_access_category(),
            carrier_sense: true,
            seed: default_seed(),
        }
    }
}

impl ChannelModel {
    /// Checks the radio and MAC keys as `v2x sim` does; the error names the key.
    pub fn check(&self) -> Result<(), String> {
        self.radio.validate().map_err(|e| e.to_string())?;
        self.mac.validate().map_err(|e| e.to_string())
    }
}

/// One station as the emulator sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmulatedStation {
    pub name: String,
    /// The station's own socket: frames from it are its transmissions, frames to it are
    /// what it receives.
    pub addr: SocketAddr,
    pub position_m: [f64; 2],
    /// Whether frames are delivered to it.
    pub receives: bool,
}

/// Everything the emulator process is told by the orchestrator (a TOML file).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmulatorConfig {
    /// Where the stations send their frames.
    pub listen: SocketAddr,
    pub stations: Vec<EmulatedStation>,
    pub channel: ChannelModel,
    /// Run until this TAI µs (the receivers' end).
    pub end_us: u64,
    /// Where `channel.json` (per-link counts) goes.
    pub log_dir: PathBuf,
    /// Exit when this process is gone (the orchestrator): no orphans.
    #[serde(default)]
    pub parent_pid: Option<u32>,
}

impl EmulatorConfig {
    pub fn load(path: &Path) -> Result<EmulatorConfig, EmulatorError> {
        let text = std::fs::read_to_string(path).map_err(|e| EmulatorError::Config {
            path: path.into(),
            msg: e.to_string(),
        })?;
        let cfg: EmulatorConfig = toml::from_str(&text).map_err(|e| EmulatorError::Config {
            path: path.into(),
            msg: e.to_string(),
        })?;
        cfg.channel
            .check()
            .map_err(|msg| EmulatorError::Config { path: path.into(), msg })?;
        Ok(cfg)
    }
}

/// Why the emulator could not run.
#[derive(Debug, thiserror::Error)]
pub enum EmulatorError {
    #[error("channel emulator config {path}: {msg}")]
    Config { path: PathBuf, msg: String },
    #[error("channel emulator I/O: {0}")]
    Io(#[from] std::io::Error),
}

/// What happened to the frames of one (sender, receiver) link. Every frame the sender
/// handed to its MAC is delivered or lost for exactly one reason:
/// `frames = delivered + refused_oversize + below_sensitivity + preamble_missed + collision + chunk_error`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LinkCount {
    pub distance_m: f64,
    /// Frames the sender handed to its MAC.
    pub frames: u64,
    /// Delivered to the receiver.
    pub delivered: u64,
    /// Never on the air: the MSDU exceeds 2,304 octets (802.11p sends no larger broadcast).
    #[serde(default)]
    pub refused_oversize: u64,
    /// Not heard individually: the faded received power was below
    /// `radio.rx_sensitivity_dbm`, the receiver lies beyond the cutoff range, or (with
    /// `weak_interference = "aggregate"`) beyond the weak radius, where the frame only adds
    /// to the cell's summed weak power.
    pub below_sensitivity: u64,
    /// Above the sensitivity, no other frame on the air, but the preamble was not detected
    /// or the SIGNAL field was lost.
    pub preamble_missed: u64,
    /// Lost while another frame was on the air at the receiver (not locked on, SIGNAL or
    /// data lost under interference).
    pub collision: u64,
    /// Locked on with no other frame on the air, but the data failed (error-rate draw, or
    /// the SINR threshold).
    pub chunk_error: u64,
}

/// Why the channel dropped a frame at a receiver (`frames.csv`, [`LinkCount`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameOutcome {
    Delivered,
    RefusedOversize,
    BelowSensitivity,
    PreambleMissed,
    Collision,
    ChunkError,
}

impl FrameOutcome {
    pub fn name(self) -> &'static str {
        match self {
            FrameOutcome::Delivered => "delivered",
            FrameOutcome::RefusedOversize => "refused-oversize",
            FrameOutcome::BelowSensitivity => "below-sensitivity",
            FrameOutcome::PreambleMissed => "preamble-missed",
            FrameOutcome::Collision => "collision",
            FrameOutcome::ChunkError => "chunk-error",
        }
    }
}

impl LinkCount {
    fn count(&mut self, o: FrameOutcome) {
        self.frames += 1;
        *match o {
            FrameOutcome::Delivered => &mut self.delivered,
            FrameOutcome::RefusedOversize => &mut self.refused_oversize,
            FrameOutcome::BelowSensitivity => &mut self.below_sensitivity,
            FrameOutcome::PreambleMissed => &mut self.preamble_missed,
            FrameOutcome::Collision => &mut self.collision,
            FrameOutcome::ChunkError => &mut self.chunk_error,
        } += 1;
    }

    /// Frames the channel lost.
    pub fn lost(&self) -> u64 {
        self.frames - self.delivered
    }
}

/// One frame at one receiver (a row of the emulator's `frames.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameRecord {
    pub from: String,
    pub to: String,
    pub distance_m: f64,
    /// Start on the emulated air, µs after the emulator started.
    pub start_us: f64,
    pub airtime_us: f64,
    pub bytes: usize,
    /// Faded received power, dBm (empty: below the sensitivity).
    pub rx_power_dbm: Option<f64>,
    pub outcome: String,
}

/// The emulator's process name: its log folder under the run's `logs/`, its namespace and
/// its row in the process table.
pub const PROCESS_NAME: &str = "channel-emulator";
/// The emulator's per-frame log, under its log folder.
pub const FRAMES_FILE: &str = "frames.csv";
/// The emulator's per-link counts, under its log folder.
pub const CHANNEL_FILE: &str = "channel.json";

/// The emulator's own record: per link (`"tx0 -> rx0"`), and frames from unknown sources.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChannelLog {
    pub links: BTreeMap<String, LinkCount>,
    pub unknown_source_frames: u64,
    /// Frames the stations' MACs dropped (queue full, or waited longer than
    /// `mac.queue_max_delay_ms`).
    pub mac_drops: u64,
    /// Frames refused before the air: MSDU over 2,304 octets (each also counted on its links).
    #[serde(default)]
    pub refused_oversize: u64,
    /// Lag of the deliveries behind their emulated time (how well the relay kept real
    /// time): median, 99th percentile and largest, µs.
    pub delivery_lag_p50_us: u64,
    pub delivery_lag_p99_us: u64,
    pub max_delivery_lag_us: u64,
}

pub fn link_name(from: &str, to: &str) -> String {
    format!("{from} -> {to}")
}

/// A frame on the emulated air, for the records.
struct OnAir {
    from: usize,
    start_ns: u64,
    end_ns: u64,
    bytes: usize,
    /// (receiver, received power mW) for every receiver that hears it individually.
    heard: Vec<(usize, f64)>,
    /// Receivers at which another frame was on the air during this one.
    overlapped: Vec<usize>,
}

/// The simulator's air ([`v2x_sim::air::Air`]) under the emulator's access layer.
enum AnyAir {
    /// With carrier sense: the simulator's EDCA.
    Edca(Box<Standalone<Edca<Vec<u8>>, Vec<u8>>>),
    /// Without: each frame on the air when its station hands it over.
    Immediate(Box<Standalone<Immediate<Vec<u8>>, Vec<u8>>>),
}

/// The emulated channel: the simulator's air ([`Standalone`]), played in wall time by
/// [`run`], and what became of every frame at every receiver ([`FrameOutcome`]).
pub struct Channel {
    stations: Vec<EmulatedStation>,
    air: AnyAir,
    priority: AccessCategory,
    mac_overhead: u32,
    rate_mbps: f64,
    /// Frames on the air by serial number.
    on_air: BTreeMap<u64, OnAir>,
    pub log: ChannelLog,
    /// Every frame's outcome at every receiver since the last [`Channel::take_records`].
    records: Vec<FrameRecord>,
}

/// A frame to hand to a receiver.
pub struct Delivery {
    pub from: usize,
    pub to: usize,
    pub bytes: Vec<u8>,
    /// Emulated time it was received (end of its air time), ns.
    pub at_ns: u64,
}

impl Channel {
    /// The channel `model` between `stations` (which must pass [`ChannelModel::check`]).
    pub fn new(stations: Vec<EmulatedStation>, model: &ChannelModel) -> Channel {
        let n = stations.len();
        let r = &model.radio;
        let cfg = AirConfig {
            radio: r,
            stations: n,
            periods: [None, None],
            candidates_m: 0.0,
            seed: model.seed,
        };
        let positions: Vec<_> = stations.iter().map(|s| Some(s.position_m)).collect();
        let air = if model.carrier_sense {
            let params = MacParams::from_config(&model.mac, r.data_rate_mbps);
            let mut air = Air::new(cfg, Edca::new(n, params, model.seed));
            air.set_positions(positions);
            AnyAir::Edca(Box::new(Standalone::new(air)))
        } else {
            let mut air = Air::new(cfg, Immediate::new(n, r.data_rate_mbps));
            air.set_positions(positions);
            AnyAir::Immediate(Box::new(Standalone::new(air)))
        };
        let mut log = ChannelLog::default();
        for a in &stations {
            for b in stations.iter().filter(|b| b.receives && b.name != a.name) {
                log.links.insert(
                    link_name(&a.name, &b.name),
                    LinkCount {
                        distance_m: distance(a.position_m, b.position_m),
                        ..LinkCount::default()
                    },
                );
            }
        }
        Channel {
            air,
            priority: model.access_category,
            mac_overhead: model.mac.mac_overhead_bytes,
            rate_mbps: r.data_rate_mbps,
            on_air: BTreeMap::new(),
            stations,
            log,
            records: Vec::new(),
        }
    }

    /// Air time of a packet of `bytes` with the MAC overhead, ns.
    pub fn airtime_ns(&self, bytes: usize) -> u64 {
        phy::airtime_ns(bytes as u32 + self.mac_overhead, self.rate_mbps)
    }

    /// Station `from` hands over a packet at emulated time `now_ns` (no earlier than the
    /// time already played): with carrier sense its MAC queues it and accesses the medium
    /// when the back-off allows; without, it goes on the air as soon as the station's
    /// previous frame is done.
    pub fn transmit(&mut self, from: usize, bytes: Vec<u8>, now_ns: u64) {
        if !v2x_sim::access::fits_one_msdu(bytes.len() as u32 + self.mac_overhead, self.mac_overhead) {
            self.refuse_oversize(from, bytes.len(), now_ns);
            return;
        }
        let packet = Packet {
            bytes: bytes.len() as u32 + self.mac_overhead,
            frame: bytes,
            priority: self.priority,
        };
        let from = NodeId::at(from);
        match &mut self.air {
            AnyAir::Edca(a) => a.transmit(from, packet, now_ns),
            AnyAir::Immediate(a) => a.transmit(from, packet, now_ns),
        }
        self.record();
    }

    /// A frame too large for one MSDU: counted and recorded at every receiving station,
    /// never on the air.
    fn refuse_oversize(&mut self, from: usize, bytes: usize, now_ns: u64) {
        self.log.refused_oversize += 1;
        let from = &self.stations[from];
        for st in self.stations.iter().filter(|st| st.receives && st.name != from.name) {
            if let Some(count) = self.log.links.get_mut(&link_name(&from.name, &st.name)) {
                count.count(FrameOutcome::RefusedOversize);
            }
            self.records.push(FrameRecord {
                from: from.name.clone(),
                to: st.name.clone(),
                distance_m: distance(from.position_m, st.position_m),
                start_us: now_ns as f64 / 1e3,
                airtime_us: 0.0,
                bytes,
                rx_power_dbm: None,
                outcome: FrameOutcome::RefusedOversize.name().into(),
            });
        }
    }

    /// Emulated time of the next pending step.
    pub fn next_step_ns(&self) -> Option<u64> {
        match &self.air {
            AnyAir::Edca(a) => a.next_step(),
            AnyAir::Immediate(a) => a.next_step(),
        }
    }

    /// Plays every step due by `now_ns`; returns the frames received since the last call.
    pub fn advance(&mut self, now_ns: u64) -> Vec<Delivery> {
        let delivered = match &mut self.air {
            AnyAir::Edca(a) => a.advance(now_ns),
            AnyAir::Immediate(a) => a.advance(now_ns),
        };
        self.record();
        delivered
            .into_iter()
            .filter(|d| self.stations[d.to.index()].receives)
            .map(|d| Delivery {
                from: d.from.index(),
                to: d.to.index(),
                bytes: d.frame,
                at_ns: d.at_ns,
            })
            .collect()
    }

    /// Turns what the air did into the frame records and link counts.
    fn record(&mut self) {
        let journal = match &mut self.air {
            AnyAir::Edca(a) => a.take_journal(),
            AnyAir::Immediate(a) => a.take_journal(),
        };
        for happened in journal {
            match happened {
                Happened::Sent {
                    serial,
                    from,
                    start_ns,
                    end_ns,
                    bytes,
                    heard,
                } => {
                    let mut f = OnAir {
                        from: from.index(),
                        start_ns,
                        end_ns,
                        bytes: (bytes - self.mac_overhead) as usize,
                        heard: heard.into_iter().map(|(j, mw)| (j.index(), mw)).collect(),
                        overlapped: Vec::new(),
                    };
                    // Every frame on the air now overlaps this one at the receivers that
                    // hear both.
                    for g in self.on_air.values_mut() {
                        for &(j, _) in &f.heard {
                            if g.heard.iter().any(|h| h.0 == j) {
                                f.overlapped.push(j);
                                g.overlapped.push(j);
                            }
                        }
                    }
                    self.on_air.insert(serial, f);
                }
                Happened::Ended { serial, received } => {
                    if let Some(f) = self.on_air.remove(&serial) {
                        self.frame_ended(&f, &received);
                    }
                }
                Happened::Dropped { frames, .. } => self.log.mac_drops += frames,
            }
        }
    }

    /// The records of a frame that left the air, one per receiving station.
    fn frame_ended(&mut self, f: &OnAir, received: &[(NodeId, bool)]) {
        let from = &self.stations[f.from];
        for (j, st) in self.stations.iter().enumerate() {
            if j == f.from || !st.receives {
                continue;
            }
            let heard = f.heard.iter().find(|h| h.0 == j).map(|h| h.1);
            let decoded = received.iter().find(|r| r.0.index() == j).map(|r| r.1);
            let overlapped = f.overlapped.contains(&j);
            let outcome = match (heard, decoded) {
                (_, Some(true)) => FrameOutcome::Delivered,
                (None, _) => FrameOutcome::BelowSensitivity,
                (Some(_), _) if overlapped => FrameOutcome::Collision,
                (Some(_), None) => FrameOutcome::PreambleMissed,
                (Some(_), Some(false)) => FrameOutcome::ChunkError,
            };
            if let Some(count) = self.log.links.get_mut(&link_name(&from.name, &st.name)) {
                count.count(outcome);
            }
            self.records.push(FrameRecord {
                from: from.name.clone(),
                to: st.name.clone(),
                distance_m: distance(from.position_m, st.position_m),
                start_us: f.start_ns as f64 / 1e3,
                airtime_us: (f.end_ns - f.start_ns) as f64 / 1e3,
                bytes: f.bytes,
                rx_power_dbm: heard.map(|mw| 10.0 * mw.log10()),
                outcome: outcome.name().into(),
            });
        }
    }

    /// The frame records since the last call.
    pub fn take_records(&mut self) -> Vec<FrameRecord> {
        std::mem::take(&mut self.records)
    }
}

/// Distance between two stations (m).
pub fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Runs the emulator until `cfg.end_us` (or until stopped); writes `channel.json` and
/// `frames.csv` into `cfg.log_dir`.
pub fn run(cfg: &EmulatorConfig) -> Result<ChannelLog, EmulatorError> {
    std::fs::create_dir_all(&cfg.log_dir)?;
    let stop = Arc::new(AtomicBool::new(false));
    crate::process::stop_on_signal_or_orphaned(cfg.parent_pid, stop.clone());
    let listen = UdpSocket::bind(cfg.listen)?;
    let _ = nix::sys::socket::setsockopt(&listen, nix::sys::socket::sockopt::RcvBuf, &(8 << 20));
    // One outgoing socket per station: a receiver sees each sender as its own source
    // address (its per-source routing and rate limits keep working).
    let out: Vec<UdpSocket> = cfg
        .stations
        .iter()
        .map(|_| UdpSocket::bind((cfg.listen.ip(), 0)))
        .collect::<Result<_, _>>()?;
    let by_addr: BTreeMap<SocketAddr, usize> = cfg.stations.iter().enumerate().map(|(i, s)| (s.addr, i)).collect();
    let mut frames_csv = csv::Writer::from_path(cfg.log_dir.join(FRAMES_FILE)).map_err(std::io::Error::other)?;
    let mut air = Channel::new(cfg.stations.clone(), &cfg.channel);
    let epoch = Instant::now();
    let now_ns = move || epoch.elapsed().as_nanos() as u64;
    // A reader thread blocks on the socket and stamps each frame as it arrives; this
    // thread waits on the channel until the next step is due (a futex wait, precise to
    // microseconds — a socket read timeout is rounded up to the kernel's tick, ms).
    let (arrivals, arrived) = std::sync::mpsc::channel::<(u64, SocketAddr, Vec<u8>)>();
    let reader = {
        let listen = listen.try_clone()?;
        let stop = stop.clone();
        listen.set_read_timeout(Some(Duration::from_millis(100)))?;
        std::thread::spawn(move || -> std::io::Result<()> {
            let mut buf = vec![0u8; 65_536];
            while !stop.load(Ordering::Relaxed) {
                match listen.recv_from(&mut buf) {
                    Ok((n, src)) => {
                        if arrivals.send((now_ns(), src, buf[..n].to_vec())).is_err() {
                            return Ok(());
                        }
                    }
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock
                                | std::io::ErrorKind::TimedOut
                                | std::io::ErrorKind::Interrupted
                        ) => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        })
    };
    let mut lags_us: Vec<u64> = Vec::new();
    let logger = crate::log::Logger::start(&cfg.log_dir)?;
    // A frame goes on the emulated air at its stamp, or at the time already played if
    // that is later (by the microseconds between the reader's stamp and its hand-over).
    let on_air = |air: &mut Channel, (t, src, bytes): (u64, SocketAddr, Vec<u8>)| match by_addr.get(&src) {
        Some(&i) => air.transmit(i, bytes, t),
        None => air.log.unknown_source_frames += 1,
    };
    loop {
        if stop.load(Ordering::Relaxed) || crate::clock::now_us() >= cfg.end_us {
            break;
        }
        // Every frame that arrived before `horizon` is on the emulated air, so no frame
        // overlapping one that ends by then is still missing: a frame's whole interference
        // window is known when it ends.
        let horizon = now_ns();
        while let Ok(frame) = arrived.try_recv() {
            on_air(&mut air, frame);
        }
        for d in air.advance(horizon) {
            lags_us.push(now_ns().saturating_sub(d.at_ns) / 1000);
            let _ = out[d.from].send_to(&d.bytes, cfg.stations[d.to].addr);
        }
        for r in air.take_records() {
            frames_csv.serialize(r).map_err(std::io::Error::other)?;
        }
        // Wait for a frame, at most until the next step is due.
        let wait = air
            .next_step_ns()
            .map_or(Duration::from_millis(20), |t| {
                Duration::from_nanos(t.saturating_sub(now_ns()))
            })
            .min(Duration::from_millis(20));
        match arrived.recv_timeout(wait) {
            Ok(frame) => on_air(&mut air, frame),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(match reader.join() {
                    Ok(Err(e)) => e.into(),
                    _ => std::io::Error::other("the emulator's socket reader stopped").into(),
                });
            }
        }
    }
    stop.store(true, Ordering::SeqCst);
    frames_csv.flush()?;
    lags_us.sort_unstable();
    let at = |q: f64| {
        lags_us
            .get(((lags_us.len().max(1) - 1) as f64 * q) as usize)
            .copied()
            .unwrap_or(0)
    };
    air.log.delivery_lag_p50_us = at(0.5);
    air.log.delivery_lag_p99_us = at(0.99);
    air.log.max_delivery_lag_us = lags_us.last().copied().unwrap_or(0);
    // CPU time and peak RSS, as the stations log theirs (the report's process table).
    crate::process::log_usage(&logger.log(), PROCESS_NAME);
    logger.finish()?;
    let json = serde_json::to_string_pretty(&air.log).map_err(std::io::Error::other)?;
    std::fs::write(cfg.log_dir.join(CHANNEL_FILE), json)?;
    Ok(air.log)
}

/// The `[radio]` and `[mac]` tables as `v2x sim` reads them
/// ([`v2x_sim::scenario::radio_and_mac`]: a `radio.preset` supplies the keys they do not
/// give).
pub fn radio_and_mac(radio: &toml::Table, mac: &toml::Table) -> Result<(RadioConfig, MacConfig), String> {
    v2x_sim::scenario::radio_and_mac(radio, mac).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn station(name: &str, x: f64, receives: bool) -> EmulatedStation {
        EmulatedStation {
            name: name.into(),
            addr: "127.0.0.1:1".parse().unwrap(),
            position_m: [x, 0.0],
            receives,
        }
    }

    fn no_fading() -> ChannelModel {
        let mut m = ChannelModel::default();
        m.radio.fading = v2x_sim::scenario::FadingConfig::None;
        m
    }

    /// No fading, and frames on the air when handed over (no carrier sense).
    fn immediate() -> ChannelModel {
        ChannelModel {
            carrier_sense: false,
            ..no_fading()
        }
    }

    /// (from, start µs, outcome) of every frame record.
    fn starts(m: &mut Channel) -> Vec<(String, f64, String)> {
        m.take_records()
            .into_iter()
            .map(|r| (r.from, r.start_us, r.outcome))
            .collect()
    }

    #[test]
    fn airtime_is_the_80211p_frame_of_packet_and_mac_overhead() {
        let m = Channel::new(vec![station("a", 0.0, false), station("b", 10.0, true)], &no_fading());
        // 200 B + 36 B at 6 Mb/s: ceil((16 + 1888 + 6) / 48) = 40 symbols -> 40 + 320 µs.
        assert_eq!(m.airtime_ns(200), 360_000);
    }

    #[test]
    fn a_lone_near_frame_is_delivered_at_the_end_of_its_air_time_and_a_far_one_is_not() {
        let mut m = Channel::new(
            vec![
                station("a", 0.0, false),
                station("near", 50.0, true),
                station("far", 5000.0, true),
            ],
            &immediate(),
        );
        m.transmit(0, vec![7; 200], 1_000);
        let end = 1_000 + m.airtime_ns(200);
        assert!(m.advance(end - 1).is_empty(), "nothing before the frame ends");
        let got = m.advance(end);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].to, got[0].at_ns, got[0].bytes.len()), (1, end, 200));
        assert_eq!(m.log.links["a -> far"].below_sensitivity, 1);
        assert_eq!(m.log.links["a -> near"].delivered, 1);
    }

    #[test]
    fn a_frame_over_one_msdu_is_refused_and_counted_on_every_link_and_one_that_fits_is_sent() {
        let mut m = Channel::new(
            vec![
                station("a", 0.0, false),
                station("near", 50.0, true),
                station("far", 100.0, true),
            ],
            &immediate(),
        );
        // MSDU = packet + the overhead's part inside it (36 - 28 = 8 octets of LLC/SNAP).
        let largest = (v2x_sim::access::MAX_MSDU_BYTES - 8) as usize;
        m.transmit(0, vec![1; largest + 1], 0);
        assert_eq!(m.next_step_ns(), None, "nothing went on the air");
        assert_eq!(m.log.refused_oversize, 1);
        for link in ["a -> near", "a -> far"] {
            let c = &m.log.links[link];
            assert_eq!((c.frames, c.refused_oversize, c.lost()), (1, 1, 1), "{link}");
        }
        let records = m.take_records();
        assert_eq!(records.len(), 2);
        assert!(records.iter().all(|r| r.outcome == "refused-oversize"));
        m.transmit(0, vec![2; largest], 0);
        let got = m.advance(m.airtime_ns(largest));
        assert_eq!(got.len(), 2, "the largest MSDU is sent");
        assert_eq!(m.log.refused_oversize, 1);
    }

    #[test]
    fn overlapping_frames_of_equal_power_collide_and_a_station_sends_one_at_a_time() {
        // Two senders at the same distance from the receiver start together: neither
        // frame survives the other's interference (SINR 0 dB at QPSK 1/2).
        let mut m = Channel::new(
            vec![
                station("a", -100.0, false),
                station("b", 100.0, false),
                station("rx", 0.0, true),
            ],
            &immediate(),
        );
        m.transmit(0, vec![1; 200], 0);
        m.transmit(1, vec![2; 200], 0);
        let end = m.airtime_ns(200);
        assert!(m.advance(end).is_empty());
        assert_eq!(
            (m.log.links["a -> rx"].collision, m.log.links["b -> rx"].collision),
            (1, 1)
        );
        let outcomes: Vec<String> = m.take_records().into_iter().map(|r| r.outcome).collect();
        assert_eq!(outcomes, ["collision", "collision"]);
        // A strong near frame survives a far weak one (capture).
        let mut m = Channel::new(
            vec![
                station("a", -20.0, false),
                station("b", 600.0, false),
                station("rx", 0.0, true),
            ],
            &immediate(),
        );
        m.transmit(1, vec![2; 200], 0);
        m.transmit(0, vec![1; 200], 2_000);
        let got = m.advance(2_000 + m.airtime_ns(200));
        assert_eq!(got.iter().map(|d| d.from).collect::<Vec<_>>(), vec![0]);
        // Back to back from one station: the second waits for the first.
        let mut m = Channel::new(vec![station("a", 0.0, false), station("rx", 30.0, true)], &immediate());
        m.transmit(0, vec![1; 100], 0);
        m.transmit(0, vec![2; 100], 0);
        let first = m.airtime_ns(100);
        assert_eq!(m.advance(2 * first - 1).len(), 1);
        assert_eq!(m.advance(2 * first).len(), 1);
    }

    #[test]
    fn with_carrier_sense_a_station_defers_to_a_frame_on_the_air() {
        // b hands its frame over while a's is on the air (100 m away, above the CCA
        // threshold): its MAC waits for the medium to turn idle, then AIFS and its
        // back-off; both frames arrive.
        let mut m = Channel::new(
            vec![
                station("a", -50.0, false),
                station("b", 50.0, false),
                station("rx", 0.0, true),
            ],
            &no_fading(),
        );
        m.transmit(0, vec![1; 200], 0);
        m.advance(200_000);
        m.transmit(1, vec![2; 200], 200_000);
        assert_eq!(m.advance(10_000_000).len(), 2);
        let s = starts(&mut m);
        assert_eq!(s.iter().filter(|r| r.2 == "delivered").count(), 2, "{s:?}");
        let (a, b) = (s[0].1, s[1].1);
        let aifs_us = MacConfig::default().aifs_us(ChannelModel::default().access_category);
        assert!(b >= a + m.airtime_ns(200) as f64 / 1e3 + aifs_us, "{s:?}");
        // The same without carrier sense: b goes on the air at once and both collide.
        let mut m = Channel::new(
            vec![
                station("a", -50.0, false),
                station("b", 50.0, false),
                station("rx", 0.0, true),
            ],
            &immediate(),
        );
        m.transmit(0, vec![1; 200], 0);
        m.advance(200_000);
        m.transmit(1, vec![2; 200], 200_000);
        assert!(m.advance(10_000_000).is_empty());
        assert_eq!(m.log.links["b -> rx"].collision, 1);
    }
}
