//! The v1.2.1 decoder never panics on random or mutated bytes, and whatever it accepts
//! re-encodes to exactly the input (canonical decoding).

use proptest::prelude::*;
use v2x_wire::inspect::v1_2_1_tree as inspect;
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

// ---- typed round trip: random well-formed structures encode and decode back ----

fn point(fs: usize) -> impl Strategy<Value = EccPoint> {
    (
        0u8..5,
        proptest::collection::vec(any::<u8>(), fs..=fs),
        proptest::collection::vec(any::<u8>(), fs..=fs),
    )
        .prop_map(|(t, x, y)| match t {
            0 => EccPoint::XCoordinateOnly(x),
            1 => EccPoint::CompressedLsbY0(x),
            2 => EccPoint::CompressedLsbY1(x),
            3 => EccPoint::Uncompressed { x, y },
            _ => EccPoint::Other {
                point_type: 9,
                x,
                data: y,
            },
        })
}

fn curve() -> impl Strategy<Value = V1Curve> {
    proptest::sample::select(V1Curve::ALL.to_vec())
}

fn signature() -> impl Strategy<Value = Signature> {
    curve().prop_flat_map(|c| {
        let fs = c.field_size();
        (point(fs), proptest::collection::vec(any::<u8>(), fs..=fs)).prop_map(move |(r, s)| Signature::Ecdsa {
            algorithm: PublicKeyAlgorithm::ecdsa(c),
            r,
            s,
        })
    })
}

fn location() -> impl Strategy<Value = TwoDLocation> {
    (any::<i32>(), any::<i32>()).prop_map(|(latitude, longitude)| TwoDLocation { latitude, longitude })
}

fn region() -> impl Strategy<Value = GeographicRegion> {
    prop_oneof![
        Just(GeographicRegion::None),
        (location(), any::<u16>()).prop_map(|(center, radius)| GeographicRegion::Circle { center, radius }),
        proptest::collection::vec((location(), location()), 0..4).prop_map(|v| GeographicRegion::Rectangle(
            v.into_iter()
                .map(|(northwest, southeast)| RectangularRegion { northwest, southeast })
                .collect()
        )),
        proptest::collection::vec(location(), 0..13).prop_map(GeographicRegion::Polygon),
        (any::<u8>(), any::<u16>(), 0u64..(1 << 40)).prop_map(|(dictionary, identifier, local_region)| {
            GeographicRegion::Id {
                dictionary,
                identifier,
                local_region,
            }
        }),
    ]
}

fn attribute() -> impl Strategy<Value = SubjectAttribute> {
    prop_oneof![
        curve().prop_flat_map(
            |c| point(c.field_size()).prop_map(move |key| SubjectAttribute::VerificationKey(PublicKey::Ecdsa {
                algorithm: PublicKeyAlgorithm::ecdsa(c),
                key
            }))
        ),
        (curve(), any::<bool>()).prop_flat_map(|(c, aes256)| point(c.field_size()).prop_map(move |key| {
            SubjectAttribute::EncryptionKey(PublicKey::Ecies {
                algorithm: PublicKeyAlgorithm::ecies(c),
                supported_symm_alg: if aes256 {
                    SymmetricAlgorithm::AES_256_CCM
                } else {
                    SymmetricAlgorithm::AES_128_CCM
                },
                key,
            })
        })),
        any::<u8>().prop_map(SubjectAttribute::AssuranceLevel),
        point(32).prop_map(SubjectAttribute::ReconstructionValue),
        proptest::collection::vec(0u64..(1 << 50), 0..5).prop_map(SubjectAttribute::ItsAidList),
        proptest::collection::vec((0u64..100_000, proptest::collection::vec(any::<u8>(), 0..32)), 0..4).prop_map(|v| {
            SubjectAttribute::ItsAidSspList(
                v.into_iter()
                    .map(|(its_aid, service_specific_permissions)| ItsAidSsp {
                        its_aid,
                        service_specific_permissions,
                    })
                    .collect(),
            )
        }),
    ]
}

fn validity() -> impl Strategy<Value = ValidityRestriction> {
    prop_oneof![
        any::<u32>().prop_map(ValidityRestriction::TimeEnd),
        (any::<u32>(), any::<u32>()).prop_map(|(start, end)| ValidityRestriction::TimeStartAndEnd { start, end }),
        (any::<u32>(), any::<u16>()).prop_map(|(start, d)| ValidityRestriction::TimeStartAndDuration {
            start,
            duration: Duration(d)
        }),
        region().prop_map(ValidityRestriction::Region),
    ]
}

fn certificate(signer: impl Strategy<Value = SignerInfo>) -> impl Strategy<Value = Certificate> {
    (
        signer,
        0u8..6,
        proptest::collection::vec(any::<u8>(), 0..33),
        proptest::collection::vec(attribute(), 0..5),
        proptest::collection::vec(validity(), 0..4),
        signature(),
    )
        .prop_map(
            |(signer_info, t, name, subject_attributes, validity_restrictions, signature)| Certificate {
                version: 2,
                signer_info,
                subject_info: SubjectInfo {
                    subject_type: SubjectType(t),
                    subject_name: name,
                },
                subject_attributes,
                validity_restrictions,
                signature,
            },
        )
}

fn leaf_signer() -> impl Strategy<Value = SignerInfo> {
    prop_oneof![
        Just(SignerInfo::SelfSigned),
        any::<[u8; 8]>().prop_map(SignerInfo::CertificateDigestWithSha256),
        (any::<u8>(), any::<[u8; 8]>()).prop_map(|(a, digest)| SignerInfo::CertificateDigestWithOtherAlgorithm {
            algorithm: PublicKeyAlgorithm(a),
            digest
        }),
    ]
}

fn message_signer() -> impl Strategy<Value = SignerInfo> {
    prop_oneof![
        leaf_signer(),
        certificate(leaf_signer()).prop_map(|c| SignerInfo::Certificate(Box::new(c))),
        proptest::collection::vec(certificate(leaf_signer()), 1..3).prop_map(SignerInfo::CertificateChain),
    ]
}

fn message() -> impl Strategy<Value = SecuredMessage> {
    (
        message_signer(),
        any::<u64>(),
        proptest::option::of((any::<i32>(), any::<i32>(), any::<[u8; 2]>())),
        proptest::collection::vec(any::<[u8; 3]>(), 0..4),
        0u64..(1 << 40),
        proptest::option::of((curve(), any::<bool>(), any::<[u8; 12]>(), 1usize..3)),
        0u8..5,
        proptest::collection::vec(any::<u8>(), 0..200),
        proptest::option::of(signature()),
    )
        .prop_flat_map(|(signer, time, loc, ids, aid, enc, pt, data, sig)| {
            let recipients = match enc {
                Some((c, _, _, n)) => proptest::collection::vec(point(c.field_size()), n..=n).boxed(),
                None => Just(Vec::new()).boxed(),
            };
            recipients.prop_map(move |vs| {
                let mut h = vec![
                    HeaderField::SignerInfo(signer.clone()),
                    HeaderField::GenerationTime(time),
                ];
                if let Some((latitude, longitude, elevation)) = loc {
                    h.push(HeaderField::GenerationLocation(ThreeDLocation {
                        latitude,
                        longitude,
                        elevation,
                    }));
                }
                h.push(HeaderField::RequestUnrecognizedCertificate(ids.clone()));
                h.push(HeaderField::ItsAid(aid));
                if let Some((c, aes256, nonce, _)) = enc {
                    let algorithm = if aes256 {
                        SymmetricAlgorithm::AES_256_CCM
                    } else {
                        SymmetricAlgorithm::AES_128_CCM
                    };
                    let klen = algorithm.key_len().unwrap_or(16);
                    h.push(HeaderField::EncryptionParameters(EncryptionParameters::AesCcm {
                        algorithm,
                        nonce,
                    }));
                    h.push(HeaderField::RecipientInfo(
                        vs.iter()
                            .map(|v| RecipientInfo {
                                cert_id: nonce[..8].try_into().unwrap_or([0; 8]),
                                pk_encryption: PublicKeyAlgorithm::ecies(c),
                                enc_key: EncryptedKey::Ecies(EciesEncryptedKey {
                                    v: v.clone(),
                                    c: vec![7; klen],
                                    t: [1; 16],
                                }),
                            })
                            .collect(),
                    ));
                }
                let payload_type = PayloadType(pt);
                let data = if payload_type == PayloadType::SIGNED_EXTERNAL {
                    Vec::new()
                } else {
                    data.clone()
                };
                SecuredMessage {
                    header_fields: h,
                    payload: Payload { payload_type, data },
                    trailer_fields: sig.clone().map(TrailerField::Signature).into_iter().collect(),
                }
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_certificates_round_trip(c in certificate(message_signer())) {
        let bytes = c.to_bytes();
        prop_assert_eq!(Certificate::from_bytes(&bytes).unwrap(), c);
    }

    #[test]
    fn random_messages_round_trip(m in message()) {
        let bytes = m.to_bytes();
        let back = SecuredMessage::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &m);
        prop_assert!(inspect(&bytes).is_ok());
        if let Some(tbs) = m.to_be_signed() {
            // The signed bytes are a prefix of the encoding (ending with the signature's type byte).
            prop_assert_eq!(&bytes[..tbs.len()], &tbs[..]);
        }
    }
}
