//! CPU time as Linux accounts it (`/proc/PID/task/TID/stat`, `/proc/PID/stat`): per thread by
//! name, so that the benchmark can split the service's CPU into SQLite (`sqlx-sqlite-worker-*`
//! threads, shown truncated to 15 characters by the kernel, and the `pki-sqlite-w` writer) and
//! the HTTP runtime (every other thread); and per process tree (a PostgreSQL server and its
//! backends). Work that runs inline on the runtime's threads (crypto, SQLite's lookups) is
//! measured where it runs, with the thread's CPU clock ([`CpuCounter`]), and moved out of the
//! runtime's share ([`Split::with_inline`]).

use std::collections::HashMap;
use std::fs;
use std::io;
use std::time::Duration;

fn ticks_per_second() -> u64 {
    // SAFETY: sysconf only reads a configuration value.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as u64
    } else {
        100
    }
}

/// `(comm, ppid, utime + stime in ticks)` from a `stat` line.
fn parse_stat(line: &str) -> Option<(String, u32, u64)> {
    let open = line.find('(')?;
    let close = line.rfind(')')?;
    let comm = line.get(open + 1..close)?.to_string();
    let rest: Vec<&str> = line.get(close + 1..)?.split_whitespace().collect();
    // After the comm: state(3) ppid(4) ... utime(14) stime(15), 1-based over the whole line.
    let ppid = rest.get(1)?.parse().ok()?;
    let utime: u64 = rest.get(11)?.parse().ok()?;
    let stime: u64 = rest.get(12)?.parse().ok()?;
    Some((comm, ppid, utime + stime))
}

fn ticks(t: u64) -> Duration {
    Duration::from_secs_f64(t as f64 / ticks_per_second() as f64)
}

/// CPU time of each thread of process `pid`, summed by thread name.
pub fn threads(pid: u32) -> io::Result<HashMap<String, Duration>> {
    let mut out: HashMap<String, Duration> = HashMap::new();
    for e in fs::read_dir(format!("/proc/{pid}/task"))? {
        let Ok(e) = e else { continue };
        let Ok(line) = fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        if let Some((comm, _, t)) = parse_stat(&line) {
            *out.entry(comm).or_default() += ticks(t);
        }
    }
    Ok(out)
}

/// CPU time of process `root` and all its descendants (living ones; a process that exited
/// takes its time with it, so measure around work that keeps its processes).
pub fn process_tree(root: u32) -> io::Result<Duration> {
    let mut parent: HashMap<u32, u32> = HashMap::new();
    let mut time: HashMap<u32, u64> = HashMap::new();
    for e in fs::read_dir("/proc")? {
        let Ok(e) = e else { continue };
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(line) = fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        if let Some((_, ppid, t)) = parse_stat(&line) {
            parent.insert(pid, ppid);
            time.insert(pid, t);
        }
    }
    let in_tree = |mut p: u32| {
        for _ in 0..64 {
            if p == root {
                return true;
            }
            match parent.get(&p) {
                Some(&q) if q != 0 && q != p => p = q,
                _ => return false,
            }
        }
        false
    };
    Ok(ticks(time.iter().filter(|(p, _)| in_tree(**p)).map(|(_, t)| *t).sum()))
}

/// The service's CPU split: crypto, SQLite and the rest (HTTP, routing, async glue, the
/// PostgreSQL client protocol).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Split {
    pub crypto: Duration,
    pub sqlite: Duration,
    pub runtime: Duration,
}

impl Split {
    /// Splits a thread table by name.
    pub fn of(threads: &HashMap<String, Duration>) -> Split {
        let mut s = Split::default();
        for (name, t) in threads {
            if name.starts_with("sqlx-sqlite") || name.starts_with("pki-sqlite") {
                s.sqlite += *t;
            } else {
                s.runtime += *t;
            }
        }
        s
    }

    /// Moves the work measured inline on the runtime's threads (crypto, database lookups)
    /// from the runtime to its category.
    pub fn with_inline(self, crypto: Duration, database: Duration) -> Split {
        Split {
            crypto: self.crypto + crypto,
            sqlite: self.sqlite + database,
            runtime: self.runtime.saturating_sub(crypto + database),
        }
    }

    /// `self - before`, per category.
    pub fn since(self, before: Split) -> Split {
        Split {
            crypto: self.crypto.saturating_sub(before.crypto),
            sqlite: self.sqlite.saturating_sub(before.sqlite),
            runtime: self.runtime.saturating_sub(before.runtime),
        }
    }

    pub fn total(&self) -> Duration {
        self.crypto + self.sqlite + self.runtime
    }
}

/// The calling thread's CPU time so far (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec.max(0) as u64, t.tv_nsec.clamp(0, 999_999_999) as u32)
}

/// CPU time spent in one kind of work, on whichever threads run it.
#[derive(Debug, Default)]
pub struct CpuCounter {
    nanos: std::sync::atomic::AtomicU64,
}

impl CpuCounter {
    /// Runs `f` and adds the CPU time the calling thread spent in it.
    pub fn time<R>(&self, f: impl FnOnce() -> R) -> R {
        let t0 = thread_time();
        let r = f();
        let spent = thread_time().saturating_sub(t0);
        self.nanos
            .fetch_add(spent.as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
        r
    }

    /// The total so far.
    pub fn total(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// The 1-, 5- and 15-minute load averages (`/proc/loadavg`).
pub fn load_average() -> Option<[f64; 3]> {
    let s = fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = s.split_whitespace().map(|x| x.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_with_spaces_and_parentheses_in_the_name_parses() {
        let line = "4242 (pki (crypto) 0) S 4200 4242 4200 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0";
        assert_eq!(parse_stat(line), Some(("pki (crypto) 0".to_string(), 4200, 325)));
    }

    #[test]
    fn a_counter_sees_the_cpu_of_what_it_times_and_not_of_sleep() {
        let c = CpuCounter::default();
        c.time(|| std::thread::sleep(Duration::from_millis(100)));
        assert!(c.total() < Duration::from_millis(50), "{:?}", c.total());
        let x = c.time(|| {
            let t0 = thread_time();
            let mut x = 0u64;
            while thread_time() - t0 < Duration::from_millis(60) {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            x
        });
        std::hint::black_box(x);
        assert!(c.total() >= Duration::from_millis(60), "{:?}", c.total());
        let split = Split {
            crypto: Duration::from_millis(1),
            sqlite: Duration::from_millis(2),
            runtime: Duration::from_millis(10),
        }
        .with_inline(Duration::from_millis(4), Duration::from_millis(3));
        assert_eq!(
            (split.crypto, split.sqlite, split.runtime),
            (
                Duration::from_millis(5),
                Duration::from_millis(5),
                Duration::from_millis(3)
            )
        );
    }

    #[test]
    fn this_process_burns_cpu_that_is_seen() {
        let before = threads(std::process::id()).unwrap();
        let t0 = std::time::Instant::now();
        let mut x = 0u64;
        while t0.elapsed() < Duration::from_millis(300) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        let after = threads(std::process::id()).unwrap();
        let sum = |m: &HashMap<String, Duration>| m.values().sum::<Duration>();
        assert!(sum(&after) > sum(&before), "{before:?} {after:?}");
        assert!(process_tree(std::process::id()).unwrap() >= sum(&after) / 2);
    }
}
