//! Repeat-signer acceleration (opt-in): per-signer precomputed tables and the cache that
//! decides which signers get one.
//!
//! A V2X receiver hears the same ~100 pseudonym certificates ten times a second each. For
//! a signer heard often, a fixed-window table of its public key Q (window w: ~bits/w
//! windows of 2^(w-1) affine multiples) turns u2·Q into ~bits/w mixed additions with no
//! doubling; u1·G uses the static generator table the same way. The table costs a few
//! hundred microseconds to build (one batch inversion for all its points), so it pays off
//! after a few dozen messages; [`SignerCache`] builds one only for a signer heard
//! `build_after` times, keeps at most `max_bytes` of tables and evicts the least recently
//! used.
//!
//! FREEDOM TO OPERATE: NXP holds V2X patents on per-neighbour precomputation for signature
//! verification (US 11,057,396 B2, US 11,049,395 B2). This strategy is therefore named
//! (`precomputed`), opt-in and off by default; check the patent position before enabling
//! it in a product. See docs/verification-strategies.md.
//!
//! Everything here verifies with public inputs only and is variable time (constant time
//! matters for signing, not for public-key verification).

use crate::ecdsa::ec::table::FixedTable;
use crate::ecdsa::ec::verify::{check, scalars, QMul};
use crate::ecdsa::{with_curve4, with_curve6, OwnPoint};
use crate::{CryptoError, Curve, PublicKey, Signature};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

/// Default window width of per-signer tables (53 KB per P-256 key, 118 KB per P-384 key).
pub const DEFAULT_WINDOW: u8 = 5;

/// A precomputed verification table for one public key.
#[derive(Clone)]
pub struct SignerTable {
    key: PublicKey,
    window: u8,
    inner: TableInner,
}

#[derive(Clone)]
enum TableInner {
    N4(FixedTable<4>),
    N6(FixedTable<6>),
}

impl std::fmt::Debug for SignerTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SignerTable({:?}, w={}, {} bytes)",
            self.key,
            self.window,
            self.memory_bytes()
        )
    }
}

impl SignerTable {
    /// Builds the table of `key` with window width `window` (2..=8; clamped).
    pub fn build(key: &PublicKey, window: u8) -> SignerTable {
        let w = window.clamp(2, 8) as u32;
        let inner = match key.own_point() {
            OwnPoint::N4(q) => TableInner::N4(with_curve4(key.curve(), |g, _| FixedTable::build(g, q, w))),
            OwnPoint::N6(q) => TableInner::N6(with_curve6(key.curve(), |g, _| FixedTable::build(g, q, w))),
        };
        SignerTable {
            key: key.clone(),
            window: w as u8,
            inner,
        }
    }

    pub fn key(&self) -> &PublicKey {
        &self.key
    }

    pub fn curve(&self) -> Curve {
        self.key.curve()
    }

    pub fn window(&self) -> u8 {
        self.window
    }

    /// Heap memory of the table.
    pub fn memory_bytes(&self) -> usize {
        match &self.inner {
            TableInner::N4(t) => t.memory_bytes(),
            TableInner::N6(t) => t.memory_bytes(),
        }
    }

    /// Verifies with the table; the same answer as any backend's plain verification (a
    /// compressed R is checked exactly).
    pub fn verify_digest(&self, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        self.key.check_curve(sig)?;
        let curve = self.curve();
        Ok(match &self.inner {
            TableInner::N4(t) => with_curve4(curve, |g, gt| {
                crate::ecdsa::ec::verify::verify(g, gt, QMul::Table(t), digest, &sig.r, &sig.s)
            }),
            TableInner::N6(t) => with_curve6(curve, |g, gt| {
                crate::ecdsa::ec::verify::verify(g, gt, QMul::Table(t), digest, &sig.r, &sig.s)
            }),
        })
    }

    /// R = u1·G + u2·Q of a valid x-only signature by this key: (x, y odd), or None if
    /// the signature does not verify.
    pub(crate) fn recover_r(&self, digest: &[u8], sig: &Signature) -> Option<(Vec<u8>, bool)> {
        let len = self.curve().field_len();
        macro_rules! recover {
            ($g:expr, $gt:expr, $t:expr) => {{
                let (g, gt, t) = ($g, $gt, $t);
                let sc = scalars(g, digest, &sig.r, &sig.s)?;
                let p = t.mul_add(g, gt.mul_add(g, g.infinity(), &sc.u1), &sc.u2);
                if !check(g, &p, &sc) {
                    return None;
                }
                let a = g.to_affine(&p)?;
                let y_odd = g.p.to_plain(&a.y)[0] & 1 == 1;
                Some((
                    crate::ecdsa::ec::field::to_be_bytes(&g.p.to_plain(&a.x), len),
                    y_odd,
                ))
            }};
        }
        match &self.inner {
            TableInner::N4(t) => with_curve4(self.curve(), |g, gt| recover!(g, gt, t)),
            TableInner::N6(t) => with_curve6(self.curve(), |g, gt| recover!(g, gt, t)),
        }
    }

    pub(crate) fn table4(&self) -> Option<&FixedTable<4>> {
        match &self.inner {
            TableInner::N4(t) => Some(t),
            TableInner::N6(_) => None,
        }
    }

    pub(crate) fn table6(&self) -> Option<&FixedTable<6>> {
        match &self.inner {
            TableInner::N6(t) => Some(t),
            TableInner::N4(_) => None,
        }
    }
}

/// How a receiver verifies message signatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(tag = "strategy", rename_all = "kebab-case", deny_unknown_fields)]
pub enum VerifyStrategy {
    /// Every signature on its own with the selected backend (the default).
    #[default]
    Plain,
    /// Per-signer precomputed tables for repeat signers ([`SignerCache`]). Opt-in: see
    /// the patent note in the module documentation.
    Precomputed(CacheConfig),
}

impl VerifyStrategy {
    /// The strategy's name as used in configuration and cost variants.
    pub fn name(&self) -> &'static str {
        match self {
            VerifyStrategy::Plain => "plain",
            VerifyStrategy::Precomputed(_) => "precomputed",
        }
    }

    /// By name with default settings; the error lists the valid names.
    pub fn from_name(name: &str) -> Result<VerifyStrategy, CryptoError> {
        match name {
            "plain" => Ok(VerifyStrategy::Plain),
            "precomputed" => Ok(VerifyStrategy::Precomputed(CacheConfig::default())),
            other => Err(CryptoError::Unsupported(format!(
                "unknown verification strategy {other:?} (valid: plain, precomputed)"
            ))),
        }
    }
}

/// Settings of [`SignerCache`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CacheConfig {
    /// A signer gets a table once heard this many times (while it is tracked).
    pub build_after: u32,
    /// Memory bound of all tables together, in bytes.
    pub max_bytes: usize,
    /// Window width of the tables (2..=8): wider is faster to verify, larger and slower
    /// to build.
    pub window: u8,
    /// Signers counted at most at once (the least recently heard are forgotten first).
    pub max_tracked: usize,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            // A P-256 table costs ~0.5 ms to build and saves ~25 us per verification
            // against aws-lc: it breaks even after ~20 messages. A signer heard 16 times
            // (1.6 s at 10 Hz) is taken as one that stays in range at least that long.
            build_after: 16,
            max_bytes: 16 << 20,
            window: DEFAULT_WINDOW,
            max_tracked: 4096,
        }
    }
}

/// What the cache did so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct CacheStats {
    /// Verifications served by a table.
    pub table_hits: u64,
    /// Verifications done without a table (signer not yet heard `build_after` times).
    pub plain: u64,
    pub builds: u64,
    pub evictions: u64,
}

struct Entry {
    heard: u32,
    last: u64,
    table: Option<Arc<SignerTable>>,
}

/// The `precomputed` verification strategy: per-signer tables for frequently heard
/// signers, keyed by the caller's signer id (the certificate's HashedId8 in SN-DECAP).
pub struct SignerCache<K> {
    config: CacheConfig,
    entries: HashMap<K, Entry>,
    tick: u64,
    bytes: usize,
    stats: CacheStats,
}

impl<K: Hash + Eq + Clone> SignerCache<K> {
    pub fn new(config: CacheConfig) -> SignerCache<K> {
        SignerCache {
            config,
            entries: HashMap::new(),
            tick: 0,
            bytes: 0,
            stats: CacheStats::default(),
        }
    }

    pub fn config(&self) -> &CacheConfig {
        &self.config
    }

    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// Memory held by tables now.
    pub fn table_bytes(&self) -> usize {
        self.bytes
    }

    pub fn tables(&self) -> usize {
        self.entries.values().filter(|e| e.table.is_some()).count()
    }

    /// Verifies a signature by `key` (known to the caller as `id`): with the signer's
    /// table if it has one, building it when the signer has been heard often enough,
    /// otherwise with the selected backend.
    pub fn verify_digest(
        &mut self,
        id: &K,
        key: &PublicKey,
        digest: &[u8],
        sig: &Signature,
    ) -> Result<bool, CryptoError> {
        self.tick += 1;
        let tick = self.tick;
        if !self.entries.contains_key(id) {
            self.forget_if_full();
            self.entries.insert(
                id.clone(),
                Entry {
                    heard: 0,
                    last: tick,
                    table: None,
                },
            );
        }
        let entry = self.entries.get_mut(id).expect("inserted above");
        entry.heard = entry.heard.saturating_add(1);
        entry.last = tick;
        // A table built for another key under the same id (a new certificate reusing an
        // id) is never used.
        if let Some(t) = &entry.table {
            if t.key() == key {
                let t = Arc::clone(t);
                self.stats.table_hits += 1;
                return t.verify_digest(digest, sig);
            }
            self.bytes -= t.memory_bytes();
            entry.table = None;
            entry.heard = 1;
        }
        if entry.heard >= self.config.build_after
            && SignerTable::build_size(key, self.config.window) <= self.config.max_bytes
        {
            let table = Arc::new(SignerTable::build(key, self.config.window));
            let size = table.memory_bytes();
            self.make_room(size);
            let entry = self.entries.get_mut(id).expect("present");
            entry.table = Some(Arc::clone(&table));
            self.bytes += size;
            self.stats.builds += 1;
            self.stats.table_hits += 1;
            return table.verify_digest(digest, sig);
        }
        self.stats.plain += 1;
        key.verify_digest(digest, sig)
    }

    /// Evicts least recently used tables until `size` more bytes fit.
    fn make_room(&mut self, size: usize) {
        while self.bytes + size > self.config.max_bytes {
            let victim = self
                .entries
                .iter()
                .filter(|(_, e)| e.table.is_some())
                .min_by_key(|(_, e)| e.last)
                .map(|(k, _)| k.clone());
            let Some(victim) = victim else { break };
            let e = self.entries.get_mut(&victim).expect("present");
            if let Some(t) = e.table.take() {
                self.bytes -= t.memory_bytes();
                e.heard = 0;
                self.stats.evictions += 1;
            }
        }
    }

    /// Bounds the number of tracked signers: forgets the least recently heard quarter of
    /// those without a table (tables are bounded by memory separately).
    fn forget_if_full(&mut self) {
        if self.entries.len() < self.config.max_tracked.max(4) {
            return;
        }
        let mut idle: Vec<(u64, K)> = self
            .entries
            .iter()
            .filter(|(_, e)| e.table.is_none())
            .map(|(k, e)| (e.last, k.clone()))
            .collect();
        idle.sort_unstable_by_key(|(last, _)| *last);
        let drop = (self.entries.len() / 4).max(1).min(idle.len());
        for (_, k) in idle.into_iter().take(drop) {
            self.entries.remove(&k);
        }
        if self.entries.len() >= self.config.max_tracked.max(4) {
            // Every tracked signer has a table: evict the least recently used one.
            let victim = self.entries.iter().min_by_key(|(_, e)| e.last).map(|(k, _)| k.clone());
            if let Some(k) = victim {
                if let Some(t) = self.entries.remove(&k).and_then(|e| e.table) {
                    self.bytes -= t.memory_bytes();
                    self.stats.evictions += 1;
                }
            }
        }
    }
}

impl SignerTable {
    /// Memory a table of `key` with this window takes, without building it.
    pub fn build_size(key: &PublicKey, window: u8) -> usize {
        let w = window.clamp(2, 8) as usize;
        let bits = 8 * key.curve().field_len();
        let windows = bits / w + 1;
        windows * (1 << (w - 1)) * 2 * key.curve().field_len().next_multiple_of(8)
    }
}
