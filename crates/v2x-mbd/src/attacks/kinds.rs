//! Every attack kind with its parameters, per-attacker state and per-transmission lie.

use super::{signed_uniform, History, Sent};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

const NS: i64 = 1_000_000_000;
/// Message ids of added messages start here above the original's (as NextGen's).
const EXTRA_ID: u64 = 2_000_000;

/// An attack and its parameters. Ranges are drawn uniformly once per attacker ("per
/// attacker") or per transmission ("per message"); ± means a random sign.
#[derive(Debug, Clone, PartialEq)]
pub enum Attack {
    // --- VeReMi NextGen (attackGenerator.py) ---
    /// `timeDelayAttack`: send and reception times later by 2–4 s (per attacker).
    TimeDelay,
    /// `constantPositionOffset`: position + (±20–70 m, ±20–70 m) per attacker.
    ConstantPositionOffset,
    /// `randomPositionOffset`: position + (±20–70 m, ±20–70 m) per message.
    RandomPositionOffset,
    /// `positionMirroring`: position moved to the left of the heading by the distance to
    /// the far side of the road: `2 × distance_to_road_edge` when the trace has it, else
    /// `fallback_offset_m`.
    PositionMirroring { fallback_offset_m: f64 },
    /// `constantSpeedOffset`: speed ± 1–7 m/s per attacker.
    ConstantSpeedOffset,
    /// `randomSpeedOffset`: speed ± 1–7 m/s per message.
    RandomSpeedOffset,
    /// `zeroSpeedReport`: speed 0; labelled when the true speed is > 1 m/s and the vehicle
    /// moved > 1 m since its previous message.
    ZeroSpeed,
    /// `suddenStop`: with probability `probability` per message, the vehicle reports its
    /// current position with speed and acceleration 0 from then on; labelled at the trigger
    /// when moving (> 1 m/s, not braking), after it while moving or ≥ 20 m away.
    SuddenStop { probability: f64 },
    /// `suddenConstantSpeed`: with probability `probability` per message, the speed is
    /// frozen from the next message on; labelled when the true speed exceeds it by > 1 m/s.
    SuddenConstantSpeed { probability: f64 },
    /// `reversedHeading`: heading + 180°; labelled as `ZeroSpeed`.
    ReversedHeading,
    /// `feignedBraking`: a positive acceleration multiplied by −(2–4) (per attacker);
    /// labelled above 0.25 m/s².
    FeignedBraking,
    /// `accelerationMultiplication`: acceleration × 2–4 (per attacker); labelled above
    /// |0.5| m/s².
    AccelerationMultiplication,
    /// `dosAttack`: each message followed by `amount − 1` copies (2–4 per attacker)
    /// `500 ms / amount` apart; all labelled.
    DosNextGen,
    /// `trafficCongestionSybil`: each message followed by 4–6 phantoms (per attacker) with
    /// fresh ids, 2–3 m beside and 5–6 m × ⌈i/2⌉ ahead or behind (±2 m noise), speed and
    /// acceleration ± 5 %, times `frequency × (2 000 000 + i)` ns later (frequency 1–100 µs
    /// per attacker, as the generator computes it); phantoms labelled, the original not.
    TrafficCongestionSybil,
    /// `dataReplay`: each message replaced by the next message of a victim heard within
    /// 400 m and 5 s, 4–8 in a row (per attacker) before another victim is chosen.
    DataReplayNextGen,
    // --- F2MD / VeReMi Extension ---
    /// `ConstPos`: a fixed random position in the trace's bounds.
    ConstPos,
    /// `ConstPosOffset`: position + (±0–70 m, ±0–70 m) per attacker.
    ConstPosOffset,
    /// `RandomPos`: a random position in the bounds per message.
    RandomPos,
    /// `RandomPosOffset`: position + (±0–70 m, ±0–70 m) per message.
    RandomPosOffset,
    /// `ConstSpeed`: a fixed speed in 0–40 m/s per attacker.
    ConstSpeed,
    /// `ConstSpeedOffset`: speed ± 0–20 m/s per attacker.
    ConstSpeedOffset,
    /// `RandomSpeed`: speed in 0–40 m/s per message.
    RandomSpeed,
    /// `RandomSpeedOffset`: speed ± 0–20 m/s per message.
    RandomSpeedOffsetF2md,
    /// `EventualStop`: with probability `probability` per message, position frozen and
    /// speed 0 from then on (all later messages labelled).
    EventualStop { probability: f64 },
    /// `Disruptive`: each message carries a random neighbour's content of the last 5 s.
    Disruptive,
    /// `DataReplay`: one victim (the nearest when the attack starts) replayed `delay_s` late.
    DataReplay { delay_s: f64 },
    /// `DelayedMessages`: the attacker's own content of `delay_s` earlier under the current
    /// time.
    DelayedMessages { delay_s: f64 },
    /// `DoS`: `factor − 1` extra messages per message (dead-reckoned true content).
    Dos { factor: u32 },
    /// `DoSRandom`: extra messages with random positions.
    DosRandom { factor: u32 },
    /// `DoSDisruptive`: extra messages with neighbours' content.
    DosDisruptive { factor: u32 },
    /// `GridSybil`: `ghosts` extra vehicles in a grid around the attacker (3.5 m lanes, 10 m
    /// apart), each under its own pseudonym.
    GridSybil { ghosts: u32 },
    /// `DataReplaySybil`: `DataReplay` under a new pseudonym per message.
    DataReplaySybil { delay_s: f64 },
    /// `DoSRandomSybil`: `DoSRandom` under a new pseudonym per message.
    DosRandomSybil { factor: u32 },
    /// `DoSDisruptiveSybil`: `DoSDisruptive` under a new pseudonym per message.
    DosDisruptiveSybil { factor: u32 },
    // --- non-malicious and intermittent ---
    /// `faultySensor`: a GNSS fault — the position drifts (random walk, `drift_sd_m` per
    /// message) away from the truth; labelled once more than 5 m off.
    FaultySensor { drift_sd_m: f64 },
    /// `intermittent`: the inner attack only during `on_s` out of every `on_s + off_s`
    /// seconds (per-attacker phase); honest and unlabelled otherwise.
    Intermittent { inner: Box<Attack>, on_s: f64, off_s: f64 },
}

/// VeReMi NextGen's 15 names, F2MD's 19 names (VeReMi Extension), and the rest.
pub const NEXTGEN_NAMES: [&str; 15] = [
    "timeDelayAttack",
    "constantPositionOffset",
    "randomPositionOffset",
    "positionMirroring",
    "constantSpeedOffset",
    "randomSpeedOffset",
    "zeroSpeedReport",
    "suddenStop",
    "suddenConstantSpeed",
    "reversedHeading",
    "feignedBraking",
    "accelerationMultiplication",
    "dosAttack",
    "trafficCongestionSybil",
    "dataReplay",
];
pub const F2MD_NAMES: [&str; 19] = [
    "ConstPos",
    "ConstPosOffset",
    "RandomPos",
    "RandomPosOffset",
    "ConstSpeed",
    "ConstSpeedOffset",
    "RandomSpeed",
    "RandomSpeedOffset",
    "EventualStop",
    "Disruptive",
    "DataReplay",
    "DelayedMessages",
    "DoS",
    "DoSRandom",
    "DoSDisruptive",
    "GridSybil",
    "DataReplaySybil",
    "DoSRandomSybil",
    "DoSDisruptiveSybil",
];
pub const ALL_NAMES: [&str; 36] = {
    let mut all = [""; 36];
    let mut i = 0;
    while i < 15 {
        all[i] = NEXTGEN_NAMES[i];
        i += 1;
    }
    while i < 34 {
        all[i] = F2MD_NAMES[i - 15];
        i += 1;
    }
    all[34] = "faultySensor";
    all[35] = "intermittent";
    all
};

/// One attacker's parameters, drawn once ([`Attack::draw`]) or given (to replay another
/// generator's draws, as the agreement test with VeReMi NextGen's does).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Drawn {
    /// Position offset (m), or for `ConstPos` the position as shares of the bounds.
    pub offset: [f64; 2],
    /// The attack's scalar: speed offset or speed (m/s), acceleration factor, time delay
    /// (ns), Sybil phantom spacing (ns).
    pub value: f64,
    /// Messages per transmission (DoS amount, Sybil phantoms) or replay run length.
    pub count: u32,
    /// When a sudden stop or constant speed starts.
    pub trigger: Trigger,
    /// Intermittent attackers: the on/off phase (s) and the inner attack's parameters.
    pub phase_s: f64,
    pub inner: Option<Box<Drawn>>,
}

/// When a once-per-attacker event (sudden stop, sudden constant speed, eventual stop) fires.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Trigger {
    /// With the attack's probability per transmission.
    #[default]
    Drawn,
    /// At the transmission generated at this time (ns).
    At(i64),
    Never,
}

/// Per-attacker parameters and memory.
#[derive(Debug, Clone, Default)]
pub(super) struct State {
    offset: [f64; 2],
    value: f64,
    count: u32,
    trigger: Trigger,
    triggered: Option<Sent>,
    last_true: Option<Sent>,
    replay_alias: Option<u64>,
    replay_after_ns: i64,
    replay_seq: u32,
    own: Vec<Sent>,
    phase_s: f64,
    inner: Option<Box<State>>,
}

impl State {
    pub(super) fn new(d: &Drawn) -> State {
        State {
            offset: d.offset,
            value: d.value,
            count: d.count,
            trigger: d.trigger,
            phase_s: d.phase_s,
            inner: d.inner.as_deref().map(|i| Box::new(State::new(i))),
            ..State::default()
        }
    }

    /// Whether the once-per-attacker event fires at `m`.
    fn fires(&self, m: &Sent, probability: f64, rng: &mut ChaCha8Rng) -> bool {
        match self.trigger {
            Trigger::Drawn => rng.gen_bool(probability),
            Trigger::At(t) => m.send_time_ns == t,
            Trigger::Never => false,
        }
    }
}

impl Attack {
    /// The attack of a name, with default parameters; an unknown name lists the valid ones.
    pub fn from_name(name: &str) -> Result<Attack, String> {
        Ok(match name {
            "timeDelayAttack" => Attack::TimeDelay,
            "constantPositionOffset" => Attack::ConstantPositionOffset,
            "randomPositionOffset" => Attack::RandomPositionOffset,
            "positionMirroring" => Attack::PositionMirroring { fallback_offset_m: 6.4 },
            "constantSpeedOffset" => Attack::ConstantSpeedOffset,
            "randomSpeedOffset" => Attack::RandomSpeedOffset,
            "zeroSpeedReport" => Attack::ZeroSpeed,
            "suddenStop" => Attack::SuddenStop { probability: 0.05 },
            "suddenConstantSpeed" => Attack::SuddenConstantSpeed { probability: 0.05 },
            "reversedHeading" => Attack::ReversedHeading,
            "feignedBraking" => Attack::FeignedBraking,
            "accelerationMultiplication" => Attack::AccelerationMultiplication,
            "dosAttack" => Attack::DosNextGen,
            "trafficCongestionSybil" => Attack::TrafficCongestionSybil,
            "dataReplay" => Attack::DataReplayNextGen,
            "ConstPos" => Attack::ConstPos,
            "ConstPosOffset" => Attack::ConstPosOffset,
            "RandomPos" => Attack::RandomPos,
            "RandomPosOffset" => Attack::RandomPosOffset,
            "ConstSpeed" => Attack::ConstSpeed,
            "ConstSpeedOffset" => Attack::ConstSpeedOffset,
            "RandomSpeed" => Attack::RandomSpeed,
            "RandomSpeedOffset" => Attack::RandomSpeedOffsetF2md,
            "EventualStop" => Attack::EventualStop { probability: 0.05 },
            "Disruptive" => Attack::Disruptive,
            "DataReplay" => Attack::DataReplay { delay_s: 1.0 },
            "DelayedMessages" => Attack::DelayedMessages { delay_s: 2.0 },
            "DoS" => Attack::Dos { factor: 3 },
            "DoSRandom" => Attack::DosRandom { factor: 3 },
            "DoSDisruptive" => Attack::DosDisruptive { factor: 3 },
            "GridSybil" => Attack::GridSybil { ghosts: 4 },
            "DataReplaySybil" => Attack::DataReplaySybil { delay_s: 1.0 },
            "DoSRandomSybil" => Attack::DosRandomSybil { factor: 3 },
            "DoSDisruptiveSybil" => Attack::DosDisruptiveSybil { factor: 3 },
            "faultySensor" => Attack::FaultySensor { drift_sd_m: 1.0 },
            "intermittent" => Attack::Intermittent {
                inner: Box::new(Attack::ConstantPositionOffset),
                on_s: 5.0,
                off_s: 5.0,
            },
            _ => return Err(format!("unknown attack `{name}`; valid: {}", ALL_NAMES.join(", "))),
        })
    }

    /// Draws one attacker's parameters.
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> Drawn {
        let mut s = Drawn::default();
        match self {
            Attack::TimeDelay => s.value = rng.gen_range(2 * NS..=4 * NS) as f64,
            Attack::ConstantPositionOffset => {
                s.offset = [signed_uniform(rng, 20.0, 70.0), signed_uniform(rng, 20.0, 70.0)]
            }
            Attack::ConstantSpeedOffset => s.value = signed_uniform(rng, 1.0, 7.0),
            Attack::FeignedBraking | Attack::AccelerationMultiplication => s.value = rng.gen_range(2.0..4.0),
            Attack::DosNextGen => s.count = rng.gen_range(2..=4),
            Attack::TrafficCongestionSybil => {
                s.value = rng.gen_range(1_000..=100_000) as f64;
                s.count = rng.gen_range(4..=6);
            }
            Attack::DataReplayNextGen => s.count = rng.gen_range(4..=8),
            Attack::ConstPosOffset => s.offset = [rng.gen_range(-70.0..70.0), rng.gen_range(-70.0..70.0)],
            Attack::ConstSpeed => s.value = rng.gen_range(0.0..40.0),
            Attack::ConstSpeedOffset => s.value = rng.gen_range(-20.0..20.0),
            Attack::ConstPos => s.offset = [rng.gen::<f64>(), rng.gen::<f64>()],
            Attack::Intermittent { inner, on_s, off_s } => {
                s.phase_s = rng.gen_range(0.0..on_s + off_s);
                s.inner = Some(Box::new(inner.draw(rng)));
            }
            _ => {}
        }
        s
    }

    /// The messages one attacker sends instead of `m` (the first replaces it).
    pub(super) fn transmit(&self, s: &mut State, m: &Sent, h: &History, rng: &mut ChaCha8Rng) -> Vec<Sent> {
        let mut lie = m.clone();
        let moved = |s: &State| {
            s.last_true
                .as_ref()
                .is_none_or(|p| (p.sender.pos[0] - m.sender.pos[0]).hypot(p.sender.pos[1] - m.sender.pos[1]) > 1.0)
        };
        let mut extra = Vec::new();
        match self {
            Attack::TimeDelay => {
                lie.send_time_ns += s.value as i64;
                lie.attacker = 1;
            }
            Attack::ConstantPositionOffset | Attack::ConstPosOffset => {
                lie.sender.pos[0] += s.offset[0];
                lie.sender.pos[1] += s.offset[1];
                lie.attacker = 1;
            }
            Attack::RandomPositionOffset => {
                lie.sender.pos[0] += signed_uniform(rng, 20.0, 70.0);
                lie.sender.pos[1] += signed_uniform(rng, 20.0, 70.0);
                lie.attacker = 1;
            }
            Attack::RandomPosOffset => {
                lie.sender.pos[0] += rng.gen_range(-70.0..70.0);
                lie.sender.pos[1] += rng.gen_range(-70.0..70.0);
                lie.attacker = 1;
            }
            Attack::PositionMirroring { fallback_offset_m } => {
                let offset = m
                    .sender
                    .distance_to_road_edge
                    .map_or(*fallback_offset_m, |d| 2.0 * d.abs());
                let (sn, cs) = (m.sender.hed - 90.0).rem_euclid(360.0).to_radians().sin_cos();
                lie.sender.pos[0] += sn * offset;
                lie.sender.pos[1] += cs * offset;
                lie.attacker = 1;
            }
            Attack::ConstantSpeedOffset | Attack::ConstSpeedOffset => {
                lie.sender.spd += s.value;
                lie.attacker = 1;
            }
            Attack::RandomSpeedOffset => {
                lie.sender.spd += signed_uniform(rng, 1.0, 7.0);
                lie.attacker = 1;
            }
            Attack::RandomSpeedOffsetF2md => {
                lie.sender.spd += rng.gen_range(-20.0..20.0);
                lie.attacker = 1;
            }
            Attack::ConstSpeed => {
                lie.sender.spd = s.value;
                lie.attacker = 1;
            }
            Attack::RandomSpeed => {
                lie.sender.spd = rng.gen_range(0.0..40.0);
                lie.attacker = 1;
            }
            Attack::ZeroSpeed => {
                lie.sender.spd = 0.0;
                lie.attacker = u8::from(m.sender.spd > 1.0 && moved(s));
            }
            Attack::ReversedHeading => {
                lie.sender.hed = (m.sender.hed + 180.0).rem_euclid(360.0);
                lie.attacker = u8::from(m.sender.spd > 1.0 && moved(s));
            }
            Attack::SuddenStop { probability } | Attack::EventualStop { probability } => {
                let nextgen = matches!(self, Attack::SuddenStop { .. });
                if let Some(stop) = &s.triggered {
                    lie.sender = stop.sender.clone();
                    let away = (stop.sender.pos[0] - m.sender.pos[0]).hypot(stop.sender.pos[1] - m.sender.pos[1]);
                    lie.attacker = u8::from(!nextgen || m.sender.spd > 1.0 || away >= 20.0);
                } else if s.fires(m, *probability, rng) {
                    lie.sender.spd = 0.0;
                    lie.sender.acl = 0.0;
                    lie.attacker = u8::from(!nextgen || (m.sender.spd > 1.0 && m.sender.acl >= 0.0));
                    s.triggered = Some(lie.clone());
                }
            }
            Attack::SuddenConstantSpeed { probability } => {
                if let Some(frozen) = &s.triggered {
                    lie.sender.spd = frozen.sender.spd;
                    lie.attacker = u8::from(m.sender.spd - frozen.sender.spd > 1.0);
                } else if s.fires(m, *probability, rng) {
                    s.triggered = Some(m.clone());
                }
            }
            Attack::FeignedBraking => {
                if m.sender.acl > 0.0 {
                    lie.sender.acl *= -s.value;
                    lie.attacker = u8::from(m.sender.acl > 0.25);
                }
            }
            Attack::AccelerationMultiplication => {
                lie.sender.acl *= s.value;
                lie.attacker = u8::from(m.sender.acl.abs() > 0.5);
            }
            Attack::DosNextGen => {
                lie.attacker = 1;
                let step = (500_000_000.0 / f64::from(s.count)).round() as i64;
                for u in 1..s.count {
                    let mut c = lie.clone();
                    c.send_time_ns += step * i64::from(u);
                    c.message_id += EXTRA_ID + u64::from(u - 1);
                    extra.push(c);
                }
            }
            Attack::TrafficCongestionSybil => {
                let h_rad = m.sender.hed.to_radians();
                for i in 0..s.count {
                    let mut p = m.clone();
                    let k = EXTRA_ID + u64::from(i);
                    p.send_time_ns += (s.value as i64) * k as i64;
                    p.message_id += k;
                    p.sender_id = format!("veh_{}", rng.gen_range(1_000_000..=9_000_000));
                    p.alias = rng.gen_range(1_111_111_111..=9_999_999_999);
                    let lateral = signed_uniform(rng, 2.0, 3.0);
                    p.sender.pos[0] += -h_rad.sin() * lateral;
                    p.sender.pos[1] += h_rad.cos() * lateral;
                    let longitudinal = signed_uniform(rng, 5.0, 6.0) * f64::from(i.div_ceil(2));
                    p.sender.pos[0] += h_rad.cos() * longitudinal;
                    p.sender.pos[1] += h_rad.sin() * longitudinal;
                    p.sender.pos[0] += rng.gen_range(-2.0..=2.0);
                    p.sender.pos[1] += rng.gen_range(-2.0..=2.0);
                    p.sender.pos_noise[0] *= 1.0 + rng.gen_range(-0.1..=0.1);
                    p.sender.pos_noise[1] *= 1.0 + rng.gen_range(-0.1..=0.1);
                    p.sender.spd *= 1.0 + rng.gen_range(-0.05..=0.05);
                    p.sender.spd_noise *= 1.0 + rng.gen_range(-0.1..=0.1);
                    p.sender.acl *= 1.0 + rng.gen_range(-0.05..=0.05);
                    p.sender.acl_noise *= 1.0 + rng.gen_range(-0.1..=0.1);
                    p.sender.hed *= 1.0 + rng.gen_range(-0.01..=0.01);
                    p.sender.hed_noise *= 1.0 + rng.gen_range(-0.1..=0.1);
                    p.attacker = 1;
                    extra.push(p);
                }
            }
            Attack::DataReplayNextGen => {
                let near = h.near(
                    &m.sender_id,
                    m.sender.xy(),
                    400.0,
                    m.send_time_ns - 5 * NS,
                    m.send_time_ns,
                );
                let next = s.replay_alias.filter(|_| s.replay_seq < s.count).and_then(|a| {
                    near.iter()
                        .filter(|v| v.alias == a && v.send_time_ns > s.replay_after_ns)
                        .min_by_key(|v| v.send_time_ns)
                        .copied()
                });
                let victim = match next {
                    Some(v) => {
                        s.replay_seq += 1;
                        Some(v)
                    }
                    None => {
                        let others: Vec<&&Sent> = near.iter().filter(|v| Some(v.alias) != s.replay_alias).collect();
                        if others.is_empty() {
                            None
                        } else {
                            let alias = others[rng.gen_range(0..others.len())].alias;
                            s.replay_seq = 0;
                            s.replay_alias = Some(alias);
                            near.iter()
                                .filter(|v| v.alias == alias)
                                .min_by_key(|v| v.send_time_ns)
                                .copied()
                        }
                    }
                };
                if let Some(v) = victim {
                    s.replay_after_ns = v.send_time_ns;
                    lie.sender = v.sender.clone();
                    lie.attacker = 1;
                }
            }
            Attack::ConstPos => {
                let b = h.bounds;
                lie.sender.pos[0] = b[0] + s.offset[0] * (b[2] - b[0]);
                lie.sender.pos[1] = b[1] + s.offset[1] * (b[3] - b[1]);
                lie.attacker = 1;
            }
            Attack::RandomPos => {
                let b = h.bounds;
                lie.sender.pos[0] = rng.gen_range(b[0]..=b[2]);
                lie.sender.pos[1] = rng.gen_range(b[1]..=b[3]);
                lie.attacker = 1;
            }
            Attack::Disruptive => {
                let near = h.near(
                    &m.sender_id,
                    m.sender.xy(),
                    400.0,
                    m.send_time_ns - 5 * NS,
                    m.send_time_ns,
                );
                if !near.is_empty() {
                    lie.sender = near[rng.gen_range(0..near.len())].sender.clone();
                    lie.attacker = 1;
                }
            }
            Attack::DataReplay { delay_s } | Attack::DataReplaySybil { delay_s } => {
                let delay = (*delay_s * NS as f64) as i64;
                let near = h.near(
                    &m.sender_id,
                    m.sender.xy(),
                    400.0,
                    m.send_time_ns - delay - NS,
                    m.send_time_ns - delay,
                );
                if s.replay_alias.is_none() {
                    s.replay_alias = near
                        .iter()
                        .min_by(|a, b| {
                            let d =
                                |v: &Sent| (v.sender.pos[0] - m.sender.pos[0]).hypot(v.sender.pos[1] - m.sender.pos[1]);
                            d(a).total_cmp(&d(b))
                        })
                        .map(|v| v.alias);
                }
                if let Some(v) = near
                    .iter()
                    .filter(|v| Some(v.alias) == s.replay_alias)
                    .max_by_key(|v| v.send_time_ns)
                {
                    lie.sender = v.sender.clone();
                    lie.attacker = 1;
                }
                if matches!(self, Attack::DataReplaySybil { .. }) {
                    lie.alias = rng.gen();
                }
            }
            Attack::DelayedMessages { delay_s } => {
                let cut = m.send_time_ns - (*delay_s * NS as f64) as i64;
                if let Some(old) = s.own.iter().rev().find(|o| o.send_time_ns <= cut) {
                    lie.sender = old.sender.clone();
                    lie.attacker = 1;
                }
                s.own.push(m.clone());
                let keep = s.own.len().saturating_sub(64);
                s.own.drain(..keep);
            }
            Attack::Dos { factor }
            | Attack::DosRandom { factor }
            | Attack::DosDisruptive { factor }
            | Attack::DosRandomSybil { factor }
            | Attack::DosDisruptiveSybil { factor } => {
                lie.attacker = 1;
                let sybil = matches!(self, Attack::DosRandomSybil { .. } | Attack::DosDisruptiveSybil { .. });
                let period = s
                    .last_true
                    .as_ref()
                    .map_or(NS / 2, |p| (m.send_time_ns - p.send_time_ns).clamp(NS / 10, NS));
                let step = period / i64::from((*factor).max(1));
                let near = h.near(
                    &m.sender_id,
                    m.sender.xy(),
                    400.0,
                    m.send_time_ns - 5 * NS,
                    m.send_time_ns,
                );
                for u in 1..(*factor).max(1) {
                    let mut c = lie.clone();
                    let dt = step * i64::from(u);
                    c.send_time_ns += dt;
                    c.message_id += EXTRA_ID + u64::from(u - 1);
                    match self {
                        Attack::Dos { .. } => {
                            let (sn, cs) = m.sender.hed.to_radians().sin_cos();
                            let d = m.sender.spd * dt as f64 / NS as f64;
                            c.sender.pos[0] += sn * d;
                            c.sender.pos[1] += cs * d;
                        }
                        Attack::DosRandom { .. } | Attack::DosRandomSybil { .. } => {
                            let b = h.bounds;
                            c.sender.pos[0] = rng.gen_range(b[0]..=b[2]);
                            c.sender.pos[1] = rng.gen_range(b[1]..=b[3]);
                        }
                        _ => {
                            if !near.is_empty() {
                                c.sender = near[rng.gen_range(0..near.len())].sender.clone();
                            }
                        }
                    }
                    if sybil {
                        c.alias = rng.gen();
                    }
                    extra.push(c);
                }
                if sybil {
                    lie.alias = rng.gen();
                }
            }
            Attack::GridSybil { ghosts } => {
                lie.attacker = 1;
                if s.own.is_empty() {
                    s.own = (0..*ghosts).map(|_| m.clone()).collect();
                    for g in &mut s.own {
                        g.alias = rng.gen();
                    }
                }
                let (sn, cs) = m.sender.hed.to_radians().sin_cos();
                for (i, g) in s.own.iter().enumerate() {
                    let (lane, row) = ((i % 2) as f64 * 2.0 - 1.0, (i / 2 + 1) as f64);
                    let mut c = lie.clone();
                    // 3.5 m to the side (left, right alternately), 10 m behind per row.
                    c.sender.pos[0] += cs * 3.5 * lane - sn * 10.0 * row;
                    c.sender.pos[1] += -sn * 3.5 * lane - cs * 10.0 * row;
                    c.alias = g.alias;
                    c.message_id += EXTRA_ID + i as u64;
                    c.send_time_ns += 1_000_000 * (i as i64 + 1);
                    extra.push(c);
                }
            }
            Attack::FaultySensor { drift_sd_m } => {
                let n = rand_distr::Normal::new(0.0, *drift_sd_m).expect("finite sd");
                s.offset[0] += rng.sample(n);
                s.offset[1] += rng.sample(n);
                lie.sender.pos[0] += s.offset[0];
                lie.sender.pos[1] += s.offset[1];
                lie.attacker = u8::from(s.offset[0].hypot(s.offset[1]) > 5.0);
            }
            Attack::Intermittent { inner, on_s, off_s } => {
                let t = m.send_time_ns as f64 / NS as f64 + s.phase_s;
                let st = s.inner.as_mut().expect("drawn with the attack");
                if t.rem_euclid(on_s + off_s) < *on_s {
                    let out = inner.transmit(st, m, h, rng);
                    s.last_true = Some(m.clone());
                    return out;
                }
            }
        }
        s.last_true = Some(m.clone());
        let mut out = vec![lie];
        out.extend(extra);
        out
    }
}
