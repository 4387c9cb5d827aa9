//! Scores of a detector on labelled messages: precision, recall, F1 and accuracy, with 95 %
//! intervals from a bootstrap over sending vehicles (a vehicle's messages are resampled
//! together: they are not independent), and a split of vehicles into tuning and test sets
//! so that no vehicle's messages are on both sides.

use crate::checks::CheckId;
use crate::detector::{Detector, DetectorConfig};
use crate::message::Message;
use crate::observation::Observation;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A confusion matrix.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub tp: u64,
    pub tn: u64,
    pub fp: u64,
    pub fn_: u64,
}

impl Counts {
    pub fn add(&mut self, truth: bool, predicted: bool) {
        match (truth, predicted) {
            (true, true) => self.tp += 1,
            (false, false) => self.tn += 1,
            (false, true) => self.fp += 1,
            (true, false) => self.fn_ += 1,
        }
    }

    pub fn plus(&mut self, o: &Counts) {
        self.tp += o.tp;
        self.tn += o.tn;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }

    fn ratio(a: u64, b: u64) -> f64 {
        if b == 0 {
            0.0
        } else {
            a as f64 / b as f64
        }
    }

    pub fn precision(&self) -> f64 {
        Self::ratio(self.tp, self.tp + self.fp)
    }

    pub fn recall(&self) -> f64 {
        Self::ratio(self.tp, self.tp + self.fn_)
    }

    /// 0 when precision and recall are both 0 (as NextGen's `main.py`).
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }

    pub fn accuracy(&self) -> f64 {
        Self::ratio(self.tp + self.tn, self.tp + self.tn + self.fp + self.fn_)
    }
}

/// A metric with its 95 % bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The four metrics with intervals.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scored {
    pub counts: Counts,
    pub precision: Interval,
    pub recall: Interval,
    pub f1: Interval,
    pub accuracy: Interval,
}

/// Scores per-vehicle confusion matrices with a bootstrap over vehicles (`reps`
/// resamples, percentile interval).
pub fn bootstrap(per_vehicle: &BTreeMap<String, Counts>, reps: usize, seed: u64) -> Scored {
    let vehicles: Vec<&Counts> = per_vehicle.values().collect();
    let mut total = Counts::default();
    for c in &vehicles {
        total.plus(c);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples: [Vec<f64>; 4] = Default::default();
    for _ in 0..reps {
        let mut c = Counts::default();
        for _ in 0..vehicles.len() {
            c.plus(vehicles[rng.gen_range(0..vehicles.len())]);
        }
        for (s, v) in samples
            .iter_mut()
            .zip([c.precision(), c.recall(), c.f1(), c.accuracy()])
        {
            s.push(v);
        }
    }
    let interval = |s: &mut Vec<f64>, value: f64| {
        if s.is_empty() {
            return Interval {
                value,
                lo: value,
                hi: value,
            };
        }
        s.sort_by(f64::total_cmp);
        let q = |p: f64| s[((p * (s.len() - 1) as f64).round() as usize).min(s.len() - 1)];
        Interval {
            value,
            lo: q(0.025),
            hi: q(0.975),
        }
    };
    let [p, r, f, a] = &mut samples;
    Scored {
        counts: total,
        precision: interval(p, total.precision()),
        recall: interval(r, total.recall()),
        f1: interval(f, total.f1()),
        accuracy: interval(a, total.accuracy()),
    }
}

/// The test half of the vehicles: a seeded shuffle of the sorted ids, the first
/// `test_share` of them.
pub fn test_vehicles(ids: impl IntoIterator<Item = String>, test_share: f64, seed: u64) -> BTreeSet<String> {
    let mut v: Vec<String> = ids.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
    v.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let n = (v.len() as f64 * test_share).round() as usize;
    v.into_iter().take(n).collect()
}

/// Which sending vehicles a score counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// The test half ([`test_vehicles`] with [`SPLIT_SEED`]): the figures reported.
    Test,
    /// The other half, on which parameters and learned detectors are fitted.
    Tune,
    /// Every vehicle.
    All,
}

impl Half {
    pub fn from_name(s: &str) -> Result<Half, String> {
        match s {
            "test" => Ok(Half::Test),
            "tune" => Ok(Half::Tune),
            "all" => Ok(Half::All),
            o => Err(format!("unknown half `{o}`; valid: test, tune, all")),
        }
    }
}

/// The seed of the evaluation's vehicle split.
pub const SPLIT_SEED: u64 = 7;
/// The seed of the evaluation's bootstrap.
pub const BOOTSTRAP_SEED: u64 = 11;

/// The sending vehicles of `logs` that `half` counts (`test_share` of them in the test half).
pub fn counted_vehicles(logs: &[(String, Vec<Message>)], half: Half, test_share: f64) -> BTreeSet<String> {
    let all: BTreeSet<String> = logs
        .iter()
        .flat_map(|(_, m)| m.iter().map(|m| m.sender_id.clone()))
        .collect();
    let test = test_vehicles(all.iter().cloned(), test_share, SPLIT_SEED);
    match half {
        Half::Test => test,
        Half::Tune => all.difference(&test).cloned().collect(),
        Half::All => all,
    }
}

/// Scores per-message `predictions` (one list per log, in message order) on the vehicles
/// `half` counts, with the bootstrap over vehicles (`reps` resamples): what `v2x-mbd score`
/// and the Python hook report, for our detectors and anyone else's alike.
pub fn score(
    logs: &[(String, Vec<Message>)],
    predictions: &[Vec<bool>],
    half: Half,
    test_share: f64,
    reps: usize,
) -> Result<Scored, String> {
    if predictions.len() != logs.len() {
        return Err(format!(
            "{} prediction lists for {} logs",
            predictions.len(),
            logs.len()
        ));
    }
    for ((name, msgs), p) in logs.iter().zip(predictions) {
        if p.len() != msgs.len() {
            return Err(format!("{name}: {} predictions for {} messages", p.len(), msgs.len()));
        }
    }
    if !(0.0..=1.0).contains(&test_share) {
        return Err(format!("test share {test_share} is not in [0, 1]"));
    }
    let counted = counted_vehicles(logs, half, test_share);
    Ok(bootstrap(
        &per_vehicle(logs, predictions, Some(&counted)),
        reps,
        BOOTSTRAP_SEED,
    ))
}

/// Runs one detector per receiver over its messages (reception order) and returns each
/// message's prediction, retroactive flags applied.
pub fn predict(messages: &[Message], config: &DetectorConfig) -> Vec<bool> {
    let mut d = Detector::new(config.clone());
    let mut flags = vec![false; messages.len()];
    for (i, m) in messages.iter().enumerate() {
        let v = d.observe(&Observation::from_message(m));
        debug_assert_eq!(v.index, i);
        flags[i] |= v.flagged;
        for r in v.retro {
            flags[r] = true;
        }
    }
    flags
}

/// Per check, the confusion matrix of "the check fails on this message" (below 0.5,
/// before fusion) against the label: which checks catch an attack and which flag honest
/// senders.
pub fn check_failures(messages: &[Message], config: &DetectorConfig) -> BTreeMap<CheckId, Counts> {
    let mut d = Detector::new(config.clone());
    let mut out: BTreeMap<CheckId, Counts> = CheckId::ALL.into_iter().map(|c| (c, Counts::default())).collect();
    for m in messages {
        let v = d.observe(&Observation::from_message(m));
        for c in CheckId::ALL {
            out.get_mut(&c)
                .expect("every check")
                .add(m.is_attack(), v.scores.get(c) < 0.5);
        }
    }
    out
}

/// Confusion matrices per sending vehicle over every receiver's log, counting only senders
/// in `counted` (all when `None`).
pub fn per_vehicle(
    logs: &[(String, Vec<Message>)],
    predictions: &[Vec<bool>],
    counted: Option<&BTreeSet<String>>,
) -> BTreeMap<String, Counts> {
    let mut out: BTreeMap<String, Counts> = BTreeMap::new();
    for ((_, msgs), preds) in logs.iter().zip(predictions) {
        for (m, p) in msgs.iter().zip(preds) {
            if counted.is_none_or(|c| c.contains(&m.sender_id)) {
                out.entry(m.sender_id.clone()).or_default().add(m.is_attack(), *p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_by_hand() {
        let c = Counts {
            tp: 8,
            tn: 80,
            fp: 2,
            fn_: 10,
        };
        assert_eq!(c.precision(), 0.8);
        assert!((c.recall() - 8.0 / 18.0).abs() < 1e-12);
        assert!((c.f1() - 2.0 * 0.8 * (8.0 / 18.0) / (0.8 + 8.0 / 18.0)).abs() < 1e-12);
        assert_eq!(c.accuracy(), 0.88);
        assert_eq!(Counts::default().f1(), 0.0);
    }

    #[test]
    fn bootstrap_brackets_the_value_and_is_degenerate_for_identical_vehicles() {
        let mut per = BTreeMap::new();
        for i in 0..20 {
            per.insert(
                format!("v{i}"),
                Counts {
                    tp: 3,
                    tn: 5,
                    fp: 1,
                    fn_: 1,
                },
            );
        }
        let s = bootstrap(&per, 200, 1);
        assert_eq!(s.f1.lo, s.f1.hi);
        assert_eq!(s.precision.value, 0.75);
        per.insert(
            "odd".into(),
            Counts {
                tp: 0,
                tn: 0,
                fp: 30,
                fn_: 0,
            },
        );
        let s = bootstrap(&per, 500, 1);
        assert!(s.precision.lo < s.precision.value && s.precision.value <= s.precision.hi);
    }

    #[test]
    fn split_is_by_vehicle_and_stable() {
        let ids: Vec<String> = (0..10).map(|i| format!("v{i}")).collect();
        let a = test_vehicles(ids.clone(), 0.5, 3);
        assert_eq!(a.len(), 5);
        assert_eq!(a, test_vehicles(ids.into_iter().rev(), 0.5, 3));
    }
}
