//! `v2x inspect FILE|- [--json] [--hex]`: decoded tree of a secured message, certificate,
//! trust list, GeoNetworking packet, Ethernet frame or pcap capture, hex or binary input.

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
    let raw = super::input::read_input(&args.input)?;
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
