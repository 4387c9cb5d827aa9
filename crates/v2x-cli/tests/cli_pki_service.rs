//! Issue 34 end to end with the `v2x` binary: the one-liner (service on SQLite, a station
//! enrols, obtains 20 tickets and sends a CAM that another station verifies), a service killed
//! again and again while a station asks for tickets (no ticket lost, none issued twice), a
//! full disk (a clear 503, nothing half-written, and service again once there is room).

mod common;

use common::{p, text, v2x, v2x_command};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use v2x_pki_service::client::HttpClient;
use v2x_pki_service::its_station::{ItsError, ItsStation, PoolPlan};
use v2x_pki_service::store::{sqlite::SqliteStore, Store};
use v2x_security::TaiTime;

struct Serve {
    child: Child,
    url: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path, listen: &str) -> Serve {
    let ready = dir.with_extension(format!("ready-{}", std::process::id()));
    let _ = std::fs::remove_file(&ready);
    // Owned by the guard at once, so a service that never gets ready is still killed.
    let mut server = Serve {
        child: v2x_command()
            .args([
                "pki",
                "serve",
                "--dir",
                p(dir),
                "--listen",
                listen,
                "--ready-file",
                p(&ready),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
        url: String::new(),
    };
    let t0 = Instant::now();
    loop {
        if let Ok(u) = std::fs::read_to_string(&ready) {
            if !u.trim().is_empty() {
                server.url = u.trim().to_string();
                return server;
            }
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "v2x pki serve did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn ok(args: &[&str]) -> String {
    let o = v2x(args);
    assert!(o.status.success(), "v2x {}: {}", args.join(" "), text(&o));
    text(&o)
}

#[test]
fn the_one_liner_enrols_obtains_twenty_tickets_and_another_station_verifies_its_cam() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = tmp.path().join("svc");
    let server = serve(&svc, "127.0.0.1:0");
    let (st1, st2) = (tmp.path().join("car-1"), tmp.path().join("car-2"));
    ok(&["pki", "register", "--dir", p(&svc), "--station", p(&st1)]);
    ok(&["pki", "register", "--dir", p(&svc), "--station", p(&st2)]);
    let out = ok(&["pki", "enrol", "--ea", &server.url, "--station", p(&st1)]);
    assert!(out.contains("car-1 enrolled"), "{out}");
    let out = ok(&[
        "pki",
        "authorise",
        "--aa",
        &server.url,
        "--station",
        p(&st1),
        "--count",
        "20",
    ]);
    assert!(out.contains("20 new ticket(s), 20 valid"), "{out}");
    ok(&["pki", "enrol", "--ea", &server.url, "--station", p(&st2)]);
    let cam = tmp.path().join("cam.oer");
    ok(&["pki", "cam", "--station", p(&st1), "--out", p(&cam)]);
    let o = v2x(&["decap", "--trust", p(&st2.join("trust")), "--in", p(&cam)]);
    assert!(o.status.success(), "{}", text(&o));
    // Re-enrolment with the EC; a revoked station is refused with the standard's code.
    let out = ok(&["pki", "enrol", "--ea", &server.url, "--station", p(&st1)]);
    assert!(out.contains("re-enrolled"), "{out}");
    ok(&["pki", "revoke-station", "--dir", p(&svc), "--its-id", "car-2"]);
    let o = v2x(&["pki", "enrol", "--ea", &server.url, "--station", p(&st2)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("baditsstatus"), "{}", text(&o));
}

#[test]
fn a_killed_service_loses_no_ticket_and_issues_none_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = tmp.path().join("svc");
    let listen = format!("127.0.0.1:{}", free_port());
    let mut server = serve(&svc, &listen);
    let st = tmp.path().join("car");
    ok(&["pki", "register", "--dir", p(&svc), "--station", p(&st)]);
    ok(&["pki", "enrol", "--ea", &server.url, "--station", p(&st)]);
    let url = server.url.clone();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (received, errors) = std::thread::scope(|s| {
        let client = s.spawn(|| {
            let station = ItsStation::open(&st).unwrap();
            let http = HttpClient::new(Duration::from_secs(10));
            let mut received = Vec::new();
            let mut errors = 0;
            let mut authorities = None;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let a = match &authorities {
                    Some(a) => a,
                    None => match station.refresh_trust(&http, &url) {
                        Ok(a) => authorities.insert(a),
                        Err(_) => continue,
                    },
                };
                match station.obtain(&http, a, 1, &PoolPlan::new(1, 1)) {
                    Ok(t) => received.extend(t.into_iter().map(|c| c.certificate.hashed_id8())),
                    Err(ItsError::Http(e)) if e.is_transient() => {
                        errors += 1;
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    Err(e) => panic!("{e}"),
                }
            }
            (received, errors)
        });
        for kill in 0..6 {
            std::thread::sleep(Duration::from_millis(300 + 170 * kill));
            // SIGKILL: no shutdown, no flush, as a crash.
            server.child.kill().unwrap();
            server.child.wait().unwrap();
            std::thread::sleep(Duration::from_millis(100));
            server = serve(&svc, &listen);
        }
        std::thread::sleep(Duration::from_millis(500));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        client.join().unwrap()
    });
    drop(server);
    eprintln!(
        "{} tickets received, {errors} transient errors while killed",
        received.len()
    );
    assert!(received.len() > 5, "too few tickets to test anything");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (integrity, stored) = rt.block_on(async {
        let s = SqliteStore::open(&svc.join("pki.db")).await.unwrap();
        (s.integrity_check().await.unwrap(), s.issued_tickets().await.unwrap())
    });
    assert_eq!(integrity, "ok");
    let stored_ids: std::collections::BTreeSet<_> = stored.iter().map(|(id, _)| *id).collect();
    assert_eq!(stored_ids.len(), stored.len(), "a ticket stored twice");
    for id in &received {
        assert!(stored_ids.contains(id), "ticket {id} was delivered but is not stored");
    }
    let on_disk = ItsStation::open(&st)
        .unwrap()
        .tickets(TaiTime::now(), Duration::ZERO)
        .unwrap()
        .len();
    assert_eq!(on_disk, received.len());
    // Issued but never delivered (killed between commit and answer) is allowed: stored, not lost.
    eprintln!("{} stored, {} delivered", stored.len(), received.len());
    for (id, cert) in stored {
        let c = v2x_security::Certificate::from_bytes(&cert).unwrap();
        assert_eq!(c.hashed_id8(), id);
    }
}

/// The service's store on a 1 MiB tmpfs that is filled up (in a private mount namespace:
/// needs root and `unshare`, says so and returns where they are missing).
#[test]
fn a_full_disk_gives_a_clear_503_and_no_half_written_state() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = tmp.path().join("svc");
    let st = tmp.path().join("car");
    {
        let server = serve(&svc, "127.0.0.1:0");
        ok(&["pki", "register", "--dir", p(&svc), "--station", p(&st)]);
        ok(&["pki", "enrol", "--ea", &server.url, "--station", p(&st)]);
        ok(&[
            "pki",
            "authorise",
            "--aa",
            &server.url,
            "--station",
            p(&st),
            "--count",
            "2",
        ]);
    }
    let port = free_port();
    let mnt = tmp.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let go = tmp.path().join("go");
    let out = tmp.path().join("after");
    std::fs::create_dir(&out).unwrap();
    let ready = tmp.path().join("ready");
    let script = format!(
        "mount -t tmpfs -o size=1m tmpfs {m} || exit 77; cp -a {svc} {m}/svc || exit 3; \
         {v2x} pki serve --dir {m}/svc --listen 127.0.0.1:{port} --ready-file {m}/ready & pid=$!; \
         while [ ! -s {m}/ready ]; do sleep 0.1; done; \
         dd if=/dev/zero of={m}/fill bs=4k 2>/dev/null; cp {m}/ready {ready}; \
         while [ ! -e {go} ]; do sleep 0.1; done; kill -9 $pid; wait $pid; \
         rm {m}/fill; cp {m}/svc/pki.db* {out}/; echo copied",
        m = p(&mnt),
        svc = p(&svc),
        v2x = env!("CARGO_BIN_EXE_v2x"),
        ready = p(&ready),
        go = p(&go),
        out = p(&out),
    );
    let mut child = match std::process::Command::new("unshare")
        .args(["-m", "sh", "-c", &script])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("SKIPPED: no unshare here: {e}");
            return;
        }
    };
    let t0 = Instant::now();
    while std::fs::read_to_string(&ready)
        .map(|s| s.trim().is_empty())
        .unwrap_or(true)
    {
        if let Ok(Some(status)) = child.try_wait() {
            eprintln!("SKIPPED: no private tmpfs mount here (needs root and unshare): {status}");
            return;
        }
        assert!(t0.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = std::fs::read_to_string(&ready).unwrap().trim().to_string();
    let station = ItsStation::open(&st).unwrap();
    let http = HttpClient::new(Duration::from_secs(10));
    let authorities = station.refresh_trust(&http, &url).unwrap();
    let (mut full, mut other) = (0, Vec::new());
    for _ in 0..20 {
        match station.obtain(&http, &authorities, 1, &PoolPlan::new(1, 1)) {
            Err(ItsError::Http(v2x_pki_service::client::HttpError::Status {
                status: 503, reason, ..
            })) if reason.contains("full") => full += 1,
            Ok(_) => {}
            Err(e) => other.push(e.to_string()),
        }
    }
    std::fs::write(&go, b"").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(text(&o).contains("copied"), "{}", text(&o));
    assert!(other.is_empty(), "{other:#?}\n{}", text(&o));
    assert!(full > 0, "the disk never filled");
    // The copy taken after the failures: intact, and holding exactly the delivered tickets.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (integrity, stored) = rt.block_on(async {
        let s = SqliteStore::open(&out.join("pki.db")).await.unwrap();
        (s.integrity_check().await.unwrap(), s.issued_tickets().await.unwrap())
    });
    assert_eq!(integrity, "ok");
    let delivered = station.tickets(TaiTime::now(), Duration::ZERO).unwrap();
    assert_eq!(
        stored.len(),
        delivered.len(),
        "stored vs delivered after {full} full-disk refusals"
    );
}

#[test]
fn the_benchmark_times_both_flows_and_checks_every_response() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("bench");
    let table = ok(&[
        "pki",
        "bench",
        "--store",
        "sqlite",
        "--requests",
        "12",
        "--runs",
        "2",
        "--stations",
        "3",
        "--concurrency",
        "4",
        "--out",
        p(&out),
    ]);
    assert!(table.contains("| sqlite | enrolment |"), "{table}");
    assert!(table.contains("| sqlite | authorization |"), "{table}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    for r in runs {
        // Every response read back, decrypted and its certificate verified.
        assert_eq!((r["ok"].as_u64(), r["failed"].as_u64()), (Some(12), Some(0)), "{r}");
    }
    assert_eq!(json["plan"]["p256_ops_per_response"]["enrolment"], 5);
    let o = v2x(&["pki", "bench", "--flow", "enrol"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("give enrolment, authorization"), "{}", text(&o));
}
