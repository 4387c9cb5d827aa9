//! The structural pre-scan that protects rasn from forged SEQUENCE OF quantities:
//! (1) forged huge quantities anywhere (root fields, extension additions, trust lists) give a
//!     typed error instead of aborting the process;
//! (2) it accepts every valid encoding: values using every CHOICE alternative, OPTIONAL field
//!     and extension addition that rasn-its models decode and round-trip through it.

use v2x_wire::ieee1609dot2::*;
use v2x_wire::rasn::types::{FixedBitString, Integer, ObjectIdentifier};
use v2x_wire::trust_list::*;

const ECTL: &[u8] = include_bytes!("../../../vectors/eu-ectl-CE4CF6C19BFED720.oer");
const CHAIN_JSON: &str = include_str!("../../../vectors/test-pki-chain-p256.json");

const HUGE_QUANTITY: [u8; 9] = [0x08, 0x10, 0, 0, 0, 0, 0, 0, 0];

fn at() -> Vec<u8> {
    let v: serde_json::Value = serde_json::from_str(CHAIN_JSON).unwrap();
    hex::decode(v["authorization_ticket"].as_str().unwrap()).unwrap()
}

/// Replaces the `old` quantity bytes found at their unique position with a huge one.
fn forge(bytes: &[u8], at: usize, old_len: usize) -> Vec<u8> {
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(&HUGE_QUANTITY);
    out.extend_from_slice(&bytes[at + old_len..]);
    out
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    let hits: Vec<usize> = hay
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(hits.len(), 1, "needle {} not unique", hex::encode(needle));
    hits[0]
}

#[test]
fn forged_quantity_in_certificate_permissions_is_an_error() {
    let at = at();
    let (cert, spans) = parse_certificate(&at).unwrap();
    // appPermissions is the first SEQUENCE OF in the AT's toBeSigned: encode it to find it.
    let perms = encode(cert.to_be_signed.app_permissions.as_ref().unwrap()).unwrap();
    let pos = spans.to_be_signed.start + find(&at[spans.to_be_signed.clone()], &perms);
    let forged = forge(&at, pos, 2);
    assert!(matches!(parse_certificate(&forged), Err(WireError::Decode(_))));
    assert!(matches!(
        decode_exact::<Certificate>(&forged),
        Err(WireError::Decode(_))
    ));
    assert!(matches!(
        decode_exact::<ts103097::EtsiTs103097Certificate>(&forged),
        Err(WireError::Decode(_))
    ));
}

#[test]
fn forged_quantity_of_signer_certificates_is_an_error() {
    let (cert, _) = parse_certificate(&at()).unwrap();
    let sig = Signature::EcdsaNistP256(EcdsaP256Signature {
        r_sig: EccP256CurvePoint::XOnly([1; 32].into()),
        s_sig: [2; 32].into(),
    });
    let tbs = to_be_signed_data(unsecured(vec![1]), header_info_basic(psid(36), Some(Time64(1)))).unwrap();
    let tbs_len = encode(&tbs).unwrap().len();
    let data = signed(
        HashAlgorithm::Sha256,
        tbs,
        SignerIdentifier::Certificate(SequenceOfCertificate(vec![cert])),
        sig,
    );
    let bytes = encode(&data).unwrap();
    // version, tag, hashId, tbsData, then signer tag 0x81 and quantity 01 01.
    let q = 3 + tbs_len + 1;
    assert_eq!(&bytes[q..q + 2], &[1, 1]);
    let forged = forge(&bytes, q, 2);
    assert!(matches!(parse_data(&forged), Err(WireError::Decode(_))));
    assert!(matches!(
        decode_exact::<Ieee1609Dot2Data>(&forged),
        Err(WireError::Decode(_))
    ));
    assert!(matches!(
        decode_exact::<ts103097::EtsiTs103097Data>(&forged),
        Err(WireError::Decode(_))
    ));
}

#[test]
fn forged_quantity_inside_an_extension_addition_is_an_error() {
    // HeaderInfo.inlineP2pcdRequest is an extension addition: its SEQUENCE OF sits inside an
    // open type, which rasn decodes too.
    let header = HeaderInfo::builder()
        .psid(psid(36))
        .inline_p2pcd_request(SequenceOfHashedId3(vec![hashed_id3_from([0xAB, 0xCD, 0xEF])]))
        .build();
    let bytes = encode(&header).unwrap();
    let pos = find(&bytes, &[1, 1, 0xAB, 0xCD, 0xEF]);
    let mut forged = bytes[..pos].to_vec();
    forged.extend_from_slice(&[0x05, 0x10, 0, 0, 0, 0, 0xAB, 0xCD, 0xEF]); // same open-type length + 4
    forged.extend_from_slice(&bytes[pos + 5..]);
    // Fix the open type's length octet (it precedes the quantity) so only the quantity is wrong.
    forged[pos - 1] += 4;
    assert!(matches!(decode_exact::<HeaderInfo>(&forged), Err(WireError::Decode(_))));
}

#[test]
fn forged_quantity_in_the_ectl_is_an_error() {
    let list = parse_trust_list(ECTL).unwrap();
    let n = list.list.body.ctl_commands.len() as u8;
    let body_start = list.spans.payload_data.clone().unwrap().start;
    // ctlCommands quantity (01 <n>) follows nextUpdate (4 octets), isFullCtl and ctlSequence.
    let mut needle = list.list.next_update.0.to_be_bytes().to_vec();
    needle.extend_from_slice(&[0xff, list.list.sequence, 0x01, n]);
    let pos = body_start + find(&ECTL[body_start..], &needle) + 6;
    let forged = forge(ECTL, pos, 2);
    assert!(matches!(parse_trust_list(&forged), Err(WireError::Decode(_))));
    assert!(matches!(parse_data(&forged), Err(WireError::Decode(_))));
}

#[test]
fn forged_quantity_in_bare_sequences_is_an_error() {
    let mut bytes = vec![0x81];
    bytes.extend_from_slice(&HUGE_QUANTITY);
    assert!(matches!(
        decode_exact::<SignerIdentifier>(&bytes),
        Err(WireError::Decode(_))
    ));
    assert!(matches!(
        decode_exact::<SequenceOfCertificate>(&HUGE_QUANTITY),
        Err(WireError::Decode(_))
    ));
}

fn p256(b: u8) -> EccP256CurvePoint {
    EccP256CurvePoint::CompressedY1([b; 32].into())
}

fn two_d(lat: f64, lon: f64) -> TwoDLocation {
    two_d_location(lat, lon).unwrap()
}

fn rich_certificate(region: GeographicRegion, key: PublicVerificationKey, sig: Signature) -> Certificate {
    let ranges = SequenceOfPsidSspRange(vec![
        PsidSspRange {
            psid: psid(36),
            ssp_range: Some(SspRange::Opaque(vec![vec![1u8, 2].into()])),
        },
        PsidSspRange {
            psid: psid(37),
            ssp_range: Some(SspRange::All(())),
        },
        PsidSspRange {
            psid: psid(0x20_40_80),
            ssp_range: Some(SspRange::BitmapSspRange(BitmapSspRange {
                ssp_value: vec![1, 0, 0].into(),
                ssp_bitmask: vec![0xff, 0, 0].into(),
            })),
        },
        PsidSspRange {
            psid: psid(624),
            ssp_range: None,
        },
    ]);
    let group = PsidGroupPermissions::builder()
        .subject_permissions(SubjectPermissions::Explicit(ranges))
        .min_chain_length(Integer::from(2))
        .chain_length_range(Integer::from(-1))
        .ee_type(EndEntityType(FixedBitString::new([0xC0, 0, 0, 0, 0, 0, 0, 0])))
        .build();
    let all = PsidGroupPermissions::builder()
        .subject_permissions(SubjectPermissions::All(()))
        .build();
    let app = SequenceOfPsidSsp(vec![
        PsidSsp {
            psid: psid(36),
            ssp: Some(ServiceSpecificPermissions::Opaque(vec![1, 0xff, 0xfc].into())),
        },
        PsidSsp {
            psid: psid(37),
            ssp: Some(ServiceSpecificPermissions::BitmapSsp(BitmapSsp(vec![1, 2].into()))),
        },
        PsidSsp {
            psid: psid(0xFF_FF_FF_FF),
            ssp: None,
        },
    ]);
    let tbs = ToBeSignedCertificate::builder()
        .id(CertificateId::LinkageData(LinkageData {
            i_cert: IValue(3),
            linkage_value: LinkageValue([9; 9].into()),
            group_linkage_value: Some(GroupLinkageValue {
                j_value: [1; 4].into(),
                value: [2; 9].into(),
            }),
        }))
        .craca_id(hashed_id3_from([1, 2, 3]))
        .crl_series(CrlSeries(4))
        .validity_period(ValidityPeriod {
            start: Time32(100),
            duration: Duration::SixtyHours(7),
        })
        .region(region)
        .assurance_level(SubjectAssurance([0xE0].into()))
        .app_permissions(app)
        .cert_issue_permissions(SequenceOfPsidGroupPermissions(vec![group, all.clone()]))
        .cert_request_permissions(SequenceOfPsidGroupPermissions(vec![all]))
        .can_request_rollover(())
        .encryption_key(PublicEncryptionKey {
            supported_symm_alg: SymmAlgorithm::Aes128Ccm,
            public_key: BasePublicEncryptionKey::EciesBrainpoolP256r1(p256(5)),
        })
        .verify_key_indicator(VerificationKeyIndicator::VerificationKey(key))
        .flags(FixedBitString::new([0x80, 0, 0, 0, 0, 0, 0, 0]))
        .app_extensions(SequenceOfAppExtensions(vec![AppExtension {
            id: ExtId(1),
            content: OperatingOrganizationId(ObjectIdentifier::new(vec![1, 3, 6, 1, 4, 1, 99]).unwrap()),
        }]))
        .cert_issue_extensions(SequenceOfCertIssueExtensions(vec![CertIssueExtension::new_all()]))
        .cert_request_extension(SequenceOfCertRequestExtensions(vec![CertRequestExtension {
            id: ExtId(1),
            permissions: RequestPermissions::Content(()),
        }]))
        .build()
        .unwrap();
    let base = CertificateBase::builder()
        .r#type(CertificateType::Explicit)
        .issuer(IssuerIdentifier::Sha384AndDigest(hashed_id8_from([7; 8])))
        .to_be_signed(tbs)
        .signature(sig)
        .build();
    certificate_from_base(base).unwrap()
}

fn certificates() -> Vec<Certificate> {
    let p384 = EccP384CurvePoint::Uncompressed(EccP384CurvePointUncompressedP384 {
        x: [1; 48].into(),
        y: [2; 48].into(),
    });
    let sig384 = Signature::EcdsaNistP384(EcdsaP384Signature {
        r_sig: EccP384CurvePoint::XOnly([3; 48].into()),
        s_sig: [4; 48].into(),
    });
    let sig256 = Signature::EcdsaBrainpoolP256r1(EcdsaP256Signature {
        r_sig: EccP256CurvePoint::Uncompressed(EccP256CurvePointUncompressedP256 {
            x: [1; 32].into(),
            y: [2; 32].into(),
        }),
        s_sig: [3; 32].into(),
    });
    let regions = vec![
        GeographicRegion::CircularRegion(CircularRegion {
            center: two_d(48.1, 11.5),
            radius: 5000,
        }),
        GeographicRegion::RectangularRegion(SequenceOfRectangularRegion(vec![RectangularRegion {
            north_west: two_d(50.0, 10.0),
            south_east: two_d(49.0, 11.0),
        }])),
        GeographicRegion::PolygonalRegion(PolygonalRegion(vec![two_d(1.0, 1.0), two_d(2.0, 1.0), two_d(1.0, 2.0)])),
        GeographicRegion::IdentifiedRegion(SequenceOfIdentifiedRegion(vec![
            IdentifiedRegion::CountryOnly(UnCountryId(276)),
            IdentifiedRegion::CountryAndRegions(CountryAndRegions {
                country_only: UnCountryId(250),
                regions: SequenceOfUint8(vec![1, 2]),
            }),
            IdentifiedRegion::CountryAndSubregions(CountryAndSubregions {
                country_only: UnCountryId(380),
                region_and_subregions: SequenceOfRegionAndSubregions(vec![RegionAndSubregions {
                    region: 3,
                    subregions: SequenceOfUint16(vec![7, 8]),
                }]),
            }),
        ])),
    ];
    let keys = [
        PublicVerificationKey::EcdsaNistP256(EccP256CurvePoint::XOnly([1; 32].into())),
        PublicVerificationKey::EcdsaBrainpoolP256r1(EccP256CurvePoint::Fill(())),
        PublicVerificationKey::EcdsaBrainpoolP384r1(p384.clone()),
        PublicVerificationKey::EcdsaNistP384(EccP384CurvePoint::CompressedY0([5; 48].into())),
    ];
    regions
        .into_iter()
        .zip(keys)
        .enumerate()
        .map(|(i, (r, k))| rich_certificate(r, k, if i % 2 == 0 { sig384.clone() } else { sig256.clone() }))
        .collect()
}

fn round_trip<T: v2x_wire::rasn::Decode + v2x_wire::rasn::Encode + PartialEq + std::fmt::Debug + 'static>(v: &T) {
    let bytes = encode(v).unwrap();
    assert_eq!(decode_exact::<T>(&bytes).as_ref(), Ok(v), "{}", hex::encode(&bytes));
}

#[test]
fn guard_accepts_every_certificate_variant() {
    for c in certificates() {
        round_trip(&c);
        let bytes = encode(&c).unwrap();
        let (again, spans) = parse_certificate(&bytes).unwrap();
        assert_eq!(again, c);
        assert_eq!(
            decode_exact::<ToBeSignedCertificate>(&bytes[spans.to_be_signed]).unwrap(),
            c.to_be_signed
        );
    }
}

#[test]
fn guard_accepts_every_data_variant() {
    let certs = certificates();
    let contributed = ContributedExtensionBlocks(vec![
        ContributedExtensionBlockType::Ieee1609(ContributedExtensionBlock {
            contributor_id: IEEE1609_HEADER_INFO_CONTRIBUTOR_ID,
            extns: vec![Extension {
                id: P2PCD8_BYTE_LEARNING_REQUEST_ID,
                content: hashed_id8_from([3; 8]),
            }],
        }),
        ContributedExtensionBlockType::Etsi(ContributedExtensionBlock {
            contributor_id: ETSI_HEADER_INFO_CONTRIBUTOR_ID,
            extns: vec![
                ts103097::extension_module::EtsiOriginatingHeaderInfoExtension::new_crl_request(
                    ts103097::extension_module::EtsiTs102941CrlRequest {
                        issuer_id: hashed_id8_from([4; 8]),
                        last_known_update: Some(Time32(9)),
                    },
                ),
                ts103097::extension_module::EtsiOriginatingHeaderInfoExtension::new_delta_ctl_request(
                    ts103097::extension_module::EtsiTs102941CtlRequest {
                        issuer_id: hashed_id8_from([5; 8]),
                        last_known_ctl_sequence: None,
                    },
                ),
            ],
        }),
    ]);
    let full_header = HeaderInfo::builder()
        .psid(psid(37))
        .generation_time(Time64(1))
        .expiry_time(Time64(2))
        .generation_location(three_d_location(-33.9, 151.2, -10.0).unwrap())
        .p2pcd_learning_request(hashed_id3_from([1, 1, 1]))
        .missing_crl_identifier(
            MissingCrlIdentifier::builder()
                .craca_id(hashed_id3_from([2, 2, 2]))
                .crl_series(CrlSeries(1))
                .build(),
        )
        .encryption_key(EncryptionKey::Symmetric(SymmetricEncryptionKey::Aes128Ccm(
            [6; 16].into(),
        )))
        .inline_p2pcd_request(SequenceOfHashedId3(vec![
            hashed_id3_from([1, 2, 3]),
            hashed_id3_from([4, 5, 6]),
        ]))
        .requested_certificate(certs[0].clone())
        .contributed_extensions(contributed)
        .build();
    let public_key_header = HeaderInfo::builder()
        .psid(psid(36))
        .encryption_key(EncryptionKey::Public(PublicEncryptionKey {
            supported_symm_alg: SymmAlgorithm::Aes128Ccm,
            public_key: BasePublicEncryptionKey::EciesNistP256(p256(1)),
        }))
        .build();
    round_trip(&full_header);
    round_trip(&public_key_header);

    let ciphertext = SymmetricCiphertext::Aes128ccm(One28BitCcmCiphertext {
        nonce: [7; 12].into(),
        ccm_ciphertext: Opaque(vec![0xEE; 200].into()),
    });
    let ecies = EciesP256EncryptedKey {
        v: p256(9),
        c: [1; 16].into(),
        t: [2; 16].into(),
    };
    let encrypted = Ieee1609Dot2Data {
        protocol_version: 3,
        content: Ieee1609Dot2Content::EncryptedData(EncryptedData {
            recipients: SequenceOfRecipientInfo(vec![
                RecipientInfo::PskRecipInfo(PreSharedKeyRecipientInfo(hashed_id8_from([1; 8]))),
                RecipientInfo::SymmRecipInfo(SymmRecipientInfo {
                    recipient_id: hashed_id8_from([2; 8]),
                    enc_key: ciphertext.clone(),
                }),
                RecipientInfo::CertRecipInfo(PKRecipientInfo {
                    recipient_id: hashed_id8_from([3; 8]),
                    enc_key: EncryptedDataEncryptionKey::EciesNistP256(ecies.clone()),
                }),
                RecipientInfo::SignedDataRecipInfo(PKRecipientInfo {
                    recipient_id: hashed_id8_from([4; 8]),
                    enc_key: EncryptedDataEncryptionKey::EciesBrainpoolP256r1(ecies.clone()),
                }),
                RecipientInfo::RekRecipInfo(PKRecipientInfo {
                    recipient_id: hashed_id8_from([5; 8]),
                    enc_key: EncryptedDataEncryptionKey::EciesNistP256(ecies),
                }),
            ]),
            ciphertext,
        }),
    };
    round_trip(&encrypted);

    let sig = Signature::EcdsaBrainpoolP384r1(EcdsaP384Signature {
        r_sig: EccP384CurvePoint::CompressedY1([8; 48].into()),
        s_sig: [9; 48].into(),
    });
    let ext_hash_payload = SignedDataPayload::builder()
        .ext_data_hash(HashedData::Sha384HashedData(HashedId48([1; 48].into())))
        .build()
        .unwrap();
    let omitted_payload = SignedDataPayload::builder().omitted(()).build().unwrap();
    let payloads = [
        signed_data_payload(encrypted.clone()).unwrap(),
        ext_hash_payload,
        omitted_payload,
        SignedDataPayload::builder()
            .data(unsecured(vec![1; 300]))
            .ext_data_hash(HashedData::Sha256HashedData(HashedId32([2; 32].into())))
            .build()
            .unwrap(),
    ];
    let signers = [
        SignerIdentifier::Certificate(SequenceOfCertificate(certs.clone())),
        SignerIdentifier::Digest(hashed_id8_from([1; 8])),
        SignerIdentifier::SelfSigned(()),
        SignerIdentifier::Certificate(SequenceOfCertificate(vec![certs[1].clone()])),
    ];
    let headers = [
        full_header.clone(),
        public_key_header.clone(),
        full_header,
        public_key_header,
    ];
    for ((payload, signer), header) in payloads.into_iter().zip(signers).zip(headers) {
        let data = signed(
            HashAlgorithm::Sha384,
            ToBeSignedData {
                payload,
                header_info: header,
            },
            signer,
            sig.clone(),
        );
        round_trip(&data);
        let bytes = encode(&data).unwrap();
        let (again, spans) = parse_data(&bytes).unwrap();
        assert_eq!(again, data);
        let spans = spans.unwrap();
        assert_eq!(
            spans.signer_certificates.len(),
            signer_certificates(signed_data(&data).unwrap()).len()
        );
        // Wrapped once more as the payload of another signed data (signed-in-signed).
        let outer = signed(
            HashAlgorithm::Sha256,
            to_be_signed_data(data, header_info_basic(psid(1), None)).unwrap(),
            SignerIdentifier::SelfSigned(()),
            sig.clone(),
        );
        round_trip(&outer);
    }
    round_trip(&Ieee1609Dot2Data {
        protocol_version: 3,
        content: Ieee1609Dot2Content::SignedCertificateRequest(Opaque(vec![1, 2, 3].into())),
    });
}

#[test]
fn guard_accepts_every_trust_list_variant() {
    let certs = certificates();
    let url = |s: &str| Url::try_from(s.to_string()).unwrap();
    let commands = vec![
        CtlCommand::Add(Box::new(CtlEntry::Rca(RootCaEntry {
            selfsigned_root_ca: certs[0].clone(),
            successor_to: Some(certs[1].clone()),
        }))),
        CtlCommand::Add(Box::new(CtlEntry::Ea(EaEntry {
            ea_certificate: certs[2].clone(),
            aa_access_point: url("http://aa"),
            its_access_point: Some(url("http://its")),
        }))),
        CtlCommand::Add(Box::new(CtlEntry::Aa(AaEntry {
            aa_certificate: certs[3].clone(),
            access_point: url("http://aa2"),
        }))),
        CtlCommand::Add(Box::new(CtlEntry::Dc(DcEntry {
            url: url("http://dc"),
            cert: vec![hashed_id8_from([1; 8])],
        }))),
        CtlCommand::Add(Box::new(CtlEntry::Tlm(TlmEntry {
            self_signed_tlm_certificate: certs[1].clone(),
            successor_to: None,
            access_point: url("http://tlm"),
        }))),
        CtlCommand::Delete(CtlDelete::Cert(hashed_id8_from([2; 8]))),
        CtlCommand::Delete(CtlDelete::Dc(url("http://old-dc"))),
    ];
    let body = EtsiTs102941Data {
        version: 1,
        content: EtsiTs102941DataContent::CertificateTrustListRca(CtlFormat::new(Time32(5), false, 3, commands)),
    };
    round_trip(&body);
    let list = parse_trust_list_body(&encode(&body).unwrap()).unwrap();
    assert_eq!(list.entries.len(), 5);
    assert_eq!(list.deletions.len(), 2);
    let crl = EtsiTs102941Data {
        version: 1,
        content: EtsiTs102941DataContent::CertificateRevocationList(ToBeSignedCrl::new(
            Time32(1),
            Time32(2),
            vec![hashed_id8_from([1; 8]), hashed_id8_from([2; 8])],
        )),
    };
    round_trip(&crl);
}

/// rasn 0.30's encoder corrupts HeaderInfo.requestedCertificate (the P2PCD answer); our
/// `encode` assembles it correctly, and rasn decodes that back to the same value.
#[test]
fn requested_certificate_encodes_correctly() {
    let v: serde_json::Value = serde_json::from_str(CHAIN_JSON).unwrap();
    let mut certs: Vec<Certificate> = ["root_ca", "authorization_authority", "authorization_ticket"]
        .iter()
        .map(|k| {
            parse_certificate(&hex::decode(v[k].as_str().unwrap()).unwrap())
                .unwrap()
                .0
        })
        .collect();
    certs.push(
        parse_certificate(include_bytes!("../../../vectors/eu-tlm-E7A4B2B045E7ACF9.oer"))
            .unwrap()
            .0,
    );
    certs.extend(certificates());
    for c in certs {
        let h = HeaderInfo::builder()
            .psid(psid(36))
            .generation_time(Time64(42))
            .requested_certificate(c.clone())
            .inline_p2pcd_request(SequenceOfHashedId3(vec![hashed_id3_from([1, 2, 3])]))
            .build();
        let bytes = encode(&h).unwrap();
        assert_eq!(
            v2x_wire::rasn::coer::decode::<HeaderInfo>(&bytes).ok().as_ref(),
            Some(&h)
        );
        assert_eq!(decode_exact::<HeaderInfo>(&bytes).as_ref(), Ok(&h));
        // The certificate sits in its open type byte-for-byte.
        let cert_bytes = encode(&c).unwrap();
        assert!(bytes.windows(cert_bytes.len()).any(|w| w == cert_bytes.as_slice()));
        // And inside a whole signed message, through parse_data.
        let data = signed(
            HashAlgorithm::Sha256,
            to_be_signed_data(unsecured(vec![5; 20]), h.clone()).unwrap(),
            SignerIdentifier::Digest(hashed_id8_from([1; 8])),
            Signature::EcdsaNistP256(EcdsaP256Signature {
                r_sig: EccP256CurvePoint::XOnly([1; 32].into()),
                s_sig: [2; 32].into(),
            }),
        );
        let bytes = encode(&data).unwrap();
        let (again, spans) = parse_data(&bytes).unwrap();
        assert_eq!(again, data);
        assert_eq!(
            &bytes[spans.unwrap().tbs_data],
            encode(&signed_data(&data).unwrap().tbs_data).unwrap().as_slice()
        );
    }
}

/// pduFunctionalType ::= INTEGER (0..255) is one octet inside its open type (X.696). rasn-its
/// 0.30 drops the constraint in extension-addition position (it writes and expects a
/// length-prefixed integer, `02 01 01`), so our encoder writes the standard form and a received
/// header with this (ISO 21177-only) field does not decode: a known limitation.
#[test]
fn pdu_functional_type_is_encoded_per_x696() {
    let h = HeaderInfo::builder()
        .psid(psid(36))
        .pdu_functional_type(PduFunctionalType(1))
        .build();
    assert_eq!(encode(&h).unwrap(), [0x80, 0x01, 0x24, 0x02, 0x04, 0x20, 0x01, 0x01]);
}

mod crl_contents {
    use super::*;
    use v2x_wire::ieee1609dot2::crl_base_types::*;

    fn seed(b: u8) -> LinkageSeed {
        LinkageSeed([b; 16].into())
    }

    fn la(b: u8) -> LaId {
        LaId([b; 2].into())
    }

    fn contents(type_specific: TypeSpecificCrlContents) -> CrlContents {
        CrlContents::builder()
            .version(1)
            .crl_series(CrlSeries(7))
            .crl_craca(hashed_id8_from([1; 8]))
            .issue_date(Time32(10))
            .next_crl(Time32(20))
            .priority_info(CrlPriorityInfo::builder().priority(3).build())
            .type_specific(type_specific)
            .build()
    }

    fn variants() -> Vec<CrlContents> {
        let hash = ToBeSignedHashIdCrl::builder()
            .crl_serial(5)
            .entries(SequenceOfHashBasedRevocationInfo(vec![
                HashBasedRevocationInfo::builder()
                    .id(HashedId10([9; 10].into()))
                    .expiry(Time32(99))
                    .build(),
            ]))
            .build();
        let imax = IMaxGroup::builder()
            .i_max(4)
            .contents(SequenceOfIndividualRevocation(vec![IndividualRevocation::builder()
                .linkage_seed1(seed(1))
                .linkage_seed2(seed(2))
                .build()]))
            .single_seed(SequenceOfLinkageSeed(vec![seed(3)]))
            .build();
        let jmax = JMaxGroup::builder()
            .jmax(2)
            .contents(SequenceOfLAGroup(vec![LAGroup::builder()
                .la1_id(la(1))
                .la2_id(la(2))
                .contents(SequenceOfIMaxGroup(vec![imax]))
                .build()]))
            .build();
        let group = GroupCrlEntry::builder()
            .i_max(1)
            .la1_id(la(3))
            .linkage_seed1(seed(4))
            .la2_id(la(5))
            .linkage_seed2(seed(6))
            .build();
        let single = GroupSingleSeedCrlEntry::builder()
            .i_max(2)
            .la_id(la(7))
            .linkage_seed(seed(8))
            .build();
        let linked = ToBeSignedLinkageValueCrl::builder()
            .i_rev(IValue(1))
            .index_within_i(0)
            .individual(SequenceOfJMaxGroup(vec![jmax.clone()]))
            .groups(SequenceOfGroupCrlEntry(vec![group.clone()]))
            .groups_single_seed(SequenceOfGroupSingleSeedCrlEntry(vec![single.clone()]))
            .build();
        let with_alg = ToBeSignedLinkageValueCrlWithAlgIdentifier::builder()
            .i_rev(IValue(2))
            .index_within_i(1)
            .seed_evolution(())
            .lv_generation(())
            .individual(SequenceOfJMaxGroup(vec![jmax]))
            .groups(SequenceOfGroupCrlEntry(vec![group]))
            .groups_single_seed(SequenceOfGroupSingleSeedCrlEntry(vec![single]))
            .build();
        vec![
            contents(TypeSpecificCrlContents::FullHashCrl(hash.clone())),
            contents(TypeSpecificCrlContents::DeltaHashCrl(hash)),
            contents(TypeSpecificCrlContents::FullLinkedCrl(linked.clone())),
            contents(TypeSpecificCrlContents::DeltaLinkedCrl(linked)),
            contents(TypeSpecificCrlContents::FullLinkedCrlWithAlg(with_alg.clone())),
            contents(TypeSpecificCrlContents::DeltaLinkedCrlWithAlg(with_alg)),
        ]
    }

    #[test]
    fn guard_accepts_every_crl_variant() {
        for c in variants() {
            round_trip(&c);
        }
    }

    #[test]
    fn forged_quantity_in_a_crl_is_an_error() {
        for c in variants() {
            let bytes = encode(&c).unwrap();
            // Forge every SEQUENCE OF quantity "01 01" in turn (there is one per list here).
            let mut forged_any = 0;
            for pos in bytes
                .windows(2)
                .enumerate()
                .filter(|(_, w)| *w == [1, 1])
                .map(|(i, _)| i)
            {
                let forged = forge(&bytes, pos, 2);
                if let Err(e) = decode_exact::<CrlContents>(&forged) {
                    assert!(matches!(e, WireError::Decode(_) | WireError::Unsupported(_)), "{e:?}");
                    forged_any += 1;
                }
            }
            assert!(forged_any > 0);
        }
    }
}
