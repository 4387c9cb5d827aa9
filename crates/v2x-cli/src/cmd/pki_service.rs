//! `v2x pki serve | register | revoke-station | enrol | authorise | cam | bench`: the ETSI
//! TS 102 941 PKI service and its ITS-S side (crate `v2x-pki-service`).

use anyhow::{anyhow, bail, Context};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_pki_service::bench::{self, BenchPlan};
use v2x_pki_service::client::HttpClient;
use v2x_pki_service::config::{paths, Roles, ServiceConfig};
use v2x_pki_service::its_station::{ItsStation, PoolPlan};
use v2x_pki_service::store::{AnyStore, StationRow, Store};
use v2x_security::certificate::AppPermission;
use v2x_security::ts102941::station::AuthorizationOptions;
use v2x_security::ts102941::Freshness;
use v2x_security::{EncapRequest, ItsAid, SecurityEntity};

#[derive(clap::Subcommand)]
pub enum Command {
    /// Run the TS 102 941 PKI service: EA, AA and the distribution of the root's CRL/CTL and
    /// the TLM's ECTL over HTTP (authorities created in DIR/authorities on first start).
    Serve(ServeArgs),
    /// Register an ITS-S's canonical key with the EA (as its manufacturer would) and install the
    /// TLM certificate as its trust anchor; creates the station directory when missing.
    Register(RegisterArgs),
    /// Revoke (or with --restore, reinstate) a registered ITS-S: the EA refuses its enrolments
    /// (baditsstatus) and its ECs' authorizations.
    RevokeStation(RevokeStationArgs),
    /// Enrol (or, with a valid enrolment credential, re-enrol) a station with the EA.
    Enrol(EnrolArgs),
    /// Obtain authorization tickets from the AA (re-enrolling first when the EC ends within a week).
    Authorise(AuthoriseArgs),
    /// Sign a CAM with the station's first valid ticket (SN-ENCAP, CAM profile) for
    /// `v2x decap --trust STATION/trust`.
    Cam(CamArgs),
    /// Throughput benchmark: enrolment and authorization responses/s over HTTP on SQLite and PostgreSQL,
    /// with the service's CPU per response split into crypto, database and HTTP.
    Bench(BenchArgs),
}

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Service directory: authorities in DIR/authorities, the SQLite store DIR/pki.db.
    #[arg(long)]
    dir: PathBuf,
    /// Store: sqlite:PATH (default DIR/pki.db) or postgres://USER@HOST:PORT/DB (several
    /// instances may share one).
    #[arg(long)]
    store: Option<String>,
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Roles of this process: ea, aa, dc (comma separated).
    #[arg(long, default_value = "ea,aa,dc")]
    roles: String,
    /// The EA the AA validates with, when this process is not the EA (base URL).
    #[arg(long)]
    ea_url: Option<String>,
    /// The base URL the trust lists name (default: http:// and the bound address).
    #[arg(long)]
    public_url: Option<String>,
    /// The AA the trust lists name, when this process distributes but another is the AA
    /// (base URL).
    #[arg(long)]
    aa_url: Option<String>,
    /// Curve of newly created authorities: p256, p384, bp256, bp384.
    #[arg(long, default_value = "p256")]
    curve: String,
    /// Write the service's base URL into this file once it accepts requests.
    #[arg(long)]
    ready_file: Option<PathBuf>,
    /// Requests handled at once; more are refused with 503.
    #[arg(long, default_value_t = 512)]
    max_in_flight: usize,
    /// Largest request body in bytes (larger: 413).
    #[arg(long, default_value_t = 16 * 1024)]
    max_body: usize,
    /// How old a request may be (s, m, h).
    #[arg(long, default_value = "5m")]
    request_max_age: String,
    /// At most N authorization validations per EC per PERIOD (e.g. 100/1w); default no limit.
    #[arg(long)]
    max_validations_per_ec: Option<String>,
    /// HTTP runtime threads, which also run the crypto (default: the number of CPUs).
    #[arg(long)]
    threads: Option<usize>,
    /// LAB OPTION: the AA waits this many milliseconds before each answer (a slow AA).
    #[arg(long)]
    lab_aa_delay_ms: Option<u64>,
}

#[derive(clap::Args)]
pub struct RegisterArgs {
    /// Service directory.
    #[arg(long)]
    dir: PathBuf,
    /// Station directory (created with a new canonical key when missing).
    #[arg(long)]
    station: PathBuf,
    /// Canonical id of a new station (default: the station directory's name).
    #[arg(long)]
    its_id: Option<String>,
    /// Store (default sqlite:DIR/pki.db).
    #[arg(long)]
    store: Option<String>,
    /// What the station's tickets may permit: PSIDs, comma separated (numbers or names).
    #[arg(long, value_delimiter = ',', default_value = "cam,denm", value_parser = super::its_aid_arg::parse_its_aid)]
    psid: Vec<ItsAid>,
    /// Curve of a new station's keys.
    #[arg(long, default_value = "p256")]
    curve: String,
}

#[derive(clap::Args)]
pub struct RevokeStationArgs {
    #[arg(long)]
    dir: PathBuf,
    #[arg(long)]
    its_id: String,
    #[arg(long)]
    store: Option<String>,
    /// Reinstate instead.
    #[arg(long)]
    restore: bool,
}

#[derive(clap::Args)]
pub struct EnrolArgs {
    /// The service hosting the EA (base URL, e.g. http://127.0.0.1:8080).
    #[arg(long)]
    ea: String,
    /// Station directory (from `v2x pki register`).
    #[arg(long)]
    station: PathBuf,
    /// The distribution centre (base URL; default: the EA's service).
    #[arg(long)]
    dc: Option<String>,
}

#[derive(clap::Args)]
pub struct AuthoriseArgs {
    /// The service hosting the AA (base URL).
    #[arg(long)]
    aa: String,
    #[arg(long)]
    station: PathBuf,
    /// Tickets to obtain now.
    #[arg(long, default_value_t = 1, conflicts_with = "keep")]
    count: usize,
    /// Pool mode: keep this many valid tickets, refilled when fewer than --refill-below remain.
    #[arg(long, requires = "refill_below")]
    keep: Option<usize>,
    #[arg(long)]
    refill_below: Option<usize>,
    /// The distribution centre (base URL; default: the AA's service).
    #[arg(long)]
    dc: Option<String>,
    /// PSIDs the tickets permit.
    #[arg(long, value_delimiter = ',', default_value = "cam,denm", value_parser = super::its_aid_arg::parse_its_aid)]
    psid: Vec<ItsAid>,
    /// Send the EC signature in clear (the AA learns which EC asks; privacy is on by default).
    #[arg(long)]
    no_privacy: bool,
    /// Do not sign the request with the new ticket's key (proof of possession is on by default).
    #[arg(long)]
    no_pop: bool,
}

#[derive(clap::Args)]
pub struct CamArgs {
    #[arg(long)]
    station: PathBuf,
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Stores: sqlite, postgres (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "sqlite,postgres")]
    store: Vec<String>,
    /// Flows timed: enrolment (re-enrolment with the EC), authorization (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "enrolment,authorization", value_parser = bench::Flow::parse)]
    flow: Vec<bench::Flow>,
    /// An existing PostgreSQL database (default: a throwaway cluster from the installed
    /// PostgreSQL binaries).
    #[arg(long)]
    postgres_url: Option<String>,
    /// Requests per run.
    #[arg(long, default_value_t = 4000)]
    requests: usize,
    /// Concurrent connections.
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Stations the requests come from (round robin).
    #[arg(long, default_value_t = 16)]
    stations: usize,
    /// Results (and the service's logs).
    #[arg(long, default_value = "out/pki-bench")]
    out: PathBuf,
}

fn parse_duration(s: &str) -> anyhow::Result<Duration> {
    let s = s.trim();
    let split = s
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| anyhow!("{s:?} needs a unit (s, m, h, d, w)"))?;
    let (n, unit) = s.split_at(split);
    let n: u64 = n.parse().with_context(|| format!("{s:?}"))?;
    let mult = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => bail!("unknown unit {unit:?} in {s:?} (s, m, h, d, w)"),
    };
    Ok(Duration::from_secs(n * mult))
}

fn store_url(dir: &Path, store: &Option<String>) -> String {
    store
        .clone()
        .unwrap_or_else(|| format!("sqlite:{}", dir.join("pki.db").display()))
}

fn curve(s: &str) -> anyhow::Result<Curve> {
    Curve::from_short_name(s).ok_or_else(|| anyhow!("unknown curve {s:?} (p256, p384, bp256, bp384)"))
}

fn runtime(threads: Option<usize>) -> anyhow::Result<tokio::runtime::Runtime> {
    let mut b = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = threads {
        b.worker_threads(n.max(1));
    }
    Ok(b.thread_name("pki-http").enable_all().build()?)
}

pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Serve(a) => serve(a),
        Command::Register(a) => register(a),
        Command::RevokeStation(a) => revoke_station(a),
        Command::Enrol(a) => enrol(a),
        Command::Authorise(a) => authorise(a),
        Command::Cam(a) => cam(a),
        Command::Bench(a) => run_bench(a),
    }
}

fn serve(a: ServeArgs) -> anyhow::Result<ExitCode> {
    let mut config = ServiceConfig::new(a.dir.join("authorities"), store_url(&a.dir, &a.store), a.listen);
    config.curve = curve(&a.curve)?;
    config.roles = Roles::parse(&a.roles).map_err(|e| anyhow!(e))?;
    config.ea_url = a.ea_url;
    config.public_url = a.public_url;
    config.aa_url = a.aa_url;
    config.max_in_flight = a.max_in_flight;
    config.max_body = a.max_body;
    config.freshness = Freshness {
        max_age: parse_duration(&a.request_max_age)?,
        ..Freshness::default()
    };
    if let Some(limit) = &a.max_validations_per_ec {
        let (n, period) = limit
            .split_once('/')
            .ok_or_else(|| anyhow!("--max-validations-per-ec {limit:?}: give N/PERIOD, e.g. 100/1w"))?;
        config.validation_limit = Some((n.parse().context("--max-validations-per-ec")?, parse_duration(period)?));
    }
    config.lab_aa_delay = a.lab_aa_delay_ms.map(Duration::from_millis);
    if config.roles.aa && !config.roles.ea && config.ea_url.is_none() {
        bail!("an AA without the EA role needs --ea-url (the EA it validates with)");
    }
    if let Some(d) = config.lab_aa_delay {
        eprintln!("warning: LAB OPTION --lab-aa-delay-ms: the AA waits {d:?} before each answer");
    }
    std::fs::create_dir_all(&a.dir).with_context(|| format!("creating {}", a.dir.display()))?;
    let rt = runtime(a.threads)?;
    let ready_file = a.ready_file;
    let roles = a.roles;
    let store_shown = config.store.clone();
    rt.block_on(v2x_pki_service::server::run(
        config,
        move |s| {
            eprintln!(
                "v2x pki serve: {} ({roles}) on {store_shown}{}",
                s.public_url,
                if s.created_authorities {
                    ", authorities created"
                } else {
                    ""
                }
            );
            if let Some(f) = &ready_file {
                if let Err(e) = std::fs::write(f, format!("{}\n", s.public_url)) {
                    eprintln!("warning: --ready-file {}: {e}", f.display());
                }
            }
        },
        async {
            let _ = tokio::signal::ctrl_c().await;
        },
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn register(a: RegisterArgs) -> anyhow::Result<ExitCode> {
    let tlm_path = a.dir.join("authorities").join("tlm").join("cert.oer");
    let tlm = std::fs::read(&tlm_path).with_context(|| {
        format!(
            "{}: start the service once (v2x pki serve --dir {}) to create the authorities",
            tlm_path.display(),
            a.dir.display()
        )
    })?;
    let station = if a.station.exists() {
        ItsStation::open(&a.station)?
    } else {
        let id = match &a.its_id {
            Some(i) => i.clone(),
            None => a
                .station
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| anyhow!("--its-id needed"))?
                .to_string(),
        };
        ItsStation::create(&a.station, &id, curve(&a.curve)?)?
    };
    let row = StationRow {
        its_id: station.its_id.as_bytes().to_vec(),
        canonical_key: station.canonical_public_key().clone(),
        revoked: false,
        at_permissions: a.psid.iter().map(|&p| AppPermission::new(p, None)).collect(),
    };
    let url = store_url(&a.dir, &a.store);
    let rt = runtime(Some(1))?;
    rt.block_on(async {
        match AnyStore::open(&url).await? {
            AnyStore::Sqlite(s) => s.register_station(&row, unix_now()).await,
            AnyStore::Postgres(s) => s.register_station(&row, unix_now()).await,
        }
    })
    .with_context(|| format!("registering in {url}"))?;
    station.install_trust_anchor(&tlm)?;
    println!(
        "registered {} (canonical key {}) in {url}; trust anchor installed in {}",
        station.its_id,
        station.canonical_public_key().curve(),
        station.trust_dir().display()
    );
    Ok(ExitCode::SUCCESS)
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn revoke_station(a: RevokeStationArgs) -> anyhow::Result<ExitCode> {
    let url = store_url(&a.dir, &a.store);
    let rt = runtime(Some(1))?;
    let found = rt.block_on(async {
        match AnyStore::open(&url).await? {
            AnyStore::Sqlite(s) => s.set_station_revoked(a.its_id.as_bytes(), !a.restore).await,
            AnyStore::Postgres(s) => s.set_station_revoked(a.its_id.as_bytes(), !a.restore).await,
        }
    })?;
    if !found {
        bail!("no station {:?} is registered in {url}", a.its_id);
    }
    println!("{} {}", a.its_id, if a.restore { "reinstated" } else { "revoked" });
    Ok(ExitCode::SUCCESS)
}

fn http() -> HttpClient {
    HttpClient::new(Duration::from_secs(30))
}

fn enrol(a: EnrolArgs) -> anyhow::Result<ExitCode> {
    let station = ItsStation::open(&a.station)?;
    let http = http();
    let authorities = station.refresh_trust(&http, a.dc.as_deref().unwrap_or(&a.ea))?;
    let url = format!("{}{}", a.ea.trim_end_matches('/'), paths::ENROLMENT);
    let reenrol = station.enrolment_credential()?.is_some();
    let ec = station.enrol(&http, &authorities.ea, &url)?;
    let v = ec.certificate.validity();
    println!(
        "{} {}: enrolment credential {} valid until {}",
        station.its_id,
        if reenrol { "re-enrolled" } else { "enrolled" },
        ec.certificate.hashed_id8(),
        v2x_security::TaiTime::from_time32(v.end as u32).to_rfc3339()
    );
    Ok(ExitCode::SUCCESS)
}

fn authorise(a: AuthoriseArgs) -> anyhow::Result<ExitCode> {
    let station = ItsStation::open(&a.station)?;
    let http = http();
    let mut authorities = station.refresh_trust(&http, a.dc.as_deref().unwrap_or(&a.aa))?;
    authorities.aa_url = format!("{}{}", a.aa.trim_end_matches('/'), paths::AUTHORIZATION);
    let mut plan = PoolPlan::new(a.keep.unwrap_or(a.count), a.refill_below.unwrap_or(usize::MAX));
    plan.psids = a.psid;
    plan.options = AuthorizationOptions {
        privacy: !a.no_privacy,
        proof_of_possession: !a.no_pop,
        ..AuthorizationOptions::default()
    };
    let got = if a.keep.is_some() {
        station.refill(&http, &authorities, &plan)?
    } else {
        station.obtain(&http, &authorities, a.count, &plan)?
    };
    for t in &got {
        println!("ticket {}", t.certificate.hashed_id8());
    }
    let pool = station.tickets(v2x_security::TaiTime::now(), Duration::ZERO)?.len();
    println!(
        "{}: {} new ticket(s), {pool} valid in the pool",
        station.its_id,
        got.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn cam(a: CamArgs) -> anyhow::Result<ExitCode> {
    let station = ItsStation::open(&a.station)?;
    let now = v2x_security::TaiTime::now();
    let ticket = station
        .tickets(now, Duration::ZERO)?
        .into_iter()
        .next()
        .ok_or_else(|| anyhow!("{}: no valid ticket (v2x pki authorise)", station.its_id))?;
    let store = v2x_security::load_trust_dir(&station.trust_dir())
        .with_context(|| format!("trust directory {}", station.trust_dir().display()))?;
    let aa = store
        .authority(&match ticket.certificate.issuer() {
            v2x_security::Issuer::Digest(_, id) => id,
            v2x_security::Issuer::SelfSigned(_) => bail!("a self-signed ticket"),
        })
        .cloned()
        .ok_or_else(|| anyhow!("the ticket's AA is not in the station's trust lists"))?;
    let mut entity = SecurityEntity::with_credentials(store, ticket, vec![aa]);
    let state = v2x_wire::facilities::VehicleState {
        station_id: 1,
        latitude: 481_370_000,
        longitude: 115_750_000,
        speed: 1389,
        heading: 900,
        altitude_cm: 52_000,
    };
    let payload = v2x_wire::facilities::encode_cam(&v2x_wire::facilities::passenger_car_cam(&state, 0, true))
        .map_err(|e| anyhow!("CAM: {e}"))?;
    let out = entity.encap(&EncapRequest::cam(&payload))?;
    std::fs::write(&a.out, &out.bytes).with_context(|| format!("writing {}", a.out.display()))?;
    println!(
        "CAM signed by ticket {} ({} bytes) -> {}",
        entity
            .signing_certificate()
            .map(|c| c.hashed_id8().to_string())
            .unwrap_or_default(),
        out.bytes.len(),
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&a.out)?;
    let plan = BenchPlan {
        server_exe: std::env::current_exe()?,
        stores: a.store,
        flows: a.flow,
        postgres_url: a.postgres_url,
        requests: a.requests,
        concurrency: a.concurrency,
        runs: a.runs,
        stations: a.stations,
        work: a.out.join("work"),
    };
    let (runs, summaries) = bench::run(&plan, |line| eprintln!("{line}"))?;
    let md = bench::markdown(&summaries);
    let json = serde_json::json!({
        "plan": {
            "requests": plan.requests, "concurrency": plan.concurrency, "runs": plan.runs,
            "stations": plan.stations, "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
            "p256_ops_per_response": plan.flows.iter().map(|f| (f.name(), f.p256_ops_per_response())).collect::<std::collections::BTreeMap<_, _>>(),
        },
        "summaries": summaries,
        "runs": runs,
    });
    std::fs::write(a.out.join("results.json"), serde_json::to_string_pretty(&json)?)?;
    std::fs::write(a.out.join("results.md"), &md)?;
    print!("{md}");
    println!("(results in {})", a.out.display());
    Ok(ExitCode::SUCCESS)
}
