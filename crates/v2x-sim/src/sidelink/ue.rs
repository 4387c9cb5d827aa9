//! One station's Mode 4 MAC (TS 36.321 §5.14.1.1): its semi-persistent reservation, the
//! reselection counter, probResourceKeep, and what happens when a packet's size does not
//! match the reservation ([`ReservationPolicy`]). NR-V2X Mode 2 (TS 38.321 §5.22.1.1,
//! [`NrMac`]) keeps the same structure in slots and adds the re-evaluation of a selected
//! resource before its first transmission.

use super::pool::ResourcePool;
use super::sps::{self, Candidate, NrRules, Request, Sensing, StationPower};
use crate::metrics::SidelinkStats;
use crate::scenario::ReservationPolicy;
use rand::Rng;

/// The scheduler's parameters, shared by every station.
#[derive(Debug, Clone, Copy)]
pub struct MacParams {
    pub pool: ResourcePool,
    pub rri: u32,
    pub window: [u32; 2],
    pub counter: [u32; 2],
    pub keep: f64,
    pub threshold_mw: f64,
    pub share: f64,
    /// Noise per sub-channel (mW).
    pub noise_mw: f64,
    pub policy: ReservationPolicy,
    /// Sub-channels of the smallest and the largest packet the protocol sends.
    pub smallest_len: u16,
    pub largest_len: u16,
    /// NR-V2X Mode 2's rules (`None`: LTE-V2X Mode 4). With them every time is in slots.
    pub nr: Option<NrMac>,
}

/// What NR-V2X Mode 2's MAC does differently, in slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NrMac {
    /// sl-ResourceReservePeriodList (the first `periods_len`).
    pub periods: [u64; 16],
    pub periods_len: usize,
    /// Sensing window T0.
    pub window: u64,
    /// T_scal (T2).
    pub span: u64,
    /// T_proc,0.
    pub proc0: u64,
    /// T3 = T_proc,1 of the re-evaluation before a selected resource's first
    /// transmission; `None`: no re-evaluation.
    pub reevaluate: Option<u64>,
}

/// A packet waiting for its transmission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet {
    pub seq: u64,
    pub gen_ns: u64,
    pub bytes: u32,
    /// Sub-channels it needs.
    pub len: u16,
}

/// A semi-persistent reservation: `len` sub-channels from `first`, next in subframe `next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reservation {
    pub next: u64,
    pub first: u16,
    pub len: u16,
    pub counter: u32,
}

/// A transmission in the current subframe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Send {
    pub packet: Packet,
    pub first: u16,
    pub len: u16,
    /// The reservation interval its SCI announces (0: none).
    pub rri: u32,
}

/// One station's MAC.
#[derive(Debug, Clone)]
pub struct Ue {
    pub sensing: Sensing,
    pub reservation: Option<Reservation>,
    pending: Option<Packet>,
    /// A resource selected for the pending packet alone.
    one_shot: Option<Candidate>,
    /// The last reservation ran out (the next selection counts as a counter reselection).
    expired: bool,
    last_due: Option<u64>,
    /// NR: the slot in which to re-evaluate the new reservation, and the end of the
    /// selection window it was chosen in.
    reevaluate_at: Option<u64>,
    window_end: u64,
}

impl Ue {
    pub fn new(p: &MacParams) -> Ue {
        let sensing = match &p.nr {
            None => Sensing::new(),
            Some(nr) => Sensing::nr(nr.window, nr.span),
        };
        Ue {
            sensing,
            reservation: None,
            pending: None,
            one_shot: None,
            expired: false,
            last_due: None,
            reevaluate_at: None,
            window_end: 0,
        }
    }

    fn request<'a>(now: u64, window: [u32; 2], len: u16, rri: u32, p: &'a MacParams) -> Request<'a> {
        Request {
            now,
            window,
            subchannels: p.pool.subchannels,
            len,
            rri,
            threshold_mw: p.threshold_mw,
            share: p.share,
            noise_mw: p.noise_mw,
            nr: p.nr.as_ref().map(|n| NrRules {
                periods: &n.periods[..n.periods_len],
                span: n.span,
                proc0: n.proc0,
            }),
        }
    }

    #[allow(clippy::too_many_arguments)] // the resource (3), the shared parameters and outputs (4)
    fn choose(
        &self,
        now: u64,
        len: u16,
        rri: u32,
        p: &MacParams,
        power: StationPower,
        rng: &mut impl Rng,
        stats: &mut SidelinkStats,
    ) -> Candidate {
        let req = Self::request(now, p.window, len, rri, p);
        let (c, cands) = sps::select(&self.sensing, power, &req, rng);
        stats.threshold_steps += u64::from(cands.steps);
        c
    }

    fn draw_counter(p: &MacParams, rng: &mut impl Rng) -> u32 {
        rng.gen_range(p.counter[0]..=p.counter[1])
    }

    /// A packet of `bytes` arrives in subframe `now`; pushes onto `wake` the subframes at
    /// which [`Ue::due`] must be called (a new reservation, a one-shot resource). `power`:
    /// what the station sensed.
    #[allow(clippy::too_many_arguments)] // the packet (3), the shared parameters and outputs (5)
    pub fn arrive(
        &mut self,
        now: u64,
        seq: u64,
        gen_ns: u64,
        bytes: u32,
        p: &MacParams,
        power: StationPower,
        rng: &mut impl Rng,
        stats: &mut SidelinkStats,
        wake: &mut Vec<u64>,
    ) {
        if self.pending.take().is_some() {
            stats.superseded += 1;
            self.one_shot = None;
        }
        let Some(len) = p.pool.subchannels_for(bytes) else {
            stats.oversize += 1;
            return;
        };
        self.pending = Some(Packet {
            seq,
            gen_ns,
            bytes,
            len,
        });
        let reserve_len = match p.policy {
            ReservationPolicy::ReselectOnSizeChange => len,
            ReservationPolicy::ReserveLargest => len.max(p.largest_len),
            ReservationPolicy::OneShotOversize => p.smallest_len.min(len),
        };
        match self.reservation {
            Some(r) if len <= r.len => {}
            Some(_) if p.policy == ReservationPolicy::OneShotOversize => {
                self.one_shot(now, len, p, power, rng, stats, wake)
            }
            r => {
                if r.is_some() {
                    stats.selections_size += 1;
                } else if std::mem::take(&mut self.expired) {
                    stats.selections_counter += 1;
                } else {
                    stats.selections_new += 1;
                }
                let c = self.choose(now, reserve_len, p.rri, p, power, rng, stats);
                self.reservation = Some(Reservation {
                    next: c.subframe,
                    first: c.first,
                    len: reserve_len,
                    counter: Self::draw_counter(p, rng),
                });
                wake.push(c.subframe);
                if let Some(t3) = p.nr.and_then(|n| n.reevaluate) {
                    if c.subframe > now + t3 {
                        self.reevaluate_at = Some(c.subframe - t3);
                        self.window_end = now + u64::from(p.window[1]);
                        wake.push(c.subframe - t3);
                    }
                }
                if len > reserve_len {
                    // Only under one-shot-oversize: the first packet is larger than the
                    // reservation it made.
                    self.one_shot(now, len, p, power, rng, stats, wake);
                }
            }
        }
    }

    /// Selects a resource for the pending packet alone (announced without a reservation).
    #[allow(clippy::too_many_arguments)] // the packet (2), the shared parameters and outputs (5)
    fn one_shot(
        &mut self,
        now: u64,
        len: u16,
        p: &MacParams,
        power: StationPower,
        rng: &mut impl Rng,
        stats: &mut SidelinkStats,
        wake: &mut Vec<u64>,
    ) {
        let c = self.choose(now, len, 0, p, power, rng, stats);
        stats.one_shots += 1;
        self.one_shot = Some(c);
        wake.push(c.subframe);
    }

    /// NR's re-evaluation (TS 38.214 §8.1.4, TS 38.321 §5.22.1.1), T3 before the first
    /// transmission of a new reservation: the selection runs again on what the station
    /// has sensed since, in what is left of the window; a resource no longer among the
    /// candidates is replaced by one drawn among them.
    fn re_evaluate(
        &mut self,
        now: u64,
        p: &MacParams,
        power: StationPower,
        rng: &mut impl Rng,
        stats: &mut SidelinkStats,
        wake: &mut Vec<u64>,
    ) {
        let Some(r) = self.reservation.filter(|r| r.next > now) else {
            return;
        };
        let t1 = p.window[0];
        let Some(t2) = self
            .window_end
            .checked_sub(now)
            .and_then(|t| u32::try_from(t).ok())
            .filter(|&t2| t2 >= t1)
        else {
            return;
        };
        stats.reevaluations += 1;
        let req = Self::request(now, [t1, t2], r.len, p.rri, p);
        let c = sps::candidates(&self.sensing, power, &req);
        let planned = Candidate {
            subframe: r.next,
            first: r.first,
        };
        if c.ranked[..c.pick].iter().any(|(k, _)| *k == planned) {
            return;
        }
        let moved = c.ranked[rng.gen_range(0..c.pick)].0;
        stats.reevaluation_moves += 1;
        self.reservation = Some(Reservation {
            next: moved.subframe,
            first: moved.first,
            ..r
        });
        wake.push(moved.subframe);
    }

    /// Subframe `now` is one this station asked for: what it sends; pushes onto `wake` the
    /// next subframe at which to call it again. `power`: what the station sensed.
    pub fn due(
        &mut self,
        now: u64,
        p: &MacParams,
        power: StationPower,
        rng: &mut impl Rng,
        stats: &mut SidelinkStats,
        wake: &mut Vec<u64>,
    ) -> Option<Send> {
        if self.last_due == Some(now) {
            return None;
        }
        self.last_due = Some(now);
        if self.reevaluate_at == Some(now) {
            self.reevaluate_at = None;
            self.re_evaluate(now, p, power, rng, stats, wake);
        }
        let rri = u64::from(p.rri);
        let occurrence = self.reservation.as_mut().filter(|r| r.next == now);
        if let Some(c) = self.one_shot.filter(|c| c.subframe == now) {
            self.one_shot = None;
            let packet = self
                .pending
                .take()
                .expect("a one-shot resource is selected for a pending packet");
            // The reservation's occurrence in the same subframe goes unused.
            if let Some(r) = occurrence {
                r.next += rri;
                wake.push(r.next);
            }
            return Some(Send {
                packet,
                first: c.first,
                len: packet.len,
                rri: 0,
            });
        }
        let r = occurrence?;
        r.next += rri;
        let fits = self.one_shot.is_none() && self.pending.is_some_and(|k| k.len <= r.len);
        if !fits {
            // Nothing to send in this occurrence: it stays reserved.
            wake.push(r.next);
            return None;
        }
        let packet = self.pending.take().expect("checked");
        let r = *r;
        let mut announce = p.rri;
        let counter = r.counter - 1;
        if counter > 0 {
            self.reservation = Some(Reservation { counter, ..r });
            wake.push(r.next);
        } else if rng.gen::<f64>() < p.keep {
            stats.kept += 1;
            self.reservation = Some(Reservation {
                counter: Self::draw_counter(p, rng),
                ..r
            });
            wake.push(r.next);
        } else {
            // Released: its last SCI announces no further reservation.
            self.reservation = None;
            self.expired = true;
            announce = 0;
        }
        Some(Send {
            packet,
            first: r.first,
            len: r.len,
            rri: announce,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::SidelinkConfig;
    use crate::sidelink::sps::{Heard, SensedPower};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// What a station that sensed nothing but noise reads.
    static QUIET: SensedPower = SensedPower::none();

    fn params(policy: ReservationPolicy, keep: f64) -> MacParams {
        MacParams {
            pool: ResourcePool::new(&SidelinkConfig::default()),
            rri: 100,
            window: [1, 100],
            counter: [5, 15],
            keep,
            threshold_mw: crate::channel::dbm_to_mw(-90.5),
            share: 0.2,
            noise_mw: 1e-12,
            policy,
            smallest_len: 1,
            largest_len: 2,
            nr: None,
        }
    }

    /// Drives one station with a packet every 100 ms of the given sizes; returns what it
    /// sent (subframe, send).
    fn drive(p: &MacParams, sizes: impl Fn(u64) -> u32, periods: u64, stats: &mut SidelinkStats) -> Vec<(u64, Send)> {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut ue = Ue::new(p);
        let mut due: Vec<u64> = Vec::new();
        let mut sent = Vec::new();
        for now in 0..periods * 100 {
            if now % 100 == 0 {
                let k = now / 100;
                ue.arrive(
                    now,
                    k,
                    now * 1_000_000,
                    sizes(k),
                    p,
                    QUIET.of(0),
                    &mut rng,
                    stats,
                    &mut due,
                );
            }
            if due.contains(&now) {
                due.retain(|&t| t != now);
                if let Some(s) = ue.due(now, p, QUIET.of(0), &mut rng, stats, &mut due) {
                    ue.sensing.sent(now);
                    sent.push((now, s));
                }
            }
        }
        sent
    }

    #[test]
    fn the_counter_lasts_5_to_15_transmissions() {
        let p = params(ReservationPolicy::ReselectOnSizeChange, 0.0);
        let mut stats = SidelinkStats::default();
        let sent = drive(&p, |_| 190, 3000, &mut stats);
        assert!(sent.len() >= 2990, "{}", sent.len());
        // Runs of the same resource between releases (announce 0 ends one).
        let mut runs = Vec::new();
        let mut run = 0;
        for (_, s) in &sent {
            run += 1;
            if s.rri == 0 {
                runs.push(run);
                run = 0;
            }
        }
        assert!(runs.len() > 150);
        assert!(runs.iter().all(|&r| (5..=15).contains(&r)), "{runs:?}");
        assert!(runs.contains(&5) && runs.contains(&15));
        let mean = runs.iter().sum::<u32>() as f64 / runs.len() as f64;
        assert!((mean - 10.0).abs() < 0.6, "{mean}");
        assert_eq!(stats.selections_new, 1);
        assert_eq!(stats.selections_counter as usize, runs.len());
        // Within a run: the same sub-channel, 100 ms apart.
        for w in sent.windows(2) {
            if w[0].1.rri != 0 {
                assert_eq!(w[1].0 - w[0].0, 100);
                assert_eq!(w[1].1.first, w[0].1.first);
            }
        }
    }

    #[test]
    fn prob_resource_keep_keeps_some_reservations() {
        let p = params(ReservationPolicy::ReselectOnSizeChange, 0.8);
        let mut stats = SidelinkStats::default();
        drive(&p, |_| 190, 3000, &mut stats);
        let ends = stats.kept + stats.selections_counter;
        let share = stats.kept as f64 / ends as f64;
        assert!((share - 0.8).abs() < 0.1, "{share}");
    }

    #[test]
    fn a_packet_that_does_not_fit_reselects_under_the_standard_policy() {
        let p = params(ReservationPolicy::ReselectOnSizeChange, 0.0);
        let mut stats = SidelinkStats::default();
        // A certificate every 5th message: 300 B (2 sub-channels), else 190 B (1).
        let sent = drive(&p, |k| if k % 5 == 0 { 300 } else { 190 }, 200, &mut stats);
        assert!(stats.selections_size > 0);
        assert!(sent.iter().all(|(_, s)| s.len >= s.packet.len));
        // Once the reservation has two sub-channels the small packets ride in it padded.
        assert!(sent.iter().any(|(_, s)| s.len == 2 && s.packet.len == 1));
        assert_eq!(stats.one_shots, 0);
    }

    #[test]
    fn reserve_largest_never_reselects_for_size() {
        let p = params(ReservationPolicy::ReserveLargest, 0.0);
        let mut stats = SidelinkStats::default();
        let sent = drive(&p, |k| if k % 5 == 0 { 300 } else { 190 }, 200, &mut stats);
        assert_eq!(stats.selections_size, 0);
        assert!(sent.iter().all(|(_, s)| s.len == 2));
    }

    #[test]
    fn one_shot_oversize_keeps_the_small_reservation() {
        let p = params(ReservationPolicy::OneShotOversize, 0.0);
        let mut stats = SidelinkStats::default();
        let sent = drive(&p, |k| if k % 5 == 0 { 300 } else { 190 }, 200, &mut stats);
        assert_eq!(stats.selections_size, 0);
        assert_eq!(stats.one_shots, 40);
        assert_eq!(sent.len(), 200, "every packet sent once");
        for (_, s) in &sent {
            if s.packet.bytes == 300 {
                assert_eq!((s.len, s.rri), (2, 0), "one shot, nothing reserved");
            } else {
                assert_eq!(s.len, 1);
            }
        }
    }

    #[test]
    fn a_newer_packet_replaces_one_not_yet_sent_and_oversize_is_dropped() {
        let p = params(ReservationPolicy::ReselectOnSizeChange, 0.0);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut stats = SidelinkStats::default();
        let mut ue = Ue::new(&p);
        let mut wake = Vec::new();
        ue.arrive(0, 0, 0, 190, &p, QUIET.of(0), &mut rng, &mut stats, &mut wake);
        let at = wake[0];
        assert!((1..=100).contains(&at));
        ue.arrive(0, 1, 0, 190, &p, QUIET.of(0), &mut rng, &mut stats, &mut wake);
        assert_eq!(wake.len(), 1, "rides on the reservation");
        assert_eq!(stats.superseded, 1);
        let send = ue.due(at, &p, QUIET.of(0), &mut rng, &mut stats, &mut wake);
        assert_eq!(send.unwrap().packet.seq, 1);
        assert_eq!(wake, vec![at, at + 100]);
        ue.arrive(at + 1, 2, 0, 5000, &p, QUIET.of(0), &mut rng, &mut stats, &mut wake);
        assert_eq!(stats.oversize, 1);
        assert_eq!(wake.len(), 2);
    }

    fn nr_params() -> MacParams {
        let mut periods = [0; 16];
        periods[0] = 100;
        MacParams {
            nr: Some(NrMac {
                periods,
                periods_len: 1,
                window: 1100,
                span: 100,
                proc0: 1,
                reevaluate: Some(3),
            }),
            ..params(ReservationPolicy::ReselectOnSizeChange, 0.0)
        }
    }

    /// A new reservation, re-evaluated T3 = 3 slots before its first transmission, with or
    /// without an SCI heard since that reserves the same resource above the threshold.
    fn re_evaluated(conflict: bool) -> (Reservation, Reservation, SidelinkStats, Vec<u64>) {
        let p = nr_params();
        let mut stats = SidelinkStats::default();
        for seed in 0.. {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut ue = Ue::new(&p);
            let mut wake = Vec::new();
            ue.arrive(1000, 0, 0, 190, &p, QUIET.of(0), &mut rng, &mut stats, &mut wake);
            let planned = ue.reservation.unwrap();
            if planned.next < 1010 {
                continue; // too close for the other station's SCI to come before T3
            }
            let m = planned.next - 3;
            assert_eq!(wake, vec![planned.next, m], "woken T3 before the first transmission");
            if conflict {
                // Heard after the selection: its next reservation is our planned resource.
                ue.sensing.heard(Heard {
                    subframe: planned.next - 100,
                    first: planned.first,
                    len: 1,
                    rsrp_mw: crate::channel::dbm_to_mw(-60.0),
                    rri: 100,
                });
            }
            wake.clear();
            assert_eq!(ue.due(m, &p, QUIET.of(0), &mut rng, &mut stats, &mut wake), None);
            return (planned, ue.reservation.unwrap(), stats, wake);
        }
        unreachable!()
    }

    #[test]
    fn re_evaluation_moves_a_reservation_a_new_sci_conflicts_with() {
        let (planned, after, stats, wake) = re_evaluated(true);
        assert_eq!((stats.reevaluations, stats.reevaluation_moves), (1, 1));
        assert_ne!((after.next, after.first), (planned.next, planned.first));
        // Still in what is left of the window [m + T1, 1000 + T2], woken for it.
        assert!(after.next > planned.next - 3 && after.next <= 1100, "{after:?}");
        assert_eq!(wake, vec![after.next]);
        assert_eq!((after.len, after.counter), (planned.len, planned.counter));
        // Without the conflicting SCI the resource stays.
        let (planned, after, stats, wake) = re_evaluated(false);
        assert_eq!((stats.reevaluations, stats.reevaluation_moves), (1, 0));
        assert_eq!(after, planned);
        assert!(wake.is_empty());
    }

    #[test]
    fn lte_never_re_evaluates() {
        let p = params(ReservationPolicy::ReselectOnSizeChange, 0.0);
        let mut stats = SidelinkStats::default();
        drive(&p, |_| 190, 300, &mut stats);
        assert_eq!(stats.reevaluations, 0);
    }
}
