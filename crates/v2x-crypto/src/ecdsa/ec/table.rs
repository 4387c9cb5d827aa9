//! Scalar multiplication: a signed fixed-window table for a fixed point (the generator,
//! or a repeat signer's public key) that needs no doubling at all, and a width-5 wNAF for
//! a point seen once. Variable time (public scalars only, see `field.rs`).

use super::field::Limbs;
use super::point::{Affine, Group, Jacobian};

/// For a fixed point P and window width w: entry (i, j) = (j+1)·2^(w·i)·P, affine.
/// A scalar k = Σ d_i·2^(w·i) with signed digits |d_i| ≤ 2^(w-1) costs one mixed
/// addition per nonzero digit (~ bits/w) and no doubling.
#[derive(Clone, Debug)]
pub(crate) struct FixedTable<const N: usize> {
    w: u32,
    windows: usize,
    points: Vec<Affine<N>>,
}

/// The w bits of k at bit position `pos` (bits beyond the top are zero).
#[inline]
fn bits_at<const N: usize>(k: &Limbs<N>, pos: usize, w: u32) -> u32 {
    let limb = pos / 64;
    let off = pos % 64;
    if limb >= N {
        return 0;
    }
    let mut v = k[limb] >> off;
    if off + w as usize > 64 && limb + 1 < N {
        v |= k[limb + 1] << (64 - off);
    }
    (v & ((1u64 << w) - 1)) as u32
}

impl<const N: usize> FixedTable<N> {
    /// Builds the table: per window, the multiples 1..2^(w-1) (even ones by doubling,
    /// odd ones by one addition), then every point to affine with a single inversion.
    pub(crate) fn build(g: &Group<N>, p: &Affine<N>, w: u32) -> FixedTable<N> {
        assert!((2..=8).contains(&w), "window width 2..=8");
        let half = 1usize << (w - 1);
        let windows = g.n.bits as usize / w as usize + 1;
        let mut jac: Vec<Jacobian<N>> = Vec::with_capacity(windows * half);
        let mut base = g.to_jacobian(p);
        for _ in 0..windows {
            let start = jac.len();
            jac.push(base);
            for j in 2..=half {
                let next = if j % 2 == 0 {
                    g.double(&jac[start + j / 2 - 1])
                } else {
                    g.add(&jac[start + j - 2], &base)
                };
                jac.push(next);
            }
            // 2^w·base = 2·(2^(w-1)·base)
            base = g.double(&jac[start + half - 1]);
        }
        // (j+1)·2^(w·i) < 2^(bits+w) stays a nonzero multiple below n·2^w... but could a
        // multiple be the identity? Only if n divided it, impossible for j+1 ≤ 2^(w-1) < n
        // times a power of two (n is an odd prime).
        let points = g
            .batch_to_affine(&jac)
            .expect("no multiple of a point of prime order n > 2^w is infinity");
        FixedTable { w, windows, points }
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.points.len() * std::mem::size_of::<Affine<N>>()
    }

    /// acc + k·P, for k < 2^(bits of n).
    ///
    /// The entries are gathered first: their addresses depend only on k, so the loads
    /// of a table that is not in cache (a receiver with 100 signers holds ~5 MB of tables)
    /// overlap instead of stalling each addition in turn.
    #[inline]
    pub(crate) fn mul_add(&self, g: &Group<N>, mut acc: Jacobian<N>, k: &Limbs<N>) -> Jacobian<N> {
        let half = 1u32 << (self.w - 1);
        let full = 1i32 << self.w;
        let mut carry = 0u32;
        let mut picked: Vec<(Affine<N>, bool)> = Vec::with_capacity(self.windows);
        for i in 0..self.windows {
            let bits = bits_at(k, i * self.w as usize, self.w) + carry;
            let digit = if bits > half {
                carry = 1;
                bits as i32 - full
            } else {
                carry = 0;
                bits as i32
            };
            if digit != 0 {
                let entry = self.points[i * half as usize + digit.unsigned_abs() as usize - 1];
                picked.push((entry, digit < 0));
            }
        }
        debug_assert_eq!(carry, 0, "the top window absorbs the last carry");
        for (entry, negative) in &picked {
            acc = if *negative {
                g.add_affine(&acc, &g.neg_affine(entry))
            } else {
                g.add_affine(&acc, entry)
            };
        }
        acc
    }
}

/// Width-5 non-adjacent form of k: digits in {0, ±1, ±3, ..., ±15}, least significant first.
pub(crate) fn wnaf<const N: usize>(k: &Limbs<N>) -> Vec<i8> {
    const W: u32 = 5;
    let mut k = *k;
    let mut extra = 0u64; // a carry limb above k
    let mut out = Vec::with_capacity(64 * N + 1);
    let nonzero = |k: &Limbs<N>, e: u64| e != 0 || k.iter().any(|&x| x != 0);
    while nonzero(&k, extra) {
        let mut d = 0i64;
        if k[0] & 1 == 1 {
            d = (k[0] & ((1 << W) - 1)) as i64;
            if d >= 1 << (W - 1) {
                d -= 1 << W;
            }
            // k -= d
            if d > 0 {
                let (r, borrow) = super::field::sub_n(&k, &one_limbs::<N>(d as u64));
                k = r;
                extra -= borrow as u64;
            } else {
                let (r, carry) = super::field::add_n(&k, &one_limbs::<N>((-d) as u64));
                k = r;
                extra += carry as u64;
            }
        }
        out.push(d as i8);
        // k >>= 1 (with the extra limb)
        for i in 0..N {
            let hi = if i + 1 < N { k[i + 1] << 63 } else { extra << 63 };
            k[i] = (k[i] >> 1) | hi;
        }
        extra >>= 1;
    }
    out
}

fn one_limbs<const N: usize>(v: u64) -> Limbs<N> {
    let mut l = [0u64; N];
    l[0] = v;
    l
}

/// Σ k_j·P_j with one shared run of doublings (Straus interleaving): a width-5 wNAF per
/// term, its odd multiples P..15P made affine with a single inversion for all terms.
pub(crate) fn straus<const N: usize>(g: &Group<N>, terms: &[(Affine<N>, Limbs<N>)]) -> Jacobian<N> {
    if terms.is_empty() {
        return g.infinity();
    }
    let digits: Vec<Vec<i8>> = terms.iter().map(|(_, k)| wnaf(k)).collect();
    let mut odd_jac = Vec::with_capacity(8 * terms.len());
    for (p, _) in terms {
        let pj = g.to_jacobian(p);
        let p2 = g.double(&pj);
        let start = odd_jac.len();
        odd_jac.push(pj);
        for i in 1..8 {
            let next = g.add(&odd_jac[start + i - 1], &p2);
            odd_jac.push(next);
        }
    }
    // A multiple at infinity would need a point of order ≤ 15, which no validated point on
    // these prime-order curves has.
    let odd = g
        .batch_to_affine(&odd_jac)
        .expect("odd multiples of a point of large prime order are finite");
    let len = digits.iter().map(Vec::len).max().unwrap_or(0);
    let mut acc = g.infinity();
    for bit in (0..len).rev() {
        acc = g.double(&acc);
        for (j, d) in digits.iter().enumerate() {
            let Some(&d) = d.get(bit) else { continue };
            if d > 0 {
                acc = g.add_affine(&acc, &odd[8 * j + (d as usize) / 2]);
            } else if d < 0 {
                acc = g.add_affine(&acc, &g.neg_affine(&odd[8 * j + ((-d) as usize) / 2]));
            }
        }
    }
    acc
}
