//! A decoded value satisfies the SIZE constraints of its strings, so that it re-encodes.
//!
//! Found by the CI fuzz run of `ieee1609dot2_certificate` (libFuzzer seed 77287929): rasn 0.30's
//! C-OER decoder read a length-prefixed OCTET STRING or character string without checking its
//! SIZE constraint, while its encoder refuses such a value. A certificate whose `id` is
//! `binaryId` of 0 octets (`OCTET STRING (SIZE(1..64))`) decoded, and re-encoding it failed. The
//! vendored rasn now checks the constraint when decoding (third_party/rasn-oer-size-constraints.patch).

use proptest::prelude::*;
use v2x_wire::ieee1609dot2::*;
use v2x_wire::rasn;

/// The fuzzer's input (fuzz/seeds/ieee1609dot2_certificate/crash-binary-id-size-0): an explicit
/// certificate whose toBeSigned `id` is `binaryId` with length 0 (bytes 13-14, `82 00`).
const FUZZ_CRASH_BINARY_ID_SIZE_0: &str = "000300805955aaaaaaaaaaaa908200860000000000000001820010010100012480808 \
     211111111311111111111111111aaaaaaaaaaaa5aaa90830000000080030081010100";

fn crash_input() -> Vec<u8> {
    let hex: String = FUZZ_CRASH_BINARY_ID_SIZE_0.split_whitespace().collect();
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn the_fuzzers_certificate_with_an_empty_binary_id_is_refused() {
    let bytes = crash_input();
    assert_eq!(&bytes[13..15], &[0x82, 0x00], "the input is the one the fuzzer saved");
    // The input also sets toBeSigned's extension bit over an empty addition bitmap, which the
    // structural guard refuses first (strict_open_types.rs); rasn alone, without the guard,
    // refuses the binaryId's size.
    assert!(parse_certificate(&bytes).is_err());
    assert!(decode_exact::<Certificate>(&bytes).is_err());
    let err = rasn::coer::decode::<Certificate>(&bytes).expect_err("binaryId of 0 octets is outside SIZE(1..64)");
    assert!(format!("{err:?}").contains("SizeConstraintNotSatisfied"), "{err:?}");
}

/// `CertificateId.binaryId` of `n` octets, C-OER: tag [2], length, the octets.
fn binary_id(n: usize) -> Vec<u8> {
    let mut b = vec![0x82];
    if n < 128 {
        b.push(n as u8);
    } else {
        b.extend([0x81, n as u8]);
    }
    b.extend(std::iter::repeat_n(0x5A, n));
    b
}

/// `CertificateId.name` (Hostname, UTF8String (SIZE(0..255))) of `n` octets.
fn hostname(n: usize) -> Vec<u8> {
    let mut b = vec![0x81];
    match n {
        0..128 => b.push(n as u8),
        128..256 => b.extend([0x81, n as u8]),
        _ => b.extend([0x82, (n >> 8) as u8, n as u8]),
    }
    b.extend(std::iter::repeat_n(b'a', n));
    b
}

proptest! {
    /// binaryId decodes exactly when its length is in 1..=64, and then re-encodes to the input.
    #[test]
    fn binary_id_decodes_iff_its_size_is_allowed(n in 0usize..=200) {
        let bytes = binary_id(n);
        match rasn::coer::decode::<CertificateId>(&bytes) {
            Ok(id) => {
                prop_assert!((1..=64).contains(&n), "{n} octets accepted");
                prop_assert_eq!(rasn::coer::encode(&id).expect("re-encodes"), bytes);
            }
            Err(_) => prop_assert!(!(1..=64).contains(&n), "{n} octets refused"),
        }
    }

    /// The same for a character string: Hostname allows 0..=255 octets.
    #[test]
    fn hostname_decodes_iff_its_size_is_allowed(n in 0usize..=400) {
        let bytes = hostname(n);
        match rasn::coer::decode::<CertificateId>(&bytes) {
            Ok(id) => {
                prop_assert!(n <= 255, "{n} octets accepted");
                prop_assert_eq!(rasn::coer::encode(&id).expect("re-encodes"), bytes);
            }
            Err(_) => prop_assert!(n > 255, "{n} octets refused"),
        }
    }
}
