//! The summary of a run's logs: per receiver and traffic case (benign, or an attack or
//! functional case code), what was sent, what arrived, what the security layer did with
//! it, end-to-end and verification latency, and each process's CPU time and peak RSS.
//! Written as `summary.json` and a Markdown table (`report.md`).
//!
//! Loss accounting: a benign data packet sent to a receiver is either accepted there,
//! or lost in the security layer (dropped from a full queue, past its deadline, or
//! rejected), or lost in the network (never read from the socket). The three add up to
//! what was sent — `consistent` in the summary checks it. An attack packet accepted is
//! a security failure: every one is listed in `attacks_accepted` and flagged in the
//! report (an accepted A-SIG-05 packet is an accepted replay).

use super::Logs;
use crate::log::{
    read_rows, Event, EventRecord, RxRecord, Stage, TxRecord, UsageRecord, Verdict, EVENTS_FILE, RX_FILE, TX_FILE,
    USAGE_FILE,
};
use crate::scenario::{Case, Role};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Percentiles of a latency sample, µs ([`v2x_report::stats::quantile_sorted`], rounded to
/// the µs).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Latency {
    pub count: usize,
    pub mean_us: f64,
    pub p50_us: u64,
    pub p95_us: u64,
    pub p99_us: u64,
    pub max_us: u64,
    /// The sample, sorted (for the report's distributions; not in `summary.json`).
    #[serde(skip)]
    pub samples_us: Vec<u64>,
}

impl Latency {
    pub fn of(mut v: Vec<u64>) -> Latency {
        if v.is_empty() {
            return Latency::default();
        }
        v.sort_unstable();
        let sorted: Vec<f64> = v.iter().map(|&x| x as f64).collect();
        let at = |q: f64| v2x_report::stats::quantile_sorted(&sorted, q).round() as u64;
        Latency {
            count: v.len(),
            mean_us: v2x_report::stats::mean(&sorted),
            p50_us: at(0.5),
            p95_us: at(0.95),
            p99_us: at(0.99),
            max_us: *v.last().unwrap_or(&0),
            samples_us: v,
        }
    }
}

/// One traffic case at one receiver.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct CaseStats {
    /// Data packets sent (one copy per receiver).
    pub sent: u64,
    pub accepted: u64,
    pub rejected: u64,
    /// Dropped before verification (queue overflow, deadline, rate limit).
    pub dropped: u64,
    /// Rejected or dropped on the socket thread by a defence (`precheck`, rate limits),
    /// before taking a verifier-queue slot (included in `rejected` and `dropped`).
    pub prechecked: u64,
    /// Never read from the socket.
    pub network_lost: u64,
    /// Reject and drop reasons, with counts.
    pub reasons: BTreeMap<String, u64>,
    /// accepted / sent.
    pub goodput: f64,
    /// Generation to verification end (benign, accepted).
    pub e2e: Latency,
    /// Verify start to end.
    pub verify: Latency,
    /// sent = accepted + rejected + dropped + network_lost.
    pub consistent: bool,
    /// Receive time of the first accepted and of the last rejected packet, TAI µs (the
    /// order F-CER-02 checks: rejected until the missing CA is learnt, accepted after).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_accepted_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_rejected_us: Option<u64>,
}

/// F-PSN-01, the receiver's view of one sender (benign or functional case): the
/// pseudonyms (signer ids) its accepted packets came under, in order, and how often the
/// pseudonym changed.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct PseudonymView {
    pub pseudonyms: Vec<String>,
    pub changes: u32,
    pub accepted: u64,
}

/// A station process's resource use.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Usage {
    pub cpu_s: f64,
    /// CPU time over the run's duration (1.0 = one core busy).
    pub cpu_share: f64,
    pub max_rss_kib: u64,
}

/// The verdict of one functional case of paper 002 at the end of a run
/// ([`super::functional::judge`]).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FunctionalVerdict {
    pub case: String,
    pub title: String,
    pub expected: String,
    /// Paper 002 Table 2.17.
    pub paper: String,
    pub passed: bool,
    /// Why: the counts and reasons that decided it.
    pub evidence: String,
    /// Messages sent (one copy per receiver counted once).
    pub sent: u64,
    /// Over the case's receivers.
    pub accepted: u64,
    pub rejected: u64,
    pub dropped: u64,
    pub network_lost: u64,
    /// Messages SN-ENCAP refused to sign, by reason.
    pub refused: BTreeMap<String, u64>,
    /// Reject and drop reasons at the receivers, with counts.
    pub reasons: BTreeMap<String, u64>,
    /// Receiver -> the pseudonyms (HashedId8) the accepted messages came under, in order.
    pub pseudonyms: BTreeMap<String, Vec<String>>,
}

/// Attack packets a receiver accepted: a security failure (A-SIG-05: accepted replays).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AttackAccepted {
    pub receiver: String,
    pub case: String,
    pub accepted: u64,
    pub sent: u64,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Summary {
    pub duration_s: f64,
    /// receiver -> case -> stats.
    pub receivers: BTreeMap<String, BTreeMap<String, CaseStats>>,
    /// receiver -> sender (payload origin; benign and functional cases) -> pseudonyms seen.
    pub pseudonyms: BTreeMap<String, BTreeMap<u32, PseudonymView>>,
    pub processes: BTreeMap<String, Usage>,
    /// Every attack case with packets accepted, per receiver (empty: none).
    pub attacks_accepted: Vec<AttackAccepted>,
    /// Per (sender, receiver) link through the channel emulator (empty on loopback).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<super::links::LinkStats>,
    /// Case -> reason -> messages SN-ENCAP refused to sign (`encap-refused` events).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub refused: BTreeMap<String, BTreeMap<String, u64>>,
    /// The functional cases' verdicts ([`super::functional::judge`]), when the scenario has them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub functional: Vec<FunctionalVerdict>,
}

/// Who sends to whom: a sender's `peers` event lists the receiver addresses it sends to,
/// a receiver's `listening` event its own (a sender without one sends to all).
struct Addressing<'a> {
    listening: HashMap<&'a str, &'a str>,
    peers: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> Addressing<'a> {
    fn of(events: &'a [EventRecord]) -> Addressing<'a> {
        let mut a = Addressing {
            listening: HashMap::new(),
            peers: HashMap::new(),
        };
        for e in events {
            match e.event {
                Event::Listening => {
                    a.listening.insert(&e.station, &e.detail);
                }
                Event::Peers => {
                    a.peers.insert(&e.station, e.detail.split(' ').collect());
                }
                _ => {}
            }
        }
        a
    }

    /// Whether `t`'s sender sends to `receiver`: its peers name the receiver's address, or
    /// name no receiver at all (a relay: the channel emulator delivers to every receiver).
    fn sends_to(&self, t: &TxRecord, receiver: &str) -> bool {
        match (self.peers.get(t.station.as_str()), self.listening.get(receiver)) {
            (Some(p), Some(a)) => p.contains(a) || !p.iter().any(|q| self.listening.values().any(|l| l == q)),
            _ => true,
        }
    }
}

/// The summary of a run's logs (`duration_s` of sending).
pub fn analyse(logs: &Logs, duration_s: f64) -> Summary {
    let addressing = Addressing::of(&logs.events);
    // Data packets by digest: which case, which (origin, counter).
    // A replay repeats its original's digest: the n-th arrival of a digest is its n-th sending.
    let mut data: HashMap<&str, Vec<&TxRecord>> = HashMap::new();
    for t in logs.tx.iter().filter(|t| t.kind.is_some()) {
        data.entry(t.digest.as_str()).or_default().push(t);
    }
    // Rows are logged when decided, which can be out of arrival order (a packet refused on
    // the socket thread is logged before an earlier one still being verified); copies of
    // one digest are matched to their sendings in arrival order.
    let mut rx: Vec<&RxRecord> = logs.rx.iter().collect();
    rx.sort_by_key(|r| r.received_us);
    // A receiver that read nothing (every frame refused before the air, say) still has its
    // row: all it was sent is lost in the network.
    let mut receivers: Vec<&str> = rx.iter().map(|r| r.station.as_str()).collect();
    receivers.extend(addressing.listening.keys().copied());
    receivers.sort_unstable();
    receivers.dedup();
    let mut summary = Summary {
        duration_s,
        refused: refusals(&logs.events),
        processes: processes(&logs.usage, duration_s),
        ..Summary::default()
    };
    for station in receivers {
        let mut acc = Accounting::default();
        for t in logs
            .tx
            .iter()
            .filter(|t| t.kind.is_some() && addressing.sends_to(t, station))
        {
            acc.cases.entry(t.case).or_default().sent += u64::from(t.copies.min(1));
        }
        for r in rx.iter().filter(|r| r.station == station && r.stage != Stage::Release) {
            acc.count(r, &data);
        }
        let (cases, views) = acc.finish();
        for (case, c) in &cases {
            if matches!(case, Case::Attack(_)) && c.accepted > 0 {
                summary.attacks_accepted.push(AttackAccepted {
                    receiver: station.to_string(),
                    case: case.code().to_string(),
                    accepted: c.accepted,
                    sent: c.sent,
                });
            }
        }
        summary.receivers.insert(
            station.to_string(),
            cases.into_iter().map(|(k, v)| (k.code().to_string(), v)).collect(),
        );
        summary.pseudonyms.insert(station.to_string(), views);
    }
    summary
}

/// One receiver's counts while its rows are read.
#[derive(Default)]
struct Accounting<'a> {
    cases: BTreeMap<Case, CaseStats>,
    e2e: HashMap<Case, Vec<u64>>,
    verify: HashMap<Case, Vec<u64>>,
    /// How many arrivals of each digest were matched so far.
    seen: HashMap<&'a str, usize>,
    views: BTreeMap<u32, PseudonymView>,
    current: HashMap<u32, String>,
}

impl<'a> Accounting<'a> {
    /// Counts one received row against the sending it matches.
    fn count(&mut self, r: &'a RxRecord, data: &HashMap<&str, Vec<&'a TxRecord>>) {
        let Some(sendings) = data.get(r.digest.as_str()) else {
            return;
        };
        let n = self.seen.entry(r.digest.as_str()).or_default();
        let Some(t) = sendings.get(*n) else { return };
        *n += 1;
        if r.verdict == Verdict::Accepted {
            if t.role == Role::Sender {
                self.view(t.origin, &r.sender);
            }
            if let Some(end) = r.verify_end_us {
                self.e2e
                    .entry(t.case)
                    .or_default()
                    .push(end.saturating_sub(t.generated_us));
            }
        }
        let c = self.cases.entry(t.case).or_default();
        match r.verdict {
            Verdict::Accepted => {
                c.accepted += 1;
                c.first_accepted_us.get_or_insert(r.received_us);
            }
            Verdict::Rejected => {
                c.rejected += 1;
                c.last_rejected_us = Some(r.received_us);
            }
            Verdict::Dropped => c.dropped += 1,
            Verdict::Pending | Verdict::Control => {}
        }
        if let (Some(s), Some(e)) = (r.verify_start_us, r.verify_end_us) {
            self.verify.entry(t.case).or_default().push(e.saturating_sub(s));
        }
        if r.stage == Stage::Precheck {
            c.prechecked += 1;
        }
        if let Some(reason) = r.reason {
            *c.reasons.entry(reason.code().to_string()).or_default() += 1;
        }
    }

    /// F-PSN-01: the pseudonym an accepted packet of `origin` came under.
    fn view(&mut self, origin: u32, sender: &str) {
        let v = self.views.entry(origin).or_default();
        v.accepted += 1;
        let now = self.current.entry(origin).or_default();
        if now != sender {
            if !now.is_empty() {
                v.changes += 1;
            }
            *now = sender.to_string();
            if !v.pseudonyms.iter().any(|p| p == sender) {
                v.pseudonyms.push(sender.to_string());
            }
        }
    }

    fn finish(mut self) -> (BTreeMap<Case, CaseStats>, BTreeMap<u32, PseudonymView>) {
        for (case, c) in self.cases.iter_mut() {
            let decided = c.accepted + c.rejected + c.dropped;
            c.network_lost = c.sent.saturating_sub(decided);
            c.consistent = c.sent == decided + c.network_lost;
            c.goodput = if c.sent > 0 {
                c.accepted as f64 / c.sent as f64
            } else {
                0.0
            };
            c.e2e = Latency::of(self.e2e.remove(case).unwrap_or_default());
            c.verify = Latency::of(self.verify.remove(case).unwrap_or_default());
        }
        (self.cases, self.views)
    }
}

/// Case -> reason -> messages SN-ENCAP refused (`encap-refused` events: `CASE: reason`).
fn refusals(events: &[EventRecord]) -> BTreeMap<String, BTreeMap<String, u64>> {
    let mut out: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for e in events.iter().filter(|e| e.event == Event::EncapRefused) {
        let (case, reason) = e.detail.split_once(": ").unwrap_or(("", e.detail.as_str()));
        *out.entry(case.to_string())
            .or_default()
            .entry(reason.to_string())
            .or_default() += 1;
    }
    out
}

/// Each process's CPU and memory (`usage.csv`).
fn processes(usage: &[UsageRecord], duration_s: f64) -> BTreeMap<String, Usage> {
    usage
        .iter()
        .map(|u| {
            let cpu_s = u.cpu_us as f64 / 1e6;
            let usage = Usage {
                cpu_s,
                cpu_share: if duration_s > 0.0 { cpu_s / duration_s } else { 0.0 },
                max_rss_kib: u.max_rss_kib,
            };
            (u.station.clone(), usage)
        })
        .collect()
}

/// The summary as a Markdown table, one row per receiver and case.
pub fn table(s: &Summary) -> String {
    let mut out = String::from(
        "| receiver | case | sent | accepted | rejected | dropped | net lost | goodput | E2E p50 ms | E2E p99 ms | verify p50 µs | reasons |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (rx, cases) in &s.receivers {
        for (case, c) in cases {
            let reasons: Vec<String> = c.reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            out.push_str(&format!(
                "| {rx} | {case} | {} | {} | {} | {} | {} | {:.2} % | {:.2} | {:.2} | {} | {} |\n",
                c.sent,
                c.accepted,
                c.rejected,
                c.dropped,
                c.network_lost,
                100.0 * c.goodput,
                c.e2e.p50_us as f64 / 1e3,
                c.e2e.p99_us as f64 / 1e3,
                c.verify.p50_us,
                reasons.join(", ")
            ));
        }
    }
    if !s.functional.is_empty() {
        out.push_str(&functional_table(&s.functional));
    }
    out.push_str("\n| process | CPU s | CPU share | peak RSS MiB |\n|---|---|---|---|\n");
    for (p, u) in &s.processes {
        out.push_str(&format!(
            "| {p} | {:.2} | {:.1} % | {:.1} |\n",
            u.cpu_s,
            100.0 * u.cpu_share,
            u.max_rss_kib as f64 / 1024.0
        ));
    }
    out.push_str(&attacks_accepted_table(&s.attacks_accepted));
    out.push_str(&format!(
        "\nLatency {}, rounded to the µs.\n",
        v2x_report::stats::PERCENTILE_DEFINITION
    ));
    out + &super::links::links_table(&s.links)
}

/// The verdicts as a Markdown table in the layout of paper 002 Table 2.17, ours beside.
pub fn functional_table(verdicts: &[FunctionalVerdict]) -> String {
    let mut out = String::from(
        "\n## Functional cases (paper 002 Table 2.17)\n\n| case | name | paper | ours | expected | sent | accepted | rejected | refused | evidence |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for v in verdicts {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            v.case,
            v.title,
            v.paper,
            if v.passed { "passed" } else { "FAILED" },
            v.expected,
            v.sent,
            v.accepted,
            v.rejected,
            v.refused.values().sum::<u64>(),
            v.evidence.replace('|', "/")
        ));
    }
    out
}

/// The attack packets that were accepted, flagged (empty when none was).
pub fn attacks_accepted_table(accepted: &[AttackAccepted]) -> String {
    if accepted.is_empty() {
        return String::new();
    }
    let mut out =
        String::from("\n## ATTACK PACKETS ACCEPTED\n\n| receiver | case | accepted | sent |\n|---|---|---|---|\n");
    for a in accepted {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            a.receiver, a.case, a.accepted, a.sent
        ));
    }
    out
}

/// Every station's log rows as one table, CSV text with a header.
fn merged<T: serde::de::DeserializeOwned + serde::Serialize>(logs: &Path, file: &str) -> std::io::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut dirs: Vec<_> = std::fs::read_dir(logs)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        for row in read_rows::<T>(&dir.join(file)).unwrap_or_default() {
            w.serialize(row).map_err(std::io::Error::other)?;
        }
    }
    let bytes = w.into_inner().map_err(|e| std::io::Error::other(e.to_string()))?;
    String::from_utf8(bytes).map_err(std::io::Error::other)
}

/// Writes the stations' logs merged into `tx`, `rx`, `events` and `usage` tables in
/// `out`, each a CSV with a typed Parquet file beside it (for pandas).
pub fn write_tables(logs: &Path, out: &Path) -> std::io::Result<()> {
    let table = |name: &str, text: String| {
        v2x_report::table::write_csv_and_parquet(out, name, &text).map_err(std::io::Error::other)
    };
    table(TX_FILE, merged::<TxRecord>(logs, TX_FILE)?)?;
    table(RX_FILE, merged::<RxRecord>(logs, RX_FILE)?)?;
    table(EVENTS_FILE, merged::<EventRecord>(logs, EVENTS_FILE)?)?;
    table(USAGE_FILE, merged::<UsageRecord>(logs, USAGE_FILE)?)
}

/// Writes `summary.json` and `report.md` into `out`.
pub fn write(s: &Summary, out: &Path) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(s).map_err(std::io::Error::other)?;
    std::fs::write(out.join("summary.json"), json)?;
    std::fs::write(out.join("report.md"), table(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_usage() {
        let l = Latency::of((1..=100).collect());
        assert_eq!((l.count, l.p50_us, l.p99_us, l.max_us), (100, 51, 99, 100));
        assert_eq!(Latency::of(vec![]), Latency::default());
        // Type 7 between order statistics, not the nearest rank: p50 of [10, 20] is 15.
        assert_eq!(Latency::of(vec![20, 10]).p50_us, 15);
        let p = processes(
            &[UsageRecord {
                station: "rx0".into(),
                cpu_us: 2_500_000,
                max_rss_kib: 2048,
            }],
            10.0,
        );
        assert_eq!((p["rx0"].cpu_s, p["rx0"].max_rss_kib), (2.5, 2048));
        assert!((p["rx0"].cpu_share - 0.25).abs() < 1e-9);
    }
}
