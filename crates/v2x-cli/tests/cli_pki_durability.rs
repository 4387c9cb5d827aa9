//! Issue 11, defect 4: the PKI directory loses nothing — not on a full disk, not when a
//! command is killed, not when tickets are deleted, not with two commands at once, not when
//! `pki.toml` is missing — and `v2x pki check` names the damage done from outside.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use v2x_security::{Pki, PkiConfig, TaiTime, TicketSpec};

mod common;
use common::{p, text, v2x};

fn init(dir: &Path) {
    let o = v2x(&["pki", "init", "--dir", p(dir)]);
    assert!(o.status.success(), "{}", text(&o));
}

fn check(dir: &Path) -> Output {
    v2x(&["pki", "check", "--dir", p(dir)])
}

/// Every ticket of every station loads and its keys are its own.
fn all_tickets_pair(dir: &Path) -> usize {
    let pki = Pki::open(dir).unwrap();
    let mut n = 0;
    for s in pki.stations() {
        for t in pki.tickets(&s).unwrap() {
            assert_eq!(t.signing_key.public_key(), t.certificate.verification_key());
            if let Some(k) = &t.encryption_key {
                assert_eq!(Some(k.public_key()), t.certificate.encryption_key());
            }
            n += 1;
        }
    }
    n
}

/// `pki revoke` on a full disk (a 1 MiB tmpfs filled up, in a private mount namespace):
/// the command fails with the system's reason and `crl.oer` and `pki.toml` are untouched.
/// The CRL is first grown so that the new one needs one more page than the old one freed
/// (the old code's truncate-then-write only failed then). Needs root and `unshare`; says
/// so and returns where they are missing (the same failure is injected below the file
/// system by the unit test `durable::a_failed_replace_leaves_the_old_file_and_no_temporary`).
#[test]
fn revoke_on_a_full_disk_keeps_the_crl() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    let mut pki = Pki::init(&dir, PkiConfig::default(), "car").unwrap();
    let spec = TicketSpec::new(&[v2x_security::ItsAid::CAM], Duration::from_secs(3600));
    let aa = pki.aa().clone();
    let curve = pki.config().curve;
    let fresh = || v2x_security::authority::issue_ticket(&aa, &spec, TaiTime::now(), curve).unwrap();
    let size = |d: &Path| std::fs::metadata(d.join("crl.oer")).unwrap().len();
    let mut last = size(&dir);
    loop {
        pki.revoke(&fresh().certificate).map_err(|e| format!("{e:?}")).unwrap();
        let n = size(&dir);
        let entry = n - last;
        last = n;
        if n + entry > 4096 {
            break;
        }
    }
    let cert = tmp.path().join("one-more.oer");
    std::fs::write(&cert, fresh().certificate.encoded()).unwrap();
    let mnt = tmp.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let script = format!(
        "mount -t tmpfs -o size=1m tmpfs {m} || exit 77; cp -a {d} {m}/pki || exit 3; \
         dd if=/dev/zero of={m}/fill bs=4k 2>/dev/null; \
         {v2x} pki revoke --dir {m}/pki --cert {c}; echo \"revoke exit $?\"; \
         cp {m}/pki/crl.oer {t}/crl-after.oer; cp {m}/pki/pki.toml {t}/pki-after.toml; \
         rm {m}/fill; {v2x} pki check --dir {m}/pki; echo \"check exit $?\"",
        m = p(&mnt),
        d = p(&dir),
        v2x = env!("CARGO_BIN_EXE_v2x"),
        c = p(&cert),
        t = p(tmp.path())
    );
    let o = match Command::new("unshare").args(["-m", "sh", "-c", &script]).output() {
        Ok(o) if o.status.code() != Some(77) && o.status.code() != Some(1) => o,
        other => {
            eprintln!("SKIPPED: no private tmpfs mount here (needs root and unshare): {other:?}");
            return;
        }
    };
    let out = text(&o);
    assert!(out.contains("No space left on device"), "{out}");
    assert!(out.contains("revoke exit 2"), "{out}");
    assert!(out.contains("no damage") && out.contains("check exit 0"), "{out}");
    assert_eq!(
        std::fs::read(tmp.path().join("crl-after.oer")).unwrap(),
        std::fs::read(dir.join("crl.oer")).unwrap(),
        "crl.oer changed"
    );
    assert_eq!(
        std::fs::read(tmp.path().join("pki-after.toml")).unwrap(),
        std::fs::read(dir.join("pki.toml")).unwrap()
    );
}

/// `pki issue` killed (SIGKILL) at different moments: every ticket on disk has its keys,
/// nothing is half-written, and the next issue goes on with new numbers. What a kill may
/// leave — a key whose certificate was not written yet, a temporary file, the counter not
/// yet moved — is named by `pki check` and harms nothing.
#[test]
fn a_killed_issue_leaves_no_ticket_without_its_key() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    init(&dir);
    for delay_ms in [150, 300, 450, 600, 900] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_v2x"))
            .args(["pki", "issue", "--dir", p(&dir), "--count", "100000"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap();
        child.wait().unwrap();
        let before = all_tickets_pair(&dir);
        assert!(before >= 1);
        let o = check(&dir);
        eprintln!("killed after {delay_ms} ms, {before} tickets: {}", text(&o));
        for line in text(&o).lines().filter(|l| l.starts_with("damage:")) {
            assert!(
                line.contains("without its certificate")
                    || line.contains("temporary file")
                    || line.contains("is behind the files"),
                "a kill may not cause: {line}"
            );
        }
        let o = v2x(&["pki", "issue", "--dir", p(&dir), "--count", "2"]);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(all_tickets_pair(&dir), before + 2);
    }
}

/// A key file left by an interrupted issue takes its number: the next issue neither
/// overwrites it nor writes a certificate beside it, and goes on with the next number.
#[test]
fn a_ticket_number_whose_key_exists_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    init(&dir);
    let t = dir.join("stations/station-1/tickets");
    std::fs::write(t.join("at-0001.pem"), b"left by an interrupted issue").unwrap();
    let o = v2x(&["pki", "issue", "--dir", p(&dir)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!t.join("at-0001.oer").exists());
    assert!(t.join("at-0002.oer").exists() && t.join("at-0002.pem").exists());
    assert_eq!(
        std::fs::read(t.join("at-0001.pem")).unwrap(),
        b"left by an interrupted issue"
    );
    assert_eq!(all_tickets_pair(&dir), 2);
    let o = check(&dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("at-0001.pem: a private key without its certificate"),
        "{}",
        text(&o)
    );
}

/// Deleting tickets never makes the next issue overwrite one: numbers come from the
/// counter in pki.toml and from the files, whichever is further.
#[test]
fn ticket_numbers_are_never_reused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    init(&dir);
    assert!(v2x(&["pki", "issue", "--dir", p(&dir), "--count", "2"])
        .status
        .success());
    let t = dir.join("stations/station-1/tickets");
    let at2 = std::fs::read(t.join("at-0002.oer")).unwrap();
    let rm = |stem: &str| {
        for ext in ["oer", "pem", "enc.pem"] {
            std::fs::remove_file(t.join(format!("{stem}.{ext}"))).unwrap();
        }
    };
    rm("at-0000");
    assert!(v2x(&["pki", "issue", "--dir", p(&dir)]).status.success());
    assert_eq!(
        std::fs::read(t.join("at-0002.oer")).unwrap(),
        at2,
        "at-0002 overwritten"
    );
    assert!(t.join("at-0003.oer").exists());
    // The newest deleted: its number is not handed out again either.
    rm("at-0003");
    assert!(v2x(&["pki", "issue", "--dir", p(&dir)]).status.success());
    assert!(!t.join("at-0003.oer").exists() && t.join("at-0004.oer").exists());
    assert_eq!(all_tickets_pair(&dir), 3);
    let o = check(&dir);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// Two commands at once: the second is refused while the first holds the lock (never
/// mixed); whatever succeeded is on disk, every key with its certificate.
#[test]
fn concurrent_commands_are_refused_not_mixed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    init(&dir);
    let issue = || {
        Command::new(env!("CARGO_BIN_EXE_v2x"))
            .args(["pki", "issue", "--dir", p(&dir), "--count", "40"])
            .output()
            .unwrap()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(issue);
        let b = s.spawn(issue);
        (a.join().unwrap(), b.join().unwrap())
    });
    let mut issued = 1;
    for o in [&a, &b] {
        if o.status.success() {
            issued += 40;
        } else {
            assert_eq!(o.status.code(), Some(2));
            assert!(text(o).contains("held by another process"), "{}", text(o));
        }
    }
    assert_eq!(all_tickets_pair(&dir), issued);

    // Deterministically: while the lock is held, issue, revoke and refresh are refused.
    let lock = v2x_security::durable::DirLock::acquire(&dir).unwrap();
    let ticket = dir.join("stations/station-1/tickets/at-0000.oer");
    for args in [
        vec!["pki", "issue", "--dir", p(&dir)],
        vec!["pki", "revoke", "--dir", p(&dir), "--cert", p(&ticket)],
        vec!["pki", "refresh-crl", "--dir", p(&dir)],
    ] {
        let o = v2x(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o).contains(".lock is held by another process"), "{}", text(&o));
    }
    drop(lock);
    assert!(v2x(&["pki", "refresh-crl", "--dir", p(&dir)]).status.success());
}

/// `pki init` never writes into a directory that holds anything: CA keys whose pki.toml
/// was lost survive; an empty directory is fine.
#[test]
fn init_never_overwrites_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    init(&dir);
    let root_key = std::fs::read(dir.join("root/key.pem")).unwrap();
    std::fs::remove_file(dir.join("pki.toml")).unwrap();
    let o = v2x(&["pki", "init", "--dir", p(&dir)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("is not empty") && text(&o).contains("pki check"),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read(dir.join("root/key.pem")).unwrap(), root_key);
    let o = check(&dir);
    assert!(text(&o).contains("pki.toml missing"), "{}", text(&o));

    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    init(&empty);
    assert_eq!(check(&empty).status.code(), Some(0));
    // Nothing is left beside the target.
    let leftovers: Vec<PathBuf> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// One kind of damage per copy of a PKI; `pki check` names each with its file and exits 1.
#[test]
fn check_names_each_kind_of_damage() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good");
    init(&good);
    assert!(v2x(&["pki", "issue", "--dir", p(&good), "--count", "2"])
        .status
        .success());
    assert!(v2x(&[
        "encap",
        "--format",
        "v1.2.1",
        "--pki",
        p(&good),
        "--in",
        p(&good.join("pki.toml")),
        "--out",
        "/dev/null"
    ])
    .status
    .success());
    let other = tmp.path().join("other");
    init(&other);
    let o = check(&good);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("no damage"), "{}", text(&o));

    type Damage = fn(&Path, &Path);
    let cases: Vec<(&str, Damage, &str)> = vec![
        (
            "missing key",
            |d, _| std::fs::remove_file(d.join("stations/station-1/tickets/at-0001.pem")).unwrap(),
            "at-0001.pem: private key missing",
        ),
        (
            "swapped keys",
            |d, _| {
                let t = d.join("stations/station-1/tickets");
                std::fs::copy(t.join("at-0002.pem"), t.join("at-0001.pem")).unwrap();
            },
            "at-0001.pem: the private key does not belong to the certificate",
        ),
        (
            "foreign ticket",
            |d, o| {
                let t = d.join("stations/station-1/tickets");
                for ext in ["oer", "pem", "enc.pem"] {
                    std::fs::remove_file(t.join(format!("at-0002.{ext}"))).unwrap();
                    std::fs::copy(
                        o.join(format!("stations/station-1/tickets/at-0000.{ext}")),
                        t.join(format!("at-0002.{ext}")),
                    )
                    .unwrap();
                }
            },
            "at-0002.oer: not issued by the AA",
        ),
        (
            "orphan key",
            |d, _| std::fs::remove_file(d.join("stations/station-1/tickets/at-0002.oer")).unwrap(),
            "at-0002.pem: a private key without its certificate",
        ),
        (
            "missing CRL",
            |d, _| std::fs::remove_file(d.join("crl.oer")).unwrap(),
            "crl.oer: CRL missing",
        ),
        (
            "foreign CRL",
            |d, o| {
                std::fs::copy(o.join("crl.oer"), d.join("crl.oer")).unwrap();
            },
            "crl.oer: the CRL does not verify with the root",
        ),
        (
            "rolled-back CRL",
            |d, _| {
                let old = std::fs::read(d.join("crl.oer")).unwrap();
                let o = v2x(&["pki", "refresh-crl", "--dir", p(d)]);
                assert!(o.status.success());
                std::fs::write(d.join("crl.oer"), old).unwrap();
            },
            "CRL serial 1 is older than serial 2",
        ),
        (
            "counter behind",
            |d, _| {
                let t = std::fs::read_to_string(d.join("pki.toml")).unwrap();
                std::fs::write(d.join("pki.toml"), t.replace("station-1 = 3", "station-1 = 1")).unwrap();
            },
            "next_ticket.station-1 = 1 is behind the files (3)",
        ),
        (
            "readable key",
            |d, _| {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(d.join("aa/key.pem"), std::fs::Permissions::from_mode(0o644)).unwrap();
            },
            "aa/key.pem: private key with mode 0644",
        ),
        (
            "temporary file",
            |d, _| std::fs::write(d.join(".crl.oer.tmp-123-0"), b"half").unwrap(),
            ".crl.oer.tmp-123-0: temporary file",
        ),
        (
            "EA from another PKI",
            |d, o| {
                for f in ["cert.oer", "key.pem"] {
                    std::fs::remove_file(d.join("ea").join(f)).unwrap();
                    std::fs::copy(o.join("ea").join(f), d.join("ea").join(f)).unwrap();
                }
            },
            "ea/cert.oer: not issued by the root CA",
        ),
        (
            "v1.2.1 key replaced",
            |d, _| {
                let v = d.join("v1.2.1/stations/station-1");
                std::fs::copy(d.join("v1.2.1/root.key"), v.join("at.key")).unwrap();
            },
            "v1.2.1/stations/station-1/at.cert: unreadable",
        ),
    ];
    for (name, damage, want) in cases {
        let copy = tmp.path().join(name.replace(' ', "-"));
        let o = Command::new("cp").args(["-a", p(&good), p(&copy)]).output().unwrap();
        assert!(o.status.success());
        damage(&copy, &other);
        let o = check(&copy);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o));
        assert!(text(&o).contains(want), "{name}: expected {want:?} in\n{}", text(&o));
    }
    // An expired CRL, checked as of two weeks from now.
    let later = time::OffsetDateTime::now_utc() + time::Duration::days(14);
    let at = later.format(&time::format_description::well_known::Rfc3339).unwrap();
    let o = v2x(&["pki", "check", "--dir", p(&good), "--at", &at, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["problem"] == "crl-expired"),
        "{v}"
    );
}
