//! `[pki_service]` (opt-in): the senders' tickets come from a TS 102 941 PKI service that the
//! orchestrator starts, not from the run's PKI directory. Before the run each sender is
//! registered with the EA (its canonical key, the TLM as trust anchor), enrols over HTTP and asks
//! the AA for its tickets, all senders at once, with a timeout and a bounded number of attempts
//! per request, as a station would at start-up. The scenario decides how the AA behaves:
//!
//! | `aa` | what the orchestrator does |
//! |---|---|
//! | `normal` | EA + distribution in one process, the AA in another |
//! | `slow` | the AA answers after `aa_delay_ms` (its `--lab-aa-delay-ms`) |
//! | `down` | no AA process: its address (named in the CTL) refuses connections |
//! | `flood` | a flood of `flood_rate_hz` junk requests hits the AA while the stations ask |
//!
//! The service's root CA is the run's own (its TLM, EA and AA are issued under it), so receivers
//! validate service tickets up to the root they already trust; the service AA's certificate is
//! put beside the PKI ([`SERVICE_AA`]) for the receivers' trust stores. The tickets a sender
//! obtained go into the run's PKI directory as its pseudonyms; a sender that obtained none is not
//! started (it has nothing to sign with). What happened — per sender the enrolment and ticket
//! times, attempts and the first refusal — is written to `OUT/pki-service/report.json`.

use crate::run::credentials::{CredentialError, SERVICE_AA, TESTBED_SUBDIR};
use crate::scenario::pki_service::{AaCondition, PkiServiceConfig};
use serde::Serialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use v2x_pki_service::client::HttpClient;
use v2x_pki_service::config::{content_type, paths};
use v2x_pki_service::its_station::{ItsError, ItsStation, PoolPlan};
use v2x_security::ts102941::authorities::Authorities;
use v2x_security::{Credentials, Pki};

/// What one sender went through.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SenderReport {
    pub name: String,
    pub enrol_ms: Option<f64>,
    pub tickets: usize,
    /// Time from the first authorization request to the last ticket (or giving up), ms.
    pub tickets_ms: f64,
    pub attempts: u32,
    pub failed_requests: u32,
    pub first_error: Option<String>,
}

/// What the start-up with the service gave.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PkiReport {
    pub aa: String,
    pub senders: Vec<SenderReport>,
    /// Senders that obtained no ticket (not started).
    pub without_tickets: Vec<String>,
    /// `flood`: junk requests sent, and how the AA answered them (HTTP status → count).
    pub flood_sent: u64,
    pub flood_answers: std::collections::BTreeMap<String, u64>,
}

struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn io(what: String) -> impl FnOnce(std::io::Error) -> CredentialError {
    move |source| CredentialError::Io {
        path: PathBuf::from(what),
        source,
    }
}

fn invalid(e: impl std::fmt::Display) -> CredentialError {
    CredentialError::Invalid(format!("pki service: {e}"))
}

fn free_tcp() -> Result<SocketAddr, CredentialError> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(io("a loopback port".into()))?;
    l.local_addr().map_err(io("a loopback port".into()))
}

fn serve(exe: &Path, dir: &Path, name: &str, args: &[String]) -> Result<(Child, String), CredentialError> {
    let ready = dir.join(format!("{name}.ready"));
    let _ = std::fs::remove_file(&ready);
    let log = std::fs::File::create(dir.join(format!("{name}.log"))).map_err(io(format!("{name}.log")))?;
    let mut child = Command::new(exe)
        .args(["pki", "serve", "--dir"])
        .arg(dir)
        .args(args)
        .arg("--ready-file")
        .arg(&ready)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .map_err(io(format!("starting {}", exe.display())))?;
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(60) {
        if let Ok(u) = std::fs::read_to_string(&ready) {
            if !u.trim().is_empty() {
                return Ok((child, u.trim().to_string()));
            }
        }
        if let Ok(Some(st)) = child.try_wait() {
            return Err(invalid(format!(
                "the {name} process exited ({st}); see {}",
                dir.join(format!("{name}.log")).display()
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    Err(invalid(format!("the {name} process did not start")))
}

/// Junk requests at `url` at `rate` per second until `stop`; counts answers by status.
fn flood(
    url: String,
    rate: f64,
    stop: Arc<AtomicBool>,
    sent: Arc<AtomicU64>,
) -> std::collections::BTreeMap<String, u64> {
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .expect("HTTP client");
    let mut answers = std::collections::BTreeMap::new();
    let period = Duration::from_secs_f64(1.0 / rate.max(1.0));
    let mut next = Instant::now();
    let mut body = vec![3u8, 0x82, 0x01];
    body.extend_from_slice(&[0u8; 200]);
    while !stop.load(Ordering::Relaxed) {
        let key = match client
            .post(&url)
            .header("content-type", content_type::REQUEST)
            .body(body.clone())
            .send()
        {
            Ok(r) => r.status().as_u16().to_string(),
            Err(_) => "no answer".to_string(),
        };
        *answers.entry(key).or_insert(0) += 1;
        sent.fetch_add(1, Ordering::Relaxed);
        next += period;
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    answers
}

/// Retries `f` on transient HTTP failures, `attempts` times in all.
fn with_retries<T>(
    attempts: u32,
    report: &mut SenderReport,
    mut f: impl FnMut() -> Result<T, ItsError>,
) -> Result<T, ItsError> {
    let mut last = None;
    for i in 0..attempts.max(1) {
        report.attempts += 1;
        match f() {
            Ok(v) => return Ok(v),
            Err(ItsError::Http(e)) if e.is_transient() => {
                report.failed_requests += 1;
                report.first_error.get_or_insert_with(|| e.to_string());
                last = Some(ItsError::Http(e));
                std::thread::sleep(Duration::from_millis(100 << i.min(4)));
            }
            Err(e) => {
                report.failed_requests += 1;
                report.first_error.get_or_insert_with(|| e.to_string());
                return Err(e);
            }
        }
    }
    Err(last.expect("at least one attempt"))
}

fn sender(dir: &Path, name: &str, ea_dc: &str, cfg: &PkiServiceConfig) -> (SenderReport, Vec<Credentials>) {
    let mut report = SenderReport {
        name: name.to_string(),
        ..SenderReport::default()
    };
    let http = HttpClient::new(Duration::from_secs_f64(cfg.request_timeout_s));
    let outcome = (|| -> Result<Vec<Credentials>, ItsError> {
        let station = ItsStation::open(&dir.join("stations").join(name))?;
        let authorities = with_retries(cfg.attempts, &mut report, || station.refresh_trust(&http, ea_dc))?;
        let t0 = Instant::now();
        with_retries(cfg.attempts, &mut report, || {
            station.enrol(&http, &authorities.ea, &authorities.ea_url)
        })?;
        report.enrol_ms = Some(t0.elapsed().as_secs_f64() * 1e3);
        let t1 = Instant::now();
        let plan = PoolPlan::new(1, 1);
        let mut got = Vec::new();
        for _ in 0..cfg.tickets {
            match with_retries(cfg.attempts, &mut report, || {
                station.obtain(&http, &authorities, 1, &plan)
            }) {
                Ok(t) => got.extend(t),
                Err(_) => break,
            }
        }
        report.tickets_ms = t1.elapsed().as_secs_f64() * 1e3;
        Ok(got)
    })();
    let tickets = outcome.unwrap_or_default();
    report.tickets = tickets.len();
    (report, tickets)
}

/// Starts the service, registers and provisions `senders` from it, stops it, and installs each
/// sender's tickets into the run's PKI directory. Returns the report (also written to
/// `OUT/pki-service/report.json`).
pub fn provision(
    pki: &Pki,
    senders: &[String],
    cfg: &PkiServiceConfig,
    out: &Path,
    exe: &Path,
) -> Result<PkiReport, CredentialError> {
    let dir = out.join("pki-service");
    std::fs::create_dir_all(&dir).map_err(io(dir.display().to_string()))?;
    // The service's TLM, EA and AA under the run's root.
    let root = pki.root().clone();
    let (authorities, _) = Authorities::open_or_create_with(&dir.join("authorities"), || {
        Authorities::create_under(root, v2x_security::TaiTime::now())
    })
    .map_err(invalid)?;
    let aa_cert = authorities.aa.authority.certificate.clone();
    let extra = pki.dir().join(TESTBED_SUBDIR);
    std::fs::create_dir_all(&extra).map_err(io(extra.display().to_string()))?;
    std::fs::write(extra.join(SERVICE_AA), aa_cert.encoded()).map_err(io(SERVICE_AA.into()))?;
    let aa_addr = free_tcp()?;
    let aa_base = format!("http://{aa_addr}");
    let mut processes = Processes(Vec::new());
    let (ea_child, ea_url) = serve(
        exe,
        &dir,
        "ea-dc",
        &[
            "--roles".into(),
            "ea,dc".into(),
            "--listen".into(),
            "127.0.0.1:0".into(),
            "--aa-url".into(),
            aa_base.clone(),
        ],
    )?;
    processes.0.push(ea_child);
    if cfg.aa != AaCondition::Down {
        let mut args = vec![
            "--roles".into(),
            "aa".into(),
            "--listen".into(),
            aa_addr.to_string(),
            "--ea-url".into(),
            ea_url.clone(),
        ];
        if cfg.aa == AaCondition::Slow {
            args.extend(["--lab-aa-delay-ms".into(), cfg.aa_delay_ms.to_string()]);
        }
        processes.0.push(serve(exe, &dir, "aa", &args)?.0);
    }
    // Registration, as the manufacturer would: the canonical keys into the EA's registry.
    for name in senders {
        let o = Command::new(exe)
            .args(["pki", "register", "--dir"])
            .arg(&dir)
            .arg("--station")
            .arg(dir.join("stations").join(name))
            .args(["--its-id", name])
            .output()
            .map_err(io(format!("registering {name}")))?;
        if !o.status.success() {
            return Err(invalid(format!(
                "registering {name}: {}",
                String::from_utf8_lossy(&o.stderr)
            )));
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicU64::new(0));
    let flooder = (cfg.aa == AaCondition::Flood).then(|| {
        let (url, stop, sent, rate) = (
            format!("{aa_base}{}", paths::AUTHORIZATION),
            stop.clone(),
            sent.clone(),
            cfg.flood_rate_hz,
        );
        std::thread::spawn(move || flood(url, rate, stop, sent))
    });
    let results: Vec<(SenderReport, Vec<Credentials>)> = std::thread::scope(|s| {
        let hs: Vec<_> = senders
            .iter()
            .map(|n| s.spawn(|| sender(&dir, n, &ea_url, cfg)))
            .collect();
        hs.into_iter().map(|h| h.join().expect("sender thread")).collect()
    });
    stop.store(true, Ordering::Relaxed);
    let flood_answers = flooder.map(|h| h.join().unwrap_or_default()).unwrap_or_default();
    drop(processes);
    let mut report = PkiReport {
        aa: format!("{:?}", cfg.aa).to_lowercase(),
        flood_sent: sent.load(Ordering::Relaxed),
        flood_answers,
        ..PkiReport::default()
    };
    for (r, tickets) in results {
        if tickets.is_empty() {
            report.without_tickets.push(r.name.clone());
        } else {
            install(pki, &r.name, &tickets)?;
        }
        report.senders.push(r);
    }
    let json = serde_json::to_string_pretty(&report).map_err(invalid)?;
    std::fs::write(dir.join("report.json"), json).map_err(io("report.json".into()))?;
    Ok(report)
}

/// Writes `tickets` as the station's pseudonyms in the run's PKI directory (its layout:
/// `stations/NAME/tickets/at-NNNN.{pem,enc.pem,oer}`, keys first).
fn install(pki: &Pki, name: &str, tickets: &[Credentials]) -> Result<(), CredentialError> {
    use v2x_security::durable::{self, Access};
    let tdir = pki.dir().join("stations").join(name).join("tickets");
    durable::create_dir_all(&tdir).map_err(io(tdir.display().to_string()))?;
    for (i, t) in tickets.iter().enumerate() {
        let stem = tdir.join(v2x_security::pki_store::ticket_stem(i as u32));
        let pem = |k: &v2x_crypto::PrivateKey| k.to_pem().map_err(invalid);
        durable::create_new(&stem.with_extension("pem"), &pem(&t.signing_key)?, Access::OwnerOnly)
            .map_err(io(stem.display().to_string()))?;
        if let Some(k) = &t.encryption_key {
            durable::create_new(&stem.with_extension("enc.pem"), &pem(k)?, Access::OwnerOnly)
                .map_err(io(stem.display().to_string()))?;
        }
        durable::create_new(&stem.with_extension("oer"), t.certificate.encoded(), Access::Public)
            .map_err(io(stem.display().to_string()))?;
    }
    Ok(())
}
