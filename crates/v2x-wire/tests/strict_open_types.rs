//! Issue 27, item 5: exact C-OER inside open types. An extension addition of `HeaderInfo`
//! whose open type holds more than its value is refused (DECAP step 1: exact C-OER), and the
//! X.696 form of `pduFunctionalType` — a one-octet open type holding the INTEGER (0..255) — is
//! read. Before (726a8c9) the opposite held: rasn 0.30 decoded an extension addition without
//! its type's constraints (reading `pduFunctionalType` as an unconstrained INTEGER) and never
//! checked that an open type was used up, so `01 35` was refused, trailing bytes were
//! accepted, and the 185-byte input CI's fuzz smoke found decoded, re-encoded to the standard
//! form and then failed to decode. Every test here failed on 726a8c9.

use v2x_wire::ieee1609dot2::*;
use v2x_wire::inspect::inspect_any;

/// The 185-byte input of CI's fuzz smoke (`ieee1609dot2_data`): `pduFunctionalType` in an
/// 84-byte open type (`54 01 35 00 80 aa ...`).
const FUZZ_INPUT: &[u8] = include_bytes!("../../../vectors/regressions/pdu-functional-type-trailing-bytes.oer");

/// Signed data (digest signer, x-only P-256 signature) of 4 unsecured bytes under PSID 36 with
/// a generation time, whose `HeaderInfo` carries extension addition `index` (0-based) with
/// `open` as its open type's content.
fn signed_with_addition(index: usize, open: &[u8]) -> Vec<u8> {
    let mut b = vec![0x03, 0x81, 0x00, 0x40, 0x03, 0x80, 0x04, 1, 2, 3, 4];
    b.extend([0xc0, 0x01, 0x24, 0x00, 0x06, 0x0a, 0x24, 0xbf, 0x00, 0x00, 0x00]);
    // Extension bitmap: 4 bits (inlineP2pcdRequest, requestedCertificate, pduFunctionalType,
    // contributedExtensions), one set.
    b.extend([0x02, 0x04, 0x80 >> index]);
    b.extend(length(open.len()));
    b.extend(open);
    b.push(0x80);
    b.extend([0xaa; 8]);
    b.extend([0x80, 0x80]);
    b.extend([0x11; 64]);
    b
}

fn length(n: usize) -> Vec<u8> {
    match n {
        0..=127 => vec![n as u8],
        128..=255 => vec![0x81, n as u8],
        _ => vec![0x82, (n >> 8) as u8, n as u8],
    }
}

fn at() -> Vec<u8> {
    let v: serde_json::Value = serde_json::from_str(include_str!("../../../vectors/test-pki-chain-p256.json")).unwrap();
    hex::decode(v["authorization_ticket"].as_str().unwrap()).unwrap()
}

#[test]
fn the_x696_form_of_pdu_functional_type_is_read_and_round_trips() {
    let m = signed_with_addition(2, &[0x35]);
    let (data, _) = parse_data(&m).unwrap();
    let header = header_info(signed_data(&data).unwrap());
    assert_eq!(header.pdu_functional_type.as_ref().map(|t| t.0), Some(0x35));
    // Our encoder writes the same bytes back.
    assert_eq!(encode(&data).unwrap(), m);
}

#[test]
fn trailing_bytes_inside_an_open_type_are_refused() {
    let mut open = vec![0x35];
    open.extend([0xaa; 80]);
    assert!(parse_data(&signed_with_addition(2, &open)).is_err());
    let mut cert = at();
    assert!(parse_data(&signed_with_addition(1, &cert)).is_ok());
    cert.extend([0x55; 10]);
    assert!(parse_data(&signed_with_addition(1, &cert)).is_err());
    assert!(inspect_any(&signed_with_addition(1, &cert)).is_err());
}

#[test]
fn ci_fuzz_input_is_refused_so_the_round_trip_holds() {
    assert!(parse_data(FUZZ_INPUT).is_err());
    assert!(inspect_any(FUZZ_INPUT).is_err());
}

#[test]
fn the_requested_certificate_span_is_the_received_certificate() {
    let cert = at();
    let m = signed_with_addition(1, &cert);
    let (_, spans) = parse_data(&m).unwrap();
    let range = spans.unwrap().requested_certificate.unwrap();
    assert_eq!(&m[range], &cert[..]);
}

/// A SEQUENCE whose extension bit is set over an addition bitmap with no bit set is a second
/// encoding of the value without additions. `rasn` 0.30 decodes it and writes it back without
/// the bitmap; the structural guard refuses it (found by a fuzz campaign of `mbd_report`,
/// whose evidence certificate had this form in its toBeSigned).
#[test]
fn an_extension_bit_over_an_empty_addition_bitmap_is_refused() {
    // HeaderInfo: extension bit, no optional field, PSID 36, bitmap `01 00`.
    let header = [0x80, 0x01, 0x24, 0x01, 0x00];
    let h: HeaderInfo = v2x_wire::rasn::coer::decode(&header).expect("rasn alone accepts it");
    assert_eq!(
        encode_header_info(&h).unwrap(),
        [0x00, 0x01, 0x24],
        "and re-encodes it differently"
    );
    assert!(decode_exact::<HeaderInfo>(&header).is_err());
    // The same in a certificate's toBeSigned (the fuzz input's form): an explicit
    // certificate without signature, issuer self (SHA-256), toBeSigned with id `none`,
    // cracaId, crlSeries, validity (start 1, 16 hours) and a compressed P-256 key.
    let certificate = |tbs_preamble: u8, bitmap: &[u8]| {
        let mut c = vec![0x00, 0x03, 0x00, 0x81, 0x00, tbs_preamble, 0x83];
        c.extend([0, 0, 0, 0, 0, 0, 0, 0, 1, 0x82, 0x00, 0x10, 0x80, 0x80, 0x82]);
        c.extend([0x11; 32]);
        c.extend(bitmap);
        c
    };
    assert!(
        parse_certificate(&certificate(0x00, &[])).is_ok(),
        "the canonical form decodes"
    );
    assert!(
        parse_certificate(&certificate(0x80, &[0x01, 0x00])).is_err(),
        "the extension bit over an empty bitmap is refused"
    );
}
