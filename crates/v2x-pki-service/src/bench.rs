//! The throughput benchmark (`v2x pki bench`): enrolment and authorization responses per second
//! over HTTP from a service process, on SQLite and on PostgreSQL, with the service's CPU per
//! response split into crypto, database and HTTP runtime.
//!
//! Per store: a service process is started (EA, AA and DC in one process, the `v2x` binary
//! given), stations are registered and enrolled over HTTP, then each run of a flow pre-generates
//! its requests (the client's crypto stays out of the timed window) and sends them from
//! `concurrency` keep-alive connections: re-enrolments signed with the stations' ECs, or
//! authorization requests with privacy and proof of possession on. Timed: from the first
//! request sent to the last response received. Every response is then read and checked
//! (decrypted, the authority's signature verified, the new certificate's signature verified). CPU comes from
//! `/proc` (see [`crate::cpu`]): the service's threads by name, the crypto and database work
//! its runtime threads did inline (measured there, read from `/status`) and, for PostgreSQL,
//! the server's process tree. Figures: mean and 95% Student-t interval over runs, and the median.

use crate::client::HttpClient;
use crate::config::{content_type, paths};
use crate::cpu::{self, Split};
use crate::its_station::{Authorities, ItsStation};
use crate::pg_cluster::PgCluster;
use crate::store::{AnyStore, StationRow, Store};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use v2x_crypto::Curve;
use v2x_security::certificate::AppPermission;
use v2x_security::ts102941::attributes::attributes;
use v2x_security::ts102941::station::{
    self, AuthorizationOptions, AuthorizationOutcome, AuthorizationRequest, EnrolmentIdentity, EnrolmentOutcome,
    EnrolmentRequest,
};
use v2x_security::{Authority, ItsAid, TaiTime};

/// Which request a run times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Flow {
    /// Re-enrolment with the current EC (`EnrolmentRequestMessage` to the EA).
    Enrolment,
    /// `AuthorizationRequestMessageWithPop` to the AA, privacy on (with the AA–EA validation).
    Authorization,
}

impl Flow {
    pub const ALL: [Flow; 2] = [Flow::Enrolment, Flow::Authorization];

    pub fn name(self) -> &'static str {
        match self {
            Flow::Enrolment => "enrolment",
            Flow::Authorization => "authorization",
        }
    }

    /// A flow by name; an unknown name lists the valid ones.
    pub fn parse(name: &str) -> Result<Flow, String> {
        Flow::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| format!("unknown flow {name:?}: give {}", Flow::ALL.map(Flow::name).join(", ")))
    }

    /// P-256 private/public-key operations the service performs per response.
    ///
    /// Re-enrolment: the EA decrypts (ECDH), checks the outer signature with the EC (verify)
    /// and the proof of possession (verify), issues the EC (sign) and signs the response (sign).
    ///
    /// Authorization (privacy and proof of possession on, EA and AA in one process): the AA
    /// decrypts (ECDH) and checks the proof of possession (verify); the EA of the same process
    /// takes the validation request's content as a value (no envelope between the two: see
    /// `EnrolmentAuthority::open_validation_in_process`), decrypts the EC signature (ECDH) and
    /// checks it (verify); the AA issues the ticket (sign) and signs the response (sign). With
    /// the EA in another process (`--ea-url`) the exchange adds 7: the AA signs and encrypts
    /// the validation request (sign, key generation, ECDH), the EA decrypts it (ECDH), checks
    /// the AA (verify) and signs its answer (sign), the AA checks it (verify).
    pub fn p256_ops_per_response(self) -> u32 {
        match self {
            Flow::Enrolment => 5,
            Flow::Authorization => 6,
        }
    }

    fn path(self) -> &'static str {
        match self {
            Flow::Enrolment => paths::ENROLMENT,
            Flow::Authorization => paths::AUTHORIZATION,
        }
    }
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchPlan {
    /// The `v2x` binary that serves.
    pub server_exe: PathBuf,
    /// `sqlite` and/or `postgres`.
    pub stores: Vec<String>,
    pub flows: Vec<Flow>,
    /// An existing PostgreSQL database (else a throwaway cluster is started).
    pub postgres_url: Option<String>,
    pub requests: usize,
    pub concurrency: usize,
    pub runs: usize,
    pub stations: usize,
    /// Work directory (kept: the service's logs are there).
    pub work: PathBuf,
}

/// One timed run.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub store: String,
    pub flow: Flow,
    pub requests: usize,
    pub ok: usize,
    pub refused: usize,
    pub failed: usize,
    pub wall_s: f64,
    pub responses_per_s: f64,
    pub latency_p50_ms: f64,
    pub latency_p99_ms: f64,
    /// Service CPU per response (µs), by category.
    pub crypto_us: f64,
    pub database_us: f64,
    pub runtime_us: f64,
    /// The load generator's own CPU per response (µs).
    pub client_us: f64,
    pub load_before: [f64; 3],
    pub load_after: [f64; 3],
}

impl Run {
    /// Service CPU per response (µs), all categories.
    pub fn service_us(&self) -> f64 {
        self.crypto_us + self.database_us + self.runtime_us
    }
}

/// Mean, 95% interval half-width and median of a figure over runs.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Figure {
    pub mean: f64,
    pub ci95: f64,
    pub median: f64,
}

impl Figure {
    pub fn of(values: &[f64]) -> Figure {
        let (mean, ci95) = v2x_report::stats::mean_ci95(values);
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let median = if v.is_empty() {
            f64::NAN
        } else if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        Figure { mean, ci95, median }
    }
}

/// The summary of one store.
#[derive(Debug, Clone, Serialize)]
pub struct StoreSummary {
    pub store: String,
    pub flow: Flow,
    pub runs: usize,
    pub responses_per_s: Figure,
    pub crypto_us: Figure,
    pub database_us: Figure,
    pub runtime_us: Figure,
    pub service_us: Figure,
    pub client_us: Figure,
    pub latency_p50_ms: Figure,
    pub latency_p99_ms: Figure,
    /// Responses per second of service CPU: what one core sustains.
    pub per_core_responses_per_s: Figure,
    /// P-256 operations per second of service CPU.
    pub per_core_p256_ops_per_s: Figure,
}

/// Why the benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{0}")]
    Setup(String),
}

fn setup(e: impl std::fmt::Display) -> BenchError {
    BenchError::Setup(e.to_string())
}

struct ServerProcess {
    child: Child,
    url: String,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(exe: &Path, dir: &Path, store: &str) -> Result<ServerProcess, BenchError> {
    let ready = dir.join("ready");
    let _ = std::fs::remove_file(&ready);
    let log = std::fs::File::create(dir.join("service.log")).map_err(setup)?;
    let child = Command::new(exe)
        .args(["pki", "serve", "--dir"])
        .arg(dir.join("svc"))
        .args(["--store", store, "--listen", "127.0.0.1:0", "--ready-file"])
        .arg(&ready)
        .stdout(log.try_clone().map_err(setup)?)
        .stderr(log)
        .spawn()
        .map_err(|e| setup(format!("{}: {e}", exe.display())))?;
    let mut server = ServerProcess {
        child,
        url: String::new(),
    };
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(60) {
        if let Ok(s) = std::fs::read_to_string(&ready) {
            if !s.trim().is_empty() {
                server.url = s.trim().to_string();
                return Ok(server);
            }
        }
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(setup(format!(
                "the service exited ({status}); see {}",
                dir.join("service.log").display()
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(setup("the service did not start within 60 s"))
}

/// The service's CPU time spent inline on its runtime's threads so far (crypto, database
/// lookups), from its `/status`.
fn inline_cpu(http: &reqwest::blocking::Client, base: &str) -> Result<(Duration, Duration), BenchError> {
    let url = format!("{base}{}", paths::STATUS);
    let body = http
        .get(&url)
        .send()
        .and_then(|r| r.bytes())
        .map_err(|e| setup(format!("{url}: {e}")))?;
    let v: serde_json::Value = serde_json::from_slice(&body).map_err(|e| setup(format!("{url}: {e}")))?;
    let us = |k: &str| {
        v["inline_cpu_us"][k]
            .as_u64()
            .map(Duration::from_micros)
            .ok_or_else(|| setup(format!("{url}: no inline_cpu_us.{k}")))
    };
    Ok((us("crypto")?, us("database")?))
}

/// Registers and enrols `n` stations; returns their ECs and the authorities they learnt.
fn enrol_stations(
    rt: &tokio::runtime::Runtime,
    store_url: &str,
    dir: &Path,
    svc_dir: &Path,
    base: &str,
    n: usize,
) -> Result<(Vec<Authority>, Authorities), BenchError> {
    let store = rt.block_on(AnyStore::open(store_url)).map_err(setup)?;
    let http = HttpClient::new(Duration::from_secs(30));
    let tlm = std::fs::read(svc_dir.join("authorities").join("tlm").join("cert.oer")).map_err(setup)?;
    let mut ecs = Vec::new();
    let mut authorities = None;
    for i in 0..n {
        let st = ItsStation::create(
            &dir.join(format!("station-{i}")),
            &format!("bench-{i}"),
            Curve::NistP256,
        )
        .map_err(setup)?;
        let row = StationRow {
            its_id: st.its_id.as_bytes().to_vec(),
            canonical_key: st.canonical_public_key().clone(),
            revoked: false,
            at_permissions: vec![
                AppPermission::new(ItsAid::CAM, None),
                AppPermission::new(ItsAid::DENM, None),
            ],
        };
        let registered = match &store {
            AnyStore::Sqlite(s) => rt.block_on(s.register_station(&row, 0)),
            AnyStore::Postgres(s) => rt.block_on(s.register_station(&row, 0)),
        };
        registered.map_err(setup)?;
        st.install_trust_anchor(&tlm).map_err(setup)?;
        let a = match &authorities {
            Some(a) => a,
            None => authorities.insert(st.refresh_trust(&http, base).map_err(setup)?),
        };
        ecs.push(st.enrol(&http, &a.ea, &a.ea_url).map_err(setup)?);
    }
    Ok((ecs, authorities.ok_or_else(|| setup("no stations"))?))
}

/// Builds `n` requests with `make(i)`, on all CPUs, in order.
fn generate<R: Send>(n: usize, make: impl Fn(usize) -> Result<R, String> + Sync) -> Result<Vec<R>, BenchError> {
    let threads = std::thread::available_parallelism().map(|t| t.get()).unwrap_or(2);
    let next = AtomicUsize::new(0);
    let out: Vec<Result<Vec<(usize, R)>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            return Ok(mine);
                        }
                        mine.push((i, make(i)?));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("generator thread"))
            .collect()
    });
    let mut all = Vec::with_capacity(n);
    for part in out {
        all.extend(part.map_err(setup)?);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, r)| r).collect())
}

/// A run's requests, pre-generated, round robin over the stations' ECs.
enum Requests {
    Enrolment(Vec<EnrolmentRequest>),
    Authorization(Vec<AuthorizationRequest>),
}

/// How the responses of a run read: issued (and checked), refused with a code, or failed.
#[derive(Default)]
struct Outcomes {
    ok: usize,
    refused: usize,
    failed: usize,
}

impl Requests {
    fn generate(flow: Flow, ecs: &[Authority], a: &Authorities, n: usize) -> Result<Requests, BenchError> {
        Ok(match flow {
            Flow::Enrolment => {
                let requested = attributes(
                    &[AppPermission::new(ItsAid::CERT_REQUEST, Some(vec![0x01, 0xc0]))],
                    None,
                    None,
                );
                Requests::Enrolment(generate(n, |i| {
                    let ec = &ecs[i % ecs.len()];
                    station::enrolment_request(
                        EnrolmentIdentity::Reenrolment { ec },
                        &a.ea,
                        &requested,
                        Curve::NistP256,
                        false,
                        TaiTime::now(),
                    )
                    .map_err(|e| e.to_string())
                })?)
            }
            Flow::Authorization => {
                let requested = attributes(
                    &[AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))],
                    None,
                    None,
                );
                Requests::Authorization(generate(n, |i| {
                    station::authorization_request(
                        &ecs[i % ecs.len()],
                        &a.ea,
                        &a.aa,
                        &requested,
                        AuthorizationOptions::default(),
                        TaiTime::now(),
                    )
                    .map_err(|e| e.to_string())
                })?)
            }
        })
    }

    fn bodies(&self) -> Vec<Vec<u8>> {
        match self {
            Requests::Enrolment(r) => r.iter().map(|q| q.message.clone()).collect(),
            Requests::Authorization(r) => r.iter().map(|q| q.message.clone()).collect(),
        }
    }

    /// Reads every response (outside the timed window): decrypted, the authority's signature
    /// and the new certificate's checked.
    fn check(self, responses: Vec<Result<Vec<u8>, String>>, a: &Authorities) -> Outcomes {
        let mut o = Outcomes::default();
        match self {
            Requests::Enrolment(reqs) => {
                for (req, resp) in reqs.into_iter().zip(responses) {
                    match resp.and_then(|b| station::read_enrolment_response(&b, req, &a.ea).map_err(|e| e.to_string()))
                    {
                        Ok(EnrolmentOutcome::Enrolled { ec, .. }) if ec.certificate.verify_signature(Some(&a.ea)) => {
                            o.ok += 1
                        }
                        Ok(EnrolmentOutcome::Enrolled { .. }) => o.failed += 1,
                        Ok(EnrolmentOutcome::Refused(_)) => o.refused += 1,
                        Err(_) => o.failed += 1,
                    }
                }
            }
            Requests::Authorization(reqs) => {
                for (req, resp) in reqs.into_iter().zip(responses) {
                    match resp
                        .and_then(|b| station::read_authorization_response(&b, req, &a.aa).map_err(|e| e.to_string()))
                    {
                        Ok(AuthorizationOutcome::Authorized(t)) if t.certificate.verify_signature(Some(&a.aa)) => {
                            o.ok += 1
                        }
                        Ok(AuthorizationOutcome::Authorized(_)) => o.failed += 1,
                        Ok(AuthorizationOutcome::Refused(_)) => o.refused += 1,
                        Err(_) => o.failed += 1,
                    }
                }
            }
        }
        o
    }
}

/// What a timed run got back.
struct Blast {
    /// Each request's response body (or why there is none), in request order.
    responses: Vec<Result<Vec<u8>, String>>,
    latencies: Vec<Duration>,
    wall: Duration,
}

/// Sends every request from `concurrency` connections.
fn blast(url: &str, bodies: Vec<Vec<u8>>, concurrency: usize) -> Blast {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("client runtime");
    rt.block_on(async move {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(concurrency)
            .timeout(Duration::from_secs(60))
            .build()
            .expect("HTTP client");
        let bodies = Arc::new(bodies);
        let next = Arc::new(AtomicUsize::new(0));
        let t0 = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..concurrency {
            let (client, bodies, next, url) = (client.clone(), bodies.clone(), next.clone(), url.to_string());
            tasks.push(tokio::spawn(async move {
                let mut got = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(body) = bodies.get(i) else { break };
                    let start = Instant::now();
                    let r = client
                        .post(&url)
                        .header(reqwest::header::CONTENT_TYPE, content_type::REQUEST)
                        .body(body.clone())
                        .send()
                        .await;
                    let r = match r {
                        Ok(resp) if resp.status() == 200 => {
                            resp.bytes().await.map(|b| b.to_vec()).map_err(|e| e.to_string())
                        }
                        Ok(resp) => Err(format!("HTTP {}", resp.status())),
                        Err(e) => Err(e.to_string()),
                    };
                    got.push((i, r, start.elapsed()));
                }
                got
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.expect("client task"));
        }
        let wall = t0.elapsed();
        all.sort_by_key(|(i, _, _)| *i);
        let latencies = all.iter().map(|(_, _, l)| *l).collect();
        Blast {
            responses: all.into_iter().map(|(_, r, _)| r).collect(),
            latencies,
            wall,
        }
    })
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

/// Runs the plan; `progress` gets a line per step.
pub fn run(plan: &BenchPlan, mut progress: impl FnMut(&str)) -> Result<(Vec<Run>, Vec<StoreSummary>), BenchError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(setup)?;
    let mut runs = Vec::new();
    let mut summaries = Vec::new();
    for store in &plan.stores {
        let dir = plan.work.join(store);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(setup)?;
        let cluster;
        let (url, db_pid) = match store.as_str() {
            "sqlite" => (format!("sqlite:{}", dir.join("pki.db").display()), None),
            "postgres" => match &plan.postgres_url {
                Some(u) => (u.clone(), None),
                None => {
                    cluster = PgCluster::start().map_err(setup)?;
                    (cluster.url.clone(), cluster.postmaster_pid())
                }
            },
            other => return Err(setup(format!("unknown store {other:?}: give sqlite and/or postgres"))),
        };
        progress(&format!("{store}: starting the service"));
        let server = start_server(&plan.server_exe, &dir, &url)?;
        let server_pid = server.child.id();
        progress(&format!(
            "{store}: registering and enrolling {} stations",
            plan.stations
        ));
        let (ecs, authorities) = enrol_stations(
            &rt,
            &url,
            &dir.join("stations"),
            &dir.join("svc"),
            &server.url,
            plan.stations,
        )?;
        let status_client = reqwest::blocking::Client::new();
        for &flow in &plan.flows {
            let target = format!("{}{}", server.url, flow.path());
            let label = format!("{store}, {}", flow.name());
            let mut mine = Vec::new();
            for r in 0..plan.runs {
                progress(&format!(
                    "{label}: run {}/{}: generating {} requests",
                    r + 1,
                    plan.runs,
                    plan.requests
                ));
                let requests = Requests::generate(flow, &ecs, &authorities, plan.requests)?;
                let bodies = requests.bodies();
                let load_before = cpu::load_average().unwrap_or([f64::NAN; 3]);
                let i0 = inline_cpu(&status_client, &server.url)?;
                let s0 = Split::of(&cpu::threads(server_pid).map_err(setup)?);
                let db0 = db_pid.map(cpu::process_tree).transpose().map_err(setup)?;
                let c0 = cpu::threads(std::process::id())
                    .map_err(setup)?
                    .values()
                    .sum::<Duration>();
                let Blast {
                    responses,
                    mut latencies,
                    wall,
                } = blast(&target, bodies, plan.concurrency);
                let c1 = cpu::threads(std::process::id())
                    .map_err(setup)?
                    .values()
                    .sum::<Duration>();
                let s1 = Split::of(&cpu::threads(server_pid).map_err(setup)?);
                let i1 = inline_cpu(&status_client, &server.url)?;
                let db1 = db_pid.map(cpu::process_tree).transpose().map_err(setup)?;
                let load_after = cpu::load_average().unwrap_or([f64::NAN; 3]);
                let Outcomes { ok, refused, failed } = requests.check(responses, &authorities);
                let split = s1
                    .since(s0)
                    .with_inline(i1.0.saturating_sub(i0.0), i1.1.saturating_sub(i0.1));
                let n = plan.requests.max(1) as f64;
                let us = |d: Duration| d.as_secs_f64() * 1e6 / n;
                let database = match (db0, db1) {
                    (Some(a), Some(b)) => b.saturating_sub(a),
                    _ => split.sqlite,
                };
                latencies.sort();
                let run = Run {
                    store: store.clone(),
                    flow,
                    requests: plan.requests,
                    ok,
                    refused,
                    failed,
                    wall_s: wall.as_secs_f64(),
                    responses_per_s: ok as f64 / wall.as_secs_f64(),
                    latency_p50_ms: percentile(&latencies, 0.5),
                    latency_p99_ms: percentile(&latencies, 0.99),
                    crypto_us: us(split.crypto),
                    database_us: us(database),
                    runtime_us: us(split.runtime),
                    client_us: us(c1.saturating_sub(c0)),
                    load_before,
                    load_after,
                };
                progress(&format!(
                    "{label}: run {}: {:.0} responses/s ({ok} ok, {refused} refused, {failed} failed), service {:.0} µs/response, load {:.2}",
                    r + 1,
                    run.responses_per_s,
                    run.service_us(),
                    load_after[0]
                ));
                mine.push(run);
            }
            let fig = |f: &dyn Fn(&Run) -> f64| Figure::of(&mine.iter().map(f).collect::<Vec<_>>());
            let ops = f64::from(flow.p256_ops_per_response());
            summaries.push(StoreSummary {
                store: store.clone(),
                flow,
                runs: mine.len(),
                responses_per_s: fig(&|r| r.responses_per_s),
                crypto_us: fig(&|r| r.crypto_us),
                database_us: fig(&|r| r.database_us),
                runtime_us: fig(&|r| r.runtime_us),
                service_us: fig(&|r| r.service_us()),
                client_us: fig(&|r| r.client_us),
                latency_p50_ms: fig(&|r| r.latency_p50_ms),
                latency_p99_ms: fig(&|r| r.latency_p99_ms),
                per_core_responses_per_s: fig(&|r| 1e6 / r.service_us()),
                per_core_p256_ops_per_s: fig(&|r| 1e6 / r.service_us() * ops),
            });
            runs.extend(mine);
        }
        drop(server);
    }
    Ok((runs, summaries))
}

/// The summary as a markdown table.
pub fn markdown(summaries: &[StoreSummary]) -> String {
    let f = |x: &Figure| format!("{:.0} ± {:.0} (median {:.0})", x.mean, x.ci95, x.median);
    let mut s = String::from(
        "| store | flow | responses/s | service CPU µs/response | crypto | database | HTTP runtime | client µs/response | p50 / p99 latency ms | responses per core-second | P-256 ops per core-second |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for x in summaries {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1} / {:.1} | {} | {} |\n",
            x.store,
            x.flow.name(),
            f(&x.responses_per_s),
            f(&x.service_us),
            f(&x.crypto_us),
            f(&x.database_us),
            f(&x.runtime_us),
            f(&x.client_us),
            x.latency_p50_ms.median,
            x.latency_p99_ms.median,
            f(&x.per_core_responses_per_s),
            f(&x.per_core_p256_ops_per_s),
        ));
    }
    s
}
