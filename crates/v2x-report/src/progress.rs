//! Progress of long work: libraries report it, the program decides how to show it (a
//! terminal bar, lines in a log, nothing), so that no library writes to standard error.
//!
//! Two kinds: counted steps ([`Progress::start`], [`Progress::step`]) and, for work that
//! advances through simulated time, a [`RunMeter`] per run that the simulator moves as it
//! goes and the program reads when it draws.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Receives the progress of one piece of work; every method defaults to nothing.
pub trait Progress: Sync {
    /// The work has `total` steps.
    fn start(&self, _total: u64) {}
    /// One more step is starting (or done, for work counted after the fact); `what` names it.
    fn step(&self, _what: &str) {}
    /// The work is over.
    fn finish(&self) {}
    /// A run of `total_s` simulated seconds named `label` is about to start; the meter it
    /// returns is moved by the simulator. `None` (the default): nobody is watching.
    fn run_meter(&self, _label: &str, _total_s: f64) -> Option<Arc<RunMeter>> {
        None
    }
}

/// Shows nothing.
pub struct Silent;

impl Progress for Silent {}

/// One part of a larger piece of work (a sweep's run): its steps and run meters count
/// toward the whole (meters labelled with `prefix`), its own start and finish do not (the
/// whole was started with every part's steps).
pub struct Part<'a> {
    pub whole: &'a dyn Progress,
    pub prefix: String,
}

impl Progress for Part<'_> {
    fn step(&self, what: &str) {
        self.whole.step(&format!("{}{what}", self.prefix));
    }

    fn run_meter(&self, label: &str, total_s: f64) -> Option<Arc<RunMeter>> {
        self.whole.run_meter(&format!("{}{label}", self.prefix), total_s)
    }
}

/// Where one simulation run stands, shared between the simulator (which writes) and the
/// program drawing progress (which reads). Plain atomics: the simulator's writes are a
/// few stores every few thousand events.
#[derive(Debug)]
pub struct RunMeter {
    label: String,
    total_ns: u64,
    now_ns: AtomicU64,
    events: AtomicU64,
    running: AtomicBool,
    done: AtomicBool,
}

/// A reading of a [`RunMeter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub now_ns: u64,
    pub total_ns: u64,
    pub events: u64,
    /// Set up (mobility, tables) and in its event loop.
    pub running: bool,
    pub done: bool,
}

impl Reading {
    /// Share of the simulated time done, in [0, 1].
    pub fn fraction(&self) -> f64 {
        if self.done {
            1.0
        } else if self.total_ns == 0 {
            0.0
        } else {
            (self.now_ns as f64 / self.total_ns as f64).clamp(0.0, 1.0)
        }
    }
}

impl RunMeter {
    pub fn new(label: impl Into<String>, total_s: f64) -> RunMeter {
        RunMeter {
            label: label.into(),
            total_ns: (total_s.max(0.0) * 1e9) as u64,
            now_ns: AtomicU64::new(0),
            events: AtomicU64::new(0),
            running: AtomicBool::new(false),
            done: AtomicBool::new(false),
        }
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// The run is set up and enters its event loop.
    pub fn running(&self) {
        self.running.store(true, Ordering::Relaxed);
    }

    /// Simulated time `now_ns` reached after `events` events.
    pub fn advance(&self, now_ns: u64, events: u64) {
        self.now_ns.store(now_ns, Ordering::Relaxed);
        self.events.store(events, Ordering::Relaxed);
    }

    /// The run is over (finished or failed).
    pub fn done(&self) {
        self.done.store(true, Ordering::Relaxed);
    }

    pub fn read(&self) -> Reading {
        Reading {
            now_ns: self.now_ns.load(Ordering::Relaxed),
            total_ns: self.total_ns,
            events: self.events.load(Ordering::Relaxed),
            running: self.running.load(Ordering::Relaxed),
            done: self.done.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Watcher(Mutex<Vec<Arc<RunMeter>>>);

    impl Progress for Watcher {
        fn run_meter(&self, label: &str, total_s: f64) -> Option<Arc<RunMeter>> {
            let m = Arc::new(RunMeter::new(label, total_s));
            self.0.lock().unwrap().push(m.clone());
            Some(m)
        }
    }

    #[test]
    fn a_meter_reads_what_the_run_wrote_and_parts_name_their_whole() {
        let w = Watcher::default();
        let part = Part {
            whole: &w,
            prefix: "run 3/".into(),
        };
        let m = part.run_meter("ecdsa r0", 2.0).unwrap();
        assert_eq!(w.0.lock().unwrap()[0].label(), "run 3/ecdsa r0");
        assert_eq!(m.read().fraction(), 0.0);
        m.running();
        m.advance(500_000_000, 4096);
        let r = m.read();
        assert!(r.running && !r.done);
        assert_eq!((r.fraction(), r.events), (0.25, 4096));
        m.done();
        assert_eq!(m.read().fraction(), 1.0);
        assert!(Silent.run_meter("x", 1.0).is_none());
    }
}
