//! ECDSA verification on our own arithmetic: u1·G from a static generator table, u2·Q
//! from a per-signer table or a one-off wNAF, and the final comparison done in projective
//! coordinates (no inversion for an x-only r). Variable time: public inputs only.

use super::field::{from_be_bytes, lt, Fe, Limbs};
use super::point::{Affine, Group, Jacobian};
use super::table::{straus, FixedTable};
use crate::RPoint;

/// How u2·Q is computed.
pub(crate) enum QMul<'a, const N: usize> {
    Table(&'a FixedTable<N>),
    Once(&'a Affine<N>),
}

/// The scalars of one verification: u1 = e/s, u2 = r/s (mod n), and the r check.
pub(crate) struct Scalars<const N: usize> {
    pub(crate) u1: Limbs<N>,
    pub(crate) u2: Limbs<N>,
    /// r as an integer (x-only) or x of R (compressed R) with y's parity.
    pub(crate) r: Limbs<N>,
    pub(crate) known_r: Option<(Limbs<N>, bool)>,
}

/// e: the leftmost bits(n) bits of the digest, reduced mod n (SEC 1 §4.1.4 step 3).
pub(crate) fn digest_scalar<const N: usize>(g: &Group<N>, digest: &[u8]) -> Limbs<N> {
    let bits = g.n.bits as usize;
    let take = digest.len().min(bits.div_ceil(8));
    let mut e: Limbs<N> = from_be_bytes(&digest[..take]).expect("at most the order's length");
    let excess = (8 * take).saturating_sub(bits);
    if excess > 0 {
        for i in 0..N {
            let hi = if i + 1 < N { e[i + 1] << (64 - excess) } else { 0 };
            e[i] = (e[i] >> excess) | hi;
        }
    }
    g.n.reduce_once(&e)
}

/// Range checks and the scalars; None when r or s is out of [1, n-1] or R's x is not a
/// field element (a signature that cannot verify).
pub(crate) fn scalars<const N: usize>(g: &Group<N>, digest: &[u8], r: &RPoint, s: &[u8]) -> Option<Scalars<N>> {
    let (r_int, known_r) = match r {
        RPoint::XOnly(r) => {
            let r: Limbs<N> = from_be_bytes(r)?;
            (r, None)
        }
        RPoint::Compressed { x, y_odd } => {
            let x: Limbs<N> = from_be_bytes(x)?;
            if !lt(&x, &g.p.m) {
                return None;
            }
            (g.n.reduce_once(&x), Some((x, *y_odd)))
        }
    };
    let s: Limbs<N> = from_be_bytes(s)?;
    let in_range = |v: &Limbs<N>| !super::field::is_zero(v) && lt(v, &g.n.m);
    if !in_range(&r_int) || !in_range(&s) {
        return None;
    }
    let e = digest_scalar(g, digest);
    // w = s^-1·R (Montgomery); a plain value times w under Montgomery multiplication is
    // the plain product, so u1 and u2 come out as plain integers.
    let w = g.n.inv(&g.n.to_mont(&s))?;
    let u1 = g.n.mul(&Fe(e), &w).0;
    let u2 = g.n.mul(&Fe(r_int), &w).0;
    Some(Scalars {
        u1,
        u2,
        r: r_int,
        known_r,
    })
}

/// Whether the point P = u1·G + u2·Q matches r (x(P) ≡ r mod n), or equals R exactly
/// when the signature carries R.
pub(crate) fn check<const N: usize>(g: &Group<N>, p: &Jacobian<N>, sc: &Scalars<N>) -> bool {
    if g.is_infinity(p) {
        return false;
    }
    let f = &g.p;
    let z2 = f.sqr(&p.z);
    match &sc.known_r {
        Some((x, y_odd)) => {
            if f.mul(&f.to_mont(x), &z2) != p.x {
                return false;
            }
            // y = Y / Z³: one inversion tells the parity (cheaper than decompressing R).
            let Some(zinv) = f.inv(&p.z) else { return false };
            let y = f.mul(&p.y, &f.mul(&zinv, &f.sqr(&zinv)));
            (f.to_plain(&y)[0] & 1 == 1) == *y_odd
        }
        None => {
            // x(P) is in [0, p); x(P) mod n = r means x(P) = r or x(P) = r + n (< p).
            if f.mul(&f.to_mont(&sc.r), &z2) == p.x {
                return true;
            }
            let (rn, carry) = super::field::add_n(&sc.r, &g.n.m);
            !carry && lt(&rn, &f.m) && f.mul(&f.to_mont(&rn), &z2) == p.x
        }
    }
}

/// Full verification: false for any invalid signature (including malformed scalars).
pub(crate) fn verify<const N: usize>(
    g: &Group<N>,
    g_table: &FixedTable<N>,
    q: QMul<'_, N>,
    digest: &[u8],
    r: &RPoint,
    s: &[u8],
) -> bool {
    let Some(sc) = scalars(g, digest, r, s) else {
        return false;
    };
    let acc = g_table.mul_add(g, g.infinity(), &sc.u1);
    let p = match q {
        QMul::Table(t) => t.mul_add(g, acc, &sc.u2),
        QMul::Once(q) => g.add(&acc, &straus(g, &[(*q, sc.u2)])),
    };
    check(g, &p, &sc)
}
