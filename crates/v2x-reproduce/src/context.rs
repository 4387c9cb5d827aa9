//! The state of one reproduction while the papers add their rows and conclusions: the
//! published values, the benchmark (measured once, on first use), the simulations and
//! testbed runs made so far, the report being built.

use crate::report::{Label, Report, Row};
use crate::sim::{ScenarioRun, Shipped};
use crate::testbed::{Plan, TestbedRun};
use crate::{bench, sim, testbed, Config, ReproduceError, Reproduction};
use v2x_bench::papers::{PaperData, PaperValue};
use v2x_bench::result::BenchResult;
use v2x_report::Progress;

/// What a paper's module works with.
pub struct Context<'a> {
    pub config: &'a Config,
    pub data: PaperData,
    pub progress: &'a dyn Progress,
    pub report: Report,
    pub sims: Vec<ScenarioRun>,
    pub testbed: Vec<TestbedRun>,
    pub model: Option<v2x_model::run::ModelResults>,
    pub relay: Vec<v2x_model::relay::ChainComparison>,
    bench: Option<BenchResult>,
}

impl<'a> Context<'a> {
    pub fn new(config: &'a Config, progress: &'a dyn Progress) -> Result<Context<'a>, ReproduceError> {
        Ok(Context {
            config,
            data: v2x_bench::papers::load().map_err(ReproduceError::PaperData)?,
            progress,
            report: Report {
                quick: config.quick,
                papers: config.papers.clone(),
                rule: crate::rule::RULE.into(),
                ..Report::default()
            },
            sims: Vec::new(),
            testbed: Vec::new(),
            model: None,
            relay: Vec::new(),
            bench: None,
        })
    }

    pub fn finish(self) -> Reproduction {
        Reproduction {
            report: self.report,
            sims: self.sims,
            model: self.model,
            relay: self.relay,
        }
    }

    /// The benchmark of this machine, measured on the first call.
    pub fn bench(&mut self) -> Result<&BenchResult, ReproduceError> {
        if self.bench.is_none() {
            let result = bench::measure(self.config.quick, self.progress)?;
            self.report.host = Some(format!("{} ({} cores)", result.host.cpu, result.host.cores));
            self.bench = Some(result);
        }
        Ok(self.bench.as_ref().expect("measured above"))
    }

    /// The published values of `paper`.
    pub fn entries(&self, paper: &str) -> Vec<PaperValue> {
        self.data.entries.iter().filter(|e| e.paper == paper).cloned().collect()
    }

    /// The entry a paper's module compares itself, by its `id`.
    pub fn entry(&self, id: &str) -> Option<PaperValue> {
        self.data.entries.iter().find(|e| e.id.as_deref() == Some(id)).cloned()
    }

    /// Every lookup comparison of `paper`: benchmark rows (`match`), simulated rows (its
    /// shipped scenarios are run), test-bench rows (its testbed plans are run), and a
    /// "not compared" row for each value nothing here measures. Values with an `id` are
    /// left to the paper's module.
    pub fn compare_published(&mut self, id: &str, scenarios: &[Shipped]) -> Result<(), ReproduceError> {
        let entries = self.entries(id);
        if entries.iter().any(|e| e.matcher.is_some()) {
            let result = self.bench()?.clone();
            bench::add(&mut self.report.rows, &self.data, &result, id);
        }
        self.run_scenarios(id, scenarios)?;
        self.run_testbed(id, &entries)?;
        for e in entries
            .iter()
            .filter(|e| e.matcher.is_none() && e.sim.is_none() && e.testbed.is_none() && e.id.is_none())
        {
            let why = if e.note.is_empty() {
                "no equivalent measurement here".to_string()
            } else {
                e.note.clone()
            };
            self.report.rows.push(Row::not_compared(label_of(e, ""), e, why));
        }
        Ok(())
    }

    fn run_scenarios(&mut self, paper: &str, scenarios: &[Shipped]) -> Result<(), ReproduceError> {
        let quick = self.config.quick;
        let inputs = self.config.dir.join("inputs");
        for s in scenarios {
            if quick && !s.in_quick {
                self.report.not_done.push(format!(
                    "paper {paper}: scenarios/papers/{} is not run with --quick (minutes); run without --quick",
                    s.file
                ));
                continue;
            }
            self.progress.step(&format!("simulating {}", s.file));
            let mut sc = sim::scenario(s, &inputs, quick)?;
            let full_trace = match (&self.config.ngsim_i80, s.recorded_trace) {
                (Some(path), true) => {
                    sim::use_full_trace(&mut sc, path);
                    true
                }
                _ => false,
            };
            let results = v2x_sim::run(&sc, self.progress)?;
            let serves = s.serves.unwrap_or(sc.name.as_str()).to_string();
            let entries: Vec<&PaperValue> = self
                .data
                .entries
                .iter()
                .filter(|e| e.sim.as_ref().is_some_and(|m| m.scenario == serves))
                .collect();
            // The full recorded trace is the paper's set-up; the shipped sample is not.
            let comparable = if full_trace {
                Ok(())
            } else {
                sim::calibration_check(s, &results, &entries)
            };
            let run = ScenarioRun {
                paper: paper.into(),
                file: s.file.into(),
                setup: if full_trace {
                    "the full NGSIM I-80 trace (--ngsim-i80)".into()
                } else {
                    s.setup.into()
                },
                results,
            };
            for e in &entries {
                self.report.rows.push(sim::row(e, &run, s, &comparable, quick));
            }
            self.sims.push(run);
        }
        Ok(())
    }

    fn run_testbed(&mut self, paper: &str, entries: &[PaperValue]) -> Result<(), ReproduceError> {
        let tb: Vec<&PaperValue> = entries.iter().filter(|e| e.testbed.is_some()).collect();
        if tb.is_empty() {
            return Ok(());
        }
        let Some(exe) = self.config.station_exe.clone() else {
            self.report.not_done.push(format!(
                "paper {paper}: the live testbed runs need the v2x executable to start stations; run `v2x reproduce`"
            ));
            return Ok(());
        };
        let mut plans: Vec<Plan> = Vec::new();
        for e in &tb {
            let p = Plan::of(e.testbed.as_ref().expect("filtered"))?;
            if !plans.contains(&p) {
                plans.push(p);
            }
        }
        if self.config.quick {
            let total = plans.len();
            plans.retain(testbed_in_quick);
            self.report.not_done.push(format!(
                "paper {paper}: {} of the {total} testbed plans are not run with --quick; run without --quick",
                total - plans.len()
            ));
        }
        let runs = testbed::run_plans(
            &plans,
            &self.config.dir.join("testbed"),
            &exe,
            self.config.quick,
            self.progress,
        )?;
        for e in &tb {
            self.report.rows.extend(testbed::rows(e, &runs, self.config.quick)?);
        }
        self.testbed.extend(runs);
        Ok(())
    }

    /// The results of a shipped scenario that has run.
    pub fn sim(&self, file: &str) -> Option<&ScenarioRun> {
        self.sims.iter().find(|r| r.file == file)
    }
}

/// With `--quick`, only Table 4.2's heaviest A-SIG-01 row (the DoS), 2 s per receiver.
fn testbed_in_quick(p: &Plan) -> bool {
    p.case == Some(v2x_testbed::station::Attack::InvalidSignature) && p.attackers == 4 && !p.unsecured
}

/// The label of a published value, as the paper places it.
pub fn label_of(e: &PaperValue, setup: &str) -> Label {
    Label {
        paper: e.paper.clone(),
        source: e.source.clone(),
        location: e.location.clone().unwrap_or_else(|| e.source.clone()),
        item: match &e.scheme {
            Some(s) => format!("{} — {}", e.procedure, s),
            None => e.procedure.clone(),
        },
        unit: e.metric.unit_and_meaning().0.into(),
        setup: setup.into(),
    }
}
