//! The PRESERVE attack and privacy cases producible from the CLI (issue 11 must-show): an
//! unsigned CAM, a validly signed message for a PSID the signer is not permitted, signing
//! with a chosen pseudonym or the enrolment credential, an on-demand pseudonym change, and
//! a replay detected across runs. Each is produced with `v2x encap` and judged by
//! `v2x decap`, as in scenarios/preserve-cases.sh.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{p, text, v2x};

struct Lab {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    root: PathBuf,
}

impl Lab {
    fn new() -> Lab {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pki");
        let o = v2x(&["pki", "init", "--dir", p(&dir)]);
        assert!(o.status.success(), "{}", text(&o));
        // Three tickets: pseudonyms to choose from and to change to.
        let o = v2x(&["pki", "issue", "--dir", p(&dir), "--count", "2"]);
        assert!(o.status.success(), "{}", text(&o));
        std::fs::write(tmp.path().join("cam.bin"), b"cam").unwrap();
        Lab {
            root: tmp.path().to_path_buf(),
            dir,
            _tmp: tmp,
        }
    }
    /// `v2x encap` of the payload with extra options; the message path.
    fn encap(&self, name: &str, extra: &[&str]) -> (PathBuf, Output) {
        let out = self.root.join(name);
        let cam = self.root.join("cam.bin");
        let mut args = vec!["encap", "--pki", p(&self.dir), "--in", p(&cam), "--out", p(&out)];
        args.extend_from_slice(extra);
        let o = v2x(&args);
        (out, o)
    }
    fn decap_json(&self, msg: &Path, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
        let mut args = vec!["decap", "--trust", p(&self.dir), "--in", p(msg), "--json"];
        args.extend_from_slice(extra);
        let o = v2x(&args);
        let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(&o)));
        (o.status.code(), v)
    }
}

#[test]
fn an_unsigned_cam_is_produced_by_a_named_option_and_rejected() {
    let lab = Lab::new();
    let (msg, o) = lab.encap("unsigned.oer", &["--insecure-unsigned"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("warning: an --insecure-* option"));
    let (code, v) = lab.decap_json(&msg, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(v["reason"], "unsigned-message");
}

#[test]
fn a_validly_signed_non_permitted_psid_is_produced_by_a_named_option_and_rejected() {
    let lab = Lab::new();
    // PSID 140 (a GN management service) is not among the ticket's permissions.
    let (_, o) = lab.encap("refused.oer", &["--profile", "generic", "--psid", "140"]);
    assert!(!o.status.success(), "the sender refuses by default: {}", text(&o));
    // None of the station's tickets permits it (SN-ENCAP would otherwise switch to one
    // that does, F-SIG-05): nothing is signed.
    assert!(
        text(&o).contains("none of the station's 3 pseudonyms permits PSID 140"),
        "{}",
        text(&o)
    );
    let (msg, o) = lab.encap(
        "outside.oer",
        &[
            "--profile",
            "generic",
            "--psid",
            "140",
            "--insecure-sign-outside-permissions",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let (code, v) = lab.decap_json(&msg, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(v["reason"], "psid-not-permitted");
    // Validly signed: the signature alone verifies.
    let (code, _) = lab.decap_json(&msg, &["--signature-only"]);
    assert_eq!(code, Some(0));
}

fn signer(lab: &Lab, msg: &Path) -> String {
    let (code, v) = lab.decap_json(msg, &["--signature-only"]);
    assert_eq!(code, Some(0), "{v}");
    v["signer"].as_str().unwrap().to_string()
}

#[test]
fn signing_with_a_chosen_pseudonym_or_the_enrolment_credential() {
    let lab = Lab::new();
    let (m0, o) = lab.encap("p0.oer", &["--pseudonym", "0"]);
    assert!(o.status.success(), "{}", text(&o));
    let (m1, o) = lab.encap("p1.oer", &["--pseudonym", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_ne!(signer(&lab, &m0), signer(&lab, &m1));
    assert_eq!(lab.decap_json(&m1, &[]).0, Some(0), "a chosen ticket is a valid signer");
    let (_, o) = lab.encap("p99.oer", &["--pseudonym", "99"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("--pseudonym 99: station station-1 has"),
        "{}",
        text(&o)
    );
    // The enrolment credential: a CAM needs the named lab option (its only PSID is 623),
    // and a receiver rejects it.
    let (_, o) = lab.encap("ec.oer", &["--sign-with-enrolment-credential"]);
    assert!(!o.status.success(), "{}", text(&o));
    let (ec, o) = lab.encap(
        "ec.oer",
        &[
            "--sign-with-enrolment-credential",
            "--insecure-sign-outside-permissions",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let ec_cert = std::fs::read(lab.dir.join("stations/station-1/ec.oer")).unwrap();
    let ec_id = v2x_security::Certificate::from_bytes(&ec_cert)
        .unwrap()
        .hashed_id8()
        .to_string();
    assert_eq!(signer(&lab, &ec), ec_id);
    let (code, v) = lab.decap_json(&ec, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(v["reason"], "psid-not-permitted");
}

#[test]
fn an_on_demand_pseudonym_change_lasts_across_runs() {
    let lab = Lab::new();
    let (a, _) = lab.encap("a.oer", &[]);
    let (b, o) = lab.encap("b.oer", &["--change-pseudonym"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("pseudonym changed: "), "{}", text(&o));
    let (c, _) = lab.encap("c.oer", &[]);
    let (sa, sb, sc) = (signer(&lab, &a), signer(&lab, &b), signer(&lab, &c));
    assert_ne!(sa, sb, "the change takes effect at once");
    assert_eq!(sb, sc, "and lasts for later messages");
    assert_eq!(lab.decap_json(&c, &[]).0, Some(0));
    // The check below fails when the pki directory is damaged by the change.
    let o = v2x(&["pki", "check", "--dir", p(&lab.dir)]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_replay_is_detected_across_runs() {
    let lab = Lab::new();
    let (m, _) = lab.encap("m.oer", &[]);
    let state = lab.root.join("receiver");
    assert_eq!(lab.decap_json(&m, &["--state", p(&state)]).0, Some(0));
    let (code, v) = lab.decap_json(&m, &["--state", p(&state)]);
    assert_eq!(code, Some(1));
    assert_eq!(v["reason"], "duplicate-message");
}

/// The runnable example in scenarios/ shows each case with the expected verdict.
#[test]
fn the_preserve_cases_script_runs_and_shows_each_verdict() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/preserve-cases.sh");
    let o = Command::new("sh")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_v2x"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let reasons: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            if l.contains("\"accepted\": true") {
                "accepted"
            } else {
                l.split("\"reason\": \"").nth(1).unwrap().split('"').next().unwrap()
            }
        })
        .collect();
    assert_eq!(
        reasons,
        [
            "unsigned-message",
            "psid-not-permitted",
            "accepted",
            "accepted",
            "psid-not-permitted",
            "accepted",
            "accepted",
            "accepted",
            "accepted",
            "duplicate-message"
        ],
        "{out}"
    );
}
