//! The stations of a run by index: [`NodeId`], and hash maps keyed by it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A station of the run: its index among the run's stations (vehicles first, then road
/// side units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NodeId(pub u32);

impl NodeId {
    /// Its index into per-station arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The station of an index (below 2^32).
    #[inline]
    pub fn at(index: usize) -> NodeId {
        debug_assert!(u32::try_from(index).is_ok(), "station index {index}");
        NodeId(index as u32)
    }

    /// Every station of a run of `n`, in index order.
    pub fn all(n: usize) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator {
        (0..n).map(NodeId::at)
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A fast hasher for small integer keys (deterministic, no per-process seed).
#[derive(Default)]
pub struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A hash map keyed by station.
pub type IntMap<V> = HashMap<NodeId, V, BuildHasherDefault<IntHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// A station hashes as its bare index did (the maps' iteration order, and so the runs,
    /// do not change with the type).
    #[test]
    fn a_node_id_hashes_as_its_index() {
        let b = BuildHasherDefault::<IntHasher>::default();
        for i in [0u32, 1, 77, u32::MAX] {
            assert_eq!(b.hash_one(NodeId(i)), b.hash_one(i));
        }
    }
}
