//! `[misbehaviour]`: the closed loop of issue 33, run after the scenario's own run. Every
//! vehicle and receiver is a thread of the orchestrator with its own sockets on loopback and
//! its own 1609.2 state loaded from a fresh PKI directory per run; the MA is a process
//! ([`authority`]):
//!
//! - vehicles (the scenario's benign `senders` and the insider `attackers`) drive along a
//!   three-lane road and send real CAMs (`v2x-wire`'s facilities codec) at `rate_hz`,
//!   signed with their valid tickets; an insider passes each CAM through `v2x-mbd`'s
//!   attack ([`Liar`]) from `start_s` on, and hears its neighbours' true content (what
//!   data replay copies) from the road model rather than from the air;
//! - receivers verify every CAM with SN-DECAP, run `v2x-mbd`'s detector on the accepted
//!   ones, and on a sender's first flagged CAM with a TS 103 759 observation send a report
//!   (signed with their ticket permitted for misbehaviour reporting, encrypted to the MA);
//! - the misbehaviour authority (MA) decrypts, verifies, correlates and, at
//!   `min_reporters` distinct reporters, revokes through the PKI directory's CRL
//!   ([`v2x_security::Pki::revoke`]: the root re-signs `crl.oer`, the file every station
//!   loads its revocation state from at start) and pushes that signed CRL to every
//!   receiver's infrastructure socket, as a roadside unit relays one;
//! - a receiver verifies the CRL against its trust anchor and installs it
//!   ([`v2x_security::TrustStore::apply_crl`]); SN-DECAP then rejects the attacker's CAMs
//!   as `revoked-certificate`.
//!
//! Each step's time (TAI µs of the one testbed clock) is recorded; the latencies and their
//! distribution are [`crate::analyse::misbehaviour`].

pub use crate::misbehaviour_log::{
    ReceiverRecord, ReportRecord, RevocationRecord, RunRecord, SenderView, VehicleRecord,
};
use crate::run::authority::{self, AuthorityConfig, AuthorityRecords, MA};
use crate::run::credentials::{self, TicketSet};
use crate::run::error::{io, TestbedError};
use crate::scenario::misbehaviour::MisbehaviourConfig;
use crate::scenario::Scenario;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::{SocketAddr, UdpSocket};
use std::path::Path;
use std::time::Duration;
use v2x_mbd::attacks::{Attack, Liar, Sent};
use v2x_mbd::detector::{Detector, DetectorConfig};
use v2x_mbd::message::Kinematics;
use v2x_mbd::observation::{from_cam, CamContext, LocalFrame};
use v2x_mbd::report::asn::ThreeDLocation;
use v2x_mbd::report::{cam_report_with_certificate, secure};
use v2x_security::{CertRef, EncapRequest, Pki, SecurityEntity, TaiTime};
use v2x_wire::facilities::{decode_cam, encode_cam, passenger_car_cam, HighFrequencyContainer, VehicleState};

/// Where the road is (any place: the checks work in a local plane around it).
const FRAME: LocalFrame = LocalFrame {
    origin_lat_deg: 48.0,
    origin_lon_deg: 11.0,
};
/// Receivers keep listening this long after the last CAM, s.
const LINGER_S: f64 = 1.0;
/// Lane width and the vehicles' spacing along the road, m.
const LANE_M: f64 = 3.5;
const SPACING_M: f64 = 25.0;
/// Every vehicle accelerates gently (so that a feigned brake has an acceleration to lie
/// about), m/s².
const ACCELERATION: f64 = 0.4;
/// Where a position attack that picks a place picks it (min x, min y, max x, max y, m): the
/// stretch of road the run covers.
const ROAD_BOUNDS: [f64; 4] = [0.0, -10.0, 1000.0, 20.0];
/// Evidence CAMs a report carries (the flagged one first, then the sender's previous).
const EVIDENCE: usize = 3;

/// One vehicle's true state `t` seconds into the run: lane `k % 3`, `SPACING_M × k` along
/// a road heading east, 12–16 m/s, accelerating at 0.4 m/s².
pub fn truth(k: u32, t: f64) -> Kinematics {
    let v0 = 12.0 + f64::from(k % 5);
    let x = SPACING_M * f64::from(k) + v0 * t + 0.5 * ACCELERATION * t * t;
    let y = LANE_M * f64::from(k % 3);
    let mut s = Kinematics::at([x, y], v0 + ACCELERATION * t, 90.0, ACCELERATION);
    // What the CAM declares (passenger_car_cam's confidences): 5 m, 0.05 m/s, 1°, 1 m/s².
    s.pos_noise = [5.0, 5.0, 0.0];
    s.spd_noise = 0.05;
    s.hed_noise = 1.0;
    s.acl_noise = 1.0;
    s
}

/// A receiver's place beside the road.
fn receiver_position(j: u32) -> [f64; 2] {
    [50.0 + 60.0 * f64::from(j), -10.0]
}

/// The CAM of `state` (local plane) from station `station_id`, generated at `now_us`.
fn cam_bytes(station_id: u32, state: &Kinematics, now_us: u64) -> Result<Vec<u8>, TestbedError> {
    let (lat, lon) = FRAME.unproject(state.xy());
    let v = VehicleState {
        station_id,
        latitude: (lat * 1e7).round() as i32,
        longitude: (lon * 1e7).round() as i32,
        speed: (state.spd * 100.0).round().clamp(0.0, 16_382.0) as u16,
        heading: ((state.hed.rem_euclid(360.0) * 10.0).round() as u16).min(3599),
        altitude_cm: 0,
    };
    let gdt = ((now_us / 1000) % 65_536) as u16;
    let mut cam = passenger_car_cam(&v, gdt, false);
    if let HighFrequencyContainer::BasicVehicle(hf) = &mut cam.cam.cam_parameters.high_frequency_container {
        hf.longitudinal_acceleration.value = (state.acl * 10.0).round().clamp(-160.0, 160.0) as i16;
    }
    encode_cam(&cam).map_err(|e| TestbedError::Io {
        context: "encoding a CAM".into(),
        source: std::io::Error::other(e.to_string()),
    })
}

/// Runs every closed-loop run of `cfg` under `out` (`run-N/pki`). With `exe` (the `v2x`
/// binary) the MA is its own process (`exe mbd-authority`); without, a thread of this one.
pub fn run(
    scenario: &Scenario,
    cfg: &MisbehaviourConfig,
    out: &Path,
    exe: Option<&Path>,
) -> Result<Vec<RunRecord>, TestbedError> {
    let attack = cfg.attack()?;
    let detector = cfg.detector()?;
    (0..cfg.runs)
        .map(|r| {
            let dir = out.join(format!("run-{r}"));
            run_once(scenario, cfg, &attack, &detector, r, &dir, exe)
        })
        .collect()
}

/// The MA of one run: a process of its own, or a thread of the orchestrator.
enum RunningAuthority<'scope> {
    Process {
        child: std::process::Child,
        records_file: std::path::PathBuf,
    },
    Thread(std::thread::ScopedJoinHandle<'scope, Result<AuthorityRecords, TestbedError>>),
}

impl RunningAuthority<'_> {
    /// Waits for the MA to stop (it stops at the run's end) and reads what it did.
    fn finish(self) -> Result<AuthorityRecords, TestbedError> {
        match self {
            RunningAuthority::Process {
                mut child,
                records_file,
            } => {
                let status = child.wait().map_err(io("waiting for the MA process"))?;
                if !status.success() {
                    return Err(TestbedError::StationFailed {
                        name: MA.into(),
                        status: status.to_string(),
                    });
                }
                let text = std::fs::read(&records_file).map_err(io(format!("reading {}", records_file.display())))?;
                serde_json::from_slice(&text).map_err(|e| TestbedError::Io {
                    context: format!("reading {}", records_file.display()),
                    source: std::io::Error::other(e),
                })
            }
            RunningAuthority::Thread(h) => h.join().map_err(|e| TestbedError::Io {
                context: "the MA thread panicked".into(),
                source: std::io::Error::other(format!("{e:?}")),
            })?,
        }
    }
}

fn pki_error(e: v2x_security::PkiError) -> TestbedError {
    credentials::CredentialError::from(e).into()
}

fn names(prefix: &str, n: u32) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

fn hex8(c: &CertRef) -> String {
    hex::encode(c.hashed_id8().0)
}

fn bind() -> Result<UdpSocket, TestbedError> {
    UdpSocket::bind("127.0.0.1:0").map_err(io("binding a closed-loop socket"))
}

fn addr(s: &UdpSocket) -> Result<SocketAddr, TestbedError> {
    s.local_addr().map_err(io("closed-loop socket address"))
}

fn run_once(
    scenario: &Scenario,
    cfg: &MisbehaviourConfig,
    attack: &Attack,
    detector: &DetectorConfig,
    run: u32,
    dir: &Path,
    exe: Option<&Path>,
) -> Result<RunRecord, TestbedError> {
    std::fs::create_dir_all(dir).map_err(io(format!("creating {}", dir.display())))?;
    let pki = credentials::open_or_init_pki(&dir.join("pki"))?;
    let receivers = names("rx", scenario.receivers);
    let benign = names("tx", scenario.senders);
    let insiders = names("insider", cfg.attackers);
    for r in &receivers {
        credentials::issue_tickets(&pki, r, TicketSet::Reporter, 1)?;
    }
    for s in benign.iter().chain(&insiders) {
        credentials::issue_tickets(&pki, s, TicketSet::Standard, 1)?;
    }
    credentials::issue_tickets(&pki, MA, TicketSet::MisbehaviourAuthority, 1)?;
    let ma_credentials = pki.tickets(MA).map_err(pki_error)?.remove(0);
    let ma_certificate = ma_credentials.certificate.clone();

    // Sockets first: everyone's addresses are known before anything is sent.
    let cam_sockets: Vec<UdpSocket> = receivers.iter().map(|_| bind()).collect::<Result<_, _>>()?;
    let crl_sockets: Vec<UdpSocket> = receivers.iter().map(|_| bind()).collect::<Result<_, _>>()?;
    let cam_peers: Vec<SocketAddr> = cam_sockets.iter().map(addr).collect::<Result<_, _>>()?;
    let crl_peers: Vec<SocketAddr> = crl_sockets.iter().map(addr).collect::<Result<_, _>>()?;

    let start_us = crate::clock::now_us() + 500_000;
    let send_end_us = start_us + (cfg.duration_s * 1e6) as u64;
    let end_us = send_end_us + (LINGER_S * 1e6) as u64;
    let period_us = ((1e6 / scenario.rate_hz) as u64).max(1);
    let vehicles: Vec<(u32, String, bool)> = benign
        .iter()
        .map(|n| (n.clone(), false))
        .chain(insiders.iter().map(|n| (n.clone(), true)))
        .enumerate()
        .map(|(k, (n, a))| (k as u32, n, a))
        .collect();
    let others: Vec<(u32, String)> = vehicles.iter().map(|(k, n, _)| (*k, n.clone())).collect();

    std::thread::scope(|scope| -> Result<RunRecord, TestbedError> {
        let min_reporters = cfg.min_reporters as usize;
        let (ma, ma_addr) = match exe {
            Some(exe) => {
                let config = AuthorityConfig {
                    pki_dir: dir.join("pki"),
                    min_reporters,
                    crl_peers: crl_peers.clone(),
                    end_us,
                    address_file: dir.join("ma.address"),
                    records_file: dir.join("ma-records.json"),
                };
                let path = dir.join("ma.toml");
                config.save(&path)?;
                let child = std::process::Command::new(exe)
                    .arg("mbd-authority")
                    .arg("--config")
                    .arg(&path)
                    .spawn()
                    .map_err(io(format!("starting {} mbd-authority", exe.display())))?;
                let running = RunningAuthority::Process {
                    child,
                    records_file: config.records_file.clone(),
                };
                match authority::announced_address(&config.address_file, Duration::from_secs(10)) {
                    Ok(a) => (running, a),
                    Err(e) => {
                        if let RunningAuthority::Process { mut child, .. } = running {
                            let _ = child.kill();
                            let _ = child.wait();
                        }
                        return Err(e);
                    }
                }
            }
            None => {
                let sock = bind()?;
                let a = addr(&sock)?;
                let pki = Pki::open(&dir.join("pki")).map_err(pki_error)?;
                let crl_peers = crl_peers.clone();
                let h =
                    scope.spawn(move || authority::serve(pki, ma_credentials, min_reporters, sock, &crl_peers, end_us));
                (RunningAuthority::Thread(h), a)
            }
        };
        let mut rx_handles = Vec::new();
        for (j, ((name, cam), crl)) in receivers.iter().zip(cam_sockets).zip(crl_sockets).enumerate() {
            let entity = pki.entity(name).map_err(pki_error)?;
            let ma_certificate = ma_certificate.clone();
            let detector = Detector::new(detector.clone());
            let name = name.clone();
            rx_handles.push(scope.spawn(move || {
                let rx = Receiver {
                    name,
                    position: receiver_position(j as u32),
                    entity,
                    detector,
                    ma: (ma_certificate, ma_addr),
                };
                rx.run(cam, crl, end_us)
            }));
        }
        let mut tx_handles = Vec::new();
        for (k, name, is_attacker) in &vehicles {
            let entity = pki.entity(name).map_err(pki_error)?;
            // Each run and insider its own draws (offsets, factors, when a sudden stop fires).
            let seed = cfg.seed + 1000 * u64::from(run) + u64::from(*k);
            let liar = is_attacker.then(|| Liar::new(attack.clone(), seed, ROAD_BOUNDS));
            let v = Vehicle {
                number: *k,
                name: name.clone(),
                entity,
                liar,
                lie_from_us: start_us + (cfg.start_s * 1e6) as u64,
                others: others.iter().filter(|(o, _)| o != k).cloned().collect(),
            };
            let peers = cam_peers.clone();
            tx_handles.push(scope.spawn(move || v.run(&peers, start_us, send_end_us, period_us)));
        }
        let join = |e: Box<dyn std::any::Any + Send>| TestbedError::Io {
            context: "a closed-loop station thread panicked".into(),
            source: std::io::Error::other(format!("{e:?}")),
        };
        let vehicles: Vec<VehicleRecord> = tx_handles
            .into_iter()
            .map(|h| h.join().map_err(join)?)
            .collect::<Result<_, _>>()?;
        let receivers: Vec<ReceiverRecord> = rx_handles
            .into_iter()
            .map(|h| h.join().map_err(join)?)
            .collect::<Result<_, _>>()?;
        let AuthorityRecords { reports, revocations } = ma.finish()?;
        Ok(RunRecord {
            run,
            vehicles,
            receivers,
            reports,
            revocations,
        })
    })
}

/// When vehicles send: each at its own phase inside the period (unsynchronised OBUs), the
/// content of each CAM its true state at the CAM's due time.
#[derive(Debug, Clone, Copy)]
struct Schedule {
    start_us: u64,
    period_us: u64,
}

impl Schedule {
    fn first(&self, k: u32) -> u64 {
        self.start_us + (u64::from(k) * 7919) % self.period_us
    }

    /// Vehicle `k`'s latest CAM due at or before `now_us` (due time, message id).
    fn latest(&self, k: u32, now_us: u64) -> Option<(u64, u64)> {
        let first = self.first(k);
        let n = now_us.checked_sub(first)? / self.period_us;
        Some((first + n * self.period_us, n))
    }

    /// Vehicle `k`'s true transmission due at `due_us`.
    fn transmission(&self, k: u32, name: &str, due_us: u64, message_id: u64) -> Sent {
        Sent {
            send_time_ns: (due_us * 1000) as i64,
            sender_id: name.to_string(),
            alias: u64::from(k),
            message_id,
            attacker: 0,
            sender: truth(k, (due_us - self.start_us) as f64 * 1e-6),
        }
    }
}

struct Vehicle {
    number: u32,
    name: String,
    entity: SecurityEntity,
    liar: Option<Liar>,
    lie_from_us: u64,
    /// Everyone else on the road (number, name): what an insider hears.
    others: Vec<(u32, String)>,
}

impl Vehicle {
    fn run(
        mut self,
        peers: &[SocketAddr],
        start_us: u64,
        end_us: u64,
        period_us: u64,
    ) -> Result<VehicleRecord, TestbedError> {
        let sock = bind()?;
        let certificate = self.entity.signing_certificate().map(hex8).unwrap_or_default();
        let mut rec = VehicleRecord {
            name: self.name.clone(),
            attacker: self.liar.is_some(),
            certificate,
            cams_sent: 0,
            lies_sent: 0,
            first_lie_us: None,
        };
        let schedule = Schedule { start_us, period_us };
        let mut due = schedule.first(self.number);
        let mut message_id = 0u64;
        // What the insider heard last from each neighbour (its CAM's due time).
        let mut heard = vec![0u64; self.others.len()];
        while due < end_us {
            crate::clock::sleep_until(due);
            let now = crate::clock::now_us();
            let own = schedule.transmission(self.number, &self.name, due, message_id);
            message_id += 1;
            let sends = match self.liar.as_mut() {
                Some(liar) => {
                    // Every neighbour's CAMs sent since the last step, in time order: the
                    // content exactly as they sent it (what a replay copies).
                    let mut new: Vec<Sent> = Vec::new();
                    for ((k, n), last) in self.others.iter().zip(&mut heard) {
                        if let Some((d, id)) = schedule.latest(*k, now).filter(|(d, _)| d > last) {
                            *last = d;
                            new.push(schedule.transmission(*k, n, d, id));
                        }
                    }
                    new.sort_by_key(|s| s.send_time_ns);
                    for s in new {
                        liar.hear(s);
                    }
                    if now >= self.lie_from_us {
                        liar.transmit(&own)
                    } else {
                        vec![own]
                    }
                }
                None => vec![own],
            };
            for s in sends {
                let cam = cam_bytes(1000 + self.number, &s.sender, now)?;
                let signed = self
                    .entity
                    .encap(&EncapRequest::cam(&cam).at(TaiTime(now)))
                    .map_err(|e| TestbedError::Io {
                        context: format!("{}: signing a CAM", self.name),
                        source: std::io::Error::other(e.to_string()),
                    })?;
                for p in peers {
                    let _ = sock.send_to(&signed.bytes, p);
                }
                rec.cams_sent += 1;
                if s.attacker != 0 {
                    rec.lies_sent += 1;
                    rec.first_lie_us.get_or_insert(now);
                }
            }
            due += period_us;
        }
        Ok(rec)
    }
}

struct Receiver {
    name: String,
    position: [f64; 2],
    entity: SecurityEntity,
    detector: Detector,
    ma: (CertRef, SocketAddr),
}

impl Receiver {
    fn run(mut self, cams: UdpSocket, crls: UdpSocket, end_us: u64) -> Result<ReceiverRecord, TestbedError> {
        cams.set_read_timeout(Some(Duration::from_millis(1)))
            .map_err(io("closed-loop receiver socket"))?;
        crls.set_nonblocking(true).map_err(io("closed-loop CRL socket"))?;
        let reporter = bind()?;
        let mut rec = ReceiverRecord {
            name: self.name.clone(),
            certificate: self.entity.signing_certificate().map(hex8).unwrap_or_default(),
            senders: BTreeMap::new(),
            crls_installed: Vec::new(),
            crls_refused: Vec::new(),
        };
        let mut recent: HashMap<String, VecDeque<Vec<u8>>> = HashMap::new();
        let mut buf = vec![0u8; 65_536];
        while crate::clock::now_us() < end_us {
            while let Ok(n) = crls.recv(&mut buf) {
                match self.entity.trust_store_mut().apply_crl(&buf[..n]) {
                    Ok(entries) => rec.crls_installed.push((crate::clock::now_us(), entries)),
                    Err(e) => rec.crls_refused.push(e.to_string()),
                }
            }
            let n = match cams.recv(&mut buf) {
                Ok(n) => n,
                Err(_) => continue,
            };
            let now = crate::clock::now_us();
            let bytes = &buf[..n];
            let signer = self
                .entity
                .precheck(bytes, TaiTime(now))
                .signer
                .map(|h| hex::encode(h.0));
            let revoked_since = rec.crls_installed.first().map(|c| c.0);
            match self.entity.decap_at(bytes, TaiTime(now)) {
                Err(r) => {
                    let view = rec
                        .senders
                        .entry(signer.unwrap_or_else(|| "unknown".into()))
                        .or_default();
                    *view.rejected.entry(r.reason.code().to_string()).or_default() += 1;
                    if r.reason == v2x_security::RejectReason::RevokedCertificate {
                        view.first_revoked_drop_us.get_or_insert(now);
                    }
                }
                Ok(d) => {
                    let Some(cert) = d.signer.clone() else { continue };
                    let key = hex8(&cert);
                    let ring = recent.entry(key.clone()).or_default();
                    ring.push_front(bytes.to_vec());
                    ring.truncate(EVIDENCE);
                    let view = rec.senders.entry(key.clone()).or_default();
                    view.accepted += 1;
                    if revoked_since.is_some_and(|t| t <= now) && self.entity.trust_store().is_revoked(&cert) {
                        view.accepted_after_revocation += 1;
                    }
                    let Ok(cam) = decode_cam(&d.payload) else { continue };
                    let ctx = CamContext {
                        frame: FRAME,
                        reception_time_s: now as f64 * 1e-6,
                        generation_time_s: d.generation_time.map(|g| g.0 as f64 * 1e-6),
                        receiver_position: self.position,
                        receiver_position_confidence_m: 1.0,
                        certificate: Some(cert.hashed_id8().0),
                    };
                    let Ok(obs) = from_cam(&cam, &ctx) else { continue };
                    let verdict = self.detector.observe(&obs);
                    if !verdict.flagged {
                        continue;
                    }
                    view.flagged += 1;
                    view.first_flagged_us.get_or_insert(now);
                    if view.report_sent_us.is_some() {
                        continue;
                    }
                    let (lat, lon) = FRAME.unproject(self.position);
                    let location = ThreeDLocation {
                        latitude: (lat * 1e7).round() as i32,
                        longitude: (lon * 1e7).round() as i32,
                        elevation: 0,
                    };
                    let evidence: Vec<Vec<u8>> = ring.iter().cloned().collect();
                    let report = cam_report_with_certificate(&verdict.reasons, evidence, Some(&cert), now, location)
                        .and_then(|mbr| secure(&mut self.entity, &mbr, &self.ma.0, TaiTime(now)));
                    match report {
                        Ok(bytes) => {
                            let _ = reporter.send_to(&bytes, self.ma.1);
                            view.report_sent_us = Some(crate::clock::now_us());
                            view.report_error = None;
                        }
                        Err(e) => view.report_error = Some(e.to_string()),
                    }
                }
            }
        }
        Ok(rec)
    }
}
