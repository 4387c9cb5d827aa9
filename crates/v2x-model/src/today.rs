//! The model with another cost set and radio: where are paper 003's crossovers on today's
//! hardware and radios?
//!
//! For every radio: every combination of the cost set (both schemes, pairwise and group),
//! the cheapest combination per node count (over all combinations, and over those whose
//! algorithms all give at least [`MODERN_SECURITY_BITS`]), and the paper's stated
//! crossovers re-asked with today's algorithms of the same families and equal strength
//! (the paper's DSA vs RSA becomes DSA-1024 vs RSA-1024 and DSA-2048 vs RSA-2048).

use crate::costs::CostSet;
use crate::crossover::{best_by_range, switch, BestRange, Switch};
use crate::model::{self, Combination, Conditions, Evaluation, Line, ModelError};
use crate::paper003::{Paper003, PrintedCrossover, FIGURE_NODES};
use crate::radio::Radio;
use crate::scheme::{Scheme, Topology};
use serde::Serialize;

/// Costs measured on the project's reference machine with `v2x model --measure` (the
/// default of `v2x model`; the file says where and when).
const REFERENCE_COSTS: &str = include_str!("../data/reference-costs.toml");

/// The shipped measurement of the reference machine.
pub fn reference_costs() -> Result<CostSet, crate::costs::CostError> {
    CostSet::parse(REFERENCE_COSTS, false, "data/reference-costs.toml")
}

/// NIST SP 800-57 Part 1: the minimum strength for protection beyond 2030 is 112 bits.
pub const MODERN_SECURITY_BITS: u32 = 112;

/// Cheapest combinations of one scheme and topology.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Best {
    pub scheme: Scheme,
    pub topology: Topology,
    /// Over every combination.
    pub all: Vec<BestRange>,
    /// Over combinations of algorithms with at least [`MODERN_SECURITY_BITS`].
    pub modern: Vec<BestRange>,
}

/// A stated crossover of the paper re-asked with today's algorithms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RestatedCrossover {
    pub figure: String,
    pub paper: String,
    pub first: String,
    pub then: String,
    pub switch: Switch,
}

/// Everything for one radio.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RadioResult {
    pub radio: Radio,
    pub evaluations: Vec<Evaluation>,
    pub non_secure: Line,
    pub best: Vec<Best>,
    pub crossovers: Vec<RestatedCrossover>,
}

/// The model of one cost set on several radios.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Today {
    pub costs: String,
    pub measured_on: Option<String>,
    pub group_members: u32,
    pub radios: Vec<RadioResult>,
}

fn security(set: &CostSet, c: &Combination) -> u32 {
    let sig = set.signatures.get(&c.signature).map_or(0, |s| s.security_bits);
    let mut bits = sig.min(set.ciphers.get(&c.cipher).map_or(0, |c| c.security_bits));
    if c.scheme == Scheme::Wang && c.topology == Topology::Group {
        bits = bits.min(set.ciphers.get(&set.data_cipher).map_or(0, |c| c.security_bits));
    }
    bits
}

/// Today's algorithm of `family` for a signature of `bits`: the only one of the family,
/// or the one of equal strength.
fn cipher_like(set: &CostSet, family: &str, bits: u32) -> Option<String> {
    let of: Vec<(&String, u32)> = set
        .ciphers
        .iter()
        .filter(|(_, c)| c.family == family)
        .map(|(n, c)| (n, c.security_bits))
        .collect();
    match of.as_slice() {
        [(n, _)] => Some((*n).clone()),
        _ => of.iter().find(|(_, b)| *b == bits).map(|(n, _)| (*n).clone()),
    }
}

/// The paper's statement with today's algorithms: every pair of signature algorithms of
/// the two stated families with equal strength, each with its cipher of the stated family.
fn restate(paper: &Paper003, set: &CostSet, st: &PrintedCrossover) -> Vec<(Combination, Combination)> {
    let fam_sig = |n: &str| paper.inputs.signatures.get(n).map(|s| s.family.clone());
    let fam_c = |n: &str| paper.inputs.ciphers.get(n).map(|c| c.family.clone());
    let (Some(f1), Some(f2), Some(c1), Some(c2)) = (
        fam_sig(&st.first[0]),
        fam_sig(&st.then[0]),
        fam_c(&st.first[1]),
        fam_c(&st.then[1]),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (n1, s1) in set.signatures.iter().filter(|(_, s)| s.family == f1) {
        for (n2, s2) in set.signatures.iter().filter(|(_, s)| s.family == f2) {
            if s1.security_bits != s2.security_bits || n1 == n2 {
                continue;
            }
            let bits = s1.security_bits;
            if let (Some(x1), Some(x2)) = (cipher_like(set, &c1, bits), cipher_like(set, &c2, bits)) {
                out.push((
                    Combination::new(st.scheme, Topology::Pairwise, n1, &x1),
                    Combination::new(st.scheme, Topology::Pairwise, n2, &x2),
                ));
            }
        }
    }
    out
}

/// Evaluates `set` on every radio.
pub fn evaluate(
    paper: &Paper003,
    set: &CostSet,
    radios: &[Radio],
    group_members: u32,
    last_n: u32,
) -> Result<Today, ModelError> {
    set.validate()?;
    let mut results = Vec::new();
    for radio in radios {
        let cond = Conditions {
            radio: *radio,
            group_members,
        };
        let mut evaluations = Vec::new();
        let mut best = Vec::new();
        for scheme in Scheme::ALL {
            for topology in Topology::ALL {
                let evs = model::combinations(set, *scheme, *topology)
                    .iter()
                    .map(|c| model::evaluate(set, c, &cond, &[]))
                    .collect::<Result<Vec<_>, _>>()?;
                let lines = |min_bits: u32| -> Vec<(String, Line)> {
                    evs.iter()
                        .filter(|e| security(set, &e.combination) >= min_bits)
                        .map(|e| (e.label.clone(), e.line))
                        .collect()
                };
                best.push(Best {
                    scheme: *scheme,
                    topology: *topology,
                    all: best_by_range(&lines(0), FIGURE_NODES.0, last_n),
                    modern: best_by_range(&lines(MODERN_SECURITY_BITS), FIGURE_NODES.0, last_n),
                });
                evaluations.extend(evs);
            }
        }
        let mut crossovers = Vec::new();
        for st in &paper.crossovers {
            for (f, t) in restate(paper, set, st) {
                let lf = model::evaluate(set, &f, &cond, &[])?.line;
                let lt = model::evaluate(set, &t, &cond, &[])?.line;
                crossovers.push(RestatedCrossover {
                    figure: st.figure.clone(),
                    paper: format!(
                        "{} vs {}",
                        st.combinations().0.label(&paper.inputs),
                        st.combinations().1.label(&paper.inputs)
                    ),
                    first: f.label(set),
                    then: t.label(set),
                    switch: switch(&lf, &lt, last_n),
                });
            }
        }
        results.push(RadioResult {
            radio: *radio,
            non_secure: model::non_secure(set, radio),
            evaluations,
            best,
            crossovers,
        });
    }
    Ok(Today {
        costs: set.name.clone(),
        measured_on: set.measured_on.clone(),
        group_members,
        radios: results,
    })
}

/// The security of a combination's weakest algorithm (bits).
pub fn combination_security(set: &CostSet, c: &Combination) -> u32 {
    security(set, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper003::CHECK_NODES;
    use crate::radio::RadioKind;

    #[test]
    fn paper_costs_through_today_reproduce_the_corrected_paper() {
        // The paper's own cost set through this path gives the corrected readings.
        let p = Paper003::load().unwrap();
        let t = evaluate(&p, &p.inputs, &[p.radio], 3, CHECK_NODES).unwrap();
        let r = &t.radios[0];
        let wang = r
            .best
            .iter()
            .find(|b| b.scheme == Scheme::Wang && b.topology == Topology::Pairwise)
            .unwrap();
        assert_eq!(wang.all[0].to_n, 7);
        assert_eq!(wang.modern.len(), 0, "no 1024-bit combination reaches 112 bits");
        // Each statement restated with the paper's own algorithms: one pair, same families.
        assert_eq!(r.crossovers.len(), 3);
        assert_eq!(r.crossovers[1].first, "(DSA, ECC)");
        assert_eq!(r.crossovers[1].switch.first_better_through, Some(7));
    }

    #[test]
    fn restated_pairs_match_families_and_strength() {
        let p = Paper003::load().unwrap();
        let mut set = p.inputs.clone();
        // A second, stronger DSA/RSA/RSA-cipher generation.
        for (n, s) in p.inputs.signatures.iter() {
            let mut s2 = s.clone();
            s2.security_bits = 112;
            set.signatures.insert(format!("{n}-2048"), s2);
        }
        let mut rsa2 = p.inputs.ciphers["rsa"].clone();
        rsa2.security_bits = 112;
        set.ciphers.insert("rsa-2048-oaep".into(), rsa2);
        let pairs = restate(&p, &set, &p.crossovers[2]);
        let names: Vec<_> = pairs.iter().map(|(a, b)| (a.pair(), b.pair())).collect();
        assert_eq!(
            names,
            vec![
                ("dsa+ecc".to_string(), "rsa+rsa".to_string()),
                ("dsa-2048+ecc".to_string(), "rsa-2048+rsa-2048-oaep".to_string())
            ]
        );
        let radio = Radio::new(RadioKind::Dot11p, 6.0, 250.0).unwrap();
        let t = evaluate(&p, &set, &[radio], 3, CHECK_NODES).unwrap();
        // Wang pairwise: 4 signatures x 1 symmetric cipher; the three others 4 x 3 asymmetric.
        assert_eq!(t.radios[0].evaluations.len(), 4 + 3 * 12);
    }
}
