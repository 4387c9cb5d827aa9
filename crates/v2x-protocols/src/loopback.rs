//! A lossless loopback link between stations: what the protocol tests and the size
//! measurements use instead of delivering packets by hand.
//!
//! Every packet a station emits (its `encap` output, the replies its `decap` asks for,
//! its `poll` output) reaches its unicast destination, or every other station when
//! broadcast, in the order emitted; replies travel back the same way until no station
//! has anything left to send. Each `decap` and its verdict is recorded in an
//! [`Exchange`].
//!
//! ```
//! use v2x_protocols::loopback::Link;
//! use v2x_protocols::{build_pair, ProtocolConfig, Timestamp};
//!
//! let (mut a, mut b) = build_pair(&ProtocolConfig::default()).unwrap();
//! let x = Link::with_delay(500)
//!     .send(&mut [&mut *a, &mut *b], 0, b"hello", Timestamp(1_000))
//!     .unwrap();
//! assert_eq!(x.payloads(), vec![b"hello".to_vec()]);
//! ```

use crate::authenticator::{
    Authenticator, DecapOutcome, Destination, EncapError, OutgoingPacket, PacketKind, Released, StationId, Timestamp,
};
use crate::Rejection;
use std::collections::VecDeque;

/// Deliveries per exchange after which a link stops (two stations replying to each other
/// forever would otherwise never return).
pub const MAX_DELIVERIES: usize = 4_096;

/// The link: a fixed delay between sending and receiving.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Link {
    delay_us: u64,
}

/// One packet received by one station, and what the station made of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered {
    /// The sending station (None: injected from outside the link).
    pub from: Option<StationId>,
    pub to: StationId,
    pub kind: PacketKind,
    pub bytes: Vec<u8>,
    /// When the receiver processed it.
    pub at: Timestamp,
    pub outcome: DecapOutcome,
    /// Earlier pending packets this one decided.
    pub released: Vec<Released>,
}

/// Everything that happened on the link during one call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exchange {
    /// Every delivery, in order.
    pub deliveries: Vec<Delivered>,
    /// Pending packets a station's `poll` decided (expired while waiting for a key).
    pub polled: Vec<(StationId, Released)>,
    /// True when the link stopped after [`MAX_DELIVERIES`] with packets still queued.
    pub truncated: bool,
}

impl Link {
    /// A link that delivers instantly.
    pub fn new() -> Link {
        Link::default()
    }

    /// A link that delivers `delay_us` after sending.
    pub fn with_delay(delay_us: u64) -> Link {
        Link { delay_us }
    }

    /// Delivers `packets`, sent by `stations[from]`, and every reply, each received at
    /// `at`.
    pub fn deliver(
        &self,
        stations: &mut [&mut dyn Authenticator],
        from: usize,
        packets: Vec<OutgoingPacket>,
        at: Timestamp,
    ) -> Exchange {
        self.run(stations, Some(from), packets, at)
    }

    /// Delivers `packets` from a sender that is not on the link (another station's
    /// packets, a replay, an attacker's) to the stations they are addressed to (every
    /// station when broadcast), and every reply, each received at `at`.
    pub fn inject(
        &self,
        stations: &mut [&mut dyn Authenticator],
        packets: Vec<OutgoingPacket>,
        at: Timestamp,
    ) -> Exchange {
        self.run(stations, None, packets, at)
    }

    fn run(
        &self,
        stations: &mut [&mut dyn Authenticator],
        from: Option<usize>,
        packets: Vec<OutgoingPacket>,
        at: Timestamp,
    ) -> Exchange {
        let mut x = Exchange::default();
        let mut queue: VecDeque<(Option<usize>, OutgoingPacket)> = packets.into_iter().map(|p| (from, p)).collect();
        while let Some((sender, p)) = queue.pop_front() {
            let sender_id = sender.and_then(|i| stations.get(i)).map(|s| s.station_id());
            for (rx, station) in stations.iter_mut().enumerate() {
                let to = station.station_id();
                let addressed = match p.destination {
                    Destination::Broadcast => Some(rx) != sender,
                    Destination::Unicast(id) => id == to,
                };
                if !addressed {
                    continue;
                }
                if x.deliveries.len() >= MAX_DELIVERIES {
                    x.truncated = true;
                    return x;
                }
                let d = station.decap(&p.bytes, at);
                queue.extend(d.send.into_iter().map(|reply| (Some(rx), reply)));
                x.deliveries.push(Delivered {
                    from: sender_id,
                    to,
                    kind: p.kind,
                    bytes: p.bytes.clone(),
                    at,
                    outcome: d.outcome,
                    released: d.released,
                });
            }
        }
        x
    }

    /// `stations[from]` secures `payload` at `now`; every packet it emits, and every
    /// reply, is delivered at `now` plus the link's delay.
    pub fn send(
        &self,
        stations: &mut [&mut dyn Authenticator],
        from: usize,
        payload: &[u8],
        now: Timestamp,
    ) -> Result<Exchange, EncapError> {
        let packets = match stations.get_mut(from) {
            Some(s) => s.encap(payload, now)?,
            None => Vec::new(),
        };
        Ok(self.deliver(stations, from, packets, now.plus_micros(self.delay_us)))
    }

    /// `stations[which]`'s timer work at `now`: the packets it sends are delivered at
    /// `now` plus the delay, the pending packets it gave up on are recorded.
    pub fn poll(&self, stations: &mut [&mut dyn Authenticator], which: usize, now: Timestamp) -> Exchange {
        let Some(station) = stations.get_mut(which) else {
            return Exchange::default();
        };
        let id = station.station_id();
        let polled = station.poll(now);
        let mut x = self.deliver(stations, which, polled.send, now.plus_micros(self.delay_us));
        x.polled = polled.released.into_iter().map(|r| (id, r)).collect();
        x
    }
}

impl Exchange {
    /// Appends what happened in `later`.
    pub fn extend(&mut self, later: Exchange) {
        self.deliveries.extend(later.deliveries);
        self.polled.extend(later.polled);
        self.truncated |= later.truncated;
    }

    /// Payloads accepted by any station, in order: each packet accepted on arrival,
    /// followed by the earlier packets its arrival released.
    pub fn payloads(&self) -> Vec<Vec<u8>> {
        self.deliveries.iter().flat_map(delivered_payloads).collect()
    }

    /// As [`payloads`](Self::payloads), for the packets `station` received.
    pub fn payloads_at(&self, station: StationId) -> Vec<Vec<u8>> {
        self.deliveries
            .iter()
            .filter(|d| d.to == station)
            .flat_map(delivered_payloads)
            .collect()
    }

    /// Packets rejected on arrival (not counting released ones).
    pub fn rejections(&self) -> Vec<&Rejection> {
        self.deliveries
            .iter()
            .filter_map(|d| match &d.outcome {
                DecapOutcome::Rejected(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    /// The outcome of the first delivered packet of `kind`.
    pub fn outcome_of(&self, kind: PacketKind) -> Option<&DecapOutcome> {
        self.deliveries.iter().find(|d| d.kind == kind).map(|d| &d.outcome)
    }

    /// Every released packet, in order.
    pub fn released(&self) -> Vec<Released> {
        self.deliveries
            .iter()
            .flat_map(|d| d.released.iter().cloned())
            .collect()
    }
}

fn delivered_payloads(d: &Delivered) -> Vec<Vec<u8>> {
    let first = match &d.outcome {
        DecapOutcome::Accepted(del) => Some(del.payload.clone()),
        _ => None,
    };
    first
        .into_iter()
        .chain(
            d.released
                .iter()
                .filter_map(|r| r.result.as_ref().ok().map(|del| del.payload.clone())),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::none::{NoneConfig, NoneStation};

    #[test]
    fn broadcast_reaches_every_other_station_unicast_only_its_destination() {
        let mut a = NoneStation::new(StationId(1), NoneConfig::default());
        let mut b = NoneStation::new(StationId(2), NoneConfig::default());
        let mut c = NoneStation::new(StationId(3), NoneConfig::default());
        let link = Link::with_delay(7);
        let x = link
            .send(&mut [&mut a, &mut b, &mut c], 0, b"all", Timestamp(10))
            .unwrap();
        let to: Vec<_> = x.deliveries.iter().map(|d| (d.to, d.at)).collect();
        assert_eq!(to, [(StationId(2), Timestamp(17)), (StationId(3), Timestamp(17))]);
        assert_eq!(x.payloads_at(StationId(3)), vec![b"all".to_vec()]);
        let unicast = OutgoingPacket {
            bytes: [1u32.to_be_bytes().as_slice(), b"one"].concat(),
            kind: PacketKind::Data,
            destination: Destination::Unicast(StationId(3)),
        };
        let x = link.deliver(&mut [&mut a, &mut b, &mut c], 0, vec![unicast], Timestamp(20));
        assert_eq!(x.deliveries.len(), 1);
        assert_eq!(x.deliveries[0].to, StationId(3));
        assert!(x.rejections().is_empty() && !x.truncated);
    }
}
