//! Round trips of every v1.2.1 structure, hand-checked byte layouts, and the error
//! offsets of malformed input.

use v2x_wire::inspect::v1_2_1_tree as inspect;
use v2x_wire::v1_2_1::*;

fn p256_point(t: u8) -> EccPoint {
    match t {
        0 => EccPoint::XCoordinateOnly(vec![0x11; 32]),
        2 => EccPoint::CompressedLsbY0(vec![0x22; 32]),
        3 => EccPoint::CompressedLsbY1(vec![0x33; 32]),
        _ => EccPoint::Uncompressed {
            x: vec![0x44; 32],
            y: vec![0x55; 32],
        },
    }
}

fn sig(alg: PublicKeyAlgorithm) -> Signature {
    let fs = alg.field_size().unwrap();
    Signature::Ecdsa {
        algorithm: alg,
        r: EccPoint::XCoordinateOnly(vec![0xa1; fs]),
        s: vec![0xb2; fs],
    }
}

fn every_region() -> Vec<GeographicRegion> {
    let a = TwoDLocation {
        latitude: 487_000_000,
        longitude: 91_000_000,
    };
    let b = TwoDLocation {
        latitude: -487_000_000,
        longitude: -91_000_000,
    };
    vec![
        GeographicRegion::None,
        GeographicRegion::Circle {
            center: a,
            radius: 3000,
        },
        GeographicRegion::Rectangle(vec![RectangularRegion {
            northwest: a,
            southeast: b,
        }]),
        GeographicRegion::Polygon(vec![
            a,
            b,
            TwoDLocation {
                latitude: 1,
                longitude: 2,
            },
        ]),
        GeographicRegion::Id {
            dictionary: 0,
            identifier: 276,
            local_region: 300,
        },
        GeographicRegion::Other {
            region_type: 250,
            data: vec![1, 2, 3],
        },
    ]
}

fn cert(signer: SignerInfo, alg: PublicKeyAlgorithm, region: GeographicRegion) -> Certificate {
    let fs = alg.field_size().unwrap();
    let curve = alg.curve().unwrap();
    Certificate {
        version: 2,
        signer_info: signer,
        subject_info: SubjectInfo {
            subject_type: SubjectType::AUTHORIZATION_TICKET,
            subject_name: vec![],
        },
        subject_attributes: vec![
            SubjectAttribute::VerificationKey(PublicKey::Ecdsa {
                algorithm: alg,
                key: EccPoint::CompressedLsbY0(vec![9; fs]),
            }),
            SubjectAttribute::EncryptionKey(PublicKey::Ecies {
                algorithm: PublicKeyAlgorithm::ecies(curve),
                supported_symm_alg: SymmetricAlgorithm::AES_128_CCM,
                key: EccPoint::Uncompressed {
                    x: vec![1; fs],
                    y: vec![2; fs],
                },
            }),
            SubjectAttribute::AssuranceLevel(0b1110_0001),
            SubjectAttribute::ReconstructionValue(p256_point(3)),
            SubjectAttribute::ItsAidList(vec![36, 37, 16_384]),
            SubjectAttribute::ItsAidSspList(vec![
                ItsAidSsp {
                    its_aid: 36,
                    service_specific_permissions: vec![1, 0, 0],
                },
                ItsAidSsp {
                    its_aid: 37,
                    service_specific_permissions: vec![1, 0xff, 0xff, 0xff],
                },
            ]),
            SubjectAttribute::Other {
                attribute_type: 99,
                data: vec![7],
            },
        ],
        validity_restrictions: vec![
            ValidityRestriction::TimeEnd(400_000_000),
            ValidityRestriction::TimeStartAndEnd {
                start: 300_000_000,
                end: 400_000_000,
            },
            ValidityRestriction::TimeStartAndDuration {
                start: 300_000_000,
                duration: Duration::new(Duration::YEARS, 2).unwrap(),
            },
            ValidityRestriction::Region(region),
            ValidityRestriction::Other {
                restriction_type: 77,
                data: vec![],
            },
        ],
        signature: sig(alg),
    }
}

fn round_trip_cert(c: &Certificate) {
    let bytes = c.to_bytes();
    let back = Certificate::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e} in {}", hex::encode(&bytes)));
    assert_eq!(&back, c);
    assert_eq!(back.to_bytes(), bytes);
    inspect(&bytes).unwrap();
}

#[test]
fn certificates_round_trip_for_every_signer_region_and_algorithm() {
    let algs = [
        PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
        PublicKeyAlgorithm::ECDSA_NISTP384_WITH_SHA384,
        PublicKeyAlgorithm::ECDSA_BRAINPOOLP256R1_WITH_SHA256,
        PublicKeyAlgorithm::ECDSA_BRAINPOOLP384R1_WITH_SHA384,
    ];
    for alg in algs {
        for region in every_region() {
            let root = cert(SignerInfo::SelfSigned, alg, region.clone());
            round_trip_cert(&root);
            let signers = vec![
                SignerInfo::CertificateDigestWithSha256([1, 2, 3, 4, 5, 6, 7, 8]),
                SignerInfo::Certificate(Box::new(root.clone())),
                SignerInfo::CertificateChain(vec![root.clone(), root.clone()]),
                SignerInfo::CertificateDigestWithOtherAlgorithm {
                    algorithm: alg,
                    digest: [8; 8],
                },
                SignerInfo::Other {
                    signer_type: 200,
                    data: vec![1, 2],
                },
            ];
            for s in signers {
                round_trip_cert(&cert(s, alg, region.clone()));
            }
        }
    }
}

#[test]
fn subject_types_round_trip() {
    for t in 0..=6 {
        let mut c = cert(
            SignerInfo::SelfSigned,
            PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
            GeographicRegion::None,
        );
        c.subject_info = SubjectInfo {
            subject_type: SubjectType(t),
            subject_name: b"root".to_vec(),
        };
        round_trip_cert(&c);
    }
}

fn message(headers: Vec<HeaderField>, payload_type: PayloadType, trailer: Vec<TrailerField>) -> SecuredMessage {
    SecuredMessage {
        header_fields: headers,
        payload: Payload {
            payload_type,
            data: b"payload".to_vec(),
        },
        trailer_fields: trailer,
    }
}

#[test]
fn messages_round_trip_for_every_header_payload_and_trailer() {
    let c = cert(
        SignerInfo::CertificateDigestWithSha256([3; 8]),
        PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
        GeographicRegion::None,
    );
    let headers = vec![
        HeaderField::GenerationTime(123_456_789_000),
        HeaderField::GenerationTimeWithStandardDeviation(Time64WithStandardDeviation {
            time: 5,
            log_std_dev: 3,
        }),
        HeaderField::Expiration(400_000_000),
        HeaderField::GenerationLocation(ThreeDLocation {
            latitude: -1,
            longitude: 2,
            elevation: [0xf0, 0x01],
        }),
        HeaderField::RequestUnrecognizedCertificate(vec![[1, 2, 3], [4, 5, 6]]),
        HeaderField::ItsAid(37),
        HeaderField::SignerInfo(SignerInfo::Certificate(Box::new(c))),
        HeaderField::EncryptionParameters(EncryptionParameters::AesCcm {
            algorithm: SymmetricAlgorithm::AES_128_CCM,
            nonce: [7; 12],
        }),
        HeaderField::RecipientInfo(vec![RecipientInfo {
            cert_id: [9; 8],
            pk_encryption: PublicKeyAlgorithm::ECIES_NISTP256,
            enc_key: EncryptedKey::Ecies(EciesEncryptedKey {
                v: p256_point(2),
                c: vec![0xcc; 16],
                t: [0xdd; 16],
            }),
        }]),
        HeaderField::Other {
            field_type: 200,
            data: vec![1, 2, 3],
        },
    ];
    for pt in 0..=5 {
        let mut m = message(
            headers.clone(),
            PayloadType(pt),
            vec![
                TrailerField::Other {
                    field_type: 9,
                    data: vec![1],
                },
                TrailerField::Signature(sig(PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256)),
            ],
        );
        if pt == 3 {
            m.payload.data.clear();
        }
        let bytes = m.to_bytes();
        let back = SecuredMessage::from_bytes(&bytes).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.to_bytes(), bytes);
        assert!(looks_like_v1_2_1(&bytes));
        let tree = inspect(&bytes).unwrap();
        assert!(tree.render_text().contains("request_unrecognized_certificate"));
    }
}

#[test]
fn aes256_and_extension_recipients_round_trip() {
    for (pk, sym, klen) in [
        (PublicKeyAlgorithm::ECIES_NISTP256, SymmetricAlgorithm::AES_256_CCM, 32),
        (PublicKeyAlgorithm::ECIES_NISTP384, SymmetricAlgorithm::AES_128_CCM, 16),
        (
            PublicKeyAlgorithm::ECIES_BRAINPOOLP384R1,
            SymmetricAlgorithm::AES_256_CCM,
            32,
        ),
        (
            PublicKeyAlgorithm::ECIES_BRAINPOOLP256R1,
            SymmetricAlgorithm::AES_128_CCM,
            16,
        ),
    ] {
        let fs = pk.field_size().unwrap();
        let m = message(
            vec![
                HeaderField::SignerInfo(SignerInfo::CertificateDigestWithSha256([1; 8])),
                HeaderField::EncryptionParameters(EncryptionParameters::AesCcm {
                    algorithm: sym,
                    nonce: [1; 12],
                }),
                HeaderField::RecipientInfo(vec![
                    RecipientInfo {
                        cert_id: [2; 8],
                        pk_encryption: pk,
                        enc_key: EncryptedKey::Ecies(EciesEncryptedKey {
                            v: EccPoint::CompressedLsbY1(vec![3; fs]),
                            c: vec![4; klen],
                            t: [5; 16],
                        }),
                    };
                    2
                ]),
            ],
            PayloadType::ENCRYPTED,
            vec![],
        );
        let bytes = m.to_bytes();
        assert_eq!(SecuredMessage::from_bytes(&bytes).unwrap(), m, "{pk:?} {sym:?}");
    }
}

/// A signed CAM with a digest signer, laid out by hand from §5 to check every length.
#[test]
fn signed_cam_with_digest_has_the_hand_computed_layout() {
    let m = message(
        vec![
            HeaderField::SignerInfo(SignerInfo::CertificateDigestWithSha256([0xab; 8])),
            HeaderField::GenerationTime(0x0102_0304_0506_0708),
            HeaderField::ItsAid(36),
        ],
        PayloadType::SIGNED,
        vec![TrailerField::Signature(sig(
            PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
        ))],
    );
    let bytes = m.to_bytes();
    let mut expected = vec![2u8];
    expected.push(10 + 9 + 2); // header_fields length: signer (1+1+8), time (1+8), its_aid (1+1)
    expected.extend_from_slice(&[128, 1]);
    expected.extend_from_slice(&[0xab; 8]);
    expected.extend_from_slice(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expected.extend_from_slice(&[5, 36]);
    expected.extend_from_slice(&[1, 7]);
    expected.extend_from_slice(b"payload");
    expected.push(67); // trailer_fields length: type + algorithm + R (1+32) + s (32)
    expected.extend_from_slice(&[1, 0, 0]);
    expected.extend_from_slice(&[0xa1; 32]);
    expected.extend_from_slice(&[0xb2; 32]);
    assert_eq!(hex::encode(&bytes), hex::encode(&expected));
    // Security overhead: version, header length, headers, payload type and length, trailer.
    assert_eq!(bytes.len() - 7, 1 + 1 + 21 + 2 + 68);
    // Signed bytes: everything up to the trailer length, then the signature's type byte.
    let tbs = m.to_be_signed().unwrap();
    assert_eq!(tbs.len(), bytes.len() - 66);
    assert_eq!(&tbs[..tbs.len() - 1], &bytes[..tbs.len() - 1]);
    assert_eq!(tbs.last(), Some(&1));
}

#[test]
fn canonical_certificate_bytes_use_x_only_r() {
    let mut c = cert(
        SignerInfo::SelfSigned,
        PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
        GeographicRegion::None,
    );
    let x_only = c.to_bytes();
    c.signature = Signature::Ecdsa {
        algorithm: PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
        r: EccPoint::CompressedLsbY1(vec![0xa1; 32]),
        s: vec![0xb2; 32],
    };
    assert_ne!(c.to_bytes(), x_only);
    assert_eq!(c.canonical_bytes(), x_only);
}

#[test]
fn malformed_input_reports_offsets() {
    assert!(matches!(
        SecuredMessage::from_bytes(&[]),
        Err(V1Error::Truncated { offset: 0, .. })
    ));
    assert!(matches!(
        SecuredMessage::from_bytes(&[3, 0]),
        Err(V1Error::UnsupportedVersion {
            offset: 0,
            version: 3,
            ..
        })
    ));
    // header_fields claims 5 bytes, has 1.
    let e = SecuredMessage::from_bytes(&[2, 5, 0]).unwrap_err();
    assert!(matches!(e, V1Error::Truncated { offset: 2, .. }), "{e}");
    // A HashedId3 list of 4 bytes.
    let e = SecuredMessage::from_bytes(&[2, 6, 4, 4, 1, 2, 3, 4]).unwrap_err();
    assert!(matches!(e, V1Error::Invalid { offset: 2, .. }), "{e}");
    // Trailing byte after a complete message.
    let e = SecuredMessage::from_bytes(&[2, 0, 0, 0, 0, 9]).unwrap_err();
    assert!(matches!(e, V1Error::TrailingBytes { offset: 5, .. }), "{e}");
    // Non-minimal length.
    assert!(SecuredMessage::from_bytes(&[2, 0x80, 0x00, 0, 0, 0]).is_err());
    // Certificates nested beyond the limit.
    let mut c = cert(
        SignerInfo::SelfSigned,
        PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
        GeographicRegion::None,
    );
    for _ in 0..12 {
        c = cert(
            SignerInfo::Certificate(Box::new(c)),
            PublicKeyAlgorithm::ECDSA_NISTP256_WITH_SHA256,
            GeographicRegion::None,
        );
    }
    assert!(Certificate::from_bytes(&c.to_bytes()).is_err());
}
