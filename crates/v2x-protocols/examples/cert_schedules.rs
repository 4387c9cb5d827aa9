//! Certificate bytes saved vs unknown-signer losses of each certificate schedule
//! (`v2x_protocols::cert_schedule`), per experimental design's certificate size, over 20
//! seeded replications (mean and 95% Student-t interval).
//!
//! `cargo run --release -p v2x-protocols --example cert_schedules`

use v2x_protocols::cert_schedule::{evaluate, CertificateSchedule, ScheduleModel};
use v2x_security::pq::{PqDesign, PqPki};

const REPLICATIONS: u64 = 20;
/// Student t, 19 degrees of freedom, 97.5%.
const T19: f64 = 2.093;

fn mean_ci(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, T19 * (var / n).sqrt())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let now = v2x_security::time::TaiTime::parse_rfc3339("2026-11-21T12:00:00Z")?;
    println!("| certificate | extra B | arrivals/s | schedule | certificate B/s | redundant certificates | unknown-signer losses / receptions |");
    println!("|---|---|---|---|---|---|---|");
    for design in [
        PqDesign::PartiallyHybrid,
        PqDesign::PqOnly(v2x_crypto::pq::PqAlgorithm::FnDsa512),
        PqDesign::PqOnly(v2x_crypto::pq::PqAlgorithm::MlDsa44),
    ] {
        let pki = PqPki::new(design, now)?;
        let mut tx = pki.sender(pki.ticket()?);
        let cam = [0u8; 100];
        let with = tx.encap(&cam, v2x_wire::ItsAid::CAM, None, now, true)?.len();
        let without = tx.encap(&cam, v2x_wire::ItsAid::CAM, None, now, false)?.len();
        for arrivals in [0.2, 1.0] {
            for schedule in CertificateSchedule::ALL {
                let (mut bytes, mut redundant, mut losses) = (Vec::new(), Vec::new(), Vec::new());
                for seed in 0..REPLICATIONS {
                    let m = ScheduleModel {
                        seconds: 300.0,
                        rate_hz: 10.0,
                        arrivals_per_s: arrivals,
                        mean_dwell_s: 15.0,
                        delivery: 0.9,
                        certificate_extra_bytes: with - without,
                        seed,
                    };
                    let o = evaluate(schedule, &m);
                    bytes.push(o.certificate_bytes as f64 / m.seconds);
                    redundant.push(o.redundant_share());
                    losses.push(o.unknown_signer_loss_rate());
                }
                let (b, bh) = mean_ci(&bytes);
                let (r, rh) = mean_ci(&redundant);
                let (l, lh) = mean_ci(&losses);
                println!(
                    "| {design} | {} | {arrivals} | {} | {b:.0} ± {bh:.0} | {:.1} % ± {:.1} | {:.3} % ± {:.3} |",
                    with - without,
                    schedule.name(),
                    100.0 * r,
                    100.0 * rh,
                    100.0 * l,
                    100.0 * lh
                );
            }
        }
    }
    println!("\nmodel: one sender at 10 Hz, Poisson neighbour arrivals, exponential dwell (mean 15 s), delivery probability 0.9 per broadcast and station, 300 s, {REPLICATIONS} seeds");
    Ok(())
}
