//! The receivers of one transmission, evaluated on several threads: each receiver's radio
//! and MAC are its own, so the node array is cut into chunks by id, each receiver goes to
//! its chunk's bucket (in the order given), and consecutive chunks of about equal work run
//! side by side: the first group on the calling thread (the event loop, which would
//! otherwise sit waiting), the others on the run's pool. The results are then gathered
//! back in the order given, and the draws are keyed by (transmission, receiver), so the
//! outcome does not depend on how many threads took part.

/// Below this many receivers everything runs on the calling thread: waking the other
/// threads costs more than it saves.
const PARALLEL_FROM: usize = 128;

/// Chunks per thread: chunks are id ranges, and a transmission's receivers may crowd into
/// a few of them; more chunks than threads lets work stealing even the load.
const CHUNKS_PER_THREAD: usize = 8;

/// The thread pool of one run.
pub struct Workers {
    pool: Option<rayon::ThreadPool>,
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

impl Workers {
    /// Everything on the calling thread.
    pub fn sequential() -> Self {
        Workers { pool: None }
    }

    /// `threads` threads: the calling one and `threads - 1` started (1: none).
    pub fn new(threads: usize) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = if threads > 1 {
            Some(rayon::ThreadPoolBuilder::new().num_threads(threads - 1).build()?)
        } else {
            None
        };
        Ok(Workers { pool })
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
        let threads = pool.current_num_threads() + 1;
        let chunks = threads * CHUNKS_PER_THREAD;
        scratch.chunks.resize_with(chunks, Default::default);
        let size = items.len().div_ceil(chunks);
        for (positions, results) in &mut scratch.chunks {
            positions.clear();
            results.clear();
        }
        for (k, input) in inputs.iter().enumerate() {
            scratch.chunks[id(input) / size].0.push(k as u32);
        }
        // Consecutive chunks grouped into one group per thread, of about equal work; the
        // calling thread takes the first group, the pool's threads the others.
        let share = inputs.len().div_ceil(threads);
        let (mut rest_items, mut rest_chunks) = (items, &mut scratch.chunks[..]);
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
                let base = chunk * size;
                if first.is_none() {
                    first = Some((group_items, group, base));
                } else {
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
            let b = id(input) / size;
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
            let mut scratch = Buckets::default();
            let mut items = vec![0u32; 5000];
            let mut out = Vec::new();
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
            );
            for (i, &v) in items.iter().enumerate() {
                assert_eq!(v, u32::from(i % 3 != 1), "threads {threads}, item {i}");
            }
            assert_eq!(out.len(), ids.len());
            assert!(out.iter().zip(&ids).all(|(&o, &i)| o == u64::from(i) * 2));
        }
    }
}
