//! Montgomery arithmetic modulo an odd N-limb prime (the curve's field p or its order n).
//!
//! VARIABLE TIME. This module serves public-key verification only, where every input (the
//! public key, the message digest, the signature) is public, so timing reveals nothing
//! secret. Constant time matters for signing and key agreement, which never come here:
//! they stay in the constant-time libraries (aws-lc, OpenSSL, RustCrypto).

// Limb loops index several arrays at once (a[j]·b[i] into t[j]): indices read clearer
// than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use openssl::bn::{BigNum, BigNumContext};

/// Little-endian 64-bit limbs.
pub(crate) type Limbs<const N: usize> = [u64; N];

/// A residue in Montgomery form (x·R mod m, R = 2^(64N)).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Fe<const N: usize>(pub(crate) Limbs<N>);

#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = acc as u128 + (a as u128) * (b as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

#[inline(always)]
pub(crate) fn add_n<const N: usize>(a: &Limbs<N>, b: &Limbs<N>) -> (Limbs<N>, bool) {
    let mut out = [0u64; N];
    let mut carry = false;
    for i in 0..N {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        out[i] = s2;
        carry = c1 | c2;
    }
    (out, carry)
}

#[inline(always)]
pub(crate) fn sub_n<const N: usize>(a: &Limbs<N>, b: &Limbs<N>) -> (Limbs<N>, bool) {
    let mut out = [0u64; N];
    let mut borrow = false;
    for i in 0..N {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        out[i] = d2;
        borrow = b1 | b2;
    }
    (out, borrow)
}

/// a < b as integers.
#[inline]
pub(crate) fn lt<const N: usize>(a: &Limbs<N>, b: &Limbs<N>) -> bool {
    for i in (0..N).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

#[inline]
pub(crate) fn is_zero<const N: usize>(a: &Limbs<N>) -> bool {
    a.iter().all(|&x| x == 0)
}

/// Big-endian bytes (exactly 8N of them, or fewer: left-padded) to limbs.
pub(crate) fn from_be_bytes<const N: usize>(bytes: &[u8]) -> Option<Limbs<N>> {
    if bytes.len() > 8 * N {
        return None;
    }
    let mut padded = [0u8; 64];
    let off = 8 * N - bytes.len();
    padded[off..8 * N].copy_from_slice(bytes);
    let mut out = [0u64; N];
    for (i, limb) in out.iter_mut().enumerate() {
        let start = 8 * (N - 1 - i);
        *limb = u64::from_be_bytes(padded[start..start + 8].try_into().expect("8 bytes"));
    }
    Some(out)
}

/// Limbs to big-endian bytes, `len` of them (the low-order `len` bytes).
pub(crate) fn to_be_bytes<const N: usize>(a: &Limbs<N>, len: usize) -> Vec<u8> {
    let mut full = Vec::with_capacity(8 * N);
    for limb in a.iter().rev() {
        full.extend_from_slice(&limb.to_be_bytes());
    }
    full[8 * N - len..].to_vec()
}

fn to_bignum<const N: usize>(a: &Limbs<N>) -> BigNum {
    BigNum::from_slice(&to_be_bytes(a, 8 * N)).expect("BIGNUM from bytes")
}

fn from_bignum<const N: usize>(b: &BigNum) -> Limbs<N> {
    from_be_bytes(&b.to_vec()).expect("value below the modulus fits N limbs")
}

/// `if flag { a } else { b }` without a branch: the final conditional subtraction of
/// Montgomery arithmetic is a coin flip on random data, and a mispredicted branch costs
/// more than the masked select.
#[inline(always)]
fn select<const N: usize>(flag: bool, a: &Limbs<N>, b: &Limbs<N>) -> Limbs<N> {
    let mask = (flag as u64).wrapping_neg();
    let mut out = [0u64; N];
    for i in 0..N {
        out[i] = (a[i] & mask) | (b[i] & !mask);
    }
    out
}

/// NIST P-256's p = 2^256 - 2^224 + 2^192 + 2^96 - 1 as a compile-time constant, so
/// that the compiler folds the reduction's multiplications by 0 and by 2^64 - 1.
const P256_P: Limbs<4> = [u64::MAX, 0x0000_0000_ffff_ffff, 0, 0xffff_ffff_0000_0001];

/// Montgomery product modulo a constant modulus (CIOS, `inv` = -m^-1 mod 2^64).
#[inline(always)]
fn mont_mul<const N: usize>(a: &Limbs<N>, b: &Limbs<N>, m: &Limbs<N>, inv: u64) -> Limbs<N> {
    let mut t = [0u64; N];
    let mut t_n = 0u64;
    for i in 0..N {
        let mut c = 0u64;
        for j in 0..N {
            let (lo, hi) = mac(t[j], a[j], b[i], c);
            t[j] = lo;
            c = hi;
        }
        let (s, c1) = t_n.overflowing_add(c);
        let t_n1 = c1 as u64;
        let q = t[0].wrapping_mul(inv);
        let (_, mut c) = mac(t[0], q, m[0], 0);
        for j in 1..N {
            let (lo, hi) = mac(t[j], q, m[j], c);
            t[j - 1] = lo;
            c = hi;
        }
        let (s2, c2) = s.overflowing_add(c);
        t[N - 1] = s2;
        t_n = t_n1 + c2 as u64;
    }
    let (r, borrow) = sub_n(&t, m);
    select(t_n != 0 || !borrow, &r, &t)
}

/// Montgomery square: the 2N-limb square (cross products once, doubled), then N
/// reduction rounds.
#[inline(always)]
fn mont_sqr<const N: usize>(a: &Limbs<N>, m: &Limbs<N>, inv: u64) -> Limbs<N> {
    // wide = a^2 in 2N limbs; stored as lo[N] and hi[N]
    let mut w = [[0u64; N]; 2];
    let get = |w: &[[u64; N]; 2], k: usize| w[k / N][k % N];
    let set = |w: &mut [[u64; N]; 2], k: usize, v: u64| w[k / N][k % N] = v;
    // cross products a_i·a_j, i < j
    for i in 0..N {
        let mut c = 0u64;
        for j in i + 1..N {
            let (lo, hi) = mac(get(&w, i + j), a[i], a[j], c);
            set(&mut w, i + j, lo);
            c = hi;
        }
        set(&mut w, i + N, c);
    }
    // double
    let mut top = 0u64;
    for k in 0..2 * N {
        let v = get(&w, k);
        set(&mut w, k, (v << 1) | top);
        top = v >> 63;
    }
    // add the squares a_i^2
    let mut c = 0u64;
    for i in 0..N {
        let sq = (a[i] as u128) * (a[i] as u128);
        let t = get(&w, 2 * i) as u128 + (sq as u64) as u128 + c as u128;
        set(&mut w, 2 * i, t as u64);
        let t2 = get(&w, 2 * i + 1) as u128 + (sq >> 64) + (t >> 64);
        set(&mut w, 2 * i + 1, t2 as u64);
        c = (t2 >> 64) as u64;
    }
    // Montgomery reduction, N rounds on the low half
    let (mut lo, mut hi) = (w[0], w[1]);
    let mut extra = 0u64;
    for i in 0..N {
        let q = lo[i].wrapping_mul(inv);
        let mut c = 0u64;
        for j in 0..N {
            let k = i + j;
            let cell = if k < N { &mut lo[k] } else { &mut hi[k - N] };
            let (l, h) = mac(*cell, q, m[j], c);
            *cell = l;
            c = h;
        }
        // propagate the carry into hi[i..]
        let mut k = i;
        while c != 0 && k < N {
            let (s, o) = hi[k].overflowing_add(c);
            hi[k] = s;
            c = o as u64;
            k += 1;
        }
        extra += c;
    }
    let (r, borrow) = sub_n(&hi, m);
    select(extra != 0 || !borrow, &r, &hi)
}

/// An odd modulus with its Montgomery constants.
#[derive(Debug)]
pub(crate) struct Modulus<const N: usize> {
    pub(crate) m: Limbs<N>,
    /// m is P-256's p (the multiplication then uses the constant-folded path).
    is_p256: bool,
    /// -m^-1 mod 2^64.
    inv: u64,
    /// R^2 mod m, to enter Montgomery form.
    r2: Limbs<N>,
    /// R^3 mod m, to correct the plain inverse of a Montgomery residue.
    r3: Limbs<N>,
    /// R mod m: one in Montgomery form.
    pub(crate) one: Fe<N>,
    /// Bit length of m.
    pub(crate) bits: u32,
}

impl<const N: usize> Modulus<N> {
    /// Constants for the odd modulus `m` (big-endian bytes); the powers of R come from
    /// OpenSSL's BIGNUM once at start-up.
    pub(crate) fn new(m_be: &[u8]) -> Modulus<N> {
        let m: Limbs<N> = from_be_bytes(m_be).expect("modulus fits N limbs");
        assert!(m[0] & 1 == 1, "Montgomery needs an odd modulus");
        // Newton iteration for m^-1 mod 2^64 (each step doubles the correct low bits).
        let mut x: u64 = 1;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(x)));
        }
        let inv = x.wrapping_neg();
        let mut ctx = BigNumContext::new().expect("BN_CTX");
        let bm = to_bignum(&m);
        let mut pow = |e: i32| {
            let mut two = BigNum::new().expect("BIGNUM");
            two.set_bit(e).expect("set bit");
            let mut r = BigNum::new().expect("BIGNUM");
            r.nnmod(&two, &bm, &mut ctx).expect("mod");
            from_bignum::<N>(&r)
        };
        let w = 64 * N as i32;
        let one = Fe(pow(w));
        let r2 = pow(2 * w);
        let r3 = pow(3 * w);
        let bits = 64 * N as u32 - m[N - 1].leading_zeros();
        let is_p256 = N == 4 && m[..] == P256_P[..];
        Modulus {
            m,
            is_p256,
            inv,
            r2,
            r3,
            one,
            bits,
        }
    }

    /// Montgomery product a·b·R^-1 mod m.
    #[inline(always)]
    pub(crate) fn mul(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        if N == 4 && self.is_p256 {
            let a4: Limbs<4> = std::array::from_fn(|i| a.0[i]);
            let b4: Limbs<4> = std::array::from_fn(|i| b.0[i]);
            let r = mont_mul(&a4, &b4, &P256_P, 1);
            return Fe(std::array::from_fn(|i| r[i]));
        }
        Fe(mont_mul(&a.0, &b.0, &self.m, self.inv))
    }

    #[inline(always)]
    pub(crate) fn sqr(&self, a: &Fe<N>) -> Fe<N> {
        if N == 4 && self.is_p256 {
            let a4: Limbs<4> = std::array::from_fn(|i| a.0[i]);
            let r = mont_sqr(&a4, &P256_P, 1);
            return Fe(std::array::from_fn(|i| r[i]));
        }
        Fe(mont_sqr(&a.0, &self.m, self.inv))
    }

    #[inline(always)]
    pub(crate) fn add(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        let (s, carry) = add_n(&a.0, &b.0);
        let (d, borrow) = sub_n(&s, &self.m);
        Fe(select(carry || !borrow, &d, &s))
    }

    #[inline(always)]
    pub(crate) fn sub(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        let (d, borrow) = sub_n(&a.0, &b.0);
        let mask = (borrow as u64).wrapping_neg();
        let mut m = self.m;
        for limb in m.iter_mut() {
            *limb &= mask;
        }
        Fe(add_n(&d, &m).0)
    }

    #[inline(always)]
    pub(crate) fn dbl(&self, a: &Fe<N>) -> Fe<N> {
        self.add(a, a)
    }

    #[inline(always)]
    pub(crate) fn neg(&self, a: &Fe<N>) -> Fe<N> {
        if is_zero(&a.0) {
            *a
        } else {
            Fe(sub_n(&self.m, &a.0).0)
        }
    }

    /// Plain integer (must be < m) to Montgomery form.
    #[inline]
    pub(crate) fn to_mont(&self, x: &Limbs<N>) -> Fe<N> {
        self.mul(&Fe(*x), &Fe(self.r2))
    }

    /// Montgomery form to the plain integer.
    #[inline]
    pub(crate) fn to_plain(&self, a: &Fe<N>) -> Limbs<N> {
        let mut one = [0u64; N];
        one[0] = 1;
        self.mul(a, &Fe(one)).0
    }

    /// Big-endian bytes to Montgomery form; None unless the value is below m.
    pub(crate) fn parse_be(&self, bytes: &[u8]) -> Option<Fe<N>> {
        let x = from_be_bytes::<N>(bytes)?;
        lt(&x, &self.m).then(|| self.to_mont(&x))
    }

    /// Reduces any N-limb integer (below 2m, which holds for every value here: digests
    /// truncated to the order's length, x coordinates for r) once.
    pub(crate) fn reduce_once(&self, x: &Limbs<N>) -> Limbs<N> {
        let (d, borrow) = sub_n(x, &self.m);
        if borrow {
            *x
        } else {
            d
        }
    }

    /// a^e (e a plain integer), fixed 4-bit windows from the top.
    pub(crate) fn pow(&self, a: &Fe<N>, e: &Limbs<N>) -> Fe<N> {
        let mut powers = [self.one; 16];
        for i in 1..16 {
            powers[i] = self.mul(&powers[i - 1], a);
        }
        let mut acc = self.one;
        for i in (0..N).rev() {
            for nib in (0..16).rev() {
                for _ in 0..4 {
                    acc = self.sqr(&acc);
                }
                let d = ((e[i] >> (4 * nib)) & 15) as usize;
                if d != 0 {
                    acc = self.mul(&acc, &powers[d]);
                }
            }
        }
        acc
    }

    /// Inverse in Montgomery form (binary extended Euclid on the plain residue); None for 0.
    pub(crate) fn inv(&self, a: &Fe<N>) -> Option<Fe<N>> {
        let plain_inv = inv_binary(&a.0, &self.m)?;
        // (aR)^-1 · R^3 · R^-1 = a^-1 · R
        Some(self.mul(&Fe(plain_inv), &Fe(self.r3)))
    }

    pub(crate) fn is_zero(&self, a: &Fe<N>) -> bool {
        is_zero(&a.0)
    }
}

/// Halves x modulo the odd m (x < m), with the carry of x + m kept.
#[inline]
fn half_mod<const N: usize>(x: &mut Limbs<N>, m: &Limbs<N>) {
    let (sum, carry) = if x[0] & 1 == 1 { add_n(x, m) } else { (*x, false) };
    for i in 0..N {
        let hi = if i + 1 < N {
            sum[i + 1] << 63
        } else {
            (carry as u64) << 63
        };
        x[i] = (sum[i] >> 1) | hi;
    }
}

#[inline]
fn shr1<const N: usize>(x: &mut Limbs<N>) {
    for i in 0..N {
        let hi = if i + 1 < N { x[i + 1] << 63 } else { 0 };
        x[i] = (x[i] >> 1) | hi;
    }
}

/// x^-1 mod m for odd m and 0 < x < m (binary extended Euclid, variable time).
fn inv_binary<const N: usize>(x: &Limbs<N>, m: &Limbs<N>) -> Option<Limbs<N>> {
    if is_zero(x) {
        return None;
    }
    let mut one = [0u64; N];
    one[0] = 1;
    let (mut u, mut v) = (*x, *m);
    let (mut x1, mut x2) = (one, [0u64; N]);
    while u != one && v != one {
        if is_zero(&u) || is_zero(&v) {
            return None; // not invertible (only if m is not prime)
        }
        while u[0] & 1 == 0 {
            shr1(&mut u);
            half_mod(&mut x1, m);
        }
        while v[0] & 1 == 0 {
            shr1(&mut v);
            half_mod(&mut x2, m);
        }
        if !lt(&u, &v) {
            u = sub_n(&u, &v).0;
            let (d, borrow) = sub_n(&x1, &x2);
            x1 = if borrow { add_n(&d, m).0 } else { d };
        } else {
            v = sub_n(&v, &u).0;
            let (d, borrow) = sub_n(&x2, &x1);
            x2 = if borrow { add_n(&d, m).0 } else { d };
        }
    }
    Some(if u == one { x1 } else { x2 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p256() -> Modulus<4> {
        Modulus::new(&hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"))
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    fn bn(a: &Limbs<4>) -> BigNum {
        to_bignum(a)
    }

    fn random_limbs() -> Limbs<4> {
        let mut b = [0u8; 32];
        openssl::rand::rand_bytes(&mut b).unwrap();
        from_be_bytes(&b).unwrap()
    }

    #[test]
    fn mul_add_sub_inv_agree_with_bignum() {
        let f = p256();
        let mut ctx = BigNumContext::new().unwrap();
        let m = bn(&f.m);
        for i in 0..300u64 {
            let mut a = random_limbs();
            let b = random_limbs();
            if i % 7 == 0 {
                a = sub_n(&f.m, &[1, 0, 0, 0]).0; // m - 1
            }
            let a = f.reduce_once(&a);
            let b = f.reduce_once(&b);
            let (am, bm) = (f.to_mont(&a), f.to_mont(&b));
            let mut want = BigNum::new().unwrap();
            want.mod_mul(&bn(&a), &bn(&b), &m, &mut ctx).unwrap();
            assert_eq!(bn(&f.to_plain(&f.mul(&am, &bm))), want);
            want.mod_add(&bn(&a), &bn(&b), &m, &mut ctx).unwrap();
            assert_eq!(bn(&f.to_plain(&f.add(&am, &bm))), want);
            want.mod_sub(&bn(&a), &bn(&b), &m, &mut ctx).unwrap();
            assert_eq!(bn(&f.to_plain(&f.sub(&am, &bm))), want);
            want.mod_sqr(&bn(&a), &m, &mut ctx).unwrap();
            assert_eq!(bn(&f.to_plain(&f.sqr(&am))), want);
            want.mod_sub(&bn(&a), &bn(&b), &m, &mut ctx).unwrap();
            assert_eq!(bn(&f.to_plain(&f.sub(&am, &bm))), want);
            if !is_zero(&a) {
                let inv = f.inv(&am).unwrap();
                assert_eq!(f.mul(&inv, &am), f.one);
            }
        }
        assert!(f.inv(&Fe([0; 4])).is_none());
    }
}
