//! Where one combination stops being the cheapest: crossings of two lines, and the
//! cheapest combination over whole-number node counts.

use crate::model::Line;
use serde::Serialize;

/// Node counts `from..=to` over which `best` is the cheapest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BestRange {
    pub from_n: u32,
    pub to_n: u32,
    pub best: String,
}

/// The cheapest of `lines` at each n in `first..=last` (ties: the earlier line), merged
/// into ranges.
pub fn best_by_range(lines: &[(String, Line)], first: u32, last: u32) -> Vec<BestRange> {
    let mut out: Vec<BestRange> = Vec::new();
    for n in first..=last {
        let Some((name, _)) = lines
            .iter()
            .min_by(|x, y| x.1.at(f64::from(n)).total_cmp(&y.1.at(f64::from(n))))
        else {
            return out;
        };
        match out.last_mut() {
            Some(r) if r.best == *name => r.to_n = n,
            _ => out.push(BestRange {
                from_n: n,
                to_n: n,
                best: name.clone(),
            }),
        }
    }
    out
}

/// How two combinations compare over the node counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Switch {
    /// Where the lines cross (None: parallel).
    pub crossing_n: Option<f64>,
    /// Largest n (>= 2) up to which `first` is cheaper at every n, if any.
    pub first_better_through: Option<u32>,
    /// Smallest n from which `then` is cheaper at every n up to `last`, if any.
    pub then_better_from: Option<u32>,
}

/// Compares `first` and `then` at every whole n in `2..=last`.
pub fn switch(first: &Line, then: &Line, last: u32) -> Switch {
    let better = |n: u32| first.at(f64::from(n)) < then.at(f64::from(n));
    let first_better_through = (2..=last).take_while(|&n| better(n)).last();
    let then_better_from = (2..=last).rev().take_while(|&n| !better(n)).last();
    Switch {
        crossing_n: first.crossing(then),
        first_better_through,
        then_better_from,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(a: f64, b: f64) -> Line {
        Line { a, b }
    }

    #[test]
    fn ranges_merge_and_switch_at_the_crossing() {
        let lines = vec![
            ("dsa".to_string(), l(29.54, 8.6)),
            ("rsa".to_string(), l(15.95, 103.932)),
        ];
        let r = best_by_range(&lines, 2, 30);
        assert_eq!(
            r,
            vec![
                BestRange {
                    from_n: 2,
                    to_n: 7,
                    best: "dsa".into()
                },
                BestRange {
                    from_n: 8,
                    to_n: 30,
                    best: "rsa".into()
                },
            ]
        );
        let s = switch(&lines[0].1, &lines[1].1, 30);
        assert_eq!(s.first_better_through, Some(7));
        assert_eq!(s.then_better_from, Some(8));
        assert!((s.crossing_n.unwrap() - 95.332 / 13.59).abs() < 1e-9);
    }

    #[test]
    fn no_switch_when_one_dominates() {
        let s = switch(&l(1.0, 0.0), &l(2.0, 5.0), 30);
        assert_eq!(s.first_better_through, Some(30));
        assert_eq!(s.then_better_from, None);
        let s = switch(&l(2.0, 5.0), &l(1.0, 0.0), 30);
        assert_eq!(s.first_better_through, None);
        assert_eq!(s.then_better_from, Some(2));
        assert!(best_by_range(&[], 2, 5).is_empty());
    }
}
