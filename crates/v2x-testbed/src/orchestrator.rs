//! `v2x testbed SCENARIO.toml --out DIR`: provisions the PKI, starts one process per
//! station (receivers first), waits for the run, stops every child (also on Ctrl-C or
//! when a station crashes), then analyses the logs ([`crate::analysis`]).
//!
//! Medium ([`crate::medium`]): UDP on loopback, every sender sending one copy to every
//! receiver (PRESERVE's lab set-up, paper 002 §2.2.1), or through the channel-emulator
//! process (started first, stopped with the stations), which relays every frame through
//! `v2x sim`'s 802.11p channel given the stations' positions, or between network
//! namespaces, one per station ([`crate::netns`], when root; else loopback with a message).

use crate::analysis::{self, Summary};
use crate::credentials::{self, TicketSet};
use crate::emulator::PROCESS_NAME as EMULATOR;
use crate::flood::{self, FloodResult, FloodSearch};
use crate::functional::{self, FunctionalGroup, FunctionalStation};
use crate::load_plan::{self, LoadCell, LoadPlan};
use crate::medium::{self, MediumConfig, MediumKind};
pub use crate::station::ReceiverOptions;
use crate::station::{Attack, Role, StationConfig};
use serde::{Deserialize, Serialize};
use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use v2x_protocols::ProtocolConfig;

/// A testbed scenario (see scenarios/testbed/*.toml).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Sending time, seconds.
    pub duration_s: f64,
    #[serde(default = "one")]
    pub receivers: u32,
    pub senders: u32,
    /// Benign message rate per sender, Hz.
    pub rate_hz: f64,
    pub protocol: ProtocolConfig,
    /// F-PSN-01: benign senders change pseudonym (1609.2 ticket) this often, s (0 = never);
    /// the summary's `pseudonyms` shows the receiver's view.
    #[serde(default)]
    pub pseudonym_change_s: f64,
    #[serde(default)]
    pub receiver: ReceiverOptions,
    #[serde(default)]
    pub attackers: Vec<AttackerGroup>,
    /// `[flood_search]`: after the run, find the highest flood rate that keeps benign loss
    /// within a bound, without and with the receiver's defences ([`crate::flood`]).
    #[serde(default)]
    pub flood_search: Option<FloodSearch>,
    /// `[load_plan]`: after the run, one benign run per (senders, rate) cell of the
    /// PRESERVE load plan ([`crate::load_plan`]).
    #[serde(default)]
    pub load_plan: Option<LoadPlan>,
    /// `[medium]`: loopback (default), the channel emulator with the stations' positions, or
    /// one network namespace per station.
    #[serde(default)]
    pub medium: MediumConfig,
    /// `[[functional]]`: paper 002's functional cases, one sender each, judged after the
    /// run ([`crate::functional`]).
    #[serde(default)]
    pub functional: Vec<FunctionalGroup>,
    /// `[pki_service]`: senders enrol and obtain their tickets from a TS 102 941 PKI service
    /// started for the run, whose AA may be slow, down or flooded ([`crate::pki_service`]).
    #[serde(default)]
    pub pki_service: Option<crate::pki_service::PkiServiceConfig>,
}

fn one() -> u32 {
    1
}

/// `count` attacker processes of one case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackerGroup {
    pub case: Attack,
    #[serde(default = "one")]
    pub count: u32,
    pub rate_hz: f64,
}

/// Why a testbed run failed.
#[derive(Debug, thiserror::Error)]
pub enum TestbedError {
    #[error("scenario {path}: {msg}")]
    Scenario { path: PathBuf, msg: String },
    #[error(transparent)]
    Credentials(#[from] credentials::CredentialError),
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },
    #[error("station {name} failed: {status}")]
    StationFailed { name: String, status: String },
    #[error("interrupted")]
    Interrupted,
}

fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> TestbedError {
    let context = context.into();
    move |source| TestbedError::Io { context, source }
}

impl Scenario {
    pub fn load(path: &Path) -> Result<Scenario, TestbedError> {
        let text = std::fs::read_to_string(path).map_err(|e| TestbedError::Scenario {
            path: path.into(),
            msg: e.to_string(),
        })?;
        let sc: Scenario = toml::from_str(&text).map_err(|e| TestbedError::Scenario {
            path: path.into(),
            msg: e.to_string(),
        })?;
        sc.check()
            .map_err(|msg| TestbedError::Scenario { path: path.into(), msg })?;
        Ok(sc)
    }

    fn check(&self) -> Result<(), String> {
        if !(self.duration_s > 0.0 && self.duration_s <= 3600.0) {
            return Err(format!("duration_s must be in (0, 3600], got {}", self.duration_s));
        }
        if self.receivers == 0 {
            return Err("receivers must be at least 1".into());
        }
        if !(self.rate_hz > 0.0 && self.rate_hz <= 10_000.0) {
            return Err(format!("rate_hz must be in (0, 10000], got {}", self.rate_hz));
        }
        for a in &self.attackers {
            if a.case.needs_ieee1609_2() && !matches!(self.protocol, ProtocolConfig::Ieee1609Dot2(_)) {
                return Err(format!(
                    "attacker {} signs outside its 1609.2 permissions: it needs protocol = \"ieee1609.2\"",
                    a.case.code()
                ));
            }
            if !(a.rate_hz > 0.0 && a.rate_hz <= 100_000.0) {
                return Err(format!(
                    "attacker {} rate_hz must be in (0, 100000], got {}",
                    a.case.code(),
                    a.rate_hz
                ));
            }
        }
        if !(self.pseudonym_change_s >= 0.0 && self.pseudonym_change_s.is_finite()) {
            return Err(format!(
                "pseudonym_change_s must be >= 0, got {}",
                self.pseudonym_change_s
            ));
        }
        if self.pseudonym_change_s > 0.0 && !matches!(self.protocol, ProtocolConfig::Ieee1609Dot2(_)) {
            return Err("pseudonym_change_s rotates 1609.2 tickets: it needs protocol = \"ieee1609.2\"".into());
        }
        if self.receiver.precheck && !matches!(self.protocol, ProtocolConfig::Ieee1609Dot2(_)) {
            return Err("receiver.precheck reads 1609.2 headers: it needs protocol = \"ieee1609.2\"".into());
        }
        if !self.functional.is_empty() && self.medium.kind != MediumKind::Loopback {
            return Err(
                "[[functional]] cases run on loopback (paper 002's lab set-up; their stations have no position or \
                 namespace): remove them or use medium.kind = \"loopback\""
                    .into(),
            );
        }
        for (i, f) in self.functional.iter().enumerate() {
            let code = f.case.code();
            if !matches!(self.protocol, ProtocolConfig::Ieee1609Dot2(_)) {
                return Err(format!(
                    "functional case {code} is about 1609.2 pseudonyms and chains: it needs protocol = \"ieee1609.2\""
                ));
            }
            let rate = f.rate(self.rate_hz);
            if !(rate > 0.0 && rate <= 10_000.0) {
                return Err(format!("functional {code} rate_hz must be in (0, 10000], got {rate}"));
            }
            if self.functional[..i].iter().any(|g| g.case == f.case) {
                return Err(format!("functional case {code} is listed twice"));
            }
        }
        if let Some(p) = &self.load_plan {
            p.check()?;
        }
        if let Some(f) = &self.flood_search {
            f.check()?;
            if self.senders == 0 {
                return Err("flood_search measures benign loss: it needs senders >= 1".into());
            }
            if self.receiver.defences().is_empty() {
                return Err(
                    "flood_search compares the receiver without and with its defences: switch on at least \
                            one of rate_limit_per_source_hz, precheck, known_signers_first in [receiver]"
                        .into(),
                );
            }
        }
        if self.senders + self.receivers + self.attackers.iter().map(|a| a.count).sum::<u32>() > 200 {
            return Err("at most 200 station processes".into());
        }
        if self.medium.kind == MediumKind::Emulator && (self.load_plan.is_some() || self.flood_search.is_some()) {
            return Err(
                "[load_plan] and [flood_search] change the number of stations, whose positions medium.kind = \"emulator\" \
                 fixes: run them on loopback"
                    .into(),
            );
        }
        self.medium.check(&self.station_names(), self.senders)
    }

    /// The station processes' names: `rx0..`, `tx0..`, then each attacker group's.
    pub fn station_names(&self) -> Vec<String> {
        let mut names: Vec<String> = (0..self.receivers).map(|i| format!("rx{i}")).collect();
        names.extend((0..self.senders).map(|i| format!("tx{i}")));
        for g in &self.attackers {
            names.extend((0..g.count).map(|i| attacker_name(g.case, i)));
        }
        names
    }
}

fn attacker_name(case: Attack, i: u32) -> String {
    format!("{}-{i}", case.code().to_lowercase())
}

/// Children that are killed when this guard goes (normal end, error, or panic).
struct Children(Vec<(String, Child)>);

impl Drop for Children {
    fn drop(&mut self) {
        for (_, c) in &mut self.0 {
            let _ = c.kill();
        }
        for (_, c) in &mut self.0 {
            let _ = c.wait();
        }
    }
}

/// Loopback ports handed to the stations are drawn from here, below Linux's default
/// ephemeral range (32768-60999): a port is free when chosen but bound by its station only
/// later, and meanwhile any other process binding port 0 (another run's sender, a test
/// running beside this one) could be given it if it were an ephemeral one.
const RESERVED_PORTS: std::ops::Range<u16> = 20_000..32_000;

/// A loopback port no one holds now, for a station to bind.
fn free_port() -> Result<SocketAddr, TestbedError> {
    use rand::Rng;
    let mut rng = rand::thread_rng();
    for _ in 0..200 {
        let port = rng.gen_range(RESERVED_PORTS);
        if let Ok(s) = UdpSocket::bind(("127.0.0.1", port)) {
            return s.local_addr().map_err(io("reading a loopback port"));
        }
    }
    // All tried were taken (a machine full of runs): the kernel's choice.
    let s = UdpSocket::bind("127.0.0.1:0").map_err(io("binding a loopback port"))?;
    s.local_addr().map_err(io("reading a loopback port"))
}

/// What `v2x testbed` produced: the run's summary, and the load plan and flood search
/// when the scenario asked for them (`summary.json` holds all three).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Outcome {
    #[serde(flatten)]
    pub summary: Summary,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub load_plan: Vec<LoadCell>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flood_search: Option<FloodResult>,
}

impl Outcome {
    /// The report: the run's tables, then the load plan's and the flood search's.
    pub fn report(&self) -> String {
        analysis::table(&self.summary) + &self.plan_tables()
    }

    /// The load plan's and the flood search's tables (empty without them).
    fn plan_tables(&self) -> String {
        let mut out = String::new();
        if !self.load_plan.is_empty() {
            out.push_str(&load_plan::table(&self.load_plan));
        }
        if let Some(f) = &self.flood_search {
            out.push_str(&flood::table(f));
        }
        out
    }

    fn write(&self, out: &Path) -> Result<(), TestbedError> {
        let json = serde_json::to_string_pretty(self).map_err(|e| TestbedError::Io {
            context: "writing summary.json".into(),
            source: std::io::Error::other(e),
        })?;
        std::fs::write(out.join("summary.json"), json).map_err(io("writing summary.json"))?;
        std::fs::write(out.join("report.md"), self.report()).map_err(io("writing report.md"))?;
        crate::report::write(&self.summary, &self.plan_tables(), out).map_err(io("writing report.html"))
    }
}

/// Runs `scenario`, with station processes started as `station_exe station --config F`,
/// then its `[load_plan]` and `[flood_search]` if it has them; writes `summary.json` and
/// `report.md`.
pub fn run(scenario: &Scenario, out: &Path, station_exe: &Path) -> Result<Outcome, TestbedError> {
    let mut outcome = Outcome {
        summary: run_once(scenario, out, station_exe)?,
        ..Outcome::default()
    };
    if let Some(plan) = &scenario.load_plan {
        outcome.load_plan = run_load_plan(scenario, plan, &out.join("load-plan"), station_exe)?;
        outcome.write(out)?;
    }
    if let Some(search) = &scenario.flood_search {
        outcome.flood_search = Some(flood_search(scenario, search, &out.join("flood-search"), station_exe)?);
        outcome.write(out)?;
    }
    Ok(outcome)
}

/// Runs `dir`'s probe of `scenario`, keeping its summary and report only (a flood probe's
/// packet tables run to tens of MB).
fn probe_run(scenario: &Scenario, dir: &Path, station_exe: &Path) -> Result<Summary, TestbedError> {
    let s = run_once(scenario, dir, station_exe)?;
    let _ = std::fs::remove_dir_all(dir.join("pki"));
    let _ = std::fs::remove_dir_all(dir.join("logs"));
    for table in ["tx", "rx", "events"] {
        for ext in ["csv", "parquet"] {
            let _ = std::fs::remove_file(dir.join(format!("{table}.{ext}")));
        }
    }
    Ok(s)
}

/// One benign run per cell of the plan (the scenario's receiver and protocol, no attackers).
fn run_load_plan(
    scenario: &Scenario,
    plan: &LoadPlan,
    out: &Path,
    station_exe: &Path,
) -> Result<Vec<LoadCell>, TestbedError> {
    let mut cells = Vec::new();
    for &senders in &plan.senders {
        for &rate_hz in &plan.rates_hz {
            let cell = Scenario {
                duration_s: plan.duration_s.unwrap_or(scenario.duration_s),
                receivers: 1,
                senders,
                rate_hz,
                attackers: Vec::new(),
                functional: Vec::new(),
                flood_search: None,
                load_plan: None,
                ..scenario.clone()
            };
            let s = probe_run(&cell, &out.join(format!("{senders}x{rate_hz}hz")), station_exe)?;
            cells.push(load_plan::cell_of(&s, senders, rate_hz));
        }
    }
    Ok(cells)
}

/// Bisects the flood rate without and with the receiver's defences; each probe is a run
/// of the scenario's benign traffic and `search.attackers` attackers of `search.case`
/// (the scenario's own attackers are left out).
fn flood_search(
    scenario: &Scenario,
    search: &FloodSearch,
    out: &Path,
    station_exe: &Path,
) -> Result<FloodResult, TestbedError> {
    let duration_s = search.duration_s.unwrap_or(scenario.duration_s);
    let mut result = FloodResult {
        case: search.case.code().into(),
        attackers: search.attackers,
        max_benign_loss: search.max_benign_loss,
        probe_duration_s: duration_s,
        ..FloodResult::default()
    };
    for defended in [false, true] {
        let receiver = if defended {
            scenario.receiver.clone()
        } else {
            scenario.receiver.undefended()
        };
        let label = if defended { "defended" } else { "undefended" };
        let probes = flood::bisect(search.min_rate_hz, search.max_rate_hz, search.steps, |rate| {
            let probe = Scenario {
                duration_s,
                receiver: receiver.clone(),
                attackers: vec![AttackerGroup {
                    case: search.case,
                    count: search.attackers,
                    rate_hz: rate,
                }],
                functional: Vec::new(),
                flood_search: None,
                load_plan: None,
                ..scenario.clone()
            };
            let s = probe_run(&probe, &out.join(label).join(format!("{rate:.0}hz")), station_exe)?;
            let p = flood::probe_of(&s, search.case.code(), rate, search.attackers, search.max_benign_loss);
            tracing::info!(label, rate, loss = p.benign_loss, "flood probe");
            Ok::<_, TestbedError>(p)
        })?;
        let t = flood::threshold(receiver.defences(), search.attackers, probes);
        if defended {
            result.with_defences = t;
        } else {
            result.without_defences = t;
        }
    }
    Ok(result)
}

/// One run of `scenario` (without its flood search).
fn run_once(scenario: &Scenario, out: &Path, station_exe: &Path) -> Result<Summary, TestbedError> {
    std::fs::create_dir_all(out).map_err(io(format!("creating {}", out.display())))?;
    let pki_dir = out.join("pki");
    let pki = credentials::open_or_init_pki(&pki_dir)?;
    credentials::provision_protocol(&pki, &scenario.protocol)?;
    let mut configs = Vec::new();
    // Created before the children and dropped after them (also on error and Ctrl-C).
    let namespaces = if scenario.medium.in_namespaces() {
        let mut names = scenario.station_names();
        if scenario.medium.kind == MediumKind::Emulator {
            names.push(EMULATOR.into());
        }
        match crate::netns::Namespaces::create(&names) {
            Ok(n) => Some(n),
            Err(why) => {
                eprintln!("[medium]: {why}; running on loopback instead");
                None
            }
        }
    } else {
        None
    };
    let ns_address =
        |name: &str| -> Option<SocketAddr> { Some(SocketAddr::new(namespaces.as_ref()?.address(name)?.into(), 0)) };
    let mut receivers = Vec::new();
    for i in 0..scenario.receivers {
        let name = format!("rx{i}");
        let addr = match ns_address(&name) {
            // Each namespace has its own ports.
            Some(a) => SocketAddr::new(a.ip(), 4000),
            None => free_port()?,
        };
        receivers.push((name, addr));
    }
    // Through the emulator every station sends to it, from an address of its own (how the
    // emulator knows who transmits); on loopback every sender sends to every receiver.
    let emulator_addr = match (scenario.medium.kind, ns_address(EMULATOR)) {
        (MediumKind::Emulator, Some(a)) => Some(SocketAddr::new(a.ip(), 5000)),
        (MediumKind::Emulator, None) => Some(free_port()?),
        (MediumKind::Loopback | MediumKind::Netns, _) => None,
    };
    let peers: Vec<SocketAddr> = match emulator_addr {
        Some(addr) => vec![addr],
        None => receivers.iter().map(|r| r.1).collect(),
    };
    // Functional cases with a receiver of their own (F-CER-02): only their sender sends to it.
    let own_receivers: Vec<(String, SocketAddr, credentials::Trust)> = scenario
        .functional
        .iter()
        .filter_map(|f| f.case.own_receiver().map(|t| (f.case, t)))
        .map(|(case, trust)| Ok((case.receiver_name(), free_port()?, trust)))
        .collect::<Result<_, TestbedError>>()?;
    let start_at = crate::clock::now_us() + 1_500_000 + 100_000 * u64::from(scenario.senders);
    let base = |name: String, number: u32, role: Role| StationConfig {
        log_dir: out.join("logs").join(&name),
        name,
        number,
        role,
        attack: None,
        protocol: scenario.protocol.clone(),
        pki_dir: pki_dir.clone(),
        bind: None,
        peers: peers.clone(),
        rate_hz: scenario.rate_hz,
        duration_s: scenario.duration_s,
        linger_s: 1.0,
        start_at_us: start_at,
        payload_len: crate::payload::DEFAULT_PAYLOAD_LEN,
        receiver: scenario.receiver.clone(),
        pseudonym_change_s: 0.0,
        parent_pid: Some(std::process::id()),
        functional: None,
        trust: credentials::Trust::Full,
        beacon: false,
    };
    // A sender's or attacker's own address: through the emulator a known one (how the
    // emulator tells who transmits), in a namespace its namespace's, else any.
    let own_address = |name: &str| -> Result<Option<SocketAddr>, TestbedError> {
        Ok(match (emulator_addr, ns_address(name)) {
            (Some(_), Some(a)) => Some(SocketAddr::new(a.ip(), 4001)),
            (Some(_), None) => Some(free_port()?),
            (None, in_namespace) => in_namespace,
        })
    };
    let mut number = 1u32;
    for (name, addr) in &receivers {
        let mut c = base(name.clone(), number, Role::Receiver);
        c.bind = Some(*addr);
        c.peers.clear();
        configs.push(c);
        number += 1;
    }
    for (name, addr, trust) in &own_receivers {
        let mut c = base(name.clone(), number, Role::Receiver);
        c.bind = Some(*addr);
        c.peers.clear();
        c.trust = *trust;
        // Its own CAMs carry its P2PCD requests for the certificate it misses.
        c.beacon = true;
        configs.push(c);
        number += 1;
    }
    for i in 0..scenario.senders {
        let mut c = base(format!("tx{i}"), number, Role::Sender);
        c.pseudonym_change_s = scenario.pseudonym_change_s;
        c.bind = own_address(&c.name)?;
        configs.push(c);
        number += 1;
    }
    for g in &scenario.attackers {
        for i in 0..g.count {
            let mut c = base(attacker_name(g.case, i), number, Role::Attacker);
            c.attack = Some(g.case);
            c.rate_hz = g.rate_hz;
            c.bind = own_address(&c.name)?;
            configs.push(c);
            number += 1;
        }
    }
    let mut judged: Vec<FunctionalStation> = Vec::new();
    for g in &scenario.functional {
        let mut c = base(g.case.station_name(), number, Role::Sender);
        c.functional = Some(g.case);
        c.rate_hz = g.rate(scenario.rate_hz);
        let mut to = receivers.iter().map(|r| r.0.clone()).collect();
        if g.case.own_receiver().is_some() {
            let own = g.case.receiver_name();
            c.peers = own_receivers.iter().filter(|r| r.0 == own).map(|r| r.1).collect();
            to = vec![own];
        }
        judged.push(FunctionalStation {
            case: g.case,
            origin: number,
            tickets: Vec::new(),
            receivers: to,
        });
        configs.push(c);
        number += 1;
    }
    // `[pki_service]`: benign senders' tickets come from the service; one that obtained none is
    // not started.
    let provisioning = std::time::Instant::now();
    let from_service: Vec<String> = match &scenario.pki_service {
        Some(p) => {
            let senders: Vec<String> = configs
                .iter()
                .filter(|c| c.role == Role::Sender && c.attack.is_none() && c.functional.is_none())
                .map(|c| c.name.clone())
                .collect();
            let report = crate::pki_service::provision(&pki, &senders, p, out, station_exe)?;
            eprintln!(
                "[pki_service] aa {}: {} of {} senders obtained tickets (report: {})",
                report.aa,
                senders.len() - report.without_tickets.len(),
                senders.len(),
                out.join("pki-service").join("report.json").display()
            );
            configs.retain(|c| !report.without_tickets.contains(&c.name));
            senders
        }
        None => Vec::new(),
    };
    // The stations start as planned after the time the service's start-up took.
    let shift_us = provisioning.elapsed().as_micros() as u64 * u64::from(scenario.pki_service.is_some());
    configs.iter_mut().for_each(|c| c.start_at_us += shift_us);
    let start_at = start_at + shift_us;
    for c in &configs {
        if from_service.contains(&c.name) {
            continue;
        }
        // A-CER-03 signs with tickets that expired before the run.
        let set = match (c.attack, c.functional) {
            (Some(Attack::ExpiredCertificate), _) => TicketSet::Expired,
            (Some(Attack::OutsidePermissions), _) => TicketSet::CamOnly,
            (None, Some(f)) => f.tickets(),
            _ => TicketSet::Standard,
        };
        credentials::issue_tickets(&pki, &c.name, set, 4)?;
        if matches!(scenario.protocol, ProtocolConfig::EtsiV121(_)) {
            credentials::issue_v1_ticket(&pki, &c.name, set)?;
        }
    }
    for st in &mut judged {
        st.tickets = credentials::ticket_infos(&pki, &st.case.station_name())?;
    }
    let cfg_dir = out.join("stations");
    std::fs::create_dir_all(&cfg_dir).map_err(io("creating the station config folder"))?;
    let interrupted = Arc::new(AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupted.clone());
    let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, interrupted.clone());
    let mut children = Children(Vec::new());
    if let Some(listen) = emulator_addr {
        // Started first: it must be listening before the first frame.
        let cfg = emulator_config(scenario, &configs, listen, out, start_at)?;
        let path = cfg_dir.join("channel-emulator.toml");
        write_toml(&path, &cfg)?;
        let child = command_in(namespaces.as_ref(), EMULATOR, station_exe)
            .arg("channel-emulator")
            .arg("--config")
            .arg(&path)
            .spawn()
            .map_err(io(format!("starting {}", station_exe.display())))?;
        children.0.push((EMULATOR.into(), child));
    }
    for c in &configs {
        let path = cfg_dir.join(format!("{}.toml", c.name));
        write_toml(&path, c)?;
        let child = command_in(namespaces.as_ref(), &c.name, station_exe)
            .arg("station")
            .arg("--config")
            .arg(&path)
            .spawn()
            .map_err(io(format!("starting {}", station_exe.display())))?;
        children.0.push((c.name.clone(), child));
    }
    // Wait: every child ends by itself after its run; a failed one ends the run.
    loop {
        if interrupted.load(Ordering::Relaxed) {
            return Err(TestbedError::Interrupted);
        }
        let mut running = 0;
        for (name, child) in &mut children.0 {
            match child.try_wait().map_err(io("waiting for a station"))? {
                None => running += 1,
                Some(st) if !st.success() => {
                    return Err(TestbedError::StationFailed {
                        name: name.clone(),
                        status: st.to_string(),
                    })
                }
                Some(_) => {}
            }
        }
        if running == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(children);
    let mut summary =
        analysis::analyse(&out.join("logs"), scenario.duration_s).map_err(io("reading the station logs"))?;
    if emulator_addr.is_some() {
        summary.links = medium::links(&out.join("logs"), &scenario.medium).map_err(io("reading the emulator's log"))?;
        let frames = out.join("logs").join(EMULATOR).join(crate::emulator::FRAMES_FILE);
        let text = std::fs::read_to_string(&frames).map_err(io(format!("reading {}", frames.display())))?;
        v2x_report::table::write_csv_and_parquet(out, "channel_frames.csv", &text).map_err(|e| TestbedError::Io {
            context: "writing channel_frames.csv".into(),
            source: std::io::Error::other(e),
        })?;
    }
    summary.functional = judged.iter().map(|st| functional::judge(st, &summary)).collect();
    analysis::write(&summary, out).map_err(io("writing the report"))?;
    crate::report::write(&summary, "", out).map_err(io("writing report.html"))?;
    analysis::write_tables(&out.join("logs"), out).map_err(io("writing the packet tables"))?;
    Ok(summary)
}

/// `exe` as process `name`: in its namespace when there is one.
fn command_in(namespaces: Option<&crate::netns::Namespaces>, name: &str, exe: &Path) -> Command {
    match namespaces.and_then(|n| n.namespace(name)) {
        Some(ns) => {
            // `ip netns exec` execs the program in place: the child is the program.
            let mut command = Command::new("ip");
            command.args(["netns", "exec", ns]).arg(exe);
            command
        }
        None => Command::new(exe),
    }
}

fn write_toml<T: Serialize>(path: &Path, value: &T) -> Result<(), TestbedError> {
    let text = toml::to_string(value).map_err(|e| TestbedError::Io {
        context: format!("writing {}", path.display()),
        source: std::io::Error::other(e),
    })?;
    std::fs::write(path, text).map_err(io(format!("writing {}", path.display())))
}

/// The emulator's configuration: every station's address and position, the channel, and
/// the receivers' end.
fn emulator_config(
    scenario: &Scenario,
    stations: &[StationConfig],
    listen: SocketAddr,
    out: &Path,
    start_at_us: u64,
) -> Result<crate::emulator::EmulatorConfig, TestbedError> {
    let bad = |msg: String| TestbedError::Scenario {
        path: PathBuf::from("[medium]"),
        msg,
    };
    let mut emulated = Vec::new();
    for c in stations {
        let (Some(addr), Some(position_m)) = (c.bind, scenario.medium.position(&c.name)) else {
            return Err(bad(format!("station {} has no address or position", c.name)));
        };
        emulated.push(crate::emulator::EmulatedStation {
            name: c.name.clone(),
            addr,
            position_m,
            receives: c.role == Role::Receiver,
        });
    }
    let linger_s = stations.first().map_or(1.0, |c| c.linger_s);
    Ok(crate::emulator::EmulatorConfig {
        listen,
        stations: emulated,
        channel: scenario.medium.channel().map_err(bad)?,
        end_us: start_at_us + ((scenario.duration_s + linger_s) * 1e6) as u64,
        log_dir: out.join("logs").join(EMULATOR),
        parent_pid: Some(std::process::id()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stations' ports come from below the ephemeral range, so a process binding port 0
    /// meanwhile cannot be handed one of them; each is free when handed out.
    #[test]
    fn station_ports_are_free_and_outside_the_ephemeral_range() {
        for _ in 0..20 {
            let addr = free_port().unwrap();
            assert!(RESERVED_PORTS.contains(&addr.port()), "{addr}");
            UdpSocket::bind(addr).unwrap();
        }
    }
}
