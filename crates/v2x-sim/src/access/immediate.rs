//! No carrier sense: every frame goes on the air as soon as its station hands it over, or
//! when the station's previous frame is done (a station sends one frame at a time). No
//! backoff, no sensing, no queue limit: the channel emulator's `carrier_sense = false`,
//! where collisions are whatever the senders' timing makes them.

use super::{AccessLayer, Enqueued, Fired, Grant, Medium, Packet, Resource, Timers};
use crate::node_id::NodeId;
use std::collections::VecDeque;

/// The access step of a station: its next frame goes on the air.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImmediateTimer {
    pub station: NodeId,
}

/// Frames waiting behind their station's frame on the air.
#[derive(Default)]
struct Queue<F> {
    frames: VecDeque<(u64, u32, F)>,
    /// An access step is scheduled.
    scheduled: bool,
}

/// The no-carrier-sense [`AccessLayer`].
pub struct Immediate<F> {
    queues: Vec<Queue<F>>,
    rate_mbps: f64,
}

impl<F> Immediate<F> {
    /// `stations` stations sending at `rate_mbps`.
    pub fn new(stations: usize, rate_mbps: f64) -> Self {
        Immediate {
            queues: (0..stations)
                .map(|_| Queue {
                    frames: VecDeque::new(),
                    scheduled: false,
                })
                .collect(),
            rate_mbps,
        }
    }
}

impl<F: Send> AccessLayer<F> for Immediate<F> {
    type Timer = ImmediateTimer;

    fn station(timer: &ImmediateTimer) -> NodeId {
        timer.station
    }

    fn enqueue(
        &mut self,
        n: NodeId,
        packet: Packet<F>,
        now: u64,
        medium: Medium,
        timers: &mut impl Timers<ImmediateTimer>,
    ) -> Enqueued {
        let q = &mut self.queues[n.index()];
        q.frames.push_back((now, packet.bytes, packet.frame));
        if !q.scheduled {
            q.scheduled = true;
            timers.at(now.max(medium.tx_until), ImmediateTimer { station: n });
        }
        Enqueued::Queued
    }

    fn fire(
        &mut self,
        timer: ImmediateTimer,
        now: u64,
        _medium: Medium,
        on_map: bool,
        timers: &mut impl Timers<ImmediateTimer>,
    ) -> Fired<F> {
        let q = &mut self.queues[timer.station.index()];
        q.scheduled = false;
        if !on_map {
            q.frames.clear();
            return Fired::nothing();
        }
        let Some((queued_ns, bytes, frame)) = q.frames.pop_front() else {
            return Fired::nothing();
        };
        let airtime_ns = crate::phy::airtime_ns(bytes, self.rate_mbps);
        if !q.frames.is_empty() {
            q.scheduled = true;
            timers.at(now + airtime_ns, timer);
        }
        Fired {
            grant: Some(Grant {
                frame,
                bytes,
                queued_ns,
                airtime_ns,
                resource: Resource::WHOLE_CHANNEL,
            }),
            dropped: 0,
        }
    }

    fn medium_busy(&mut self, _n: NodeId, _sensed_at: u64) {}

    fn medium_idle(&mut self, _n: NodeId, _now: u64, _timers: &mut impl Timers<ImmediateTimer>) {}

    fn reception_ended(&mut self, _n: NodeId, _decoded: bool) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::AccessCategory;

    #[derive(Default)]
    struct Steps(Vec<(u64, ImmediateTimer)>);
    impl Timers<ImmediateTimer> for Steps {
        fn at(&mut self, t: u64, timer: ImmediateTimer) {
            self.0.push((t, timer));
        }
    }

    fn packet(frame: u32) -> Packet<u32> {
        Packet {
            frame,
            bytes: 100,
            priority: AccessCategory::Voice,
        }
    }

    /// A frame goes on the air when handed over; the next one of the same station when the
    /// first is done, whatever the medium.
    #[test]
    fn frames_go_on_the_air_one_after_another() {
        let mut a = Immediate::new(2, 6.0);
        let mut steps = Steps::default();
        let busy = Medium {
            busy: true,
            tx_until: 0,
        };
        let n = NodeId(1);
        a.enqueue(n, packet(1), 1_000, busy, &mut steps);
        a.enqueue(n, packet(2), 1_500, busy, &mut steps);
        assert_eq!(
            steps.0,
            vec![(1_000, ImmediateTimer { station: n })],
            "one step at a time"
        );
        let (t, timer) = steps.0.remove(0);
        let first = a.fire(timer, t, busy, true, &mut steps).grant.unwrap();
        let air = crate::phy::airtime_ns(100, 6.0);
        assert_eq!((first.frame, first.queued_ns, first.airtime_ns), (1, 1_000, air));
        assert_eq!(steps.0, vec![(1_000 + air, timer)], "the second after the first");
        let second = a.fire(timer, 1_000 + air, busy, true, &mut steps).grant.unwrap();
        assert_eq!((second.frame, second.queued_ns), (2, 1_500));
        assert_eq!(steps.0.len(), 1, "nothing more to schedule");
        // Handed over while its station is still on the air: after that frame.
        let on_air = Medium {
            busy: true,
            tx_until: 9_000,
        };
        a.enqueue(NodeId(0), packet(3), 2_000, on_air, &mut steps);
        assert_eq!(steps.0[1], (9_000, ImmediateTimer { station: NodeId(0) }));
        // A station that left the map sends nothing.
        assert!(a.fire(steps.0[1].1, 9_000, on_air, false, &mut steps).grant.is_none());
    }
}
