//! Analysis of a run's logs: per receiver and traffic case (benign, or an attack code),
//! what was sent, what arrived, what the security layer did with it, end-to-end and
//! verification latency, and each process's CPU time and peak RSS. Written as
//! `summary.json` and a Markdown table (`report.md`).
//!
//! Loss accounting: a benign data packet sent to a receiver is either accepted there,
//! or lost in the security layer (dropped from a full queue, past its deadline, or
//! rejected), or lost in the network (never read from the socket). The three add up to
//! what was sent — `consistent` in the summary checks it.

use crate::log::{
    read_rows, EventRecord, RxRecord, TxRecord, EVENTS_FILE, EVENT_LISTENING, EVENT_PEERS, EVENT_REFUSED, RX_FILE,
    TX_FILE,
};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Percentiles of a latency sample, µs.
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
    fn of(mut v: Vec<u64>) -> Latency {
        if v.is_empty() {
            return Latency::default();
        }
        v.sort_unstable();
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        Latency {
            count: v.len(),
            mean_us: v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64,
            p50_us: at(0.5),
            p95_us: at(0.95),
            p99_us: at(0.99),
            max_us: *v.last().expect("non-empty"),
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
    /// Rejected or dropped on the socket thread by a defence (`precheck`, rate limit),
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

/// The verdict of one functional case of paper 002 at the end of a run
/// ([`crate::functional::judge`]).
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

/// A station process's resource use.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Usage {
    pub cpu_s: f64,
    /// CPU time over the run's duration (1.0 = one core busy).
    pub cpu_share: f64,
    pub max_rss_kib: u64,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Summary {
    pub duration_s: f64,
    /// receiver -> case -> stats.
    pub receivers: BTreeMap<String, BTreeMap<String, CaseStats>>,
    /// receiver -> sender (payload origin; benign and functional cases) -> pseudonyms seen.
    pub pseudonyms: BTreeMap<String, BTreeMap<u32, PseudonymView>>,
    pub processes: BTreeMap<String, Usage>,
    /// Per (sender, receiver) link through the channel emulator (empty on loopback).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<crate::medium::LinkStats>,
    /// Case -> reason -> messages SN-ENCAP refused to sign (`encap-refused` events).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub refused: BTreeMap<String, BTreeMap<String, u64>>,
    /// The functional cases' verdicts ([`crate::functional`]), when the scenario has them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub functional: Vec<FunctionalVerdict>,
}

/// Reads every station's log under `logs`.
pub fn analyse(logs: &Path, duration_s: f64) -> std::io::Result<Summary> {
    let mut tx: Vec<TxRecord> = Vec::new();
    let mut rx: Vec<RxRecord> = Vec::new();
    // Who sends to whom: a sender's `peers` event lists the receiver addresses it sends
    // to, a receiver's `listening` event its own (a sender without one sends to all).
    let mut addresses: HashMap<String, String> = HashMap::new();
    let mut peers: HashMap<String, Vec<String>> = HashMap::new();
    let mut summary = Summary {
        duration_s,
        ..Summary::default()
    };
    for entry in std::fs::read_dir(logs)? {
        let dir = entry?.path();
        if !dir.is_dir() {
            continue;
        }
        tx.extend(read_rows::<TxRecord>(&dir.join(TX_FILE)).unwrap_or_default());
        rx.extend(read_rows::<RxRecord>(&dir.join(RX_FILE)).unwrap_or_default());
        for e in read_rows::<EventRecord>(&dir.join(EVENTS_FILE)).unwrap_or_default() {
            match e.event.as_str() {
                "usage" => {
                    summary
                        .processes
                        .insert(e.station.clone(), parse_usage(&e.detail, duration_s));
                }
                EVENT_REFUSED => {
                    let (case, reason) = e.detail.split_once(": ").unwrap_or(("", e.detail.as_str()));
                    *summary
                        .refused
                        .entry(case.to_string())
                        .or_default()
                        .entry(reason.to_string())
                        .or_default() += 1;
                }
                EVENT_LISTENING => {
                    addresses.insert(e.station.clone(), e.detail.clone());
                }
                EVENT_PEERS => {
                    peers.insert(e.station.clone(), e.detail.split(' ').map(String::from).collect());
                }
                _ => {}
            }
        }
    }
    // Data packets by digest: which case, which (origin, counter).
    // A replay repeats its original's digest: the n-th arrival of a digest is its n-th sending.
    let mut data: HashMap<&str, Vec<&TxRecord>> = HashMap::new();
    for t in tx.iter().filter(|t| !t.kind.is_empty()) {
        data.entry(t.digest.as_str()).or_default().push(t);
    }
    // Rows are logged when decided, which can be out of arrival order (a packet refused on
    // the socket thread is logged before an earlier one still being verified); copies of
    // one digest are matched to their sendings in arrival order.
    rx.sort_by_key(|r| r.received_us);
    let mut receivers: Vec<&str> = rx.iter().map(|r| r.station.as_str()).collect();
    receivers.sort_unstable();
    receivers.dedup();
    for station in receivers {
        let mut cases: BTreeMap<String, CaseStats> = BTreeMap::new();
        let mut e2e: HashMap<String, Vec<u64>> = HashMap::new();
        let mut ver: HashMap<String, Vec<u64>> = HashMap::new();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut views: BTreeMap<u32, PseudonymView> = BTreeMap::new();
        let mut current: HashMap<u32, String> = HashMap::new();
        let addressed = |t: &TxRecord| match (peers.get(&t.station), addresses.get(station)) {
            (Some(p), Some(a)) => p.contains(a),
            _ => true,
        };
        for t in tx.iter().filter(|t| !t.kind.is_empty() && addressed(t)) {
            cases.entry(t.case.clone()).or_default().sent += u64::from(t.copies.min(1));
        }
        for r in rx.iter().filter(|r| r.station == station) {
            if r.stage == "release" {
                continue;
            }
            let Some(sendings) = data.get(r.digest.as_str()) else {
                continue;
            };
            let n = seen.entry(r.digest.as_str()).or_default();
            let Some(t) = sendings.get(*n) else { continue };
            *n += 1;
            let c = cases.entry(t.case.clone()).or_default();
            match r.verdict.as_str() {
                "accepted" => {
                    c.accepted += 1;
                    c.first_accepted_us.get_or_insert(r.received_us);
                    if t.role == "sender" {
                        let v = views.entry(t.origin).or_default();
                        v.accepted += 1;
                        let now = current.entry(t.origin).or_default();
                        if *now != r.sender {
                            if !now.is_empty() {
                                v.changes += 1;
                            }
                            now.clone_from(&r.sender);
                            if !v.pseudonyms.contains(&r.sender) {
                                v.pseudonyms.push(r.sender.clone());
                            }
                        }
                    }
                    if let Some(end) = r.verify_end_us {
                        e2e.entry(t.case.clone())
                            .or_default()
                            .push(end.saturating_sub(t.generated_us));
                    }
                }
                "rejected" => {
                    c.rejected += 1;
                    c.last_rejected_us = Some(r.received_us);
                }
                "dropped" => c.dropped += 1,
                _ => {}
            }
            if let (Some(s), Some(e)) = (r.verify_start_us, r.verify_end_us) {
                ver.entry(t.case.clone()).or_default().push(e.saturating_sub(s));
            }
            if r.stage == "precheck" {
                c.prechecked += 1;
            }
            if !r.reason.is_empty() {
                *c.reasons.entry(r.reason.clone()).or_default() += 1;
            }
        }
        for (case, c) in cases.iter_mut() {
            let decided = c.accepted + c.rejected + c.dropped;
            c.network_lost = c.sent.saturating_sub(decided);
            c.consistent = c.sent == decided + c.network_lost;
            c.goodput = if c.sent > 0 {
                c.accepted as f64 / c.sent as f64
            } else {
                0.0
            };
            c.e2e = Latency::of(e2e.remove(case).unwrap_or_default());
            c.verify = Latency::of(ver.remove(case).unwrap_or_default());
        }
        summary.receivers.insert(station.to_string(), cases);
        summary.pseudonyms.insert(station.to_string(), views);
    }
    Ok(summary)
}

fn parse_usage(detail: &str, duration_s: f64) -> Usage {
    let mut u = Usage::default();
    for kv in detail.split_whitespace() {
        match kv.split_once('=') {
            Some(("cpu_us", v)) => u.cpu_s = v.parse::<f64>().unwrap_or(0.0) / 1e6,
            Some(("maxrss_kib", v)) => u.max_rss_kib = v.parse().unwrap_or(0),
            _ => {}
        }
    }
    u.cpu_share = if duration_s > 0.0 { u.cpu_s / duration_s } else { 0.0 };
    u
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
    out + &crate::medium::links_table(&s.links)
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

/// Writes the stations' logs merged into `tx`, `rx` and `events` tables in `out`, each a
/// CSV with a typed Parquet file beside it (for pandas).
pub fn write_tables(logs: &Path, out: &Path) -> std::io::Result<()> {
    let table = |name: &str, text: String| {
        v2x_report::table::write_csv_and_parquet(out, name, &text).map_err(std::io::Error::other)
    };
    table(TX_FILE, merged::<TxRecord>(logs, TX_FILE)?)?;
    table(RX_FILE, merged::<RxRecord>(logs, RX_FILE)?)?;
    table(EVENTS_FILE, merged::<EventRecord>(logs, EVENTS_FILE)?)
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
    fn percentiles_and_usage_parse() {
        let l = Latency::of((1..=100).collect());
        assert_eq!((l.count, l.p50_us, l.p99_us, l.max_us), (100, 51, 99, 100));
        assert_eq!(Latency::of(vec![]), Latency::default());
        let u = parse_usage("cpu_us=2500000 maxrss_kib=2048", 10.0);
        assert_eq!((u.cpu_s, u.max_rss_kib), (2.5, 2048));
        assert!((u.cpu_share - 0.25).abs() < 1e-9);
    }
}
