//! Constant-time comparison of secrets (MAC tags, wrapped keys): the one place it is done,
//! on `subtle`, so that a comparison's time says nothing about where two values differ.

use subtle::ConstantTimeEq;

/// `a == b` in time that depends only on the lengths (unequal lengths are unequal at once;
/// lengths are public in every protocol here).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

#[cfg(test)]
mod tests {
    use super::ct_eq;

    #[test]
    fn equal_and_unequal() {
        assert!(ct_eq(b"tag", b"tag"));
        assert!(!ct_eq(b"tag", b"tab"));
        assert!(!ct_eq(b"tag", b"tags"));
        assert!(ct_eq(b"", b""));
    }
}
