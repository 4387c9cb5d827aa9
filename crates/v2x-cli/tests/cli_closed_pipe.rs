//! Issue 11, defect 9: a closed output pipe (`v2x inspect capture.pcap | head`) ends v2x
//! quietly, the way it ends `cat`: no panic, nothing on stderr, killed by SIGPIPE — and never
//! status 0, so a cut-off `decap` cannot read as "accepted". Before the fix every command that
//! printed panicked ("failed printing to stdout: Broken pipe") with status 101.
#![cfg(unix)]

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::sync::Mutex;

const ECTL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../v2x-wire/tests/vectors/eu-ectl-CE4CF6C19BFED720.oer"
);

/// Serialises process creation in this test binary: a child forked by another test thread
/// while a pipe is being set up would hold a copy of its read end until it execs, so the pipe
/// would not be readerless yet.
static SPAWN: Mutex<()> = Mutex::new(());

/// A pipe whose reader has already gone: the write end of the stdin of a `true` that exited.
fn readerless_pipe() -> Stdio {
    let mut t = Command::new("true").stdin(Stdio::piped()).spawn().expect("run true");
    let write_end = t.stdin.take().unwrap();
    t.wait().unwrap();
    Stdio::from(write_end)
}

/// Runs v2x with its stdout a pipe whose reader goes away after `keep` bytes (0: before v2x
/// starts); returns the exit status and stderr.
fn with_closed_stdout(args: &[&str], keep: usize) -> (std::process::ExitStatus, String) {
    let guard = SPAWN.lock().unwrap_or_else(|e| e.into_inner());
    let stdout = if keep == 0 { readerless_pipe() } else { Stdio::piped() };
    let mut child = Command::new(env!("CARGO_BIN_EXE_v2x"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run v2x");
    drop(guard);
    if let Some(mut out) = child.stdout.take() {
        let mut head = vec![0; keep];
        out.read_exact(&mut head).expect("the first bytes of the output");
    }
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (child.wait().unwrap(), err)
}

fn assert_quiet_sigpipe(args: &[&str], keep: usize) {
    let (status, err) = with_closed_stdout(args, keep);
    assert_eq!(
        status.signal(),
        Some(libc_sigpipe()),
        "v2x {args:?}: expected to end by SIGPIPE, got {status:?}; stderr: {err}"
    );
    assert!(err.is_empty(), "v2x {args:?} wrote to stderr: {err}");
}

fn libc_sigpipe() -> i32 {
    13 // SIGPIPE on Linux and the BSDs
}

#[test]
fn inspect_into_a_closed_pipe_ends_quietly() {
    // The reader is gone before v2x starts: its first write fails.
    assert_quiet_sigpipe(&["inspect", ECTL], 0);
    assert_quiet_sigpipe(&["inspect", ECTL, "--json"], 0);
}

#[test]
fn overhead_into_a_closed_pipe_ends_quietly() {
    // `| head -c 100`: the JSON report (~150 KB) is far larger than a pipe buffer, so v2x is
    // still writing when the reader goes.
    assert_quiet_sigpipe(&["overhead", "--json"], 100);
    assert_quiet_sigpipe(&["overhead"], 0);
}

#[test]
fn decap_into_a_closed_pipe_never_reads_as_accepted() {
    let tmp = tempfile::tempdir().unwrap();
    let msg = tmp.path().join("junk.oer");
    std::fs::write(&msg, [3u8, 0x80, 2, b'h', b'i']).unwrap();
    // An unsigned message is rejected in strict mode ("rejected: unsigned-message" on stdout).
    let (status, err) = with_closed_stdout(&["decap", "--signature-only", "--in", msg.to_str().unwrap()], 0);
    assert!(!status.success(), "{status:?}");
    assert_eq!(status.signal(), Some(libc_sigpipe()), "{status:?}: {err}");
    assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
}
