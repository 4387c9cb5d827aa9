//! The receivers of one transmission, evaluated on several threads: each receiver's radio
//! and MAC are its own, so the work splits into disjoint halves of the node array
//! (recursively, at the middle receiver) that rayon runs side by side. Every result lands
//! at its receiver's index, and the draws are keyed by (transmission, receiver), so the
//! outcome does not depend on how many threads took part.

/// Below this many receivers a half runs on the calling thread: waking a second thread
/// costs more than it saves.
const GRAIN: usize = 64;

/// The thread pool of one run (`None`: everything on the calling thread).
pub struct Workers {
    pool: Option<rayon::ThreadPool>,
}

impl Workers {
    /// Everything on the calling thread.
    pub fn sequential() -> Workers {
        Workers { pool: None }
    }

    /// `threads` threads (1: none started).
    pub fn new(threads: usize) -> Result<Workers, rayon::ThreadPoolBuildError> {
        let pool = if threads > 1 {
            Some(rayon::ThreadPoolBuilder::new().num_threads(threads).build()?)
        } else {
            None
        };
        Ok(Workers { pool })
    }

    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }

    /// Calls `f(&mut items[id(input)], input, output)` for every input, with `outputs`
    /// index for index beside `inputs`; the ids must be strictly increasing.
    pub fn for_each<T, I, O, F>(&self, items: &mut [T], inputs: &[I], outputs: &mut [O], id: fn(&I) -> usize, f: &F)
    where
        T: Send,
        I: Sync,
        O: Send,
        F: Fn(&mut T, &I, &mut O) + Sync,
    {
        debug_assert_eq!(inputs.len(), outputs.len());
        match &self.pool {
            Some(pool) if inputs.len() >= 2 * GRAIN => pool.install(|| split(items, 0, inputs, outputs, id, f)),
            _ => sequential(items, 0, inputs, outputs, id, f),
        }
    }
}

fn sequential<T, I, O, F>(items: &mut [T], base: usize, inputs: &[I], outputs: &mut [O], id: fn(&I) -> usize, f: &F)
where
    F: Fn(&mut T, &I, &mut O),
{
    for (input, out) in inputs.iter().zip(outputs.iter_mut()) {
        f(&mut items[id(input) - base], input, out);
    }
}

/// `items` starts at node `base`.
fn split<T, I, O, F>(items: &mut [T], base: usize, inputs: &[I], outputs: &mut [O], id: fn(&I) -> usize, f: &F)
where
    T: Send,
    I: Sync,
    O: Send,
    F: Fn(&mut T, &I, &mut O) + Sync,
{
    if inputs.len() < 2 * GRAIN {
        return sequential(items, base, inputs, outputs, id, f);
    }
    let mid = inputs.len() / 2;
    let at = id(&inputs[mid]) - base;
    let (left_items, right_items) = items.split_at_mut(at);
    let (left_in, right_in) = inputs.split_at(mid);
    let (left_out, right_out) = outputs.split_at_mut(mid);
    rayon::join(
        || split(left_items, base, left_in, left_out, id, f),
        || split(right_items, base + at, right_in, right_out, id, f),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every input reaches its own item once, whatever the thread count, and the outputs
    /// stay in input order.
    #[test]
    fn each_receiver_is_visited_once_in_place() {
        let ids: Vec<u32> = (0..5000u32).filter(|i| i % 3 != 1).collect();
        for threads in [1, 2, 3] {
            let workers = Workers::new(threads).unwrap();
            let mut items = vec![0u32; 5000];
            let mut out = vec![0u64; ids.len()];
            workers.for_each(&mut items, &ids, &mut out, |&i| i as usize, &|item, &i, o| {
                *item += 1;
                *o = u64::from(i) * 2;
            });
            for (i, &v) in items.iter().enumerate() {
                assert_eq!(v, u32::from(i % 3 != 1), "threads {threads}, item {i}");
            }
            assert!(out.iter().zip(&ids).all(|(&o, &i)| o == u64::from(i) * 2));
        }
    }
}
