//! The v1.2.1 decoder never panics on random or mutated bytes, and whatever it accepts
//! re-encodes to exactly the input (canonical decoding).

use proptest::prelude::*;
use v2x_wire::v1_2_1::*;

fn sample_message() -> Vec<u8> {
    let fs = 32;
    let cert = Certificate {
        version: 2,
        signer_info: SignerInfo::CertificateDigestWithSha256([1; 8]),
        subject_info: SubjectInfo {
            subject_type: SubjectType::AUTHORIZATION_TICKET,
            subject_name: vec![],
        },
        subject_attributes: vec![
            SubjectAttribute::VerificationKey(PublicKey::Ecdsa {
                algorithm: PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
                key: EccPoint::CompressedLsbY0(vec![9; fs]),
            }),
            SubjectAttribute::AssuranceLevel(0xe0),
            SubjectAttribute::ItsAidSspList(vec![ItsAidSsp {
                its_aid: 36,
                service_specific_permissions: vec![1, 0, 0],
            }]),
        ],
        validity_restrictions: vec![
            ValidityRestriction::TimeStartAndEnd { start: 1, end: 2 },
            ValidityRestriction::Region(GeographicRegion::Circle {
                center: TwoDLocation {
                    latitude: 1,
                    longitude: 2,
                },
                radius: 3,
            }),
        ],
        signature: Signature::Ecdsa {
            algorithm: PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
            r: EccPoint::XCoordinateOnly(vec![2; fs]),
            s: vec![3; fs],
        },
    };
    SecuredMessage {
        header_fields: vec![
            HeaderField::SignerInfo(SignerInfo::Certificate(Box::new(cert))),
            HeaderField::GenerationTime(42),
            HeaderField::GenerationLocation(ThreeDLocation {
                latitude: 1,
                longitude: 2,
                elevation: [0, 1],
            }),
            HeaderField::ItsAid(37),
            HeaderField::EncryptionParameters(EncryptionParameters::AesCcm {
                algorithm: SymmetricAlgorithm::AES_128_CCM,
                nonce: [4; 12],
            }),
            HeaderField::RecipientInfo(vec![RecipientInfo {
                cert_id: [5; 8],
                pk_encryption: PublicKeyAlgorithm::ECIES_NISTP256,
                enc_key: EncryptedKey::Ecies(EciesEncryptedKey {
                    v: EccPoint::CompressedLsbY1(vec![6; fs]),
                    c: vec![7; 16],
                    t: [8; 16],
                }),
            }]),
        ],
        payload: Payload {
            payload_type: PayloadType::SIGNED_AND_ENCRYPTED,
            data: vec![0xee; 20],
        },
        trailer_fields: vec![TrailerField::Signature(Signature::Ecdsa {
            algorithm: PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
            r: EccPoint::XCoordinateOnly(vec![2; fs]),
            s: vec![3; fs],
        })],
    }
    .to_bytes()
}

fn check(bytes: &[u8]) {
    if let Ok(m) = SecuredMessage::from_bytes(bytes) {
        assert_eq!(m.to_bytes(), bytes);
        let _ = m.to_be_signed();
    }
    if let Ok(c) = Certificate::from_bytes(bytes) {
        assert_eq!(c.to_bytes(), bytes);
        let _ = c.canonical_bytes();
    }
    let _ = inspect(bytes);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check(&bytes);
        let mut with_version = vec![2u8];
        with_version.extend_from_slice(&bytes);
        check(&with_version);
    }

    #[test]
    fn mutated_messages_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6), cut in any::<usize>()) {
        let mut bytes = sample_message();
        for (i, b) in edits {
            let n = bytes.len();
            bytes[i % n] = b;
        }
        check(&bytes);
        let keep = cut % (bytes.len() + 1);
        check(&bytes[..keep]);
    }
}

#[test]
fn sample_decodes() {
    let b = sample_message();
    assert_eq!(SecuredMessage::from_bytes(&b).unwrap().to_bytes(), b);
    // The embedded certificate decodes by itself too.
    let m = SecuredMessage::from_bytes(&b).unwrap();
    if let Some(SignerInfo::Certificate(c)) = m.signer_info() {
        assert_eq!(Certificate::from_bytes(&c.to_bytes()).unwrap(), **c);
    } else {
        panic!("signer is a certificate");
    }
}
