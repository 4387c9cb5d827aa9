//! Progress of long commands (`bench`, `sim`, `sweep`, `model`, `reproduce`): the libraries
//! report it through `v2x_report::Progress` (counted steps, and a `RunMeter` per simulation
//! run that moves with simulated time), and this draws it on standard error: a live bar on
//! a terminal, plain lines in a log when standard error is not a terminal.
//!
//! A drawing thread reads the counts and meters: every 200 ms for the bar; for logs, a
//! first line 2 s after the start, then at an interval that grows with the elapsed time
//! (a sixth of it, between 2 s and 60 s), so short runs say little and long ones stay
//! readable.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use v2x_report::{Reading, RunMeter};

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Off,
    Bar,
    Lines,
}

/// What the libraries reported so far.
struct State {
    started: Instant,
    total: AtomicU64,
    done: AtomicU64,
    last_step: Mutex<String>,
    meters: Mutex<Vec<Watched>>,
    stop: AtomicBool,
}

/// A run's meter with when the drawing first saw it running (for its event rate).
struct Watched {
    meter: Arc<RunMeter>,
    running_since: Option<(Instant, u64)>,
}

pub struct TermProgress {
    mode: Mode,
    state: Arc<State>,
    bar: ProgressBar,
    drawer: Mutex<Option<JoinHandle<()>>>,
}

impl TermProgress {
    /// A bar when `wanted` and standard error is a terminal, log lines when it is not, and
    /// nothing when not `wanted`.
    pub fn new(wanted: bool) -> TermProgress {
        let mode = match (wanted, std::io::stderr().is_terminal()) {
            (false, _) => Mode::Off,
            (true, true) => Mode::Bar,
            (true, false) => Mode::Lines,
        };
        let target = if mode == Mode::Bar {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(1000), target);
        if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {percent:>3}% {wide_msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        TermProgress {
            mode,
            state: Arc::new(State {
                started: Instant::now(),
                total: AtomicU64::new(0),
                done: AtomicU64::new(0),
                last_step: Mutex::new(String::new()),
                meters: Mutex::new(Vec::new()),
                stop: AtomicBool::new(false),
            }),
            bar,
            drawer: Mutex::new(None),
        }
    }

    /// Starts the drawing thread once.
    fn ensure_drawer(&self) {
        if self.mode == Mode::Off {
            return;
        }
        let Ok(mut slot) = self.drawer.lock() else { return };
        if slot.is_some() {
            return;
        }
        let (state, bar, mode) = (self.state.clone(), self.bar.clone(), self.mode);
        *slot = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || draw_until_stopped(&state, &bar, mode))
            .ok();
    }
}

fn draw_until_stopped(state: &State, bar: &ProgressBar, mode: Mode) {
    let mut next_line = Duration::from_secs(2);
    while !state.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(200));
        match mode {
            Mode::Bar => {
                let (fraction, text) = summary(state, true);
                bar.set_position((fraction * 1000.0).round() as u64);
                bar.set_message(text);
            }
            Mode::Lines => {
                let (fraction, text) = summary(state, false);
                let elapsed = state.started.elapsed();
                if elapsed >= next_line {
                    eprintln!(
                        "progress {:>7.1} s  {:>3.0} %  {text}",
                        elapsed.as_secs_f64(),
                        fraction * 100.0
                    );
                    next_line = elapsed + (elapsed / 6).clamp(Duration::from_secs(2), Duration::from_secs(60));
                }
            }
            Mode::Off => return,
        }
    }
}

/// The share of the work done and one line saying where it stands (`compact` for the
/// width of a terminal beside the bar).
fn summary(state: &State, compact: bool) -> (f64, String) {
    let total = state.total.load(Ordering::Relaxed);
    let done = state.done.load(Ordering::Relaxed);
    let mut meters = match state.meters.lock() {
        Ok(m) => m,
        Err(_) => return (0.0, String::new()),
    };
    if meters.is_empty() {
        let step = state.last_step.lock().map(|s| s.clone()).unwrap_or_default();
        let fraction = if total == 0 { 0.0 } else { done as f64 / total as f64 };
        return (fraction, format!("{done}/{total} {step}"));
    }
    let now = Instant::now();
    let readings: Vec<(String, Reading, Option<f64>)> = meters
        .iter_mut()
        .map(|w| {
            let r = w.meter.read();
            if r.running && w.running_since.is_none() {
                w.running_since = Some((now, r.events));
            }
            let rate = w.running_since.and_then(|(t, e0)| {
                let dt = now.duration_since(t).as_secs_f64();
                (dt > 0.5 && r.events > e0).then(|| (r.events - e0) as f64 / dt)
            });
            (w.meter.label().to_string(), r, rate)
        })
        .collect();
    drop(meters);
    let runs = (total as usize).max(readings.len()).max(1);
    let finished = readings.iter().filter(|r| r.1.done).count();
    let fraction = readings.iter().map(|r| r.1.fraction()).sum::<f64>() / runs as f64;
    let active: Vec<String> = readings
        .iter()
        .filter(|r| !r.1.done)
        .map(|(label, r, rate)| run_text(label, r, *rate, compact))
        .collect();
    let show = if compact { 1 } else { 2 };
    let shown = active.iter().take(show).cloned().collect::<Vec<_>>().join("; ");
    let more = match (active.len().saturating_sub(show), compact) {
        (0, _) => String::new(),
        (n, true) => format!(" +{n}"),
        (n, false) => format!("; +{n} more running"),
    };
    if compact {
        (fraction, format!("{finished}/{runs} {shown}{more}"))
    } else {
        (fraction, format!("{finished}/{runs} runs done; {shown}{more}"))
    }
}

/// `ecdsa #0 1.20/3.00 s simulated, 52.3k events/s` (compact: `ecdsa #0 1.20/3.00 s
/// 52.3k ev/s`), or `setting up`.
fn run_text(label: &str, r: &Reading, rate: Option<f64>, compact: bool) -> String {
    if !r.running {
        return format!("{label} setting up");
    }
    let unit = if compact { "ev/s" } else { "events/s" };
    let rate = rate.map_or_else(String::new, |e| {
        if e >= 1e6 {
            format!(", {:.2}M {unit}", e / 1e6)
        } else {
            format!(", {:.1}k {unit}", e / 1e3)
        }
    });
    format!(
        "{label} {:.2}/{:.1} s{}{rate}",
        r.now_ns as f64 / 1e9,
        r.total_ns as f64 / 1e9,
        if compact { "" } else { " simulated" }
    )
}

impl v2x_report::Progress for TermProgress {
    fn start(&self, total: u64) {
        self.state.total.store(total, Ordering::Relaxed);
        self.ensure_drawer();
    }

    fn step(&self, what: &str) {
        self.state.done.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut s) = self.state.last_step.lock() {
            *s = what.to_string();
        }
    }

    fn finish(&self) {
        self.state.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.drawer.lock().ok().and_then(|mut d| d.take()) {
            let _ = h.join();
        }
        self.bar.finish_and_clear();
    }

    fn run_meter(&self, label: &str, total_s: f64) -> Option<Arc<RunMeter>> {
        if self.mode == Mode::Off {
            return None;
        }
        let meter = Arc::new(RunMeter::new(label, total_s));
        if let Ok(mut m) = self.state.meters.lock() {
            m.push(Watched {
                meter: meter.clone(),
                running_since: None,
            });
        }
        self.ensure_drawer();
        Some(meter)
    }
}

impl Drop for TermProgress {
    fn drop(&mut self) {
        v2x_report::Progress::finish(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_follows_simulated_time() {
        let state = State {
            started: Instant::now(),
            total: AtomicU64::new(2),
            done: AtomicU64::new(0),
            last_step: Mutex::new(String::new()),
            meters: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
        };
        assert_eq!(summary(&state, false).1, "0/2 ");
        let m = Arc::new(RunMeter::new("ecdsa #0", 3.0));
        state.meters.lock().unwrap().push(Watched {
            meter: m.clone(),
            running_since: None,
        });
        assert!(summary(&state, false).1.contains("ecdsa #0 setting up"));
        m.running();
        m.advance(1_500_000_000, 10_000);
        let (fraction, text) = summary(&state, false);
        assert_eq!(fraction, 0.25, "half of one of two runs");
        assert!(text.contains("0/2 runs done; ecdsa #0 1.50/3.0 s simulated"), "{text}");
        assert_eq!(summary(&state, true).1, "0/2 ecdsa #0 1.50/3.0 s");
        m.done();
        assert!(summary(&state, false).1.starts_with("1/2 runs done"));
    }
}
