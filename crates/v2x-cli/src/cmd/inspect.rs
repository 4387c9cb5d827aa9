//! `v2x inspect FILE|- [--json] [--hex]`: decoded tree of a secured message, certificate,
//! trust list, GeoNetworking packet, Ethernet frame or pcap capture, hex or binary input.

use anyhow::Context;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use v2x_wire::inspect::{decode_input, inspect_any};

#[derive(clap::Args)]
pub struct Args {
    /// Input file, or `-` for stdin. Hex text (whitespace, 0x and : allowed) or binary.
    pub input: PathBuf,
    /// Emit the decoded tree as JSON (format + tree of {label, value, span, children}).
    #[arg(long)]
    pub json: bool,
    /// Show each field's bytes (offset+length: hex) next to it in the text tree.
    #[arg(long)]
    pub hex: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let raw = if args.input.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).context("reading stdin")?;
        buf
    } else {
        std::fs::read(&args.input).with_context(|| format!("reading {}", args.input.display()))?
    };
    let bytes = decode_input(&raw);
    let inspected = inspect_any(&bytes)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&inspected)?);
    } else {
        println!("{} ({} bytes)", inspected.format.name(), bytes.len());
        if args.hex {
            print!("{}", inspected.tree.render_text_with_hex(&bytes));
        } else {
            print!("{}", inspected.tree.render_text());
        }
    }
    Ok(ExitCode::SUCCESS)
}
