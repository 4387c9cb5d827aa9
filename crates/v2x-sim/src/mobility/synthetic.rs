//! Synthetic mobility: a straight two-way highway and a Manhattan grid.

use super::Position;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

fn speed(rng: &mut ChaCha8Rng, mean: f64, sd: f64) -> f64 {
    // Box-Muller; truncated at zero (vehicles do not reverse).
    let u1: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
    let u2: f64 = rng.gen();
    let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
    (mean + sd * z).max(0.0)
}

struct Car {
    x0: f64,
    y: f64,
    /// Signed speed along x (m/s).
    v: f64,
}

/// Straight highway along x with `lanes` per direction; vehicles wrap around at the ends
/// so that the density stays constant.
pub struct Highway {
    length: f64,
    cars: Vec<Car>,
}

impl Highway {
    pub fn new(
        length_m: f64,
        lanes: u32,
        lane_width_m: f64,
        density_per_km_lane: f64,
        speed_mps: f64,
        speed_sd_mps: f64,
        rng: &mut ChaCha8Rng,
    ) -> Highway {
        let per_lane = (length_m / 1000.0 * density_per_km_lane).round() as usize;
        let mut cars = Vec::with_capacity(per_lane * lanes as usize * 2);
        for dir in [1.0, -1.0] {
            for lane in 0..lanes {
                let y = dir * (f64::from(lane) + 0.5) * lane_width_m;
                for _ in 0..per_lane {
                    let x0 = rng.gen_range(0.0..length_m);
                    cars.push(Car {
                        x0,
                        y,
                        v: dir * speed(rng, speed_mps, speed_sd_mps),
                    });
                }
            }
        }
        Highway { length: length_m, cars }
    }

    pub fn len(&self) -> usize {
        self.cars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cars.is_empty()
    }

    pub fn positions_at(&self, t: f64, out: &mut Vec<Option<Position>>) {
        for c in &self.cars {
            out.push(Some([(c.x0 + c.v * t).rem_euclid(self.length), c.y]));
        }
    }
}

#[derive(Clone, Copy)]
enum Heading {
    East,
    West,
    North,
    South,
}

struct GridCar {
    x: f64,
    y: f64,
    heading: Heading,
    v: f64,
}

/// Manhattan grid on a torus: streets every `block` metres in both directions; at each
/// intersection a vehicle goes straight (1/2), turns left (1/4) or right (1/4).
pub struct Grid {
    width: f64,
    height: f64,
    block: f64,
    cars: Vec<GridCar>,
    t: f64,
}

impl Grid {
    pub fn new(
        width_m: f64,
        height_m: f64,
        block_m: f64,
        density_per_km2: f64,
        speed_mps: f64,
        speed_sd_mps: f64,
        rng: &mut ChaCha8Rng,
    ) -> Grid {
        let cols = (width_m / block_m).floor().max(1.0);
        let rows = (height_m / block_m).floor().max(1.0);
        let (width, height) = (cols * block_m, rows * block_m);
        let n = (width_m * height_m / 1e6 * density_per_km2).round() as usize;
        let mut cars = Vec::with_capacity(n);
        for _ in 0..n {
            let v = speed(rng, speed_mps, speed_sd_mps);
            let car = if rng.gen_bool(0.5) {
                let y = f64::from(rng.gen_range(0..rows as u32)) * block_m;
                let heading = if rng.gen_bool(0.5) {
                    Heading::East
                } else {
                    Heading::West
                };
                GridCar {
                    x: rng.gen_range(0.0..width),
                    y,
                    heading,
                    v,
                }
            } else {
                let x = f64::from(rng.gen_range(0..cols as u32)) * block_m;
                let heading = if rng.gen_bool(0.5) {
                    Heading::North
                } else {
                    Heading::South
                };
                GridCar {
                    x,
                    y: rng.gen_range(0.0..height),
                    heading,
                    v,
                }
            };
            cars.push(car);
        }
        // Number the vehicles along a Z-order curve of 250 m tiles: vehicles near one
        // another get nearby ids, so the receivers of a transmission sit close together
        // in the engine's per-node arrays (fewer cache misses; they drift apart only as
        // the vehicles move). The draws above are unchanged, only the numbering.
        let z = |c: &GridCar| {
            let (mut x, mut y) = ((c.x / 250.0) as u32, (c.y / 250.0) as u32);
            let mut k = 0u64;
            for b in 0..16 {
                k |= u64::from(x & 1) << (2 * b) | u64::from(y & 1) << (2 * b + 1);
                x >>= 1;
                y >>= 1;
            }
            k
        };
        cars.sort_by_key(z);
        Grid {
            width,
            height,
            block: block_m,
            cars,
            t: 0.0,
        }
    }

    pub fn len(&self) -> usize {
        self.cars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cars.is_empty()
    }

    /// Intersections holding a road side unit: every `every`-th in each direction.
    pub fn intersections(&self, every: u32) -> Vec<Position> {
        if every == 0 {
            return Vec::new();
        }
        let step = self.block * f64::from(every);
        let mut v = Vec::new();
        let mut x = 0.0;
        while x < self.width - 1e-9 {
            let mut y = 0.0;
            while y < self.height - 1e-9 {
                v.push([x, y]);
                y += step;
            }
            x += step;
        }
        v
    }

    /// Moves every vehicle to time `t` and reports positions.
    pub fn advance_to(&mut self, t: f64, rng: &mut ChaCha8Rng, out: &mut Vec<Option<Position>>) {
        let dt = (t - self.t).max(0.0);
        self.t = t.max(self.t);
        let (w, h, b) = (self.width, self.height, self.block);
        for c in &mut self.cars {
            let mut left = c.v * dt;
            // Bounded: a vehicle crosses at most left/b + 2 intersections per step.
            let mut guard = (left / b) as u64 + 4;
            while left > 1e-9 && guard > 0 {
                guard -= 1;
                let (pos, forward) = match c.heading {
                    Heading::East => (c.x, true),
                    Heading::West => (c.x, false),
                    Heading::North => (c.y, true),
                    Heading::South => (c.y, false),
                };
                let to_next = if forward {
                    let n = ((pos / b).floor() + 1.0) * b - pos;
                    if n < 1e-9 {
                        b
                    } else {
                        n
                    }
                } else {
                    let n = pos - (pos / b).floor() * b;
                    if n < 1e-9 {
                        b
                    } else {
                        n
                    }
                };
                let step = left.min(to_next);
                let s = if forward { step } else { -step };
                match c.heading {
                    Heading::East | Heading::West => c.x = (c.x + s).rem_euclid(w),
                    Heading::North | Heading::South => c.y = (c.y + s).rem_euclid(h),
                }
                left -= step;
                if step >= to_next - 1e-9 {
                    // At an intersection: snap to it and choose where to go.
                    c.x = ((c.x / b).round() * b).rem_euclid(w);
                    c.y = ((c.y / b).round() * b).rem_euclid(h);
                    let r: f64 = rng.gen();
                    c.heading = match (c.heading, r) {
                        (hd, r) if r < 0.5 => hd,
                        (Heading::East, r) if r < 0.75 => Heading::North,
                        (Heading::East, _) => Heading::South,
                        (Heading::West, r) if r < 0.75 => Heading::South,
                        (Heading::West, _) => Heading::North,
                        (Heading::North, r) if r < 0.75 => Heading::West,
                        (Heading::North, _) => Heading::East,
                        (Heading::South, r) if r < 0.75 => Heading::East,
                        (Heading::South, _) => Heading::West,
                    };
                }
            }
            out.push(Some([c.x, c.y]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn highway_has_density_and_stays_on_road() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let h = Highway::new(2000.0, 3, 3.5, 50.0, 30.0, 2.0, &mut rng);
        assert_eq!(h.len(), 600);
        let mut out = Vec::new();
        h.positions_at(100.0, &mut out);
        assert!(out
            .iter()
            .flatten()
            .all(|p| (0.0..2000.0).contains(&p[0]) && p[1].abs() < 11.0));
    }

    #[test]
    fn grid_vehicles_stay_on_streets() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut g = Grid::new(1000.0, 1000.0, 250.0, 200.0, 14.0, 2.0, &mut rng);
        assert_eq!(g.len(), 200);
        assert_eq!(g.intersections(1).len(), 16);
        let mut out = Vec::new();
        for k in 1..100 {
            out.clear();
            g.advance_to(f64::from(k) * 0.1, &mut rng, &mut out);
        }
        for p in out.iter().flatten() {
            let on_x_street = (p[1] / 250.0 - (p[1] / 250.0).round()).abs() < 1e-6;
            let on_y_street = (p[0] / 250.0 - (p[0] / 250.0).round()).abs() < 1e-6;
            assert!(on_x_street || on_y_street, "{p:?}");
        }
    }
}
