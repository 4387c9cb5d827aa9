//! An [`Air`] with an agenda of its own, for a driver that has no events besides the
//! frames it hands over: the testbed's channel emulator, which plays it in wall time.
//! `transmit`, `advance(now)` → deliveries, `next_step`.
//!
//! A frame handed over at `t` goes to the access layer after every step due before `t`
//! and before those due at `t`: as in the simulator, where the event that hands a frame
//! over was scheduled before the air's steps due at the same time.

use super::{Agenda, Air, AirStep, Local, NotAlone};
use crate::access::{AccessLayer, Enqueued, Packet};
use crate::node_id::NodeId;
use crate::parallel::Sharded;

/// A frame received by a station.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery<F> {
    pub from: NodeId,
    pub to: NodeId,
    pub frame: F,
    /// When it was received (the end of its air time), ns.
    pub at_ns: u64,
}

/// What the air did, for a driver that keeps its own records.
#[derive(Debug, Clone, PartialEq)]
pub enum Happened {
    /// A frame went on the air; `heard`: the receivers its signal reaches above the floor
    /// (id, received power in mW).
    Sent {
        serial: u64,
        from: NodeId,
        start_ns: u64,
        end_ns: u64,
        bytes: u32,
        heard: Vec<(NodeId, f64)>,
    },
    /// A frame left the air; `received`: the receivers that were receiving its data, and
    /// whether they decoded it.
    Ended { serial: u64, received: Vec<(NodeId, bool)> },
    /// A station's access layer dropped frames (its queue was full, or they waited too
    /// long).
    Dropped { station: NodeId, frames: u64 },
}

/// An air and its own agenda (see the module documentation).
pub struct Standalone<A: AccessLayer<F>, F> {
    air: Air<A, F>,
    agenda: Agenda<AirStep<A::Timer>>,
    /// The (empty) per-station state of [`NotAlone`], in the radios' layout.
    units: Sharded<()>,
    no_logs: Vec<Vec<()>>,
    /// Steps before it have been played.
    now: u64,
    delivered: Vec<Delivery<F>>,
    journal: Vec<Happened>,
}

impl<A: AccessLayer<F>, F: Clone + Send + Sync> Standalone<A, F> {
    pub fn new(air: Air<A, F>) -> Self {
        Standalone {
            units: Sharded::new(air.stations(), air.layout().shards()),
            air,
            agenda: Agenda::default(),
            no_logs: Vec::new(),
            now: 0,
            delivered: Vec::new(),
            journal: Vec::new(),
        }
    }

    pub fn air(&self) -> &Air<A, F> {
        &self.air
    }

    /// Station `from` hands over `packet` at `at` (no earlier than the time already
    /// played).
    pub fn transmit(&mut self, from: NodeId, packet: Packet<F>, at: u64) {
        let at = at.max(self.now);
        while let Some((t, step)) = self.agenda.pop_due(at.saturating_sub(1)) {
            self.play(t, step);
        }
        self.now = at;
        if self.air.transmit(from, packet, at, &mut self.agenda) == Enqueued::Dropped {
            self.journal.push(Happened::Dropped {
                station: from,
                frames: 1,
            });
        }
    }

    /// When the next step is due.
    pub fn next_step(&self) -> Option<u64> {
        self.agenda.next_time()
    }

    /// Plays every step due by `now`; returns the frames received since the last call.
    pub fn advance(&mut self, now: u64) -> Vec<Delivery<F>> {
        let now = now.max(self.now);
        while let Some((t, step)) = self.agenda.pop_due(now) {
            self.play(t, step);
        }
        self.now = now;
        std::mem::take(&mut self.delivered)
    }

    /// What happened since the last call.
    pub fn take_journal(&mut self) -> Vec<Happened> {
        std::mem::take(&mut self.journal)
    }

    fn play(&mut self, t: u64, step: AirStep<A::Timer>) {
        match step {
            AirStep::Access(timer) => {
                let station = A::station(&timer);
                let accessed = self.air.access(timer, t, &mut self.agenda, &mut ());
                if accessed.dropped > 0 {
                    self.journal.push(Happened::Dropped {
                        station,
                        frames: accessed.dropped,
                    });
                }
                if let Some(sent) = accessed.sent {
                    self.journal.push(Happened::Sent {
                        serial: sent.serial,
                        from: sent.station,
                        start_ns: t,
                        end_ns: sent.end,
                        bytes: sent.bytes,
                        heard: sent.heard().collect(),
                    });
                }
            }
            AirStep::End(slot) => {
                let local = Local {
                    hook: &NotAlone,
                    stations: &mut self.units,
                    logs: &mut self.no_logs,
                };
                let mut ended = self.air.end(slot, t, &mut self.agenda, &mut (), local);
                let mut received = Vec::new();
                while let Some(d) = self.air.next_departure(&mut ended, &mut self.agenda, &mut ()) {
                    let Some(decoded) = d.decoded else { continue };
                    received.push((d.to, decoded));
                    if decoded {
                        self.delivered.push(Delivery {
                            from: ended.src(),
                            to: d.to,
                            frame: ended.frame().clone(),
                            at_ns: t,
                        });
                    }
                }
                self.journal.push(Happened::Ended {
                    serial: ended.serial(),
                    received,
                });
                self.air.recycle(ended);
            }
        }
    }
}
