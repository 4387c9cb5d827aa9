//! Where a report comes from: the program and the commit it was built from, when and on
//! which host it ran, how loaded that host was, and the command line. Every report page
//! ends with it ([`crate::html::Page::finish`]) and result files carry it as JSON, so a
//! number can always be traced to the build, machine and command that produced it.

use serde::Serialize;
use std::sync::OnceLock;

/// The program that writes reports, as it identifies itself (set once at start-up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Name and version, e.g. `v2x 0.1.0`.
    pub tool: String,
    /// The commit it was built from (`unknown` outside a git checkout).
    pub commit: String,
}

static PROGRAM: OnceLock<Program> = OnceLock::new();

/// Names the program for every report it writes; the first call wins. A library used
/// without it (the Python package, tests) reports `v2xsec VERSION` and an unknown commit.
pub fn set_program(program: Program) {
    let _ = PROGRAM.set(program);
}

/// The record of one report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provenance {
    pub tool: String,
    pub commit: String,
    /// UTC, RFC 3339.
    pub date: String,
    pub host: String,
    /// 1, 5 and 15 minute load averages when the report was written (`/proc/loadavg`).
    pub load_average: String,
    /// How many processors the host has (to read the load against).
    pub cpus: usize,
    /// The command line, arguments quoted where they need it.
    pub command: String,
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// An argument as a shell reads it back.
fn quoted(a: &str) -> String {
    let plain = !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', r"'\''"))
    }
}

impl Provenance {
    /// This process, now.
    pub fn now() -> Provenance {
        let program = PROGRAM.get().cloned().unwrap_or_else(|| Program {
            tool: format!("v2xsec {}", env!("CARGO_PKG_VERSION")),
            commit: "unknown".into(),
        });
        let date = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_else(|_| "unknown".into());
        let load_average = read_trimmed("/proc/loadavg")
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|| "unknown".into());
        Provenance {
            tool: program.tool,
            commit: program.commit,
            date,
            host: read_trimmed("/etc/hostname")
                .or_else(|| read_trimmed("/proc/sys/kernel/hostname"))
                .unwrap_or_else(|| "unknown".into()),
            load_average,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            command: std::env::args().map(|a| quoted(&a)).collect::<Vec<_>>().join(" "),
        }
    }

    /// One line for a report's foot.
    pub fn line(&self) -> String {
        format!(
            "{} (commit {}), {} on {}, load average {} ({} CPUs): {}",
            self.tool, self.commit, self.date, self.host, self.load_average, self.cpus, self.command
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_every_field_and_quotes_arguments() {
        let p = Provenance::now();
        assert!(p.tool.contains(env!("CARGO_PKG_VERSION")));
        assert!(p.date.ends_with('Z') && p.date.len() >= 20, "{}", p.date);
        assert!(!p.host.is_empty() && p.cpus >= 1);
        assert!(!p.command.is_empty());
        if std::path::Path::new("/proc/loadavg").exists() {
            assert_eq!(p.load_average.split(' ').count(), 3, "{}", p.load_average);
        }
        assert_eq!(quoted("out/sim"), "out/sim");
        assert_eq!(quoted("a b"), "'a b'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        let line = p.line();
        assert!(line.contains("commit") && line.contains("load average"), "{line}");
    }
}
