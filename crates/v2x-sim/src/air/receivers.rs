//! The receivers' side of the air: what a transmission's start and end do at each
//! receiver ([`ArrivalContext::arrive`], [`DepartureContext::depart`], [`sense`]), run
//! shard by shard on the run's threads, each shard logging what its receivers do beyond
//! themselves for the air's thread to apply in the candidates' order; and the hook through
//! which a driver handles a decoded frame on the receiver's own thread ([`DecodedAlone`]).

use super::{Transmission, WeakField};
use crate::channel::{self, LinkBudget};
use crate::keyed_rng::{Draw, RunDice};
use crate::mobility::Position;
use crate::node_id::NodeId;
use crate::parallel::{Layout, Sharded};
use crate::phy::ChunkErrors;
use crate::reception::{PhyParams, Radio};

/// A receiver heard individually, kept in its shard's list until the transmission ends.
#[derive(Clone, Copy)]
pub(super) struct Receiver {
    /// Its place among the transmission's candidates: what it logs is applied in this order.
    pub(super) k: u32,
    pub(super) id: NodeId,
    /// Its index within its shard.
    pub(super) local: u32,
    /// Received power (mW).
    pub(super) mw: f64,
    pub(super) dist: f32,
}

/// A receiver's channel sensing changed as a transmission arrived.
pub(super) struct Arrived {
    pub(super) k: u32,
    pub(super) id: NodeId,
    pub(super) change: MediumChange,
}

/// What a transmission's end did at a receiver that its driver must apply: its radio was
/// receiving the frame's data, or its sensing changed.
#[derive(Clone, Copy)]
pub(super) struct Departed {
    pub(super) k: u32,
    pub(super) id: NodeId,
    /// `Some(decoded)` when the radio was receiving the frame's data.
    pub(super) outcome: Option<bool>,
    pub(super) change: MediumChange,
    pub(super) dist: f32,
    /// The decoded frame was handled on the receiver's thread, which logged these entries
    /// (a range of its shard's log; see [`DecodedAlone`]).
    pub(super) alone: Option<(u32, u32)>,
}

/// What a station's channel sensing did, for the access layer and the busy log (small:
/// one per receiver of every transmission).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum MediumChange {
    #[default]
    Same,
    /// Sensed busy from then on.
    Busy { sensed_at: u64 },
    /// Idle now, busy since then.
    Idle { since: u64 },
}

/// A frame decoded at a receiver.
#[derive(Debug, Clone, Copy)]
pub struct Decoded<'a, F> {
    pub to: NodeId,
    pub frame: &'a F,
    /// The transmission's serial number (the key of its draws).
    pub serial: u64,
    pub dist: f32,
    pub now: u64,
}

/// What a driver does with a decoded frame on the receiver's own thread, where the
/// receiver can handle it alone (the engine's security processing of a CAM): its state
/// lives in the radios' shards, and what reaches beyond it is logged and handed back with
/// the reception ([`super::Departure::alone`]).
pub trait DecodedAlone<F>: Sync {
    /// The driver's state of one station.
    type Station: Send;
    /// What it logs for the driver's thread.
    type Log: Send;
    /// Handles `d` at `station` if it can alone (logging into `log`); says whether it did.
    fn handle(&self, station: &mut Self::Station, d: &Decoded<'_, F>, log: &mut Vec<Self::Log>) -> bool;
}

/// No handling on the receivers' threads: every reception goes to the driver.
pub struct NotAlone;

impl<F> DecodedAlone<F> for NotAlone {
    type Station = ();
    type Log = ();
    fn handle(&self, _: &mut (), _: &Decoded<'_, F>, _: &mut Vec<()>) -> bool {
        false
    }
}

/// The receivers' side of [`super::Air::end`]: the hook, the driver's per-station state in the
/// radios' layout, and its logs per shard (scratch, reused).
pub struct Local<'l, H: DecodedAlone<F>, F> {
    pub hook: &'l H,
    pub stations: &'l mut Sharded<H::Station>,
    pub logs: &'l mut Vec<Vec<H::Log>>,
}

/// What every shard reads at a transmission's start.
pub(super) struct ArrivalContext<'c> {
    pub(super) src: NodeId,
    pub(super) src_pos: Position,
    pub(super) serial: u64,
    pub(super) now: u64,
    pub(super) end: u64,
    pub(super) layout: Layout,
    pub(super) candidates: &'c [(NodeId, f64)],
    pub(super) cutoff_m: f64,
    pub(super) weak: Option<&'c WeakField>,
    pub(super) node_cell: &'c [u32],
    pub(super) link: &'c LinkBudget,
    pub(super) phy: &'c PhyParams,
    pub(super) errors: &'c ChunkErrors,
    pub(super) dice: RunDice,
}

/// One shard's part of a transmission's start: its radios, and its lists of receivers
/// heard individually and of sensing changes.
pub(super) struct ArrivalShard<'s> {
    pub(super) shard: usize,
    pub(super) radios: &'s mut [Radio],
    pub(super) receivers: &'s mut Vec<Receiver>,
    pub(super) log: &'s mut Vec<Arrived>,
}

impl ArrivalContext<'_> {
    pub(super) fn run(&self, s: &mut ArrivalShard<'_>) {
        // The lists are filled on this thread's stack: their headers, side by side with
        // the other shards', would otherwise move between the cores with every push.
        let (mut mine, mut log) = (std::mem::take(s.receivers), std::mem::take(s.log));
        log.clear();
        let tx_dice = self.dice.transmission(self.serial);
        for (k, &(j, d)) in self.candidates.iter().enumerate() {
            // Each shard picks its own candidates from the list.
            let (owner, local) = self.layout.slot(j.index());
            if owner != s.shard {
                continue;
            }
            // Only the candidates heard individually.
            let individual = j != self.src
                && d <= self.cutoff_m
                && self
                    .weak
                    .is_none_or(|f| f.individual(self.src_pos, d, self.node_cell[j.index()]));
            if !individual {
                continue;
            }
            let Some(mw) = self.link.sample_mw(d, tx_dice.uniform(j, Draw::Fading)) else {
                continue;
            };
            let k = k as u32;
            let change = self.arrive(&mut s.radios[local], j, mw, d);
            mine.push(Receiver {
                k,
                id: j,
                local: local as u32,
                mw,
                dist: d as f32,
            });
            if change != MediumChange::Same {
                log.push(Arrived { k, id: j, change });
            }
        }
        (*s.receivers, *s.log) = (mine, log);
    }

    /// The signal arrives at receiver `j`, `d` metres away, with power `mw`; its sensing
    /// notices after the propagation delay and the detection window.
    fn arrive(&self, radio: &mut Radio, j: NodeId, mw: f64, d: f64) -> MediumChange {
        if let Some(field) = self.weak {
            radio.set_weak(
                field.mw(self.node_cell[j.index()]),
                self.now,
                self.phy,
                self.errors,
                self.dice.station(j),
            );
        }
        radio.signal_start(
            self.serial,
            mw,
            self.end,
            self.now,
            self.phy,
            self.errors,
            self.dice.station(j),
        );
        let sensed_at = self.now + channel::propagation_delay_ns(d) + self.phy.detection_ns;
        sense(radio, self.now, sensed_at, self.phy)
    }
}

/// What every shard reads at a transmission's end.
pub(super) struct DepartureContext<'c, H, F> {
    pub(super) tx: &'c Transmission<F>,
    pub(super) now: u64,
    pub(super) weak: Option<&'c WeakField>,
    pub(super) node_cell: &'c [u32],
    pub(super) phy: &'c PhyParams,
    pub(super) errors: &'c ChunkErrors,
    pub(super) dice: RunDice,
    pub(super) hook: &'c H,
}

/// One shard's part of a transmission's end: its radios and the driver's stations, its
/// receivers, its log, and what the hook logged.
pub(super) struct DepartureShard<'s, H: DecodedAlone<F>, F> {
    pub(super) radios: &'s mut [Radio],
    pub(super) stations: &'s mut [H::Station],
    pub(super) receivers: &'s [Receiver],
    pub(super) log: &'s mut Vec<Departed>,
    pub(super) alone: &'s mut Vec<H::Log>,
}

impl<H: DecodedAlone<F>, F: Sync> DepartureContext<'_, H, F> {
    pub(super) fn run(&self, s: &mut DepartureShard<'_, H, F>) {
        // The logs are filled on this thread's stack (see the arrivals).
        let (mut log, mut alone) = (std::mem::take(s.log), std::mem::take(s.alone));
        log.clear();
        alone.clear();
        for r in s.receivers {
            let (outcome, change) = self.depart(&mut s.radios[r.local as usize], r);
            if outcome.is_none() && change == MediumChange::Same {
                continue;
            }
            let handled = if outcome == Some(true) {
                let from = alone.len() as u32;
                let d = Decoded {
                    to: r.id,
                    frame: &self.tx.frame,
                    serial: self.tx.serial,
                    dist: r.dist,
                    now: self.now,
                };
                let done = self.hook.handle(&mut s.stations[r.local as usize], &d, &mut alone);
                done.then_some((from, alone.len() as u32))
            } else {
                None
            };
            log.push(Departed {
                k: r.k,
                id: r.id,
                outcome,
                change,
                dist: r.dist,
                alone: handled,
            });
        }
        (*s.log, *s.alone) = (log, alone);
    }

    /// The signal leaves receiver `r`: `Some(decoded)` if its radio was receiving it, and
    /// what its sensing does now.
    fn depart(&self, radio: &mut Radio, r: &Receiver) -> (Option<bool>, MediumChange) {
        let dice = self.dice.station(r.id);
        if let Some(field) = self.weak {
            radio.set_weak(
                field.mw(self.node_cell[r.id.index()]),
                self.now,
                self.phy,
                self.errors,
                dice,
            );
        }
        let outcome = radio.signal_end(self.tx.serial, r.mw, self.now, self.phy, self.errors, dice);
        (outcome, sense(radio, self.now, self.now, self.phy))
    }
}

/// Recomputes the channel sensing of one station's radio (a medium turning busy is sensed
/// from `sensed_at`); what the access layer does about a change is left to the air's
/// thread. Touches this radio only (the receivers of a transmission run it in parallel).
pub(super) fn sense(radio: &mut Radio, now: u64, sensed_at: u64, phy: &PhyParams) -> MediumChange {
    let busy = radio.cca_busy(now, phy);
    if busy == radio.busy {
        return MediumChange::Same;
    }
    radio.busy = busy;
    if busy {
        radio.busy_since = sensed_at;
        MediumChange::Busy { sensed_at }
    } else {
        MediumChange::Idle {
            since: radio.busy_since,
        }
    }
}
