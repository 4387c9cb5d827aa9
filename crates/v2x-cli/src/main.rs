//! `v2x`: the v2xsec command line.
//!
//! Exit status: 0 on success (decap: message accepted), 1 when decap rejects a message
//! (the reason code is printed), 2 on any error (bad arguments, unreadable files, ...). When
//! the reader of the output goes away (`v2x inspect capture.pcap | head`), v2x ends quietly as
//! `cat` does, by SIGPIPE (status 141 in a shell; see [`end_quietly_on_closed_output`]).

mod cmd;
mod progress;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "v2x",
    version,
    about = "V2X security: standards stack, lightweight protocols, benchmark, simulator"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create and manage a PKI: root CA, EA, AA, enrolment credentials, pseudonym tickets.
    Pki(cmd::pki::Args),
    /// SN-ENCAP: secure a payload (sign, encrypt or both) with a profile.
    Encap(cmd::encap::Args),
    /// SN-DECAP: verify (and decrypt) a secured message; exit 1 with the reason on rejection.
    Decap(cmd::decap::Args),
    /// Decoded tree of a secured message, certificate, trust list or GeoNetworking packet.
    Inspect(cmd::inspect::Args),
    /// Write a pcap of secured CAMs/DENMs in GeoNetworking/BTP that Wireshark decodes.
    Pcap(cmd::pcap::Args),
    /// Security overhead in bytes, field by field, per protocol and message type.
    Overhead(cmd::overhead::Args),
    /// Measure every protocol on this machine and write a processor profile.
    Bench(cmd::bench::Args),
    /// Run a simulation scenario.
    Sim(cmd::sim::Args),
    /// Parameter sweep: a base scenario x axes x seeds, resumable, one tidy Parquet table.
    Sweep(cmd::sweep::Args),
    /// Live testbed: run station processes exchanging real secured packets over UDP.
    Testbed(cmd::testbed::Args),
    /// One station process of the live testbed (started by `v2x testbed`).
    Station(cmd::station::Args),
    /// The live testbed's channel emulator: relays frames through the simulator's 802.11p
    /// channel and PHY models (started by `v2x testbed` for `[medium] kind = "emulator"`).
    ChannelEmulator(cmd::channel_emulator::Args),
    /// The misbehaviour authority of the testbed's `[misbehaviour]` closed loop (started by
    /// `v2x testbed`).
    MbdAuthority(cmd::mbd_authority::Args),
    /// Analytical models: paper 003's multi-hop security cost, reproduced and on today's costs.
    Model(cmd::model::Args),
    /// Rebuild the papers' tables, figures and conclusions beside their published values:
    /// one report, each value with its evidence class and the verdict of one comparison rule.
    Reproduce(cmd::reproduce::Args),
}

fn main() -> ExitCode {
    end_quietly_on_closed_output();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("V2X_LOG"))
        .with_writer(std::io::stderr)
        .init();
    v2x_report::provenance::set_program(v2x_report::provenance::Program {
        tool: format!("v2x {}", env!("CARGO_PKG_VERSION")),
        commit: env!("V2X_COMMIT").into(),
    });
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Pki(a) => cmd::pki::run(a),
        Command::Encap(a) => cmd::encap::run(a),
        Command::Decap(a) => cmd::decap::run(a),
        Command::Inspect(a) => cmd::inspect::run(a),
        Command::Pcap(a) => cmd::pcap::run(a),
        Command::Overhead(a) => cmd::overhead::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Sim(a) => cmd::sim::run(a),
        Command::Sweep(a) => cmd::sweep::run(a),
        Command::Testbed(a) => cmd::testbed::run(a),
        Command::Station(a) => cmd::station::run(a),
        Command::ChannelEmulator(a) => cmd::channel_emulator::run(a),
        Command::MbdAuthority(a) => cmd::mbd_authority::run(a),
        Command::Model(a) => cmd::model::run(a),
        Command::Reproduce(a) => cmd::reproduce::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            ExitCode::from(2)
        }
    }
}

/// An error and its causes, each said once. Most errors quote their cause already
/// (`cannot read X: {source}`), so a cause whose text is already in the message is not
/// repeated; a cause's own leading `error: ` is dropped (one `error:` per line).
fn error_text(e: &anyhow::Error) -> String {
    let strip = |s: String| match s.strip_prefix("error: ") {
        Some(rest) => rest.to_string(),
        None => s,
    };
    let mut text = strip(e.to_string());
    for cause in e.chain().skip(1) {
        let c = strip(cause.to_string());
        if !c.is_empty() && !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

/// The one place that decides what a closed output pipe does, for every command and every way
/// they write (`print!`, `writeln!` to stdout, logs on stderr).
///
/// Rust programs start with SIGPIPE ignored, so a write to a pipe whose reader has gone returns
/// EPIPE, and `print!` turns that into a panic (status 101, a backtrace on stderr). Restoring the
/// default action makes that write end the process at once and silently, as it ends `cat`,
/// `grep` and every Unix filter. The status is deliberately not 0 (a shell sees 141, 128 +
/// SIGPIPE): a script checking `v2x decap | ...` must never read a cut-off run as "accepted".
/// v2x writes to no other pipe or socket, so no other write can raise the signal.
#[cfg(unix)]
#[allow(unsafe_code)] // the crate's one FFI call, commented below
fn end_quietly_on_closed_output() {
    // SAFETY: FFI call that sets the disposition of SIGPIPE back to the default; it installs no
    // handler code, and runs first in `main`, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn end_quietly_on_closed_output() {}

#[cfg(test)]
mod tests {
    use super::error_text;
    use anyhow::Context;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read {path}: {source}")]
    struct Quoting {
        path: String,
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory (os error 2)");
        let e = anyhow::Error::new(Quoting {
            path: "x.toml".into(),
            source: io,
        });
        assert_eq!(
            error_text(&e),
            "cannot read x.toml: No such file or directory (os error 2)"
        );
        // A context that does not quote its cause is followed by it, once.
        let e: anyhow::Result<()> = Err(std::io::Error::other("disk full")).context("writing out/summary.json");
        assert_eq!(error_text(&e.unwrap_err()), "writing out/summary.json: disk full");
        // No `error: error:`.
        let e = anyhow::anyhow!("error: bad input");
        assert_eq!(error_text(&e), "bad input");
    }
}
