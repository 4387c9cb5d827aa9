//! Paper 001 (Hakeem, Abd El-Gawad, Kim, Sensors 2020): the benchmark (Tables 1, 3-11),
//! the end-to-end delay of two vehicles (Figs. 11-14, 16: 2.5 ms for the hash chain
//! against 60 ms for IEEE 1609.2) and the verification ratio at 10 and 100 vehicles in
//! range (Fig. 15).
//!
//! Both simulations take the MK5's per-message times from the paper's own Tables 3, 5, 7
//! and 10 (the `mk5-software` and `mk5-hsm` profiles): the delays are those times plus
//! our air time, so they are by construction; the no-security delay and the verification
//! ratio (a queue at ~1,000 BSMs/s) are not.

use super::{fmt, Paper};
use crate::judge::{all, Criterion, Support};
use crate::report::{Evidence, Finding};
use crate::rule::Estimate;
use crate::sim::{paired, value, ScenarioRun, Shipped};
use crate::{Context, ReproduceError};
use v2x_bench::papers::SimStatistic;

pub const PAPER: Paper = Paper {
    id: "001",
    citation: "Hakeem, Abd El-Gawad, Kim, Comparative Experiments of V2X Security Protocol Based on Hash Chain Cryptography (Sensors 2020)",
    scenarios: &SCENARIOS,
    not_done: &[
        "paper 001: Fig. 15 at densities other than 10 and 100 (the text quotes no other value); its one-transmitter emulation of density (the simulator has no receive-only station, so n real stations contend)",
        "paper 001: the MK5 stack's ~2 ms of latency in Figs. 11-16 (the simulator has no stack latency)",
    ],
    add,
};

/// Fig. 15's reception ratio comes from another mechanism than ours.
const ONE_TRANSMITTER: &str = "the paper emulated n vehicles with one transmitter sending every 100/n ms (no contention; its losses are the MK5's scheduling and bit errors); here n stations contend for the channel";

pub const SCENARIOS: [Shipped; 3] = [
    Shipped {
        paper: "001",
        file: "001-e2e-two-vehicles.toml",
        text: include_str!("../../../../scenarios/papers/001-e2e-two-vehicles.toml"),
        in_quick: true,
        serves: None,
        setup: "",
        calibration: None,
        not_comparable: &[],
        setup_not_comparable: None,
        data: &[],
        recorded_trace: false,
    },
    Shipped {
        paper: "001",
        file: "001-fig15-density10.toml",
        text: include_str!("../../../../scenarios/papers/001-fig15-density10.toml"),
        in_quick: true,
        serves: None,
        setup: "",
        calibration: None,
        not_comparable: &[(SimStatistic::PdrNetwork, ONE_TRANSMITTER)],
        setup_not_comparable: None,
        data: &[],
        recorded_trace: false,
    },
    Shipped {
        paper: "001",
        file: "001-fig15-density100.toml",
        text: include_str!("../../../../scenarios/papers/001-fig15-density100.toml"),
        in_quick: true,
        serves: None,
        setup: "",
        calibration: None,
        not_comparable: &[(SimStatistic::PdrNetwork, ONE_TRANSMITTER)],
        setup_not_comparable: None,
        data: &[],
        recorded_trace: false,
    },
];

fn add(ctx: &mut Context) -> Result<(), ReproduceError> {
    ctx.compare_published(PAPER.id, PAPER.scenarios)?;
    if let Some(run) = ctx.sim("001-fig15-density100.toml") {
        let f = fig15(run);
        ctx.report.findings.extend(f);
    }
    if let Some(run) = ctx.sim("001-e2e-two-vehicles.toml") {
        let f = e2e(run);
        ctx.report.findings.push(f);
    }
    Ok(())
}

/// Fig. 15 at 100 vehicles: who keeps up with ~1,000 BSMs/s, and the paper's 1609.2
/// ratios against the rates of its own Tables 5-6.
fn fig15(run: &ScenarioRun) -> Vec<Finding> {
    let r = &run.results;
    let ratio = |v: &str| value(r, v, SimStatistic::VerificationRatio);
    let (hash, soft, hsm) = (
        ratio("hash-chain-software"),
        ratio("ieee1609.2-software"),
        ratio("ieee1609.2-hsm"),
    );
    let judge = |e: Option<Estimate>, c: Criterion| e.map_or(Support::Inconclusive, |e| c.judge(&e));
    let mut keep_up = Finding::judged(
        "001",
        "Fig. 15, Sec. 7.2",
        "at 100 vehicles in range only the hash-chain protocol verifies (nearly) every BSM in time; IEEE 1609.2 cannot, even with the HSM",
        Evidence::Independent,
        &run.setup,
        "verification ratio (verified / received) of the hash chain (>= 0.9) and of IEEE 1609.2 software and HSM (< 0.9)",
        Criterion::AtLeast(0.9),
        hash,
        format!(
            "hash chain {}, IEEE 1609.2 software {}, HSM {} (paper: 0.94, 0.46, 0.71)",
            fmt(hash),
            fmt(soft),
            fmt(hsm)
        ),
    );
    keep_up.verdict = all(&[
        keep_up.verdict,
        judge(soft, Criterion::AtMost(0.9)),
        judge(hsm, Criterion::AtMost(0.9)),
    ]);
    let load = crate::sim::offered_per_s(run, "ieee1609.2-software");
    let bound = |per_s: f64| load.map(|l| l.map(|x| (per_s / x).min(1.0)));
    let mut out = vec![keep_up];
    for (what, paper, per_s, table, ms) in [
        ("software module", 0.46, 35.0, "Table 6: 35 verified BSMs/s", 28.5),
        (
            "hardware module",
            0.71,
            163.0,
            "Table 6: 163 verified BSMs/s (HSM)",
            6.12,
        ),
    ] {
        out.push(Finding::judged(
            "001",
            "Fig. 15 vs Tables 5-6",
            format!("IEEE 1609.2 with the {what} verifies {:.0} % of the BSMs at 100 vehicles", paper * 100.0),
            Evidence::Independent,
            &run.setup,
            format!("the most one module can verify: its rate ({table}) over the BSMs each receiver gets"),
            Criterion::AtLeast(paper),
            bound(per_s),
            format!(
                "each receiver gets {} BSMs/s; at {ms} ms per verification (Table 5) one module verifies at most {per_s}/s. The paper's {:.0} % would need about {} verifications/s, which its tables do not give; simulated ratio {}",
                fmt(load),
                paper * 100.0,
                load.map_or("—".into(), |l| format!("{:.0}", paper * l.value)),
                fmt(if what.starts_with("software") { soft } else { hsm })
            ),
        ));
    }
    out
}

/// Figs. 12 and 16, abstract: the hash chain's delay is 24 times shorter than IEEE
/// 1609.2's (60 ms) and 28 times shorter than TESLA's.
fn e2e(run: &ScenarioRun) -> Finding {
    let r = &run.results;
    let e2e = |v: &str| value(r, v, SimStatistic::E2eMeanMs);
    let ratio = |a: &str| {
        paired(r, a, "hash-chain-bsm", |x, h| {
            x.e2e_delay.mean_ms() / h.e2e_delay.mean_ms()
        })
    };
    let (dot2, tesla) = (ratio("ieee1609.2-software-bsm"), ratio("tesla-bsm"));
    let mut f = Finding::judged(
        "001",
        "Figs. 12, 16, abstract",
        "the hash chain cuts the end-to-end delay of a BSM by an order of magnitude: 24 times against IEEE 1609.2 (60 ms) and 28 times against TESLA",
        Evidence::ByConstruction,
        &run.setup,
        "E2E(IEEE 1609.2 software) / E2E(hash chain) and E2E(TESLA) / E2E(hash chain), BSM, paired (>= 10 each)",
        Criterion::AtLeast(10.0),
        dot2,
        format!(
            "by construction: the delays are Tables 3, 5 and 10's sign and verify times plus our air time. E2E: hash chain {} ms, IEEE 1609.2 software {} ms, TESLA {} ms, no security {} ms; ratios {} and {}. The paper's factors are smaller because its delays also hold the MK5's ~2 ms of stack latency (no security: about 2 ms), which the simulator has not",
            fmt(e2e("hash-chain-bsm")),
            fmt(e2e("ieee1609.2-software-bsm")),
            fmt(e2e("tesla-bsm")),
            fmt(e2e("no-security")),
            fmt(dot2),
            fmt(tesla)
        ),
    );
    f.verdict = all(&[
        f.verdict,
        tesla.map_or(Support::Inconclusive, |e| Criterion::AtLeast(10.0).judge(&e)),
    ]);
    f
}
