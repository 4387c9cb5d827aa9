//! Duplicate detection for accepted signed messages.
//!
//! Key: (signer HashedId8, generation time, first 16 bytes of Hash(tbsData)). Entries
//! older than the freshness window can go: a message that old is rejected as stale
//! before the replay check. Memory is bounded by `capacity`; when full, the oldest
//! entry is evicted (a replay of an evicted message that is still fresh would be
//! accepted, so size `capacity` for the expected message rate times the window:
//! the default 65 536 covers 1000 messages/s over 60 s).

use crate::time::TaiTime;
use std::collections::{HashSet, VecDeque};
use v2x_crypto::HashedId8;

pub const DEFAULT_REPLAY_CAPACITY: usize = 65_536;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReplayKey {
    pub signer: HashedId8,
    pub generation_time: u64,
    pub tbs_hash: [u8; 16],
}

#[derive(Debug)]
pub struct ReplayCache {
    seen: HashSet<ReplayKey>,
    order: VecDeque<ReplayKey>,
    capacity: usize,
}

impl Default for ReplayCache {
    fn default() -> Self {
        ReplayCache::new(DEFAULT_REPLAY_CAPACITY)
    }
}

impl ReplayCache {
    pub fn new(capacity: usize) -> ReplayCache {
        ReplayCache {
            seen: HashSet::new(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
        }
    }

    pub fn contains(&self, key: &ReplayKey) -> bool {
        self.seen.contains(key)
    }

    /// Records `key`, dropping entries generated before `oldest_relevant`.
    pub fn insert(&mut self, key: ReplayKey, oldest_relevant: TaiTime) {
        while let Some(front) = self.order.front() {
            if front.generation_time < oldest_relevant.0 || self.order.len() >= self.capacity {
                let old = *front;
                self.order.pop_front();
                self.seen.remove(&old);
            } else {
                break;
            }
        }
        if self.seen.insert(key) {
            self.order.push_back(key);
        }
    }

    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(t: u64) -> ReplayKey {
        ReplayKey {
            signer: HashedId8([1; 8]),
            generation_time: t,
            tbs_hash: [2; 16],
        }
    }

    #[test]
    fn detects_and_bounds() {
        let mut c = ReplayCache::new(3);
        c.insert(key(10), TaiTime(0));
        assert!(c.contains(&key(10)));
        for t in 11..20 {
            c.insert(key(t), TaiTime(0));
        }
        assert!(c.len() <= 3);
        assert!(!c.contains(&key(10)));
        c.insert(key(100), TaiTime(50));
        assert_eq!(c.len(), 1);
    }
}
