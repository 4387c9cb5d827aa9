//! `[engine]`: how a run is executed, not what it models: threads per run.

use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// Execution settings of the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// Threads evaluating the receivers of each transmission within one run (the event
    /// loop's thread and `threads - 1` more); 0 chooses: the machine's cores shared among
    /// the runs (variants x replications) executed in parallel. Results are identical for
    /// a seed whatever the count (the channel's random draws are keyed by transmission and
    /// receiver). Default 1: the threads meet twice per transmission (tens of µs of work
    /// each time), so the other threads poll for work for the whole run and take their
    /// cores fully; more threads pay only on cores that are otherwise idle. On the
    /// sidelink the threads share each subframe's transmissions (the received powers, the
    /// links' outcomes, the SCIs each receiver heard) and idle threads sleep (rayon).
    pub threads: u32,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { threads: 1 }
    }
}

/// More threads than this per run is a typo, not a machine.
const MAX_THREADS: u32 = 1024;

impl EngineConfig {
    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.threads > MAX_THREADS {
            return Err(ScenarioError::invalid(
                "engine.threads",
                format!("at most {MAX_THREADS} (0 chooses from the cores)"),
            ));
        }
        Ok(())
    }

    /// Threads for each of `runs` runs executed in parallel.
    pub fn threads_per_run(&self, runs: usize) -> usize {
        match self.threads {
            0 => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                (cores / runs.max(1)).max(1)
            }
            t => t as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automatic_threads_share_the_cores_among_runs() {
        let auto = EngineConfig { threads: 0 };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(auto.threads_per_run(1), cores);
        assert_eq!(auto.threads_per_run(cores * 2), 1);
        assert_eq!(EngineConfig { threads: 3 }.threads_per_run(8), 3);
        let e = EngineConfig { threads: 5000 }.validate().unwrap_err();
        assert!(e.to_string().contains("engine.threads"), "{e}");
    }
}
