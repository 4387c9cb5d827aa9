//! The real EU ECTL decodes: its entries, its spans, and the certificates it carries.

use v2x_wire::ieee1609dot2::*;
use v2x_wire::trust_list::*;
use v2x_wire::ItsAid;

const ECTL: &[u8] = include_bytes!("vectors/eu-ectl-CE4CF6C19BFED720.oer");
const TLM: &[u8] = include_bytes!("vectors/eu-tlm-E7A4B2B045E7ACF9.oer");

#[test]
fn eu_ectl_decodes() {
    let SignedTrustList { outer, spans, list } = parse_trust_list(ECTL).unwrap();
    assert_eq!(encode(&outer).unwrap(), ECTL, "outer re-encodes byte-exact");
    let sd = signed_data(&outer).unwrap();
    assert_eq!(sd.hash_id, HashAlgorithm::Sha384);
    assert!(matches!(sd.signature, Signature::EcdsaBrainpoolP384r1(_)));
    assert_eq!(its_aid_of(&header_info(sd).psid), Some(ItsAid::CTL));
    // The tbsData span re-decodes to the decoded tbsData and is its canonical encoding.
    let tbs = &ECTL[spans.tbs_data.clone()];
    assert_eq!(decode_exact::<ToBeSignedData>(tbs).unwrap(), sd.tbs_data);
    assert_eq!(encode(&sd.tbs_data).unwrap(), tbs);
    assert_eq!(spans.tbs_data.start, 3, "version, signedData tag, hashId");
    assert_eq!(spans.whole, 0..ECTL.len());

    // The ECTL is signed by the TLM, identified by digest or by certificate.
    let (tlm, _) = parse_certificate(TLM).unwrap();
    match &sd.signer {
        SignerIdentifier::Digest(d) => {
            assert_eq!(hashed_id8_bytes(d), [0xE7, 0xA4, 0xB2, 0xB0, 0x45, 0xE7, 0xAC, 0xF9])
        }
        SignerIdentifier::Certificate(c) => {
            assert_eq!(c.0, vec![tlm.clone()]);
            assert_eq!(&ECTL[spans.signer_certificates[0].clone()], TLM);
        }
        other => panic!("unexpected signer {other:?}"),
    }

    assert_eq!(list.issuer, TrustListIssuer::Tlm);
    assert!(list.is_full);
    assert!(list.deletions.is_empty());
    let roots: Vec<String> = list
        .entries
        .iter()
        .filter_map(|e| match e {
            TrustListEntry::RootCa { certificate, .. } => Some(cert_name(&certificate.certificate)),
            _ => None,
        })
        .collect();
    let kinds: Vec<&str> = list
        .entries
        .iter()
        .map(|e| match e {
            TrustListEntry::RootCa { .. } => "rca",
            TrustListEntry::Tlm { .. } => "tlm",
            TrustListEntry::Ea { .. } => "ea",
            TrustListEntry::Aa { .. } => "aa",
            TrustListEntry::Dc { .. } => "dc",
        })
        .collect();
    eprintln!(
        "ECTL seq {} next_update {:?}: {kinds:?}, roots {roots:?}",
        list.sequence, list.next_update
    );
    assert_eq!(list.entries.len(), list.body.ctl_commands.len());
    assert_eq!(kinds.iter().filter(|k| **k == "rca").count(), roots.len());
    assert!(!roots.is_empty());
    assert!(roots.iter().any(|n| n.contains("EU-ROOT-CA")), "{roots:?}");

    // Every carried certificate's bytes occur verbatim in the signed tbsData, parse, and
    // re-encode byte-exact; root CAs are self-signed.
    for e in &list.entries {
        let certs: Vec<&EncodedCertificate> = match e {
            TrustListEntry::RootCa {
                certificate,
                successor_to,
            }
            | TrustListEntry::Tlm {
                certificate,
                successor_to,
                ..
            } => std::iter::once(certificate).chain(successor_to.as_ref()).collect(),
            TrustListEntry::Ea { certificate, .. } | TrustListEntry::Aa { certificate, .. } => vec![certificate],
            TrustListEntry::Dc { url, root_cas } => {
                assert!(url.starts_with("http"), "{url}");
                assert!(!root_cas.is_empty());
                vec![]
            }
        };
        for c in certs {
            assert!(tbs.windows(c.encoded.len()).any(|w| w == c.encoded.as_slice()));
            let (again, spans) = parse_certificate(&c.encoded).unwrap();
            assert_eq!(again, c.certificate);
            assert_eq!(spans.to_be_signed, c.to_be_signed);
        }
        if let TrustListEntry::RootCa { certificate, .. } = e {
            assert!(matches!(
                certificate_issuer(&certificate.certificate),
                Issuer::SelfSigned(_)
            ));
        }
    }
}

fn cert_name(c: &Certificate) -> String {
    match &c.to_be_signed.id {
        CertificateId::Name(n) => n.to_string(),
        other => format!("{other:?}"),
    }
}

#[test]
fn trust_list_body_round_trip_and_rejections() {
    let list = parse_trust_list(ECTL).unwrap().list;
    let body = EtsiTs102941Data {
        version: 1,
        content: EtsiTs102941DataContent::CertificateTrustListTlm(list.body.clone()),
    };
    let bytes = encode(&body).unwrap();
    assert_eq!(parse_trust_list_body(&bytes).unwrap(), list);

    // A delta list with deletions.
    let delta = CtlFormat::new(
        Time32(1000),
        false,
        7,
        vec![
            CtlCommand::Delete(CtlDelete::Cert(hashed_id8_from([1, 2, 3, 4, 5, 6, 7, 8]))),
            CtlCommand::Delete(CtlDelete::Dc(Url::try_from("http://dc.example".to_string()).unwrap())),
        ],
    );
    let bytes = encode(&EtsiTs102941Data {
        version: 1,
        content: EtsiTs102941DataContent::CertificateTrustListRca(delta),
    })
    .unwrap();
    let parsed = parse_trust_list_body(&bytes).unwrap();
    assert_eq!(parsed.issuer, TrustListIssuer::RootCa);
    assert!(!parsed.is_full);
    assert_eq!(parsed.sequence, 7);
    assert_eq!(
        parsed.deletions,
        vec![
            TrustListDeletion::Certificate(hashed_id8_from([1, 2, 3, 4, 5, 6, 7, 8])),
            TrustListDeletion::Dc("http://dc.example".into())
        ]
    );

    // A CRL body is an EtsiTs102941Data too, but not a trust list.
    let crl = EtsiTs102941Data {
        version: 1,
        content: EtsiTs102941DataContent::CertificateRevocationList(ToBeSignedCrl::new(Time32(1), Time32(2), vec![])),
    };
    assert!(matches!(
        parse_trust_list_body(&encode(&crl).unwrap()),
        Err(WireError::Unsupported(_))
    ));
    // Version 2 is not understood.
    let mut v2 = encode(&body).unwrap();
    v2[0] = 2;
    assert!(matches!(parse_trust_list_body(&v2), Err(WireError::Unsupported(_))));
    // An unsigned outer is not a trust list file.
    assert!(matches!(
        parse_trust_list(&encode(&unsecured(bytes)).unwrap()),
        Err(WireError::Unsupported(_))
    ));
}
