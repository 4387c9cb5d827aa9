//! A decoded tree of a message, certificate or packet, for `v2x inspect`.
//!
//! [`inspect_any`] recognises, in this order: pcap captures, IEEE 1609.2 / TS 103 097 v2
//! trust lists (TS 102 941 CTL/ECTL), secured data (`Ieee1609Dot2Data`, with a TS 102 941 message
//! in its unsecured payload shown decoded) and certificates,
//! legacy TS 103 097 v1.2.1 messages and certificates ([`v1_2_1_tree`]),
//! GeoNetworking packets (secured with either format, or not), a bare TS 102 941
//! `EtsiTs102941Data` (the plaintext of a PKI request or response), and Ethernet frames carrying
//! GeoNetworking. Each decoder must consume its input exactly; when none does, the error
//! lists every decoder tried with its reason. [`decode_input`] turns hex text
//! (whitespace, `0x` and `:` allowed) or raw bytes into bytes first.

mod dot2;
mod experimental_pq;
mod fmt;
mod gn;
mod v1_2_1;

use serde::Serialize;
use thiserror::Error;

use crate::geonet::GeonetError;
use crate::ieee1609dot2::WireError;
use crate::pcap::PcapError;
use crate::v1_2_1::V1Error;

pub use dot2::etsi_ts102941_data_node;
pub use dot2::{certificate_node, data_node, trust_list_node};
pub use gn::{ethernet_node, gn_packet_node, pcap_node};
pub use v1_2_1::{v1_2_1_certificate_node, v1_2_1_message_node, v1_2_1_tree};

/// One line of the detail pane: a label, an optional value, and children.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Node {
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Byte offset and length of the field in the input, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<(usize, usize)>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

impl Node {
    pub fn new(label: impl Into<String>) -> Node {
        Node {
            label: label.into(),
            value: None,
            span: None,
            children: Vec::new(),
        }
    }

    pub fn leaf(label: impl Into<String>, value: impl Into<String>) -> Node {
        Node {
            label: label.into(),
            value: Some(value.into()),
            span: None,
            children: Vec::new(),
        }
    }

    pub fn with_span(mut self, offset: usize, len: usize) -> Node {
        self.span = Some((offset, len));
        self
    }

    pub fn with_value(mut self, value: impl Into<String>) -> Node {
        self.value = Some(value.into());
        self
    }

    pub fn push(&mut self, child: Node) -> &mut Node {
        self.children.push(child);
        self
    }

    pub fn child(mut self, child: Node) -> Node {
        self.children.push(child);
        self
    }

    /// Depth-first search for the first node with this label.
    pub fn find(&self, label: &str) -> Option<&Node> {
        if self.label == label {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find(label))
    }

    /// Indented text rendering.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, 0, None);
        out
    }

    /// Indented text rendering with each field's bytes in hex (input offsets from spans).
    pub fn render_text_with_hex(&self, input: &[u8]) -> String {
        let mut out = String::new();
        self.render_into(&mut out, 0, Some(input));
        out
    }

    fn render_into(&self, out: &mut String, depth: usize, input: Option<&[u8]>) {
        for _ in 0..depth {
            out.push_str("    ");
        }
        out.push_str(&self.label);
        if let Some(v) = &self.value {
            out.push_str(": ");
            out.push_str(v);
        }
        if let (Some(input), Some((off, len))) = (input, self.span) {
            if let Some(bytes) = off.checked_add(len).and_then(|end| input.get(off..end)) {
                const MAX: usize = 32;
                let shown = bytes.get(..MAX).unwrap_or(bytes);
                out.push_str(&format!(
                    "  [@{off}+{len}: {}{}]",
                    hex::encode(shown),
                    if len > MAX { "…" } else { "" }
                ));
            }
        }
        out.push('\n');
        for c in &self.children {
            c.render_into(out, depth + 1, input);
        }
    }
}

/// What `inspect_any` recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Format {
    Pcap,
    TrustList,
    Ts102941Data,
    Ieee1609Dot2Data,
    Ieee1609Dot2Certificate,
    GeoNetworking,
    Ethernet,
    V1_2_1,
    /// v2xsec's experimental post-quantum message or certificate (not a standard).
    ExperimentalPq,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Pcap => "pcap capture",
            Format::TrustList => "TS 102 941 trust list",
            Format::Ts102941Data => "TS 102 941 EtsiTs102941Data (PKI request, response, CRL or CTL body)",
            Format::Ieee1609Dot2Data => "IEEE 1609.2 / TS 103 097 v2 secured data",
            Format::Ieee1609Dot2Certificate => "IEEE 1609.2 / TS 103 097 v2 certificate",
            Format::GeoNetworking => "GeoNetworking packet",
            Format::Ethernet => "Ethernet frame (GeoNetworking)",
            Format::V1_2_1 => "TS 103 097 v1.2.1 secured message or certificate",
            Format::ExperimentalPq => "v2xsec EXPERIMENTAL post-quantum message or certificate (not a standard)",
        }
    }
}

/// Why one decoder did not take the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AttemptError {
    #[error(transparent)]
    Pcap(#[from] PcapError),
    #[error(transparent)]
    Ieee1609Dot2(#[from] WireError),
    #[error(transparent)]
    V1_2_1(#[from] V1Error),
    #[error(transparent)]
    Geonet(#[from] GeonetError),
    #[error("secured packet (IEEE 1609.2): {0}")]
    SecuredIeee1609Dot2(WireError),
    #[error("secured packet (TS 103 097 v1.2.1): {0}")]
    SecuredV1_2_1(V1Error),
    #[error("ethertype 0x{0:04x} is not GeoNetworking (0x8947)")]
    NotGeoNetworking(u16),
    #[error("secured packet starts with version {0}, neither 3 (1609.2) nor 2 (v1.2.1)")]
    SecuredPacketVersion(u8),
    #[error("experimental post-quantum structure: {0}")]
    ExperimentalPq(crate::cursor::CursorError),
    #[error("secured packet is empty")]
    EmptySecuredPacket,
    #[error("basic header next header {0} is not supported")]
    BasicNextHeader(u8),
}

/// Nothing decoded: every format tried, with its error.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("input of {len} bytes is not a recognised format; {}", describe_attempts(.attempts, .hint))]
pub struct InspectError {
    pub len: usize,
    /// Each format whose decoder ran, with its error.
    pub attempts: Vec<(Format, AttemptError)>,
    /// Why no decoder ran (set when the first bytes match no format's opening).
    pub hint: Option<String>,
}

fn describe_attempts(attempts: &[(Format, AttemptError)], hint: &Option<String>) -> String {
    let tried: Vec<String> = attempts.iter().map(|(f, e)| format!("{}: {e}", f.name())).collect();
    match (tried.is_empty(), hint) {
        (true, Some(h)) => h.clone(),
        (true, None) => "no decoder applies".into(),
        (false, _) => format!("tried {}", tried.join("; ")),
    }
}

/// A decoded input: its format and tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Inspected {
    pub format: Format,
    pub tree: Node,
}

/// Decodes `bytes` as any supported format (see the module documentation for the order).
pub fn inspect_any(bytes: &[u8]) -> Result<Inspected, InspectError> {
    let mut attempts = Vec::new();
    let mut attempt = |format: Format, result: Result<Node, AttemptError>| match result {
        Ok(tree) => Some(Inspected { format, tree }),
        Err(e) => {
            attempts.push((format, e));
            None
        }
    };
    if bytes.is_empty() {
        return Err(InspectError {
            len: 0,
            attempts: Vec::new(),
            hint: Some("the input is empty".into()),
        });
    }
    if crate::pcap::looks_like_pcap(bytes) {
        if let Some(i) = attempt(Format::Pcap, pcap_node(bytes)) {
            return Ok(i);
        }
    }
    let first = bytes.first().copied().unwrap_or_default();
    // 1609.2 data start with protocol version 3; certificates with a presence bitmap then 3.
    if first == 3 {
        if let Ok(list) = crate::trust_list::parse_trust_list(bytes) {
            return Ok(Inspected {
                format: Format::TrustList,
                tree: trust_list_node(&list),
            });
        }
        if let Some(i) = attempt(Format::Ieee1609Dot2Data, dot2::data_tree(bytes)) {
            return Ok(i);
        }
    }
    if bytes.get(1) == Some(&3) {
        if let Some(i) = attempt(Format::Ieee1609Dot2Certificate, dot2::certificate_tree(bytes)) {
            return Ok(i);
        }
    }
    // v1.2.1 messages open with 02 like a version-0 secured GeoNetworking packet: the
    // strict v1.2.1 decoder (no trailing bytes) decides first.
    if first == crate::v1_2_1::PROTOCOL_VERSION {
        if let Some(i) = attempt(Format::V1_2_1, v1_2_1_tree(bytes).map_err(AttemptError::from)) {
            return Ok(i);
        }
    }
    if first == crate::experimental_pq::MAGIC {
        if let Some(i) = attempt(Format::ExperimentalPq, experimental_pq::tree(bytes)) {
            return Ok(i);
        }
    }
    // GeoNetworking basic header: version 0 or 1, next header common (1) or secured (2).
    if matches!(first, 0x01 | 0x02 | 0x11 | 0x12) {
        if let Some(i) = attempt(Format::GeoNetworking, gn_packet_node(bytes, 0)) {
            return Ok(i);
        }
    }
    // A bare EtsiTs102941Data (what a TS 102 941 envelope carries) opens with version 1.
    if first == 0x01 {
        if let Some(i) = attempt(
            Format::Ts102941Data,
            crate::ts102941::decode(bytes)
                .map(|m| dot2::etsi_ts102941_data_node(&m))
                .map_err(AttemptError::from),
        ) {
            return Ok(i);
        }
    }
    if bytes.len() > 14 && bytes.get(12..14) == Some(&crate::geonet::ETHERTYPE_GEONETWORKING.to_be_bytes()[..]) {
        if let Some(i) = attempt(Format::Ethernet, ethernet_node(bytes, 0)) {
            return Ok(i);
        }
    }
    let hint = attempts.is_empty().then(|| {
        format!(
            "its first byte 0x{first:02x} opens none of the supported formats: pcap (magic a1b2c3d4), IEEE 1609.2 data \
             and trust lists (03), 1609.2 certificates (80 03 / 00 03), GeoNetworking (01/02/11/12), TS 102 941 \
             messages (01), Ethernet with \
             ethertype 0x8947, TS 103 097 v1.2.1 (02), v2xsec experimental post-quantum (e1); hex text must have an even number of hex digits"
        )
    });
    Err(InspectError {
        len: bytes.len(),
        attempts,
        hint,
    })
}

/// Input bytes from a file or stdin: hex text is decoded (ASCII whitespace, `0x` prefixes,
/// `:` and `,` separators are ignored); anything else is taken as binary.
pub fn decode_input(raw: &[u8]) -> Vec<u8> {
    fmt::hex_text(raw).unwrap_or_else(|| raw.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_text_is_decoded() {
        assert_eq!(decode_input(b"03 81\n00"), vec![3, 0x81, 0]);
        assert_eq!(decode_input(b"0x0381:00"), vec![3, 0x81, 0]);
        assert_eq!(decode_input(b"0x03, 0x81"), vec![3, 0x81]);
        // Odd digit count or non-hex: binary.
        assert_eq!(decode_input(b"038"), b"038".to_vec());
        assert_eq!(decode_input(&[0xff, 0x00]), vec![0xff, 0x00]);
    }

    #[test]
    fn garbage_names_every_attempt() {
        let e = inspect_any(&[0x03, 0x99, 0x42]).unwrap_err();
        assert!(e.attempts.iter().any(|(f, _)| *f == Format::Ieee1609Dot2Data));
        let e = inspect_any(&[0xee; 40]).unwrap_err();
        assert!(e.to_string().contains("first byte 0xee"), "{e}");
        assert!(e.attempts.is_empty());
        assert!(inspect_any(&[]).is_err());
    }

    #[test]
    fn secured_gn_payload_that_is_not_a_network_part_is_shown() {
        // 1609.2 unsecuredData "abc" in a secured GeoNetworking packet.
        let secured = [0x03, 0x80, 0x03, b'a', b'b', b'c'];
        let packet = crate::geonet::secured_packet(&secured);
        let i = inspect_any(&packet).unwrap();
        assert_eq!(i.format, Format::GeoNetworking);
        let n = i.tree.find("Secured payload").unwrap();
        assert_eq!(n.span, Some((7, 3)));
        assert!(n.value.as_deref().unwrap().contains("not a GeoNetworking network part"));
    }

    #[test]
    fn render_with_hex_uses_spans() {
        let n = Node::new("root").child(Node::leaf("a", "1").with_span(1, 2));
        let t = n.render_text_with_hex(&[9, 0xab, 0xcd, 7]);
        assert!(t.contains("a: 1  [@1+2: abcd]"), "{t}");
    }
}
