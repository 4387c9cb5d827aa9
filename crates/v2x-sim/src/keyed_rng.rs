//! Counter-based random draws for the channel and the receivers: each draw is a function
//! of (run seed, transmission, receiver, purpose) alone, not of how many draws came before.
//! The receivers of one transmission can then be evaluated in any order, on any number of
//! threads, and a run is identical for a seed whatever the thread count.
//!
//! The generator is SplitMix64 (`rand_xoshiro`), the counter-based generator of Java's
//! `SplittableRandom`: its output for state `s` is a bijective 64-bit mix of `s`. A draw
//! mixes twice: once for the transmission (the run key and the transmission's serial
//! number), once for the receiver and the purpose within it.
//!
//! The draws made on the event loop's thread in event order (mobility, backoff,
//! applications, own processing) come from the run's sequential streams ([`stream`]).

use crate::node_id::NodeId;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_xoshiro::SplitMix64;

/// The run's sequential streams of draws, one per model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Stream {
    Mobility = 1,
    /// The access layer's draws (EDCA backoff).
    Mac = 3,
    Applications = 4,
    /// Own signing and other processing not keyed by a received frame.
    Processing = 5,
}

/// The sequential stream `which` of the run with `seed`.
pub fn stream(seed: u64, which: Stream) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(which as u64))
}

/// What a draw is for; the same (transmission, receiver) pair draws once per purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Draw {
    /// The small-scale fading of the link.
    Fading = 0,
    /// Success of the SIGNAL field (error-rate reception models).
    SignalField = 1,
    /// Success of the data (error-rate reception models).
    Data = 2,
    /// The security processing of a received frame (its verification's service time).
    Processing = 3,
    /// The log-normal shadowing of the link (the sidelink).
    Shadowing = 4,
}

fn mix(x: u64) -> u64 {
    SplitMix64::seed_from_u64(x).next_u64()
}

/// A uniform in [0, 1) from 64 random bits (the top 53).
fn unit(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The draws of one run.
#[derive(Debug, Clone, Copy)]
pub struct RunDice {
    key: u64,
}

impl RunDice {
    pub fn new(seed: u64) -> RunDice {
        RunDice {
            key: mix(seed ^ 0x6b79_6564_2d72_6e67),
        }
    }

    /// The draws of transmission `serial` (unique within the run).
    pub fn transmission(self, serial: u64) -> TxDice {
        TxDice {
            key: mix(self.key ^ serial.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        }
    }

    /// The draws of one station.
    pub fn station(self, station: NodeId) -> StationDice {
        StationDice { run: self, station }
    }
}

/// The draws of one transmission at each of its receivers.
#[derive(Debug, Clone, Copy)]
pub struct TxDice {
    key: u64,
}

impl TxDice {
    /// A uniform in [0, 1) for `receiver` and `what`.
    pub fn uniform(self, receiver: NodeId, what: Draw) -> f64 {
        unit(mix(self.key ^ (u64::from(receiver.0) << 8 | what as u64)))
    }
}

/// The draws of one station, for any transmission it receives.
#[derive(Debug, Clone, Copy)]
pub struct StationDice {
    run: RunDice,
    station: NodeId,
}

impl StationDice {
    /// A uniform in [0, 1) for transmission `serial` at this station.
    pub fn uniform(self, serial: u64, what: Draw) -> f64 {
        self.run.transmission(serial).uniform(self.station, what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pearson's chi-square over `bins` equiprobable bins.
    fn chi_square(u: &[f64], bins: usize) -> f64 {
        let mut counts = vec![0f64; bins];
        for &x in u {
            counts[((x * bins as f64) as usize).min(bins - 1)] += 1.0;
        }
        let e = u.len() as f64 / bins as f64;
        counts.iter().map(|c| (c - e) * (c - e) / e).sum()
    }

    /// Draws over consecutive receivers of one transmission, over consecutive
    /// transmissions at one receiver and over the purposes are uniform, and neighbouring
    /// draws are uncorrelated (the keys differ by one bit or one unit only).
    #[test]
    fn keyed_draws_are_uniform_and_uncorrelated() {
        let run = RunDice::new(7);
        let along_receivers: Vec<f64> = (0..200_000u32)
            .map(|r| run.transmission(3).uniform(NodeId(r), Draw::Fading))
            .collect();
        let along_transmissions: Vec<f64> = (0..200_000u64)
            .map(|t| run.transmission(t).uniform(NodeId(5), Draw::Fading))
            .collect();
        let along_purposes: Vec<f64> = (0..70_000u32)
            .flat_map(|r| {
                [Draw::Fading, Draw::SignalField, Draw::Data].map(|w| run.transmission(9).uniform(NodeId(r), w))
            })
            .collect();
        // 99 degrees of freedom: the 0.999 quantile is 148.2.
        for (name, u) in [
            ("receivers", &along_receivers),
            ("transmissions", &along_transmissions),
            ("purposes", &along_purposes),
        ] {
            let chi = chi_square(u, 100);
            assert!(chi < 148.2, "{name}: chi-square {chi}");
            let n = u.len() as f64;
            let mean = u.iter().sum::<f64>() / n;
            assert!(
                (mean - 0.5).abs() < 4.0 * (1.0 / 12.0 / n).sqrt(),
                "{name}: mean {mean}"
            );
            // Lag-1 correlation of a uniform sequence: standard error 1/sqrt(n).
            let var = 1.0 / 12.0;
            let lag1 = u.windows(2).map(|w| (w[0] - 0.5) * (w[1] - 0.5)).sum::<f64>() / (n - 1.0) / var;
            assert!(lag1.abs() < 4.0 / n.sqrt(), "{name}: lag-1 correlation {lag1}");
        }
        // Different seeds give different draws.
        let other = RunDice::new(8).transmission(3).uniform(NodeId(0), Draw::Fading);
        assert_ne!(other, along_receivers[0]);
    }

    /// A draw depends on its key only: the same key gives the same value, in any order.
    #[test]
    fn a_draw_is_a_function_of_its_key() {
        let run = RunDice::new(1);
        let forward: Vec<f64> = (0..100)
            .map(|r| run.transmission(42).uniform(NodeId(r), Draw::Data))
            .collect();
        let backward: Vec<f64> = (0..100)
            .rev()
            .map(|r| run.transmission(42).uniform(NodeId(r), Draw::Data))
            .collect();
        assert!(forward.iter().eq(backward.iter().rev()));
        assert_eq!(run.station(NodeId(17)).uniform(42, Draw::Data), forward[17]);
    }
}
