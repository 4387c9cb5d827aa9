//! Batch verification of queued signatures that carry R (compressed-R signatures), in the
//! style of Karati–Das (2014): one random linear combination
//!
//!   Σ a_i·R_i − (Σ a_i·u1_i)·G − Σ (a_i·u2_i)·Q_i = O,   u1 = e/s, u2 = r/s,
//!
//! with 128-bit random a_i (a forged item passes with probability ≤ 2^-128), one shared
//! run of doublings for all variable points (Straus interleaving), a single generator
//! multiplication, and a signer's table for Q_i where one is given. If the combination
//! fails, every item is verified on its own to find the bad ones. Signatures with an
//! x-only r cannot be batched this way (R is ambiguous) and are verified one by one.
//!
//! Meant for a receiver that is backlogged (several messages queued); variable time with
//! public inputs only.

use crate::ecdsa::ec::field::{from_be_bytes, Fe, Limbs};
use crate::ecdsa::ec::point::{Affine, Group};
use crate::ecdsa::ec::table::{straus, FixedTable};
use crate::ecdsa::ec::verify::scalars;
use crate::ecdsa::precomp::SignerTable;
use crate::ecdsa::{with_curve4, with_curve6};
use crate::{random_bytes, CryptoError, Curve, PublicKey, RPoint, Signature};

/// One queued signature.
#[derive(Clone, Copy, Debug)]
pub struct BatchItem<'a> {
    pub key: &'a PublicKey,
    /// The signer's table, if the receiver keeps one (the key must be the table's).
    pub table: Option<&'a SignerTable>,
    pub digest: &'a [u8],
    pub sig: &'a Signature,
}

/// Verifies every item; the result has one entry per item, in order. Items of different
/// curves are batched per curve.
pub fn batch_verify(items: &[BatchItem<'_>]) -> Result<Vec<bool>, CryptoError> {
    let mut out = vec![false; items.len()];
    for item in items {
        item.key.check_curve(item.sig)?;
        if let Some(t) = item.table {
            if t.key() != item.key {
                return Err(CryptoError::Backend("batch item's table belongs to another key".into()));
            }
        }
    }
    for curve in Curve::ALL {
        let idx: Vec<usize> = (0..items.len()).filter(|&i| items[i].key.curve() == curve).collect();
        if idx.is_empty() {
            continue;
        }
        let (batchable, single): (Vec<usize>, Vec<usize>) = idx
            .into_iter()
            .partition(|&i| matches!(items[i].sig.r, RPoint::Compressed { .. }));
        for i in single {
            out[i] = verify_one(&items[i])?;
        }
        if batchable.len() == 1 {
            out[batchable[0]] = verify_one(&items[batchable[0]])?;
        } else if !batchable.is_empty() {
            let sub: Vec<BatchItem<'_>> = batchable.iter().map(|&i| items[i]).collect();
            let all_good = match curve {
                Curve::NistP256 | Curve::BrainpoolP256r1 => {
                    with_curve4(curve, |g, gt| combined::<4>(g, gt, &sub, |t| t.table4()))
                }
                Curve::NistP384 | Curve::BrainpoolP384r1 => {
                    with_curve6(curve, |g, gt| combined::<6>(g, gt, &sub, |t| t.table6()))
                }
            };
            for &i in &batchable {
                out[i] = if all_good { true } else { verify_one(&items[i])? };
            }
        }
    }
    Ok(out)
}

fn verify_one(item: &BatchItem<'_>) -> Result<bool, CryptoError> {
    match item.table {
        Some(t) => t.verify_digest(item.digest, item.sig),
        None => item.key.verify_digest_vartime(item.digest, item.sig),
    }
}

/// The key as a point of the N-limb group (from its validated uncompressed encoding).
fn point_of<const N: usize>(g: &Group<N>, key: &PublicKey) -> Option<Affine<N>> {
    let sec1 = key.to_sec1(false);
    let (x, y) = sec1[1..].split_at(g.len);
    g.affine_from_be(x, y)
}

fn random_scalar<const N: usize>() -> Limbs<N> {
    // 128 bits, never zero.
    let mut a: Limbs<N> = from_be_bytes(&random_bytes(16)).expect("16 bytes fit");
    a[0] |= 1;
    a
}

/// The combined check; true only if every item is valid (with overwhelming probability).
fn combined<const N: usize>(
    g: &Group<N>,
    g_table: &FixedTable<N>,
    items: &[BatchItem<'_>],
    table_of: impl Fn(&SignerTable) -> Option<&FixedTable<N>>,
) -> bool {
    let nm = &g.n;
    let mut var_terms: Vec<(Affine<N>, Limbs<N>)> = Vec::with_capacity(2 * items.len());
    let mut table_terms: Vec<(&FixedTable<N>, Limbs<N>)> = Vec::new();
    let mut g_sum = Fe([0u64; N]); // Σ a_i·u1_i, plain integer kept below n
    for item in items {
        let RPoint::Compressed { x, y_odd } = &item.sig.r else {
            return false;
        };
        let Some(sc) = scalars(g, item.digest, &item.sig.r, &item.sig.s) else {
            return false;
        };
        let Some(r_point) = g.decompress(x, *y_odd) else {
            return false;
        };
        let a = random_scalar::<N>();
        // a·u mod n: a plain times (u·R mod n) under Montgomery multiplication = a·u.
        let a_u1 = nm.mul(&Fe(a), &nm.to_mont(&sc.u1));
        let a_u2 = nm.mul(&Fe(a), &nm.to_mont(&sc.u2));
        g_sum = nm.add(&g_sum, &a_u1);
        var_terms.push((r_point, a));
        let neg_u2 = nm.neg(&a_u2).0;
        match item.table.and_then(&table_of) {
            Some(t) => table_terms.push((t, neg_u2)),
            None => match point_of(g, item.key) {
                Some(q) => var_terms.push((q, neg_u2)),
                None => return false,
            },
        }
    }
    let mut acc = straus(g, &var_terms);
    acc = g_table.mul_add(g, acc, &nm.neg(&g_sum).0);
    for (t, k) in table_terms {
        acc = t.mul_add(g, acc, &k);
    }
    g.is_infinity(&acc)
}
