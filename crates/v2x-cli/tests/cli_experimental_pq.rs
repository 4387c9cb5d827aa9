//! `v2x pki init / encap / decap --experimental-pq DESIGN` end to end: every design round
//! trips through the binary, the receiver's design is its policy (a design lacking a part of
//! its signature, a standard message and a stripped hybrid are refused as downgrade-refused,
//! other designs as incompatible-protocol), tampering and replays are rejected by reason, and
//! scenarios/post-quantum.sh shows each verdict.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{p, text, v2x};

const DESIGNS: [&str; 5] = [
    "experimental-pq-only-ml-dsa-44",
    "experimental-pq-only-fn-dsa-512",
    "experimental-composite-ml-dsa-44",
    "experimental-composite-fn-dsa-512",
    "experimental-partially-hybrid-ndss2024",
];

/// An RFC 3339 time `after_us` after the generation time of the CAM in `msg` (the last 8
/// bytes of its ToBeSignedData), so that verdicts do not depend on how loaded the machine is.
fn at(msg: &Path, after_us: u64) -> String {
    let m = v2x_wire::experimental_pq::PqSecuredMessage::decode(&std::fs::read(msg).unwrap()).unwrap();
    let t = u64::from_be_bytes(m.tbs[m.tbs.len() - 8..].try_into().unwrap());
    v2x_wire::tai::TaiTime(t + after_us).to_rfc3339()
}

struct Lab {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    pki: PathBuf,
}

impl Lab {
    fn new(designs: &[&str]) -> Lab {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let pki = root.join("pki");
        let mut args = vec!["pki", "init", "--dir", p(&pki)];
        for d in designs {
            args.extend(["--experimental-pq", d]);
        }
        let o = v2x(&args);
        assert!(o.status.success(), "{}", text(&o));
        std::fs::write(root.join("cam.bin"), b"pq cam").unwrap();
        Lab { _tmp: tmp, root, pki }
    }

    fn encap(&self, design: Option<&str>, out: &str) -> PathBuf {
        let msg = self.root.join(out);
        let payload = self.root.join("cam.bin");
        let mut args = vec!["encap", "--pki", p(&self.pki), "--in", p(&payload), "--out", p(&msg)];
        if let Some(d) = design {
            args.extend(["--experimental-pq", d]);
        }
        let o = v2x(&args);
        assert!(o.status.success(), "{}", text(&o));
        msg
    }

    /// `decap --json` judged 1 ms after `msg`'s generation time.
    fn decap(&self, design: &str, msg: &Path) -> (Option<i32>, serde_json::Value, Output) {
        self.decap_at(design, msg, &at(msg, 1_000))
    }

    /// `decap --json` judged at `when` (RFC 3339).
    fn decap_at(&self, design: &str, msg: &Path, when: &str) -> (Option<i32>, serde_json::Value, Output) {
        let args = [
            "decap",
            "--trust",
            p(&self.pki),
            "--experimental-pq",
            design,
            "--json",
            "--in",
            p(msg),
            "--at",
            when,
        ];
        let o = v2x(&args);
        let v = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
        (o.status.code(), v, o)
    }
}

#[test]
fn every_design_round_trips_and_the_receivers_design_is_its_policy() {
    let lab = Lab::new(&DESIGNS);
    let mut msgs = Vec::new();
    for d in DESIGNS {
        assert!(lab.pki.join("experimental-pq").join(d).join("root.cert").is_file());
        let m = lab.encap(Some(d), &format!("{d}.msg"));
        assert_eq!(std::fs::read(&m).unwrap()[0], 0xE1, "{d}: the experimental format");
        let (code, v, o) = lab.decap(d, &m);
        assert_eq!(code, Some(0), "{d}: {}", text(&o));
        assert_eq!(v["accepted"], true);
        assert_eq!(v["design"], d);
        assert_eq!(v["payload_hex"], hex::encode(b"pq cam"));
        assert_eq!(v["psid"], 36);
        msgs.push(m);
    }
    // The payload alone without --json.
    let o = v2x(&[
        "decap",
        "--trust",
        p(&lab.pki),
        "--experimental-pq",
        DESIGNS[0],
        "--in",
        p(&msgs[0]),
        "--at",
        &at(&msgs[0], 1_000),
    ]);
    assert_eq!(o.stdout, b"pq cam");
    // Every other design's message is refused by a receiver of this one: as a downgrade when
    // its message signature lacks a part the receiver's has (post-quantum, or the classical
    // part of a hybrid), as incompatible otherwise. Parts of each design's message signature:
    let parts = |d: &str| match d {
        _ if d.contains("pq-only") => (true, false),
        _ if d.contains("composite") => (true, true),
        _ => (false, true),
    };
    for (i, d) in DESIGNS.iter().enumerate() {
        for (j, m) in msgs.iter().enumerate() {
            if i == j {
                continue;
            }
            let (want, got) = (parts(d), parts(DESIGNS[j]));
            let expected = if (want.0 && !got.0) || (want.1 && !got.1) {
                "downgrade-refused"
            } else {
                "incompatible-protocol"
            };
            let (code, v, _) = lab.decap(d, m);
            assert_eq!(code, Some(1));
            assert_eq!(v["reason"], expected, "{d} receiving {}", DESIGNS[j]);
            assert_eq!(v["step"], "content");
        }
    }
    // A standard 1609.2 CAM of the same PKI: classical only, refused under any design.
    let standard = lab.encap(None, "standard.oer");
    let (code, v, _) = lab.decap_at(DESIGNS[2], &standard, &at(&msgs[2], 1_000));
    assert_eq!((code, v["reason"].as_str()), (Some(1), Some("downgrade-refused")));
}

#[test]
fn stripped_tampered_and_replayed_messages_are_rejected_by_reason() {
    let composite = "experimental-composite-fn-dsa-512";
    let lab = Lab::new(&[composite]);
    let m = lab.encap(Some(composite), "m.msg");
    let good = std::fs::read(&m).unwrap();
    // The composite signature without its FN-DSA-512 part (the last 666 bytes), lengths fixed.
    let msg = v2x_wire::experimental_pq::PqSecuredMessage::decode(&good).unwrap();
    let mut stripped = msg.clone();
    stripped.signature.bytes.truncate(64);
    let s = lab.root.join("stripped.msg");
    std::fs::write(&s, stripped.encode().unwrap()).unwrap();
    let (code, v, _) = lab.decap_at(composite, &s, &at(&m, 1_000));
    assert_eq!((code, v["reason"].as_str()), (Some(1), Some("downgrade-refused")));
    // One flipped bit in the post-quantum part of the signature (its last 666 bytes).
    let mut flipped = good.clone();
    let n = flipped.len();
    flipped[n - 300] ^= 1;
    let f = lab.root.join("flipped.msg");
    std::fs::write(&f, &flipped).unwrap();
    let (code, v, _) = lab.decap_at(composite, &f, &at(&m, 1_000));
    assert_eq!((code, v["reason"].as_str()), (Some(1), Some("false-signature")));
    assert!(v["detail"].as_str().unwrap().contains("post-quantum part"), "{v}");
    // Twice in one batch: the second is a copy.
    let twice = lab.root.join("twice.txt");
    std::fs::write(&twice, format!("{0}\n{0}\n", hex::encode(&good))).unwrap();
    let o = v2x(&[
        "decap",
        "--trust",
        p(&lab.pki),
        "--experimental-pq",
        composite,
        "--batch",
        "--in",
        p(&twice),
        "--at",
        &at(&m, 1_000),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("line 1: accepted") && out.contains("line 2: rejected: duplicate-message"),
        "{out}"
    );
    // Judged ten seconds after it was made, the CAM is stale.
    let (code, v, _) = lab.decap_at(composite, &m, &at(&m, 10_000_000));
    assert_eq!((code, v["reason"].as_str()), (Some(1), Some("stale-message")));
    // A standard receiver refuses the format, and says how to read it.
    let o = v2x(&["decap", "--trust", p(&lab.pki), "--in", p(&m)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("--experimental-pq"), "{}", text(&o));
}

#[test]
fn names_and_options_are_checked_before_anything_is_written() {
    let lab = Lab::new(&[]);
    let msg = lab.root.join("x.msg");
    let payload = lab.root.join("cam.bin");
    let o = v2x(&[
        "encap",
        "--pki",
        p(&lab.pki),
        "--experimental-pq",
        "pq-only",
        "--in",
        p(&payload),
        "--out",
        p(&msg),
    ]);
    assert_eq!(o.status.code(), Some(2));
    for d in DESIGNS {
        assert!(text(&o).contains(d), "the error lists {d}: {}", text(&o));
    }
    assert!(!lab.pki.join("experimental-pq").exists());
    // Options of the standard stack do not combine with a design.
    for extra in [["--state", "rx"], ["--station", "station-1"]] {
        let mut args = vec![
            "decap",
            "--trust",
            p(&lab.pki),
            "--experimental-pq",
            DESIGNS[0],
            "--in",
            p(&msg),
        ];
        args.extend(extra);
        assert_eq!(v2x(&args).status.code(), Some(2), "{extra:?}");
    }
    // A receiver of a design the PKI does not have says how to make it.
    std::fs::write(&msg, [0xE1]).unwrap();
    let o = v2x(&[
        "decap",
        "--trust",
        p(&lab.pki),
        "--experimental-pq",
        DESIGNS[1],
        "--in",
        p(&msg),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("v2x pki init --experimental-pq"), "{}", text(&o));
}

/// The runnable example in scenarios/ shows each case with the expected verdict.
#[test]
fn the_post_quantum_script_runs_and_shows_each_verdict() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/post-quantum.sh");
    let o = Command::new("sh")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_v2x"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let verdicts: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            if l.contains("\"accepted\": true") || l.contains("\"accepted\":true") {
                "accepted"
            } else {
                l.split("\"reason\":").nth(1).unwrap().split('"').nth(1).unwrap()
            }
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            "accepted",
            "accepted",
            "duplicate-message",
            "downgrade-refused",
            "downgrade-refused",
            "accepted"
        ],
        "{out}"
    );
    assert!(out.contains("experimental-composite-ml-dsa-44  cam") && out.contains("certificate subject key"));
}
