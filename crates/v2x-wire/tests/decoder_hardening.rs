//! Issue 11, defect 1: crafted certificates and messages whose forged SEQUENCE OF quantity
//! reached rasn past the structural pre-scan and aborted the process ("capacity overflow" in
//! rasn's `decode_sequence_of`), before any signature check. Both layers are tested on their own:
//! the pre-scan refuses the inputs, and the vendored rasn returns an error for them even without
//! the pre-scan. The inputs are built here, byte by byte, and kept in `vectors/regressions/`
//! (also fuzz seeds).

use v2x_wire::geonet::{secured_packet, GnPacket};
use v2x_wire::ieee1609dot2::*;
use v2x_wire::inspect::inspect_any;
use v2x_wire::rasn;

/// A quantity of 2^60 elements (8 octets).
const FORGED_QUANTITY: [u8; 9] = [0x08, 0x10, 0, 0, 0, 0, 0, 0, 0];

/// An explicit certificate's fields up to and including `toBeSigned.validityPeriod`:
/// preamble, version 3, type explicit, issuer sha256AndDigest, then toBeSigned's preamble,
/// id `none`, cracaId, crlSeries and validity (start, 16 seconds).
fn certificate_head(preamble: u8, tbs_preamble: u8) -> Vec<u8> {
    let mut b = vec![preamble, 3, 0, 0x80];
    b.extend([0xAA; 8]);
    b.extend([tbs_preamble, 0x83, 0, 0, 0, 0, 0]);
    b.extend([0, 0, 0, 1, 0x82, 0, 0x10]);
    b
}

/// toBeSigned preamble bits: the extension bit and `appPermissions` present.
const TBS_EXTENDED_WITH_APP_PERMISSIONS: u8 = 0x80 | 0x10;
/// `appPermissions`: one PsidSsp, PSID 36, no SSP.
const APP_PERMISSIONS: [u8; 5] = [0x01, 0x01, 0x00, 0x01, 0x24];

/// `verifyKeyIndicator`: verificationKey, ecdsaNistP256, compressed-y-0.
fn verify_key() -> Vec<u8> {
    let mut b = vec![0x80, 0x80, 0x82];
    b.extend([0x11; 32]);
    b
}

fn signature() -> Vec<u8> {
    let mut b = vec![0x80, 0x80];
    b.extend([0x22; 64]);
    b
}

/// The certificate of issue 11: no signature, and in toBeSigned an extension bitmap that says
/// "7 unused bits" while setting bit 1 (appExtensions). The pre-scan counted bit 0 only and
/// walked no addition; rasn reads bit 1 regardless and decoded the open type behind it:
/// `SequenceOfAppExtensions` (AppExtension<OperatingOrganizationExtension>) with a forged
/// quantity.
pub fn forged_app_extensions_certificate() -> Vec<u8> {
    let mut b = certificate_head(0x00, TBS_EXTENDED_WITH_APP_PERMISSIONS);
    b.extend(APP_PERMISSIONS);
    b.extend(verify_key());
    b.extend([0x02, 0x07, 0x40]);
    let mut app_extensions = FORGED_QUANTITY.to_vec();
    app_extensions.extend([0x01, 0x03, 0x2b, 0x06, 0x01]); // id 1, OID 1.3.6.1
    b.push(app_extensions.len() as u8);
    b.extend(app_extensions);
    b
}

/// An unsigned-in-effect CAM-like message (a digest signer that nobody knows and a dummy
/// signature: the crash happened before any signature check) whose `HeaderInfo` carries the
/// certificate above as `requestedCertificate`, the P2PCD response.
pub fn p2pcd_message_with(certificate: &[u8]) -> Vec<u8> {
    let mut b = vec![0x03, 0x81, 0x00]; // version 3, signedData, hashId sha256
    b.extend([0x40, 0x03, 0x80, 0x04, 1, 2, 3, 4]); // payload: data = unsecuredData(4 bytes)
    b.extend([0x80 | 0x40, 0x01, 0x24]); // headerInfo: extended, generationTime; psid 36
    b.extend(1_700_000_000_000_000u64.to_be_bytes());
    b.extend([0x02, 0x04, 0x40]); // additions: requestedCertificate
    oer::put_length_prefixed(&mut b, certificate);
    b.push(0x80); // signer: digest
    b.extend([0x33; 8]);
    b.extend(signature());
    b
}

/// A signed message whose signer is two certificates, the first with an extension addition
/// rasn-its does not model (bit 4 of toBeSigned's bitmap). The pre-scan skipped its open type
/// by length; rasn 0.30 does not read the open types of unmodelled additions and decoded the
/// open type's bytes as the certificate's signature and then as the second certificate, which
/// there holds a forged `appPermissions` quantity the pre-scan never saw.
pub fn misaligned_signer_message() -> Vec<u8> {
    // rasn's view of the open type: a brainpool signature whose R is uncompressed (0x81 0x84:
    // also the open type's long-form length, 132), 96 bytes, then its "second certificate".
    let mut hidden = certificate_head(0x00, 0x10);
    hidden.extend(FORGED_QUANTITY);
    let mut open = vec![0x55; 96];
    open.extend(&hidden);
    open.resize(132, 0);

    let mut first = certificate_head(0x80, TBS_EXTENDED_WITH_APP_PERMISSIONS);
    first.extend(APP_PERMISSIONS);
    first.extend(verify_key());
    first.extend([0x02, 0x03, 0x08]); // 5 bits, bit 4 set: a fifth addition
    first.extend([0x81, 0x84]);
    first.extend(&open);
    first.extend(signature());

    let mut b = vec![0x03, 0x81, 0x00];
    b.extend([0x40, 0x03, 0x80, 0x01, 0xAA]); // payload: data = unsecuredData(1 byte)
    b.extend([0x00, 0x01, 0x24]); // headerInfo: psid 36
    b.extend([0x81, 0x01, 0x02]); // signer: certificate, 2 of them
    b.extend(first);
    b.extend(at());
    b.extend(signature());
    b
}

fn at() -> Vec<u8> {
    let v: serde_json::Value = serde_json::from_str(include_str!("../../../vectors/test-pki-chain-p256.json")).unwrap();
    hex::decode(v["authorization_ticket"].as_str().unwrap()).unwrap()
}

const CERTIFICATE_VECTOR: &[u8] = include_bytes!("../../../vectors/regressions/forged-app-extensions-certificate.oer");
const MESSAGE_VECTOR: &[u8] = include_bytes!("../../../vectors/regressions/forged-app-extensions-p2pcd-message.oer");
const MISALIGNED_VECTOR: &[u8] = include_bytes!("../../../vectors/regressions/misaligned-signer-message.oer");

#[test]
fn the_committed_vectors_are_the_inputs_built_here() {
    assert_eq!(CERTIFICATE_VECTOR, forged_app_extensions_certificate());
    assert_eq!(MESSAGE_VECTOR, p2pcd_message_with(&forged_app_extensions_certificate()));
    assert_eq!(MISALIGNED_VECTOR, misaligned_signer_message());
}

fn assert_malformed<T: std::fmt::Debug>(r: Result<T, WireError>, what: &str) {
    match r {
        Err(WireError::Decode(DecodeFailure::Malformed(_)) | WireError::Unsupported(_)) => {}
        other => panic!("{what}: expected the pre-scan to refuse it, got {other:?}"),
    }
}

#[test]
fn forged_quantity_behind_unused_bitmap_bits_is_an_error() {
    let cert = forged_app_extensions_certificate();
    assert_malformed(parse_certificate(&cert), "parse_certificate");
    assert_malformed(decode_exact::<Certificate>(&cert), "Certificate");
    assert_malformed(
        decode_exact::<ts103097::EtsiTs103097Certificate>(&cert),
        "EtsiTs103097Certificate",
    );
    let msg = p2pcd_message_with(&cert);
    assert_malformed(parse_data(&msg), "parse_data");
    assert_malformed(decode_exact::<Ieee1609Dot2Data>(&msg), "Ieee1609Dot2Data");
    assert_malformed(decode_exact::<ts103097::EtsiTs103097Data>(&msg), "EtsiTs103097Data");
    for input in [cert.clone(), msg.clone(), secured_packet(&msg)] {
        assert!(inspect_any(&input).is_err());
    }
    assert!(matches!(
        GnPacket::parse(&secured_packet(&msg)),
        Ok(GnPacket::Secured { .. })
    ));
}

#[test]
fn forged_quantity_behind_an_unmodelled_extension_addition_is_an_error() {
    let msg = misaligned_signer_message();
    assert!(
        matches!(parse_data(&msg), Err(WireError::Unsupported(_))),
        "{:?}",
        parse_data(&msg)
    );
    assert_malformed(decode_exact::<Ieee1609Dot2Data>(&msg), "Ieee1609Dot2Data");
    assert!(inspect_any(&msg).is_err());
    assert!(inspect_any(&secured_packet(&msg)).is_err());
}

#[test]
fn patched_rasn_bounds_sequence_of_capacity() {
    // Straight to rasn, no pre-scan: rasn 0.30 as published panics with "capacity overflow"
    // on each of these; the vendored copy (third_party/rasn) returns an error.
    let cert = forged_app_extensions_certificate();
    assert!(rasn::coer::decode::<Certificate>(&cert).is_err());
    assert!(rasn::coer::decode::<Ieee1609Dot2Data>(&p2pcd_message_with(&cert)).is_err());
    assert!(rasn::coer::decode::<Ieee1609Dot2Data>(&misaligned_signer_message()).is_err());
    let mut bare = vec![0x81];
    bare.extend(FORGED_QUANTITY);
    assert!(rasn::coer::decode::<SignerIdentifier>(&bare).is_err());
    assert!(rasn::coer::decode::<SequenceOfPsidSsp>(&FORGED_QUANTITY).is_err());
}

#[test]
fn the_same_certificate_with_a_valid_bitmap_decodes() {
    // The crash input minus the forgery: bitmap with 6 unused bits and a one-element list.
    // This pins that the hardening refuses the forgery, not the construct.
    let mut b = certificate_head(0x00, TBS_EXTENDED_WITH_APP_PERMISSIONS);
    b.extend(APP_PERMISSIONS);
    b.extend(verify_key());
    b.extend([0x02, 0x06, 0x40, 0x07, 0x01, 0x01, 0x01, 0x03, 0x2b, 0x06, 0x01]);
    let tbs = decode_exact::<ToBeSignedCertificate>(&b[12..]).expect("toBeSigned decodes");
    assert_eq!(tbs.app_extensions.map(|e| e.0.len()), Some(1));
}

// ---------------------------------------------------------------------------------------------
// Property tests: forged quantities and bitmaps anywhere in encodings that use every extension
// addition rasn-its models, decoded with the pre-scan and with rasn alone (the patched paths).

mod forged {
    use super::*;
    use proptest::prelude::*;
    use v2x_wire::rasn::types::{FixedBitString, ObjectIdentifier};

    /// The test PKI's ticket with all four toBeSigned extension additions.
    fn extended_certificate() -> Certificate {
        let (at, _) = parse_certificate(&at()).unwrap();
        let mut base: CertificateBase = (*at).clone();
        let tbs = &mut base.to_be_signed;
        tbs.flags = Some(FixedBitString::new([0x80, 0, 0, 0, 0, 0, 0, 0]));
        tbs.app_extensions = Some(SequenceOfAppExtensions(vec![AppExtension {
            id: ExtId(1),
            content: OperatingOrganizationId(ObjectIdentifier::new(vec![1, 3, 6, 1, 4, 1, 99]).unwrap()),
        }]));
        tbs.cert_issue_extensions = Some(SequenceOfCertIssueExtensions(vec![CertIssueExtension::new_all()]));
        tbs.cert_request_extension = Some(SequenceOfCertRequestExtensions(vec![CertRequestExtension {
            id: ExtId(1),
            permissions: RequestPermissions::Content(()),
        }]));
        certificate_from_base(base).unwrap()
    }

    /// Valid encodings full of extension additions: the certificate, and signed data whose
    /// header carries it (requestedCertificate), an inline P2PCD request and contributed
    /// extensions, signed by it.
    fn seeds() -> Vec<Vec<u8>> {
        let cert = extended_certificate();
        let header = HeaderInfo::builder()
            .psid(v2x_wire::ItsAid::CAM.into())
            .generation_time(Time64(1))
            .inline_p2pcd_request(SequenceOfHashedId3(vec![hashed_id3_from([1, 2, 3])]))
            .requested_certificate(cert.clone())
            .contributed_extensions(ContributedExtensionBlocks(vec![
                ContributedExtensionBlockType::Ieee1609(ContributedExtensionBlock {
                    contributor_id: IEEE1609_HEADER_INFO_CONTRIBUTOR_ID,
                    extns: vec![Extension {
                        id: P2PCD8_BYTE_LEARNING_REQUEST_ID,
                        content: hashed_id8_from([3; 8]),
                    }],
                }),
            ]))
            .build();
        let sig = Signature::EcdsaNistP256(EcdsaP256Signature {
            r_sig: EccP256CurvePoint::XOnly([1; 32].into()),
            s_sig: [2; 32].into(),
        });
        let data = signed(
            HashAlgorithm::Sha256,
            to_be_signed_data(unsecured(vec![7; 20]), header).unwrap(),
            SignerIdentifier::Certificate(SequenceOfCertificate(vec![cert.clone()])),
            sig,
        );
        vec![
            encode(&cert).unwrap(),
            encode(&data).unwrap(),
            forged_app_extensions_certificate(),
            p2pcd_message_with(&forged_app_extensions_certificate()),
            misaligned_signer_message(),
        ]
    }

    /// Every decoder of untrusted 1609.2 bytes, with the pre-scan and without it.
    fn decode_everything(bytes: &[u8]) {
        let _ = parse_data(bytes);
        let _ = parse_certificate(bytes);
        let _ = decode_exact::<Ieee1609Dot2Data>(bytes);
        let _ = decode_exact::<HeaderInfo>(bytes);
        let _ = decode_exact::<ToBeSignedCertificate>(bytes);
        let _ = inspect_any(bytes);
        let _ = rasn::coer::decode::<Ieee1609Dot2Data>(bytes);
        let _ = rasn::coer::decode::<Certificate>(bytes);
        let _ = rasn::coer::decode::<HeaderInfo>(bytes);
        let _ = rasn::coer::decode::<ToBeSignedCertificate>(bytes);
        let _ = rasn::coer::decode::<SequenceOfCertificate>(bytes);
    }

    #[test]
    fn the_seeds_decode_through_every_extension_addition() {
        let s = seeds();
        let (cert, _) = parse_certificate(&s[0]).map_err(|e| format!("{e:?}")).unwrap();
        assert!(cert.to_be_signed.app_extensions.is_some() && cert.to_be_signed.cert_request_extension.is_some());
        let (data, _) = parse_data(&s[1]).unwrap();
        assert!(header_info(signed_data(&data).unwrap()).requested_certificate.is_some());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

        /// A SEQUENCE OF quantity of 1 to 8 octets with arbitrary value, spliced in anywhere
        /// (over 0 to 3 original bytes).
        #[test]
        fn forged_quantities_anywhere_never_panic(
            seed in 0usize..5,
            at in any::<usize>(),
            replaced in 0usize..4,
            len in 1u8..=8,
            value in any::<u64>(),
        ) {
            let mut bytes = seeds().swap_remove(seed);
            let at = at % bytes.len();
            let end = (at + replaced).min(bytes.len());
            let mut forged = vec![len];
            forged.extend_from_slice(&value.to_be_bytes()[8 - usize::from(len)..]);
            bytes.splice(at..end, forged);
            decode_everything(&bytes);
        }

        /// Extension bitmaps with any unused-bits count and any bits, wherever a bitmap-like
        /// `02 uu bb` could sit.
        #[test]
        fn forged_extension_bitmaps_never_panic(
            seed in 0usize..5,
            at in any::<usize>(),
            unused in any::<u8>(),
            bits in any::<u8>(),
        ) {
            let mut bytes = seeds().swap_remove(seed);
            let at = at % bytes.len();
            let end = (at + 3).min(bytes.len());
            bytes.splice(at..end, [0x02, unused, bits]);
            decode_everything(&bytes);
        }
    }
}
