//! The air: one sans-I/O model of the shared radio channel, driven in simulated time by the
//! engine and in wall time by the testbed's channel emulator (through [`Standalone`]).
//!
//! It holds what every radio access technology shares — where the stations are, the
//! signals on the air, and what each receiver decodes (received power from the link
//! budget, summed and weak interference, preamble detection, SINR and error model, half
//! duplex, channel sensing: [`crate::reception::Radio`]) — and leaves who transmits when,
//! for how long and on which resource to its [`AccessLayer`]. Its driver keeps the time: the
//! air schedules its steps ([`AirStep`]) on the driver's [`Agenda`] and plays each when the
//! driver hands it back:
//!
//! - [`Air::transmit`]: a station hands over a packet (its access layer queues it);
//! - [`Air::access`]: an access layer's timer is due; a granted frame goes on the air, and
//!   every receiver within range sees its signal arrive and re-senses the medium after the
//!   propagation delay and the detection window;
//! - [`Air::end`]: a transmission leaves the air; every receiver that heard it sees its
//!   signal depart and re-senses; [`Air::next_departure`] then hands the receivers'
//!   outcomes to the driver one by one, in a fixed order, after the access layer has heard
//!   of each.
//!
//! Receivers' work runs on the run's threads, each receiver on the thread that owns its
//! radio (see [`crate::parallel`]); what reaches beyond a receiver (access-layer
//! reactions, deliveries) is logged and applied in the order of the transmission's
//! candidate list, so the outcome does not depend on the thread count. A driver may handle
//! a decoded frame on the receiver's own thread too ([`DecodedAlone`]).
//!
//! One rule orders equal-time steps (the agenda's: first scheduled first), one rounds the
//! propagation delay ([`crate::channel::propagation_delay_ns`]).

pub mod agenda;
mod receivers;
pub mod standalone;
pub mod weak;

pub use agenda::Agenda;
pub use receivers::{Decoded, DecodedAlone, Local, NotAlone};
pub use standalone::{Delivery, Standalone};

use crate::access::{AccessLayer, Enqueued, Grant, Medium, Packet, Resource, Timers};
use crate::channel::{Fading, LinkBudget, PathLoss};
use crate::keyed_rng::RunDice;
use crate::mobility::Position;
use crate::node_id::NodeId;
use crate::parallel::{KeyOrder, Layout, Sharded, Workers};
use crate::phy::ChunkErrors;
use crate::reception::{PhyParams, Radio};
use crate::scenario::{CcaModel, RadioConfig, WeakInterference};
use crate::spatial::SpatialGrid;
use receivers::{
    sense, ArrivalContext, ArrivalShard, Arrived, Departed, DepartureContext, DepartureShard, MediumChange, Receiver,
};
use weak::WeakField;

/// A step of the air on its driver's agenda.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AirStep<T> {
    /// An access layer's timer: hand it to [`Air::access`].
    Access(T),
    /// A transmission leaves the air (its slot): hand it to [`Air::end`].
    End(u32),
}

/// The air's steps scheduled by its access layer.
struct AccessTimers<'q, Q>(&'q mut Q);

impl<T, Q: Timers<AirStep<T>>> Timers<T> for AccessTimers<'_, Q> {
    fn at(&mut self, t: u64, timer: T) {
        self.0.at(t, AirStep::Access(timer));
    }
}

/// What the air reports besides receptions: the busy periods of each station's channel
/// sensing (the channel busy ratio).
pub trait BusyLog {
    /// Station `n` sensed the medium busy from `since` until `until`.
    fn busy(&mut self, n: NodeId, since: u64, until: u64);
}

/// No report.
impl BusyLog for () {
    fn busy(&mut self, _n: NodeId, _since: u64, _until: u64) {}
}

/// How to build an [`Air`].
#[derive(Debug, Clone, Copy)]
pub struct AirConfig<'r> {
    /// The `[radio]` table: channel, PHY and reception models.
    pub radio: &'r RadioConfig,
    pub stations: usize,
    /// Periods of the map along x and y where it wraps (radio distances wrap as the
    /// vehicles do).
    pub periods: [Option<f64>; 2],
    /// A transmission's candidate list ([`OnAir::candidates`]) reaches at least this far
    /// (what the driver counts beyond the stations that can hear it).
    pub candidates_m: f64,
    /// The run's seed: the fading and reception draws (the access layer has its own).
    pub seed: u64,
}

/// Link tables are built up to this range at most.
const MAX_CUTOFF_M: f64 = 100_000.0;

/// The weak-interference field, built once the stations' first positions are known.
struct WeakSpec {
    periods: [Option<f64>; 2],
    cell_m: f64,
    radius_m: f64,
}

/// A transmission on the air.
struct Transmission<F> {
    /// Unique within the run: the key of the channel's random draws.
    serial: u64,
    src: NodeId,
    frame: F,
    bytes: u32,
    resource: Resource,
    start: u64,
    /// The receivers heard individually, per shard.
    receivers: Vec<Vec<Receiver>>,
    /// What it added to the weak-interference field (cell, units).
    weak: Vec<(u32, i64)>,
}

/// A frame the access layer put on the air, for its driver to report.
pub struct OnAir<'a, F> {
    pub station: NodeId,
    pub serial: u64,
    pub frame: &'a F,
    pub bytes: u32,
    pub queued_ns: u64,
    pub end: u64,
    /// The stations near the transmitter (id, distance), in the range query's order, the
    /// transmitter included: the receivers and the driver's [`AirConfig::candidates_m`].
    pub candidates: &'a [(NodeId, f64)],
    receivers: &'a [Vec<Receiver>],
}

impl<F> OnAir<'_, F> {
    /// The receivers that hear it individually (id, received power in mW), by shard.
    pub fn heard(&self) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        self.receivers.iter().flatten().map(|r| (r.id, r.mw))
    }

    /// How many receivers hear it individually.
    pub fn signals(&self) -> usize {
        self.receivers.iter().map(Vec::len).sum()
    }
}

/// What an access step did.
pub struct Accessed<'a, F> {
    /// Frames the access layer dropped for waiting too long.
    pub dropped: u64,
    /// The frame that went on the air, if any.
    pub sent: Option<OnAir<'a, F>>,
}

/// A transmission that left the air, its receivers' outcomes still to be taken one by one
/// with [`Air::next_departure`] (every one of them: the access layer hears of each as it
/// is taken), then given back with [`Air::recycle`].
pub struct Ended<F> {
    tx: Transmission<F>,
    logs: Vec<Vec<Departed>>,
    order: KeyOrder,
    now: u64,
    left: usize,
}

impl<F> Ended<F> {
    pub fn frame(&self) -> &F {
        &self.tx.frame
    }
    pub fn src(&self) -> NodeId {
        self.tx.src
    }
    pub fn serial(&self) -> u64 {
        self.tx.serial
    }
    pub fn bytes(&self) -> u32 {
        self.tx.bytes
    }
    /// When it went on the air.
    pub fn start(&self) -> u64 {
        self.tx.start
    }
}

/// One receiver's outcome of a transmission's end.
#[derive(Debug, Clone, PartialEq)]
pub struct Departure {
    pub to: NodeId,
    /// `Some(decoded)` when the receiver was receiving the frame's data; `None` when only
    /// its channel sensing changed.
    pub decoded: Option<bool>,
    pub dist: f32,
    /// Handled on the receiver's thread: its shard, and the range of that shard's log its
    /// handling filled.
    pub alone: Option<(usize, std::ops::Range<usize>)>,
}

/// The shared radio channel of a run (see the module documentation).
pub struct Air<A, F> {
    access: A,
    link: LinkBudget,
    phy: PhyParams,
    errors: ChunkErrors,
    dice: RunDice,
    cutoff_m: f64,
    /// Radius of the range query for the receivers of a transmission.
    receivers_m: f64,
    grid: SpatialGrid,
    positions: Vec<Option<Position>>,
    /// Weak interference summed per map cell (`aggregate` mode), and each station's cell.
    weak: Option<WeakField>,
    weak_spec: Option<WeakSpec>,
    node_cell: Vec<u32>,
    /// The radio of each station, in one shard per thread: every signal touches the radios
    /// of its receivers, so they are packed apart from any other state.
    radios: Sharded<Radio>,
    workers: Workers,
    txs: Vec<Option<Transmission<F>>>,
    free_tx: Vec<u32>,
    next_serial: u64,
    /// Scratch, reused (no allocation per transmission): the stations near a transmitter,
    /// receiver lists and weak-field contributions of finished transmissions, and the
    /// receivers' logs per shard.
    near: Vec<(NodeId, f64)>,
    free_receivers: Vec<Vec<Vec<Receiver>>>,
    free_weak: Vec<Vec<(u32, i64)>>,
    arrival_logs: Vec<Vec<Arrived>>,
    departure_logs: Vec<Vec<Departed>>,
    /// Cursors through the logs.
    arrival_order: KeyOrder,
    departure_order: KeyOrder,
}

impl<A: AccessLayer<F>, F: Send + Sync> Air<A, F> {
    /// The air of `cfg.stations` stations (none on the map yet: [`Air::set_positions`]),
    /// with `access` deciding who transmits.
    pub fn new(cfg: AirConfig<'_>, access: A) -> Self {
        let r = cfg.radio;
        let path_loss = PathLoss::new(&r.path_loss, r.frequency_hz);
        let cutoff_m = if r.cutoff_range_m > 0.0 {
            r.cutoff_range_m
        } else {
            path_loss.range_m(r.tx_power_dbm, r.rx_sensitivity_dbm - r.cutoff_fading_margin_db)
        }
        .min(MAX_CUTOFF_M);
        let link = LinkBudget::new(
            &path_loss,
            &Fading::new(&r.fading),
            r.tx_power_dbm,
            r.rx_sensitivity_dbm,
            cutoff_m,
        );
        let phy = PhyParams::from_radio(r);
        let mut receivers_m = cutoff_m.max(cfg.candidates_m);
        let weak_spec = match r.weak_interference {
            WeakInterference::PerReceiver => None,
            WeakInterference::Aggregate => {
                // Weak: reaching neither the preamble threshold nor the CCA's.
                let cca_mw = match phy.cca {
                    CcaModel::AggregateEnergy => phy.cca_mw,
                    CcaModel::PreambleAndEnergy => phy.ed_mw,
                };
                let radius = WeakField::radius_m(&link, phy.preamble_mw.min(cca_mw));
                let cell = r.weak_interference_cell_m;
                // Receivers heard individually lie within the radius of some point of
                // their cell.
                receivers_m = cutoff_m
                    .min(radius + cell * std::f64::consts::SQRT_2)
                    .max(cfg.candidates_m);
                Some(WeakSpec {
                    periods: cfg.periods,
                    cell_m: cell,
                    radius_m: radius,
                })
            }
        };
        Air {
            access,
            link,
            errors: ChunkErrors::new(r.reception_model.error_rate_model(), r.data_rate_mbps),
            phy,
            dice: RunDice::new(cfg.seed),
            cutoff_m,
            receivers_m,
            // Cells of a quarter of the receivers' radius: a range query reads about twice
            // the disc's area instead of the whole 3 x 3 block around it (at city scale,
            // where the cutoff range is a large part of the map, most of the map).
            grid: SpatialGrid::wrapping(receivers_m / 4.0, cfg.periods),
            positions: vec![None; cfg.stations],
            weak: None,
            weak_spec,
            node_cell: Vec::new(),
            radios: Sharded::new(cfg.stations, 1),
            workers: Workers::sequential(),
            txs: Vec::new(),
            free_tx: Vec::new(),
            next_serial: 0,
            near: Vec::new(),
            free_receivers: Vec::new(),
            free_weak: Vec::new(),
            arrival_logs: Vec::new(),
            departure_logs: Vec::new(),
            arrival_order: KeyOrder::default(),
            departure_order: KeyOrder::default(),
        }
    }

    /// Evaluates the receivers on `workers`' threads, the radios in one shard per thread.
    pub fn set_workers(&mut self, workers: Workers) {
        self.radios = Sharded::new(self.radios.len(), workers.shards());
        self.workers = workers;
    }

    /// Where the radios are: the layout of the driver's per-station state in [`Local`].
    pub fn layout(&self) -> Layout {
        self.radios.layout()
    }

    /// The range beyond which no signal is drawn (m).
    pub fn cutoff_m(&self) -> f64 {
        self.cutoff_m
    }

    pub fn stations(&self) -> usize {
        self.radios.len()
    }

    /// The stations' positions, as the range queries see them.
    pub fn grid(&self) -> &SpatialGrid {
        &self.grid
    }

    pub fn position(&self, n: NodeId) -> Option<Position> {
        self.positions[n.index()]
    }

    pub fn positions(&self) -> &[Option<Position>] {
        &self.positions
    }

    /// The positions' list, to be filled and given back with [`Air::set_positions`]
    /// (reuses its allocation).
    pub fn take_positions(&mut self) -> Vec<Option<Position>> {
        std::mem::take(&mut self.positions)
    }

    /// The stations are at `pos` (`None`: off the map) from now on.
    pub fn set_positions(&mut self, pos: Vec<Option<Position>>) {
        self.grid.rebuild(&pos);
        if let Some(spec) = self.weak_spec.take() {
            let (mut lo, mut hi) = ([0f64; 2], [0f64; 2]);
            for (k, q) in pos.iter().flatten().enumerate() {
                for a in 0..2 {
                    lo[a] = if k == 0 { q[a] } else { lo[a].min(q[a]) };
                    hi[a] = if k == 0 { q[a] } else { hi[a].max(q[a]) };
                }
            }
            self.weak = Some(WeakField::new(
                lo,
                hi,
                spec.periods,
                spec.cell_m,
                spec.radius_m,
                self.cutoff_m,
                &self.link,
            ));
        }
        if let Some(field) = &self.weak {
            self.node_cell.clear();
            self.node_cell
                .extend(pos.iter().map(|q| q.map_or(u32::MAX, |q| field.cell_of(q))));
        }
        self.positions = pos;
    }

    /// The stations whose sensing reports the medium busy, and since when.
    pub fn busy_stations(&self) -> impl Iterator<Item = (NodeId, u64)> + '_ {
        NodeId::all(self.radios.len()).filter_map(|n| {
            let radio = &self.radios[n];
            radio.busy.then_some((n, radio.busy_since))
        })
    }

    fn medium(&self, n: NodeId) -> Medium {
        let radio = &self.radios[n];
        Medium {
            busy: radio.busy,
            tx_until: radio.tx_until,
        }
    }

    /// Station `n` hands over a packet at `now`.
    pub fn transmit(
        &mut self,
        n: NodeId,
        packet: Packet<F>,
        now: u64,
        agenda: &mut impl Timers<AirStep<A::Timer>>,
    ) -> Enqueued {
        let medium = self.medium(n);
        self.access.enqueue(n, packet, now, medium, &mut AccessTimers(agenda))
    }

    /// An access layer's timer is due at `now`: the frame it grants goes on the air.
    pub fn access(
        &mut self,
        timer: A::Timer,
        now: u64,
        agenda: &mut impl Timers<AirStep<A::Timer>>,
        log: &mut impl BusyLog,
    ) -> Accessed<'_, F> {
        let n = A::station(&timer);
        // The weak interference may have changed since this radio last looked.
        if let (Some(field), Some(&cell)) = (&self.weak, self.node_cell.get(n.index())) {
            let weak_mw = field.mw(cell);
            self.radios[n].set_weak(weak_mw, now, &self.phy, &self.errors, self.dice.station(n));
            self.update_medium(n, now, now, agenda, log);
        }
        let (medium, on_map) = (self.medium(n), self.positions[n.index()].is_some());
        let fired = self.access.fire(timer, now, medium, on_map, &mut AccessTimers(agenda));
        let sent = match fired.grant {
            Some(grant) => Some(self.put_on_air(n, grant, now, agenda, log)),
            None => None,
        };
        Accessed {
            dropped: fired.dropped,
            sent,
        }
    }

    /// Station `n`'s granted frame goes on the air at `now`: its own radio turns to
    /// sending (half duplex), every receiver in range sees the signal arrive.
    fn put_on_air(
        &mut self,
        n: NodeId,
        grant: Grant<F>,
        now: u64,
        agenda: &mut impl Timers<AirStep<A::Timer>>,
        log: &mut impl BusyLog,
    ) -> OnAir<'_, F> {
        let src_pos = self.positions[n.index()].expect("granted only on the map");
        let end = now + grant.airtime_ns;
        let serial = self.next_serial;
        self.next_serial += 1;
        // Half duplex: a frame being received is lost when this station starts sending.
        self.radios[n].start_tx(end, now, &self.phy, &self.errors, self.dice.station(n));
        self.update_medium(n, now, now, agenda, log);
        let mut weak_added = self.free_weak.pop().unwrap_or_default();
        let mut receivers = self.free_receivers.pop().unwrap_or_default();
        self.arrive_all(n, src_pos, serial, now, end, &mut weak_added, &mut receivers);
        // The access layer's reactions, in the candidates' order.
        let (logs, mut order) = (
            std::mem::take(&mut self.arrival_logs),
            std::mem::take(&mut self.arrival_order),
        );
        order.reset(logs.len());
        while let Some((shard, i)) = order.next(&logs, |a| a.k) {
            let a = &logs[shard][i];
            self.apply(a.id, a.change, now, agenda, log);
        }
        (self.arrival_logs, self.arrival_order) = (logs, order);
        let slot = match self.free_tx.pop() {
            Some(slot) => slot,
            None => {
                self.txs.push(None);
                (self.txs.len() - 1) as u32
            }
        };
        agenda.at(end, AirStep::End(slot));
        let tx = self.txs[slot as usize].insert(Transmission {
            serial,
            src: n,
            frame: grant.frame,
            bytes: grant.bytes,
            resource: grant.resource,
            start: now,
            receivers,
            weak: weak_added,
        });
        debug_assert_eq!(
            tx.resource,
            Resource::WHOLE_CHANNEL,
            "one channel: per-resource reception to come"
        );
        OnAir {
            station: n,
            serial,
            frame: &tx.frame,
            bytes: tx.bytes,
            queued_ns: grant.queued_ns,
            end,
            candidates: &self.near,
            receivers: &tx.receivers,
        }
    }

    /// The receivers' side of a transmission's start, shard by shard on the run's threads:
    /// the range query, the weak field's update, and [`arrive`] at every receiver.
    #[allow(clippy::too_many_arguments)] // the transmission (5) and the lists it fills (2)
    fn arrive_all(
        &mut self,
        n: NodeId,
        src_pos: Position,
        serial: u64,
        now: u64,
        end: u64,
        weak_added: &mut Vec<(u32, i64)>,
        receivers: &mut Vec<Vec<Receiver>>,
    ) {
        let mut near = std::mem::take(&mut self.near);
        // The field and the range query are independent: side by side with threads.
        let (weak, link, grid, receivers_m) = (&mut self.weak, &self.link, &self.grid, self.receivers_m);
        self.workers.join(
            || {
                if let Some(field) = weak {
                    field.add(src_pos, link, weak_added);
                }
            },
            || grid.within(src_pos, receivers_m, &mut near),
        );
        let layout = self.radios.layout();
        receivers.resize_with(layout.shards(), Vec::new);
        self.arrival_logs.resize_with(layout.shards(), Vec::new);
        let ctx = ArrivalContext {
            src: n,
            src_pos,
            serial,
            now,
            end,
            layout,
            candidates: &near,
            cutoff_m: self.cutoff_m,
            weak: self.weak.as_ref(),
            node_cell: &self.node_cell,
            link: &self.link,
            phy: &self.phy,
            errors: &self.errors,
            dice: self.dice,
        };
        let mut shards: Vec<ArrivalShard<'_>> = self
            .radios
            .shards_mut()
            .zip(receivers.iter_mut().zip(self.arrival_logs.iter_mut()))
            .enumerate()
            .map(|(shard, (radios, (receivers, log)))| ArrivalShard {
                shard,
                radios,
                receivers,
                log,
            })
            .collect();
        self.workers
            .run_shards(&mut shards, near.len(), &|shard: &mut ArrivalShard<'_>| ctx.run(shard));
        drop(shards);
        self.near = near;
    }

    /// A transmission leaves the air at `now`: every receiver that heard it sees its signal
    /// depart, on the run's threads; a decoded frame is handed to `local.hook` on the
    /// receiver's thread. Take the outcomes with [`Air::next_departure`].
    pub fn end<H: DecodedAlone<F>>(
        &mut self,
        slot: u32,
        now: u64,
        agenda: &mut impl Timers<AirStep<A::Timer>>,
        log: &mut impl BusyLog,
        local: Local<'_, H, F>,
    ) -> Ended<F> {
        let tx = self.txs[slot as usize].take().expect("a transmission ends once");
        self.free_tx.push(slot);
        if let Some(field) = &mut self.weak {
            field.remove(&tx.weak);
        }
        self.update_medium(tx.src, now, now, agenda, log);
        let layout = self.radios.layout();
        assert_eq!(layout, local.stations.layout(), "stations stored as the radios");
        let mut logs = std::mem::take(&mut self.departure_logs);
        logs.resize_with(layout.shards(), Vec::new);
        local.logs.resize_with(layout.shards(), Vec::new);
        let ctx = DepartureContext {
            tx: &tx,
            now,
            weak: self.weak.as_ref(),
            node_cell: &self.node_cell,
            phy: &self.phy,
            errors: &self.errors,
            dice: self.dice,
            hook: local.hook,
        };
        let mut shards: Vec<DepartureShard<'_, H, F>> = self
            .radios
            .shards_mut()
            .zip(local.stations.shards_mut())
            .zip(&tx.receivers)
            .zip(logs.iter_mut().zip(local.logs.iter_mut()))
            .map(|(((radios, stations), receivers), (log, alone))| DepartureShard {
                radios,
                stations,
                receivers,
                log,
                alone,
            })
            .collect();
        self.workers.run_shards(
            &mut shards,
            tx.receivers.iter().map(Vec::len).sum(),
            &|shard: &mut DepartureShard<'_, H, F>| ctx.run(shard),
        );
        drop(shards);
        let mut order = std::mem::take(&mut self.departure_order);
        order.reset(logs.len());
        let left = logs.iter().map(Vec::len).sum();
        Ended {
            tx,
            logs,
            order,
            now,
            left,
        }
    }

    /// The next receiver's outcome of `ended`, in the candidates' order, once the access
    /// layer has heard of it (how its reception ended, what it senses now).
    pub fn next_departure(
        &mut self,
        ended: &mut Ended<F>,
        agenda: &mut impl Timers<AirStep<A::Timer>>,
        log: &mut impl BusyLog,
    ) -> Option<Departure> {
        let (shard, i) = ended.order.next(&ended.logs, |d| d.k)?;
        ended.left -= 1;
        let d = ended.logs[shard][i];
        if let Some(decoded) = d.outcome {
            self.access.reception_ended(d.id, decoded);
        }
        self.apply(d.id, d.change, ended.now, agenda, log);
        Some(Departure {
            to: d.id,
            decoded: d.outcome,
            dist: d.dist,
            alone: d.alone.map(|(from, to)| (shard, from as usize..to as usize)),
        })
    }

    /// Gives back what an ended transmission held, for reuse.
    pub fn recycle(&mut self, ended: Ended<F>) {
        assert_eq!(ended.left, 0, "every departure taken");
        let Ended { tx, logs, order, .. } = ended;
        let mut receivers = tx.receivers;
        receivers.iter_mut().for_each(Vec::clear);
        self.free_receivers.push(receivers);
        self.free_weak.push(tx.weak);
        (self.departure_logs, self.departure_order) = (logs, order);
    }

    /// Recomputes station `n`'s channel sensing (a medium turning busy is sensed from
    /// `sensed_at`) and tells the access layer.
    fn update_medium(
        &mut self,
        n: NodeId,
        now: u64,
        sensed_at: u64,
        agenda: &mut impl Timers<AirStep<A::Timer>>,
        log: &mut impl BusyLog,
    ) {
        let change = sense(&mut self.radios[n], now, sensed_at, &self.phy);
        self.apply(n, change, now, agenda, log);
    }

    /// What a change of station `n`'s sensing does beyond its radio: the access layer
    /// reacts, and a busy period that ended is logged.
    fn apply(
        &mut self,
        n: NodeId,
        change: MediumChange,
        now: u64,
        agenda: &mut impl Timers<AirStep<A::Timer>>,
        log: &mut impl BusyLog,
    ) {
        match change {
            MediumChange::Same => {}
            MediumChange::Busy { sensed_at } => self.access.medium_busy(n, sensed_at),
            MediumChange::Idle { since } => {
                log.busy(n, since, now);
                self.access.medium_idle(n, now, &mut AccessTimers(agenda));
            }
        }
    }
}
