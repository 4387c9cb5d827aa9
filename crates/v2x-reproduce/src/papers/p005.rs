//! Paper 005 (Twardokus, Bindel, Rahbari, McCarthy, NDSS 2024, ePrint 2022/483): signing
//! certificates in today's V2V traffic are "up to 93% redundant", and a schedule that sends
//! them adaptively reduces the spectrum they take.
//!
//! Only the paper's abstract could be read here, so only what it states is compared: the
//! redundancy (the simulator counts, per reception, a certificate copy reaching a station
//! that already held it, under today's schedules: once a second and every fifth BSM), and
//! the adaptive schedule's claim, judged on v2xsec's own reading of such a schedule (the
//! first BSM, a new station heard, or an IEEE 1609.2 P2PCD request; P2PCD alone beside it)
//! — an extension, since the paper's algorithm is not that. Its post-quantum sizes, delays and channel results
//! are the body's, not reproduced (`not_done`).

use super::{fmt, Paper};
use crate::judge::{all, Criterion, Support};
use crate::report::{Evidence, Finding};
use crate::sim::{paired, value, ScenarioRun, Shipped};
use crate::{Context, ReproduceError};
use v2x_bench::papers::SimStatistic;

pub const PAPER: Paper = Paper {
    id: "005",
    citation: "Twardokus, Bindel, Rahbari, McCarthy, When Cryptography Needs a Hand: Practical Post-Quantum Authentication for V2V Communications (NDSS 2024, ePrint 2022/483)",
    scenarios: &SCENARIOS,
    not_done: &[
        "paper 005: only the abstract could be read here (the body, its tables and its traffic set-up could not), so its per-design sizes, its USRP and commercial-device measurements and its channel-load and reception results are not compared; v2xsec's own post-quantum designs and their sizes, timings and simulated delivery are in docs/post-quantum.md",
        "paper 005: the abstract's \"negligible average delay (0.39 ms per message)\" is not compared: it does not say what the delay is measured from (signing, airtime of the certificate fragments, or the schedule's waiting)",
        "paper 005: the adaptive schedule that \"learns\" is the paper's; ours is a rule (first BSM, new station, P2PCD request), judged as an extension",
    ],
    add,
};

const FILE: &str = "005-certificate-redundancy.toml";

pub const SCENARIOS: [Shipped; 1] = [Shipped {
    paper: "005",
    file: FILE,
    text: include_str!("../../../../scenarios/papers/005-certificate-redundancy.toml"),
    in_quick: true,
    serves: None,
    setup: "",
    calibration: None,
    not_comparable: &[],
    setup_not_comparable: None,
    data: &[],
    recorded_trace: false,
}];

fn add(ctx: &mut Context) -> Result<(), ReproduceError> {
    ctx.compare_published(PAPER.id, PAPER.scenarios)?;
    if let Some(run) = ctx.sim(FILE) {
        let f = adaptive(run);
        ctx.report.findings.push(f);
    }
    Ok(())
}

/// The abstract: an adaptive schedule reduces the spectrum certificates take. Judged on
/// v2xsec's adaptive rule against once a second: fewer certificates sent (paired ratio at
/// most 1) without more CAMs lost to an unknown certificate (paired difference at most 0);
/// P2PCD alone is shown beside it.
fn adaptive(run: &ScenarioRun) -> Finding {
    let r = &run.results;
    const OURS: &str = "adaptive";
    const TODAY: &str = "once-per-second";
    let sent = paired(r, OURS, TODAY, |a, b| {
        a.certificates_sent as f64 / b.certificates_sent as f64
    });
    let lost = |m: &v2x_sim::RunMetrics| {
        if m.security_arrivals == 0 {
            f64::NAN
        } else {
            m.crypto_lost_unknown_certificate as f64 / m.security_arrivals as f64
        }
    };
    let more_lost = paired(r, OURS, TODAY, |a, b| lost(a) - lost(b));
    let p2pcd_sent = paired(r, "p2pcd", TODAY, |a, b| {
        a.certificates_sent as f64 / b.certificates_sent as f64
    });
    let p2pcd_lost = paired(r, "p2pcd", TODAY, |a, b| lost(a) - lost(b));
    let redundancy = |v: &str| value(r, v, SimStatistic::CertificateRedundancy);
    let mut f = Finding::judged(
        "005",
        "abstract",
        "a schedule that sends certificates adaptively instead of periodically reduces the spectrum they take",
        Evidence::Extension,
        &run.setup,
        "certificates sent, adaptive / once a second (paired, <= 1), and the share of CAMs lost to an unknown certificate, adaptive minus once a second (paired, <= 0)",
        Criterion::AtMost(1.0),
        sent,
        format!(
            "our rule, not the paper's learned schedule: certificates sent {} of once a second's, unknown-certificate loss difference {}; P2PCD alone: {} and {}; redundancy once a second {}, every fifth {}, adaptive {}, P2PCD {}",
            fmt(sent),
            fmt(more_lost),
            fmt(p2pcd_sent),
            fmt(p2pcd_lost),
            fmt(redundancy(TODAY)),
            fmt(redundancy("every-5th")),
            fmt(redundancy(OURS)),
            fmt(redundancy("p2pcd")),
        ),
    );
    f.verdict = all(&[
        f.verdict,
        more_lost.map_or(Support::Inconclusive, |e| Criterion::AtMost(0.0).judge(&e)),
    ]);
    f
}
