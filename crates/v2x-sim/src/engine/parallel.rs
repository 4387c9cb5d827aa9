//! The receivers of one transmission, evaluated on several threads: each receiver's radio
//! is its own, and the radios are stored in shards, one per thread ([`Sharded`]); each
//! receiver goes to its shard's bucket (in the order given), the shards run side by side
//! (the first on the calling thread, the event loop, the others on the run's other
//! threads), and each result is put back at its receiver's place in the order given. The draws are keyed by
//! (transmission, receiver), so the outcome does not depend on how many threads took part.
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

/// Polls between two yields of the core to the operating system while idle.
const POLLS_PER_YIELD: u32 = 64;

/// Spin-loop hints between two polls while idle (each some tens of cycles).
const PAUSES_PER_POLL: u32 = 16;

/// The thread pool of one run (shared: the event loop runs on it and splits onto it).
#[derive(Clone)]
pub struct Workers {
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

/// Scratch of [`Workers::map`] for results of type `O` and log entries of type `L`, reused
/// from call to call: per shard, its receivers (position in the input, index in the shard),
/// their results and what they logged.
pub struct Buckets<O, L = ()> {
    chunks: Vec<Bucket<O, L>>,
}

/// One shard's receivers (position in the input, index in the shard), their results and
/// their log (each receiver's entries together, in input order).
type Bucket<O, L> = (Vec<(u32, u32)>, Vec<O>, Vec<L>);

impl<O, L> Default for Buckets<O, L> {
    fn default() -> Self {
        Buckets { chunks: Vec::new() }
    }
}

impl<O, L> Buckets<O, L> {
    /// What the receivers of `shard` logged in the last [`Workers::map`], in input order.
    pub fn log(&self, shard: usize) -> &[L] {
        self.chunks.get(shard).map_or(&[], |c| &c.2[..])
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

    /// The shards [`Workers::map`] works on: one per thread.
    pub fn shards(&self) -> usize {
        self.pool.as_ref().map_or(1, |pool| pool.current_num_threads())
    }

    /// Replaces `outputs` with `f(shard, index in the shard, input, shard's log)` for every
    /// input, in input order, where `shards` are the parts of one or more [`Sharded`] of
    /// layout `layout` (one per shard, in order; see [`Sharded::shards_mut`]) and the ids
    /// are distinct. Each shard's inputs run on one thread: the first shard's on the calling
    /// thread, the others on the pool's (a shard not yet taken when the calling thread is
    /// done is run there too). What `f` appends to the log stays in `scratch`
    /// ([`Buckets::log`]).
    #[allow(clippy::too_many_arguments)] // the scratch, the items (2), the inputs and ids, the outputs, the work
    pub fn map<S, I, O, L, F>(
        &self,
        scratch: &mut Buckets<O, L>,
        layout: Layout,
        shards: &mut [S],
        inputs: &[I],
        outputs: &mut Vec<O>,
        id: fn(&I) -> usize,
        f: &F,
    ) where
        S: Send,
        I: Sync,
        O: Default + Send,
        L: Send,
        F: Fn(&mut S, usize, &I, &mut Vec<L>) -> O + Sync,
    {
        outputs.clear();
        scratch
            .chunks
            .resize_with(layout.shards, || (Vec::new(), Vec::new(), Vec::new()));
        for (positions, results, log) in &mut scratch.chunks {
            positions.clear();
            results.clear();
            log.clear();
        }
        let pool = match &self.pool {
            Some(pool) if inputs.len() >= PARALLEL_FROM && layout.shards > 1 => pool,
            _ => {
                outputs.extend(inputs.iter().map(|input| {
                    let (shard, local) = layout.slot(id(input));
                    f(&mut shards[shard], local, input, &mut scratch.chunks[shard].2)
                }));
                return;
            }
        };
        for (k, input) in inputs.iter().enumerate() {
            let (shard, local) = layout.slot(id(input));
            scratch.chunks[shard].0.push((k as u32, local as u32));
        }
        let progress = Progress::default();
        pool.in_place_scope(|scope| {
            let mut shards = shards.iter_mut().zip(&mut scratch.chunks);
            let first = shards.next();
            let mut spawned = 0;
            for (shard, chunk) in shards {
                if !chunk.0.is_empty() {
                    spawned += 1;
                    let progress = &progress;
                    scope.spawn(move |_| progress.track(|| run_shard(shard, chunk, inputs, f)));
                }
            }
            if let Some((shard, chunk)) = first {
                run_shard(shard, chunk, inputs, f);
            }
            progress.wait_while_running(spawned);
        });
        // Each result back to its input's position.
        outputs.resize_with(inputs.len(), Default::default);
        for (positions, results, _) in &mut scratch.chunks {
            for (&(k, _), result) in positions.iter().zip(results.drain(..)) {
                outputs[k as usize] = result;
            }
        }
    }
}

/// Spins between two looks at [`Progress`] while another thread runs a shard.
const SPINS_PER_LOOK: u32 = 8;

/// Looks at [`Progress`] before giving up on a shard no thread has taken yet.
const LOOKS_BEFORE_TAKEN: u32 = 64;

/// Looks at [`Progress`] before giving up on a shard taken but not done (its thread may
/// have lost its core).
const LOOKS_WHILE_RUNNING: u32 = 1 << 14;

/// How many of the shards spawned by one [`Workers::map`] were taken by a thread and how
/// many are done.
#[derive(Default)]
struct Progress {
    taken: AtomicUsize,
    done: AtomicUsize,
}

impl Progress {
    fn track(&self, work: impl FnOnce()) {
        self.taken.fetch_add(1, Ordering::AcqRel);
        work();
        self.done.fetch_add(1, Ordering::Release);
    }

    /// Waits by spinning for the `spawned` shards that other threads are running: they
    /// end within microseconds, and rayon's own wait (left to when this returns) yields the
    /// core to the operating system between its looks, a system call each time. Returns
    /// early when a shard is still untaken (rayon's wait then runs it here) or takes too
    /// long.
    fn wait_while_running(&self, spawned: usize) {
        let mut looks = 0u32;
        while self.done.load(Ordering::Acquire) < spawned {
            looks += 1;
            let limit = if self.taken.load(Ordering::Acquire) < spawned {
                LOOKS_BEFORE_TAKEN
            } else {
                LOOKS_WHILE_RUNNING
            };
            if looks > limit {
                return;
            }
            for _ in 0..SPINS_PER_LOOK {
                std::hint::spin_loop();
            }
        }
    }
}

/// The inputs of one shard; `shard` holds its items.
fn run_shard<S, I, O, L, F>(shard: &mut S, (receivers, results, log): &mut Bucket<O, L>, inputs: &[I], f: &F)
where
    F: Fn(&mut S, usize, &I, &mut Vec<L>) -> O,
{
    results.extend(
        receivers
            .iter()
            .map(|&(k, local)| f(shard, local as usize, &inputs[k as usize], log)),
    );
}

/// Ids per block dealt to the shards (see [`Sharded`]).
const BLOCK: usize = 8;

/// Where the item of an id lives in a [`Sharded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    shards: usize,
    /// Items per shard (whole blocks).
    shard_len: usize,
}

impl Layout {
    /// Number of shards.
    pub fn shards(self) -> usize {
        self.shards
    }

    /// (shard, index within the shard) of an id: its block goes round the shards.
    pub fn slot(self, id: usize) -> (usize, usize) {
        if self.shards == 1 {
            return (0, id);
        }
        let block = id / BLOCK;
        // Shifts and masks for the usual 2 or 4 threads (a division costs tens of cycles,
        // and the event loop finds the slot of every receiver of every transmission).
        let (round, shard) = if self.shards.is_power_of_two() {
            (block >> self.shards.trailing_zeros(), block & (self.shards - 1))
        } else {
            (block / self.shards, block % self.shards)
        };
        (shard, round * BLOCK + id % BLOCK)
    }
}

/// Items by id (the stations' radios), stored shard by shard for [`Workers::map`]: the ids
/// are cut into blocks of 8 (`BLOCK`) dealt round the shards, one shard per thread. Nearby
/// stations have nearby ids, so the receivers of a transmission split about evenly between
/// the shards; and each item is always worked on by the same thread, so it stays in that
/// core's cache instead of moving between the cores with every transmission.
pub struct Sharded<T> {
    items: Vec<T>,
    layout: Layout,
    len: usize,
}

impl<T: Default> Sharded<T> {
    /// `len` default items in `shards` shards (at least 1).
    pub fn new(len: usize, shards: usize) -> Self {
        Sharded::from_fn(len, shards, T::default)
    }
}

impl<T> Sharded<T> {
    /// `len` items made by `make` (and as many for the padding of the last blocks) in
    /// `shards` shards (at least 1).
    pub fn from_fn(len: usize, shards: usize, make: impl FnMut() -> T) -> Self {
        let shards = shards.max(1);
        let shard_len = len.div_ceil(BLOCK * shards) * BLOCK;
        Sharded {
            items: std::iter::repeat_with(make).take(shard_len * shards).collect(),
            layout: Layout { shards, shard_len },
            len,
        }
    }

    /// The same items by id, in `shards` shards (`make` fills the padding).
    pub fn reshard(self, shards: usize, make: impl FnMut() -> T) -> Self {
        let old_layout = self.layout;
        let mut old: Vec<Option<T>> = self.items.into_iter().map(Some).collect();
        let mut new = Sharded::from_fn(self.len, shards, make);
        for id in 0..self.len {
            let (shard, k) = old_layout.slot(id);
            if let Some(item) = old[shard * old_layout.shard_len + k].take() {
                new[id] = item;
            }
        }
        new
    }

    /// Where the item of `id` is in `items`.
    fn position(&self, id: usize) -> usize {
        assert!(id < self.len, "id {id} out of {} items", self.len);
        let (shard, k) = self.layout.slot(id);
        shard * self.layout.shard_len + k
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the items are: for [`Workers::map`].
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The shards' items, in shard order, indexed by [`Layout::slot`]'s index within the
    /// shard: for [`Workers::map`].
    pub fn shards_mut(&mut self) -> impl Iterator<Item = &mut [T]> {
        self.items.chunks_mut(self.layout.shard_len.max(1))
    }

    /// Every item, in storage order (the padding included).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.items.iter_mut()
    }
}

impl<T> std::ops::Index<usize> for Sharded<T> {
    type Output = T;
    fn index(&self, id: usize) -> &T {
        &self.items[self.position(id)]
    }
}

impl<T> std::ops::IndexMut<usize> for Sharded<T> {
    fn index_mut(&mut self, id: usize) -> &mut T {
        let position = self.position(id);
        &mut self.items[position]
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
                let mut items = Sharded::<u32>::new(5000, workers.shards());
                let layout = items.layout();
                let mut out = Vec::new();
                let mut shards: Vec<&mut [u32]> = items.shards_mut().collect();
                let mut call = || {
                    workers.map(
                        &mut scratch,
                        layout,
                        &mut shards,
                        &ids,
                        &mut out,
                        |&i| i as usize,
                        &|shard: &mut &mut [u32], k, &i, log: &mut Vec<u32>| {
                            shard[k] += 1;
                            log.extend([i, i]);
                            u64::from(i) * 2
                        },
                    )
                };
                if inside {
                    workers.run(call);
                } else {
                    call();
                }
                drop(shards);
                // Each shard's log holds its receivers' entries, together, in input order.
                for shard in 0..layout.shards {
                    let mine: Vec<u32> = ids
                        .iter()
                        .filter(|&&i| layout.slot(i as usize).0 == shard)
                        .flat_map(|&i| [i, i])
                        .collect();
                    assert_eq!(scratch.log(shard), &mine[..], "threads {threads}, shard {shard}");
                }
                for i in 0..items.len() {
                    assert_eq!(items[i], u32::from(i % 3 != 1), "threads {threads}, item {i}");
                }
                assert_eq!(out.len(), ids.len());
                assert!(out.iter().zip(&ids).all(|(&o, &i)| o == u64::from(i) * 2));
            }
        }
    }

    /// A few receivers clustered in ids (as a transmission's neighbours are when the
    /// mobility numbers them along the map) still reach their items once, in order.
    #[test]
    fn clustered_ids_reach_their_items_once() {
        let ids: Vec<u32> = (4000..4200u32).rev().chain(17..19).collect();
        let workers = Workers::new(2).unwrap();
        let mut items = Sharded::<u8>::new(5000, 2);
        let layout = items.layout();
        let mut shards: Vec<&mut [u8]> = items.shards_mut().collect();
        let mut out = Vec::new();
        workers.run(|| {
            workers.map(
                &mut Buckets::<u32>::default(),
                layout,
                &mut shards,
                &ids,
                &mut out,
                |&i| i as usize,
                &|shard: &mut &mut [u8], k, &i, _: &mut Vec<()>| {
                    shard[k] += 1;
                    i
                },
            )
        });
        drop(shards);
        assert_eq!(out, ids);
        assert_eq!((0..5000).map(|i| usize::from(items[i])).sum::<usize>(), ids.len());
    }

    /// The shards hold every id once, in blocks dealt round the shards: a run of ids
    /// splits about evenly between them.
    #[test]
    fn sharded_items_are_distinct_and_runs_of_ids_split_evenly() {
        for (len, shards) in [(0, 2), (1, 1), (5000, 1), (5000, 2), (4999, 3), (17, 4)] {
            let mut items = Sharded::<usize>::new(len, shards);
            for i in 0..len {
                items[i] = i + 1;
            }
            let mut seen: Vec<usize> = items.items.iter().copied().filter(|&v| v > 0).collect();
            seen.sort_unstable();
            assert_eq!(seen, (1..=len).collect::<Vec<_>>(), "len {len}, shards {shards}");
            assert_eq!(items.items.len() % (BLOCK * shards), 0);
        }
        let layout = Sharded::<u8>::new(10_000, 2).layout;
        let mut per_shard = [0usize; 2];
        for id in 3000..3400 {
            per_shard[layout.slot(id).0] += 1;
        }
        assert!(per_shard.iter().all(|&c| (190..=210).contains(&c)), "{per_shard:?}");
    }

    /// Resharding keeps each id's item.
    #[test]
    fn resharding_keeps_every_item_at_its_id() {
        for (len, from, to) in [(0, 1, 2), (5000, 1, 2), (4999, 2, 3), (17, 4, 1)] {
            let mut items = Sharded::<usize>::new(len, from);
            for i in 0..len {
                items[i] = i + 1;
            }
            let items = items.reshard(to, || 0);
            assert_eq!(items.layout().shards(), to);
            assert!((0..len).all(|i| items[i] == i + 1), "len {len}, {from} -> {to}");
        }
    }

    /// An id beyond the items is refused, even where the padding of the last block has a
    /// slot for it.
    #[test]
    #[should_panic(expected = "out of")]
    fn an_id_beyond_the_items_panics() {
        let items = Sharded::<u8>::new(5, 2);
        let _ = items[6];
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
