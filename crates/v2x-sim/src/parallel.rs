//! The receivers of one transmission, evaluated on several threads: each receiver's state
//! (its radio in the air, its security processing in the engine) is its own, and it is
//! stored in shards, one per thread
//! ([`Sharded`]). The shards run side by side ([`Workers::run_shards`]: the first on the
//! calling thread, the event loop, the others on the run's other threads), each picking
//! its own receivers from the transmission's list ([`Layout::slot`]) and logging what
//! reaches beyond them, keyed by the receiver's place in the list; the event loop then
//! applies the logs in that order ([`in_key_order`]). The draws are keyed by (transmission,
//! receiver), so the outcome does not depend on how many threads took part.
//!
//! A split is worth tens of microseconds of work, and a transmission starts or ends every
//! few microseconds of engine time at city scale: waking a sleeping thread (a futex
//! round trip, tens of microseconds on a virtual machine) would cost more than it saves.
//! So [`Workers::run`] runs the event loop on one of the pool's threads while the others
//! poll for work, and a split is then a steal from the event loop's deque (well under a
//! microsecond). The polling threads yield the core to the operating system between polls
//! when they find nothing, so a loaded machine is not starved by them.

use crate::node_id::NodeId;
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
    /// for the splits of [`Workers::run_shards`] and [`Workers::join`]; without a pool, here.
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

    /// The shards [`Workers::run_shards`] works on: one per thread.
    pub fn shards(&self) -> usize {
        self.pool.as_ref().map_or(1, |pool| pool.current_num_threads())
    }

    /// Runs `f` on every shard (`shards`: what each shard works on, in shard order): the
    /// first on the calling thread, the others on the pool's when `work` (the inputs of all
    /// shards) is worth a split, else all on the calling thread, in order (a shard not yet
    /// taken when the calling thread is done is run there too).
    pub fn run_shards<S, F>(&self, shards: &mut [S], work: usize, f: &F)
    where
        S: Send,
        F: Fn(&mut S) + Sync,
    {
        let pool = match &self.pool {
            Some(pool) if work >= PARALLEL_FROM && shards.len() > 1 => pool,
            _ => {
                shards.iter_mut().for_each(f);
                return;
            }
        };
        let progress = Progress::default();
        pool.in_place_scope(|scope| {
            let (first, others) = shards.split_at_mut(1);
            let spawned = others.len();
            for shard in others.iter_mut() {
                let progress = &progress;
                scope.spawn(move |_| progress.track(|| f(shard)));
            }
            f(&mut first[0]);
            progress.wait_while_running(spawned);
        });
    }
}

/// Visits the entries of per-shard logs in the order of their keys (each log in key
/// order; a key in one log only, its entries in the order logged).
pub fn in_key_order<L>(logs: &[Vec<L>], key: fn(&L) -> u32, mut visit: impl FnMut(&L)) {
    let mut order = KeyOrder::default();
    order.reset(logs.len());
    while let Some((shard, i)) = order.next(logs, key) {
        visit(&logs[shard][i]);
    }
}

/// A cursor through per-shard logs in the order of their keys, one entry at a time (see
/// [`in_key_order`]): for a caller that does more between two entries than a closure can
/// borrow.
#[derive(Debug, Default)]
pub struct KeyOrder {
    at: Vec<usize>,
}

impl KeyOrder {
    /// Back to the start of `shards` logs.
    pub fn reset(&mut self, shards: usize) {
        self.at.clear();
        self.at.resize(shards, 0);
    }

    /// (shard, index) of the next entry, if any.
    pub fn next<L>(&mut self, logs: &[Vec<L>], key: fn(&L) -> u32) -> Option<(usize, usize)> {
        if let ([log], [at]) = (logs, &mut self.at[..]) {
            let i = *at;
            *at += 1;
            return (i < log.len()).then_some((0, i));
        }
        let mut next: Option<(usize, u32)> = None;
        for (s, log) in logs.iter().enumerate() {
            if let Some(entry) = log.get(self.at[s]) {
                let k = key(entry);
                if next.is_none_or(|(_, best)| k < best) {
                    next = Some((s, k));
                }
            }
        }
        let (s, _) = next?;
        let i = self.at[s];
        self.at[s] += 1;
        Some((s, i))
    }
}

/// Spins between two looks at [`Progress`] while another thread runs a shard.
const SPINS_PER_LOOK: u32 = 8;

/// Looks at [`Progress`] before giving up on a shard no thread has taken yet.
const LOOKS_BEFORE_TAKEN: u32 = 64;

/// Looks at [`Progress`] before giving up on a shard taken but not done (its thread may
/// have lost its core).
const LOOKS_WHILE_RUNNING: u32 = 1 << 14;

/// How many of the shards spawned by one [`Workers::run_shards`] were taken by a thread and how
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
        // and every shard finds the slot of every candidate of every transmission).
        let (round, shard) = if self.shards.is_power_of_two() {
            (block >> self.shards.trailing_zeros(), block & (self.shards - 1))
        } else {
            (block / self.shards, block % self.shards)
        };
        (shard, round * BLOCK + id % BLOCK)
    }
}

/// Items by id (the stations' radios and nodes), stored shard by shard for [`Workers::run_shards`]: the ids
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

    /// Where the items are.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The shards' items, in shard order, indexed by [`Layout::slot`]'s index within the
    /// shard: for [`Workers::run_shards`].
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

impl<T> std::ops::Index<NodeId> for Sharded<T> {
    type Output = T;
    fn index(&self, id: NodeId) -> &T {
        &self[id.index()]
    }
}

impl<T> std::ops::IndexMut<NodeId> for Sharded<T> {
    fn index_mut(&mut self, id: NodeId) -> &mut T {
        &mut self[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the shards of `items` on `ids` (each shard picks its own, adds 1 to each one's
    /// item and logs (place, 2 x id)) and returns the logs' values in key order.
    fn double_each(workers: &Workers, items: &mut Sharded<u32>, ids: &[u32]) -> Vec<u64> {
        let layout = items.layout();
        let mut logs: Vec<Vec<(u32, u64)>> = vec![Vec::new(); layout.shards()];
        let mut shards: Vec<_> = items.shards_mut().zip(&mut logs).enumerate().collect();
        workers.run_shards(&mut shards, ids.len(), &|(shard, (items, log))| {
            for (k, &id) in ids.iter().enumerate() {
                let (owner, local) = layout.slot(id as usize);
                if owner == *shard {
                    items[local] += 1;
                    log.push((k as u32, 2 * u64::from(id)));
                }
            }
        });
        drop(shards);
        let mut out = Vec::new();
        in_key_order(&logs, |e| e.0, |e| out.push(e.1));
        out
    }

    /// Every input reaches its own item once, whatever the thread count, and the logs come
    /// back in input order (which need not be id order): spread ids, and a few receivers
    /// clustered in ids (as a transmission's neighbours are when the mobility numbers them
    /// along the map).
    #[test]
    fn each_receiver_is_visited_once_and_logs_keep_the_input_order() {
        let spread: Vec<u32> = (0..5000u32).filter(|i| i % 3 != 1).rev().collect();
        let clustered: Vec<u32> = (4000..4200u32).rev().chain(17..19).collect();
        for ids in [&spread, &clustered] {
            for threads in [1, 2, 3] {
                let workers = Workers::new(threads).unwrap();
                // From a thread of the pool (as the event loop calls it) and from outside.
                for inside in [true, false] {
                    let mut items = Sharded::<u32>::new(5000, workers.shards());
                    let out = if inside {
                        workers.run(|| double_each(&workers, &mut items, ids))
                    } else {
                        double_each(&workers, &mut items, ids)
                    };
                    let want: Vec<u64> = ids.iter().map(|&i| 2 * u64::from(i)).collect();
                    assert_eq!(out, want, "threads {threads}");
                    let visited: Vec<u32> = (0..5000).filter(|&i| items[i as usize] == 1).collect();
                    let mut sorted = ids.to_vec();
                    sorted.sort_unstable();
                    assert_eq!(visited, sorted, "threads {threads}");
                }
            }
        }
    }

    /// Entries of several logs come out by key, a key's entries in the order logged.
    #[test]
    fn logs_are_merged_by_key() {
        let logs = vec![
            vec![(0, 'a'), (0, 'b'), (3, 'c'), (7, 'd')],
            vec![(1, 'e'), (2, 'f'), (2, 'g'), (9, 'h')],
            vec![],
            vec![(4, 'i')],
        ];
        let mut out = String::new();
        in_key_order(&logs, |e| e.0, |e| out.push(e.1));
        assert_eq!(out, "abefgcidh");
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
