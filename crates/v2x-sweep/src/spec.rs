//! Sweep specs: a base scenario, parameter axes by dotted key, replications; expanded into
//! runs with stable ids.
//!
//! ```toml
//! name = "density"
//! base = "../demo-highway-tesla.toml"   # relative to the spec; or an inline [scenario]
//! replications = 3                      # seeds seed, seed+1, seed+2 (or: seeds = [..])
//! seed = 1
//! [scenario]                            # optional: overrides merged over the base
//! duration_s = 3.0
//! [axes]                                # cartesian product, keys in sorted order
//! "mobility.density_veh_per_km_lane" = [10.0, 20.0, 40.0]
//! "variant.0.cores" = [1, 2]            # a number indexes a [[variant]] array
//! ```

use crate::error::SweepError;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::{Table, Value};
use v2x_sim::Scenario;

/// A sweep as written (TOML file, or a JSON object from Python).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepSpec {
    #[serde(default)]
    pub name: String,
    /// Base scenario file; relative paths are taken against the spec's directory.
    pub base: Option<PathBuf>,
    /// Inline scenario keys, merged over the base (or the whole scenario without a base).
    pub scenario: Option<Table>,
    /// Parameter axes: dotted scenario key -> values. Runs are their cartesian product.
    #[serde(default)]
    pub axes: BTreeMap<String, Vec<Value>>,
    /// Replications per point (default 1); replication r uses seed + r.
    pub replications: Option<u32>,
    /// Base seed (default: the scenario's).
    pub seed: Option<u64>,
    /// Explicit seeds, one replication each (instead of replications/seed).
    pub seeds: Option<Vec<u64>>,
}

/// One run: a point of the axes and one replication.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Stable id: a hash of the run's whole scenario (base, axis values and seed), so that
    /// it survives reordering the spec and changes when anything the run depends on changes.
    pub id: String,
    pub point: usize,
    pub replication: u32,
    pub seed: u64,
    /// Axis key -> value, in axis order.
    pub params: Vec<(String, Value)>,
    /// The run's scenario table (one replication, its seed set).
    pub table: Table,
}

impl Run {
    /// `key=value, ...` for messages.
    pub fn params_text(&self) -> String {
        let p: Vec<String> = self.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}, seed={}", p.join(", "), self.seed)
    }
}

/// A spec resolved against its origin: the runs to do.
#[derive(Debug, Clone)]
pub struct Sweep {
    pub spec: SweepSpec,
    /// Where relative paths in the scenario resolve (the spec's or the base's directory).
    pub base_dir: PathBuf,
    pub origin: String,
    pub runs: Vec<Run>,
}

impl Sweep {
    /// Reads a TOML spec file.
    pub fn load(path: &Path) -> Result<Sweep, SweepError> {
        let text = std::fs::read_to_string(path).map_err(|e| SweepError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        let origin = path.display().to_string();
        let spec: SweepSpec = toml::from_str(&text).map_err(|e| SweepError::spec(&origin, e.to_string()))?;
        Sweep::new(spec, path.parent().unwrap_or(Path::new(".")), &origin)
    }

    /// Parses a spec from TOML text; relative paths resolve against `dir`.
    pub fn parse_toml(text: &str, dir: &Path) -> Result<Sweep, SweepError> {
        let spec: SweepSpec = toml::from_str(text).map_err(|e| SweepError::spec("<toml>", e.to_string()))?;
        Sweep::new(spec, dir, "<toml>")
    }

    /// Parses a spec from a JSON object (Python dicts); relative paths resolve against `dir`.
    pub fn parse_json(text: &str, dir: &Path) -> Result<Sweep, SweepError> {
        let spec: SweepSpec = serde_json::from_str(text).map_err(|e| SweepError::spec("<dict>", e.to_string()))?;
        Sweep::new(spec, dir, "<dict>")
    }

    /// Expands a spec: every point of the axes times every seed.
    pub fn new(spec: SweepSpec, dir: &Path, origin: &str) -> Result<Sweep, SweepError> {
        let mut base = Table::new();
        let mut base_dir = dir.to_path_buf();
        if let Some(b) = &spec.base {
            let path = dir.join(b);
            let text = std::fs::read_to_string(&path).map_err(|e| SweepError::Io {
                path: path.display().to_string(),
                source: e,
            })?;
            base =
                toml::from_str(&text).map_err(|e| SweepError::spec(origin, format!("base {}: {e}", path.display())))?;
            base_dir = path.parent().unwrap_or(dir).to_path_buf();
        }
        if let Some(over) = &spec.scenario {
            merge(&mut base, over);
        }
        if spec.base.is_none() && spec.scenario.is_none() {
            return Err(SweepError::spec(
                origin,
                "needs a `base` scenario file or a [scenario] table",
            ));
        }
        for (k, vals) in &spec.axes {
            if vals.is_empty() {
                return Err(SweepError::spec(origin, format!("axis `{k}` has no values")));
            }
            if k.split('.').any(str::is_empty) {
                return Err(SweepError::spec(origin, format!("axis `{k}` is not a dotted key")));
            }
        }
        let seeds: Vec<u64> = match (&spec.seeds, spec.replications, spec.seed) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(SweepError::spec(
                    origin,
                    "give either `seeds` or `replications`/`seed`, not both",
                ))
            }
            (Some(s), None, None) => s.clone(),
            (None, r, s) => {
                let r = r.unwrap_or(1);
                if r == 0 || r > 10_000 {
                    return Err(SweepError::spec(origin, "replications must be between 1 and 10000"));
                }
                let s = match s {
                    Some(s) => s,
                    None => base.get("seed").and_then(Value::as_integer).unwrap_or(1) as u64,
                };
                (0..u64::from(r)).map(|i| s.wrapping_add(i)).collect()
            }
        };
        if seeds.is_empty() {
            return Err(SweepError::spec(origin, "`seeds` is empty"));
        }
        let axes: Vec<(&String, &Vec<Value>)> = spec.axes.iter().collect();
        let points: usize = axes.iter().map(|(_, v)| v.len()).product();
        let mut runs = Vec::with_capacity(points * seeds.len());
        for point in 0..points {
            // Mixed radix: the last axis varies fastest.
            let mut rest = point;
            let mut params = vec![(String::new(), Value::Boolean(false)); axes.len()];
            for (i, (k, vals)) in axes.iter().enumerate().rev() {
                params[i] = ((*k).clone(), vals[rest % vals.len()].clone());
                rest /= vals.len();
            }
            let mut table = base.clone();
            for (k, v) in &params {
                set_dotted(&mut table, k, v.clone()).map_err(|m| SweepError::spec(origin, m))?;
            }
            for (replication, &seed) in seeds.iter().enumerate() {
                let mut t = table.clone();
                t.insert("seed".into(), Value::Integer(seed as i64));
                t.insert("replications".into(), Value::Integer(1));
                let text = toml::to_string(&t).map_err(|e| SweepError::spec(origin, e.to_string()))?;
                let id = hex::encode(&Sha256::digest(text.as_bytes())[..6]);
                runs.push(Run {
                    id,
                    point,
                    replication: replication as u32,
                    seed,
                    params: params.clone(),
                    table: t,
                });
            }
        }
        let mut ids = std::collections::HashSet::new();
        for r in &runs {
            if !ids.insert(r.id.as_str()) {
                return Err(SweepError::spec(
                    origin,
                    format!(
                        "two runs have the same scenario ({}): repeated axis values or seeds?",
                        r.params_text()
                    ),
                ));
            }
        }
        let sweep = Sweep {
            spec,
            base_dir,
            origin: origin.into(),
            runs,
        };
        // Every run is a valid scenario (a misspelt axis key or a bad value is refused
        // here, naming the run, not when that run comes to be simulated or listed).
        for r in &sweep.runs {
            sweep.scenario(r)?;
        }
        Ok(sweep)
    }

    pub fn run_by_id(&self, id: &str) -> Result<&Run, SweepError> {
        self.runs
            .iter()
            .find(|r| r.id == id)
            .ok_or_else(|| SweepError::UnknownRun { id: id.into() })
    }

    /// The validated scenario of one run (unknown keys and bad values are errors here).
    pub fn scenario(&self, run: &Run) -> Result<Scenario, SweepError> {
        let text = toml::to_string(&run.table).unwrap_or_default();
        let mut sc =
            Scenario::parse(&text, &format!("{} run {}", self.origin, run.id)).map_err(|e| SweepError::Scenario {
                run: run.id.clone(),
                params: run.params_text(),
                source: Box::new(e),
            })?;
        sc.resolve_paths(&self.base_dir);
        Ok(sc)
    }

    /// Axis keys, in column order.
    pub fn axis_keys(&self) -> Vec<String> {
        self.spec.axes.keys().cloned().collect()
    }
}

/// Deep merge: tables merge key by key, anything else is replaced.
fn merge(into: &mut Table, over: &Table) {
    for (k, v) in over {
        match (into.get_mut(k), v) {
            (Some(Value::Table(a)), Value::Table(b)) => merge(a, b),
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Sets `a.b.0.c = v`: tables are created as needed; a number indexes an existing array.
fn set_dotted(table: &mut Table, key: &str, v: Value) -> Result<(), String> {
    let parts: Vec<&str> = key.split('.').collect();
    let mut cur = table;
    for (i, p) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let next = parts.get(i + 1);
        if last {
            cur.insert((*p).into(), v);
            return Ok(());
        }
        let index = next.and_then(|n| n.parse::<usize>().ok());
        let entry = cur.entry(*p).or_insert_with(|| {
            if index.is_some() {
                Value::Array(vec![Value::Table(Table::new())])
            } else {
                Value::Table(Table::new())
            }
        });
        match (entry, index) {
            (Value::Array(a), Some(idx)) => {
                let len = a.len();
                let Some(Value::Table(t)) = a.get_mut(idx) else {
                    return Err(format!(
                        "axis `{key}`: `{p}` has {len} entries, no table at index {idx}"
                    ));
                };
                if i + 2 == parts.len() {
                    return Err(format!("axis `{key}`: cannot replace a whole `{p}` entry"));
                }
                // Skip the index segment: recurse on the rest.
                return set_dotted(t, &parts[i + 2..].join("."), v);
            }
            (Value::Table(t), None) => cur = t,
            _ => return Err(format!("axis `{key}`: `{p}` is not a table")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep(text: &str) -> Result<Sweep, SweepError> {
        Sweep::parse_toml(text, Path::new("."))
    }

    #[test]
    fn expands_cartesian_product_times_seeds_with_stable_ids() {
        let s = sweep(
            "replications = 2\nseed = 7\n[scenario]\nduration_s = 2.0\nmobility = { kind = \"highway\" }\n[axes]\n\"mobility.density_veh_per_km_lane\" = [5.0, 10.0, 20.0]\n\"cam.rate_hz\" = [5.0, 10.0]\n",
        )
        .unwrap();
        assert_eq!(s.runs.len(), 12);
        assert_eq!(s.runs[0].params[0].0, "cam.rate_hz");
        assert_eq!(s.runs[1].seed, 8);
        let ids: std::collections::HashSet<_> = s.runs.iter().map(|r| r.id.clone()).collect();
        assert_eq!(ids.len(), 12);
        // Same content, keys in another order: same ids.
        let t = sweep(
            "seed = 7\nreplications = 2\n[axes]\n\"cam.rate_hz\" = [5.0, 10.0]\n\"mobility.density_veh_per_km_lane\" = [5.0, 10.0, 20.0]\n[scenario]\nduration_s = 2.0\nmobility = { kind = \"highway\" }\n",
        )
        .unwrap();
        assert_eq!(s.runs, t.runs);
        let sc = s.scenario(&s.runs[3]).unwrap();
        assert_eq!(sc.seed, 8);
        assert_eq!(sc.replications, 1);
        assert_eq!(sc.cam.rate_hz, 5.0);
    }

    #[test]
    fn indexes_variant_arrays() {
        let s = sweep("[scenario]\n[[scenario.variant]]\nname = \"a\"\n[axes]\n\"variant.0.name\" = [\"x\", \"y\"]\n")
            .unwrap();
        assert_eq!(s.scenario(&s.runs[1]).unwrap().variants[0].name, "y");
        let e = sweep("[scenario]\n[[scenario.variant]]\nname = \"a\"\n[axes]\n\"variant.3.name\" = [\"x\"]\n")
            .unwrap_err();
        assert!(e.to_string().contains("no table at index 3"), "{e}");
    }

    /// Issue 28: `sweep --list` listed the runs of a misspelt axis key.
    #[test]
    fn a_misspelt_axis_key_is_refused_when_the_spec_is_read() {
        let Err(e) = sweep("[scenario]\nduration_s = 2.0\n[axes]\n\"mobility.densty_veh_per_km_lane\" = [5.0]\n")
        else {
            panic!("accepted");
        };
        assert!(e.to_string().contains("densty_veh_per_km_lane"), "{e}");
    }

    #[test]
    fn bad_specs_are_typed_errors() {
        assert!(matches!(sweep("[axes]\n\"a\" = [1]\n"), Err(SweepError::Spec { .. })));
        assert!(matches!(
            sweep("[scenario]\n[axes]\n\"a\" = []\n"),
            Err(SweepError::Spec { .. })
        ));
        let Err(e) = sweep("[scenario]\nbogus = 1\n") else {
            panic!("accepted");
        };
        assert!(e.to_string().contains("bogus"), "{e}");
        assert!(matches!(sweep("nonsense = 1\n"), Err(SweepError::Spec { .. })));
        assert!(matches!(
            sweep("seeds = [1]\nreplications = 2\n[scenario]\n"),
            Err(SweepError::Spec { .. })
        ));
        // An unknown scenario key is reported when the spec is read, naming the run.
        let Err(e) = sweep("[scenario]\n[axes]\n\"cam.rate_hzz\" = [1.0]\n") else {
            panic!("accepted");
        };
        assert!(matches!(e, SweepError::Scenario { .. }), "{e}");
        assert!(e.to_string().contains("rate_hzz"), "{e}");
    }
}
