//! How a run reports its progress: the event loop ticks a [`Ticker`] once per event, which
//! every few thousand events stores the simulated time and event count in the run's
//! [`RunMeter`] (read by whoever draws the progress; see `v2x_report::progress`).

use std::sync::Arc;
use v2x_report::RunMeter;

/// Events between two stores into the meter: a few per millisecond of wall time at city
/// scale, so readings move smoothly and the loop pays one branch per event.
const EVERY: u64 = 4096;

/// The event loop's side of a [`RunMeter`].
#[derive(Debug, Default)]
pub struct Ticker {
    meter: Option<Arc<RunMeter>>,
    events: u64,
}

impl Ticker {
    pub fn new(meter: Arc<RunMeter>) -> Ticker {
        meter.running();
        Ticker {
            meter: Some(meter),
            events: 0,
        }
    }

    /// One event at simulated time `now_ns`.
    #[inline]
    pub fn tick(&mut self, now_ns: u64) {
        self.events += 1;
        if self.events.is_multiple_of(EVERY) {
            if let Some(m) = &self.meter {
                m.advance(now_ns, self.events);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_moves_every_few_thousand_events() {
        let m = Arc::new(RunMeter::new("r", 1.0));
        let mut t = Ticker::new(m.clone());
        assert!(m.read().running);
        for i in 1..EVERY {
            t.tick(i);
        }
        assert_eq!(m.read().events, 0);
        t.tick(7_000);
        assert_eq!((m.read().now_ns, m.read().events), (7_000, EVERY));
        Ticker::default().tick(1);
    }
}
