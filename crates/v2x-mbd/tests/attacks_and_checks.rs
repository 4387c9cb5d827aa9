//! Every attack and every check on a hand-computed trace: two vehicles driving north at
//! 10 m/s, 10 m apart, sending at 1 Hz to a receiver 200 m behind their start.

use v2x_mbd::attacks::{inject, Attack, InjectConfig, ALL_NAMES};
use v2x_mbd::checks::{catch, legacy, CheckId, Thresholds};
use v2x_mbd::detector::{Detector, DetectorConfig};
use v2x_mbd::{Kinematics, Message, Observation};

fn msg(vehicle: u32, k: i64) -> Message {
    let y = 10.0 * k as f64;
    let mut sender = Kinematics::at([10.0 * f64::from(vehicle), y], 10.0, 0.0, 0.5);
    sender.pos_noise = [1.0, 0.0, 0.0];
    sender.spd_noise = 0.1;
    sender.hed_noise = 1.0;
    Message {
        rcv_time_ns: k * 1_000_000_000 + 1000 + i64::from(vehicle) * 50_000_000,
        send_time_ns: k * 1_000_000_000 + i64::from(vehicle) * 50_000_000,
        sender_id: format!("v{vehicle}"),
        sender_alias: 100 + u64::from(vehicle),
        message_id: (k as u64) * 10 + u64::from(vehicle),
        attacker: 0,
        receiver: Kinematics::at([0.0, -200.0], 0.0, 0.0, 0.0),
        sender,
    }
}

fn trace() -> Vec<Message> {
    (0..20).flat_map(|k| [msg(0, k), msg(1, k)]).collect()
}

fn attacked(name: &str) -> Vec<Message> {
    inject(
        &trace(),
        &Attack::from_name(name).unwrap(),
        &InjectConfig { ratio: 1.0, seed: 3 },
    )
}

#[test]
fn every_attack_lies_as_documented() {
    let base = trace();
    for name in ALL_NAMES {
        let out = attacked(name);
        let lying = out.iter().filter(|m| m.is_attack()).count();
        let changed = |f: &dyn Fn(&Message, &Message) -> bool| {
            out.iter()
                .filter(|m| base.iter().any(|b| b.message_id == m.message_id && f(b, m)))
                .count()
        };
        let added = out.len() - base.len();
        match name {
            "timeDelayAttack" => assert_eq!(
                changed(&|b, m| (2e9..=4e9).contains(&((m.send_time_ns - b.send_time_ns) as f64))),
                40
            ),
            "constantPositionOffset"
            | "ConstPosOffset"
            | "randomPositionOffset"
            | "RandomPosOffset"
            | "ConstPos"
            | "RandomPos" => {
                assert!(changed(&|b, m| b.sender.pos != m.sender.pos) >= 38, "{name}")
            }
            "positionMirroring" => {
                // Heading north: the mirror is 6.4 m to the west.
                assert_eq!(
                    changed(&|b, m| (b.sender.pos[0] - m.sender.pos[0] - 6.4).abs() < 1e-9),
                    40
                )
            }
            "constantSpeedOffset" | "randomSpeedOffset" => {
                assert_eq!(
                    changed(&|b, m| (1.0..=7.0).contains(&(m.sender.spd - b.sender.spd).abs())),
                    40,
                    "{name}"
                )
            }
            "ConstSpeed" | "ConstSpeedOffset" | "RandomSpeed" | "RandomSpeedOffset" => {
                assert!(changed(&|b, m| b.sender.spd != m.sender.spd) >= 38, "{name}")
            }
            "zeroSpeedReport" => assert_eq!((changed(&|_, m| m.sender.spd == 0.0), lying), (40, 40)),
            "reversedHeading" => assert_eq!((changed(&|_, m| m.sender.hed == 180.0), lying), (40, 40)),
            "feignedBraking" => {
                // 0.5 m/s² × −(2..4), labelled (0.5 > 0.25).
                assert_eq!(
                    (changed(&|_, m| (-2.0..=-1.0).contains(&m.sender.acl)), lying),
                    (40, 40)
                )
            }
            "accelerationMultiplication" => {
                // 0.5 m/s² × 2..4 is changed but not labelled (NextGen labels above |0.5|).
                assert_eq!((changed(&|_, m| (1.0..=2.0).contains(&m.sender.acl)), lying), (40, 0))
            }
            "suddenStop" | "EventualStop" => {
                // Once triggered, the stop position and speed 0 hold; with p = 0.05 over 20
                // messages a vehicle may not trigger: what is labelled stands still.
                assert!(
                    out.iter().filter(|m| m.is_attack()).all(|m| m.sender.spd == 0.0),
                    "{name}"
                )
            }
            "suddenConstantSpeed" => assert_eq!(lying, 0, "steady speed: freezing it changes nothing"),
            "dosAttack" => {
                assert!((40..=120).contains(&added) && lying == out.len(), "{added}");
                assert!(out
                    .iter()
                    .all(|m| m.message_id < 2_000_000
                        || base.iter().any(|b| m.message_id - 2_000_000 - b.message_id < 3)));
            }
            "trafficCongestionSybil" => {
                assert!((160..=240).contains(&added) && lying == added, "{added} {lying}");
                let phantom = out.iter().find(|m| m.is_attack()).unwrap();
                assert!(phantom.send_time_ns >= 2_000_000_000, "phantoms come 2-200 s later");
                assert!(base.iter().all(|b| b.sender_alias != phantom.sender_alias));
            }
            "dataReplay" | "Disruptive" => {
                // The content is the other vehicle's.
                assert!(
                    lying > 0
                        && out
                            .iter()
                            .filter(|m| m.is_attack())
                            .all(|m| base.iter().any(|b| b.sender_id != m.sender_id && b.sender == m.sender)),
                    "{name}"
                )
            }
            "DataReplay" | "DataReplaySybil" | "DelayedMessages" => assert!(lying > 0, "{name}"),
            "DoS" | "DoSRandom" | "DoSDisruptive" | "DoSRandomSybil" | "DoSDisruptiveSybil" => {
                assert_eq!(added, 80, "{name}");
                assert_eq!(lying, 120, "{name}");
            }
            "GridSybil" => assert_eq!((added, lying), (160, 200)),
            "faultySensor" => assert!(changed(&|b, m| b.sender.pos != m.sender.pos) == 40),
            "intermittent" => assert!(lying > 0 && lying < 40, "{lying}"),
            other => panic!("no test for {other}"),
        }
    }
    assert!(Attack::from_name("nope").unwrap_err().contains("timeDelayAttack"));
}

fn obs(m: &Message) -> Observation {
    Observation::from_message(m)
}

#[test]
fn every_check_by_hand() {
    let t = Thresholds::default();
    let (a, b) = (obs(&msg(0, 1)), obs(&msg(0, 2)));
    // Honest consecutive messages pass every check of both families.
    for (name, legacy_v, catch_v) in [
        ("range", legacy::range(&b, &t), catch::range(&b, &t)),
        (
            "speed",
            legacy::speed_plausibility(&b, &t),
            catch::speed_plausibility(&b, &t),
        ),
        (
            "pos",
            legacy::position_consistency(&b, &a, 1.0, &t),
            catch::position_consistency(&b, &a, 1.0, &t),
        ),
        (
            "spd",
            legacy::speed_consistency(&b, &a, 1.0, &t),
            catch::speed_consistency(&b, &a, 1.0, &t),
        ),
        (
            "pos-spd",
            legacy::position_speed_consistency(&b, &a, 1.0, &t),
            catch::position_speed_consistency(&b, &a, 1.0, &t),
        ),
        (
            "beacon",
            legacy::beacon_frequency(1.0, &t),
            catch::beacon_frequency(1.0, &t),
        ),
    ] {
        assert_eq!(legacy_v, 1.0, "{name}");
        assert!(catch_v >= 0.5, "{name} {catch_v}");
    }
    // Range: 700 m > 418 m.
    let mut far = b;
    far.position = [0.0, 500.0];
    assert_eq!(legacy::range(&far, &t), 0.0);
    assert!(catch::range(&far, &t) < 0.5);
    // Speed 70 m/s > 62.3 m/s.
    let mut fast = b;
    fast.speed_mps = 70.0;
    assert_eq!(legacy::speed_plausibility(&fast, &t), 0.0);
    assert_eq!(catch::speed_plausibility(&fast, &t), 0.0);
    // 10 m/s to 25 m/s in 1 s: 15 m/s² > 5.4.
    let mut jump = b;
    jump.speed_mps = 25.0;
    assert_eq!(legacy::speed_consistency(&jump, &a, 1.0, &t), 0.0);
    assert!(catch::speed_consistency(&jump, &a, 1.0, &t) < 0.5);
    // 100 m in 1 s: beyond 62.3 m; and inconsistent with 10 m/s.
    let mut teleport = b;
    teleport.position = [0.0, 110.0];
    assert_eq!(legacy::position_consistency(&teleport, &a, 1.0, &t), 0.0);
    assert!(catch::position_consistency(&teleport, &a, 1.0, &t) < 0.5);
    assert_eq!(legacy::position_speed_consistency(&teleport, &a, 1.0, &t), 0.0);
    assert!(catch::position_speed_consistency(&teleport, &a, 1.0, &t) < 0.5);
    // Driving north but reporting south, 0.2 s apart (within pht 0.398 s).
    let mut c = b;
    c.generation_time_s = a.generation_time_s + 0.2;
    c.position = [0.0, a.position[1] + 2.0];
    c.heading_deg = 180.0;
    c.position_confidence_m = 0.5;
    let mut a = a;
    a.position_confidence_m = 0.5;
    assert_eq!(legacy::position_heading_consistency(&c, &a, 0.2, &t), 0.0);
    assert!(catch::position_heading_consistency(&c, &a, 0.2, &t) < 0.5);
    c.heading_deg = 10.0;
    assert_eq!(legacy::position_heading_consistency(&c, &a, 0.2, &t), 1.0);
    // Two CAMs 50 ms apart: under 80 ms.
    assert_eq!(legacy::beacon_frequency(0.05, &t), 0.0);
    // A new pseudonym 50 m from the receiver: sudden appearance (< 150 m).
    let mut near = b;
    near.position = [0.0, -150.0];
    assert_eq!(legacy::sudden_appearance(&near, &t), 0.0);
    assert!(catch::sudden_appearance(&near, &t) < 0.5);
    assert_eq!(legacy::sudden_appearance(&far, &t), 1.0);
    // Off the road by 10 m while driving.
    let mut off = b;
    off.distance_to_road_edge_m = Some(-10.0);
    assert_eq!(legacy::position_plausibility(&off, &t), 0.0);
    assert_eq!(catch::position_plausibility(&off, &t), 0.0);
    off.distance_to_road_edge_m = Some(1.0);
    assert_eq!(catch::position_plausibility(&off, &t), 1.0);
    // Two cars on the same spot overlap; 10 m apart they do not.
    let other = obs(&msg(1, 2));
    let mut same = other;
    same.position = b.position;
    assert_eq!(legacy::intersection(&b, &same, 0.0, &t), 0.0);
    assert!(catch::intersection(&b, &same, 0.0, &t) < 0.5);
    assert_eq!(legacy::intersection(&b, &other, 0.0, &t), 1.0);
}

#[test]
fn detector_flags_each_attack_kind_on_the_hand_trace() {
    let run = |msgs: &[Message], cfg: DetectorConfig| -> Vec<(bool, Vec<CheckId>)> {
        let mut d = Detector::new(cfg);
        msgs.iter()
            .map(|m| {
                let v = d.observe(&obs(m));
                (v.flagged, v.reasons)
            })
            .collect()
    };
    // Honest: nothing flagged by the full detector.
    let honest = run(&trace(), DetectorConfig::full(v2x_mbd::checks::Family::Catch));
    assert!(honest.iter().all(|(f, _)| !f), "{honest:?}");
    // A teleport: position checks and the Kalman filter fire.
    let mut t = trace();
    t[20].sender.pos[1] += 80.0;
    let v = run(&t, DetectorConfig::full(v2x_mbd::checks::Family::Catch));
    assert!(
        v[20].0 && v[20].1.contains(&CheckId::PositionConsistency) && v[20].1.contains(&CheckId::KalmanPosition),
        "{:?}",
        v[20]
    );
    // A copy of another pseudonym's content: replay evidence.
    let mut r = trace();
    r[21].sender = r[20].sender.clone();
    let v = run(&r, DetectorConfig::full(v2x_mbd::checks::Family::Catch));
    assert!(v[21].1.contains(&CheckId::ContentReplay), "{:?}", v[21]);
    // The same content again under a new time: a flood copy.
    let mut f = trace();
    let mut copy = f[20].clone();
    copy.send_time_ns += 250_000_000;
    copy.rcv_time_ns += 250_000_000;
    let mut copy2 = copy.clone();
    copy2.send_time_ns += 250_000_000;
    copy2.rcv_time_ns += 250_000_000;
    f.insert(22, copy);
    f.insert(23, copy2);
    let v = run(&f, DetectorConfig::full(v2x_mbd::checks::Family::Catch));
    assert!(v[22].1.contains(&CheckId::DuplicateContent), "{:?}", v[22]);
    // Two flags in 5 s: sender-level fusion convicts the flooding pseudonym, and its next
    // honest-looking message (index 24, vehicle 0 at 11 s) is flagged too.
    assert_eq!(f[24].sender_id, "v0");
    assert!(v[24].0, "{:?}", v[24]);
    assert!(!v[25].0, "the other vehicle is not convicted: {:?}", v[25]);
}

#[test]
fn sender_level_fusion_convicts_the_replayer_not_its_victim_nor_close_neighbours() {
    let full = || Detector::new(DetectorConfig::full(v2x_mbd::checks::Family::Catch));
    // Vehicle 1 replays vehicle 0's content of the previous second from 5 s on.
    let mut t = trace();
    for k in 5..20 {
        let victim = t[2 * (k - 1)].sender.clone();
        t[2 * k + 1].sender = victim;
    }
    let mut d = full();
    let v: Vec<_> = t.iter().map(|m| d.observe(&obs(m))).collect();
    for (m, v) in t.iter().zip(&v) {
        let k = m.send_time_ns / 1_000_000_000;
        match m.sender_id.as_str() {
            "v0" => assert!(!v.flagged, "the victim is not convicted: {v:?}"),
            _ if k >= 5 => assert!(v.flagged, "every replayed message is flagged: {v:?}"),
            _ => assert!(!v.flagged && v.retro.is_empty(), "{v:?}"),
        }
    }
    assert!(v[11].reasons.contains(&CheckId::ContentReplay), "{:?}", v[11]);
    // Two honest cars declared 0.5 m apart (noisy positions in a queue): their footprints
    // overlap on every message. Threshold
    // fusion flags them; sender-level fusion does not convict on an overlap (it cannot
    // tell which of the two lies).
    let mut close = trace();
    for m in close.iter_mut().filter(|m| m.sender_id == "v1") {
        m.sender.pos[0] = 0.5;
    }
    let mut threshold = Detector::new(DetectorConfig::catch_reference());
    let mut d = full();
    let mut overlaps = 0;
    for m in &close {
        let (a, b) = (threshold.observe(&obs(m)), d.observe(&obs(m)));
        overlaps += usize::from(a.reasons.contains(&CheckId::Intersection));
        assert!(!b.flagged, "{b:?}");
    }
    assert!(overlaps >= 19, "{overlaps}");
}

#[test]
fn the_radios_reach_bounds_the_range_check() {
    // 20 dBm, -82 dBm over ns-3's three-log-distance loss (46.7 dB at 1 m, exponent 1.9 to
    // 200 m, 3.8 beyond) and Nakagami m = 0.75: the mean falls to -82 dBm near 410 m; a
    // frame still arrives 1 in 10^4 times where the mean is ~10 dB lower, near 730 m.
    let reach = v2x_mbd::checks::Thresholds::radio_reach_m(20.0, -82.0, 1e-4);
    assert!((650.0..800.0).contains(&reach), "{reach}");
    assert!(v2x_mbd::checks::Thresholds::radio_reach_m(20.0, -82.0, 0.5) < 450.0);
    assert!(v2x_mbd::checks::Thresholds::radio_reach_m(33.0, -82.0, 1e-4) > reach * 1.5);
    assert_eq!(
        DetectorConfig::full(v2x_mbd::checks::Family::Catch)
            .thresholds
            .max_plausible_range_m,
        reach
    );
}

#[test]
fn occasional_borderline_failures_do_not_convict_persistent_or_clear_ones_do() {
    // Vehicle 0 moves 10 m a second; find a reported speed whose CaTCh position-speed
    // score is borderline (0.3-0.45: an honest noisy claim just past a bound) and one that
    // fails clearly (< 0.1).
    let t = Thresholds::default();
    let (a, b) = (obs(&msg(0, 1)), obs(&msg(0, 2)));
    // The score of a message reporting `speed` (confidence 2 m/s, as a noisy honest
    // sender would declare) after one reporting `before`.
    let score = |before: f64, speed: f64| {
        let (mut p, mut c) = (a, b);
        p.speed_mps = before;
        c.speed_mps = speed;
        c.speed_confidence_mps = 2.0;
        catch::position_speed_consistency(&c, &p, 1.0, &t)
    };
    let speeds: Vec<f64> = (0..400).map(|i| 10.0 - f64::from(i) * 0.01).collect();
    let find = |f: &dyn Fn(f64) -> bool| *speeds.iter().find(|&&v| f(v)).unwrap();
    let borderline = find(&|v| (0.3..0.45).contains(&score(v, v)));
    let borderline_once = find(&|v| (0.3..0.45).contains(&score(10.0, v)));
    let clear = find(&|v| score(v, v) < 0.1);
    // Vehicle 0 reports `speed` on the messages `lie` picks (the rest honestly).
    let run = |speed: f64, lie: &dyn Fn(i64) -> bool, cfg: DetectorConfig| {
        let mut tr = trace();
        for m in tr.iter_mut().filter(|m| m.sender_id == "v0") {
            if lie(m.send_time_ns / 1_000_000_000) {
                m.sender.spd = speed;
                m.sender.spd_noise = 2.0;
            }
        }
        let mut d = Detector::new(cfg);
        tr.iter().filter(|m| d.observe(&obs(m)).flagged).count()
    };
    let full = || DetectorConfig::full(v2x_mbd::checks::Family::Catch);
    let always = |_| true;
    // Every eighth message borderline (an honest sender's noise; it and the next one fail):
    // never flagged by the full detector, each time by threshold fusion.
    let sometimes = |k: i64| k % 8 == 0;
    assert!(run(borderline_once, &sometimes, DetectorConfig::catch_reference()) >= 4);
    assert_eq!(run(borderline_once, &sometimes, full()), 0, "speed {borderline_once}");
    // Kept up on every message (a speed offset): convicted from the fourth on.
    assert!(run(borderline, &always, full()) >= 16, "speed {borderline}");
    // Clear failures convict from the second.
    assert!(run(clear, &always, full()) >= 18, "speed {clear}");
}

/// One vehicle accelerating at 1 m/s² from 10 m/s, sending at 1 Hz (y = 10 k + k²/2),
/// declaring its acceleration with the hand trace's confidences (speed 0.1 m/s,
/// acceleration 0.1 m/s²).
fn accelerating(k: i64) -> Message {
    let mut m = msg(0, k);
    let t = k as f64;
    m.sender.pos[1] = 10.0 * t + t * t / 2.0;
    m.sender.spd = 10.0 + t;
    m.sender.acl = 1.0;
    m.sender.acl_noise = 0.1;
    m
}

#[test]
fn acceleration_consistency_by_hand() {
    let t = Thresholds::default();
    assert_eq!(t.max_accel_mismatch_mps2, 2.5);
    let (a, mut b) = (obs(&accelerating(1)), obs(&accelerating(2)));
    // 11 -> 12 m/s in 1 s, declared +1 m/s²: no mismatch.
    assert_eq!(legacy::acceleration_consistency(&b, &a, 1.0, &t), 1.0);
    assert_eq!(catch::acceleration_consistency(&b, &a, 1.0, &t), 1.0);
    // Feigned braking (NextGen: a positive acceleration times -3): declared -3 m/s² while
    // the speeds say +1: 4 m/s² apart, beyond 2.5 by more than the confidences (observed
    // side (0.1 + 0.1) / 1 s, declared side 0.1).
    b.acceleration_mps2 = -3.0;
    assert_eq!(legacy::acceleration_consistency(&b, &a, 1.0, &t), 0.0);
    assert_eq!(catch::acceleration_consistency(&b, &a, 1.0, &t), 0.0);
    // Exactly the tolerance apart (declared -1.5): CaTCh's two segments are split at their
    // centres (d1 = 1.256, d2 = 1.244 against half the range, 1.25): (0.194 + 0.106) / 0.6.
    b.acceleration_mps2 = -1.5;
    assert_eq!(legacy::acceleration_consistency(&b, &a, 1.0, &t), 1.0);
    assert!((catch::acceleration_consistency(&b, &a, 1.0, &t) - 0.5).abs() < 1e-9);
    // A burst copy 125 ms later (DoS): the same speed, declared +1; the speeds' confidences
    // over 0.125 s (1.6 m/s²) cover most of the 1 m/s² mismatch: 3.2 of 3.4 plausible.
    let mut copy = a;
    copy.generation_time_s += 0.125;
    assert!((catch::acceleration_consistency(&copy, &a, 0.125, &t) - 16.0 / 17.0).abs() < 1e-9);
    // Beyond max_time_delta_s the mean says nothing.
    assert_eq!(catch::acceleration_consistency(&b, &a, 5.0, &t), 1.0);
}

#[test]
fn feigned_braking_is_convicted_and_honest_acceleration_is_not() {
    let trace: Vec<Message> = (0..12).map(accelerating).collect();
    let run = |msgs: &[Message], cfg: DetectorConfig| -> Vec<Vec<CheckId>> {
        let mut d = Detector::new(cfg);
        msgs.iter().map(|m| d.observe(&obs(m))).map(|v| v.reasons).collect()
    };
    let flags = |msgs: &[Message]| v2x_mbd::eval::predict(msgs, &DetectorConfig::full(v2x_mbd::checks::Family::Catch));
    assert!(flags(&trace).iter().all(|f| !f), "honest acceleration flagged");
    let honest = run(&trace, DetectorConfig::plausibility(v2x_mbd::checks::Family::Catch));
    assert!(honest.iter().all(Vec::is_empty), "{honest:?}");
    // Our feignedBraking (ratio 1: the vehicle attacks; factor 2-4): every message
    // declares -2 to -4 m/s² while the speed rises by 1 m/s per second.
    let lied = inject(
        &trace,
        &Attack::from_name("feignedBraking").unwrap(),
        &InjectConfig { ratio: 1.0, seed: 3 },
    );
    assert!(lied.iter().all(|m| m.sender.acl <= -2.0 && m.is_attack()));
    let reasons = run(&lied, DetectorConfig::plausibility(v2x_mbd::checks::Family::Catch));
    assert!(
        reasons[1..].iter().all(|r| r == &[CheckId::AccelerationConsistency]),
        "{reasons:?}"
    );
    // The full detector convicts it at the fourth failing message (4 s: four failures,
    // half of its last 5 s; one failure alone never convicts, CheckId::convicts_alone),
    // flags the previous 1 s (3 s) after the fact, and every message after.
    let f = flags(&lied);
    assert!(f[..3].iter().all(|x| !x), "{f:?}");
    assert!(f[3..].iter().all(|x| *x), "{f:?}");
}
