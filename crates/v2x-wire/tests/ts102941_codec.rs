//! TS 102 941 protocol messages (`v2x_wire::ts102941`): every content alternative encodes and
//! decodes byte-exact, the nested spans point at the embedded 1609.2 data, forged lengths and
//! unknown extensions are typed errors; property tests: random bytes and mutated valid
//! encodings never panic, and what decodes re-encodes to what was received.

use proptest::prelude::*;
use v2x_wire::ieee1609dot2::*;
use v2x_wire::trust_list::{CtlFormat, ToBeSignedCrl};
use v2x_wire::ts102941::*;
// Both globs export an `encode`; this one is meant.
use v2x_wire::ieee1609dot2::encode;
use v2x_wire::ItsAid;

const CHAIN_JSON: &str = include_str!("../../../vectors/test-pki-chain-p256.json");

fn certificate() -> Certificate {
    let v: serde_json::Value = serde_json::from_str(CHAIN_JSON).unwrap();
    let at = hex::decode(v["authorization_ticket"].as_str().unwrap()).unwrap();
    parse_certificate(&at).unwrap().0
}

fn point(b: u8) -> EccP256CurvePoint {
    EccP256CurvePoint::CompressedY0([b; 32].into())
}

fn keys(with_encryption: bool) -> PublicKeys {
    PublicKeys {
        verification_key: PublicVerificationKey::EcdsaNistP256(point(4)),
        encryption_key: with_encryption.then(|| PublicEncryptionKey {
            supported_symm_alg: SymmAlgorithm::Aes128Ccm,
            public_key: BasePublicEncryptionKey::EciesNistP256(point(5)),
        }),
    }
}

fn attributes() -> CertificateSubjectAttributes {
    let mut a = CertificateSubjectAttributes::app(SequenceOfPsidSsp(vec![PsidSsp {
        psid: ItsAid::CAM.into(),
        ssp: Some(ServiceSpecificPermissions::BitmapSsp(BitmapSsp(
            vec![1, 0xff, 0xfc].into(),
        ))),
    }]));
    a.validity_period = Some(ValidityPeriod {
        start: Time32(100),
        duration: Duration::Hours(168),
    });
    a.assurance_level = Some(SubjectAssurance([0].into()));
    a
}

fn signed_data(payload: Vec<u8>, external: bool) -> Ieee1609Dot2Data {
    let sig = Signature::EcdsaNistP256(EcdsaP256Signature {
        r_sig: EccP256CurvePoint::XOnly([1; 32].into()),
        s_sig: [2; 32].into(),
    });
    let header = header_info_basic(ItsAid::CERT_REQUEST.into(), Some(Time64(42)));
    let tbs = if external {
        ToBeSignedData {
            payload: SignedDataPayload::builder()
                .ext_data_hash(HashedData::Sha256HashedData(HashedId32([9; 32].into())))
                .build()
                .unwrap(),
            header_info: header,
        }
    } else {
        to_be_signed_data(unsecured(payload), header).unwrap()
    };
    signed(HashAlgorithm::Sha256, tbs, SignerIdentifier::SelfSigned(()), sig)
}

fn encrypted_data() -> Ieee1609Dot2Data {
    Ieee1609Dot2Data {
        protocol_version: 3,
        content: Ieee1609Dot2Content::EncryptedData(EncryptedData {
            recipients: SequenceOfRecipientInfo(vec![RecipientInfo::PskRecipInfo(PreSharedKeyRecipientInfo(
                hashed_id8_from([7; 8]),
            ))]),
            ciphertext: SymmetricCiphertext::Aes128ccm(One28BitCcmCiphertext {
                nonce: [3; 12].into(),
                ccm_ciphertext: Opaque(vec![8; 40].into()),
            }),
        }),
    }
}

fn shared() -> SharedAtRequest {
    SharedAtRequest::new(hashed_id8_from([6; 8]), [5; 16], attributes())
}

/// One value of every content alternative.
fn contents() -> Vec<EtsiTs102941DataContent> {
    let inner = InnerEcRequest::new(b"vehicle".to_vec(), keys(true), attributes());
    vec![
        EtsiTs102941DataContent::EnrolmentRequest(signed_data(encode(&inner).unwrap(), false)),
        EtsiTs102941DataContent::EnrolmentResponse(InnerEcResponse::new(
            [1; 16],
            EnrolmentResponseCode::Ok,
            Some(certificate()),
        )),
        EtsiTs102941DataContent::EnrolmentResponse(InnerEcResponse::new(
            [1; 16],
            EnrolmentResponseCode::Baditsstatus,
            None,
        )),
        EtsiTs102941DataContent::AuthorizationRequest(InnerAtRequest::new(
            keys(true),
            [2; 32],
            shared(),
            EcSignature::EncryptedEcSignature(encrypted_data()),
        )),
        EtsiTs102941DataContent::AuthorizationRequest(InnerAtRequest::new(
            keys(false),
            [2; 32],
            shared(),
            EcSignature::EcSignature(signed_data(vec![], true)),
        )),
        EtsiTs102941DataContent::AuthorizationResponse(InnerAtResponse::new(
            [3; 16],
            AuthorizationResponseCode::Ok,
            Some(certificate()),
        )),
        EtsiTs102941DataContent::AuthorizationResponse(InnerAtResponse::new(
            [3; 16],
            AuthorizationResponseCode::Deniedtoomanycerts,
            None,
        )),
        EtsiTs102941DataContent::CertificateRevocationList(ToBeSignedCrl::new(
            Time32(1),
            Time32(2),
            vec![hashed_id8_from([1; 8])],
        )),
        EtsiTs102941DataContent::CertificateTrustListTlm(CtlFormat::new(Time32(5), true, 1, vec![])),
        EtsiTs102941DataContent::CertificateTrustListRca(CtlFormat::new(Time32(5), false, 2, vec![])),
        EtsiTs102941DataContent::AuthorizationValidationRequest(AuthorizationValidationRequest::new(
            shared(),
            EcSignature::EncryptedEcSignature(encrypted_data()),
        )),
        EtsiTs102941DataContent::AuthorizationValidationResponse(AuthorizationValidationResponse::new(
            [4; 16],
            AuthorizationValidationResponseCode::Ok,
            Some(attributes()),
        )),
        EtsiTs102941DataContent::AuthorizationValidationResponse(AuthorizationValidationResponse::new(
            [4; 16],
            AuthorizationValidationResponseCode::Wrongea,
            None,
        )),
        EtsiTs102941DataContent::CaCertificateRequest(CaCertificateRequest::new(keys(true), attributes())),
    ]
}

fn encodings() -> Vec<Vec<u8>> {
    contents()
        .into_iter()
        .map(|c| encode(&EtsiTs102941Data::v1(c)).unwrap())
        .collect()
}

#[test]
fn every_content_round_trips_byte_exact() {
    let kinds: Vec<&str> = contents().iter().map(|c| c.kind()).collect();
    for (bytes, kind) in encodings().iter().zip(kinds) {
        let d = decode(bytes).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(d.kind(), kind);
        assert_eq!(&encode(&d).unwrap(), bytes, "{kind}");
        // The legacy length-prefixed version octet decodes to the same value.
        let mut legacy = vec![0x01];
        legacy.extend_from_slice(bytes);
        assert_eq!(decode(&legacy).unwrap(), d);
    }
}

#[test]
fn nested_spans_point_at_the_embedded_data() {
    for (c, bytes) in contents().iter().zip(encodings()) {
        let spans = nested_spans(&bytes).unwrap();
        match c {
            EtsiTs102941DataContent::EnrolmentRequest(d) => {
                assert_eq!(bytes[spans.secured.unwrap()], encode(d).unwrap()[..]);
            }
            EtsiTs102941DataContent::AuthorizationRequest(r) => {
                let (EcSignature::EcSignature(d) | EcSignature::EncryptedEcSignature(d)) = &r.ec_signature;
                assert_eq!(bytes[spans.secured.unwrap()], encode(d).unwrap()[..]);
                assert_eq!(
                    bytes[spans.shared_at_request.unwrap()],
                    encode(&r.shared_at_request).unwrap()[..]
                );
            }
            EtsiTs102941DataContent::AuthorizationValidationRequest(r) => {
                let (EcSignature::EcSignature(d) | EcSignature::EncryptedEcSignature(d)) = &r.ec_signature;
                assert_eq!(bytes[spans.secured.unwrap()], encode(d).unwrap()[..]);
                assert_eq!(
                    bytes[spans.shared_at_request.unwrap()],
                    encode(&r.shared_at_request).unwrap()[..]
                );
            }
            _ => assert_eq!(spans, NestedSpans::default()),
        }
    }
}

#[test]
fn response_codes_have_their_asn1_names_in_order() {
    assert_eq!(EnrolmentResponseCode::ALL.len(), 14);
    assert_eq!(AuthorizationResponseCode::ALL.len(), 27);
    assert_eq!(AuthorizationValidationResponseCode::ALL.len(), 15);
    for (i, c) in AuthorizationResponseCode::ALL.iter().enumerate() {
        let bytes = encode(&InnerAtResponse::new([0; 16], *c, None)).unwrap();
        // preamble, 16 octets of hash, then the enumerated value.
        assert_eq!(bytes[17] as usize, i, "{}", c.name());
    }
    assert_eq!(
        AuthorizationResponseCode::ItsAaOutofsyncrequest.name(),
        "its-aa-outofsyncrequest"
    );
    assert_eq!(EnrolmentResponseCode::Baditsstatus.name(), "baditsstatus");
}

#[test]
fn forged_quantities_unknown_extensions_and_versions_are_typed_errors() {
    let crl = encode(&EtsiTs102941Data::v1(
        EtsiTs102941DataContent::CertificateRevocationList(ToBeSignedCrl::new(Time32(1), Time32(2), vec![])),
    ))
    .unwrap();
    // The CRL's entry count (last octets: quantity 1 byte long, 0 entries) set to 2^56.
    let mut forged = crl.clone();
    let n = forged.len();
    forged.truncate(n - 2);
    forged.extend_from_slice(&[0x07, 1, 0, 0, 0, 0, 0, 0]);
    assert!(decode(&forged).is_err());
    // Version 2.
    let mut v2 = crl.clone();
    v2[0] = 2;
    assert!(matches!(decode(&v2), Err(WireError::Unsupported(_))));
    // An extension addition in InnerEcResponse (preamble extension bit set): refused.
    let mut ext = encode(&EtsiTs102941Data::v1(EtsiTs102941DataContent::EnrolmentResponse(
        InnerEcResponse::new([0; 16], EnrolmentResponseCode::Cantparse, None),
    )))
    .unwrap();
    ext[2] |= 0x80;
    ext.extend_from_slice(&[0x02, 0x07, 0x80, 0x01, 0x00]);
    assert!(decode(&ext).is_err());
    // An extension alternative of the content (a link certificate) is refused, not misread.
    assert!(decode(&[0x01, 0x80 | 10, 0x02, 0xaa, 0xbb]).is_err());
    assert!(decode(&[]).is_err());
}

fn mutate(bytes: &[u8], at: usize, op: u8, v: u8) -> Vec<u8> {
    let mut m = bytes.to_vec();
    if m.is_empty() {
        return vec![v];
    }
    let at = at % m.len();
    match op % 3 {
        0 => m[at] ^= v | 1,
        1 => m.truncate(at),
        _ => m.insert(at, v),
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(d) = decode(&bytes) {
            prop_assert_eq!(decode(&encode(&d).unwrap()).unwrap(), d);
            let _ = nested_spans(&bytes);
        }
        let _ = decode_inner_ec_request(&bytes);
        let _ = decode_shared_at_request(&bytes);
    }

    #[test]
    fn mutated_messages_never_panic_and_what_decodes_is_what_was_sent(
        which in 0usize..14, at in any::<usize>(), op in any::<u8>(), v in any::<u8>()
    ) {
        let all = encodings();
        let m = mutate(&all[which % all.len()], at, op, v);
        if let Ok(d) = decode(&m) {
            // Canonical decoding: the value re-encodes to the received bytes (modulo the
            // legacy version form).
            let again = encode(&d).unwrap();
            prop_assert!(again == m || (m.first() == Some(&1) && again == m[1..]));
            let _ = nested_spans(&m);
        }
    }
}

#[test]
fn inspect_shows_every_message_and_the_one_inside_signed_data() {
    use v2x_wire::inspect::{inspect_any, Format};
    for (c, bytes) in contents().iter().zip(encodings()) {
        let i = inspect_any(&bytes).unwrap_or_else(|e| panic!("{}: {e}", c.kind()));
        assert_eq!(i.format, Format::Ts102941Data, "{}", c.kind());
        assert_eq!(i.tree.find("content").unwrap().value.as_deref(), Some(c.kind()));
        let text = i.tree.render_text();
        match c {
            EtsiTs102941DataContent::AuthorizationRequest(_) => {
                assert!(
                    text.contains("keyTag") && text.contains("hmacKey") && text.contains("ecSignature"),
                    "{text}"
                )
            }
            EtsiTs102941DataContent::EnrolmentRequest(_) => assert!(text.contains("itsId: 76656869636c65"), "{text}"),
            EtsiTs102941DataContent::AuthorizationResponse(r) => {
                assert!(text.contains(r.response_code.name()), "{text}")
            }
            _ => {}
        }
    }
    // Signed data whose unsecured payload is a TS 102 941 message (an enrolment response):
    // the message appears decoded under the payload.
    let resp = EtsiTs102941Data::v1(EtsiTs102941DataContent::EnrolmentResponse(InnerEcResponse::new(
        [1; 16],
        EnrolmentResponseCode::Unknownits,
        None,
    )));
    let signed = encode(&signed_data(encode(&resp).unwrap(), false)).unwrap();
    let i = inspect_any(&signed).unwrap();
    assert_eq!(i.format, Format::Ieee1609Dot2Data);
    assert!(
        i.tree.render_text().contains("responseCode: unknownits"),
        "{}",
        i.tree.render_text()
    );
}
