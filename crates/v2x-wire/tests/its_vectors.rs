//! Known-answer structure tests for IEEE 1609.2 / TS 103 097 certificates and secured data:
//! the test PKI chain and the real EU TLM certificate decode, re-encode byte-exact, and the
//! signed spans point at exactly the right bytes. (Signatures are verified in v2x-security.)

use v2x_wire::ieee1609dot2::*;
use v2x_wire::ItsAid;

const TLM: &[u8] = include_bytes!("vectors/eu-tlm-E7A4B2B045E7ACF9.oer");
const CHAIN_JSON: &str = include_str!("vectors/test-pki-chain-p256.json");

fn chain() -> (Vec<u8>, Vec<u8>, Vec<u8>, serde_json::Value) {
    let v: serde_json::Value = serde_json::from_str(CHAIN_JSON).unwrap();
    let get = |k: &str| hex::decode(v[k].as_str().unwrap()).unwrap();
    (
        get("root_ca"),
        get("authorization_authority"),
        get("authorization_ticket"),
        v,
    )
}

fn id8(hex_str: &str) -> HashedId8 {
    hashed_id8_from(hex::decode(hex_str).unwrap().try_into().unwrap())
}

/// Decodes a certificate and checks: byte-exact re-encoding, and the toBeSigned span decodes
/// to exactly `to_be_signed` and equals its canonical encoding.
fn check_certificate(bytes: &[u8]) -> Certificate {
    let (cert, spans) = parse_certificate(bytes).unwrap();
    assert_eq!(encode(&cert).unwrap(), bytes, "re-encoding is byte-exact");
    assert_eq!(spans.whole, 0..bytes.len());
    let tbs = &bytes[spans.to_be_signed.clone()];
    let decoded: ToBeSignedCertificate = decode_exact(tbs).unwrap();
    assert_eq!(decoded, cert.to_be_signed);
    assert_eq!(encode(&cert.to_be_signed).unwrap(), tbs);
    // The signature follows toBeSigned directly and ends the certificate.
    let sig: Signature = decode_exact(&bytes[spans.to_be_signed.end..]).unwrap();
    assert_eq!(Some(sig), cert.signature);
    cert
}

#[test]
fn test_pki_chain_decodes_and_links() {
    let (root, aa, at, v) = chain();
    let root_c = check_certificate(&root);
    let aa_c = check_certificate(&aa);
    let at_c = check_certificate(&at);

    assert_eq!(certificate_issuer(&root_c), Issuer::SelfSigned(HashAlgorithm::Sha256));
    let hid = &v["hashedid8"];
    assert_eq!(
        certificate_issuer(&aa_c),
        Issuer::Digest(HashAlgorithm::Sha256, id8(hid["root_ca"].as_str().unwrap()))
    );
    assert_eq!(
        certificate_issuer(&at_c),
        Issuer::Digest(
            HashAlgorithm::Sha256,
            id8(hid["authorization_authority"].as_str().unwrap())
        )
    );
    for c in [&root_c, &aa_c, &at_c] {
        assert!(c.is_explicit());
        assert!(matches!(
            certificate_verification_key(c),
            Some(PublicVerificationKey::EcdsaNistP256(_))
        ));
        assert!(matches!(c.signature, Some(Signature::EcdsaNistP256(_))));
    }
    // The AT may sign CAMs (PSID 36) and DENMs (37).
    let psids: Vec<u64> = at_c
        .to_be_signed
        .app_permissions
        .as_ref()
        .unwrap()
        .iter()
        .map(|p| psid_value(&p.psid).unwrap())
        .collect();
    assert!(
        psids.contains(&ItsAid::CAM.value()) && psids.contains(&ItsAid::DENM.value()),
        "{psids:?}"
    );
}

#[test]
fn trailing_bytes_and_truncation_are_rejected() {
    let (root, _, _, _) = chain();
    let mut long = root.clone();
    long.push(0);
    assert_eq!(
        parse_certificate(&long).unwrap_err(),
        WireError::TrailingBytes { extra: 1 }
    );
    assert_eq!(
        decode_exact::<Certificate>(&long).unwrap_err(),
        WireError::TrailingBytes { extra: 1 }
    );
    assert!(matches!(
        parse_certificate(&root[..root.len() - 1]),
        Err(WireError::Decode(_))
    ));
}

#[test]
fn eu_tlm_certificate_brainpool384_extension_alternative() {
    let cert = check_certificate(TLM);
    assert_eq!(certificate_issuer(&cert), Issuer::SelfSigned(HashAlgorithm::Sha384));
    // ecdsaBrainpoolP384r1 is an extension alternative of PublicVerificationKey: in C-OER its
    // tag (0x82) is followed by a length-prefixed open type. rasn decodes and re-encodes it
    // byte-exact (checked by check_certificate), and as the right alternative:
    let key = certificate_verification_key(&cert).unwrap();
    assert!(matches!(key, PublicVerificationKey::EcdsaBrainpoolP384r1(_)), "{key:?}");
    assert!(matches!(cert.signature, Some(Signature::EcdsaBrainpoolP384r1(_))));
    let CertificateId::Name(name) = &cert.to_be_signed.id else {
        panic!("TLM has a name")
    };
    assert_eq!(name.to_string(), "EU-TLM_L2");
    // The open type: tag 0x82, length 0x31 (49 = 1 choice tag + 48 x-coordinate bytes).
    let tbs = &TLM[parse_certificate(TLM).unwrap().1.to_be_signed];
    let key_enc = encode(key).unwrap();
    assert_eq!(&key_enc[..2], &[0x82, 0x31]);
    assert!(tbs.windows(key_enc.len()).any(|w| w == key_enc.as_slice()));
}

fn cam_like(signer: SignerIdentifier, payload_len: usize) -> (Vec<u8>, ToBeSignedData) {
    let header = HeaderInfo::builder()
        .psid(ItsAid::CAM.into())
        .generation_time(time64_from_unix_micros(1_700_000_000_000_000).unwrap())
        .build();
    let tbs = to_be_signed_data(unsecured(vec![0xA5; payload_len]), header).unwrap();
    let signature = Signature::EcdsaNistP256(EcdsaP256Signature {
        r_sig: EccP256CurvePoint::XOnly([0x11; 32].into()),
        s_sig: [0x22; 32].into(),
    });
    let data = signed(HashAlgorithm::Sha256, tbs.clone(), signer.clone(), signature.clone());
    let bytes = encode(&data).unwrap();
    // Splicing the pre-encoded tbsData gives the same bytes as encoding the whole.
    let tbs_enc = encode(&tbs).unwrap();
    assert_eq!(
        encode_signed_data_from_parts(HashAlgorithm::Sha256, &tbs_enc, &signer, &signature).unwrap(),
        bytes
    );
    (bytes, tbs)
}

#[test]
fn signed_data_spans_with_digest_signer() {
    let digest = id8("3afd9045b7e240a2");
    let (bytes, tbs) = cam_like(SignerIdentifier::Digest(digest.clone()), 120);
    let (data, spans) = parse_data(&bytes).unwrap();
    let spans = spans.unwrap();
    let sd = signed_data(&data).unwrap();
    assert_eq!(sd.tbs_data, tbs);
    assert_eq!(&bytes[spans.tbs_data.clone()], encode(&tbs).unwrap().as_slice());
    assert_eq!(
        decode_exact::<ToBeSignedData>(&bytes[spans.tbs_data.clone()]).unwrap(),
        tbs
    );
    assert!(spans.signer_certificates.is_empty());
    assert_eq!(signer_digest(sd), Some(&digest));
    assert_eq!(spans.whole, 0..bytes.len());
    assert_eq!(signed_unsecured_payload(sd), Some(&[0xA5; 120][..]));
    assert_eq!(its_aid_of(&header_info(sd).psid), Some(ItsAid::CAM));
    let inner = spans.payload_data.unwrap();
    assert_eq!(parse_data(&bytes[inner]).unwrap().0, unsecured(vec![0xA5; 120]));
    assert_eq!(encode(&data).unwrap(), bytes);
}

#[test]
fn signed_data_spans_with_certificate_signer() {
    let (_, _, at, _) = chain();
    let (at_cert, _) = parse_certificate(&at).unwrap();
    let (bytes, tbs) = cam_like(
        SignerIdentifier::Certificate(SequenceOfCertificate(vec![at_cert.clone()])),
        60,
    );
    let (data, spans) = parse_data(&bytes).unwrap();
    let spans = spans.unwrap();
    assert_eq!(spans.signer_certificates.len(), 1);
    assert_eq!(&bytes[spans.signer_certificates[0].clone()], at.as_slice());
    assert_eq!(decode_exact::<ToBeSignedData>(&bytes[spans.tbs_data]).unwrap(), tbs);
    assert_eq!(signer_certificates(signed_data(&data).unwrap()), &[at_cert]);
}

#[test]
fn two_signer_certificates_get_two_spans() {
    let (root, aa, _, _) = chain();
    let certs: Vec<Certificate> = [&aa, &root].iter().map(|b| parse_certificate(b).unwrap().0).collect();
    let (bytes, _) = cam_like(SignerIdentifier::Certificate(SequenceOfCertificate(certs)), 10);
    let spans = parse_data(&bytes).unwrap().1.unwrap();
    assert_eq!(&bytes[spans.signer_certificates[0].clone()], aa.as_slice());
    assert_eq!(&bytes[spans.signer_certificates[1].clone()], root.as_slice());
}

#[test]
fn nested_signed_data_spans() {
    // Signed data whose payload is itself signed data: reach the inner spans two ways.
    let (inner_bytes, inner_tbs) = cam_like(SignerIdentifier::SelfSigned(()), 30);
    let inner: Ieee1609Dot2Data = decode_exact(&inner_bytes).unwrap();
    let header = header_info_basic(ItsAid::DENM.into(), Some(Time64(5)));
    let outer_tbs = to_be_signed_data(inner, header).unwrap();
    let sig = Signature::EcdsaNistP256(EcdsaP256Signature {
        r_sig: EccP256CurvePoint::CompressedY0([3; 32].into()),
        s_sig: [4; 32].into(),
    });
    let outer = encode(&signed(
        HashAlgorithm::Sha256,
        outer_tbs,
        SignerIdentifier::SelfSigned(()),
        sig,
    ))
    .unwrap();
    let spans = parse_data(&outer).unwrap().1.unwrap();
    let inner_range = spans.payload_data.unwrap();
    assert_eq!(&outer[inner_range.clone()], inner_bytes.as_slice());
    let nested = signed_data_spans_at(&outer, inner_range.start).unwrap().unwrap();
    assert_eq!(
        decode_exact::<ToBeSignedData>(&outer[nested.tbs_data]).unwrap(),
        inner_tbs
    );
}

#[test]
fn unsecured_and_encrypted_have_no_spans() {
    let u = encode(&unsecured(b"hello".to_vec())).unwrap();
    let (d, s) = parse_data(&u).unwrap();
    assert!(s.is_none());
    assert_eq!(unsecured_data(&d), Some(&b"hello"[..]));

    let enc = Ieee1609Dot2Data {
        protocol_version: 3,
        content: Ieee1609Dot2Content::EncryptedData(EncryptedData {
            recipients: SequenceOfRecipientInfo(vec![RecipientInfo::CertRecipInfo(PKRecipientInfo {
                recipient_id: id8("0102030405060708"),
                enc_key: EncryptedDataEncryptionKey::EciesNistP256(EciesP256EncryptedKey {
                    v: EccP256CurvePoint::CompressedY1([9; 32].into()),
                    c: [1; 16].into(),
                    t: [2; 16].into(),
                }),
            })]),
            ciphertext: SymmetricCiphertext::Aes128ccm(One28BitCcmCiphertext {
                nonce: [7; 12].into(),
                ccm_ciphertext: Opaque(vec![0xEE; 40].into()),
            }),
        }),
    };
    let bytes = encode(&enc).unwrap();
    let (d, s) = parse_data(&bytes).unwrap();
    assert!(s.is_none());
    assert_eq!(encrypted_data(&d).unwrap().recipients.len(), 1);
    assert_eq!(d, enc);
}

#[test]
fn version_and_trailing_errors() {
    let (mut bytes, _) = cam_like(SignerIdentifier::Digest(id8("0000000000000001")), 5);
    bytes.push(0);
    assert_eq!(parse_data(&bytes).unwrap_err(), WireError::TrailingBytes { extra: 1 });
    bytes.pop();
    bytes[0] = 2;
    assert_eq!(peek_protocol_version(&bytes), Some(2));
    assert!(matches!(parse_data(&bytes), Err(WireError::Unsupported(_))));
    assert!(matches!(parse_data(&[]), Err(WireError::Decode(_))));
}

#[test]
fn canonical_check() {
    let (root, _, _, _) = chain();
    assert!(decode_canonical::<Certificate>(&root).is_ok());
}
