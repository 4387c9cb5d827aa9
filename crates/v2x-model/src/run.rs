//! One `v2x model` run: the paper's reproduction, its message-size sweeps, and the model
//! with another cost set on today's radios.

use crate::costs::CostSet;
use crate::measure::MeasuredOp;
use crate::model::{self, Combination, Line, ModelError};
use crate::paper003::{BestByScheme, Cell, CrossoverCheck, Deviation, Paper003, Reading, SWEEP_MESSAGE_BYTES};
use crate::radio::Radio;
use crate::scheme::{Scheme, Topology};
use crate::today::{self, Today};
use serde::Serialize;

/// What to compute.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    /// Costs for the "today" part (None: the paper only).
    pub today_costs: Option<CostSet>,
    /// Radios of the "today" part.
    pub radios: Vec<Radio>,
    pub group_members: u32,
    /// Costs are also quoted at this many hops (n = hops + 1 nodes).
    pub hops: u32,
    /// Timings behind a measured cost set.
    pub measured: Vec<MeasuredOp>,
}

/// A line of the model with its cost at the quoted hop count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineRow {
    pub scheme: Scheme,
    pub topology: Topology,
    pub combination: String,
    pub label: String,
    pub reading: Option<Reading>,
    pub a: f64,
    pub b: f64,
    pub cost_at_hops_ms: f64,
}

/// How much a combination's cost changes with the message size (Figures 3-5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepRow {
    pub figure: String,
    pub scheme: Scheme,
    pub label: String,
    pub message_bytes: u64,
    pub a: f64,
    pub b: f64,
    /// Cost at the quoted hop count relative to the 1024-byte message of Tables 4-6.
    pub relative_to_1024: f64,
}

/// The paper's part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PaperResults {
    pub radio: Radio,
    pub cells: Vec<Cell>,
    pub reproduced: usize,
    pub deviations: Vec<Deviation>,
    pub crossovers: Vec<CrossoverCheck>,
    pub best: Vec<BestByScheme>,
    pub lines: Vec<LineRow>,
    pub sweep: Vec<SweepRow>,
}

/// Everything a run computes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelResults {
    pub paper_id: &'static str,
    pub hops: u32,
    pub group_members: u32,
    pub paper: PaperResults,
    pub today: Option<Today>,
    #[serde(skip)]
    pub paper_inputs: CostSet,
    #[serde(skip)]
    pub today_costs: Option<CostSet>,
    #[serde(skip)]
    pub measured: Vec<MeasuredOp>,
}

fn row(set: &CostSet, c: &Combination, line: Line, reading: Option<Reading>, hops: u32) -> LineRow {
    LineRow {
        scheme: c.scheme,
        topology: c.topology,
        combination: c.pair(),
        label: c.label(set),
        reading,
        a: line.a,
        b: line.b,
        cost_at_hops_ms: line.at(f64::from(hops + 1)),
    }
}

/// A figure of a message-size sweep: its name, scheme and (signature, cipher) pairs.
pub type Sweep = (&'static str, Scheme, [(&'static str, &'static str); 2]);

/// The sweeps of Figures 3-5: which combinations each shows.
pub fn sweep_combinations() -> [Sweep; 3] {
    [
        ("Fig. 3", Scheme::Wang, [("rsa", "aes"), ("dsa", "aes")]),
        ("Fig. 4", Scheme::RayaHubaux, [("rsa", "rsa"), ("rsa", "ecc")]),
        ("Fig. 5", Scheme::RayaHubaux, [("dsa", "rsa"), ("dsa", "ecc")]),
    ]
}

/// Runs the paper's reproduction and, with costs, today's model.
pub fn run(config: &RunConfig) -> Result<ModelResults, ModelError> {
    let paper = Paper003::load()?;
    let last_n = (config.hops + 1).max(crate::paper003::CHECK_NODES);
    let cells = paper.cells()?;
    let mut lines = Vec::new();
    let cond = model::Conditions {
        group_members: config.group_members,
        ..paper.conditions()
    };
    for scheme in Scheme::ALL {
        for topology in Topology::ALL {
            // The paper prints pairwise results only: its departures concern those.
            let readings = match topology {
                Topology::Pairwise => Reading::ALL,
                Topology::Group => &[Reading::Corrected][..],
            };
            for c in model::combinations(&paper.inputs, *scheme, *topology) {
                for reading in readings {
                    let e = model::evaluate(&paper.inputs, &c, &cond, &paper.adjustments(&c, *reading))?;
                    lines.push(row(&paper.inputs, &c, e.line, Some(*reading), config.hops));
                }
            }
        }
    }
    let mut sweep = Vec::new();
    let at = f64::from(config.hops + 1);
    for (figure, scheme, pairs) in sweep_combinations() {
        for (sig, cipher) in pairs {
            let c = Combination::new(scheme, Topology::Pairwise, sig, cipher);
            let base = paper.evaluate(&c, Reading::Corrected)?.line.at(at);
            for bytes in SWEEP_MESSAGE_BYTES {
                let set = model::with_message_bytes(&paper.inputs, bytes);
                let line = model::evaluate(&set, &c, &paper.conditions(), &[])?.line;
                sweep.push(SweepRow {
                    figure: figure.into(),
                    scheme,
                    label: c.label(&paper.inputs),
                    message_bytes: bytes,
                    a: line.a,
                    b: line.b,
                    relative_to_1024: line.at(at) / base,
                });
            }
        }
    }
    let today = match &config.today_costs {
        Some(set) => Some(today::evaluate(
            &paper,
            set,
            &config.radios,
            config.group_members,
            last_n,
        )?),
        None => None,
    };
    Ok(ModelResults {
        paper_id: "003",
        hops: config.hops,
        group_members: config.group_members,
        paper: PaperResults {
            radio: paper.radio,
            reproduced: cells.iter().filter(|c| c.reproduced).count(),
            cells,
            deviations: paper.deviations.clone(),
            crossovers: paper.crossover_checks()?,
            best: paper.best(last_n)?,
            lines,
            sweep,
        },
        today,
        paper_inputs: paper.inputs.clone(),
        today_costs: config.today_costs.clone(),
        measured: config.measured.clone(),
    })
}

impl ModelResults {
    /// Today's lines, one row per radio and combination.
    pub fn today_lines(&self) -> Vec<(Radio, LineRow)> {
        let (Some(t), Some(set)) = (&self.today, &self.today_costs) else {
            return Vec::new();
        };
        t.radios
            .iter()
            .flat_map(|r| {
                r.evaluations
                    .iter()
                    .map(move |e| (r.radio, row(set, &e.combination, e.line, None, self.hops)))
            })
            .collect()
    }
}
