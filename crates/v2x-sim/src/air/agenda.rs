//! The agenda: events by time, and the one rule for events due at the same time — the
//! order in which they were scheduled. The simulator's event loop and the channel
//! emulator's wall-clock loop both keep theirs in an [`Agenda`], so the air's steps come in
//! the same order under either clock.

use crate::access::Timers;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Scheduled<E> {
    t: u64,
    seq: u64,
    ev: E,
}

impl<E> PartialEq for Scheduled<E> {
    fn eq(&self, o: &Self) -> bool {
        self.t == o.t && self.seq == o.seq
    }
}
impl<E> Eq for Scheduled<E> {}
impl<E> PartialOrd for Scheduled<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Scheduled<E> {
    /// Reversed: the heap's greatest is the earliest, first scheduled among equals.
    fn cmp(&self, o: &Self) -> Ordering {
        o.t.cmp(&self.t).then(o.seq.cmp(&self.seq))
    }
}

/// Events by time (ns), first scheduled first among those due at the same time.
pub struct Agenda<E> {
    heap: BinaryHeap<Scheduled<E>>,
    seq: u64,
}

impl<E> Default for Agenda<E> {
    fn default() -> Self {
        Agenda {
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }
}

impl<E> Agenda<E> {
    /// Schedules `ev` at `t`.
    pub fn push(&mut self, t: u64, ev: E) {
        self.seq += 1;
        self.heap.push(Scheduled { t, seq: self.seq, ev });
    }

    /// When the next event is due.
    pub fn next_time(&self) -> Option<u64> {
        self.heap.peek().map(|s| s.t)
    }

    /// The next event and its time.
    pub fn pop(&mut self) -> Option<(u64, E)> {
        self.heap.pop().map(|s| (s.t, s.ev))
    }

    /// The next event if it is due by `t`.
    pub fn pop_due(&mut self, t: u64) -> Option<(u64, E)> {
        if self.next_time()? > t {
            return None;
        }
        self.pop()
    }
}

/// An access layer's timers and the air's own steps go on an agenda whose events can carry
/// them.
impl<S, E: From<S>> Timers<S> for Agenda<E> {
    fn at(&mut self, t: u64, step: S) {
        self.push(t, E::from(step));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Earliest first; among events due at the same time, the first scheduled first,
    /// whenever each was scheduled.
    #[test]
    fn events_come_by_time_then_in_the_order_scheduled() {
        let mut a = Agenda::default();
        for (t, ev) in [(30, 'a'), (10, 'b'), (30, 'c'), (20, 'd'), (10, 'e')] {
            a.push(t, ev);
        }
        assert_eq!(a.next_time(), Some(10));
        assert_eq!(a.pop(), Some((10, 'b')));
        a.push(10, 'f');
        assert_eq!(a.pop_due(9), None);
        let rest: Vec<(u64, char)> = std::iter::from_fn(|| a.pop_due(30)).collect();
        assert_eq!(rest, [(10, 'e'), (10, 'f'), (20, 'd'), (30, 'a'), (30, 'c')]);
        assert_eq!(a.pop(), None);
    }
}
