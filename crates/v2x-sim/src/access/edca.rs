//! 802.11p EDCA broadcast MAC of each station (no retries): a queue per access category,
//! AIFS (EIFS after a frame received with errors), backoff counted in idle slots and frozen
//! while the medium is busy, post-backoff after every transmission, and the collision
//! window (the medium turns busy for a station only when its CCA senses a transmission,
//! after the propagation delay and the detection window: a backoff ending before that
//! transmits as well). [`Macs`] holds the state of every station and returns the access
//! times to schedule; [`Edca`] is the [`AccessLayer`] around it (its parameters and its
//! backoff draws).

use super::{AccessLayer, Enqueued as Handed, Fired, Grant, Medium, Packet, Resource, Timers};
use crate::keyed_rng::{stream, Stream};
use crate::node_id::NodeId;
use crate::scenario::{AccessCategory, IdleAccess, MacConfig};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The access categories, indexed as [`AccessCategory::index`].
pub const ACS: [AccessCategory; 5] = [
    AccessCategory::Background,
    AccessCategory::BestEffort,
    AccessCategory::Video,
    AccessCategory::Voice,
    AccessCategory::LegacyDcf,
];

/// MAC timing and queue limits (ns, frames).
#[derive(Debug, Clone)]
pub struct MacParams {
    pub slot_ns: u64,
    pub sifs_ns: u64,
    pub idle_access: IdleAccess,
    /// EIFS - AIFS, added after a frame received with errors (0: EIFS off).
    pub eifs_extra_ns: u64,
    pub queue_max_delay_ns: u64,
    pub queue_capacity: usize,
    /// The PHY's data rate (air times).
    pub rate_mbps: f64,
}

impl MacParams {
    /// The timing and limits of a `[mac]` table at a data rate of `rate_mbps`.
    pub fn from_config(m: &MacConfig, rate_mbps: f64) -> MacParams {
        let ns = crate::time::ns;
        MacParams {
            rate_mbps,
            slot_ns: ns(m.slot_us * 1e-6),
            sifs_ns: ns(m.sifs_us * 1e-6),
            idle_access: m.idle_access,
            // EIFS - DIFS = SIFS + ACK airtime at the lowest rate (14-byte ACK at 3 Mb/s).
            eifs_extra_ns: if m.use_eifs {
                ns(m.sifs_us * 1e-6) + crate::phy::airtime_ns(14, 3.0)
            } else {
                0
            },
            queue_max_delay_ns: ns(m.queue_max_delay_ms / 1000.0),
            queue_capacity: m.queue_capacity_packets as usize,
        }
    }

    /// (AIFS, CWmin) of an access category.
    fn timing(&self, ac: usize) -> (u64, u32) {
        let (aifsn, cw) = ACS[ac].parameters();
        (self.sifs_ns + u64::from(aifsn) * self.slot_ns, cw)
    }
}

/// One access category's queue and backoff.
struct Category<F> {
    /// Frames with the time they were queued.
    queue: VecDeque<(u64, F)>,
    slots: u32,
    access_at: Option<u64>,
    count_start: u64,
    /// Generation of the scheduled access; a stale access event is ignored.
    gen: u32,
}

impl<F> Default for Category<F> {
    fn default() -> Self {
        Category {
            queue: VecDeque::new(),
            slots: 0,
            access_at: None,
            count_start: 0,
            gen: 0,
        }
    }
}

/// An access the engine must schedule: at `at_ns`, for `ac`, generation `gen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessTimer {
    pub ac: usize,
    pub at_ns: u64,
    pub gen: u32,
}

/// What queueing a frame did.
#[derive(Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// The queue was full: the frame is dropped.
    Dropped,
    /// Queued; an access is already pending or the medium is busy.
    Queued,
    /// Queued; the engine schedules this access.
    Schedule(AccessTimer),
}

/// What an access event did.
#[derive(Debug, PartialEq, Eq)]
pub enum Access<F> {
    /// Superseded (the backoff was frozen or rescheduled since).
    Stale,
    /// The station is transmitting on another category: new backoff.
    InternalCollision,
    /// The head-of-line frame (with its queueing time) may go on the air; `delay_drops`
    /// frames were dropped for waiting too long before it.
    Frame { frame: F, queued_ns: u64, delay_drops: u64 },
    /// Nothing left to send after dropping `delay_drops` stale frames.
    Empty { delay_drops: u64 },
}

/// What a busy/idle change of the medium reads of a station's MAC: every signal's start
/// or end may change the CCA of each of its receivers, so this lives apart from the queues,
/// 16 bytes per station in one dense array (struct of arrays), and the common case, nothing
/// scheduled and nothing waiting, reads nothing else.
#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    idle_since: u64,
    /// Bit `ac`: an access of that category is scheduled (`access_at` is set).
    scheduled: u8,
    /// Bit `ac`: that category has frames queued or backoff slots left.
    waiting: u8,
    last_rx_error: bool,
}

/// The MACs of every station of a run, indexed by station.
pub struct Macs<F> {
    flags: Vec<Flags>,
    edca: Vec<[Category<F>; 5]>,
}

impl<F> Macs<F> {
    /// `stations` idle MACs with empty queues.
    pub fn new(stations: usize) -> Self {
        Macs {
            flags: vec![Flags::default(); stations],
            edca: (0..stations).map(|_| Default::default()).collect(),
        }
    }

    /// Brings the flags of `(n, ac)` up to date with its queue and backoff (after every
    /// change of them).
    fn sync(&mut self, n: usize, ac: usize) {
        let e = &self.edca[n][ac];
        let f = &mut self.flags[n];
        let bit = 1u8 << ac;
        f.scheduled = if e.access_at.is_some() {
            f.scheduled | bit
        } else {
            f.scheduled & !bit
        };
        f.waiting = if !e.queue.is_empty() || e.slots > 0 {
            f.waiting | bit
        } else {
            f.waiting & !bit
        };
    }

    /// The last frame station `n` received was decoded with errors (EIFS) or not; an own
    /// transmission clears it too.
    pub fn set_rx_error(&mut self, n: usize, error: bool) {
        self.flags[n].last_rx_error = error;
    }

    /// Frames queued in `ac`.
    pub fn queued(&self, n: usize, ac: usize) -> usize {
        self.edca[n][ac].queue.len()
    }

    /// Remaining backoff slots of `ac`.
    pub fn backoff_slots(&self, n: usize, ac: usize) -> u32 {
        self.edca[n][ac].slots
    }

    /// When `ac` will access the medium, if scheduled.
    pub fn access_at(&self, n: usize, ac: usize) -> Option<u64> {
        self.edca[n][ac].access_at
    }

    /// Queues a frame at `now`.
    #[allow(clippy::too_many_arguments)] // the station and frame (3), the time and medium, the context (2)
    pub fn enqueue(
        &mut self,
        n: usize,
        ac: usize,
        frame: F,
        now: u64,
        medium_busy: bool,
        p: &MacParams,
        rng: &mut impl Rng,
    ) -> Enqueued {
        let e = &mut self.edca[n][ac];
        if e.queue.len() >= p.queue_capacity {
            return Enqueued::Dropped;
        }
        e.queue.push_back((now, frame));
        let queued = if e.access_at.is_some() {
            true
        } else if medium_busy {
            if e.slots == 0 {
                let (_, cw) = p.timing(ac);
                e.slots = rng.gen_range(0..=cw);
            }
            true
        } else {
            false
        };
        if queued {
            self.sync(n, ac);
            return Enqueued::Queued;
        }
        // ns-3's DCF counts a full AIFS from the arrival of a frame that needs no backoff.
        let not_before = match p.idle_access {
            IdleAccess::AfterAifs if e.slots == 0 && e.queue.len() == 1 => now + p.timing(ac).0,
            _ => now,
        };
        Enqueued::Schedule(self.schedule(n, ac, not_before, p))
    }

    /// Medium idle: wait AIFS (or EIFS) from the end of the busy period, and not before
    /// `not_before`, then count the remaining backoff slots.
    fn schedule(&mut self, n: usize, ac: usize, not_before: u64, p: &MacParams) -> AccessTimer {
        let (aifs, _) = p.timing(ac);
        let f = &self.flags[n];
        let aifs = aifs + if f.last_rx_error { p.eifs_extra_ns } else { 0 };
        let count_start = (f.idle_since + aifs).max(not_before);
        let e = &mut self.edca[n][ac];
        let at_ns = count_start + u64::from(e.slots) * p.slot_ns;
        e.gen = e.gen.wrapping_add(1);
        e.access_at = Some(at_ns);
        e.count_start = count_start;
        let gen = e.gen;
        self.sync(n, ac);
        AccessTimer { ac, at_ns, gen }
    }

    /// The CCA of station `n` senses the medium busy from `sensed_at` (at or after the
    /// current time): freeze every backoff, keeping the slots still to count, except those
    /// ending by then (they transmit: collision).
    pub fn medium_busy(&mut self, n: usize, sensed_at: u64, p: &MacParams) {
        let scheduled = self.flags[n].scheduled;
        if scheduled == 0 {
            return;
        }
        for ac in 0..ACS.len() {
            if scheduled & (1 << ac) == 0 {
                continue;
            }
            let e = &mut self.edca[n][ac];
            let Some(t) = e.access_at else { continue };
            if t <= sensed_at {
                continue;
            }
            let counted = if sensed_at > e.count_start {
                ((sensed_at - e.count_start) / p.slot_ns) as u32
            } else {
                0
            };
            e.slots -= counted.min(e.slots);
            e.access_at = None;
            e.gen = e.gen.wrapping_add(1);
            self.sync(n, ac);
        }
    }

    /// The medium of station `n` turned idle at `now`: the accesses to schedule, by
    /// category.
    pub fn medium_idle(&mut self, n: usize, now: u64, p: &MacParams) -> [Option<AccessTimer>; 5] {
        let f = &mut self.flags[n];
        f.idle_since = now;
        let due = f.waiting & !f.scheduled;
        let mut out = [None; 5];
        if due == 0 {
            return out;
        }
        for (ac, slot) in out.iter_mut().enumerate() {
            if due & (1 << ac) != 0 {
                *slot = Some(self.schedule(n, ac, now, p));
            }
        }
        out
    }

    /// The access event of `ac` (generation `gen`) at station `n` fired at `now`;
    /// `transmitting` says whether the station is on the air already.
    #[allow(clippy::too_many_arguments)] // the station and its timer (3), the time and state, the context (2)
    pub fn access(
        &mut self,
        n: usize,
        ac: usize,
        gen: u32,
        now: u64,
        transmitting: bool,
        p: &MacParams,
        rng: &mut impl Rng,
    ) -> Access<F> {
        let (_, cw) = p.timing(ac);
        let e = &mut self.edca[n][ac];
        if e.gen != gen || e.access_at.is_none() {
            return Access::Stale;
        }
        e.access_at = None;
        e.slots = 0;
        let out = if transmitting {
            e.slots = rng.gen_range(0..=cw).max(1);
            Access::InternalCollision
        } else {
            let mut delay_drops = 0;
            loop {
                match e.queue.pop_front() {
                    None => break Access::Empty { delay_drops },
                    Some((queued, _)) if now.saturating_sub(queued) > p.queue_max_delay_ns => delay_drops += 1,
                    Some((queued_ns, frame)) => {
                        break Access::Frame {
                            frame,
                            queued_ns,
                            delay_drops,
                        }
                    }
                }
            }
        };
        self.sync(n, ac);
        out
    }

    /// Post-backoff: a new backoff follows every transmission.
    pub fn post_backoff(&mut self, n: usize, ac: usize, p: &MacParams, rng: &mut impl Rng) {
        let (_, cw) = p.timing(ac);
        self.edca[n][ac].slots = rng.gen_range(0..=cw);
        self.sync(n, ac);
    }

    /// Drops every frame of `ac` at station `n` (it left the map).
    pub fn clear(&mut self, n: usize, ac: usize) {
        self.edca[n][ac].queue.clear();
        self.sync(n, ac);
    }
}

/// A scheduled access of [`Edca`]: station, access category, and the generation that tells
/// a superseded access from the current one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdcaTimer {
    pub station: NodeId,
    pub ac: u8,
    pub gen: u32,
}

/// 802.11p EDCA broadcast as an [`AccessLayer`]: the MACs of every station, their timing and
/// the run's sequence of backoff draws.
pub struct Edca<F> {
    /// The queued frames with their sizes.
    macs: Macs<(u32, F)>,
    params: MacParams,
    rng: ChaCha8Rng,
}

impl<F> Edca<F> {
    /// The MACs of `stations` stations; the backoff draws are the run's MAC stream of
    /// `seed`.
    pub fn new(stations: usize, params: MacParams, seed: u64) -> Self {
        Edca {
            macs: Macs::new(stations),
            params,
            rng: stream(seed, Stream::Mac),
        }
    }

    fn schedule(t: AccessTimer, n: NodeId, timers: &mut impl Timers<EdcaTimer>) {
        let timer = EdcaTimer {
            station: n,
            ac: t.ac as u8,
            gen: t.gen,
        };
        timers.at(t.at_ns, timer);
    }
}

impl<F: Send> AccessLayer<F> for Edca<F> {
    type Timer = EdcaTimer;

    fn station(timer: &EdcaTimer) -> NodeId {
        timer.station
    }

    fn enqueue(
        &mut self,
        n: NodeId,
        packet: Packet<F>,
        now: u64,
        medium: Medium,
        timers: &mut impl Timers<EdcaTimer>,
    ) -> Handed {
        let Packet { frame, bytes, priority } = packet;
        let (ac, p) = (priority.index(), &self.params);
        match self
            .macs
            .enqueue(n.index(), ac, (bytes, frame), now, medium.busy, p, &mut self.rng)
        {
            Enqueued::Dropped => Handed::Dropped,
            Enqueued::Queued => Handed::Queued,
            Enqueued::Schedule(t) => {
                Self::schedule(t, n, timers);
                Handed::Queued
            }
        }
    }

    fn fire(
        &mut self,
        timer: EdcaTimer,
        now: u64,
        medium: Medium,
        on_map: bool,
        _timers: &mut impl Timers<EdcaTimer>,
    ) -> Fired<F> {
        let (n, ac, p) = (timer.station.index(), usize::from(timer.ac), &self.params);
        let transmitting = medium.tx_until > now;
        match self.macs.access(n, ac, timer.gen, now, transmitting, p, &mut self.rng) {
            Access::Stale | Access::InternalCollision => Fired::nothing(),
            Access::Empty { delay_drops } => Fired {
                grant: None,
                dropped: delay_drops,
            },
            Access::Frame {
                frame: (bytes, frame),
                queued_ns,
                delay_drops,
            } => {
                if !on_map {
                    self.macs.clear(n, ac);
                    return Fired {
                        grant: None,
                        dropped: delay_drops,
                    };
                }
                self.macs.post_backoff(n, ac, p, &mut self.rng);
                // An own transmission ends the EIFS after an errored reception.
                self.macs.set_rx_error(n, false);
                Fired {
                    grant: Some(Grant {
                        frame,
                        bytes,
                        queued_ns,
                        airtime_ns: crate::phy::airtime_ns(bytes, p.rate_mbps),
                        resource: Resource::WHOLE_CHANNEL,
                    }),
                    dropped: delay_drops,
                }
            }
        }
    }

    fn medium_busy(&mut self, n: NodeId, sensed_at: u64) {
        self.macs.medium_busy(n.index(), sensed_at, &self.params);
    }

    fn medium_idle(&mut self, n: NodeId, now: u64, timers: &mut impl Timers<EdcaTimer>) {
        for t in self
            .macs
            .medium_idle(n.index(), now, &self.params)
            .into_iter()
            .flatten()
        {
            Self::schedule(t, n, timers);
        }
    }

    fn reception_ended(&mut self, n: NodeId, decoded: bool) {
        self.macs.set_rx_error(n.index(), !decoded);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const VO: usize = 3;

    fn params() -> MacParams {
        MacParams {
            slot_ns: 13_000,
            sifs_ns: 32_000,
            idle_access: IdleAccess::Immediate,
            eifs_extra_ns: 32_000 + 100_000,
            queue_max_delay_ns: 1_000_000,
            queue_capacity: 2,
            rate_mbps: 6.0,
        }
    }

    fn schedule(r: Enqueued) -> AccessTimer {
        match r {
            Enqueued::Schedule(t) => t,
            other => panic!("expected an access, got {other:?}"),
        }
    }

    /// AIFS of AC_VO: SIFS + 2 slots.
    const AIFS_VO: u64 = 32_000 + 2 * 13_000;

    #[test]
    fn idle_medium_waits_aifs_then_transmits_and_post_backs_off() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut mac: Macs<u32> = Macs::new(1);
        let t = schedule(mac.enqueue(0, VO, 7, 0, false, &p, &mut rng));
        assert_eq!(t.at_ns, AIFS_VO, "no backoff pending: AIFS only");
        match mac.access(0, VO, t.gen, t.at_ns, false, &p, &mut rng) {
            Access::Frame {
                frame,
                queued_ns,
                delay_drops,
            } => assert_eq!((frame, queued_ns, delay_drops), (7, 0, 0)),
            other => panic!("{other:?}"),
        }
        mac.post_backoff(0, VO, &p, &mut rng);
        assert!(mac.backoff_slots(0, VO) <= 3, "CW of AC_VO is 3");
    }

    #[test]
    fn backoff_is_frozen_while_busy_and_resumes_with_the_remaining_slots() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut mac: Macs<u32> = Macs::new(1);
        // Busy medium: a backoff is drawn, no access yet.
        assert_eq!(mac.enqueue(0, VO, 1, 0, true, &p, &mut rng), Enqueued::Queued);
        // Force a known backoff: 3 slots, then the medium turns idle at t = 100 µs.
        mac.edca[0][VO].slots = 3;
        mac.sync(0, VO);
        let t = mac.medium_idle(0, 100_000, &p)[VO].expect("access scheduled");
        assert_eq!(t.at_ns, 100_000 + AIFS_VO + 3 * p.slot_ns);
        // Busy again after AIFS + 1.5 slots: one slot counted, two left, access cancelled.
        let busy_at = 100_000 + AIFS_VO + p.slot_ns + p.slot_ns / 2;
        mac.medium_busy(0, busy_at, &p);
        assert_eq!(mac.access_at(0, VO), None);
        assert_eq!(mac.backoff_slots(0, VO), 2);
        // The old access event is stale.
        assert_eq!(mac.access(0, VO, t.gen, t.at_ns, false, &p, &mut rng), Access::Stale);
        // Idle again: AIFS then the 2 remaining slots.
        let t2 = mac.medium_idle(0, 500_000, &p)[VO].expect("access rescheduled");
        assert_eq!(t2.at_ns, 500_000 + AIFS_VO + 2 * p.slot_ns);
        assert!(matches!(
            mac.access(0, VO, t2.gen, t2.at_ns, false, &p, &mut rng),
            Access::Frame { frame: 1, .. }
        ));
    }

    #[test]
    fn eifs_after_an_errored_frame() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut mac: Macs<u32> = Macs::new(1);
        mac.set_rx_error(0, true);
        let t = schedule(mac.enqueue(0, VO, 1, 0, false, &p, &mut rng));
        assert_eq!(t.at_ns, AIFS_VO + p.eifs_extra_ns);
        let mut ok: Macs<u32> = Macs::new(1);
        ok.set_rx_error(0, false);
        assert_eq!(schedule(ok.enqueue(0, VO, 1, 0, false, &p, &mut rng)).at_ns, AIFS_VO);
    }

    #[test]
    fn collision_window_keeps_a_backoff_ending_within_cca_detection() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut mac: Macs<u32> = Macs::new(1);
        let t = schedule(mac.enqueue(0, VO, 1, 0, false, &p, &mut rng));
        // Another station started 5 µs before our access; we sense it 3 µs after it.
        mac.medium_busy(0, t.at_ns + 3_000, &p);
        assert_eq!(mac.access_at(0, VO), Some(t.at_ns), "transmits anyway: collision");
        assert!(matches!(
            mac.access(0, VO, t.gen, t.at_ns, false, &p, &mut rng),
            Access::Frame { .. }
        ));
        // Sensed 20 µs before: frozen.
        let t = schedule(mac.enqueue(0, VO, 2, 1_000_000, false, &p, &mut rng));
        mac.medium_busy(0, t.at_ns - 20_000, &p);
        assert_eq!(mac.access_at(0, VO), None);
    }

    #[test]
    fn full_queue_and_stale_frames_are_dropped() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut mac: Macs<u32> = Macs::new(1);
        assert_eq!(mac.enqueue(0, VO, 1, 0, true, &p, &mut rng), Enqueued::Queued);
        assert_eq!(mac.enqueue(0, VO, 2, 10, true, &p, &mut rng), Enqueued::Queued);
        assert_eq!(
            mac.enqueue(0, VO, 3, 20, true, &p, &mut rng),
            Enqueued::Dropped,
            "capacity 2"
        );
        assert_eq!(mac.queued(0, VO), 2);
        // Idle only after 1.5 ms: frame 1 waited too long, frame 2 (queued at 10 ns) too.
        mac.edca[0][VO].slots = 0;
        mac.sync(0, VO);
        let t = mac.medium_idle(0, 1_500_000, &p)[VO].unwrap();
        assert_eq!(
            mac.access(0, VO, t.gen, t.at_ns, false, &p, &mut rng),
            Access::Empty { delay_drops: 2 }
        );
        // Internal collision: on the air already, a new backoff of at least one slot.
        let t = schedule(mac.enqueue(0, VO, 4, 2_000_000, false, &p, &mut rng));
        assert_eq!(
            mac.access(0, VO, t.gen, t.at_ns, true, &p, &mut rng),
            Access::InternalCollision
        );
        assert!(mac.backoff_slots(0, VO) >= 1);
        assert_eq!(mac.queued(0, VO), 1);
    }
}
