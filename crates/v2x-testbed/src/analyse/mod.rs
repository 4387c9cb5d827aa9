//! After a run: the stations' logs read back ([`Logs`]) and what they add up to — the
//! summary per receiver and case ([`summary`]), the per-link delivery through the channel
//! emulator ([`links`]), the functional cases' verdicts ([`functional`]), the load plan's
//! and flood search's tables ([`load_plan`], [`flood`]) and `report.html` ([`report`]).
//! Nothing here runs while the stations do.

pub mod flood;
pub mod functional;
pub mod links;
pub mod load_plan;
pub mod misbehaviour;
pub mod report;
pub mod summary;

use crate::log::{read_rows, EventRecord, RxRecord, TxRecord, UsageRecord, EVENTS_FILE, RX_FILE, TX_FILE, USAGE_FILE};
use crate::scenario::{MediumKind, Scenario};
use functional::FunctionalStation;
use std::path::Path;
use summary::Summary;

/// Every station's log rows of a run.
#[derive(Debug, Default)]
pub struct Logs {
    pub tx: Vec<TxRecord>,
    pub rx: Vec<RxRecord>,
    pub events: Vec<EventRecord>,
    pub usage: Vec<UsageRecord>,
}

impl Logs {
    /// Reads the log folder of every station under `logs` (a torn last row, from a
    /// station that crashed, ends its file).
    pub fn read(logs: &Path) -> std::io::Result<Logs> {
        let mut dirs: Vec<_> = std::fs::read_dir(logs)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        let mut out = Logs::default();
        for dir in dirs {
            out.tx.extend(read_rows(&dir.join(TX_FILE)).unwrap_or_default());
            out.rx.extend(read_rows(&dir.join(RX_FILE)).unwrap_or_default());
            out.events.extend(read_rows(&dir.join(EVENTS_FILE)).unwrap_or_default());
            out.usage.extend(read_rows(&dir.join(USAGE_FILE)).unwrap_or_default());
        }
        Ok(out)
    }
}

/// Analyses the finished run in `out` (its `logs/`): the summary, the links through the
/// emulator, the functional cases' verdicts; writes `summary.json`, `report.md`,
/// `report.html` and the merged packet tables.
pub fn run(out: &Path, scenario: &Scenario, functional: &[FunctionalStation]) -> std::io::Result<Summary> {
    let logs_dir = out.join("logs");
    let logs = Logs::read(&logs_dir)?;
    let mut summary = summary::analyse(&logs, scenario.duration_s);
    if scenario.medium.kind == MediumKind::Emulator {
        summary.links = links::links(&logs_dir, &logs, &scenario.medium)?;
        let frames = logs_dir
            .join(crate::emulator::PROCESS_NAME)
            .join(crate::emulator::FRAMES_FILE);
        let text = std::fs::read_to_string(&frames)?;
        v2x_report::table::write_csv_and_parquet(out, "channel_frames.csv", &text).map_err(std::io::Error::other)?;
    }
    summary.functional = functional.iter().map(|st| functional::judge(st, &summary)).collect();
    summary::write(&summary, out)?;
    report::write(&summary, "", out)?;
    summary::write_tables(&logs_dir, out)?;
    Ok(summary)
}
