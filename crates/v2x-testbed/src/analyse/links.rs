//! Delivery per (sender, receiver) link of a run through the channel emulator: what the
//! sender sent, what the emulated channel lost (by reason, from the emulator's
//! `channel.json`), what reached the receiver's socket and what its security layer
//! accepted.

use super::Logs;
use crate::emulator::{self, ChannelLog, LinkCount};
use crate::log::{Stage, TxRecord, Verdict};
use crate::scenario::{Case, MediumConfig};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Delivery on one (sender, receiver) link through the emulator: what the sender sent,
/// what the channel lost (by reason), what reached the receiver's socket, and what its
/// security layer accepted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkStats {
    pub sender: String,
    pub receiver: String,
    /// `benign` or the attack case.
    pub case: Case,
    pub distance_m: f64,
    /// Data packets the sender sent.
    pub sent: u64,
    /// Read from the receiver's socket.
    pub received: u64,
    pub accepted: u64,
    /// received / sent: the packet delivery ratio of the channel (and the relay).
    pub pdr: f64,
    /// Frames the emulated channel lost, by reason (control packets included).
    pub channel: LinkCount,
    /// Received but not accepted (rejected or dropped by the security layer).
    pub security_lost: u64,
}

/// Per-link delivery of a run through the emulator, from the stations' logs and the
/// emulator's `channel.json` under `logs`.
pub fn links(logs: &Path, rows: &Logs, medium: &MediumConfig) -> std::io::Result<Vec<LinkStats>> {
    let channel: ChannelLog = match std::fs::read(logs.join(emulator::PROCESS_NAME).join(emulator::CHANNEL_FILE)) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(std::io::Error::other)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => ChannelLog::default(),
        Err(e) => return Err(e),
    };
    let mut receivers: Vec<&str> = rows.rx.iter().map(|r| r.station.as_str()).collect();
    receivers.extend(channel.links.keys().filter_map(|k| k.split(" -> ").nth(1)));
    receivers.sort_unstable();
    receivers.dedup();
    let mut by_digest: HashMap<&str, &TxRecord> = HashMap::new();
    let mut out: BTreeMap<(&str, &str), LinkStats> = BTreeMap::new();
    for t in rows.tx.iter().filter(|t| t.kind.is_some()) {
        by_digest.entry(t.digest.as_str()).or_insert(t);
        for &r in &receivers {
            let link = out
                .entry((t.station.as_str(), r))
                .or_insert_with(|| LinkStats::new(&t.station, r, t.case, medium, &channel));
            link.sent += u64::from(t.copies.min(1));
        }
    }
    for r in rows.rx.iter().filter(|r| r.stage != Stage::Release) {
        let Some(t) = by_digest.get(r.digest.as_str()) else {
            continue;
        };
        if let Some(link) = out.get_mut(&(t.station.as_str(), r.station.as_str())) {
            link.received += 1;
            link.accepted += u64::from(r.verdict == Verdict::Accepted);
        }
    }
    let mut links: Vec<LinkStats> = out.into_values().collect();
    for l in &mut links {
        l.pdr = if l.sent > 0 {
            l.received as f64 / l.sent as f64
        } else {
            0.0
        };
        l.security_lost = l.received.saturating_sub(l.accepted);
    }
    links.sort_by(|a, b| {
        (&a.receiver, a.distance_m)
            .partial_cmp(&(&b.receiver, b.distance_m))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    Ok(links)
}

impl LinkStats {
    fn new(sender: &str, receiver: &str, case: Case, medium: &MediumConfig, channel: &ChannelLog) -> LinkStats {
        LinkStats {
            sender: sender.to_string(),
            receiver: receiver.to_string(),
            case,
            distance_m: match (medium.position(sender), medium.position(receiver)) {
                (Some(a), Some(b)) => emulator::distance(a, b),
                _ => f64::NAN,
            },
            channel: channel
                .links
                .get(&emulator::link_name(sender, receiver))
                .cloned()
                .unwrap_or_default(),
            sent: 0,
            received: 0,
            accepted: 0,
            pdr: 0.0,
            security_lost: 0,
        }
    }
}

/// The links as a Markdown table (empty without links).
pub fn links_table(links: &[LinkStats]) -> String {
    if links.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n| sender | receiver | case | distance m | sent | received | PDR | accepted | security lost | channel lost | refused oversize | below sensitivity | preamble missed | collision | chunk error |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for l in links {
        let c = &l.channel;
        out.push_str(&format!(
            "| {} | {} | {} | {:.0} | {} | {} | {:.3} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            l.sender,
            l.receiver,
            l.case,
            l.distance_m,
            l.sent,
            l.received,
            l.pdr,
            l.accepted,
            l.security_lost,
            c.lost(),
            c.refused_oversize,
            c.below_sensitivity,
            c.preamble_missed,
            c.collision,
            c.chunk_error
        ));
    }
    out
}
