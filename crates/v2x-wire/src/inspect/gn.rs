//! Trees of pcap captures, Ethernet frames and GeoNetworking packets (secured or not),
//! laid out like Wireshark's detail pane: basic header, secured packet, common header,
//! extended header, BTP-B, then the CAM/DENM.

use super::dot2::data_node;
use super::fmt::hex;
use super::{AttemptError, Node};
use crate::facilities::{decode_cam, decode_denm, peek_header, Cam, Denm, HighFrequencyContainer};
use crate::geonet::{
    header_type_name, BasicHeader, BasicNextHeader, BtpBHeader, CommonHeader, LongPositionVector, NetworkPart,
    BASIC_HEADER_LEN, BTP_HEADER_LEN, COMMON_HEADER_LEN, ETHERTYPE_GEONETWORKING, SHB_HEADER_LEN,
};
use crate::ieee1609dot2 as d2;
use crate::pcap::{read_pcap, EthernetFrame};
use crate::tai::rfc3339_from_unix_micros;

/// Moves every span of a tree by `by` bytes (subtrees are built relative to their own slice).
fn shift(node: &mut Node, by: usize) {
    if let Some((off, _)) = node.span.as_mut() {
        *off += by;
    }
    for c in &mut node.children {
        shift(c, by);
    }
}

fn mac(m: &[u8; 6]) -> String {
    m.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(":")
}

/// Tree of a classic pcap capture: one node per frame.
pub fn pcap_node(bytes: &[u8]) -> Result<Node, AttemptError> {
    let records = read_pcap(bytes)?;
    let mut root = Node::new("pcap capture").with_value(format!("{} frame(s)", records.len()));
    let mut offset = 24;
    for (i, r) in records.iter().enumerate() {
        let data_off = offset + 16;
        let when = i64::try_from(r.unix_micros)
            .map(rfc3339_from_unix_micros)
            .unwrap_or_default();
        let mut frame = Node::new(format!("Frame {}", i + 1))
            .with_value(format!("{} bytes, {when}", r.data.len()))
            .with_span(data_off, r.data.len());
        match ethernet_layers(r.data, data_off) {
            Ok(layers) => frame.children.extend(layers),
            Err(e) => frame.children.push(Node::leaf("error", e.to_string())),
        }
        root.push(frame);
        offset = data_off + r.data.len();
    }
    Ok(root)
}

/// Tree of an Ethernet II frame carrying GeoNetworking; `base` is its offset in the input.
pub fn ethernet_node(bytes: &[u8], base: usize) -> Result<Node, AttemptError> {
    let mut frame = Node::new("Frame")
        .with_value(format!("{} bytes", bytes.len()))
        .with_span(base, bytes.len());
    frame.children = ethernet_layers(bytes, base)?;
    Ok(frame)
}

/// The Ethernet II and GeoNetworking layers of a frame.
fn ethernet_layers(bytes: &[u8], base: usize) -> Result<Vec<Node>, AttemptError> {
    let eth = EthernetFrame::parse(bytes)?;
    let mut root = Node::new("Ethernet II").with_span(base, 14);
    root.push(Node::leaf("Destination", mac(&eth.destination)).with_span(base, 6));
    root.push(Node::leaf("Source", mac(&eth.source)).with_span(base + 6, 6));
    root.push(Node::leaf("Type", format!("0x{:04x}", eth.ethertype)).with_span(base + 12, 2));
    if eth.ethertype != ETHERTYPE_GEONETWORKING {
        return Err(AttemptError::NotGeoNetworking(eth.ethertype));
    }
    let gn = gn_packet_node(eth.payload, base + 14)?;
    Ok(vec![root, gn])
}

fn basic_header_node(b: &BasicHeader, base: usize) -> Node {
    Node::new("Basic Header")
        .with_span(base, BASIC_HEADER_LEN)
        .child(Node::leaf("Version", b.version.to_string()))
        .child(Node::leaf(
            "Next Header",
            format!("{} ({})", b.next_header.name(), b.next_header.to_u4()),
        ))
        .child(Node::leaf(
            "Life Time",
            format!(
                "{} ms (multiplier {}, base {} ms)",
                b.lifetime.millis(),
                b.lifetime.multiplier(),
                b.lifetime.base_ms()
            ),
        ))
        .child(Node::leaf("Remaining Hop Limit", b.remaining_hop_limit.to_string()))
}

fn common_header_node(c: &CommonHeader, base: usize) -> Node {
    Node::new("Common Header")
        .with_span(base, COMMON_HEADER_LEN)
        .child(Node::leaf(
            "Next Header",
            format!("{} ({})", c.next_header.name(), c.next_header.to_u4()),
        ))
        .child(Node::leaf(
            "Header type",
            format!("{} (0x{:02x})", header_type_name(c.header_type), c.header_type),
        ))
        .child(Node::leaf(
            "Traffic class",
            format!(
                "0x{:02x} (store-carry-forward {}, channel offload {}, id {})",
                c.traffic_class,
                c.traffic_class >> 7,
                (c.traffic_class >> 6) & 1,
                c.traffic_class & 0x3f
            ),
        ))
        .child(Node::leaf("Mobile", c.mobile.to_string()))
        .child(Node::leaf("Payload length", c.payload_length.to_string()))
        .child(Node::leaf("Maximum Hop Limit", c.max_hop_limit.to_string()))
}

fn position_vector_node(pv: &LongPositionVector, base: usize) -> Node {
    let a = &pv.address;
    Node::new("Source position")
        .with_span(base, 24)
        .child(
            Node::new("GN_ADDR")
                .with_value(hex(&a.0))
                .with_span(base, 8)
                .child(Node::leaf("Manual", a.manual().to_string()))
                .child(Node::leaf("ITS-S type", a.station_type().to_string()))
                .child(Node::leaf("MID", mac(&a.mid()))),
        )
        .child(
            Node::leaf("Timestamp", format!("{} ms (TAI since 2004, mod 2^32)", pv.timestamp)).with_span(base + 8, 4),
        )
        .child(
            Node::leaf(
                "Latitude",
                format!("{:.7}° ({})", f64::from(pv.latitude) / 1e7, pv.latitude),
            )
            .with_span(base + 12, 4),
        )
        .child(
            Node::leaf(
                "Longitude",
                format!("{:.7}° ({})", f64::from(pv.longitude) / 1e7, pv.longitude),
            )
            .with_span(base + 16, 4),
        )
        .child(Node::leaf("Position accuracy indicator", pv.accurate.to_string()))
        .child(Node::leaf("Speed", format!("{:.2} m/s", f64::from(pv.speed) / 100.0)))
        .child(Node::leaf("Heading", format!("{:.1}°", f64::from(pv.heading) / 10.0)).with_span(base + 22, 2))
}

fn btp_node(b: &BtpBHeader, base: usize) -> Node {
    Node::new("BTP-B")
        .with_span(base, BTP_HEADER_LEN)
        .child(Node::leaf(
            "Destination Port",
            format!("{} ({})", b.destination_port, BtpBHeader::port_name(b.destination_port)),
        ))
        .child(Node::leaf(
            "Destination Port info",
            format!("0x{:04x}", b.destination_port_info),
        ))
}

fn cam_node(c: &Cam) -> Node {
    let p = &c.cam.cam_parameters;
    let rp = &p.basic_container.reference_position;
    let mut n = Node::new("CAM (EN 302 637-2)")
        .child(Node::leaf("stationID", c.header.station_id.to_string()))
        .child(Node::leaf(
            "generationDeltaTime",
            format!("{} ms", c.cam.generation_delta_time),
        ))
        .child(Node::leaf("stationType", p.basic_container.station_type.to_string()))
        .child(Node::leaf(
            "referencePosition",
            format!(
                "lat {:.7}°, lon {:.7}°",
                f64::from(rp.latitude) / 1e7,
                f64::from(rp.longitude) / 1e7
            ),
        ));
    if let HighFrequencyContainer::BasicVehicle(hf) = &p.high_frequency_container {
        n.push(Node::leaf(
            "speed",
            format!("{:.2} m/s", f64::from(hf.speed.speed_value) / 100.0),
        ));
        n.push(Node::leaf(
            "heading",
            format!("{:.1}°", f64::from(hf.heading.heading_value) / 10.0),
        ));
    }
    n.push(Node::leaf(
        "lowFrequencyContainer",
        if p.low_frequency_container.is_some() {
            "present"
        } else {
            "absent"
        },
    ));
    n
}

fn denm_node(d: &Denm) -> Node {
    let m = &d.denm.management;
    let ep = &m.event_position;
    let mut n = Node::new("DENM (EN 302 637-3)")
        .child(Node::leaf("stationID", d.header.station_id.to_string()))
        .child(Node::leaf(
            "actionID",
            format!(
                "station {} sequence {}",
                m.action_id.originating_station_id, m.action_id.sequence_number
            ),
        ))
        .child(Node::leaf(
            "detectionTime",
            format!("{} ms since 2004", m.detection_time),
        ))
        .child(Node::leaf(
            "eventPosition",
            format!(
                "lat {:.7}°, lon {:.7}°",
                f64::from(ep.latitude) / 1e7,
                f64::from(ep.longitude) / 1e7
            ),
        ));
    if let Some(s) = &d.denm.situation {
        n.push(Node::leaf(
            "eventType",
            format!(
                "cause {} sub-cause {}",
                s.event_type.cause_code, s.event_type.sub_cause_code
            ),
        ));
    }
    n
}

/// The BTP payload: a CAM or DENM when it decodes as one, else its bytes.
fn application_node(port: u16, payload: &[u8], base: usize) -> Node {
    let decoded = match port {
        2001 => decode_cam(payload).ok().map(|c| cam_node(&c)),
        2002 => decode_denm(payload).ok().map(|d| denm_node(&d)),
        _ => None,
    };
    let n = match decoded {
        Some(n) => n,
        None => {
            let mut n = Node::new("Application payload").with_value(format!("{} bytes (not decoded)", payload.len()));
            if let Some(h) = peek_header(payload) {
                n.push(Node::leaf(
                    "ItsPduHeader",
                    format!(
                        "protocolVersion {} messageID {} stationID {}",
                        h.protocol_version, h.message_id, h.station_id
                    ),
                ));
            }
            n.push(Node::leaf("bytes", hex(payload)));
            n
        }
    };
    n.with_span(base, payload.len())
}

/// Common header, SHB header, BTP and application nodes of a network part at `base`.
fn network_nodes(net: &NetworkPart<'_>, base: usize) -> Vec<Node> {
    let shb_base = base + COMMON_HEADER_LEN;
    let btp_base = shb_base + SHB_HEADER_LEN;
    vec![
        common_header_node(&net.common, base),
        Node::new("Topologically-Scoped Broadcast Packet (SHB)")
            .with_span(shb_base, SHB_HEADER_LEN)
            .child(position_vector_node(&net.shb.source, shb_base))
            .child(Node::leaf("Media-dependent data", hex(&net.shb.media_dependent)).with_span(shb_base + 24, 4)),
        btp_node(&net.btp, btp_base),
        application_node(net.btp.destination_port, net.payload, btp_base + BTP_HEADER_LEN),
    ]
}

/// Tree of a GeoNetworking packet at offset `base` of the input. Fails unless the basic
/// header and the secured message (or, unsecured, the network part) decode; a secured
/// payload that is not a network part, or is encrypted, is shown as such.
pub fn gn_packet_node(bytes: &[u8], base: usize) -> Result<Node, AttemptError> {
    let (basic, rest) = BasicHeader::parse(bytes)?;
    let mut root = Node::new("GeoNetworking").with_span(base, bytes.len());
    root.push(basic_header_node(&basic, base));
    let body = base + BASIC_HEADER_LEN;
    match basic.next_header {
        BasicNextHeader::CommonHeader => {
            let net = NetworkPart::parse(rest)?;
            root.children.extend(network_nodes(&net, body));
        }
        BasicNextHeader::SecuredPacket => match rest.first() {
            Some(3) => {
                let (data, spans) = d2::parse_data(rest).map_err(AttemptError::SecuredIeee1609Dot2)?;
                let mut sec = data_node(&data, spans.as_ref());
                sec.label = "Secured Packet (IEEE 1609.2 / TS 103 097 v2)".into();
                sec.span = Some((0, rest.len()));
                shift(&mut sec, body);
                root.push(sec);
                let (payload, payload_end) = match (&data.content, spans.as_ref()) {
                    (d2::Ieee1609Dot2Content::SignedData(s), Some(sp)) => {
                        (d2::signed_unsecured_payload(s), sp.payload_data.as_ref().map(|r| r.end))
                    }
                    (d2::Ieee1609Dot2Content::UnsecuredData(o), _) => (Some(&o.0[..]), Some(rest.len())),
                    _ => (None, None),
                };
                match payload {
                    Some(p) => {
                        // The unsecured data are the last bytes of their enclosing Ieee1609Dot2Data.
                        let at = payload_end.and_then(|end| end.checked_sub(p.len())).unwrap_or(0);
                        match NetworkPart::parse(p) {
                            Ok(net) => root.children.extend(network_nodes(&net, body + at)),
                            Err(e) => root.children.push(not_a_network_part(p, &e, Some(body + at))),
                        }
                    }
                    None => {
                        root.push(Node::leaf(
                            "Payload",
                            "encrypted or external: common header, extended header and BTP are not visible",
                        ));
                    }
                }
            }
            Some(2) => {
                let m = crate::v1_2_1::SecuredMessage::from_bytes(rest).map_err(AttemptError::SecuredV1_2_1)?;
                let mut sec = super::v1_2_1_message_node(&m);
                sec.label = "Secured Packet (TS 103 097 v1.2.1)".into();
                shift(&mut sec, body);
                root.push(sec);
                let pt = m.payload.payload_type;
                if pt == crate::v1_2_1::PayloadType::UNSECURED || pt == crate::v1_2_1::PayloadType::SIGNED {
                    match NetworkPart::parse(&m.payload.data) {
                        Ok(net) => {
                            // Offset of the payload data in the input is not tracked for v1.2.1.
                            let mut nodes = network_nodes(&net, 0);
                            nodes.iter_mut().for_each(strip_spans);
                            root.children.extend(nodes);
                        }
                        Err(e) => root.children.push(not_a_network_part(&m.payload.data, &e, None)),
                    }
                } else {
                    root.push(Node::leaf(
                        "Payload",
                        format!("{}: common header, extended header and BTP are not visible", pt.name()),
                    ));
                }
            }
            Some(&v) => return Err(AttemptError::SecuredPacketVersion(v)),
            None => return Err(AttemptError::EmptySecuredPacket),
        },
        other => return Err(AttemptError::BasicNextHeader(other.to_u4())),
    }
    Ok(root)
}

/// A secured payload that is not common header + SHB + BTP-B (the security layer decoded,
/// so the packet is shown with this node rather than rejected).
fn not_a_network_part(payload: &[u8], e: &crate::geonet::GeonetError, at: Option<usize>) -> Node {
    let n = Node::new("Secured payload")
        .with_value(format!(
            "{} bytes, not a GeoNetworking network part: {e}",
            payload.len()
        ))
        .child(Node::leaf("bytes", hex(payload)));
    match at {
        Some(off) => n.with_span(off, payload.len()),
        None => n,
    }
}

fn strip_spans(n: &mut Node) {
    n.span = None;
    n.children.iter_mut().for_each(strip_spans);
}
