//! The receiver's verification strategy in the cost model (issue 12; the real strategies
//! are in `v2x_crypto::VerifyStrategy`, docs/verification-strategies.md).
//!
//! `plain` pays the variant's verify cost for every message. `precomputed` models the
//! opt-in per-signer tables of `v2x_crypto::SignerCache`: a signer's first `build_after - 1`
//! messages pay the plain (first-seen) cost, the `build_after`-th pays the table build plus
//! a table verification, later ones the table verification only; a receiver keeps at most
//! `max_tables` tables and evicts the least recently used (whose signer then starts over).
//! Signers are the sending stations (a pseudonym change is not modelled as a new signer).

use std::collections::HashMap;

/// A signer: the sending station's index ([`crate::node_id::NodeId`]'s).
pub type SignerId = u32;

/// What one verification cost under the `precomputed` strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableUse {
    /// No table (the signer was not heard `build_after` times yet): the plain cost.
    Plain,
    /// The table is built now, then used: build cost + table cost.
    Build,
    /// The signer's table is used: table cost.
    Hit,
}

#[derive(Debug, Clone, Copy, Default)]
struct Signer {
    heard: u32,
    last_use: u64,
    table: bool,
}

/// One receiver's per-signer tables (only the bookkeeping: which signers have one).
#[derive(Debug, Default)]
pub struct SignerTables {
    signers: HashMap<SignerId, Signer>,
    tables: usize,
    tick: u64,
    /// Tables built and evicted so far.
    pub builds: u64,
    pub evictions: u64,
}

impl SignerTables {
    /// Counts a message of `signer` and says what verifying it costs.
    pub fn hear(&mut self, signer: SignerId, build_after: u32, max_tables: usize) -> TableUse {
        self.tick += 1;
        let tick = self.tick;
        let s = self.signers.entry(signer).or_default();
        s.last_use = tick;
        if s.table {
            return TableUse::Hit;
        }
        s.heard = s.heard.saturating_add(1);
        if s.heard < build_after.max(1) || max_tables == 0 {
            return TableUse::Plain;
        }
        s.table = true;
        self.builds += 1;
        if self.tables == max_tables {
            // Evict the least recently used table; its signer counts again from zero.
            let victim = self
                .signers
                .iter()
                .filter(|(&id, s)| s.table && id != signer)
                .min_by_key(|(_, s)| s.last_use)
                .map(|(&id, _)| id);
            if let Some(v) = victim.and_then(|v| self.signers.get_mut(&v)) {
                *v = Signer::default();
                self.evictions += 1;
            }
        } else {
            self.tables += 1;
        }
        TableUse::Build
    }

    /// Tables held now.
    pub fn tables(&self) -> usize {
        self.tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_at_the_nth_message_and_evicts_the_least_recently_used() {
        let mut t = SignerTables::default();
        // Signer 1: plain, plain, build, hit.
        let uses: Vec<TableUse> = (0..4).map(|_| t.hear(1, 3, 2)).collect();
        assert_eq!(uses, [TableUse::Plain, TableUse::Plain, TableUse::Build, TableUse::Hit]);
        for _ in 0..3 {
            t.hear(2, 3, 2);
        }
        assert_eq!((t.tables(), t.builds), (2, 2));
        t.hear(1, 3, 2); // 1 is now more recent than 2
        for _ in 0..2 {
            assert_eq!(t.hear(3, 3, 2), TableUse::Plain);
        }
        assert_eq!(t.hear(3, 3, 2), TableUse::Build);
        assert_eq!((t.tables(), t.builds, t.evictions), (2, 3, 1));
        assert_eq!(t.hear(1, 3, 2), TableUse::Hit, "1 was kept");
        assert_eq!(t.hear(2, 3, 2), TableUse::Plain, "2 was evicted and starts over");
        // No room for tables: always plain.
        let mut none = SignerTables::default();
        assert!((0..10).all(|_| none.hear(7, 1, 0) == TableUse::Plain));
    }
}
