//! Sensing-based resource selection of LTE-V2X Mode 4 (TS 36.213 §14.1.1.6), on what one
//! station sensed during its 1000 ms sensing window, and of NR-V2X Mode 2 (TS 38.214
//! §8.1.4; [`NrRules`]) in slots.
//!
//! A candidate single-subframe resource R(x, y) is `len` contiguous sub-channels from `x`
//! in a subframe `y` of the selection window [n + T1, n + T2]. The selection:
//!
//! 1. excludes the candidates whose repetitions (every reservation interval) fall on a
//!    subframe the station did not monitor because it was sending (half duplex, step 5);
//! 2. excludes the candidates that overlap the next reservation announced by an SCI
//!    heard in the window above the RSRP threshold (step 6: Q of them for an interval
//!    shorter than 100 ms heard within the last interval, else one: `lte_reservations`);
//!    when fewer than 20 % of all candidates remain, the threshold rises by 3 dB and the
//!    exclusion starts again;
//! 3. ranks the rest by their S-RSSI averaged over the sensing window (the subframes one,
//!    two, ... periods before, on the same sub-channels) and picks uniformly among the
//!    lowest 20 % of all candidates (TS 36.321 §5.14.1.1).
//!
//! NR-V2X Mode 2 differs ([`NrRules`]): the window is T0 = 100 or 1100 ms of slots and
//! ends T_proc,0 before the selection; step 5 excludes the repetitions of a slot not
//! monitored at every period of `sl-ResourceReservePeriodList`; an SCI's reservations
//! count Q = ceil(T_scal / P) times for a period P shorter than T_scal (T2); the share X
//! is 20, 35 or 50 %; and there is no S-RSSI ranking: the set left after the exclusion
//! goes to the MAC, which picks uniformly in it (TS 38.321 §5.22.1.1).

use rand::Rng;
use std::collections::VecDeque;

/// Sensing window (subframes).
pub const SENSING_WINDOW: u64 = 1000;

/// Spacing of the subframes whose S-RSSI is averaged and of the repetitions of the
/// subframes not monitored: P_step = 100 ms, or the RRI when shorter (a one-shot
/// transmission, RRI 0, uses P_step).
fn step(rri: u32) -> u64 {
    u64::from(if rri == 0 { 100 } else { rri.min(100) })
}

/// An SCI heard: its transmission and the reservation it announces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Heard {
    pub subframe: u64,
    pub first: u16,
    pub len: u16,
    /// Received power of the transmission (mW).
    pub rsrp_mw: f64,
    /// Announced reservation interval (ms); 0: no reservation (a one-shot transmission).
    pub rri: u32,
}

/// What one station sensed in its sensing window (LTE: 1000 ms; NR: T0) besides the power
/// per sub-channel, which every station's [`SensedPower`] keeps.
#[derive(Debug, Clone)]
pub struct Sensing {
    /// Length of the window (slots).
    window: u64,
    /// NR: T_scal (slots), how far an SCI's reservations reach; `None` for LTE.
    span: Option<u64>,
    heard: VecDeque<Heard>,
    /// The last slot in which `heard`'s first SCI is kept ([`NEVER`] when none): kept
    /// beside the queue, so that hearing an SCI reads only its end.
    heard_until: u64,
    /// Subframes in which the station sent (not monitored: half duplex).
    own: VecDeque<u64>,
}

/// "Kept forever" for [`Sensing::heard_until`] (nothing heard).
const NEVER: u64 = u64::MAX;

impl Sensing {
    pub fn new() -> Sensing {
        Sensing {
            window: SENSING_WINDOW,
            span: None,
            heard: VecDeque::new(),
            heard_until: NEVER,
            own: VecDeque::new(),
        }
    }

    /// NR-V2X: a window of `window` slots, SCIs' reservations up to `span` slots ahead.
    pub fn nr(window: u64, span: u64) -> Sensing {
        Sensing {
            window,
            span: Some(span),
            ..Sensing::new()
        }
    }

    /// The last slot in which `h` is kept: until it leaves the window or its announced
    /// reservations have all passed (it can exclude nothing more).
    fn kept_until(&self, h: &Heard) -> u64 {
        let passed = match self.span {
            None => h.subframe + u64::from(h.rri.max(100)),
            Some(span) => h.subframe + u64::from(h.rri) + span,
        };
        passed.min(h.subframe + self.window)
    }

    /// Forgets what is older than the sensing window before subframe `now`, and the SCIs
    /// whose announced reservations have all passed.
    fn expire(&mut self, now: u64) {
        while self.heard_until < now {
            self.heard.pop_front();
            self.heard_until = self.heard.front().map_or(NEVER, |h| self.kept_until(h));
        }
        let oldest = now.saturating_sub(self.window);
        while self.own.front().is_some_and(|&z| z < oldest) {
            self.own.pop_front();
        }
    }

    /// The station heard an SCI.
    pub fn heard(&mut self, h: Heard) {
        self.expire(h.subframe);
        if self.heard.is_empty() {
            self.heard_until = self.kept_until(&h);
        }
        self.heard.push_back(h);
    }

    /// The station sent in `subframe`.
    pub fn sent(&mut self, subframe: u64) {
        self.expire(subframe);
        self.own.push_back(subframe);
    }

    fn monitored(&self, subframe: u64) -> bool {
        !self.own.contains(&subframe)
    }
}

impl Default for Sensing {
    fn default() -> Sensing {
        Sensing::new()
    }
}

/// Slots of a station's [`SensedPower`] kept together: a tile of them per station, so that
/// one subframe's receptions at every station write within a few MB (a cache line per
/// station every few subframes, few pages) and a selection reads its station's window in
/// runs of a few cache lines.
const TILE: usize = 20;
const _: () = assert!((SENSING_WINDOW as usize).is_multiple_of(TILE));

/// The received power per sub-channel (mW, noise excluded) of the last 1000 subframes at
/// every station (LTE; empty on NR, which ranks nothing): a ring indexed by subframe, in
/// tiles of `TILE` (20) subframes per station. `stamp` says which subframe each slot holds:
/// a slot not written in that subframe heard nothing but noise. Every station's slot is
/// cleared together, when the subframe's first reception is written, instead of a stamp
/// per station and slot, since a subframe reaches most stations.
pub struct SensedPower {
    stations: usize,
    subchannels: usize,
    mw: Vec<f32>,
    stamp: Vec<u64>,
}

impl SensedPower {
    /// The power at `stations` stations on `subchannels` sub-channels.
    pub fn new(stations: usize, subchannels: u16) -> SensedPower {
        let subchannels = usize::from(subchannels);
        SensedPower {
            stations,
            subchannels,
            mw: vec![0.0; SENSING_WINDOW as usize * stations * subchannels],
            stamp: vec![u64::MAX; SENSING_WINDOW as usize],
        }
    }

    /// None kept (NR): every station heard nothing but noise.
    pub const fn none() -> SensedPower {
        SensedPower {
            stations: 0,
            subchannels: 0,
            mw: Vec::new(),
            stamp: Vec::new(),
        }
    }

    /// Where the sub-channels of `station` in ring slot `slot` start.
    fn at(&self, station: usize, slot: usize) -> usize {
        ((slot / TILE * self.stations + station) * TILE + slot % TILE) * self.subchannels
    }

    /// Adds `mw` received at `station` on sub-channel `c` in `subframe` (non-decreasing
    /// across calls).
    pub fn receive(&mut self, station: usize, subframe: u64, c: u16, mw: f64) {
        if self.stamp.is_empty() {
            return;
        }
        let slot = (subframe % SENSING_WINDOW) as usize;
        if self.stamp[slot] != subframe {
            self.stamp[slot] = subframe;
            for st in 0..self.stations {
                let at = self.at(st, slot);
                self.mw[at..at + self.subchannels].fill(0.0);
            }
        }
        let at = self.at(station, slot) + usize::from(c);
        self.mw[at] += mw as f32;
    }

    /// What `station` sensed.
    pub fn of(&self, station: usize) -> StationPower<'_> {
        StationPower { all: self, station }
    }
}

/// The received power one station sensed ([`SensedPower::of`]).
#[derive(Clone, Copy)]
pub struct StationPower<'a> {
    all: &'a SensedPower,
    station: usize,
}

impl StationPower<'_> {
    /// Received power on sub-channel `c` in `subframe` (noise excluded), if it lies in the
    /// ring.
    pub fn mw(&self, subframe: u64, c: u16) -> f64 {
        let slot = (subframe % SENSING_WINDOW) as usize;
        if self.all.stamp.get(slot) == Some(&subframe) {
            f64::from(self.all.mw[self.all.at(self.station, slot) + usize::from(c)])
        } else {
            0.0
        }
    }
}

/// What NR-V2X Mode 2's selection does differently (TS 38.214 §8.1.4), in slots.
#[derive(Debug, Clone, Copy)]
pub struct NrRules<'a> {
    /// sl-ResourceReservePeriodList (slots): step 5's hypothetical reservations.
    pub periods: &'a [u64],
    /// T_scal (slots; T2): an SCI with a shorter period reserves Q = ceil(T_scal / P) times.
    pub span: u64,
    /// T_proc,0 (slots): SCIs heard this close before the selection are not used yet.
    pub proc0: u64,
}

/// The parameters of one selection.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The subframe the selection is made in (n).
    pub now: u64,
    /// [T1, T2] (subframes after n).
    pub window: [u32; 2],
    pub subchannels: u16,
    /// Sub-channels the packet needs.
    pub len: u16,
    /// The station's reservation interval (ms; 0 for a one-shot transmission).
    pub rri: u32,
    pub threshold_mw: f64,
    /// Share of all candidates that must remain, and that forms the pick set.
    pub share: f64,
    /// Noise per sub-channel (mW), added to the S-RSSI.
    pub noise_mw: f64,
    /// NR-V2X's rules (`None`: LTE-V2X's).
    pub nr: Option<NrRules<'a>>,
}

/// A resource: `len` sub-channels from `first` in `subframe`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub subframe: u64,
    pub first: u16,
}

/// The outcome of the exclusion steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidates {
    /// All candidates of the window (M_total).
    pub total: usize,
    /// The remaining ones, ranked by S-RSSI, lowest first, with it (mW).
    pub ranked: Vec<(Candidate, f64)>,
    /// How many 3 dB steps the threshold rose.
    pub steps: u32,
    /// The pick set: the first `pick` of `ranked`.
    pub pick: usize,
}

/// Threshold steps before giving up (+3 dB each: 300 dB above the initial one).
const MAX_STEPS: u32 = 100;

/// Steps 1-3 of the module documentation.
pub fn candidates(s: &Sensing, power: StationPower, r: &Request) -> Candidates {
    let [t1, t2] = r.window;
    let (first_y, last_y) = (r.now + u64::from(t1), r.now + u64::from(t2));
    let xs = r.subchannels.saturating_sub(r.len) + 1;
    let all: Vec<Candidate> = (first_y..=last_y)
        .flat_map(|y| (0..xs).map(move |x| Candidate { subframe: y, first: x }))
        .collect();
    let total = all.len();
    let oldest = r.now.saturating_sub(s.window);
    let own_rri = u64::from(r.rri);
    let base: Vec<Candidate> = match r.nr {
        // Step 5: subframes not monitored, repeated at the station's own interval.
        None => {
            let unmonitored = |y: u64| {
                own_rri > 0
                    && s.own
                        .iter()
                        .any(|&z| z >= oldest && z < r.now && y > z && (y - z).is_multiple_of(step(r.rri)))
            };
            all.iter().copied().filter(|c| !unmonitored(c.subframe)).collect()
        }
        // Step 5 of NR: a hypothetical SCI in each slot not monitored, on every sub-channel,
        // at every period of the list.
        Some(nr) => {
            let mut skip = vec![false; (last_y - first_y + 1) as usize];
            for &z in s.own.iter().filter(|&&z| z >= oldest && z < r.now) {
                for &p in nr.periods.iter().filter(|&&p| p > 0) {
                    for k in 1..=reservations(p, nr.span) {
                        for row in rows_met(z + k * p, first_y, last_y, own_rri) {
                            skip[row] = true;
                        }
                    }
                }
            }
            all.iter()
                .copied()
                .filter(|c| !skip[(c.subframe - first_y) as usize])
                .collect()
        }
    };
    // Step 6: the next reservations announced by the SCIs heard in the window, marked on
    // the window's grid (with the candidates' own repetitions folded back onto it).
    let proc0 = r.nr.map_or(0, |n| n.proc0);
    let announced: Vec<&Heard> = s
        .heard
        .iter()
        .filter(|h| h.rri > 0 && h.subframe >= oldest && h.subframe + proc0 < r.now)
        .collect();
    let width = usize::from(r.subchannels);
    let mut marks = vec![false; (last_y - first_y + 1) as usize * width];
    let need = ((r.share * total as f64).ceil() as usize).max(1);
    let mut threshold = r.threshold_mw;
    let mut steps = 0;
    let mut left: Vec<Candidate>;
    loop {
        marks.fill(false);
        for h in announced.iter().filter(|h| h.rsrp_mw > threshold) {
            // Its reservations h + q RRI (q = 1..Q) against the candidates' own
            // repetitions c + j RRI (j >= 0).
            let q = match r.nr {
                None => lte_reservations(h.rri, r.now - h.subframe),
                Some(nr) => reservations(u64::from(h.rri), nr.span),
            };
            for k in 1..=q {
                let mut y = h.subframe + k * u64::from(h.rri);
                while y >= first_y {
                    if y <= last_y {
                        let row = (y - first_y) as usize * width;
                        let lo = usize::from(h.first);
                        marks[row + lo..row + (lo + usize::from(h.len)).min(width)].fill(true);
                    }
                    if own_rri == 0 || y < first_y + own_rri {
                        break;
                    }
                    y -= own_rri;
                }
            }
        }
        left = base
            .iter()
            .copied()
            .filter(|c| {
                let row = (c.subframe - first_y) as usize * width + usize::from(c.first);
                !marks[row..row + usize::from(r.len)].contains(&true)
            })
            .collect();
        if left.len() >= need.min(base.len()) || steps >= MAX_STEPS {
            break;
        }
        threshold *= 10f64.powf(0.3);
        steps += 1;
    }
    if left.is_empty() {
        // Nothing monitored at all (a station sending in every subframe): any candidate.
        left = all;
    }
    if r.nr.is_some() {
        // NR: no ranking; the MAC picks among all that remain.
        let pick = left.len();
        return Candidates {
            total,
            ranked: left.into_iter().map(|c| (c, 0.0)).collect(),
            steps,
            pick,
        };
    }
    let p = step(r.rri);
    let mut ranked: Vec<(Candidate, f64)> = left
        .into_iter()
        .map(|c| {
            let (mut sum, mut n) = (0.0, 0u32);
            let mut t = c.subframe;
            while t >= p && t - p >= oldest {
                t -= p;
                if t < r.now && s.monitored(t) {
                    for k in c.first..c.first + r.len {
                        sum += power.mw(t, k) + r.noise_mw;
                    }
                    n += u32::from(r.len);
                }
            }
            (c, if n == 0 { r.noise_mw } else { sum / f64::from(n) })
        })
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    let pick = need.min(ranked.len());
    Candidates {
        total,
        ranked,
        steps,
        pick,
    }
}

/// The window's rows (slots after its first) that a reservation in slot `y` meets: `y` and
/// `y - j RRI` (j >= 1, the candidates' own repetitions) within the window.
fn rows_met(y: u64, first_y: u64, last_y: u64, own_rri: u64) -> impl Iterator<Item = usize> {
    std::iter::successors(Some(y), move |&y| {
        (own_rri > 0 && y >= first_y + own_rri).then(|| y - own_rri)
    })
    .take_while(move |&y| y >= first_y)
    .filter(move |&y| y <= last_y)
    .map(move |y| (y - first_y) as usize)
}

/// How many reservations an LTE SCI announcing `rri` ms, heard `age` subframes before the
/// selection, stands for (Q of TS 36.213 §14.1.1.6 step 6): 100 / RRI for an interval
/// shorter than 100 ms if it was heard within the last interval (n' − m ≤ P_step ×
/// P_rsvp_RX), otherwise 1. An older SCI of a short interval reserves nothing ahead of the
/// selection: its sender's later SCIs, if heard, speak for its reservation.
fn lte_reservations(rri: u32, age: u64) -> u64 {
    if rri < 100 && age <= u64::from(rri) {
        u64::from(100 / rri)
    } else {
        1
    }
}

/// How many times an NR SCI with period `p` reserves within `span` (Q of TS 38.214 §8.1.4).
fn reservations(p: u64, span: u64) -> u64 {
    if p < span {
        span.div_ceil(p)
    } else {
        1
    }
}

/// Selects a resource: uniformly among the pick set of [`candidates`].
pub fn select(s: &Sensing, power: StationPower, r: &Request, rng: &mut impl Rng) -> (Candidate, Candidates) {
    let c = candidates(s, power, r);
    let chosen = c.ranked[rng.gen_range(0..c.pick)].0;
    (chosen, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn request(now: u64) -> Request<'static> {
        Request {
            now,
            window: [1, 100],
            subchannels: 4,
            len: 1,
            rri: 100,
            threshold_mw: crate::channel::dbm_to_mw(-90.5),
            share: 0.2,
            noise_mw: 1e-12,
            nr: None,
        }
    }

    /// What a station that sensed nothing but noise reads.
    static QUIET: SensedPower = SensedPower::none();

    /// Heard with 4 sub-channels: `n` reservations per subframe class above the threshold.
    fn busy_sensing(now: u64, per_subframe: u16, dbm: f64) -> (Sensing, SensedPower) {
        let mut s = Sensing::new();
        let mut power = SensedPower::new(1, 4);
        for t in now - 100..now {
            for x in 0..per_subframe {
                let mw = crate::channel::dbm_to_mw(dbm);
                power.receive(0, t, x, mw);
                s.heard(Heard {
                    subframe: t,
                    first: x,
                    len: 1,
                    rsrp_mw: mw,
                    rri: 100,
                });
            }
        }
        (s, power)
    }

    #[test]
    fn an_idle_channel_leaves_every_candidate_and_picks_a_fifth() {
        let s = Sensing::new();
        let c = candidates(&s, QUIET.of(0), &request(2000));
        assert_eq!((c.total, c.ranked.len(), c.steps, c.pick), (400, 400, 0, 80));
    }

    #[test]
    fn reserved_resources_above_the_threshold_are_excluded() {
        // Sub-channel 0 reserved in every subframe at -80 dBm: the SCIs heard in
        // 1900..2000 announce 2000..2100; 2100 (heard in 2000, not yet sensed) stays.
        let (s, power) = busy_sensing(2000, 1, -80.0);
        let c = candidates(&s, power.of(0), &request(2000));
        assert_eq!(c.steps, 0);
        assert_eq!(c.ranked.len(), 301);
        assert!(c.ranked.iter().all(|(k, _)| k.first != 0 || k.subframe == 2100));
        // Below the threshold they stay (and rank last: their S-RSSI is higher).
        let (s, power) = busy_sensing(2000, 1, -95.0);
        let c = candidates(&s, power.of(0), &request(2000));
        assert_eq!(c.ranked.len(), 400);
        assert!(c.ranked[..300].iter().all(|(k, _)| k.first != 0));
    }

    #[test]
    fn the_threshold_rises_by_3_db_until_a_fifth_remains() {
        // Every resource reserved: at -85 dBm the threshold must rise past it. From
        // -90.5: -87.5, -84.5 -> two steps.
        let (s, power) = busy_sensing(2000, 4, -85.0);
        let c = candidates(&s, power.of(0), &request(2000));
        assert_eq!(c.steps, 2);
        assert_eq!(c.ranked.len(), 400);
        // Half the sub-channels at -70 dBm, the rest at -85: the weaker half is freed
        // after two steps and the stronger stays excluded.
        let (mut s, mut power) = busy_sensing(2000, 0, 0.0);
        for t in 1900..2000u64 {
            for x in 0..4u16 {
                let dbm = if x < 2 { -70.0 } else { -85.0 };
                let mw = crate::channel::dbm_to_mw(dbm);
                power.receive(0, t, x, mw);
                s.heard(Heard {
                    subframe: t,
                    first: x,
                    len: 1,
                    rsrp_mw: mw,
                    rri: 100,
                });
            }
        }
        let c = candidates(&s, power.of(0), &request(2000));
        assert_eq!((c.steps, c.ranked.len()), (2, 202));
        assert!(c.ranked.iter().all(|(k, _)| k.first >= 2 || k.subframe == 2100));
    }

    #[test]
    fn the_pick_is_among_the_lowest_s_rssi_fifth() {
        let s = Sensing::new();
        let mut power = SensedPower::new(1, 4);
        // S-RSSI grows with the sub-channel and the subframe, below the threshold.
        for t in 1000..2000u64 {
            for x in 0..4u16 {
                power.receive(0, t, x, 1e-13 * f64::from(x + 1) * ((t % 100) + 1) as f64);
            }
        }
        let r = request(2000);
        let c = candidates(&s, power.of(0), &r);
        let set: Vec<Candidate> = c.ranked[..c.pick].iter().map(|x| x.0).collect();
        let worst_in = c.ranked[c.pick - 1].1;
        assert!(c.ranked[c.pick..].iter().all(|x| x.1 >= worst_in));
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..500 {
            let (chosen, _) = select(&s, power.of(0), &r, &mut rng);
            assert!(set.contains(&chosen));
            assert!((2001..=2100).contains(&chosen.subframe));
        }
    }

    #[test]
    fn subframes_the_station_sent_in_are_excluded_at_its_interval() {
        let mut s = Sensing::new();
        s.sent(1950);
        let c = candidates(&s, QUIET.of(0), &request(2000));
        assert_eq!(c.ranked.len(), 396, "2050 on its four sub-channels");
        assert!(c.ranked.iter().all(|(k, _)| k.subframe != 2050));
    }

    /// Step 6 at a 50 ms interval: an SCI heard within the last 50 ms stands for Q = 2
    /// reservations, an older one for Q = 1, which is already past (TS 36.213 §14.1.1.6).
    #[test]
    fn a_short_interval_sci_reserves_twice_only_if_heard_within_its_interval() {
        let r = Request {
            window: [1, 50],
            rri: 50,
            ..request(2000)
        };
        let heard_at = |subframe: u64| {
            let mut s = Sensing::new();
            s.heard(Heard {
                subframe,
                first: 0,
                len: 1,
                rsrp_mw: 1.0,
                rri: 50,
            });
            candidates(&s, QUIET.of(0), &r)
        };
        // Heard 40 ms ago: 1960 + 50 = 2010 excluded on sub-channel 0 (and 2060 is 2010's
        // own repetition).
        let c = heard_at(1960);
        assert_eq!((c.total, c.ranked.len()), (200, 199));
        assert!(!c.ranked.iter().any(|(k, _)| k.subframe == 2010 && k.first == 0));
        // Heard 60 ms ago: Q = 1, its reservation 1990 is past; 2040 (1940 + 2 x 50) is
        // not excluded.
        let c = heard_at(1940);
        assert_eq!(c.ranked.len(), 200);
        // At 100 ms and above Q = 1 whatever the age.
        assert_eq!(
            (
                lte_reservations(100, 10),
                lte_reservations(20, 20),
                lte_reservations(20, 21)
            ),
            (1, 5, 1)
        );
    }

    #[test]
    fn longer_packets_have_fewer_positions_and_overlap_partially() {
        let mut s = Sensing::new();
        s.heard(Heard {
            subframe: 1990,
            first: 3,
            len: 1,
            rsrp_mw: 1.0,
            rri: 100,
        });
        let r = Request {
            len: 2,
            ..request(2000)
        };
        let c = candidates(&s, QUIET.of(0), &r);
        assert_eq!(c.total, 300);
        // (2090, x = 2) overlaps sub-channel 3.
        assert_eq!(c.ranked.len(), 299);
        assert!(!c.ranked.iter().any(|(k, _)| k.subframe == 2090 && k.first == 2));
        // A one-shot SCI (rri 0) reserves nothing.
        let mut s = Sensing::new();
        s.heard(Heard {
            subframe: 1990,
            first: 3,
            len: 1,
            rsrp_mw: 1.0,
            rri: 0,
        });
        assert_eq!(candidates(&s, QUIET.of(0), &r).ranked.len(), 300);
    }

    #[test]
    fn the_window_forgets_after_1000_ms() {
        let mut power = SensedPower::new(3, 4);
        power.receive(1, 5, 0, 1.0);
        assert_eq!(power.of(1).mw(5, 0), 1.0);
        assert_eq!(power.of(0).mw(5, 0), 0.0, "another station");
        power.receive(2, 1005, 1, 2.0);
        assert_eq!(power.of(1).mw(5, 0), 0.0, "slot reused");
        assert_eq!(power.of(1).mw(1005, 1), 0.0, "slot cleared for every station");
        assert_eq!(power.of(2).mw(1005, 1), 2.0);
        let mut s = Sensing::new();
        s.sent(10);
        s.sent(1500);
        assert_eq!(s.own.len(), 1);
    }

    /// NR: sub-channel x announced at -85 + 6x dBm in every slot of the last 100 ms (µ = 1:
    /// 200 slots, period 200 slots): the threshold rises from -90.5 dBm in 3 dB steps,
    /// freeing a sub-channel every two steps, until X % of the candidates remain; nothing
    /// is ranked, every remaining one can be picked.
    #[test]
    fn nr_threshold_rises_until_x_percent_remain() {
        let now = 4000;
        let mut s = Sensing::nr(2200, 200);
        for t in now - 200..now {
            for x in 0..4u16 {
                s.heard(Heard {
                    subframe: t,
                    first: x,
                    len: 1,
                    rsrp_mw: crate::channel::dbm_to_mw(-85.0 + 6.0 * f64::from(x)),
                    rri: 200,
                });
            }
        }
        let periods = [200u64];
        for (x, steps) in [(0.2, 2), (0.35, 4), (0.5, 4)] {
            let r = Request {
                window: [1, 200],
                rri: 200,
                share: x,
                nr: Some(NrRules {
                    periods: &periods,
                    span: 200,
                    proc0: 1,
                }),
                ..request(now)
            };
            let c = candidates(&s, QUIET.of(0), &r);
            assert_eq!(c.total, 800);
            assert_eq!(c.steps, steps, "X = {x}");
            assert!(c.ranked.len() as f64 >= x * 800.0, "X = {x}: {}", c.ranked.len());
            // The last step was needed: one fewer leaves less than X.
            let before = Request {
                threshold_mw: r.threshold_mw * 10f64.powf(0.3 * f64::from(steps - 1)),
                share: 0.01,
                ..r
            };
            assert!(
                (candidates(&s, QUIET.of(0), &before).ranked.len() as f64) < x * 800.0,
                "X = {x}"
            );
            assert_eq!(c.pick, c.ranked.len(), "no S-RSSI ranking on NR");
            // The SCIs of the last T_proc,0 = 1 slot are not used yet: slot now - 1
            // announces now + 199, which stays free on every sub-channel.
            let freed = (steps / 2) as usize;
            assert!(c
                .ranked
                .iter()
                .all(|(k, _)| usize::from(k.first) < freed || k.subframe >= now + 199));
        }
    }

    /// NR step 5: a slot the station sent in excludes the slots a hypothetical SCI in it
    /// would reserve at every period of the list (Q = ceil(T_scal / P) times for P < T_scal).
    #[test]
    fn nr_slots_not_monitored_exclude_every_listed_period() {
        let mut s = Sensing::nr(1100, 100);
        s.sent(1950);
        let with = |periods: &[u64]| {
            let r = Request {
                nr: Some(NrRules {
                    periods,
                    span: 100,
                    proc0: 1,
                }),
                ..request(2000)
            };
            let c = candidates(&s, QUIET.of(0), &r);
            let gone: Vec<u64> = (2001..=2100)
                .filter(|y| !c.ranked.iter().any(|(k, _)| k.subframe == *y))
                .collect();
            (c.ranked.len(), gone)
        };
        // P = 100: 2050 only.
        assert_eq!(with(&[100]), (396, vec![2050]));
        // P = 30 as well: Q = 4, 1980 (before the window), 2010, 2040, 2070.
        assert_eq!(with(&[100, 30]), (384, vec![2010, 2040, 2050, 2070]));
    }
}
