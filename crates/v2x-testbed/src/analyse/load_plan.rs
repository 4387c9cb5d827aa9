//! The PRESERVE load plan (paper 002 §2.2.1 and §4.1): one receiver, low / medium / high
//! load of 1 / 5 / 15 senders, each at 1, 10, 20 and 100 Hz (up to 1,500 CAMs/s), one
//! testbed run per cell (`[load_plan]` of a scenario, run by [`crate::run::probes`]). The
//! table puts the paper's figures of §4.1 beside ours where it gives one.
//!
//! Paper 002 gives its §4.1 results as figures and prose, not as a table; the values it
//! states in the text are the ones quoted here ([`paper_values`]). papers.json (the
//! reproduction data) holds its Tables 3.2 and 4.2 only.

use super::summary::Summary;
use serde::Serialize;

/// What paper 002 §4.1 states for one cell (text values; none where it gives none).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct PaperCell {
    /// Average signature verification time at the receiver, ms (Fig. 4.1, text).
    pub verify_ms: Option<f64>,
    /// End-to-end latency, ms (Fig. 4.3, text).
    pub e2e_ms: Option<f64>,
    /// Packet loss with security (signed and verified), fraction (Fig. 4.4, text).
    pub loss: Option<f64>,
    /// Packets lost by the security layer (VSS kit), fraction.
    pub security_loss: Option<f64>,
}

/// The values paper 002 §4.1 states for `senders` × `rate_hz`.
pub fn paper_values(senders: u32, rate_hz: f64) -> PaperCell {
    let mut p = PaperCell::default();
    let r = rate_hz.round() as u32;
    // §4.1.1: "signature verification takes, on average, 0.009 sec"; 15 senders at 20 Hz
    // "approximately 0.011 sec".
    p.verify_ms = Some(if senders == 15 && r == 20 { 11.0 } else { 9.0 });
    // §4.1.2 (5 senders): 0.0204 s at 50 msg/s, 0.6 s at 500 msg/s.
    if senders == 5 {
        p.e2e_ms = match r {
            10 => Some(20.4),
            100 => Some(600.0),
            _ => None,
        };
    }
    // §4.1.3 (15 senders, 1500 msg/s): 85 % loss with the security header, and "no packet
    // was lost by the VSS kit" (all loss in the 802.11p stack and channel).
    if senders == 15 {
        p.security_loss = Some(0.0);
        if r == 100 {
            p.loss = Some(0.85);
        }
    }
    p
}

/// One cell of the plan: ours beside the paper's.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct LoadCell {
    pub senders: u32,
    pub rate_hz: f64,
    /// Offered load at the receiver, CAMs/s.
    pub load_msg_s: f64,
    pub benign_sent: u64,
    pub benign_accepted: u64,
    /// Lost in the security layer (queue overflow, deadline, rejected), fraction of sent.
    pub security_loss: f64,
    /// Never read from the socket, fraction of sent.
    pub network_loss: f64,
    pub e2e_mean_ms: f64,
    pub e2e_p50_ms: f64,
    pub e2e_p99_ms: f64,
    pub verify_mean_ms: f64,
    /// Receiver process CPU over the run (1.0 = one core).
    pub receiver_cpu_share: f64,
    pub receiver_rss_mib: f64,
    pub paper: PaperCell,
}

/// Reads one cell from its run's summary (receiver `rx0`).
pub fn cell_of(summary: &Summary, senders: u32, rate_hz: f64) -> LoadCell {
    let mut c = LoadCell {
        senders,
        rate_hz,
        load_msg_s: f64::from(senders) * rate_hz,
        paper: paper_values(senders, rate_hz),
        ..LoadCell::default()
    };
    if let Some(b) = summary.receivers.get("rx0").and_then(|cases| cases.get("benign")) {
        c.benign_sent = b.sent;
        c.benign_accepted = b.accepted;
        if b.sent > 0 {
            c.security_loss = (b.dropped + b.rejected) as f64 / b.sent as f64;
            c.network_loss = b.network_lost as f64 / b.sent as f64;
        }
        c.e2e_mean_ms = b.e2e.mean_us / 1e3;
        c.e2e_p50_ms = b.e2e.p50_us as f64 / 1e3;
        c.e2e_p99_ms = b.e2e.p99_us as f64 / 1e3;
        c.verify_mean_ms = b.verify.mean_us / 1e3;
    }
    if let Some(u) = summary.processes.get("rx0") {
        c.receiver_cpu_share = u.cpu_share;
        c.receiver_rss_mib = u.max_rss_kib as f64 / 1024.0;
    }
    c
}

/// The plan as a Markdown table in the layout of paper 002 §4.1 / Table 4.1, ours | paper.
pub fn table(cells: &[LoadCell]) -> String {
    let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or_else(|| "-".to_string(), f);
    let pct = |x: f64| format!("{:.2} %", 100.0 * x);
    let mut out = String::from(
        "\n## PRESERVE load plan (paper 002 §2.2.1, §4.1): ours | paper\n\n\
         | senders | rate Hz | CAMs/s | sent | accepted | security-layer loss | paper VSS loss | network loss | paper loss (802.11p) | E2E mean ms | E2E p99 ms | paper E2E ms | verify mean ms | paper verify ms | receiver CPU | RSS MiB |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in cells {
        out.push_str(&format!(
            "| {} | {} | {:.0} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {:.3} | {} | {:.1} % | {:.1} |\n",
            c.senders,
            c.rate_hz,
            c.load_msg_s,
            c.benign_sent,
            c.benign_accepted,
            pct(c.security_loss),
            opt(c.paper.security_loss, &pct),
            pct(c.network_loss),
            opt(c.paper.loss, &pct),
            c.e2e_mean_ms,
            c.e2e_p99_ms,
            opt(c.paper.e2e_ms, &|x| format!("{x:.1}")),
            c.verify_mean_ms,
            opt(c.paper.verify_ms, &|x| format!("{x:.0}")),
            100.0 * c.receiver_cpu_share,
            c.receiver_rss_mib
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::summary::{CaseStats, Latency, Usage};

    #[test]
    fn paper_values_follow_the_text_of_section_4_1() {
        assert_eq!(paper_values(15, 100.0).loss, Some(0.85));
        assert_eq!(paper_values(15, 100.0).security_loss, Some(0.0));
        assert_eq!(paper_values(15, 20.0).verify_ms, Some(11.0));
        assert_eq!(paper_values(5, 10.0).e2e_ms, Some(20.4));
        assert_eq!(paper_values(5, 100.0).e2e_ms, Some(600.0));
        assert_eq!(paper_values(1, 1.0).e2e_ms, None);
    }

    #[test]
    fn a_cell_separates_security_and_network_loss() {
        let mut s = Summary::default();
        let b = CaseStats {
            sent: 1000,
            accepted: 990,
            dropped: 4,
            rejected: 1,
            network_lost: 5,
            e2e: Latency {
                mean_us: 1500.0,
                ..Latency::default()
            },
            ..CaseStats::default()
        };
        s.receivers.insert("rx0".into(), [("benign".to_string(), b)].into());
        s.processes.insert(
            "rx0".into(),
            Usage {
                cpu_s: 1.0,
                cpu_share: 0.1,
                max_rss_kib: 2048,
            },
        );
        let c = cell_of(&s, 5, 20.0);
        assert_eq!(c.load_msg_s, 100.0);
        assert!((c.security_loss - 0.005).abs() < 1e-12 && (c.network_loss - 0.005).abs() < 1e-12);
        assert_eq!((c.e2e_mean_ms, c.receiver_rss_mib), (1.5, 2.0));
        let t = table(&[c]);
        assert!(t.contains("| 5 | 20 | 100 | 1000 | 990 | 0.50 % |"), "{t}");
    }
}
