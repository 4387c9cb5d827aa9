//! Helpers shared by the CLI's end-to-end tests: run the built `v2x`, read what it wrote.
// Each test binary uses a subset of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `v2x` binary built for these tests, as a command to add arguments to.
pub fn v2x_command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_v2x"));
    // A panic must show as one line in the output the tests read, not a backtrace.
    c.env("RUST_BACKTRACE", "0");
    c
}

/// Runs `v2x ARGS` to completion.
pub fn v2x(args: &[&str]) -> Output {
    v2x_command().args(args).output().expect("run v2x")
}

/// A path as a command-line argument.
pub fn p(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// Bytes as text (invalid UTF-8 replaced).
pub fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What a run printed: stdout then stderr.
pub fn text(o: &Output) -> String {
    format!("{}{}", lossy(&o.stdout), lossy(&o.stderr))
}

/// A JSON file written by a run.
pub fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A path in the repository (scenarios, vectors).
pub fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

/// Processes still alive whose command line names `dir` and one of `markers` (a testbed
/// run's stations and emulator: their config files are under `dir`).
pub fn processes_naming(dir: &Path, markers: &[&str]) -> Vec<String> {
    let needle = dir.to_string_lossy().to_string();
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(&needle) && markers.iter().any(|m| cmd.contains(m)) {
                out.push(cmd);
            }
        }
    }
    out
}

/// `v2x testbed --quiet --out OUT SCENARIO`, to run or spawn.
pub fn testbed_command(scenario: &Path, out: &Path) -> Command {
    let mut c = v2x_command();
    c.args(["testbed", "--quiet", "--out"]).arg(out).arg(scenario);
    c
}

/// Spawns a long testbed run, waits until `running(out)` lists at least `processes`,
/// calls `check(orchestrator pid, running)`, then Ctrl-Cs the orchestrator (SIGINT).
/// Asserts that it reports failure and leaves nothing `running` lists; returns its pid.
pub fn interrupt_testbed(
    scenario: &Path,
    out: &Path,
    processes: usize,
    running: impl Fn(&Path) -> Vec<String>,
    check: impl FnOnce(u32, &[String]),
) -> u32 {
    use std::time::{Duration, Instant};
    let mut child = testbed_command(scenario, out).spawn().unwrap();
    let pid = child.id();
    let t0 = Instant::now();
    while running(out).len() < processes {
        assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", running(out));
        std::thread::sleep(Duration::from_millis(100));
    }
    check(pid, &running(out));
    let kill = Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap();
    assert!(kill.success());
    assert!(!child.wait().unwrap().success(), "an interrupted run reports failure");
    std::thread::sleep(Duration::from_millis(200));
    assert!(running(out).is_empty(), "orphans: {:?}", running(out));
    pid
}
