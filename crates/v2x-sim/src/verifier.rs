//! A receiver's security processor: `cores` servers, an urgent queue (own signing and
//! encryption) and a verification queue in FIFO or nearest-first order with a deadline,
//! enforced by a [`DeadlinePolicy`]: a job that cannot finish in time is dropped when it
//! would start, or started and aborted at its deadline. Urgent jobs run on a core of their
//! own or first in line on the verification cores ([`SigningCore`]).

use crate::scenario::{DeadlinePolicy, QueueOrder, SigningCore};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// One unit of work.
#[derive(Debug)]
pub struct Job<T> {
    pub work: T,
    /// When the job entered the queue (ns).
    pub arrival_ns: u64,
    /// The job must be done by this time (`u64::MAX`: never).
    pub deadline_ns: u64,
    pub service_ns: u64,
    /// When a core took it (set by the processor).
    pub started_ns: u64,
    /// Nearest-first key: sender distance in millimetres.
    pub distance_mm: u64,
    /// Ran on the signing core (set by the processor; says which core it frees).
    pub on_signing_core: bool,
}

struct Queued<T> {
    job: Job<T>,
    seq: u64,
}

impl<T> PartialEq for Queued<T> {
    fn eq(&self, o: &Self) -> bool {
        self.seq == o.seq
    }
}
impl<T> Eq for Queued<T> {}
impl<T> PartialOrd for Queued<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Queued<T> {
    /// Max-heap: the nearest (then oldest) job is the greatest.
    fn cmp(&self, o: &Self) -> Ordering {
        o.job.distance_mm.cmp(&self.job.distance_mm).then(o.seq.cmp(&self.seq))
    }
}

impl<T> Job<T> {
    /// A job of this work arriving at `arrival_ns`, not started yet.
    pub fn new(work: T, arrival_ns: u64, deadline_ns: u64, service_ns: u64, distance_mm: u64) -> Job<T> {
        Job {
            work,
            arrival_ns,
            deadline_ns,
            service_ns,
            started_ns: 0,
            distance_mm,
            on_signing_core: false,
        }
    }

    /// When its core is free again: the end of its service, or its deadline when the
    /// service would overrun it (aborted under [`DeadlinePolicy::AbortAtDeadline`]).
    pub fn ends_ns(&self) -> u64 {
        self.started_ns.saturating_add(self.service_ns).min(self.deadline_ns)
    }

    /// Its service ends after its deadline: it was aborted there.
    pub fn aborted(&self) -> bool {
        self.started_ns.saturating_add(self.service_ns) > self.deadline_ns
    }
}

pub struct Processor<T> {
    cores: u32,
    busy: u32,
    /// `Some(busy)`: urgent jobs have a core of their own.
    signing_core: Option<bool>,
    order: QueueOrder,
    policy: DeadlinePolicy,
    urgent: VecDeque<Job<T>>,
    fifo: VecDeque<Job<T>>,
    heap: BinaryHeap<Queued<T>>,
    seq: u64,
}

impl<T> Processor<T> {
    pub fn new(cores: u32, order: QueueOrder, policy: DeadlinePolicy) -> Self {
        Processor {
            cores: cores.max(1),
            busy: 0,
            signing_core: None,
            order,
            policy,
            urgent: VecDeque::new(),
            fifo: VecDeque::new(),
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }

    /// Where urgent jobs run.
    pub fn with_signing(mut self, signing: SigningCore) -> Self {
        self.signing_core = (signing == SigningCore::OwnCore).then_some(false);
        self
    }

    pub fn queued(&self) -> usize {
        self.urgent.len() + self.fifo.len() + self.heap.len()
    }

    /// May `job` start at `now` under the deadline policy?
    fn can_start(&self, job: &Job<T>, now: u64) -> bool {
        match self.policy {
            DeadlinePolicy::DropAtStart => now.saturating_add(job.service_ns) <= job.deadline_ns,
            DeadlinePolicy::AbortAtDeadline => now < job.deadline_ns,
        }
    }

    /// Submits a job; returns it when a core is free and it starts now (the caller
    /// schedules the core's release at [`Job::ends_ns`]). A job that may not start is
    /// handed to `expired` at once.
    pub fn submit(
        &mut self,
        mut job: Job<T>,
        urgent: bool,
        now: u64,
        expired: &mut impl FnMut(Job<T>),
    ) -> Option<Job<T>> {
        if urgent {
            if let Some(busy) = &mut self.signing_core {
                if *busy {
                    self.urgent.push_back(job);
                    return None;
                }
                *busy = true;
                job.started_ns = now;
                job.on_signing_core = true;
                return Some(job);
            }
        }
        if self.busy < self.cores {
            if !self.can_start(&job, now) {
                expired(job);
                return None;
            }
            self.busy += 1;
            job.started_ns = now;
            return Some(job);
        }
        if urgent {
            self.urgent.push_back(job);
        } else {
            match self.order {
                QueueOrder::Fifo => self.fifo.push_back(job),
                QueueOrder::NearestFirst => {
                    self.seq += 1;
                    self.heap.push(Queued { job, seq: self.seq });
                    // Far jobs can sit in the heap past their deadline; purge now and then.
                    if self.heap.len() > 4096 && self.seq.is_multiple_of(1024) {
                        let (keep, gone): (Vec<_>, Vec<_>) = std::mem::take(&mut self.heap)
                            .into_iter()
                            .partition(|q| q.job.deadline_ns > now);
                        self.heap = keep.into_iter().collect();
                        for q in gone {
                            expired(q.job);
                        }
                    }
                }
            }
        }
        None
    }

    /// The signing core finished at `now`: returns the next urgent job to start on it.
    pub fn complete_signing(&mut self, now: u64) -> Option<Job<T>> {
        let next = self.urgent.pop_front().map(|mut j| {
            j.started_ns = now;
            j.on_signing_core = true;
            j
        });
        self.signing_core = Some(next.is_some());
        next
    }

    /// A verification core finished at `now`: returns the next job to start on it, handing
    /// jobs that may no longer start to `expired`.
    pub fn complete(&mut self, now: u64, expired: &mut impl FnMut(Job<T>)) -> Option<Job<T>> {
        if self.signing_core.is_none() {
            if let Some(mut j) = self.urgent.pop_front() {
                j.started_ns = now;
                return Some(j);
            }
        }
        loop {
            let next = match self.order {
                QueueOrder::Fifo => self.fifo.pop_front(),
                QueueOrder::NearestFirst => self.heap.pop().map(|q| q.job),
            };
            match next {
                None => {
                    self.busy = self.busy.saturating_sub(1);
                    return None;
                }
                Some(j) if !self.can_start(&j, now) => expired(j),
                Some(mut j) => {
                    j.started_ns = now;
                    return Some(j);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::BinaryHeap;

    /// M/D/1: Poisson arrivals, deterministic service, one core; mean wait in queue is
    /// Pollaczek–Khinchine's rho * S / (2 (1 - rho)).
    #[test]
    fn md1_mean_wait_matches_pollaczek_khinchine() {
        let service_ns = 1_000_000u64; // 1 ms
        let rho = 0.7;
        let lambda_per_ns = rho / service_ns as f64;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut p: Processor<u64> = Processor::new(1, QueueOrder::Fifo, DeadlinePolicy::DropAtStart);
        // Completion events (time) in a min-heap.
        let mut done: BinaryHeap<std::cmp::Reverse<u64>> = BinaryHeap::new();
        let mut t_arr = 0f64;
        let n = 200_000;
        let (mut waits, mut served) = (0f64, 0u64);
        let mut none = |_j: Job<u64>| panic!("no deadline");
        for _ in 0..n {
            let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
            t_arr += -u.ln() / lambda_per_ns;
            let now = t_arr as u64;
            while let Some(&std::cmp::Reverse(t)) = done.peek() {
                if t > now {
                    break;
                }
                done.pop();
                if let Some(j) = p.complete(t, &mut none) {
                    waits += (t - j.arrival_ns) as f64;
                    served += 1;
                    done.push(std::cmp::Reverse(t + j.service_ns));
                }
            }
            let job = Job::new(0, now, u64::MAX, service_ns, 0);
            if let Some(j) = p.submit(job, false, now, &mut none) {
                served += 1;
                done.push(std::cmp::Reverse(now + j.service_ns));
            }
        }
        let mean_wait = waits / served as f64;
        let pk = rho * service_ns as f64 / (2.0 * (1.0 - rho));
        assert!(
            (mean_wait - pk).abs() / pk < 0.05,
            "mean wait {mean_wait} ns vs P-K {pk} ns"
        );
    }

    #[test]
    fn deadline_and_nearest_first() {
        let mut dropped = Vec::new();
        let mut p: Processor<u32> = Processor::new(1, QueueOrder::NearestFirst, DeadlinePolicy::DropAtStart);
        let mk = |w, d, dl| Job::new(w, 0, dl, 10, d);
        let mut exp = |j: Job<u32>| dropped.push(j.work);
        assert!(p.submit(mk(0, 0, 100), false, 0, &mut exp).is_some());
        assert!(p.submit(mk(1, 500, 100), false, 0, &mut exp).is_none());
        assert!(p.submit(mk(2, 100, 100), false, 0, &mut exp).is_none());
        assert!(p.submit(mk(3, 50, 5), false, 0, &mut exp).is_none());
        // Nearest (3) has expired by t = 10, then 2 (100 mm) before 1 (500 mm).
        assert_eq!(p.complete(10, &mut exp).map(|j| j.work), Some(2));
        assert_eq!(p.complete(20, &mut exp).map(|j| j.work), Some(1));
        assert!(p.complete(30, &mut exp).is_none());
        assert_eq!(dropped, vec![3]);
    }

    /// "Verified within 100 ms" must mean it: a job whose service would end after its
    /// deadline is dropped when it would start (the old processor started anything not
    /// yet expired, so a 10 ms verification started at 95 ms finished at 105 ms).
    #[test]
    fn drop_at_start_never_finishes_after_the_deadline() {
        let mut dropped = Vec::new();
        let mut exp = |j: Job<u32>| dropped.push(j.work);
        let mut p: Processor<u32> = Processor::new(1, QueueOrder::Fifo, DeadlinePolicy::DropAtStart);
        let busy = p.submit(Job::new(0, 0, u64::MAX, 95, 0), false, 0, &mut exp).unwrap();
        assert_eq!(busy.ends_ns(), 95);
        assert!(p.submit(Job::new(1, 0, 100, 10, 0), false, 0, &mut exp).is_none());
        assert!(p.submit(Job::new(2, 0, 100, 5, 0), false, 0, &mut exp).is_none());
        // At 95 job 1 (95 + 10 > 100) is dropped, job 2 (95 + 5 = 100) starts and is in time.
        let next = p.complete(95, &mut exp).unwrap();
        assert_eq!(
            (next.work, next.started_ns, next.ends_ns(), next.aborted()),
            (2, 95, 100, false)
        );
        assert!(p.complete(100, &mut exp).is_none());
        // A free core does not take a job that cannot finish in time either.
        assert!(p.submit(Job::new(3, 200, 205, 10, 0), false, 200, &mut exp).is_none());
        assert!(
            p.submit(Job::new(4, 300, 400, 10, 0), false, 300, &mut exp).is_some(),
            "core free"
        );
        assert_eq!(dropped, vec![1, 3]);
    }

    /// Own signing on its own core starts at once however long the verification backlog;
    /// with `priority` it waits for the verification in service (and on the old processor,
    /// which had only that, every station that heard the same frames signed at the same
    /// instant).
    #[test]
    fn own_signing_core_does_not_wait_for_verifications() {
        let mut exp = |_j: Job<u32>| panic!("no deadline");
        let mut p: Processor<u32> =
            Processor::new(1, QueueOrder::Fifo, DeadlinePolicy::DropAtStart).with_signing(SigningCore::OwnCore);
        p.submit(Job::new(0, 0, u64::MAX, 3000, 0), false, 0, &mut exp).unwrap();
        for w in 1..10 {
            assert!(p
                .submit(Job::new(w, 0, u64::MAX, 3000, 0), false, 0, &mut exp)
                .is_none());
        }
        let sign = p
            .submit(Job::new(100, 10, u64::MAX, 400, 0), true, 10, &mut exp)
            .unwrap();
        assert_eq!((sign.started_ns, sign.ends_ns(), sign.on_signing_core), (10, 410, true));
        // A second signing job queues behind the first on the signing core only.
        assert!(p
            .submit(Job::new(101, 20, u64::MAX, 400, 0), true, 20, &mut exp)
            .is_none());
        let next = p.complete_signing(410).unwrap();
        assert_eq!((next.work, next.started_ns, next.on_signing_core), (101, 410, true));
        assert!(p.complete_signing(810).is_none());
        // The verification core meanwhile goes on with its backlog.
        assert_eq!(p.complete(3000, &mut exp).map(|j| j.work), Some(1));

        let mut shared: Processor<u32> =
            Processor::new(1, QueueOrder::Fifo, DeadlinePolicy::DropAtStart).with_signing(SigningCore::Priority);
        shared
            .submit(Job::new(0, 0, u64::MAX, 3000, 0), false, 0, &mut exp)
            .unwrap();
        assert!(shared
            .submit(Job::new(1, 0, u64::MAX, 3000, 0), false, 0, &mut exp)
            .is_none());
        assert!(shared
            .submit(Job::new(100, 10, u64::MAX, 400, 0), true, 10, &mut exp)
            .is_none());
        let next = shared.complete(3000, &mut exp).unwrap();
        assert_eq!(
            (next.work, next.started_ns),
            (100, 3000),
            "first in line, after the job in service"
        );
    }

    /// The other policy: start anything whose deadline has not passed, abort at the deadline.
    #[test]
    fn abort_at_deadline_frees_the_core_at_the_deadline() {
        let mut dropped = Vec::new();
        let mut exp = |j: Job<u32>| dropped.push(j.work);
        let mut p: Processor<u32> = Processor::new(1, QueueOrder::Fifo, DeadlinePolicy::AbortAtDeadline);
        p.submit(Job::new(0, 0, u64::MAX, 95, 0), false, 0, &mut exp).unwrap();
        assert!(p.submit(Job::new(1, 0, 100, 10, 0), false, 0, &mut exp).is_none());
        assert!(p.submit(Job::new(2, 0, 100, 10, 0), false, 0, &mut exp).is_none());
        let next = p.complete(95, &mut exp).unwrap();
        assert_eq!((next.work, next.ends_ns(), next.aborted()), (1, 100, true));
        // At the deadline job 2 may no longer start.
        assert!(p.complete(100, &mut exp).is_none());
        assert_eq!(dropped, vec![2]);
    }
}
