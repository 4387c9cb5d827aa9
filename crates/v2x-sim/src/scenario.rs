//! Scenario files: every parameter named with its unit, with a default.
//!
//! A scenario is TOML. Unknown keys are errors (typos must not silently fall back to a
//! default). [`Scenario::parse`] reports the line and column of a syntax or type error;
//! [`Scenario::validate`] checks the value ranges and names the offending field.

use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A whole scenario: common settings plus one or more security variants compared on the
/// same mobility and seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Scenario {
    /// Short name used in reports.
    pub name: String,
    pub description: String,
    /// Simulated time in seconds.
    pub duration_s: f64,
    /// Metrics ignore packets generated before this time (seconds).
    pub warmup_s: f64,
    /// Base seed; replication r uses seed + r.
    pub seed: u64,
    /// Independent replications (run in parallel).
    pub replications: u32,
    pub mobility: MobilityConfig,
    pub radio: RadioConfig,
    pub mac: MacConfig,
    pub cam: CamConfig,
    pub query: QueryConfig,
    #[serde(rename = "attacker")]
    pub attackers: Vec<AttackerConfig>,
    pub metrics: MetricsConfig,
    /// The security configurations to compare; each runs on identical mobility and seeds.
    #[serde(rename = "variant")]
    pub variants: Vec<VariantConfig>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: "scenario".into(),
            description: String::new(),
            duration_s: 10.0,
            warmup_s: 1.0,
            seed: 1,
            replications: 1,
            mobility: MobilityConfig::default(),
            radio: RadioConfig::default(),
            mac: MacConfig::default(),
            cam: CamConfig::default(),
            query: QueryConfig::default(),
            attackers: Vec::new(),
            metrics: MetricsConfig::default(),
            variants: vec![VariantConfig::default()],
        }
    }
}

/// Where the vehicles are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum MobilityConfig {
    /// Fixed positions (cross-validation, unit tests).
    Static {
        /// `[x_m, y_m]` per node.
        positions_m: Vec<[f64; 2]>,
    },
    /// Straight highway, both directions, vehicles wrap around at the ends (constant density).
    Highway {
        #[serde(default = "d_highway_length")]
        length_m: f64,
        #[serde(default = "d_lanes")]
        lanes_per_direction: u32,
        #[serde(default = "d_lane_width")]
        lane_width_m: f64,
        /// Vehicles per km per lane.
        #[serde(default = "d_density_lane")]
        density_veh_per_km_lane: f64,
        #[serde(default = "d_speed")]
        speed_mps: f64,
        /// Standard deviation of the per-vehicle speed (m/s).
        #[serde(default = "d_speed_sd")]
        speed_sd_mps: f64,
        #[serde(default = "d_update")]
        update_interval_s: f64,
    },
    /// Manhattan grid of streets; vehicles turn at random at intersections; road side
    /// units at intersections.
    Grid {
        #[serde(default = "d_grid_size")]
        width_m: f64,
        #[serde(default = "d_grid_size")]
        height_m: f64,
        #[serde(default = "d_block")]
        block_length_m: f64,
        /// Vehicles per square kilometre.
        #[serde(default = "d_density_area")]
        density_veh_per_km2: f64,
        #[serde(default = "d_speed")]
        speed_mps: f64,
        #[serde(default = "d_speed_sd")]
        speed_sd_mps: f64,
        /// Place a road side unit at every n-th intersection in each direction (0 = none).
        #[serde(default = "d_rsu_every")]
        rsu_every_n_intersections: u32,
        #[serde(default = "d_update")]
        update_interval_s: f64,
    },
    /// SUMO floating-car-data output (`sumo --fcd-output`), XML or CSV (by extension).
    SumoFcd {
        /// Path, relative to the scenario file.
        path: PathBuf,
        #[serde(default = "d_update")]
        update_interval_s: f64,
        /// Road side units at fixed positions `[x_m, y_m]`.
        #[serde(default)]
        rsu_positions_m: Vec<[f64; 2]>,
    },
    /// NGSIM-style trajectory table, CSV or Parquet (by extension).
    Ngsim {
        path: PathBuf,
        #[serde(default = "d_col_id")]
        id_column: String,
        #[serde(default = "d_col_frame")]
        time_column: String,
        #[serde(default = "d_col_x")]
        x_column: String,
        #[serde(default = "d_col_y")]
        y_column: String,
        /// Seconds per unit of the time column (0.1 for NGSIM frame numbers).
        #[serde(default = "d_frame_s")]
        time_unit_s: f64,
        /// Metres per unit of the position columns (0.3048 for raw NGSIM feet).
        #[serde(default = "d_one")]
        length_unit_m: f64,
        /// Add the traffic of the opposite direction by reflecting the trace (paper 004).
        #[serde(default)]
        mirror_opposite_direction: bool,
        /// Lateral offset of the reflected carriageway (m).
        #[serde(default = "d_mirror")]
        mirror_offset_m: f64,
        #[serde(default = "d_update")]
        update_interval_s: f64,
        #[serde(default)]
        rsu_positions_m: Vec<[f64; 2]>,
    },
}

fn d_highway_length() -> f64 {
    2000.0
}
fn d_lanes() -> u32 {
    3
}
fn d_lane_width() -> f64 {
    3.5
}
fn d_density_lane() -> f64 {
    25.0
}
fn d_speed() -> f64 {
    25.0
}
fn d_speed_sd() -> f64 {
    2.0
}
fn d_update() -> f64 {
    0.1
}
fn d_grid_size() -> f64 {
    1000.0
}
fn d_block() -> f64 {
    250.0
}
fn d_density_area() -> f64 {
    200.0
}
fn d_rsu_every() -> u32 {
    1
}
fn d_col_id() -> String {
    "vehicle_id".into()
}
fn d_col_frame() -> String {
    "frame_id".into()
}
fn d_col_x() -> String {
    "local_x".into()
}
fn d_col_y() -> String {
    "local_y".into()
}
fn d_frame_s() -> f64 {
    0.1
}
fn d_one() -> f64 {
    1.0
}
fn d_mirror() -> f64 {
    40.0
}

impl Default for MobilityConfig {
    fn default() -> Self {
        MobilityConfig::Highway {
            length_m: d_highway_length(),
            lanes_per_direction: d_lanes(),
            lane_width_m: d_lane_width(),
            density_veh_per_km_lane: d_density_lane(),
            speed_mps: d_speed(),
            speed_sd_mps: d_speed_sd(),
            update_interval_s: d_update(),
        }
    }
}

/// Path loss model (distances in metres, losses in dB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PathLossConfig {
    FreeSpace {
        #[serde(default)]
        system_loss_db: f64,
    },
    /// Two-ray ground reflection (free space below the crossover distance).
    TwoRayGround {
        #[serde(default = "d_height")]
        antenna_height_m: f64,
        #[serde(default)]
        system_loss_db: f64,
    },
    /// Dual slope: exponent n1 up to the breakpoint, n2 beyond.
    DualSlope {
        #[serde(default = "d_ref_loss")]
        reference_loss_db: f64,
        #[serde(default = "d_one")]
        reference_distance_m: f64,
        #[serde(default = "d_breakpoint")]
        breakpoint_m: f64,
        #[serde(default = "d_exp1")]
        exponent1: f64,
        #[serde(default = "d_exp2")]
        exponent2: f64,
    },
    /// ns-3 ThreeLogDistancePropagationLossModel (defaults are ns-3's).
    ThreeLogDistance {
        #[serde(default = "d_ref_loss")]
        reference_loss_db: f64,
        #[serde(default = "d_one")]
        distance0_m: f64,
        #[serde(default = "d_d1")]
        distance1_m: f64,
        #[serde(default = "d_d2")]
        distance2_m: f64,
        #[serde(default = "d_exp0")]
        exponent0: f64,
        #[serde(default = "d_exp2")]
        exponent1: f64,
        #[serde(default = "d_exp2")]
        exponent2: f64,
    },
}

fn d_height() -> f64 {
    1.5
}
fn d_ref_loss() -> f64 {
    46.6777
}
fn d_breakpoint() -> f64 {
    100.0
}
fn d_exp1() -> f64 {
    2.0
}
fn d_exp2() -> f64 {
    3.8
}
fn d_exp0() -> f64 {
    1.9
}
fn d_d1() -> f64 {
    200.0
}
fn d_d2() -> f64 {
    500.0
}

impl Default for PathLossConfig {
    fn default() -> Self {
        PathLossConfig::ThreeLogDistance {
            reference_loss_db: d_ref_loss(),
            distance0_m: 1.0,
            distance1_m: d_d1(),
            distance2_m: d_d2(),
            exponent0: d_exp0(),
            exponent1: d_exp2(),
            exponent2: d_exp2(),
        }
    }
}

/// Small-scale fading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum FadingConfig {
    None,
    /// Nakagami-m power fading with distance-dependent m (ns-3 defaults: 1.5 below 80 m,
    /// 0.75 beyond).
    Nakagami {
        #[serde(default = "d_d80")]
        distance1_m: f64,
        #[serde(default = "d_d2")]
        distance2_m: f64,
        #[serde(default = "d_m0")]
        m0: f64,
        #[serde(default = "d_m1")]
        m1: f64,
        #[serde(default = "d_m1")]
        m2: f64,
    },
}

fn d_d80() -> f64 {
    80.0
}
fn d_m0() -> f64 {
    1.5
}
fn d_m1() -> f64 {
    0.75
}

impl Default for FadingConfig {
    fn default() -> Self {
        FadingConfig::Nakagami {
            distance1_m: d_d80(),
            distance2_m: d_d2(),
            m0: d_m0(),
            m1: d_m1(),
            m2: d_m1(),
        }
    }
}

/// How a locked frame is judged at its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReceptionModel {
    /// Success when the SINR stayed at or above `sinr_threshold_db` during the whole frame.
    SinrThreshold,
    /// Success drawn from the NIST OFDM error-rate model (BPSK/QPSK/QAM with convolutional
    /// coding), evaluated chunk by chunk as interference changes.
    NistErrorRate,
}

/// PHY parameters (802.11p, 10 MHz).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RadioConfig {
    pub tx_power_dbm: f64,
    pub frequency_hz: f64,
    pub channel_width_hz: f64,
    pub noise_figure_db: f64,
    /// Signals weaker than this are neither received nor counted as interference.
    pub rx_sensitivity_dbm: f64,
    /// Minimum RSSI to detect a preamble and lock on a frame (ns-3 ThresholdPreambleDetection).
    pub preamble_min_rssi_dbm: f64,
    /// Minimum SNR to detect a preamble.
    pub preamble_snr_threshold_db: f64,
    /// Energy-detection threshold: the medium is busy above it even without a preamble.
    pub cca_ed_threshold_dbm: f64,
    pub reception_model: ReceptionModel,
    /// Used by the `sinr-threshold` reception model.
    pub sinr_threshold_db: f64,
    /// 3, 4.5, 6, 9, 12, 18, 24 or 27.
    pub data_rate_mbps: f64,
    /// Neighbour search radius; 0 derives it from the path loss, the sensitivity and
    /// `cutoff_fading_margin_db`.
    pub cutoff_range_m: f64,
    /// Fading headroom used when deriving the cutoff range.
    pub cutoff_fading_margin_db: f64,
    pub path_loss: PathLossConfig,
    pub fading: FadingConfig,
}

impl Default for RadioConfig {
    fn default() -> Self {
        RadioConfig {
            tx_power_dbm: 20.0,
            frequency_hz: 5.9e9,
            channel_width_hz: 10e6,
            noise_figure_db: 7.0,
            rx_sensitivity_dbm: -101.0,
            preamble_min_rssi_dbm: -82.0,
            preamble_snr_threshold_db: 4.0,
            cca_ed_threshold_dbm: -62.0,
            reception_model: ReceptionModel::NistErrorRate,
            sinr_threshold_db: 5.0,
            data_rate_mbps: 6.0,
            cutoff_range_m: 0.0,
            cutoff_fading_margin_db: 10.0,
            path_loss: PathLossConfig::default(),
            fading: FadingConfig::default(),
        }
    }
}

/// EDCA access category of an application.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessCategory {
    /// 802.11p AC_BK: AIFSN 9, CW 15..1023.
    Background,
    /// 802.11p AC_BE: AIFSN 6, CW 15..1023.
    BestEffort,
    /// 802.11p AC_VI: AIFSN 3, CW 7..15.
    Video,
    /// 802.11p AC_VO: AIFSN 2, CW 3..7.
    Voice,
    /// Non-QoS DCF as in ns-3's AdhocWifiMac without QoS: AIFSN 2, CW 15..1023.
    LegacyDcf,
}

impl AccessCategory {
    /// (AIFSN, CWmin).
    pub fn parameters(self) -> (u32, u32) {
        match self {
            AccessCategory::Background => (9, 15),
            AccessCategory::BestEffort => (6, 15),
            AccessCategory::Video => (3, 7),
            AccessCategory::Voice => (2, 3),
            AccessCategory::LegacyDcf => (2, 15),
        }
    }

    pub fn index(self) -> usize {
        match self {
            AccessCategory::Background => 0,
            AccessCategory::BestEffort => 1,
            AccessCategory::Video => 2,
            AccessCategory::Voice => 3,
            AccessCategory::LegacyDcf => 4,
        }
    }
}

/// MAC parameters (802.11p OCB broadcast, 10 MHz).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MacConfig {
    pub slot_us: f64,
    pub sifs_us: f64,
    /// Time to detect a transmission that started: a node whose backoff ends within this
    /// window after another started still transmits (collision).
    pub cca_detect_us: f64,
    /// Frames waiting longer than this in a MAC queue are dropped.
    pub queue_max_delay_ms: f64,
    pub queue_capacity_packets: u32,
    /// Bytes added to every frame below the security layer: MAC header 24 + FCS 4 + LLC/SNAP 8
    /// (use 64 to match ns-3 UDP/IPv4 broadcast: + IPv4 20 + UDP 8).
    pub mac_overhead_bytes: u32,
    /// Use EIFS instead of AIFS after a frame received with errors.
    pub use_eifs: bool,
}

impl Default for MacConfig {
    fn default() -> Self {
        MacConfig {
            slot_us: 13.0,
            sifs_us: 32.0,
            cca_detect_us: 8.0,
            queue_max_delay_ms: 500.0,
            queue_capacity_packets: 500,
            mac_overhead_bytes: 36,
            use_eifs: true,
        }
    }
}

/// Periodic CAM/BSM beacons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CamConfig {
    pub enabled: bool,
    pub rate_hz: f64,
    /// Application payload before security.
    pub payload_bytes: u32,
    pub access_category: AccessCategory,
    /// Start offsets per node (s); empty draws a uniform phase in [0, 1/rate).
    pub start_offsets_s: Vec<f64>,
    /// Road side units also beacon.
    pub rsus_send: bool,
}

impl Default for CamConfig {
    fn default() -> Self {
        CamConfig {
            enabled: true,
            rate_hz: 10.0,
            payload_bytes: 100,
            access_category: AccessCategory::Voice,
            start_offsets_s: Vec::new(),
            rsus_send: false,
        }
    }
}

/// V2I request/reply query service with encryption (paper 000 §5.2.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QueryConfig {
    pub enabled: bool,
    /// Share of the vehicles that send a request in each second (Poisson rate per vehicle, 1/s).
    pub request_rate_per_vehicle_hz: f64,
    pub request_payload_bytes: u32,
    pub reply_payload_bytes: u32,
    /// Encryption overhead per message (ECIES-P256 + AES-CCM-128: 171 bytes, paper 000).
    pub encryption_overhead_bytes: u32,
    /// Protocol and variant whose `encrypt` / `decrypt` costs apply.
    pub cost_protocol: String,
    pub cost_variant: String,
    /// Replies later than this after the request count as failures.
    pub timeout_s: f64,
    pub access_category: AccessCategory,
}

impl Default for QueryConfig {
    fn default() -> Self {
        QueryConfig {
            enabled: false,
            request_rate_per_vehicle_hz: 0.15,
            request_payload_bytes: 40,
            reply_payload_bytes: 200,
            encryption_overhead_bytes: 171,
            cost_protocol: "etsi-v1.2.1".into(),
            cost_variant: "p256-sha256".into(),
            timeout_s: 2.0,
            access_category: AccessCategory::BestEffort,
        }
    }
}

/// What an attacker sends (PRESERVE attack cases).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackKind {
    /// A-SIG-01: valid-looking messages with invalid signatures (cost a verification).
    InvalidSignature,
    /// A-SIG-03: messages without signature.
    Unsigned,
    /// A-SIG-06: messages with old generation times.
    Stale,
    /// A-CER-03: messages signed under an expired certificate.
    ExpiredCertificate,
    /// Re-broadcast of the last legitimate CAM the attacker received.
    Replay,
    /// A-SIG-05-like clogging: invalid signatures at a high rate.
    Flood,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackerConfig {
    pub kind: AttackKind,
    /// How many vehicles act as attackers (chosen by the seed).
    #[serde(default = "d_attackers")]
    pub count: u32,
    #[serde(default = "d_attack_rate")]
    pub rate_hz: f64,
    #[serde(default = "d_attack_payload")]
    pub payload_bytes: u32,
    #[serde(default)]
    pub start_s: f64,
    /// Age of the timestamps sent by `stale` attackers (s).
    #[serde(default = "d_stale_age")]
    pub stale_age_s: f64,
}

fn d_attackers() -> u32 {
    1
}
fn d_attack_rate() -> f64 {
    10.0
}
fn d_attack_payload() -> u32 {
    100
}
fn d_stale_age() -> f64 {
    30.0
}

/// Order in which a receiver verifies queued messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QueueOrder {
    Fifo,
    /// Nearest sender first (prioritised verification, paper 000 §5.3).
    NearestFirst,
}

/// Certificate inclusion policy for signed beacons.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "kebab-case", deny_unknown_fields)]
pub enum CertificatePolicy {
    /// Full certificate in every n-th message (1609.2 BSM: every 5th, paper 001).
    EveryNth {
        n: u32,
    },
    /// Full certificate once per interval (ETSI CAM: once per second, paper 000).
    Interval {
        interval_s: f64,
    },
    Always,
    Never,
}

/// One security configuration: protocol, processor and verification discipline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VariantConfig {
    pub name: String,
    /// `none`, `ieee1609.2`, `etsi-v1.2.1`, `raw`, `tesla`, `tesla-attached`, `hash-chain`.
    pub protocol: String,
    /// Shipped profile name (`v2x_profile::BUILTIN_NAMES`) or path of a `v2x bench` profile
    /// (relative to the scenario file). Empty is allowed only when costs are given below
    /// or the protocol is `none`.
    pub profile: String,
    /// Protocol id used to look costs up in the profile (default: `protocol`; TESLA
    /// attached uses `tesla`).
    pub cost_protocol: String,
    /// Profile variant for messages with a certificate digest (empty: first match).
    pub verify_variant: String,
    /// Profile variant for messages carrying a full certificate (empty: `verify_variant`).
    pub verify_certificate_variant: String,
    pub sign_variant: String,
    /// Fixed verification cost overriding the profile (µs; 0 = use the profile).
    pub verify_cost_us: f64,
    pub sign_cost_us: f64,
    /// Verification cores per receiver (0 = the profile's `cores`).
    pub cores: u32,
    pub order: QueueOrder,
    /// A message still waiting this long after reception is dropped (cryptographic loss).
    pub deadline_ms: f64,
    /// Security bytes on a message with a certificate digest (0 with `overhead_from_protocol`).
    pub overhead_bytes: Option<u32>,
    /// Security bytes on a message carrying the full certificate.
    pub overhead_with_certificate_bytes: Option<u32>,
    pub certificate: Option<CertificatePolicy>,
    /// A digest-signed message from a sender whose certificate was never received cannot
    /// be verified (cryptographic loss, reason unknown certificate).
    pub require_known_certificate: bool,
    /// TESLA: delay between a packet and the disclosure of its key (s).
    pub tesla_disclosure_delay_s: f64,
    /// TESLA: bytes of the separate key packet, whole MPDU (paper 004: 43).
    pub tesla_key_frame_bytes: u32,
    /// TESLA attached: bytes the disclosed key adds to the next packet.
    pub tesla_attached_key_bytes: u32,
    /// Messages older than this (by generation time) are rejected as stale (ms).
    pub freshness_ms: f64,
}

impl Default for VariantConfig {
    fn default() -> Self {
        VariantConfig {
            name: "no-security".into(),
            protocol: "none".into(),
            profile: String::new(),
            cost_protocol: String::new(),
            verify_variant: String::new(),
            verify_certificate_variant: String::new(),
            sign_variant: String::new(),
            verify_cost_us: 0.0,
            sign_cost_us: 0.0,
            cores: 0,
            order: QueueOrder::Fifo,
            deadline_ms: 100.0,
            overhead_bytes: None,
            overhead_with_certificate_bytes: None,
            certificate: None,
            require_known_certificate: true,
            tesla_disclosure_delay_s: 0.1,
            tesla_key_frame_bytes: 43,
            tesla_attached_key_bytes: 10,
            freshness_ms: 2000.0,
        }
    }
}

/// Metric collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsConfig {
    pub distance_bin_m: f64,
    pub max_distance_m: f64,
    /// Headline PDR and crypto-loss figures count receivers within this distance.
    pub headline_range_m: f64,
    pub awareness_radius_m: f64,
    /// A neighbour counts as known when heard from within this window.
    pub awareness_window_ms: f64,
    pub awareness_sample_interval_s: f64,
    /// Position error at which a neighbour's weight in the weighted awareness drops to 0.
    pub awareness_max_error_m: f64,
    /// Record per-pair received counts (memory grows with pairs).
    pub per_pair_counts: bool,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            distance_bin_m: 25.0,
            max_distance_m: 500.0,
            headline_range_m: 300.0,
            awareness_radius_m: 300.0,
            awareness_window_ms: 1000.0,
            awareness_sample_interval_s: 0.5,
            awareness_max_error_m: 10.0,
            per_pair_counts: false,
        }
    }
}

/// Overrides given on the command line.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub duration_s: Option<f64>,
    pub seed: Option<u64>,
    pub replications: Option<u32>,
}

/// Line and column (1-based) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl Scenario {
    /// Parses scenario TOML; `origin` names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        let s: Scenario = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((0, 0), |sp| line_col(text, sp.start));
            ScenarioError::Syntax {
                file: origin.into(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        s.validate()?;
        Ok(s)
    }

    /// Reads and parses a scenario file; relative paths inside it are resolved against
    /// its directory.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let mut s = Scenario::parse(&text, &path.display().to_string())?;
        let base = path.parent().unwrap_or(Path::new("."));
        s.resolve_paths(base);
        Ok(s)
    }

    fn resolve_paths(&mut self, base: &Path) {
        match &mut self.mobility {
            MobilityConfig::SumoFcd { path, .. } | MobilityConfig::Ngsim { path, .. } if path.is_relative() => {
                *path = base.join(&*path);
            }
            _ => {}
        }
        for v in &mut self.variants {
            let is_builtin = v2x_profile::BUILTIN_NAMES.contains(&v.profile.as_str());
            if !v.profile.is_empty() && !is_builtin && Path::new(&v.profile).is_relative() {
                v.profile = base.join(&v.profile).display().to_string();
            }
        }
    }

    pub fn apply(&mut self, o: &Overrides) -> Result<(), ScenarioError> {
        if let Some(d) = o.duration_s {
            self.duration_s = d;
            if self.warmup_s >= d {
                self.warmup_s = d / 10.0;
            }
        }
        if let Some(s) = o.seed {
            self.seed = s;
        }
        if let Some(r) = o.replications {
            self.replications = r;
        }
        self.validate()
    }

    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        fn pos(field: &str, v: f64) -> Result<(), ScenarioError> {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(ScenarioError::invalid(
                    field,
                    format!("must be a positive number, got {v}"),
                ))
            }
        }
        fn nonneg(field: &str, v: f64) -> Result<(), ScenarioError> {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(ScenarioError::invalid(
                    field,
                    format!("must be a finite number >= 0, got {v}"),
                ))
            }
        }
        fn finite(field: &str, v: f64) -> Result<(), ScenarioError> {
            if v.is_finite() {
                Ok(())
            } else {
                Err(ScenarioError::invalid(field, format!("must be finite, got {v}")))
            }
        }
        pos("duration_s", self.duration_s)?;
        if self.duration_s > 1e6 {
            return Err(ScenarioError::invalid("duration_s", "must be at most 1e6 s"));
        }
        nonneg("warmup_s", self.warmup_s)?;
        if self.warmup_s >= self.duration_s {
            return Err(ScenarioError::invalid("warmup_s", "must be shorter than duration_s"));
        }
        if self.replications == 0 || self.replications > 10_000 {
            return Err(ScenarioError::invalid("replications", "must be between 1 and 10000"));
        }
        match &self.mobility {
            MobilityConfig::Static { positions_m } => {
                if positions_m.is_empty() || positions_m.len() > 1_000_000 {
                    return Err(ScenarioError::invalid(
                        "mobility.positions_m",
                        "needs 1 to 1e6 positions",
                    ));
                }
                if positions_m.iter().flatten().any(|v| !(v.is_finite() && v.abs() < 1e9)) {
                    return Err(ScenarioError::invalid(
                        "mobility.positions_m",
                        "coordinates must be finite and within 1e9 m",
                    ));
                }
            }
            MobilityConfig::Highway {
                length_m,
                lanes_per_direction,
                lane_width_m,
                density_veh_per_km_lane,
                speed_mps,
                speed_sd_mps,
                update_interval_s,
            } => {
                pos("mobility.length_m", *length_m)?;
                pos("mobility.lane_width_m", *lane_width_m)?;
                nonneg("mobility.density_veh_per_km_lane", *density_veh_per_km_lane)?;
                nonneg("mobility.speed_mps", *speed_mps)?;
                nonneg("mobility.speed_sd_mps", *speed_sd_mps)?;
                pos("mobility.update_interval_s", *update_interval_s)?;
                if *lanes_per_direction == 0 || *lanes_per_direction > 64 {
                    return Err(ScenarioError::invalid(
                        "mobility.lanes_per_direction",
                        "must be between 1 and 64",
                    ));
                }
                let n = length_m / 1000.0 * density_veh_per_km_lane * f64::from(*lanes_per_direction) * 2.0;
                if n > 1e6 {
                    return Err(ScenarioError::invalid(
                        "mobility.density_veh_per_km_lane",
                        "more than 1e6 vehicles",
                    ));
                }
            }
            MobilityConfig::Grid {
                width_m,
                height_m,
                block_length_m,
                density_veh_per_km2,
                speed_mps,
                speed_sd_mps,
                update_interval_s,
                ..
            } => {
                pos("mobility.width_m", *width_m)?;
                pos("mobility.height_m", *height_m)?;
                pos("mobility.block_length_m", *block_length_m)?;
                if block_length_m > width_m || block_length_m > height_m {
                    return Err(ScenarioError::invalid(
                        "mobility.block_length_m",
                        "must fit in the area",
                    ));
                }
                if width_m / block_length_m > 10_000.0 || height_m / block_length_m > 10_000.0 {
                    return Err(ScenarioError::invalid("mobility.block_length_m", "too many blocks"));
                }
                nonneg("mobility.density_veh_per_km2", *density_veh_per_km2)?;
                nonneg("mobility.speed_mps", *speed_mps)?;
                nonneg("mobility.speed_sd_mps", *speed_sd_mps)?;
                pos("mobility.update_interval_s", *update_interval_s)?;
                if width_m * height_m / 1e6 * density_veh_per_km2 > 1e6 {
                    return Err(ScenarioError::invalid(
                        "mobility.density_veh_per_km2",
                        "more than 1e6 vehicles",
                    ));
                }
            }
            MobilityConfig::SumoFcd {
                update_interval_s,
                rsu_positions_m,
                ..
            } => {
                pos("mobility.update_interval_s", *update_interval_s)?;
                if rsu_positions_m
                    .iter()
                    .flatten()
                    .any(|v| !(v.is_finite() && v.abs() < 1e9))
                {
                    return Err(ScenarioError::invalid(
                        "mobility.rsu_positions_m",
                        "coordinates must be finite and within 1e9 m",
                    ));
                }
            }
            MobilityConfig::Ngsim {
                time_unit_s,
                length_unit_m,
                update_interval_s,
                mirror_offset_m,
                rsu_positions_m,
                ..
            } => {
                if rsu_positions_m
                    .iter()
                    .flatten()
                    .any(|v| !(v.is_finite() && v.abs() < 1e9))
                {
                    return Err(ScenarioError::invalid(
                        "mobility.rsu_positions_m",
                        "coordinates must be finite and within 1e9 m",
                    ));
                }
                pos("mobility.time_unit_s", *time_unit_s)?;
                pos("mobility.length_unit_m", *length_unit_m)?;
                pos("mobility.update_interval_s", *update_interval_s)?;
                finite("mobility.mirror_offset_m", *mirror_offset_m)?;
            }
        }
        let r = &self.radio;
        for (f, v) in [
            ("radio.tx_power_dbm", r.tx_power_dbm),
            ("radio.noise_figure_db", r.noise_figure_db),
            ("radio.rx_sensitivity_dbm", r.rx_sensitivity_dbm),
            ("radio.preamble_min_rssi_dbm", r.preamble_min_rssi_dbm),
            ("radio.preamble_snr_threshold_db", r.preamble_snr_threshold_db),
            ("radio.cca_ed_threshold_dbm", r.cca_ed_threshold_dbm),
            ("radio.sinr_threshold_db", r.sinr_threshold_db),
            ("radio.cutoff_fading_margin_db", r.cutoff_fading_margin_db),
        ] {
            finite(f, v)?;
        }
        pos("radio.frequency_hz", r.frequency_hz)?;
        pos("radio.channel_width_hz", r.channel_width_hz)?;
        nonneg("radio.cutoff_range_m", r.cutoff_range_m)?;
        if crate::phy::bits_per_symbol(r.data_rate_mbps).is_none() {
            return Err(ScenarioError::invalid(
                "radio.data_rate_mbps",
                format!(
                    "{} is not an 802.11p 10 MHz rate (3, 4.5, 6, 9, 12, 18, 24, 27)",
                    r.data_rate_mbps
                ),
            ));
        }
        match &r.path_loss {
            PathLossConfig::FreeSpace { system_loss_db } => finite("radio.path_loss.system_loss_db", *system_loss_db)?,
            PathLossConfig::TwoRayGround {
                antenna_height_m,
                system_loss_db,
            } => {
                pos("radio.path_loss.antenna_height_m", *antenna_height_m)?;
                finite("radio.path_loss.system_loss_db", *system_loss_db)?;
            }
            PathLossConfig::DualSlope {
                reference_loss_db,
                reference_distance_m,
                breakpoint_m,
                exponent1,
                exponent2,
            } => {
                finite("radio.path_loss.reference_loss_db", *reference_loss_db)?;
                pos("radio.path_loss.reference_distance_m", *reference_distance_m)?;
                pos("radio.path_loss.breakpoint_m", *breakpoint_m)?;
                pos("radio.path_loss.exponent1", *exponent1)?;
                pos("radio.path_loss.exponent2", *exponent2)?;
            }
            PathLossConfig::ThreeLogDistance {
                reference_loss_db,
                distance0_m,
                distance1_m,
                distance2_m,
                exponent0,
                exponent1,
                exponent2,
            } => {
                finite("radio.path_loss.reference_loss_db", *reference_loss_db)?;
                pos("radio.path_loss.distance0_m", *distance0_m)?;
                if !(distance0_m < distance1_m && distance1_m < distance2_m) {
                    return Err(ScenarioError::invalid(
                        "radio.path_loss.distance1_m",
                        "need distance0 < distance1 < distance2",
                    ));
                }
                pos("radio.path_loss.exponent0", *exponent0)?;
                pos("radio.path_loss.exponent1", *exponent1)?;
                pos("radio.path_loss.exponent2", *exponent2)?;
            }
        }
        if let FadingConfig::Nakagami {
            distance1_m,
            distance2_m,
            m0,
            m1,
            m2,
        } = &r.fading
        {
            pos("radio.fading.distance1_m", *distance1_m)?;
            pos("radio.fading.distance2_m", *distance2_m)?;
            for (f, m) in [
                ("radio.fading.m0", m0),
                ("radio.fading.m1", m1),
                ("radio.fading.m2", m2),
            ] {
                if !(m.is_finite() && *m >= 0.5 && *m <= 100.0) {
                    return Err(ScenarioError::invalid(f, "Nakagami m must be within [0.5, 100]"));
                }
            }
        }
        let m = &self.mac;
        pos("mac.slot_us", m.slot_us)?;
        pos("mac.sifs_us", m.sifs_us)?;
        nonneg("mac.cca_detect_us", m.cca_detect_us)?;
        pos("mac.queue_max_delay_ms", m.queue_max_delay_ms)?;
        if m.queue_capacity_packets == 0 {
            return Err(ScenarioError::invalid(
                "mac.queue_capacity_packets",
                "must be at least 1",
            ));
        }
        if m.mac_overhead_bytes > 4000 {
            return Err(ScenarioError::invalid("mac.mac_overhead_bytes", "at most 4000"));
        }
        pos("cam.rate_hz", self.cam.rate_hz)?;
        if self.cam.rate_hz > 10_000.0 {
            return Err(ScenarioError::invalid("cam.rate_hz", "at most 10000 Hz"));
        }
        if self.cam.payload_bytes > 4000 {
            return Err(ScenarioError::invalid("cam.payload_bytes", "at most 4000"));
        }
        for o in &self.cam.start_offsets_s {
            nonneg("cam.start_offsets_s", *o)?;
        }
        let q = &self.query;
        nonneg("query.request_rate_per_vehicle_hz", q.request_rate_per_vehicle_hz)?;
        pos("query.timeout_s", q.timeout_s)?;
        if q.request_payload_bytes > 4000 || q.reply_payload_bytes > 4000 || q.encryption_overhead_bytes > 4000 {
            return Err(ScenarioError::invalid(
                "query.request_payload_bytes",
                "payloads and overhead at most 4000 bytes",
            ));
        }
        for (i, a) in self.attackers.iter().enumerate() {
            pos(&format!("attacker[{i}].rate_hz"), a.rate_hz)?;
            if a.rate_hz > 10_000.0 {
                return Err(ScenarioError::invalid(
                    format!("attacker[{i}].rate_hz"),
                    "at most 10000 Hz",
                ));
            }
            nonneg(&format!("attacker[{i}].start_s"), a.start_s)?;
            nonneg(&format!("attacker[{i}].stale_age_s"), a.stale_age_s)?;
            if a.payload_bytes > 4000 {
                return Err(ScenarioError::invalid(
                    format!("attacker[{i}].payload_bytes"),
                    "at most 4000",
                ));
            }
        }
        let mt = &self.metrics;
        pos("metrics.distance_bin_m", mt.distance_bin_m)?;
        pos("metrics.max_distance_m", mt.max_distance_m)?;
        if mt.max_distance_m / mt.distance_bin_m > 10_000.0 {
            return Err(ScenarioError::invalid("metrics.distance_bin_m", "at most 10000 bins"));
        }
        pos("metrics.headline_range_m", mt.headline_range_m)?;
        pos("metrics.awareness_radius_m", mt.awareness_radius_m)?;
        pos("metrics.awareness_window_ms", mt.awareness_window_ms)?;
        pos("metrics.awareness_sample_interval_s", mt.awareness_sample_interval_s)?;
        pos("metrics.awareness_max_error_m", mt.awareness_max_error_m)?;
        if self.variants.is_empty() {
            return Err(ScenarioError::invalid("variant", "at least one [[variant]] is needed"));
        }
        let mut names = std::collections::HashSet::new();
        for (i, v) in self.variants.iter().enumerate() {
            let f = |n: &str| format!("variant[{i}].{n}");
            if v.name.is_empty()
                || !v
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
            {
                return Err(ScenarioError::invalid(
                    f("name"),
                    "must be non-empty letters, digits, '-', '_' or '.'",
                ));
            }
            if !names.insert(v.name.as_str()) {
                return Err(ScenarioError::invalid(
                    f("name"),
                    format!("duplicate variant name {}", v.name),
                ));
            }
            if crate::security::ProtocolKind::from_id(&v.protocol).is_none() {
                return Err(ScenarioError::invalid(
                    f("protocol"),
                    format!(
                        "unknown protocol {:?} (none, ieee1609.2, etsi-v1.2.1, raw, tesla, tesla-attached, hash-chain)",
                        v.protocol
                    ),
                ));
            }
            nonneg(&f("verify_cost_us"), v.verify_cost_us)?;
            nonneg(&f("sign_cost_us"), v.sign_cost_us)?;
            pos(&f("deadline_ms"), v.deadline_ms)?;
            pos(&f("freshness_ms"), v.freshness_ms)?;
            pos(&f("tesla_disclosure_delay_s"), v.tesla_disclosure_delay_s)?;
            if v.cores > 1024 {
                return Err(ScenarioError::invalid(f("cores"), "at most 1024"));
            }
            if v.overhead_bytes.unwrap_or(0) > 4000 || v.overhead_with_certificate_bytes.unwrap_or(0) > 4000 {
                return Err(ScenarioError::invalid(f("overhead_bytes"), "at most 4000"));
            }
            if v.tesla_key_frame_bytes == 0 || v.tesla_key_frame_bytes > 4000 || v.tesla_attached_key_bytes > 4000 {
                return Err(ScenarioError::invalid(f("tesla_key_frame_bytes"), "between 1 and 4000"));
            }
            match v.certificate {
                Some(CertificatePolicy::EveryNth { n: 0 }) => {
                    return Err(ScenarioError::invalid(f("certificate.n"), "must be at least 1"));
                }
                Some(CertificatePolicy::Interval { interval_s }) => pos(&f("certificate.interval_s"), interval_s)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The resolved configuration (all defaults filled in) as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_else(|e| format!("# cannot serialise scenario: {e}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_from_empty_file_and_round_trip() {
        let s = Scenario::parse("", "empty").unwrap();
        assert_eq!(s, Scenario::default());
        let again = Scenario::parse(&s.to_toml(), "resolved").unwrap();
        assert_eq!(again, s);
    }

    #[test]
    fn unknown_field_reports_line() {
        let e = Scenario::parse("duration_s = 5\n\n[radio]\ntx_powr_dbm = 3\n", "t.toml").unwrap_err();
        match e {
            ScenarioError::Syntax { line, message, .. } => {
                assert_eq!(line, 4, "{message}");
                assert!(message.contains("tx_powr_dbm"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_value_names_field() {
        let e = Scenario::parse("duration_s = -1\n", "t.toml").unwrap_err();
        assert!(e.to_string().contains("duration_s"), "{e}");
        let e = Scenario::parse("[radio]\ndata_rate_mbps = 5\n", "t.toml").unwrap_err();
        assert!(e.to_string().contains("radio.data_rate_mbps"), "{e}");
        let e = Scenario::parse("[[variant]]\nname='a'\nprotocol='rsa'\n", "t.toml").unwrap_err();
        assert!(e.to_string().contains("variant[0].protocol"), "{e}");
        let e = Scenario::parse("duration_s = 'ten'\n", "t.toml").unwrap_err();
        assert!(matches!(e, ScenarioError::Syntax { line: 1, .. }), "{e:?}");
    }
}
