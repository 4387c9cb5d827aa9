//! The receivers of one transmission, evaluated on several threads: each receiver's radio
//! is its own, so the receivers are cut into chunks by id (over the span of ids this
//! transmission reaches), each receiver goes to its chunk's bucket (in the order given),
//! and consecutive chunks of about equal work run side by side: the first group on the
//! calling thread (the event loop), the others on the run's other threads. The results are
//! then gathered back in the order given, and the draws are keyed by (transmission,
//! receiver), so the outcome does not depend on how many threads took part.
//!
//! A split is worth tens of microseconds of work, and a transmission starts or ends every
//! few microseconds of engine time at city scale: waking a sleeping thread (a futex
//! round trip, tens of microseconds on a virtual machine) would cost more than it saves.
//! So [`Workers::run`] runs the event loop on one of the pool's threads while the others
//! poll for work, and a split is then a steal from the event loop's deque (well under a
//! microsecond). The polling threads yield the core to the operating system between polls
//! when they find nothing, so a loaded machine is not starved by them.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Below this many receivers everything runs on the calling thread: even a steal costs
/// more than it saves.
const PARALLEL_FROM: usize = 64;

/// Chunks per thread: a transmission's receivers crowd into parts of their id span; more
/// chunks than threads lets work stealing even the load.
const CHUNKS_PER_THREAD: usize = 8;

/// Groups of receivers per thread (see [`Workers::map`]).
const GROUPS_PER_THREAD: usize = 3;

/// Polls between two yields of the core to the operating system while idle.
const POLLS_PER_YIELD: u32 = 64;

/// Spin-loop hints between two polls while idle (each some tens of cycles).
const PAUSES_PER_POLL: u32 = 16;

/// The thread pool of one run (shared: the event loop runs on it and splits onto it).
#[derive(Clone)]
pub struct Workers {
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

/// Scratch of [`Workers::map`] for results of type `O`, reused from call to call: per chunk,
/// the positions (in the input) of its receivers and their results.
pub struct Buckets<O> {
    chunks: Vec<(Vec<u32>, Vec<O>)>,
    cursor: Vec<usize>,
}

impl<O> Default for Buckets<O> {
    fn default() -> Self {
        Buckets {
            chunks: Vec::new(),
            cursor: Vec::new(),
        }
    }
}

/// Sets the flag when dropped: the polling threads stop even if the event loop panics.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Runs the pool's pending jobs (the event loop's splits) until `stop`.
fn poll_for_work(stop: &AtomicBool, started: &AtomicUsize) {
    started.fetch_add(1, Ordering::AcqRel);
    let mut idle = 0u32;
    while !stop.load(Ordering::Acquire) {
        if rayon::yield_now() == Some(rayon::Yield::Executed) {
            idle = 0;
            continue;
        }
        idle += 1;
        if idle.is_multiple_of(POLLS_PER_YIELD) {
            std::thread::yield_now();
        } else {
            // A pause between polls: each poll reads the event loop's deque, and polling
            // flat out would keep taking its cache line away from it.
            for _ in 0..PAUSES_PER_POLL {
                std::hint::spin_loop();
            }
        }
    }
}

impl Workers {
    /// Everything on the calling thread.
    pub fn sequential() -> Self {
        Workers { pool: None }
    }

    /// `threads` threads: the event loop's and `threads - 1` more (1: none).
    pub fn new(threads: usize) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = if threads > 1 {
            Some(std::sync::Arc::new(
                rayon::ThreadPoolBuilder::new().num_threads(threads).build()?,
            ))
        } else {
            None
        };
        Ok(Workers { pool })
    }

    /// Runs `body` (the event loop) on one of the pool's threads while the others poll
    /// for the splits of [`Workers::map`] and [`Workers::join`]; without a pool, here.
    pub fn run<R: Send>(&self, body: impl FnOnce() -> R + Send) -> R {
        let Some(pool) = &self.pool else {
            return body();
        };
        pool.install(|| {
            let stop = AtomicBool::new(false);
            let started = AtomicUsize::new(0);
            let others = rayon::current_num_threads() - 1;
            rayon::scope(|scope| {
                let _stop = StopOnDrop(&stop);
                for _ in 0..others {
                    scope.spawn(|_| poll_for_work(&stop, &started));
                }
                // The pollers sit in this thread's deque until the others take them: wait,
                // so that this thread never picks one up itself while waiting for a split.
                while started.load(Ordering::Acquire) < others {
                    std::thread::yield_now();
                }
                body()
            })
        })
    }

    /// `(a(), b())`, side by side when there is a pool.
    pub fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        match &self.pool {
            Some(pool) => pool.install(|| rayon::join(a, b)),
            None => (a(), b()),
        }
    }

    /// Replaces `outputs` with `f(&mut items[id(input)], input)` for every input, in input
    /// order; the ids must be distinct.
    pub fn map<T, I, O, F>(
        &self,
        scratch: &mut Buckets<O>,
        items: &mut [T],
        inputs: &[I],
        outputs: &mut Vec<O>,
        id: fn(&I) -> usize,
        f: &F,
    ) where
        T: Send,
        I: Sync,
        O: Default + Send,
        F: Fn(&mut T, &I) -> O + Sync,
    {
        outputs.clear();
        let pool = match &self.pool {
            Some(pool) if inputs.len() >= PARALLEL_FROM && !items.is_empty() => pool,
            _ => {
                outputs.extend(inputs.iter().map(|input| f(&mut items[id(input)], input)));
                return;
            }
        };
        let threads = pool.current_num_threads();
        let chunks = threads * CHUNKS_PER_THREAD;
        scratch.chunks.resize_with(chunks, Default::default);
        // Chunks over the ids this call reaches (not over all items): receivers near one
        // another have nearby ids when the mobility numbers them along the map.
        let (lo, hi) = inputs.iter().fold((usize::MAX, 0), |(lo, hi), input| {
            (lo.min(id(input)), hi.max(id(input)))
        });
        let size = (hi - lo + 1).div_ceil(chunks);
        for (positions, results) in &mut scratch.chunks {
            positions.clear();
            results.clear();
        }
        for (k, input) in inputs.iter().enumerate() {
            scratch.chunks[(id(input) - lo) / size].0.push(k as u32);
        }
        // Consecutive chunks grouped into a few groups per thread, of about equal work; the
        // calling thread takes the first group, the others go to its deque, from which the
        // pool's threads steal the oldest while this one, done with its own, takes back the
        // newest: whoever started late does less.
        let share = inputs.len().div_ceil(threads * GROUPS_PER_THREAD);
        let (mut rest_items, mut rest_chunks) = (&mut items[lo..=hi], &mut scratch.chunks[..]);
        pool.in_place_scope(|scope| {
            let mut first = None;
            let mut chunk = 0;
            while !rest_chunks.is_empty() {
                let (mut take, mut load) = (0, 0);
                while take < rest_chunks.len() && (load < share || take == 0) {
                    load += rest_chunks[take].0.len();
                    take += 1;
                }
                let (group, tail) = std::mem::take(&mut rest_chunks).split_at_mut(take);
                let cut = (take * size).min(rest_items.len());
                let (group_items, tail_items) = std::mem::take(&mut rest_items).split_at_mut(cut);
                let base = lo + chunk * size;
                if first.is_none() {
                    first = Some((group_items, group, base));
                } else if load > 0 {
                    scope.spawn(move |_| run_group(group_items, group, base, inputs, id, f));
                }
                chunk += take;
                (rest_chunks, rest_items) = (tail, tail_items);
            }
            if let Some((group_items, group, base)) = first {
                run_group(group_items, group, base, inputs, id, f);
            }
        });
        scratch.cursor.clear();
        scratch.cursor.resize(chunks, 0);
        for input in inputs {
            let b = (id(input) - lo) / size;
            outputs.push(std::mem::take(&mut scratch.chunks[b].1[scratch.cursor[b]]));
            scratch.cursor[b] += 1;
        }
    }
}

/// The receivers of consecutive chunks; `items` starts at node `base`.
fn run_group<T, I, O, F>(
    items: &mut [T],
    chunks: &mut [(Vec<u32>, Vec<O>)],
    base: usize,
    inputs: &[I],
    id: fn(&I) -> usize,
    f: &F,
) where
    F: Fn(&mut T, &I) -> O,
{
    for (positions, results) in chunks {
        results.extend(positions.iter().map(|&k| {
            let input = &inputs[k as usize];
            f(&mut items[id(input) - base], input)
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every input reaches its own item once, whatever the thread count, and the outputs
    /// come back in input order (which need not be id order).
    #[test]
    fn each_receiver_is_visited_once_and_results_keep_the_input_order() {
        let ids: Vec<u32> = (0..5000u32).filter(|i| i % 3 != 1).rev().collect();
        for threads in [1, 2, 3] {
            let workers = Workers::new(threads).unwrap();
            // From a thread of the pool (as the event loop calls it) and from outside.
            for inside in [true, false] {
                let mut scratch = Buckets::default();
                let mut items = vec![0u32; 5000];
                let mut out = Vec::new();
                let mut call = || {
                    workers.map(
                        &mut scratch,
                        &mut items,
                        &ids,
                        &mut out,
                        |&i| i as usize,
                        &|item, &i| {
                            *item += 1;
                            u64::from(i) * 2
                        },
                    )
                };
                if inside {
                    workers.run(call);
                } else {
                    call();
                }
                for (i, &v) in items.iter().enumerate() {
                    assert_eq!(v, u32::from(i % 3 != 1), "threads {threads}, item {i}");
                }
                assert_eq!(out.len(), ids.len());
                assert!(out.iter().zip(&ids).all(|(&o, &i)| o == u64::from(i) * 2));
            }
        }
    }

    /// A few receivers clustered in ids (as a transmission's neighbours are when the
    /// mobility numbers them along the map) still reach their items once, in order.
    #[test]
    fn clustered_ids_are_split_over_their_span() {
        let ids: Vec<u32> = (4000..4200u32).rev().chain(17..19).collect();
        let workers = Workers::new(2).unwrap();
        let mut items = vec![0u8; 5000];
        let mut out = Vec::new();
        workers.run(|| {
            workers.map(
                &mut Buckets::default(),
                &mut items,
                &ids,
                &mut out,
                |&i| i as usize,
                &|item, &i| {
                    *item += 1;
                    i
                },
            )
        });
        assert_eq!(out, ids);
        assert_eq!(items.iter().map(|&v| usize::from(v)).sum::<usize>(), ids.len());
    }

    /// A panic in the event loop stops the polling threads and reaches the caller.
    #[test]
    fn a_panicking_event_loop_does_not_hang_the_pool() {
        let workers = Workers::new(2).unwrap();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| workers.run(|| panic!("boom"))));
        assert!(caught.is_err());
        assert_eq!(workers.run(|| workers.join(|| 1, || 2)), (1, 2));
    }
}
