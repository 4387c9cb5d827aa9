//! Issue 28 item 6, end to end: each cause printed once, a missing profile names
//! `v2x bench`, `--out` checked before the simulation runs, and `decap` exit codes as the
//! README states them (malformed input 2, a rejection 1) with hex input read as `inspect`
//! reads it.

use std::path::Path;
use std::time::Instant;

mod common;
use common::{lossy, p, repo, v2x};

fn stderr(o: &std::process::Output) -> String {
    lossy(&o.stderr)
}

/// No line of `err` says the same cause twice, and there is one `error:`.
fn said_once(err: &str) {
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    assert!(err.matches("os error 2").count() <= 1, "{err}");
}

#[test]
fn a_missing_file_is_said_once() {
    let o = v2x(&["sim", "/nonexistent/scenario.toml", "--out", "/tmp/unused"]);
    assert_eq!(o.status.code(), Some(2));
    said_once(&stderr(&o));
}

#[test]
fn a_missing_profile_is_said_once_with_the_command_that_makes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = tmp.path().join("s.toml");
    std::fs::write(
        &scenario,
        "name = \"p\"\nduration_s = 2.0\n[mobility]\nkind = \"highway\"\nlength_m = 200.0\n\
         [[variant]]\nname = \"e\"\nprotocol = \"ieee1609.2\"\nprofile = \"bench/profile.json\"\n",
    )
    .unwrap();
    let o = v2x(&["sim", p(&scenario), "--out", p(&tmp.path().join("out"))]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    said_once(&err);
    assert_eq!(err.matches("profile.json").count(), 1, "{err}");
    assert!(
        err.contains("does not exist") && err.contains("v2x bench --suite stack,protocols --out"),
        "{err}"
    );
}

#[test]
fn out_is_checked_before_the_simulation() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    // A long scenario: an --out refused after the run would take many seconds.
    let scenario = repo("scenarios/demo-urban-grid.toml");
    let started = Instant::now();
    let o = v2x(&["sim", p(&scenario), "--out", p(&file), "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a-file"), "{}", stderr(&o));
    let below_file = file.join("out");
    let o = v2x(&["sim", p(&scenario), "--out", p(&below_file), "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(started.elapsed().as_secs() < 20, "refused only after running");
    #[cfg(unix)]
    if !running_as_root() {
        use std::os::unix::fs::PermissionsExt;
        let locked = tmp.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o500)).unwrap();
        let o = v2x(&["sim", p(&scenario), "--out", p(&locked), "--quiet"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("not writable"), "{}", stderr(&o));
    }
}

/// Root writes anywhere: the unwritable folder is checked as another user only.
#[cfg(unix)]
fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

fn pki_and_cam(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let pki = dir.join("pki");
    let o = v2x(&["pki", "init", "--dir", p(&pki)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let payload = dir.join("payload");
    std::fs::write(&payload, b"hello cam").unwrap();
    let cam = dir.join("cam.oer");
    let o = v2x(&[
        "encap",
        "--pki",
        p(&pki),
        "--profile",
        "cam",
        "--in",
        p(&payload),
        "--out",
        p(&cam),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    (pki, cam)
}

#[test]
fn decap_exit_codes_follow_the_readme() {
    let tmp = tempfile::tempdir().unwrap();
    let (pki, cam) = pki_and_cam(tmp.path());
    // Garbage (text, whose first byte read as a protocol version is 116): malformed, 2.
    let garbage = tmp.path().join("garbage");
    std::fs::write(&garbage, b"this is not a secured message\n").unwrap();
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&garbage)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("malformed input"), "{}", stderr(&o));
    // A well-formed message of another protocol version: a rejection, 1.
    let mut v4 = std::fs::read(&cam).unwrap();
    v4[0] = 4;
    let v4_file = tmp.path().join("v4.oer");
    std::fs::write(&v4_file, &v4).unwrap();
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&v4_file)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(lossy(&o.stdout).contains("incompatible-protocol"));
    // The CAM as hex text, as `inspect` and `decap --batch` read it: accepted.
    let hex_file = tmp.path().join("cam.hex");
    std::fs::write(&hex_file, format!("{}\n", hex::encode(std::fs::read(&cam).unwrap()))).unwrap();
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&hex_file)]);
    assert_eq!(o.status.code(), Some(0), "{}{}", lossy(&o.stdout), stderr(&o));
    assert_eq!(o.stdout, b"hello cam");
}
