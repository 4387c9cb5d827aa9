//! Which secured-message format a received buffer holds — the one owner of this detection
//! (`v2x decap`, `v2x inspect`'s callers and the Python package's `Receiver.decap` use it):
//! a bare TS 103 097 v2 / IEEE 1609.2 message (protocol version 3), a bare v1.2.1 message
//! (protocol version 2), or either inside a GeoNetworking packet whose basic header
//! announces a secured packet.

use crate::geonet::GnPacket;

/// A secured-message format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageFormat {
    /// IEEE 1609.2 / ETSI TS 103 097 v2 (C-OER).
    V2,
    /// Legacy ETSI TS 103 097 v1.2.1.
    V1_2_1,
}

/// Finds the secured message in `bytes` and its format. Anything that is neither is
/// handed back whole as v2, so that the v2 decoder's rejection names the decoding failure.
pub fn locate_secured_message(bytes: &[u8]) -> (MessageFormat, &[u8]) {
    match bytes.first() {
        Some(3) => return (MessageFormat::V2, bytes),
        Some(2) if crate::v1_2_1::SecuredMessage::from_bytes(bytes).is_ok() => return (MessageFormat::V1_2_1, bytes),
        _ => {}
    }
    if let Ok(GnPacket::Secured { secured, .. }) = GnPacket::parse(bytes) {
        match secured.first() {
            Some(2) => return (MessageFormat::V1_2_1, secured),
            Some(_) => return (MessageFormat::V2, secured),
            None => {}
        }
    }
    (MessageFormat::V2, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_message_inside_a_geonetworking_packet() {
        let v2 = [3u8, 0x80, 0x01, 0x42];
        assert_eq!(locate_secured_message(&v2), (MessageFormat::V2, &v2[..]));
        let gn = crate::geonet::secured_packet(&v2);
        assert_eq!(locate_secured_message(&gn), (MessageFormat::V2, &v2[..]));
        // A GN v0 secured packet starts with 0x02 like a v1.2.1 message: the v1.2.1
        // parse fails on it, so the GN reading wins and finds the inner v1.2.1 message.
        let mut gn_v0 = gn.clone();
        gn_v0[0] = 0x02;
        gn_v0[4] = 2;
        assert_eq!(locate_secured_message(&gn_v0).0, MessageFormat::V1_2_1);
        let junk = [0xffu8; 7];
        assert_eq!(locate_secured_message(&junk), (MessageFormat::V2, &junk[..]));
    }
}
