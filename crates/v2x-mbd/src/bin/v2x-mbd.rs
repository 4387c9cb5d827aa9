//! `v2x-mbd`: the misbehaviour-detection evaluation pipeline on VeReMi NextGen files.
//!
//! ```text
//! v2x-mbd export --fcd FCD.xml --out DIR [--receivers 30] [--start 40] [--end 160] [--seed 1]
//! v2x-mbd attack --in DIR --attack NAME --out DIR [--ratio 0.2] [--seed 1]
//! v2x-mbd score  --in DIR --detector catch-reference|plausibility|full [--family catch|legacy]
//!                [--predictions CSV] [--test-share 0.5] [--reps 1000] [--json OUT] [--per-check]
//!                [--half test|tune|all]
//! ```
//!
//! `score --predictions` scores another system's per-message predictions (CSV
//! `file,messageID,prediction` in file order) on the same files with the same intervals.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use v2x_mbd::attacks::{choose, inject_logs, Attack, InjectConfig};
use v2x_mbd::checks::CheckId;
use v2x_mbd::checks::Family;
use v2x_mbd::dataset::nextgen;
use v2x_mbd::detector::DetectorConfig;
use v2x_mbd::eval;
use v2x_mbd::export::{export, ExportConfig};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn need(args: &[String], name: &str) -> Result<String, String> {
    arg(args, name).ok_or_else(|| format!("missing {name}"))
}

fn num<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match arg(args, name) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| format!("{name}: not a number: {v}")),
    }
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("export") => {
            let fcd = PathBuf::from(need(args, "--fcd")?);
            let out = PathBuf::from(need(args, "--out")?);
            let cfg = ExportConfig {
                max_receivers: num(args, "--receivers", 30)?,
                start_s: num(args, "--start", 40.0)?,
                end_s: num(args, "--end", 160.0)?,
                seed: num(args, "--seed", 1)?,
                ..ExportConfig::default()
            };
            let mut trace = v2x_sim::mobility::fcd::read(&fcd).map_err(|e| e.to_string())?;
            std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
            let logs = export(&mut trace, &cfg);
            let mut n = 0;
            for l in &logs {
                n += l.messages.len();
                nextgen::write(&out.join(format!("{}.json", l.receiver)), &l.messages).map_err(|e| e.to_string())?;
            }
            eprintln!("{} receivers, {n} messages", logs.len());
        }
        Some("attack") => {
            let input = PathBuf::from(need(args, "--in")?);
            let out = PathBuf::from(need(args, "--out")?);
            let attack = Attack::from_name(&need(args, "--attack")?)?;
            let cfg = InjectConfig {
                ratio: num(args, "--ratio", 0.2)?,
                seed: num(args, "--seed", 1)?,
            };
            let logs = nextgen::read_dir(&input).map_err(|e| e.to_string())?;
            let attackers = choose(logs.iter().flat_map(|(_, m)| m), &attack, &cfg);
            std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
            for (name, msgs) in inject_logs(&logs, &attack, &attackers, cfg.seed) {
                nextgen::write(&out.join(format!("{name}.json")), &msgs).map_err(|e| e.to_string())?;
            }
        }
        Some("score") => {
            let input = PathBuf::from(need(args, "--in")?);
            let family = match arg(args, "--family").as_deref() {
                None | Some("catch") => Family::Catch,
                Some("legacy") => Family::Legacy,
                Some(o) => return Err(format!("unknown family `{o}`; valid: catch, legacy")),
            };
            let config = match need(args, "--detector")?.as_str() {
                "catch-reference" => DetectorConfig::catch_reference(),
                "plausibility" => DetectorConfig::plausibility(family),
                "full" => DetectorConfig::full(family),
                o => {
                    return Err(format!(
                        "unknown detector `{o}`; valid: catch-reference, plausibility, full"
                    ))
                }
            };
            let logs = nextgen::read_dir(&input).map_err(|e| e.to_string())?;
            let predictions: Vec<Vec<bool>> = match arg(args, "--predictions") {
                None => logs.iter().map(|(_, m)| eval::predict(m, &config)).collect(),
                Some(csv) => {
                    let text = std::fs::read_to_string(&csv).map_err(|e| format!("{csv}: {e}"))?;
                    let mut by_file: HashMap<&str, Vec<bool>> = HashMap::new();
                    for line in text.lines().skip(1) {
                        let f: Vec<&str> = line.split(',').collect();
                        if f.len() == 3 {
                            by_file.entry(f[0]).or_default().push(f[2].trim() == "1");
                        }
                    }
                    logs.iter()
                        .map(|(name, msgs)| {
                            let p = by_file.remove(name.as_str()).unwrap_or_default();
                            if p.len() == msgs.len() {
                                Ok(p)
                            } else {
                                Err(format!("{name}: {} predictions for {} messages", p.len(), msgs.len()))
                            }
                        })
                        .collect::<Result<_, String>>()?
                }
            };
            if args.iter().any(|a| a == "--per-check") {
                let mut total: BTreeMap<CheckId, eval::Counts> = BTreeMap::new();
                for (_, m) in &logs {
                    for (c, k) in eval::check_failures(m, &config) {
                        total.entry(c).or_default().plus(&k);
                    }
                }
                eprintln!("check                          fails on lies   fails on honest");
                for (c, k) in total {
                    eprintln!(
                        "{:<30} {:>6} / {:<7} {:>6} / {:<7}",
                        c.name(),
                        k.tp,
                        k.tp + k.fn_,
                        k.fp,
                        k.fp + k.tn
                    );
                }
            }
            // Parameters are tuned on the other half (`--half tune`); figures are the test half's.
            let half = eval::Half::from_name(arg(args, "--half").as_deref().unwrap_or("test"))?;
            let s = eval::score(
                &logs,
                &predictions,
                half,
                num(args, "--test-share", 0.5)?,
                num(args, "--reps", 1000)?,
            )?;
            let json = serde_json::to_string_pretty(&s).map_err(|e| e.to_string())?;
            match arg(args, "--json") {
                Some(p) => std::fs::write(&p, &json).map_err(|e| format!("{p}: {e}"))?,
                None => println!("{json}"),
            }
            eprintln!(
                "F1 {:.3} [{:.3}, {:.3}]  P {:.3}  R {:.3}  acc {:.3}  (range check {:.0} m)",
                s.f1.value,
                s.f1.lo,
                s.f1.hi,
                s.precision.value,
                s.recall.value,
                s.accuracy.value,
                config.thresholds.max_plausible_range_m
            );
        }
        _ => return Err("usage: v2x-mbd export|attack|score ... (see the crate docs)".into()),
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
