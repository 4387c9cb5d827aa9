//! Post-quantum signature costs and the bytes on air of each experimental design, with every
//! time also as a ratio to ECDSA P-256 measured in the same run (`v2x_bench::pq`).
//!
//! `cargo run --release -p v2x-bench --example pq_bench -- [--quick] [--slh-dsa] [--json FILE]`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let slow = args.iter().any(|a| a == "--slh-dsa");
    let json = args.iter().position(|a| a == "--json").and_then(|i| args.get(i + 1));
    let plan = if quick {
        v2x_bench::measure::Plan::quick()
    } else {
        v2x_bench::measure::Plan::full()
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    eprintln!("load average before: {}", load.trim());
    let schemes = v2x_bench::pq::schemes(&plan, slow, &mut |s| eprintln!("measuring {s}"))?;
    let (std_digest, std_cert, designs) = v2x_bench::pq::designs(&[0u8; 100])?;
    let load_after = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("{}", v2x_bench::pq::markdown(std_digest, std_cert, &designs, &schemes));
    println!("load average before: {}; after: {}", load.trim(), load_after.trim());
    if let Some(path) = json {
        let v = serde_json::json!({
            "plan": if quick { "quick" } else { "full" },
            "payload_bytes": 100,
            "load_average_before": load.trim(),
            "load_average_after": load_after.trim(),
            "standard_cam_digest_bytes": std_digest,
            "standard_cam_certificate_bytes": std_cert,
            "designs": designs,
            "schemes": schemes,
        });
        std::fs::write(path, serde_json::to_string_pretty(&v)?)?;
    }
    Ok(())
}
