//! A station's neighbour table: what it knows of each station it heard (last CAM heard
//! and verified, position, highest sequence number, certificate), probed for every CAM it
//! decodes and again when the CAM is verified.
//!
//! An open-addressing table with the sender's id beside its entry (linear probing,
//! Fibonacci hashing of the id), instead of a `HashMap`: a probe usually reads one cache
//! line, where a swiss table reads its control bytes and then the bucket, two misses on a
//! city receiver's table of a few hundred entries. Entries are only added and looked up
//! between the periodic sweeps, which rebuild the table without the forgotten ones, so it
//! needs no deletion.

use crate::mobility::Position;
use crate::node_id::NodeId;

/// What a station knows of one neighbour: 40 bytes with no pointer (instead of 88 with
/// the TESLA buffer inline), since the receiver's table is probed for every decoded CAM
/// and a city receiver holds a few hundred of them. The TESLA buffer lives apart, in
/// [`super::processing::TeslaPending`], only for the neighbours that have packets waiting.
#[derive(Clone, Copy)]
pub struct Neighbour {
    /// Last CAM heard, or [`NEVER`].
    pub(super) last_rx_ns: u64,
    /// Last CAM verified, or [`NEVER`].
    pub(super) last_verified_ns: u64,
    pub last_pos: Position,
    /// Highest sequence number verified (meaningful when `seq_known`).
    pub(super) highest_seq: u32,
    pub(super) seq_known: bool,
    pub(super) certificate_known: bool,
}

// The layout is the point of the type: keep it from growing back unnoticed.
const _: () = assert!(std::mem::size_of::<Neighbour>() <= 40);

/// "Not yet" for the neighbour's times (a real time is below the run's end).
const NEVER: u64 = u64::MAX;

/// An entry before its first CAM is recorded.
const UNHEARD: Neighbour = Neighbour {
    last_rx_ns: NEVER,
    last_verified_ns: NEVER,
    last_pos: [0.0; 2],
    highest_seq: 0,
    seq_known: false,
    certificate_known: false,
};

impl Default for Neighbour {
    fn default() -> Neighbour {
        UNHEARD
    }
}

impl Neighbour {
    /// When its last CAM was heard.
    pub fn last_rx_ns(&self) -> Option<u64> {
        (self.last_rx_ns != NEVER).then_some(self.last_rx_ns)
    }

    /// When its last CAM was verified.
    pub fn last_verified_ns(&self) -> Option<u64> {
        (self.last_verified_ns != NEVER).then_some(self.last_verified_ns)
    }

    pub(super) fn highest_seq(&self) -> Option<u32> {
        self.seq_known.then_some(self.highest_seq)
    }

    /// Whether the entry can be forgotten: nothing heard since `before` (the caller keeps
    /// the neighbours with TESLA packets waiting for their key).
    pub fn forgettable(&self, before: u64) -> bool {
        self.last_rx_ns().is_none_or(|t| t < before)
    }
}

/// A free slot (no station has this id).
const FREE: NodeId = NodeId(u32::MAX);

/// A table slot: 48 bytes.
#[derive(Clone, Copy)]
struct Slot {
    src: NodeId,
    nb: Neighbour,
}

const FREE_SLOT: Slot = Slot { src: FREE, nb: UNHEARD };

/// Smallest table allocated.
const MIN_SLOTS: usize = 16;

/// The neighbour table of one station, keyed by sender.
#[derive(Default)]
pub struct NeighbourTable {
    /// A power of two of slots (or none), at most 3/4 used.
    slots: Vec<Slot>,
    len: usize,
}

impl NeighbourTable {
    /// Neighbours in the table.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first slot to probe for `src`.
    fn home(&self, src: NodeId) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (u64::from(src.0).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// Reads the first slot `src` probes (bringing it into the cache) and returns the id
    /// there: for warming tables about to be probed.
    pub fn touch(&self, src: NodeId) -> NodeId {
        if self.slots.is_empty() {
            return FREE;
        }
        self.slots[self.home(src)].src
    }

    pub fn get(&self, src: NodeId) -> Option<&Neighbour> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(src);
        loop {
            match self.slots[i].src {
                s if s == src => return Some(&self.slots[i].nb),
                FREE => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The entry of `src`, added (as heard nothing yet) if missing.
    pub fn entry(&mut self, src: NodeId) -> &mut Neighbour {
        debug_assert_ne!(src, FREE);
        if self.slots.is_empty() {
            self.slots = vec![FREE_SLOT; MIN_SLOTS];
        } else if 4 * (self.len + 1) > 3 * self.slots.len() {
            let kept = self.take_slots(|_, _| true);
            self.refill(kept);
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(src);
        loop {
            if self.slots[i].src == src {
                return &mut self.slots[i].nb;
            }
            if self.slots[i].src == FREE {
                self.slots[i].src = src;
                self.len += 1;
                return &mut self.slots[i].nb;
            }
            i = (i + 1) & mask;
        }
    }

    /// Keeps the neighbours for which `keep` holds.
    pub fn retain(&mut self, keep: impl FnMut(NodeId, &Neighbour) -> bool) {
        let kept = self.take_slots(keep);
        self.refill(kept);
    }

    /// Empties the table, returning the used slots for which `keep` holds.
    fn take_slots(&mut self, mut keep: impl FnMut(NodeId, &Neighbour) -> bool) -> Vec<Slot> {
        self.len = 0;
        let mut slots = std::mem::take(&mut self.slots);
        slots.retain(|s| s.src != FREE && keep(s.src, &s.nb));
        slots
    }

    /// Puts `kept` into a table at most 3/8 full (none when empty).
    fn refill(&mut self, kept: Vec<Slot>) {
        if kept.is_empty() {
            return;
        }
        let mut slots = MIN_SLOTS;
        while 8 * kept.len() > 3 * slots {
            slots *= 2;
        }
        self.slots = vec![FREE_SLOT; slots];
        self.len = kept.len();
        let mask = slots - 1;
        for s in kept {
            let mut i = self.home(s.src);
            while self.slots[i].src != FREE {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries survive growth and sweeps, missing ids are absent, and the table stays at
    /// most 3/4 full.
    #[test]
    fn entries_are_found_after_growth_and_sweeps() {
        let mut t = NeighbourTable::default();
        assert!(t.get(NodeId(3)).is_none());
        let ids: Vec<NodeId> = (0..2000u32)
            .map(|i| NodeId(i.wrapping_mul(2_654_435_761) % 100_000))
            .collect();
        for (k, &id) in ids.iter().enumerate() {
            t.entry(id).last_rx_ns = k as u64;
            assert!(4 * t.len() <= 3 * t.slots.len());
        }
        let distinct: std::collections::BTreeMap<NodeId, u64> =
            ids.iter().enumerate().map(|(k, &id)| (id, k as u64)).collect();
        assert_eq!(t.len(), distinct.len());
        for (&id, &k) in &distinct {
            assert_eq!(t.get(id).and_then(Neighbour::last_rx_ns), Some(k), "id {id}");
        }
        assert!(t.get(NodeId(100_001)).is_none());
        // A sweep keeps the ids divisible by 4, with their state, and shrinks the table.
        let before = t.slots.len();
        t.retain(|id, _| id.0 % 4 == 0);
        assert!(t.slots.len() < before);
        for (&id, &k) in &distinct {
            let got = t.get(id).and_then(Neighbour::last_rx_ns);
            assert_eq!(got, (id.0 % 4 == 0).then_some(k), "id {id}");
        }
        // Entries added afterwards start from nothing heard.
        assert_eq!(t.entry(NodeId(1)).last_rx_ns(), None);
        t.retain(|_, _| false);
        assert!(t.is_empty() && t.get(NodeId(1)).is_none());
    }
}
