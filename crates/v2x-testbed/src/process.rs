//! What every child process of a run (station, channel emulator) does about itself: stop
//! when told or when the orchestrator is gone, and report its CPU time and peak memory.

use crate::log::{Event, EventRecord, Log, UsageRecord};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Sets `stop` on SIGTERM/SIGINT, or once the process is re-parented because the
/// orchestrator (`parent`) is gone, so that no child outlives its run.
pub(crate) fn stop_on_signal_or_orphaned(parent: Option<u32>, stop: Arc<AtomicBool>) {
    let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, stop.clone());
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, stop.clone());
    if let Some(parent) = parent {
        std::thread::spawn(move || loop {
            if std::os::unix::process::parent_id() != parent {
                stop.store(true, Ordering::SeqCst);
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        });
    }
}

/// CPU time (user+system, µs) and peak RSS (KiB) of this process, as `station`'s row of
/// `usage.csv`.
///
/// Peak RSS is this image's `VmHWM` (/proc/self/status): `getrusage`'s `ru_maxrss` keeps
/// the high-water mark of the forked orchestrator from before `exec`, so every station
/// started by a large orchestrator would report at least its size.
pub(crate) fn usage(station: &str) -> nix::Result<UsageRecord> {
    let u = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF)?;
    let us = |t: nix::sys::time::TimeVal| (t.tv_sec() * 1_000_000 + t.tv_usec()).max(0) as u64;
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| vm_hwm_kib(&s))
        .unwrap_or(u.max_rss().max(0) as u64);
    Ok(UsageRecord {
        station: station.to_string(),
        cpu_us: us(u.user_time()) + us(u.system_time()),
        max_rss_kib: peak,
    })
}

/// Logs this process's resource use (or why it could not be read) as `station`'s.
pub(crate) fn log_usage(log: &Log, station: &str) {
    match usage(station) {
        Ok(u) => log.usage(u),
        Err(e) => log.event(EventRecord {
            station: station.to_string(),
            time_us: crate::clock::now_us(),
            event: Event::UsageUnavailable,
            detail: format!("getrusage: {e}"),
        }),
    }
}

/// `VmHWM:   12345 kB` of a /proc/PID/status text.
fn vm_hwm_kib(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_rss_is_read_from_proc_status() {
        assert_eq!(
            vm_hwm_kib("Name:\tv2x\nVmPeak:\t  9 kB\nVmHWM:\t   23456 kB\n"),
            Some(23456)
        );
        assert_eq!(vm_hwm_kib("Name:\tv2x\n"), None);
        let own = vm_hwm_kib(&std::fs::read_to_string("/proc/self/status").unwrap()).unwrap();
        assert!(own > 0);
    }
}
