use std::time::Instant;
fn main() {
    let hexs = std::env::args().nth(1).unwrap();
    let m = hex::decode(hexs).unwrap();
    let n = 20000;
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(v2x_wire::ieee1609dot2::parse_data(&m).unwrap());
    }
    println!("parse_data {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(rasn::coer::decode::<rasn_its::ieee1609dot2::Ieee1609Dot2Data>(&m).unwrap());
    }
    println!("rasn decode {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let d = rasn::coer::decode::<rasn_its::ieee1609dot2::Ieee1609Dot2Data>(&m).unwrap();
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(rasn::coer::encode(&d).unwrap());
    }
    println!("rasn encode {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}
