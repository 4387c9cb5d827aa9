//! Access layers: who transmits when, for how long and on which resource of the channel.
//!
//! The [`crate::air::Air`] holds what is shared by every radio access technology: where the
//! stations are, the signals on the air, and what each receiver decodes (received power,
//! summed interference, SINR and error model, half duplex, channel sensing). An
//! [`AccessLayer`] decides the rest, behind one interface:
//!
//! - a station hands it a packet ([`AccessLayer::enqueue`]), with the packet's size (the
//!   protocol decides it per message: a certificate, a digest or a larger signature changes
//!   what goes on the air);
//! - it asks the air for steps at chosen times ([`Timers`]) and, when one is due
//!   ([`AccessLayer::fire`]), grants a frame the air for an air time on a [`Resource`]
//!   ([`Grant`]);
//! - it hears back what the station's radio senses ([`AccessLayer::medium_busy`],
//!   [`AccessLayer::medium_idle`]) and how its receptions ended
//!   ([`AccessLayer::reception_ended`]).
//!
//! Implementations: [`Edca`] (802.11p / ITS-G5 EDCA broadcast, the simulator's MAC) and
//! [`Immediate`] (no carrier sense: each frame on the air as soon as its station's previous
//! one is done; the channel emulator's `carrier_sense = false`). A sidelink MAC with a
//! sub-channel x subframe grid (LTE-V2X Mode 4, NR-V2X Mode 2) is a third implementation:
//! its timers are its subframes or slots, its grants name their sub-channels.

pub mod edca;
pub mod immediate;

pub use edca::Edca;
pub use immediate::Immediate;

use crate::node_id::NodeId;
use crate::scenario::AccessCategory;

/// The largest MSDU an 802.11 MAC carries: 2,304 octets (IEEE 802.11, the 802.11p / ITS-G5
/// limit). 802.11 fragments only individually addressed MSDUs (its fragmentation clause),
/// and neither GeoNetworking nor WSMP fragments, so a broadcast message above it cannot be
/// sent: the simulator refuses it (counted as refused oversize) rather than fragment it.
pub const MAX_MSDU_BYTES: u32 = 2304;

/// MAC header (24 octets) and FCS (4): the part of `[mac] mac_overhead_bytes` outside the
/// MSDU (the rest, LLC/SNAP and any IP/UDP, is inside it).
pub const MAC_HEADER_AND_FCS_BYTES: u32 = 28;

/// Whether an 802.11p frame of `frame_bytes` (the whole MPDU, with `mac_overhead_bytes` of
/// headers) carries an MSDU within [`MAX_MSDU_BYTES`].
pub fn fits_one_msdu(frame_bytes: u32, mac_overhead_bytes: u32) -> bool {
    frame_bytes.saturating_sub(mac_overhead_bytes.min(MAC_HEADER_AND_FCS_BYTES)) <= MAX_MSDU_BYTES
}

/// A packet a station hands to its access layer.
#[derive(Debug, Clone)]
pub struct Packet<F> {
    /// What the driver wants back when the packet is received.
    pub frame: F,
    /// Whole MPDU size on the air (payload, security and MAC overhead).
    pub bytes: u32,
    /// Its traffic class: the EDCA access category (a sidelink layer maps it to its
    /// priority).
    pub priority: AccessCategory,
}

/// What a station's radio senses when its access layer is asked to act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Medium {
    /// The station's clear-channel assessment reports the medium busy.
    pub busy: bool,
    /// The station is on the air until then (half duplex).
    pub tx_until: u64,
}

/// The part of the channel a transmission occupies. One channel today (802.11p uses all of
/// it): a sidelink layer names its sub-channels, and reception then sums interference per
/// sub-channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resource {
    pub first_subchannel: u16,
    pub subchannels: u16,
}

impl Resource {
    /// The whole channel.
    pub const WHOLE_CHANNEL: Resource = Resource {
        first_subchannel: 0,
        subchannels: 1,
    };
}

/// A frame granted the air.
#[derive(Debug, Clone)]
pub struct Grant<F> {
    pub frame: F,
    pub bytes: u32,
    /// When its station handed it over.
    pub queued_ns: u64,
    /// How long it stays on the air.
    pub airtime_ns: u64,
    pub resource: Resource,
}

/// What a due timer did.
#[derive(Debug)]
pub struct Fired<F> {
    /// A frame to put on the air now.
    pub grant: Option<Grant<F>>,
    /// Frames dropped meanwhile for waiting too long.
    pub dropped: u64,
}

impl<F> Fired<F> {
    /// Nothing goes on the air, nothing was dropped.
    pub fn nothing() -> Self {
        Fired {
            grant: None,
            dropped: 0,
        }
    }
}

/// What handing over a packet did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    Queued,
    /// The station's queue was full: the packet is dropped.
    Dropped,
}

/// Where an access layer asks for its steps: the air schedules each timer on its driver's
/// agenda ([`crate::air::Agenda`]) and hands it back to [`AccessLayer::fire`] when due.
pub trait Timers<T> {
    fn at(&mut self, t: u64, timer: T);
}

/// Who transmits when, for how long and on which resource (see the module documentation).
/// Every method runs on the driver's thread, in the order of the events.
pub trait AccessLayer<F>: Send {
    /// What a step of this layer carries (the station it belongs to among it).
    type Timer: Copy + std::fmt::Debug + Send + Sync;

    /// The station a timer belongs to.
    fn station(timer: &Self::Timer) -> NodeId;

    /// Station `n` hands over a packet at `now`.
    fn enqueue(
        &mut self,
        n: NodeId,
        packet: Packet<F>,
        now: u64,
        medium: Medium,
        timers: &mut impl Timers<Self::Timer>,
    ) -> Enqueued;

    /// A timer is due at `now`; `on_map` says whether its station is still on the map (a
    /// station that left sends nothing more).
    fn fire(
        &mut self,
        timer: Self::Timer,
        now: u64,
        medium: Medium,
        on_map: bool,
        timers: &mut impl Timers<Self::Timer>,
    ) -> Fired<F>;

    /// Station `n` senses the medium busy from `sensed_at` (at or after now).
    fn medium_busy(&mut self, n: NodeId, sensed_at: u64);

    /// Station `n` senses the medium idle from `now`.
    fn medium_idle(&mut self, n: NodeId, now: u64, timers: &mut impl Timers<Self::Timer>);

    /// A frame station `n` was receiving ended, decoded or not.
    fn reception_ended(&mut self, n: NodeId, decoded: bool);
}
