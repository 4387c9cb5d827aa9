//! A receiver's verifier queue, shared by its verifier threads: plain FIFO, or — with
//! `known_signers_first` — three lanes served in order:
//!
//! 1. `known`: packets of a (signer, address) pair whose last verified packet was good
//!    (FIFO);
//! 2. `unproven`: packets from addresses with no failed verification, in round robin by
//!    address;
//! 3. `suspect`: packets from addresses whose last verified packet failed, in round robin
//!    by address.
//!
//! When full, a packet takes the place of the newest packet of the longest per-address
//! queue of a lower lane (or of its own lane when that queue is longer than its own
//! address's): a flood from many addresses fills the lowest lanes and is what gets
//! evicted, and no address can hold a lane's capacity against a newcomer.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Condvar, Mutex};

/// Where a packet waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lane {
    Known,
    Unproven,
    Suspect,
}

/// What became of a pushed item.
#[derive(Debug, PartialEq, Eq)]
pub enum Pushed<T> {
    Queued,
    /// Queued after evicting this item (dropped, `queue-overflow`).
    Evicted(T),
    /// Not queued (the queue is full of packets it may not evict).
    Full(T),
}

/// Round robin over addresses, each with its own FIFO.
struct RoundRobin<T> {
    queues: HashMap<IpAddr, VecDeque<T>>,
    turns: VecDeque<IpAddr>,
}

impl<T> Default for RoundRobin<T> {
    fn default() -> Self {
        RoundRobin {
            queues: HashMap::new(),
            turns: VecDeque::new(),
        }
    }
}

impl<T> RoundRobin<T> {
    fn push(&mut self, ip: IpAddr, item: T) {
        let q = self.queues.entry(ip).or_default();
        if q.is_empty() {
            self.turns.push_back(ip);
        }
        q.push_back(item);
    }

    /// The oldest item of the address whose turn it is.
    fn pop(&mut self) -> Option<T> {
        let ip = self.turns.pop_front()?;
        let q = self.queues.get_mut(&ip)?;
        let x = q.pop_front();
        if q.is_empty() {
            self.queues.remove(&ip);
        } else {
            self.turns.push_back(ip);
        }
        x
    }

    fn len_of(&self, ip: &IpAddr) -> usize {
        self.queues.get(ip).map_or(0, VecDeque::len)
    }

    /// The newest item of the longest queue, when that queue is longer than `than`.
    fn evict_longest(&mut self, than: usize) -> Option<T> {
        let (&ip, _) = self
            .queues
            .iter()
            .filter(|(_, q)| q.len() > than)
            .max_by_key(|(_, q)| q.len())?;
        let q = self.queues.get_mut(&ip)?;
        let x = q.pop_back();
        if q.is_empty() {
            self.queues.remove(&ip);
            self.turns.retain(|t| *t != ip);
        }
        x
    }
}

struct Lanes<T> {
    known: VecDeque<T>,
    unproven: RoundRobin<T>,
    suspect: RoundRobin<T>,
    len: usize,
    closed: bool,
}

impl<T> Lanes<T> {
    fn pop(&mut self) -> Option<T> {
        let x = self
            .known
            .pop_front()
            .or_else(|| self.unproven.pop())
            .or_else(|| self.suspect.pop())?;
        self.len -= 1;
        Some(x)
    }

    /// Makes room for a packet of `lane` from `ip`: the evicted packet, or `None` when it
    /// may evict none.
    fn evict_for(&mut self, lane: Lane, ip: IpAddr) -> Option<T> {
        let own = |rr: &RoundRobin<T>| rr.len_of(&ip) + 1;
        let x = match lane {
            Lane::Known => self.suspect.evict_longest(0).or_else(|| self.unproven.evict_longest(0)),
            Lane::Unproven => {
                let than = own(&self.unproven);
                self.suspect
                    .evict_longest(0)
                    .or_else(|| self.unproven.evict_longest(than))
            }
            Lane::Suspect => {
                let than = own(&self.suspect);
                self.suspect.evict_longest(than)
            }
        }?;
        self.len -= 1;
        Some(x)
    }
}

/// The queue of one receiver's verifier threads.
pub struct WorkQueue<T> {
    state: Mutex<Lanes<T>>,
    ready: Condvar,
    capacity: usize,
    /// Lanes in use (`known_signers_first`); else one FIFO.
    lanes: bool,
}

impl<T> WorkQueue<T> {
    pub fn new(capacity: usize, lanes: bool) -> WorkQueue<T> {
        WorkQueue {
            state: Mutex::new(Lanes {
                known: VecDeque::new(),
                unproven: RoundRobin::default(),
                suspect: RoundRobin::default(),
                len: 0,
                closed: false,
            }),
            ready: Condvar::new(),
            capacity: capacity.max(1),
            lanes,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lanes<T>> {
        // A verifier that panicked leaves the queue itself consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `item` from `ip` in `lane` (ignored without lanes).
    pub fn push(&self, item: T, ip: IpAddr, lane: Lane) -> Pushed<T> {
        let lane = if self.lanes { lane } else { Lane::Known };
        let mut s = self.lock();
        let mut evicted = None;
        if s.len >= self.capacity {
            if !self.lanes {
                return Pushed::Full(item);
            }
            match s.evict_for(lane, ip) {
                Some(old) => evicted = Some(old),
                None => return Pushed::Full(item),
            }
        }
        match lane {
            Lane::Known => s.known.push_back(item),
            Lane::Unproven => s.unproven.push(ip, item),
            Lane::Suspect => s.suspect.push(ip, item),
        }
        s.len += 1;
        drop(s);
        self.ready.notify_one();
        match evicted {
            Some(old) => Pushed::Evicted(old),
            None => Pushed::Queued,
        }
    }

    /// The next item (blocks); `None` once closed and empty.
    pub fn pop(&self) -> Option<T> {
        let mut s = self.lock();
        loop {
            if let Some(x) = s.pop() {
                return Some(x);
            }
            if s.closed {
                return None;
            }
            s = self.ready.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Blocks until an item waits (true) or the queue is closed and empty (false).
    pub fn wait_ready(&self) -> bool {
        let mut s = self.lock();
        loop {
            if s.len > 0 {
                return true;
            }
            if s.closed {
                return false;
            }
            s = self.ready.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The next item, if one waits (does not block).
    pub fn try_pop(&self) -> Option<T> {
        self.lock().pop()
    }

    /// Items waiting.
    pub fn len(&self) -> usize {
        self.lock().len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// No more pushes: `pop` drains what is queued, then returns `None`.
    pub fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, n])
    }

    fn drain<T>(q: &WorkQueue<T>) -> Vec<T> {
        q.close();
        std::iter::from_fn(|| q.pop()).collect()
    }

    #[test]
    fn fifo_without_lanes() {
        let q = WorkQueue::new(3, false);
        for i in 0..3 {
            assert_eq!(q.push(i, ip(1), Lane::Suspect), Pushed::Queued);
        }
        assert_eq!(q.push(9, ip(2), Lane::Known), Pushed::Full(9));
        assert_eq!(drain(&q), [0, 1, 2]);
    }

    #[test]
    fn lanes_are_served_in_order_and_addresses_in_turn() {
        let q = WorkQueue::new(16, true);
        for i in 0..3 {
            q.push(10 + i, ip(1), Lane::Suspect);
            q.push(20 + i, ip(2), Lane::Unproven);
        }
        q.push(30, ip(3), Lane::Unproven);
        q.push(40, ip(4), Lane::Known);
        assert_eq!(drain(&q), [40, 20, 30, 21, 22, 10, 11, 12]);
    }

    #[test]
    fn a_full_queue_evicts_from_the_lowest_lane_and_the_longest_address() {
        let q = WorkQueue::new(5, true);
        // A flood address fills the queue in the unproven lane.
        for i in 0..4 {
            q.push(10 + i, ip(1), Lane::Unproven);
        }
        q.push(20, ip(2), Lane::Suspect);
        // A known packet evicts the suspect one first.
        assert_eq!(q.push(30, ip(3), Lane::Known), Pushed::Evicted(20));
        // A newcomer address takes the flood's newest place; the flood cannot take its.
        assert_eq!(q.push(40, ip(4), Lane::Unproven), Pushed::Evicted(13));
        assert_eq!(q.push(14, ip(1), Lane::Unproven), Pushed::Full(14));
        // A suspect packet evicts nothing from the lanes above it.
        assert_eq!(q.push(50, ip(5), Lane::Suspect), Pushed::Full(50));
        assert_eq!(drain(&q), [30, 10, 40, 11, 12]);
    }
}
