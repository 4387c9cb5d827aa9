//! A synthetic receiver's log for benchmarks (`v2x bench --suite mbd`): a dense highway
//! around one receiver, every vehicle sending CAMs at ETSI's highest rate (10 Hz), so the
//! detector sees many senders at once and every check runs on every message.

use crate::message::{Kinematics, Message};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `vehicles` cars spread over 1 km of a straight road, three lanes each way, 20–35 m/s, sending
/// every 0.1 s for `seconds` with up to ±1 m of position noise (declared confidence 2 m);
/// the receiver drives in the middle of the road. Messages in reception order.
pub fn highway(vehicles: usize, seconds: f64, seed: u64) -> Vec<Message> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cars: Vec<(f64, f64, f64)> = (0..vehicles)
        .map(|_| {
            let lane = rng.gen_range(0..6);
            let dir = if lane < 3 { 1.0 } else { -1.0 };
            let y = 3.5 * f64::from(lane) - 8.75;
            (rng.gen_range(-500.0..500.0), y, dir * rng.gen_range(20.0..35.0))
        })
        .collect();
    let steps = (seconds / 0.1).round() as i64;
    let mut out = Vec::with_capacity(vehicles * steps as usize);
    let mut id = 0;
    for k in 0..steps {
        let t = k as f64 * 0.1;
        let receiver = Kinematics::at([25.0 * t - 500.0, 1.75], 25.0, 90.0, 0.0);
        for (v, &(x0, y, speed)) in cars.iter().enumerate() {
            // Stations' timers are not synchronised: a per-vehicle phase within the 0.1 s.
            let send_ns = (k * 100_000_000) + (v as i64 * 7_919 % 100_000) * 1_000;
            let x = x0 + speed * t;
            let mut sender = Kinematics::at(
                [x + rng.gen_range(-1.0..1.0), y + rng.gen_range(-1.0..1.0)],
                speed.abs(),
                if speed > 0.0 { 90.0 } else { 270.0 },
                0.0,
            );
            sender.pos_noise = [2.0, 0.0, 0.0];
            sender.spd_noise = 0.1;
            sender.acl_noise = 0.1;
            sender.hed_noise = 2.0;
            id += 1;
            out.push(Message {
                rcv_time_ns: send_ns + 450_000,
                send_time_ns: send_ns,
                sender_id: v.to_string(),
                sender_alias: 1_000 + v as u64,
                message_id: id,
                attacker: 0,
                receiver: receiver.clone(),
                sender,
            });
        }
    }
    out.sort_by_key(|m| (m.rcv_time_ns, m.message_id));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vehicle_sends_every_tenth_of_a_second_in_reception_order() {
        let log = highway(20, 2.0, 1);
        assert_eq!(log.len(), 20 * 20);
        assert!(log.windows(2).all(|w| w[0].rcv_time_ns <= w[1].rcv_time_ns));
        let first: Vec<_> = log.iter().filter(|m| m.sender_id == "3").collect();
        assert_eq!(first.len(), 20);
        assert!(first
            .windows(2)
            .all(|w| w[1].send_time_ns - w[0].send_time_ns == 100_000_000));
    }
}
