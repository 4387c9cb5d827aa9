//! `v2x testbed SCENARIO.toml --out DIR`: provisions the PKI, lays out the stations
//! ([`crate::run::plan`]), gives them their addresses, starts one process per station
//! (receivers first), waits for the run, stops every child (also on Ctrl-C or when a
//! station crashes), then analyses the logs ([`crate::analyse`]).
//!
//! Medium ([`crate::scenario::medium`]): UDP on loopback, every sender sending one copy to
//! every receiver (PRESERVE's lab set-up, paper 002 §2.2.1), or through the
//! channel-emulator process (started first, stopped with the stations), which relays
//! every frame through `v2x sim`'s 802.11p channel given the stations' positions, or
//! between network namespaces, one per station ([`crate::run::netns`], when root; else
//! loopback with a notice).

use crate::analyse::functional::{FunctionalStation, TicketInfo};
use crate::analyse::{self, flood::FloodResult, load_plan::LoadCell, misbehaviour::ClosedLoop, summary::Summary};
use crate::emulator::PROCESS_NAME as EMULATOR;
use crate::run::credentials;
pub(crate) use crate::run::error::io;
pub use crate::run::error::TestbedError;
use crate::run::netns::Namespaces;
use crate::run::plan::{self, Addressing, Plan, PlannedStation};
use crate::run::station::StationConfig;
pub use crate::scenario::{AttackerGroup, ReceiverOptions, Scenario};
use crate::scenario::{MediumKind, Role, ScenarioError};
use serde::Serialize;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::path::Path;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use v2x_protocols::ProtocolConfig;

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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misbehaviour: Option<ClosedLoop>,
    /// What the caller should tell the user (e.g. namespaces unavailable: loopback).
    #[serde(skip)]
    pub notices: Vec<String>,
}

impl Outcome {
    /// The report: the run's tables, then the load plan's and the flood search's.
    pub fn report(&self) -> String {
        analyse::summary::table(&self.summary) + &self.plan_tables()
    }

    /// The load plan's and the flood search's tables (empty without them).
    fn plan_tables(&self) -> String {
        let mut out = String::new();
        if !self.load_plan.is_empty() {
            out.push_str(&analyse::load_plan::table(&self.load_plan));
        }
        if let Some(f) = &self.flood_search {
            out.push_str(&analyse::flood::table(f));
        }
        if let Some(m) = &self.misbehaviour {
            out.push_str(&analyse::misbehaviour::table(m));
        }
        out
    }

    pub(crate) fn write(&self, out: &Path) -> Result<(), TestbedError> {
        let json = serde_json::to_string_pretty(self).map_err(|e| TestbedError::Io {
            context: "writing summary.json".into(),
            source: std::io::Error::other(e),
        })?;
        std::fs::write(out.join("summary.json"), json).map_err(io("writing summary.json"))?;
        std::fs::write(out.join("report.md"), self.report()).map_err(io("writing report.md"))?;
        analyse::report::write(&self.summary, &self.plan_tables(), out).map_err(io("writing report.html"))
    }
}

/// Runs `scenario`, with station processes started as `station_exe station --config F`,
/// then its `[load_plan]`, `[flood_search]` and `[misbehaviour]` closed loop if it has
/// them; writes `summary.json`,
/// `report.md` and `report.html`.
pub fn run(scenario: &Scenario, out: &Path, station_exe: &Path) -> Result<Outcome, TestbedError> {
    let (summary, notices) = run_once(scenario, out, station_exe)?;
    let mut outcome = Outcome {
        summary,
        notices,
        ..Outcome::default()
    };
    let probe = |sc: &Scenario, dir: &Path| probe_run(sc, dir, station_exe);
    if let Some(plan) = &scenario.load_plan {
        outcome.load_plan = super::probes::load_plan(scenario, plan, &out.join("load-plan"), probe)?;
        outcome.write(out)?;
    }
    if let Some(search) = &scenario.flood_search {
        outcome.flood_search = Some(super::probes::flood_search(
            scenario,
            search,
            &out.join("flood-search"),
            probe,
        )?);
        outcome.write(out)?;
    }
    if let Some(m) = &scenario.misbehaviour {
        let dir = out.join("misbehaviour");
        let runs = super::misbehaviour::run(scenario, m, &dir, Some(station_exe))?;
        let json = serde_json::to_string_pretty(&runs).map_err(|e| TestbedError::Io {
            context: "writing misbehaviour/runs.json".into(),
            source: std::io::Error::other(e),
        })?;
        std::fs::write(dir.join("runs.json"), json).map_err(io("writing misbehaviour/runs.json"))?;
        let shape = (scenario.receivers, scenario.senders, scenario.rate_hz);
        outcome.misbehaviour = Some(analyse::misbehaviour::analyse(m, shape, &runs));
        outcome.write(out)?;
    }
    Ok(outcome)
}

/// Runs `dir`'s probe of `scenario`, keeping its summary and report only (a flood probe's
/// packet tables run to tens of MB).
fn probe_run(scenario: &Scenario, dir: &Path, station_exe: &Path) -> Result<Summary, TestbedError> {
    let (s, _) = run_once(scenario, dir, station_exe)?;
    let _ = std::fs::remove_dir_all(dir.join("pki"));
    let _ = std::fs::remove_dir_all(dir.join("logs"));
    for table in ["tx", "rx", "events", "usage"] {
        for ext in ["csv", "parquet"] {
            let _ = std::fs::remove_file(dir.join(format!("{table}.{ext}")));
        }
    }
    Ok(s)
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

/// A port of `ip` no one holds now, for a station to bind.
fn free_port(ip: Ipv4Addr) -> Result<SocketAddr, TestbedError> {
    use rand::Rng;
    let mut rng = rand::thread_rng();
    for _ in 0..200 {
        let port = rng.gen_range(RESERVED_PORTS);
        if let Ok(s) = UdpSocket::bind((ip, port)) {
            return s.local_addr().map_err(io("reading a loopback port"));
        }
    }
    // All tried were taken (a machine full of runs): the kernel's choice.
    let s = UdpSocket::bind((ip, 0)).map_err(io("binding a loopback port"))?;
    s.local_addr().map_err(io("reading a loopback port"))
}

/// Where the stations of a run live: their network namespaces, if any, and how addresses
/// on loopback are handed out.
struct Place {
    namespaces: Option<Namespaces>,
    addressing: Addressing,
}

/// Namespaces for the scenario's stations when its medium wants them (else loopback,
/// with a notice when they were wanted).
fn place(scenario: &Scenario, notices: &mut Vec<String>) -> Place {
    // 127.B.x.y with B from this process's id: concurrent runs rarely share a block (and
    // when they do, receivers' ports are still checked free).
    let per_station = Addressing::PerStation {
        block: (std::process::id() % 254) as u8 + 1,
    };
    if !scenario.medium.in_namespaces() {
        return Place {
            namespaces: None,
            addressing: per_station,
        };
    }
    let mut names = scenario.station_names();
    if scenario.medium.kind == MediumKind::Emulator {
        names.push(EMULATOR.into());
    }
    match Namespaces::create(&names) {
        Ok(n) => Place {
            namespaces: Some(n),
            addressing: per_station,
        },
        Err(why) => {
            notices.push(format!("[medium]: {why}; running on loopback instead"));
            // Without namespaces, every station on 127.0.0.1 (the set-up before
            // per-station loopback addresses).
            Place {
                namespaces: None,
                addressing: Addressing::Shared,
            }
        }
    }
}

/// The concrete addresses of a run: each station's sockets, and the emulator's.
struct Addresses {
    /// By station name: the addresses its sockets bind.
    bind: Vec<(String, Vec<SocketAddr>)>,
    emulator: Option<SocketAddr>,
}

impl Addresses {
    fn of(&self, name: &str) -> &[SocketAddr] {
        self.bind.iter().find(|b| b.0 == name).map_or(&[], |b| b.1.as_slice())
    }
}

/// Gives the planned addresses their ports, or the namespaces' addresses.
fn addresses(plan: &Plan, scenario: &Scenario, place: &Place) -> Result<Addresses, TestbedError> {
    let ns = |name: &str| place.namespaces.as_ref().and_then(|n| n.address(name));
    let emulated = scenario.medium.kind == MediumKind::Emulator;
    let emulator = match (emulated, ns(EMULATOR)) {
        (false, _) => None,
        (true, Some(a)) => Some(SocketAddr::new(a.into(), 5000)),
        (true, None) => Some(free_port(plan.emulator_address)?),
    };
    let mut bind = Vec::new();
    for s in &plan.stations {
        let mut addrs = Vec::new();
        for (i, &ip) in s.addresses.iter().enumerate() {
            addrs.push(match (s.role, emulated, ns(&s.name)) {
                // Each namespace has its own ports.
                (Role::Receiver, _, Some(a)) => SocketAddr::new(a.into(), 4000),
                (Role::Receiver, _, None) => free_port(ip)?,
                // Through the emulator a sender's one address is known to it.
                (_, true, _) if i > 0 => break,
                (_, true, Some(a)) => SocketAddr::new(a.into(), 4001),
                (_, true, None) => free_port(ip)?,
                (_, false, Some(a)) => SocketAddr::new(a.into(), 0),
                (_, false, None) => SocketAddr::new(ip.into(), 0),
            });
        }
        bind.push((s.name.clone(), addrs));
    }
    Ok(Addresses { bind, emulator })
}

/// A station's configuration file from its plan and addresses.
fn station_config(
    s: &PlannedStation,
    scenario: &Scenario,
    addresses: &Addresses,
    out: &Path,
    start_at_us: u64,
) -> StationConfig {
    let peers = match (s.role, addresses.emulator) {
        (Role::Receiver, _) => Vec::new(),
        // Through the emulator every station sends to it.
        (_, Some(e)) => vec![e],
        (_, None) => s.sends_to.iter().flat_map(|r| addresses.of(r).to_vec()).collect(),
    };
    StationConfig {
        log_dir: out.join("logs").join(&s.name),
        name: s.name.clone(),
        number: s.number,
        role: s.role,
        attack: s.attack,
        protocol: scenario.protocol.clone(),
        pki_dir: out.join("pki"),
        bind: addresses.of(&s.name).to_vec(),
        peers,
        rate_hz: s.rate_hz,
        duration_s: scenario.duration_s - s.start_s,
        // Receivers stop with the last sender.
        linger_s: 1.0,
        start_at_us: start_at_us + (s.start_s * 1e6) as u64,
        payload_len: crate::payload::DEFAULT_PAYLOAD_LEN,
        receiver: scenario.receiver.clone(),
        pseudonym_change_s: s.pseudonym_change_s,
        parent_pid: Some(std::process::id()),
        functional: s.functional,
        trust: s.trust,
        beacon: s.beacon,
        copies_certificates_of: s.copies_certificates_of.clone(),
    }
}

/// The PKI of the run, with every planned station's tickets but those of `from_service`
/// (they obtain theirs from the PKI service).
fn provision(
    plan: &Plan,
    protocol: &ProtocolConfig,
    pki_dir: &Path,
    from_service: &[String],
) -> Result<v2x_security::Pki, TestbedError> {
    let pki = credentials::open_or_init_pki(pki_dir)?;
    credentials::provision_protocol(&pki, protocol)?;
    for s in plan.stations.iter().filter(|s| !from_service.contains(&s.name)) {
        credentials::issue_tickets(&pki, &s.name, s.tickets, 4)?;
        match protocol {
            ProtocolConfig::EtsiV121(_) => credentials::issue_v1_ticket(&pki, &s.name, s.tickets)?,
            ProtocolConfig::ExperimentalPq(c) => credentials::issue_pq_ticket(&pki, &s.name, c.design())?,
            _ => {}
        }
    }
    Ok(pki)
}

/// One run of `scenario` (without its load plan or flood search): its summary, and
/// notices for the user.
fn run_once(scenario: &Scenario, out: &Path, station_exe: &Path) -> Result<(Summary, Vec<String>), TestbedError> {
    std::fs::create_dir_all(out).map_err(io(format!("creating {}", out.display())))?;
    let mut notices = Vec::new();
    // Created before the children and dropped after them (also on error and Ctrl-C).
    let place = place(scenario, &mut notices);
    let plan = plan::plan(scenario, place.addressing);
    let addresses = addresses(&plan, scenario, &place)?;
    // `[pki_service]`: benign senders' tickets come from the service.
    let from_service: Vec<String> = match scenario.pki_service {
        Some(_) => plan
            .stations
            .iter()
            .filter(|s| s.role == Role::Sender && s.attack.is_none() && s.functional.is_none())
            .map(|s| s.name.clone())
            .collect(),
        None => Vec::new(),
    };
    let pki = provision(&plan, &scenario.protocol, &out.join("pki"), &from_service)?;
    // A sender that obtained no ticket from the service is not started (nothing to sign with).
    let without_tickets = match &scenario.pki_service {
        Some(p) => {
            let report = super::pki_service::provision(&pki, &from_service, p, out, station_exe)?;
            notices.push(format!(
                "[pki_service] aa {}: {} of {} senders obtained tickets (report: {})",
                report.aa,
                from_service.len() - report.without_tickets.len(),
                from_service.len(),
                out.join("pki-service").join("report.json").display()
            ));
            report.without_tickets
        }
        None => Vec::new(),
    };
    // Planned after the provisioning (and the service's start-up) took its time.
    let start_at = crate::clock::now_us() + 1_500_000 + 100_000 * u64::from(scenario.senders);
    let configs: Vec<StationConfig> = plan
        .stations
        .iter()
        .filter(|s| !without_tickets.contains(&s.name))
        .map(|s| station_config(s, scenario, &addresses, out, start_at))
        .collect();
    let emulator = match addresses.emulator {
        Some(listen) => Some(emulator_config(scenario, &configs, listen, out, start_at)?),
        None => None,
    };
    let children = spawn(&configs, emulator.as_ref(), out, station_exe, place.namespaces.as_ref())?;
    wait(children)?;
    let functional: Vec<FunctionalStation> = plan
        .stations
        .iter()
        .filter_map(|s| {
            Some(FunctionalStation {
                case: s.functional?,
                origin: s.number,
                tickets: ticket_infos(&pki, &s.name).ok()?,
                receivers: s.sends_to.clone(),
            })
        })
        .collect();
    let summary = analyse::run(out, scenario, &functional).map_err(io("analysing the run"))?;
    drop(place);
    Ok((summary, notices))
}

/// `station`'s 1609.2 tickets in pool order, as a receiver names them (HashedId8, hex),
/// and whether each permits CAM (the functional cases' verdicts).
fn ticket_infos(pki: &v2x_security::Pki, station: &str) -> Result<Vec<TicketInfo>, v2x_security::PkiError> {
    Ok(pki
        .pseudonyms(station)?
        .tickets()
        .iter()
        .map(|t| TicketInfo {
            id: hex::encode(t.certificate.hashed_id8().0),
            cam: t.certificate.permission_for(v2x_security::ItsAid::CAM).is_some(),
        })
        .collect())
}

/// Starts the emulator (first: it must be listening before the first frame) and every
/// station, receivers first.
fn spawn(
    configs: &[StationConfig],
    emulator: Option<&crate::emulator::EmulatorConfig>,
    out: &Path,
    exe: &Path,
    namespaces: Option<&Namespaces>,
) -> Result<Children, TestbedError> {
    let cfg_dir = out.join("stations");
    std::fs::create_dir_all(&cfg_dir).map_err(io("creating the station config folder"))?;
    let mut children = Children(Vec::new());
    let mut start = |name: &str, subcommand: &str, path: &Path| -> Result<(), TestbedError> {
        let child = command_in(namespaces, name, exe)
            .arg(subcommand)
            .arg("--config")
            .arg(path)
            .spawn()
            .map_err(io(format!("starting {}", exe.display())))?;
        children.0.push((name.to_string(), child));
        Ok(())
    };
    if let Some(cfg) = emulator {
        let path = cfg_dir.join("channel-emulator.toml");
        write_toml(&path, cfg)?;
        start(EMULATOR, "channel-emulator", &path)?;
    }
    for c in configs {
        let path = cfg_dir.join(format!("{}.toml", c.name));
        write_toml(&path, c)?;
        start(&c.name, "station", &path)?;
    }
    Ok(children)
}

/// Waits until every child ended by itself after its run; a failed one (or Ctrl-C) ends
/// the run, and dropping `children` stops the others.
fn wait(mut children: Children) -> Result<(), TestbedError> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupted.clone());
    let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, interrupted.clone());
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
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `exe` as process `name`: in its namespace when there is one.
fn command_in(namespaces: Option<&Namespaces>, name: &str, exe: &Path) -> Command {
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
    let mut emulated = Vec::new();
    for c in stations {
        let (Some(&addr), Some(position_m)) = (c.bind.first(), scenario.medium.position(&c.name)) else {
            return Err(
                ScenarioError::invalid("medium", format!("station {} has no address or position", c.name)).into(),
            );
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
        channel: scenario.medium.channel()?,
        end_us: start_at_us + ((scenario.duration_s + linger_s) * 1e6) as u64,
        log_dir: out.join("logs").join(EMULATOR),
        parent_pid: Some(std::process::id()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stations' ports come from below the ephemeral range, so a process binding port 0
    /// meanwhile cannot be handed one of them; each is free when handed out, on the
    /// station's own loopback address too.
    use std::net::IpAddr;

    #[test]
    fn station_ports_are_free_and_outside_the_ephemeral_range() {
        for ip in [Ipv4Addr::LOCALHOST, Ipv4Addr::new(127, 42, 0, 7)] {
            for _ in 0..10 {
                let addr = free_port(ip).unwrap();
                assert!(RESERVED_PORTS.contains(&addr.port()), "{addr}");
                assert_eq!(addr.ip(), IpAddr::V4(ip));
                UdpSocket::bind(addr).unwrap();
            }
        }
    }

    #[test]
    fn a_plan_gets_ports_and_peers_on_loopback() {
        let sc = Scenario::parse(
            "duration_s = 1.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"none\"\n\
             [[attackers]]\ncase = \"A-SIG-05\"\nrate_hz = 10.0\n",
            "test",
        )
        .unwrap();
        let place = Place {
            namespaces: None,
            addressing: Addressing::PerStation { block: 77 },
        };
        let plan = plan::plan(&sc, place.addressing);
        let a = addresses(&plan, &sc, &place).unwrap();
        let rx = a.of("rx0");
        assert_eq!(rx.len(), 1);
        assert_ne!(rx[0].port(), 0);
        let c = station_config(plan.station("tx0").unwrap(), &sc, &a, Path::new("/o"), 0);
        assert_eq!(c.peers, rx);
        assert_eq!(c.bind.len(), 1);
        assert_eq!(c.bind[0].port(), 0, "a sender's port is the kernel's");
        let replayer = station_config(plan.station("a-sig-05-0").unwrap(), &sc, &a, Path::new("/o"), 0);
        assert_eq!(replayer.bind.len(), 2);
        assert_ne!(
            replayer.bind[0].ip(),
            replayer.bind[1].ip(),
            "copies from another address"
        );
    }
}
