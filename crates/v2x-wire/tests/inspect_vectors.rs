//! `inspect_any` on the real EU trust-list vectors (see `vectors/README.md`): recognised
//! format, key fields, RFC 3339 times, byte spans that point into the input.

use v2x_wire::inspect::{decode_input, inspect_any, Format, Node};

const TLM: &[u8] = include_bytes!("../../../vectors/eu-tlm-E7A4B2B045E7ACF9.oer");
const ECTL: &[u8] = include_bytes!("../../../vectors/eu-ectl-CE4CF6C19BFED720.oer");

fn values<'a>(n: &'a Node, label: &str, out: &mut Vec<&'a str>) {
    if n.label == label {
        if let Some(v) = &n.value {
            out.push(v);
        }
    }
    for c in &n.children {
        values(c, label, out);
    }
}

fn all(n: &Node, label: &str) -> Vec<String> {
    let mut out = Vec::new();
    values(n, label, &mut out);
    out.into_iter().map(str::to_string).collect()
}

fn spans_inside(n: &Node, len: usize) {
    if let Some((off, l)) = n.span {
        assert!(off + l <= len, "{} span {off}+{l} beyond {len}", n.label);
    }
    n.children.iter().for_each(|c| spans_inside(c, len));
}

#[test]
fn tlm_certificate() {
    let i = inspect_any(TLM).unwrap();
    assert_eq!(i.format, Format::Ieee1609Dot2Certificate);
    let t = &i.tree;
    assert_eq!(all(t, "id"), ["name \"EU-TLM_L2\""]);
    assert_eq!(all(t, "issuer"), ["self (sha384)"]);
    assert_eq!(all(t, "start"), ["2023-08-22T21:59:58Z (619826403 s TAI since 2004)"]);
    assert_eq!(all(t, "duration"), ["4 years"]);
    assert_eq!(all(t, "verifyKeyIndicator"), ["verificationKey ecdsaBrainpoolP384r1"]);
    assert_eq!(all(t, "signature"), ["ecdsaBrainpoolP384r1Signature"]);
    assert!(all(t, "psidSsp")[0].starts_with("psid 624 (0x270, certificate trust list"));
    spans_inside(t, TLM.len());
    // toBeSigned span: the bytes the issuer signed, inside the certificate.
    let (off, len) = t.find("toBeSigned").unwrap().span.unwrap();
    assert!(off > 0 && off + len < TLM.len());
}

#[test]
fn ectl_trust_list() {
    let i = inspect_any(ECTL).unwrap();
    assert_eq!(i.format, Format::TrustList);
    let t = &i.tree;
    assert_eq!(all(t, "issuer")[0], "certificateTrustListTlm (ECTL, signed by the TLM)");
    assert_eq!(
        all(t, "nextUpdate"),
        ["2025-07-16T21:59:58Z (679788003 s TAI since 2004)"]
    );
    assert_eq!(all(t, "add"), ["5"]);
    let names = all(t, "id");
    assert!(names.contains(&"name \"1_EU-ROOT-CA_L2\"".to_string()), "{names:?}");
    // The envelope is signed by the TLM with its certificate attached.
    let env = t.find("secured envelope").unwrap();
    assert_eq!(all(env, "signer"), ["certificate (1)"]);
    assert!(all(env, "generationTime")[0].starts_with("2025-03-18T12:35:16.999000Z ("));
    spans_inside(t, ECTL.len());
}

#[test]
fn hex_text_of_a_vector_decodes_the_same() {
    let hex_text = format!("0x{}\n", hex::encode(TLM));
    assert_eq!(decode_input(hex_text.as_bytes()), TLM);
    assert_eq!(
        inspect_any(&decode_input(hex_text.as_bytes())).unwrap(),
        inspect_any(TLM).unwrap()
    );
}

#[test]
fn truncated_vectors_are_errors_naming_what_was_tried() {
    for cut in [1, 10, TLM.len() / 2, TLM.len() - 1] {
        let e = inspect_any(&TLM[..cut]).unwrap_err();
        assert!(!e.attempts.is_empty() || e.hint.is_some());
    }
    let e = inspect_any(&ECTL[..ECTL.len() - 1]).unwrap_err();
    assert!(
        e.to_string().contains("IEEE 1609.2 / TS 103 097 v2 secured data"),
        "{e}"
    );
}
