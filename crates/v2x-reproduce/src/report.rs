//! What `v2x reproduce` reports: a [`Row`] per published value beside ours (with its
//! evidence class and the verdict of [`crate::rule`]), a [`Finding`] per published
//! conclusion (judged on intervals by [`crate::judge`]), the figures, what was not done.

use crate::judge::{Criterion, Support};
use crate::rule::{Estimate, Statement};
use serde::Serialize;
pub use v2x_bench::papers::{Evidence, Form, PaperValue};

/// The outcome of comparing one published value with ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Independent evidence that meets the rule: the only verdict counted as reproduced.
    Reproduced,
    /// Meets the rule, but ours is not independent of the paper's value (by construction,
    /// fitted) or is our own question (extension): consistency, not reproduction.
    Agrees,
    /// Fails the rule; `reason` says why.
    Differs,
    /// The set-ups differ in what decides the value (another processor, an uncalibrated
    /// channel, another mechanism): ours is shown, neither side is judged.
    NotComparable,
    /// Nothing here measures it.
    NotCompared,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Agrees => "agrees",
            Verdict::Differs => "differs",
            Verdict::NotComparable => "not comparable",
            Verdict::NotCompared => "not compared",
        }
    }
}

/// Where and what a published value is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Label {
    pub paper: String,
    /// Table or figure, e.g. `Table 4`, `Fig. 17`.
    pub source: String,
    /// Section, and page where the paper's text has one.
    pub location: String,
    /// What the value is (row and column of the table, procedure, variant, statistic).
    pub item: String,
    pub unit: String,
    /// The set-up ours comes from (e.g. "emulated PRESERVE receiver", "calibrated
    /// channel"); empty when there is one.
    pub setup: String,
}

/// One published value beside ours.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    #[serde(flatten)]
    pub label: Label,
    /// Whose value `paper_value` is: `paper`, or for an extension our own reference.
    pub reference: String,
    pub paper_value: f64,
    /// Upper end of a published range.
    pub paper_value_high: Option<f64>,
    pub form: Form,
    pub ours: Option<f64>,
    /// Our 95 % interval (equal to `ours` where the value is exact).
    pub ours_low: Option<f64>,
    pub ours_high: Option<f64>,
    /// Ours relative to the paper's, in words with a number.
    pub difference: String,
    pub evidence: Evidence,
    /// How ours depends on the paper (empty for independent evidence).
    pub evidence_note: String,
    pub verdict: Verdict,
    /// One line: why ours differs, is not comparable or is not compared.
    pub reason: String,
}

/// How a row's value was obtained: its evidence class, and whether its set-up can be
/// compared with the paper's (`Err(reason)`: not comparable).
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    pub evidence: Evidence,
    pub note: String,
    pub comparable: Result<(), String>,
}

impl Basis {
    pub fn independent() -> Basis {
        Basis {
            evidence: Evidence::Independent,
            note: String::new(),
            comparable: Ok(()),
        }
    }

    /// A published value's own class, and whether any set-up here can decide it.
    pub fn of(e: &PaperValue) -> Basis {
        Basis {
            evidence: e.evidence,
            note: e.evidence_note.clone(),
            comparable: e.not_comparable.clone().map_or(Ok(()), Err),
        }
    }

    pub fn with(evidence: Evidence, note: impl Into<String>) -> Basis {
        Basis {
            evidence,
            note: note.into(),
            comparable: Ok(()),
        }
    }

    /// The same, on a set-up that cannot decide the value (the first reason given stays).
    pub fn not_comparable(mut self, why: impl Into<String>) -> Basis {
        if self.comparable.is_ok() {
            self.comparable = Err(why.into());
        }
        self
    }
}

impl Row {
    /// A published value compared with ours under the rule. `why` is the reason shown when
    /// they differ; a set-up that is not comparable gives its own reason.
    pub fn compare(
        label: Label,
        statement: Statement,
        ours: Option<Estimate>,
        basis: Basis,
        why: impl FnOnce() -> String,
    ) -> Row {
        let fraction = label.unit.is_empty();
        let (verdict, difference, reason) = match (&ours, &basis.comparable) {
            (None, _) => (Verdict::NotCompared, "—".to_string(), why()),
            (Some(o), Err(r)) => (Verdict::NotComparable, statement.difference(o, fraction), r.clone()),
            (Some(o), Ok(())) => {
                let d = statement.difference(o, fraction);
                if !statement.agrees(o) {
                    (Verdict::Differs, d, why())
                } else if basis.evidence == Evidence::Independent {
                    (Verdict::Reproduced, d, String::new())
                } else {
                    (Verdict::Agrees, d, String::new())
                }
            }
        };
        Row {
            label,
            reference: if basis.evidence == Evidence::Extension {
                "ours (closed form)".into()
            } else {
                "paper".into()
            },
            paper_value: statement.value,
            paper_value_high: statement.high,
            form: statement.form,
            ours: ours.map(|o| o.value),
            ours_low: ours.map(|o| o.low),
            ours_high: ours.map(|o| o.high),
            difference,
            evidence: basis.evidence,
            evidence_note: basis.note,
            verdict,
            reason,
        }
    }

    /// A published value nothing here measures.
    pub fn not_compared(label: Label, e: &PaperValue, why: impl Into<String>) -> Row {
        Row::compare(label, statement_of(e), None, Basis::of(e), || why.into())
    }

    pub fn paper(&self) -> &str {
        &self.label.paper
    }
}

/// The rule's reading of a published value.
pub fn statement_of(e: &PaperValue) -> Statement {
    Statement {
        form: e.form,
        value: e.value,
        high: e.value_high,
        printed_unit: e.precision.unwrap_or_else(|| crate::rule::last_decimal(e.value)),
        single_run: e.sim.is_some() || e.testbed.is_some(),
    }
}

/// A published conclusion and whether our results support it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub paper: String,
    pub source: String,
    /// The paper's claim, quoted or paraphrased.
    pub claim: String,
    /// `independent`, `by-construction` (ours follows from the paper's own inputs) or
    /// `extension` (our question, not the paper's: outside its tally).
    pub evidence: Evidence,
    /// The set-up the claim is judged on.
    pub setup: String,
    /// What is judged, and what the claim requires of it.
    pub quantity: String,
    pub criterion: Option<Criterion>,
    /// The quantity with its 95 % interval.
    pub ours: Option<Estimate>,
    pub verdict: Support,
    /// Our numbers for or against it, and why an inconclusive verdict is one.
    pub detail: String,
}

impl Finding {
    /// A claim judged on `ours` by `criterion`.
    #[allow(clippy::too_many_arguments)]
    pub fn judged(
        paper: &str,
        source: &str,
        claim: impl Into<String>,
        evidence: Evidence,
        setup: impl Into<String>,
        quantity: impl Into<String>,
        criterion: Criterion,
        ours: Option<Estimate>,
        detail: impl Into<String>,
    ) -> Finding {
        Finding {
            paper: paper.into(),
            source: source.into(),
            claim: claim.into(),
            evidence,
            setup: setup.into(),
            quantity: quantity.into(),
            criterion: Some(criterion),
            verdict: ours.map_or(Support::Inconclusive, |o| criterion.judge(&o)),
            ours,
            detail: detail.into(),
        }
    }

    /// The same claim on a set-up that cannot decide it: inconclusive, with the reason.
    pub fn not_comparable(mut self, why: &str) -> Finding {
        self.verdict = Support::Inconclusive;
        self.detail = format!("inconclusive: {why}. {}", self.detail);
        self
    }
}

/// A figure drawn by the run (file name in the output folder).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    pub paper: String,
    pub file: String,
    pub caption: String,
}

/// A table the run adds beside the rows (e.g. paper 002's DoS rows per receiver), in
/// Markdown, kept verbatim in report.md and report.html.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub paper: String,
    pub title: String,
    pub markdown: String,
}

/// Per paper: rows per evidence class and verdict, conclusions per verdict (the tally every
/// report and the terminal print).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Independent evidence: reproduced, differs, not comparable.
    pub reproduced: usize,
    pub differs: usize,
    pub not_comparable: usize,
    /// Values put in by construction, fitted to the paper, or our extensions (compared,
    /// whatever their verdict): never counted as reproduced.
    pub by_construction: usize,
    pub fitted: usize,
    pub extension: usize,
    /// Of those three, how many agree with the reference.
    pub non_independent_agree: usize,
    /// Published values nothing here measures.
    pub not_compared: usize,
    /// The paper's conclusions (extensions left out).
    pub holds: usize,
    pub contradicted: usize,
    pub inconclusive: usize,
    /// Claims judged on values that follow from the paper's own inputs.
    pub construction_findings: usize,
    /// Our own questions about the paper (extension findings).
    pub extension_findings: usize,
}

/// Everything `v2x reproduce` writes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub quick: bool,
    pub papers: Vec<String>,
    /// This machine's processor, as the benchmark saw it.
    pub host: Option<String>,
    /// How the run was made (command, build, wall time), as the caller states it.
    pub run: Vec<String>,
    /// The comparison rule, in words.
    pub rule: String,
    pub rows: Vec<Row>,
    pub findings: Vec<Finding>,
    pub tables: Vec<Table>,
    pub figures: Vec<Figure>,
    /// What was not reproduced and why.
    pub not_done: Vec<String>,
}

impl Report {
    pub fn rows_of<'a>(&'a self, paper: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| r.paper() == paper)
    }

    pub fn findings_of<'a>(&'a self, paper: &'a str) -> impl Iterator<Item = &'a Finding> + 'a {
        self.findings.iter().filter(move |f| f.paper == paper)
    }

    /// The tally of one paper. A row counts as reproduced only with independent evidence
    /// ([`Row::compare`] never gives any other class that verdict; this counts by class
    /// first so that a mistaken verdict could not inflate the tally either).
    pub fn counts(&self, paper: &str) -> Counts {
        let mut c = Counts::default();
        for r in self.rows_of(paper) {
            if r.verdict == Verdict::NotCompared {
                c.not_compared += 1;
                continue;
            }
            match r.evidence {
                Evidence::Independent => match r.verdict {
                    Verdict::Reproduced => c.reproduced += 1,
                    Verdict::NotComparable => c.not_comparable += 1,
                    _ => c.differs += 1,
                },
                other => {
                    match other {
                        Evidence::ByConstruction => c.by_construction += 1,
                        Evidence::Fitted => c.fitted += 1,
                        _ => c.extension += 1,
                    }
                    if matches!(r.verdict, Verdict::Agrees | Verdict::Reproduced) {
                        c.non_independent_agree += 1;
                    }
                }
            }
        }
        for f in self.findings_of(paper) {
            match f.evidence {
                Evidence::Extension => {
                    c.extension_findings += 1;
                    continue;
                }
                Evidence::ByConstruction | Evidence::Fitted => {
                    c.construction_findings += 1;
                    continue;
                }
                Evidence::Independent => {}
            }
            match f.verdict {
                Support::Holds => c.holds += 1,
                Support::Contradicted => c.contradicted += 1,
                Support::Inconclusive => c.inconclusive += 1,
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label() -> Label {
        Label {
            paper: "002".into(),
            source: "Table 4.2".into(),
            location: String::new(),
            item: "delivery ratio".into(),
            unit: String::new(),
            setup: String::new(),
        }
    }

    /// A value put in by construction (paper 002's delivery ratios follow from the send
    /// rates) agrees with the paper but is never counted as reproduced; the same value of
    /// independent evidence is.
    #[test]
    fn a_value_by_construction_is_never_counted_as_reproduced() {
        let st = Statement::point(0.7142, 0.0001, true);
        let ours = Some(Estimate::exact(50.0 / 70.0));
        let mut report = Report::default();
        for evidence in [Evidence::ByConstruction, Evidence::Fitted, Evidence::Extension] {
            let row = Row::compare(
                label(),
                st,
                ours,
                Basis::with(evidence, "benign / all packets: fixed by the send rates"),
                String::new,
            );
            assert_eq!(row.verdict, Verdict::Agrees, "{evidence}");
            report.rows.push(row);
        }
        let c = report.counts("002");
        assert_eq!(c.reproduced, 0, "{c:?}");
        assert_eq!(
            (c.by_construction, c.fitted, c.extension, c.non_independent_agree),
            (1, 1, 1, 3)
        );
        // Even a row wrongly marked reproduced is not tallied as such unless independent.
        let mut wrong = report.rows[0].clone();
        wrong.verdict = Verdict::Reproduced;
        report.rows.push(wrong);
        assert_eq!(report.counts("002").reproduced, 0);
        report
            .rows
            .push(Row::compare(label(), st, ours, Basis::independent(), String::new));
        assert_eq!(report.rows.last().unwrap().verdict, Verdict::Reproduced);
        assert_eq!(report.counts("002").reproduced, 1);
    }

    #[test]
    fn a_set_up_that_cannot_decide_is_not_judged() {
        let st = Statement::point(0.7266, 0.0001, true);
        let row = Row::compare(
            label(),
            st,
            Some(Estimate::exact(0.0)),
            Basis::independent().not_comparable("receiver 50-150 times faster than the paper's"),
            || "unused".into(),
        );
        assert_eq!(row.verdict, Verdict::NotComparable);
        assert!(row.reason.contains("faster"));
        let none = Row::compare(label(), st, None, Basis::independent(), || "no counterpart".into());
        assert_eq!(
            (none.verdict, none.reason.as_str()),
            (Verdict::NotCompared, "no counterpart")
        );
    }
}
