//! `v2x overhead`: the table and the JSON carry the protocols' measured layouts.

mod common;
use common::v2x;

#[test]
fn json_rows_reproduce_the_paper_layouts() {
    let out = v2x(&["overhead", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = report["rows"].as_array().expect("rows");
    let total = |protocol: &str, message: &str, variant: &str| {
        rows.iter()
            .find(|r| r["protocol"] == protocol && r["message"] == message && r["variant"] == variant)
            .and_then(|r| r["total_bytes"].as_u64())
    };
    assert_eq!(total("hash-chain", "v2v", "hmac-sha256/12"), Some(40));
    assert_eq!(total("hash-chain", "v2i", "hmac-sha256/12+ecdsa-p256"), Some(201));
    assert_eq!(total("tesla", "data-frame", "paper004/separate"), Some(82));
    assert_eq!(total("tesla-attached", "data-frame", "paper004/attached"), Some(92));
    assert_eq!(total("tesla", "key-frame", "paper004/separate"), Some(43));
    assert_eq!(total("tesla-attached", "data", "paper001/attached/signed"), Some(142));
    assert_eq!(total("2flip", "data", "sha1"), Some(47));
    for r in rows {
        let sum: u64 = r["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["bytes"].as_u64().unwrap())
            .sum();
        assert_eq!(Some(sum), r["total_bytes"].as_u64(), "{r}");
    }
}

#[test]
fn table_filters_by_protocol() {
    let out = v2x(&["overhead", "--protocol", "2flip"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("protocol"), "{text}");
    assert!(
        text.contains("2flip") && text.contains("47") && text.contains("paper 001 Table 9"),
        "{text}"
    );
    assert!(!text.contains("hash-chain"));
    let bad = v2x(&["overhead", "--protocol", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    // The error names the protocols there are.
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("hash-chain") && err.contains("2flip"), "{err}");
}
