//! `v2x sim` with `[misbehaviour]`: the watchers' findings, per variant, into
//! `summary.json` (`misbehaviour`) and `misbehaviour.txt`.

use anyhow::Context;
use std::path::Path;
use v2x_mbd::sim::{SimMisbehaviour, Summary, SIMPLIFICATIONS};
use v2x_sim::SimResults;

/// Adds the misbehaviour section to the results folder; returns the text report.
pub fn write(
    results: &SimResults,
    watched: &[Vec<serde_json::Value>],
    cfg: &SimMisbehaviour,
    out: &Path,
) -> anyhow::Result<String> {
    let summaries: Vec<Summary> = results
        .variants
        .iter()
        .zip(watched)
        .map(|(v, w)| Summary::of(&v.name, w).map_err(|e| anyhow::anyhow!("misbehaviour: {e}")))
        .collect::<anyhow::Result<_>>()?;
    let mut text = String::new();
    for s in &summaries {
        text.push_str(&s.text(cfg));
    }
    text.push_str(&format!("  model: {}\n", SIMPLIFICATIONS.join("; ")));
    let path = out.join("summary.json");
    let mut summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?)?;
    summary["misbehaviour"] = serde_json::json!({
        "settings": cfg,
        "simplifications": SIMPLIFICATIONS,
        "variants": summaries,
    });
    std::fs::write(&path, serde_json::to_string_pretty(&summary)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    let txt = out.join("misbehaviour.txt");
    std::fs::write(&txt, &text).with_context(|| format!("writing {}", txt.display()))?;
    Ok(text)
}
