//! End-to-end: `[medium] kind = "netns"` runs each station in its own network namespace
//! (when root, as on this machine and CI) and removes every namespace, veth and bridge at
//! the end, also on Ctrl-C; without root it falls back to loopback with a message.

use std::path::Path;
use std::process::Command;

mod common;
use common::text;

const SCENARIO: &str = "duration_s = 2.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
                        [medium]\nkind = \"netns\"\n";

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let uid = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
    uid.split_whitespace().nth(2) == Some("0")
}

fn has_ip() -> bool {
    Command::new("ip").arg("-V").output().is_ok_and(|o| o.status.success())
}

/// Root, `ip`, and a kernel/container that lets us make a namespace (checked with `ip`
/// alone, outside the code under test).
fn namespaces_work() -> bool {
    if !(is_root() && has_ip()) {
        return false;
    }
    // One name per call: the tests of this binary probe at the same time.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let probe = format!("v2xtbprobe{}x{call}", std::process::id());
    let made = Command::new("ip")
        .args(["netns", "add", &probe])
        .status()
        .is_ok_and(|s| s.success());
    let _ = Command::new("ip").args(["netns", "del", &probe]).status();
    made
}

/// The namespaces and links of the run whose orchestrator had `pid`.
fn leftovers(pid: u32) -> Vec<String> {
    let out =
        |args: &[&str]| String::from_utf8_lossy(&Command::new("ip").args(args).output().unwrap().stdout).into_owned();
    let mut left: Vec<String> = out(&["netns", "list"])
        .lines()
        .filter(|l| l.starts_with(&format!("v2xtb{pid}-")))
        .map(String::from)
        .collect();
    left.extend(
        out(&["-o", "link", "show"])
            .lines()
            .filter(|l| l.contains(&format!(" vt{pid}")))
            .map(String::from),
    );
    left
}

/// Runs `v2x testbed` on `scenario` into `out`: the orchestrator's pid (which names its
/// namespaces), what it printed, and the merged `rx.csv`.
fn run(scenario: &Path, out: &Path) -> (u32, std::process::Output, String) {
    let child = common::testbed_command(scenario, out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    (pid, o, std::fs::read_to_string(out.join("rx.csv")).unwrap())
}

/// The source address of every row of an `rx.csv`.
fn sources(rx_csv: &str) -> Vec<&str> {
    rx_csv.lines().skip(1).filter_map(|l| l.split(',').nth(1)).collect()
}

/// Station (and emulator) processes still alive whose command line names `dir`.
fn survivors(dir: &Path) -> Vec<String> {
    common::processes_naming(dir, &["station --config"])
}

#[test]
fn stations_run_in_their_own_namespaces_and_nothing_is_left_behind() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("netns.toml");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let out = dir.path().join("run");
    let root = namespaces_work();
    // A namespace left by a run killed outright (its pid is gone) is removed by the next run.
    let stale = "v2xtb4194303-0";
    if root {
        assert!(Command::new("ip")
            .args(["netns", "add", stale])
            .status()
            .unwrap()
            .success());
    }
    let (pid, o, rx) = run(&scenario, &out);
    let sources = sources(&rx);
    assert_eq!(sources.len(), 40, "2 senders × 10 Hz × 2 s");
    let s = common::json(&out.join("summary.json"));
    assert_eq!(s["receivers"]["rx0"]["benign"]["accepted"], 40, "{s}");
    if root {
        // Each sender from its own namespace's address, across the bridge.
        assert!(sources.iter().all(|s| s.starts_with("10.77.0.")), "{sources:?}");
        let mut distinct: Vec<&str> = sources.iter().map(|s| s.split(':').next().unwrap()).collect();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct, ["10.77.0.2", "10.77.0.3"]);
        assert!(leftovers(pid).is_empty(), "left behind: {:?}", leftovers(pid));
        let ns =
            String::from_utf8_lossy(&Command::new("ip").args(["netns", "list"]).output().unwrap().stdout).into_owned();
        assert!(!ns.contains(stale), "stale namespace not swept: {ns}");
    } else {
        assert!(text(&o).contains("running on loopback instead"), "{}", text(&o));
        assert!(sources.iter().all(|s| s.starts_with("127.0.0.1:")), "{sources:?}");
    }
}

#[test]
fn ctrl_c_removes_the_namespaces() {
    if !namespaces_work() {
        eprintln!("no namespaces here: the fallback is covered by the other test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("long.toml");
    std::fs::write(&scenario, SCENARIO.replace("duration_s = 2.0", "duration_s = 60.0")).unwrap();
    let pid = common::interrupt_testbed(&scenario, &dir.path().join("run"), 3, survivors, |pid, _| {
        assert!(!leftovers(pid).is_empty(), "the run has its namespaces");
    });
    assert!(leftovers(pid).is_empty(), "left behind: {:?}", leftovers(pid));
}

#[test]
fn the_channel_emulator_runs_in_namespaces_too() {
    if !namespaces_work() {
        eprintln!("no namespaces here: the fallback is covered by the other test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("emulated.toml");
    std::fs::write(
        &scenario,
        SCENARIO.replace(
            "kind = \"netns\"\n",
            "kind = \"emulator\"\nnetns = true\nsender_distances_m = [20.0, 40.0]\n",
        ),
    )
    .unwrap();
    let out = dir.path().join("run");
    let (pid, _, rx) = run(&scenario, &out);
    // Every frame reaches the receiver from the emulator's namespace (10.77.0.4: after
    // rx0, tx0, tx1), one source port per sender.
    let mut sources = sources(&rx);
    assert!(sources.len() >= 36, "{sources:?}");
    assert!(sources.iter().all(|s| s.starts_with("10.77.0.4:")), "{sources:?}");
    sources.sort_unstable();
    sources.dedup();
    assert_eq!(sources.len(), 2, "{sources:?}");
    let s = common::json(&out.join("summary.json"));
    let links = s["links"].as_array().unwrap();
    assert_eq!(links.len(), 2, "{s}");
    for l in links {
        assert!(l["channel"]["frames"].as_u64().unwrap() >= 18, "{l}");
    }
    assert!(leftovers(pid).is_empty(), "left behind: {:?}", leftovers(pid));
}
