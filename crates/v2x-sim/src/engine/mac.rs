//! 802.11p EDCA broadcast MAC of one station (no retries): a queue per access category,
//! AIFS (EIFS after a frame received with errors), backoff counted in idle slots and frozen
//! while the medium is busy, post-backoff after every transmission, and the collision
//! window (the medium turns busy for a station only when its CCA senses a transmission,
//! after the propagation delay and the detection window: a backoff ending before that
//! transmits as well). The engine schedules the access times it returns and tells it when
//! the medium turns busy (from which instant) or idle.

use crate::scenario::{AccessCategory, IdleAccess};
use rand::Rng;
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
}

impl MacParams {
    /// (AIFS, CWmin) of an access category.
    fn timing(&self, ac: usize) -> (u64, u32) {
        let (aifsn, cw) = ACS[ac].parameters();
        (self.sifs_ns + u64::from(aifsn) * self.slot_ns, cw)
    }
}

/// One access category's queue and backoff.
struct Edca<F> {
    /// Frames with the time they were queued.
    queue: VecDeque<(u64, F)>,
    slots: u32,
    access_at: Option<u64>,
    count_start: u64,
    /// Generation of the scheduled access; a stale access event is ignored.
    gen: u32,
}

impl<F> Default for Edca<F> {
    fn default() -> Self {
        Edca {
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

/// The MAC of one station.
pub struct Mac<F> {
    edca: [Edca<F>; 5],
    idle_since: u64,
    last_rx_error: bool,
}

impl<F> Default for Mac<F> {
    fn default() -> Self {
        Mac {
            edca: Default::default(),
            idle_since: 0,
            last_rx_error: false,
        }
    }
}

impl<F> Mac<F> {
    /// The last frame this station received was decoded with errors (EIFS) or not; an own
    /// transmission clears it too.
    pub fn set_rx_error(&mut self, error: bool) {
        self.last_rx_error = error;
    }

    /// Frames queued in `ac`.
    pub fn queued(&self, ac: usize) -> usize {
        self.edca[ac].queue.len()
    }

    /// Remaining backoff slots of `ac`.
    pub fn backoff_slots(&self, ac: usize) -> u32 {
        self.edca[ac].slots
    }

    /// When `ac` will access the medium, if scheduled.
    pub fn access_at(&self, ac: usize) -> Option<u64> {
        self.edca[ac].access_at
    }

    /// Queues a frame at `now`.
    pub fn enqueue(
        &mut self,
        ac: usize,
        frame: F,
        now: u64,
        medium_busy: bool,
        p: &MacParams,
        rng: &mut impl Rng,
    ) -> Enqueued {
        let e = &mut self.edca[ac];
        if e.queue.len() >= p.queue_capacity {
            return Enqueued::Dropped;
        }
        e.queue.push_back((now, frame));
        if e.access_at.is_some() {
            return Enqueued::Queued;
        }
        if medium_busy {
            if e.slots == 0 {
                let (_, cw) = p.timing(ac);
                e.slots = rng.gen_range(0..=cw);
            }
            return Enqueued::Queued;
        }
        // ns-3's DCF counts a full AIFS from the arrival of a frame that needs no backoff.
        let not_before = match p.idle_access {
            IdleAccess::AfterAifs if e.slots == 0 && e.queue.len() == 1 => now + p.timing(ac).0,
            _ => now,
        };
        Enqueued::Schedule(self.schedule(ac, not_before, p))
    }

    /// Medium idle: wait AIFS (or EIFS) from the end of the busy period, and not before
    /// `not_before`, then count the remaining backoff slots.
    fn schedule(&mut self, ac: usize, not_before: u64, p: &MacParams) -> AccessTimer {
        let (aifs, _) = p.timing(ac);
        let aifs = aifs + if self.last_rx_error { p.eifs_extra_ns } else { 0 };
        let count_start = (self.idle_since + aifs).max(not_before);
        let e = &mut self.edca[ac];
        let at_ns = count_start + u64::from(e.slots) * p.slot_ns;
        e.gen = e.gen.wrapping_add(1);
        e.access_at = Some(at_ns);
        e.count_start = count_start;
        AccessTimer { ac, at_ns, gen: e.gen }
    }

    /// The CCA senses the medium busy from `sensed_at` (at or after the current time):
    /// freeze every backoff, keeping the slots still to count, except those ending by then
    /// (they transmit: collision).
    pub fn medium_busy(&mut self, sensed_at: u64, p: &MacParams) {
        for e in self.edca.iter_mut() {
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
        }
    }

    /// The medium turned idle at `now`: the accesses to schedule, by category.
    pub fn medium_idle(&mut self, now: u64, p: &MacParams) -> [Option<AccessTimer>; 5] {
        self.idle_since = now;
        let mut out = [None; 5];
        for (ac, slot) in out.iter_mut().enumerate() {
            let e = &self.edca[ac];
            if e.access_at.is_none() && (!e.queue.is_empty() || e.slots > 0) {
                *slot = Some(self.schedule(ac, now, p));
            }
        }
        out
    }

    /// The access event of `ac` (generation `gen`) fired at `now`; `transmitting` says
    /// whether the station is on the air already.
    pub fn access(
        &mut self,
        ac: usize,
        gen: u32,
        now: u64,
        transmitting: bool,
        p: &MacParams,
        rng: &mut impl Rng,
    ) -> Access<F> {
        let (_, cw) = p.timing(ac);
        let e = &mut self.edca[ac];
        if e.gen != gen || e.access_at.is_none() {
            return Access::Stale;
        }
        e.access_at = None;
        e.slots = 0;
        if transmitting {
            e.slots = rng.gen_range(0..=cw).max(1);
            return Access::InternalCollision;
        }
        let mut delay_drops = 0;
        loop {
            match e.queue.pop_front() {
                None => return Access::Empty { delay_drops },
                Some((queued, _)) if now.saturating_sub(queued) > p.queue_max_delay_ns => delay_drops += 1,
                Some((queued_ns, frame)) => {
                    return Access::Frame {
                        frame,
                        queued_ns,
                        delay_drops,
                    }
                }
            }
        }
    }

    /// Post-backoff: a new backoff follows every transmission.
    pub fn post_backoff(&mut self, ac: usize, p: &MacParams, rng: &mut impl Rng) {
        let (_, cw) = p.timing(ac);
        self.edca[ac].slots = rng.gen_range(0..=cw);
    }

    /// Drops every frame of `ac` (the station left the map).
    pub fn clear(&mut self, ac: usize) {
        self.edca[ac].queue.clear();
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
        let mut mac: Mac<u32> = Mac::default();
        let t = schedule(mac.enqueue(VO, 7, 0, false, &p, &mut rng));
        assert_eq!(t.at_ns, AIFS_VO, "no backoff pending: AIFS only");
        match mac.access(VO, t.gen, t.at_ns, false, &p, &mut rng) {
            Access::Frame {
                frame,
                queued_ns,
                delay_drops,
            } => assert_eq!((frame, queued_ns, delay_drops), (7, 0, 0)),
            other => panic!("{other:?}"),
        }
        mac.post_backoff(VO, &p, &mut rng);
        assert!(mac.backoff_slots(VO) <= 3, "CW of AC_VO is 3");
    }

    #[test]
    fn backoff_is_frozen_while_busy_and_resumes_with_the_remaining_slots() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut mac: Mac<u32> = Mac::default();
        // Busy medium: a backoff is drawn, no access yet.
        assert_eq!(mac.enqueue(VO, 1, 0, true, &p, &mut rng), Enqueued::Queued);
        // Force a known backoff: 3 slots, then the medium turns idle at t = 100 µs.
        mac.edca[VO].slots = 3;
        let t = mac.medium_idle(100_000, &p)[VO].expect("access scheduled");
        assert_eq!(t.at_ns, 100_000 + AIFS_VO + 3 * p.slot_ns);
        // Busy again after AIFS + 1.5 slots: one slot counted, two left, access cancelled.
        let busy_at = 100_000 + AIFS_VO + p.slot_ns + p.slot_ns / 2;
        mac.medium_busy(busy_at, &p);
        assert_eq!(mac.access_at(VO), None);
        assert_eq!(mac.backoff_slots(VO), 2);
        // The old access event is stale.
        assert_eq!(mac.access(VO, t.gen, t.at_ns, false, &p, &mut rng), Access::Stale);
        // Idle again: AIFS then the 2 remaining slots.
        let t2 = mac.medium_idle(500_000, &p)[VO].expect("access rescheduled");
        assert_eq!(t2.at_ns, 500_000 + AIFS_VO + 2 * p.slot_ns);
        assert!(matches!(
            mac.access(VO, t2.gen, t2.at_ns, false, &p, &mut rng),
            Access::Frame { frame: 1, .. }
        ));
    }

    #[test]
    fn eifs_after_an_errored_frame() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut mac: Mac<u32> = Mac::default();
        mac.set_rx_error(true);
        let t = schedule(mac.enqueue(VO, 1, 0, false, &p, &mut rng));
        assert_eq!(t.at_ns, AIFS_VO + p.eifs_extra_ns);
        let mut ok: Mac<u32> = Mac::default();
        ok.set_rx_error(false);
        assert_eq!(schedule(ok.enqueue(VO, 1, 0, false, &p, &mut rng)).at_ns, AIFS_VO);
    }

    #[test]
    fn collision_window_keeps_a_backoff_ending_within_cca_detection() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut mac: Mac<u32> = Mac::default();
        let t = schedule(mac.enqueue(VO, 1, 0, false, &p, &mut rng));
        // Another station started 5 µs before our access; we sense it 3 µs after it.
        mac.medium_busy(t.at_ns + 3_000, &p);
        assert_eq!(mac.access_at(VO), Some(t.at_ns), "transmits anyway: collision");
        assert!(matches!(
            mac.access(VO, t.gen, t.at_ns, false, &p, &mut rng),
            Access::Frame { .. }
        ));
        // Sensed 20 µs before: frozen.
        let t = schedule(mac.enqueue(VO, 2, 1_000_000, false, &p, &mut rng));
        mac.medium_busy(t.at_ns - 20_000, &p);
        assert_eq!(mac.access_at(VO), None);
    }

    #[test]
    fn full_queue_and_stale_frames_are_dropped() {
        let p = params();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut mac: Mac<u32> = Mac::default();
        assert_eq!(mac.enqueue(VO, 1, 0, true, &p, &mut rng), Enqueued::Queued);
        assert_eq!(mac.enqueue(VO, 2, 10, true, &p, &mut rng), Enqueued::Queued);
        assert_eq!(
            mac.enqueue(VO, 3, 20, true, &p, &mut rng),
            Enqueued::Dropped,
            "capacity 2"
        );
        assert_eq!(mac.queued(VO), 2);
        // Idle only after 1.5 ms: frame 1 waited too long, frame 2 (queued at 10 ns) too.
        mac.edca[VO].slots = 0;
        let t = mac.medium_idle(1_500_000, &p)[VO].unwrap();
        assert_eq!(
            mac.access(VO, t.gen, t.at_ns, false, &p, &mut rng),
            Access::Empty { delay_drops: 2 }
        );
        // Internal collision: on the air already, a new backoff of at least one slot.
        let t = schedule(mac.enqueue(VO, 4, 2_000_000, false, &p, &mut rng));
        assert_eq!(
            mac.access(VO, t.gen, t.at_ns, true, &p, &mut rng),
            Access::InternalCollision
        );
        assert!(mac.backoff_slots(VO) >= 1);
        assert_eq!(mac.queued(VO), 1);
    }
}
