//! Short-Weierstrass points in Jacobian coordinates (x = X/Z², y = Y/Z³) over a
//! [`Group`], with the formulas of the Explicit-Formulas Database (dbl-2001-b for a = -3,
//! dbl-2007-bl otherwise, madd-2007-bl, add-2007-bl). Variable time: public keys and
//! signatures only (see the module note in `field.rs`).

use super::field::{Fe, Limbs, Modulus};
use crate::Curve;
use openssl::bn::{BigNum, BigNumContext};
use openssl::ec::EcGroup;

/// An affine point (Montgomery coordinates); never the point at infinity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Affine<const N: usize> {
    pub(crate) x: Fe<N>,
    pub(crate) y: Fe<N>,
}

/// A Jacobian point; Z = 0 is the point at infinity.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Jacobian<const N: usize> {
    pub(crate) x: Fe<N>,
    pub(crate) y: Fe<N>,
    pub(crate) z: Fe<N>,
}

/// A curve y² = x³ + ax + b over F_p with a base point of prime order n.
#[derive(Debug)]
pub(crate) struct Group<const N: usize> {
    pub(crate) p: Modulus<N>,
    pub(crate) n: Modulus<N>,
    a: Fe<N>,
    b: Fe<N>,
    a_is_minus_3: bool,
    pub(crate) g: Affine<N>,
    /// (p + 1) / 4: every curve here has p ≡ 3 (mod 4), so √v = v^((p+1)/4).
    sqrt_exp: Limbs<N>,
    /// Field element length in bytes.
    pub(crate) len: usize,
}

impl<const N: usize> Group<N> {
    /// Takes the domain parameters from OpenSSL's built-in curve (no hand-typed constants).
    pub(crate) fn new(curve: Curve) -> Group<N> {
        let group = EcGroup::from_curve_name(curve.nid()).expect("built-in curve");
        let mut ctx = BigNumContext::new().expect("BN_CTX");
        let (mut p, mut a, mut b) = (BigNum::new().unwrap(), BigNum::new().unwrap(), BigNum::new().unwrap());
        group
            .components_gfp(&mut p, &mut a, &mut b, &mut ctx)
            .expect("curve components");
        let mut n = BigNum::new().unwrap();
        group.order(&mut n, &mut ctx).expect("order");
        let (mut gx, mut gy) = (BigNum::new().unwrap(), BigNum::new().unwrap());
        group
            .generator_opt()
            .expect("named curves have a generator")
            .affine_coordinates(&group, &mut gx, &mut gy, &mut ctx)
            .expect("generator");
        let len = curve.field_len();
        let bytes = |v: &BigNum| v.to_vec_padded(len as i32).expect("fits the field");
        let fp = Modulus::<N>::new(&bytes(&p));
        let fn_ = Modulus::<N>::new(&bytes(&n));
        let mut p_minus_3 = BigNum::new().unwrap();
        p_minus_3.checked_sub(&p, &BigNum::from_u32(3).unwrap()).unwrap();
        let a_is_minus_3 = a == p_minus_3;
        let mut e = BigNum::new().unwrap();
        e.checked_add(&p, &BigNum::from_u32(1).unwrap()).unwrap();
        let mut sqrt_exp = BigNum::new().unwrap();
        sqrt_exp.rshift(&e, 2).unwrap();
        assert!(p.is_bit_set(0) && p.is_bit_set(1), "p ≡ 3 mod 4 for the square root");
        let mont = |v: &BigNum| fp.parse_be(&bytes(v)).expect("below p");
        assert!(n < p, "n < p: r is always a field element");
        Group {
            a: mont(&a),
            b: mont(&b),
            a_is_minus_3,
            g: Affine {
                x: mont(&gx),
                y: mont(&gy),
            },
            sqrt_exp: super::field::from_be_bytes(&bytes(&sqrt_exp)).unwrap(),
            p: fp,
            n: fn_,
            len,
        }
    }

    pub(crate) fn infinity(&self) -> Jacobian<N> {
        Jacobian {
            x: self.p.one,
            y: self.p.one,
            z: Fe([0; N]),
        }
    }

    pub(crate) fn to_jacobian(&self, a: &Affine<N>) -> Jacobian<N> {
        Jacobian {
            x: a.x,
            y: a.y,
            z: self.p.one,
        }
    }

    pub(crate) fn is_infinity(&self, p: &Jacobian<N>) -> bool {
        self.p.is_zero(&p.z)
    }

    pub(crate) fn neg_affine(&self, a: &Affine<N>) -> Affine<N> {
        Affine {
            x: a.x,
            y: self.p.neg(&a.y),
        }
    }

    /// y² = x³ + ax + b.
    pub(crate) fn on_curve(&self, x: &Fe<N>, y: &Fe<N>) -> bool {
        let f = &self.p;
        let rhs = f.add(&f.mul(&f.add(&f.sqr(x), &self.a), x), &self.b);
        f.sqr(y) == rhs
    }

    /// The affine point from uncompressed big-endian coordinates, checked on the curve.
    pub(crate) fn affine_from_be(&self, x: &[u8], y: &[u8]) -> Option<Affine<N>> {
        let (x, y) = (self.p.parse_be(x)?, self.p.parse_be(y)?);
        self.on_curve(&x, &y).then_some(Affine { x, y })
    }

    /// The affine point with x (big-endian) and the given parity of y, if x is on the curve.
    pub(crate) fn decompress(&self, x: &[u8], y_odd: bool) -> Option<Affine<N>> {
        let f = &self.p;
        let x = f.parse_be(x)?;
        let rhs = f.add(&f.mul(&f.add(&f.sqr(&x), &self.a), &x), &self.b);
        let y = f.pow(&rhs, &self.sqrt_exp);
        if f.sqr(&y) != rhs {
            return None;
        }
        let odd = f.to_plain(&y)[0] & 1 == 1;
        let y = if odd == y_odd { y } else { f.neg(&y) };
        // y = 0 has only the even form.
        ((f.to_plain(&y)[0] & 1 == 1) == y_odd).then_some(Affine { x, y })
    }

    pub(crate) fn double(&self, pt: &Jacobian<N>) -> Jacobian<N> {
        let f = &self.p;
        if self.is_infinity(pt) || f.is_zero(&pt.y) {
            return self.infinity();
        }
        if self.a_is_minus_3 {
            // dbl-2001-b: 3M + 5S
            let delta = f.sqr(&pt.z);
            let gamma = f.sqr(&pt.y);
            let beta = f.mul(&pt.x, &gamma);
            let t = f.mul(&f.sub(&pt.x, &delta), &f.add(&pt.x, &delta));
            let alpha = f.add(&f.dbl(&t), &t);
            let beta4 = f.dbl(&f.dbl(&beta));
            let x3 = f.sub(&f.sqr(&alpha), &f.dbl(&beta4));
            let yz = f.add(&pt.y, &pt.z);
            let z3 = f.sub(&f.sub(&f.sqr(&yz), &gamma), &delta);
            let gamma2 = f.sqr(&gamma);
            let g8 = f.dbl(&f.dbl(&f.dbl(&gamma2)));
            let y3 = f.sub(&f.mul(&alpha, &f.sub(&beta4, &x3)), &g8);
            Jacobian { x: x3, y: y3, z: z3 }
        } else {
            // dbl-2007-bl: 1M + 8S + 1*a
            let xx = f.sqr(&pt.x);
            let yy = f.sqr(&pt.y);
            let yyyy = f.sqr(&yy);
            let zz = f.sqr(&pt.z);
            let xyy = f.add(&pt.x, &yy);
            let s = f.dbl(&f.sub(&f.sub(&f.sqr(&xyy), &xx), &yyyy));
            let m = f.add(&f.add(&f.dbl(&xx), &xx), &f.mul(&self.a, &f.sqr(&zz)));
            let t = f.sub(&f.sqr(&m), &f.dbl(&s));
            let y8 = f.dbl(&f.dbl(&f.dbl(&yyyy)));
            let y3 = f.sub(&f.mul(&m, &f.sub(&s, &t)), &y8);
            let yz = f.add(&pt.y, &pt.z);
            let z3 = f.sub(&f.sub(&f.sqr(&yz), &yy), &zz);
            Jacobian { x: t, y: y3, z: z3 }
        }
    }

    /// pt + q with q affine (madd-2007-bl, 7M + 4S), every special case handled.
    #[inline]
    pub(crate) fn add_affine(&self, pt: &Jacobian<N>, q: &Affine<N>) -> Jacobian<N> {
        let f = &self.p;
        if self.is_infinity(pt) {
            return self.to_jacobian(q);
        }
        let z1z1 = f.sqr(&pt.z);
        let u2 = f.mul(&q.x, &z1z1);
        let s2 = f.mul(&f.mul(&q.y, &pt.z), &z1z1);
        let h = f.sub(&u2, &pt.x);
        let r = f.dbl(&f.sub(&s2, &pt.y));
        if f.is_zero(&h) {
            return if f.is_zero(&r) {
                self.double(pt)
            } else {
                self.infinity()
            };
        }
        let hh = f.sqr(&h);
        let i = f.dbl(&f.dbl(&hh));
        let j = f.mul(&h, &i);
        let v = f.mul(&pt.x, &i);
        let x3 = f.sub(&f.sub(&f.sqr(&r), &j), &f.dbl(&v));
        let y3 = f.sub(&f.mul(&r, &f.sub(&v, &x3)), &f.dbl(&f.mul(&pt.y, &j)));
        let zh = f.add(&pt.z, &h);
        let z3 = f.sub(&f.sub(&f.sqr(&zh), &z1z1), &hh);
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// pt + q, both Jacobian (add-2007-bl, 11M + 5S), every special case handled.
    pub(crate) fn add(&self, pt: &Jacobian<N>, q: &Jacobian<N>) -> Jacobian<N> {
        let f = &self.p;
        if self.is_infinity(pt) {
            return *q;
        }
        if self.is_infinity(q) {
            return *pt;
        }
        let z1z1 = f.sqr(&pt.z);
        let z2z2 = f.sqr(&q.z);
        let u1 = f.mul(&pt.x, &z2z2);
        let u2 = f.mul(&q.x, &z1z1);
        let s1 = f.mul(&f.mul(&pt.y, &q.z), &z2z2);
        let s2 = f.mul(&f.mul(&q.y, &pt.z), &z1z1);
        let h = f.sub(&u2, &u1);
        let r = f.dbl(&f.sub(&s2, &s1));
        if f.is_zero(&h) {
            return if f.is_zero(&r) {
                self.double(pt)
            } else {
                self.infinity()
            };
        }
        let i = f.sqr(&f.dbl(&h));
        let j = f.mul(&h, &i);
        let v = f.mul(&u1, &i);
        let x3 = f.sub(&f.sub(&f.sqr(&r), &j), &f.dbl(&v));
        let y3 = f.sub(&f.mul(&r, &f.sub(&v, &x3)), &f.dbl(&f.mul(&s1, &j)));
        let zz = f.add(&pt.z, &q.z);
        let z3 = f.mul(&f.sub(&f.sub(&f.sqr(&zz), &z1z1), &z2z2), &h);
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// Affine form of many points with one inversion (Montgomery's trick); None for any
    /// point at infinity.
    pub(crate) fn batch_to_affine(&self, pts: &[Jacobian<N>]) -> Option<Vec<Affine<N>>> {
        let f = &self.p;
        let mut prefix = Vec::with_capacity(pts.len());
        let mut acc = f.one;
        for p in pts {
            if self.is_infinity(p) {
                return None;
            }
            prefix.push(acc);
            acc = f.mul(&acc, &p.z);
        }
        let mut inv = f.inv(&acc)?;
        let mut out = vec![Affine { x: f.one, y: f.one }; pts.len()];
        for i in (0..pts.len()).rev() {
            let zinv = f.mul(&inv, &prefix[i]);
            inv = f.mul(&inv, &pts[i].z);
            let zinv2 = f.sqr(&zinv);
            out[i] = Affine {
                x: f.mul(&pts[i].x, &zinv2),
                y: f.mul(&pts[i].y, &f.mul(&zinv2, &zinv)),
            };
        }
        Some(out)
    }

    pub(crate) fn to_affine(&self, pt: &Jacobian<N>) -> Option<Affine<N>> {
        self.batch_to_affine(std::slice::from_ref(pt)).map(|mut v| v.remove(0))
    }
}
