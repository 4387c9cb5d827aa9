//! The verification suite: per curve, ONE interleaved run of raw OpenSSL verify and sign
//! (the references), every backend side by side, the per-signer table, batch
//! verification, and the full stack: DECAP of digest-signed CAMs from 100 stations in
//! round-robin order under the `plain` and the opt-in `precomputed` strategies (with
//! x-only and compressed-R senders), and ENCAP (x-only and compressed R).
//!
//! Every row gets a paired ratio against its reference measured in the same trials
//! (median over trials of reference median / row median, with a 95% bootstrap interval),
//! and two rates: `1e6 / median µs per call` (wall clock, what every other suite quotes)
//! and calls per second of this thread's CPU time (what `openssl speed` reports). They
//! differ when other processes preempt the run.

use crate::measure::{run_trial, warm_up, Plan};
use crate::pool::WorkerOp;
use crate::result::{Measurement, PairedRatio};
use crate::stats::{bootstrap_median_ci95, median, LatencyStats};
use crate::suites::raw::curve_id;
use crate::suites::raw::{ecdsa_curve, RawEcdsa};
use crate::suites::stack::{cam_encap, repeat_signer_decap};
use crate::task::{Label, Prepared, Setup};
use crate::BenchError;
use crate::Suite;
use std::hint::black_box;
use v2x_crypto::backend::backend;
use v2x_crypto::{
    batch_verify, hash, BackendId, BatchItem, CacheConfig, CryptoOp, Curve, PrivateKey, Signature, SignerTable,
    VerifyStrategy,
};
use v2x_profile::{Level, MessageId, Method, Operation, ProtocolId, SignerKind, Variant};

/// Stations a receiver hears in the repeat-signer rows.
pub const SIGNERS: usize = 100;

/// Signatures per batch in the batch-verification row.
pub const BATCH: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reference {
    Verify,
    Sign,
}

/// A row's operation: built already, or a stack set-up to run before measuring.
enum Make {
    Ready(WorkerOp),
    Later(Setup),
}

struct Row {
    label: Label,
    setup: Make,
    reference: Reference,
    /// Signatures one call handles (the batch row verifies 8 per call); the paired
    /// ratio and rates are per signature.
    items: u32,
}

/// This thread's CPU time (Linux `/proc/thread-self/schedstat`, nanoseconds on CPU);
/// None elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn ready(op: WorkerOp) -> Make {
    Make::Ready(op)
}

/// 100 key pairs and x-only / compressed-R signatures over one digest each.
struct Signers {
    keys: Vec<PrivateKey>,
    digests: Vec<v2x_crypto::Digest>,
    x_only: Vec<Signature>,
    compressed: Vec<Signature>,
}

impl Signers {
    fn new(curve: Curve, n: usize) -> Result<Signers, BenchError> {
        let keys: Vec<PrivateKey> = (0..n).map(|_| PrivateKey::generate(curve)).collect::<Result<_, _>>()?;
        let digests: Vec<_> = (0..n).map(|i| hash(curve.hash_alg(), &i.to_be_bytes())).collect();
        let x_only = keys
            .iter()
            .zip(&digests)
            .map(|(k, d)| k.sign_digest(d.as_ref()))
            .collect::<Result<_, _>>()?;
        let compressed = keys
            .iter()
            .zip(&digests)
            .map(|(k, d)| k.sign_digest_compressed_r(d.as_ref()))
            .collect::<Result<_, _>>()?;
        Ok(Signers {
            keys,
            digests,
            x_only,
            compressed,
        })
    }
}

fn raw_label(op: Operation, curve: Curve, method: Method, note: &str) -> Label {
    let variant = Variant {
        curve: Some(curve_id(curve)),
        method: Some(method),
        ..Variant::default()
    };
    Label::new(Suite::Verify, ProtocolId::Raw, op, variant).note(note)
}

/// The profile vocabulary's name of a crypto backend.
fn backend_method(id: BackendId) -> Method {
    match id {
        BackendId::AwsLc => Method::AwsLc,
        BackendId::OpenSsl => Method::Openssl,
        BackendId::RustCrypto => Method::RustCrypto,
        BackendId::V2x => Method::V2x,
    }
}

fn rows(curve: Curve, quick: bool) -> Result<Vec<Row>, BenchError> {
    let cn = curve_id(curve);
    let raw = ecdsa_curve(cn).ok_or_else(|| BenchError::Setup(format!("no raw curve {cn}")))?;
    let mut rows = vec![
        Row {
            label: raw_label(
                Operation::Verify,
                curve,
                Method::Openssl,
                "raw OpenSSL ECDSA_do_verify, the reference of every verify row",
            ),
            setup: ready(RawEcdsa::new(raw)?.verify_op()),
            reference: Reference::Verify,
            items: 1,
        },
        Row {
            label: raw_label(
                Operation::Sign,
                curve,
                Method::Openssl,
                "raw OpenSSL ECDSA_do_sign, the reference of every sign row",
            ),
            setup: ready(RawEcdsa::new(raw)?.sign_op()),
            reference: Reference::Sign,
            items: 1,
        },
    ];
    let signers = std::sync::Arc::new(Signers::new(curve, SIGNERS)?);
    for id in BackendId::ALL.into_iter().filter(|b| *b != BackendId::OpenSsl) {
        if id.supports(curve, CryptoOp::Verify) {
            let s = signers.clone();
            let mut i = 0usize;
            rows.push(Row {
                label: raw_label(
                    Operation::Verify,
                    curve,
                    backend_method(id),
                    "v2x-crypto backend, 100 keys round-robin, parsed keys cached",
                ),
                setup: ready(Box::new(move || {
                    i = (i + 1) % s.keys.len();
                    if !backend(id).verify_digest(s.keys[i].public_key(), s.digests[i].as_ref(), &s.x_only[i])? {
                        return Err(BenchError::Setup("valid signature rejected".into()));
                    }
                    Ok(())
                })),
                reference: Reference::Verify,
                items: 1,
            });
        }
        if id.supports(curve, CryptoOp::Sign) {
            let s = signers.clone();
            rows.push(Row {
                label: raw_label(Operation::Sign, curve, backend_method(id), "v2x-crypto backend"),
                setup: ready(Box::new(move || {
                    black_box(backend(id).sign_digest(&s.keys[0], s.digests[0].as_ref())?);
                    Ok(())
                })),
                reference: Reference::Sign,
                items: 1,
            });
        }
    }
    // The per-signer tables of 100 keys, used round-robin (tables do not all fit in cache).
    let tables: Vec<SignerTable> = signers
        .keys
        .iter()
        .map(|k| SignerTable::build(k.public_key(), v2x_crypto::DEFAULT_WINDOW))
        .collect();
    let s = signers.clone();
    let mut i = 0usize;
    rows.push(Row {
        label: raw_label(
            Operation::Verify,
            curve,
            Method::PrecomputedTable100,
            "per-signer table (opt-in strategy), 100 signers round-robin, x-only r",
        ),
        setup: ready(Box::new(move || {
            i = (i + 1) % tables.len();
            if !tables[i].verify_digest(s.digests[i].as_ref(), &s.x_only[i])? {
                return Err(BenchError::Setup("valid signature rejected".into()));
            }
            Ok(())
        })),
        reference: Reference::Verify,
        items: 1,
    });
    let s = signers.clone();
    let mut start = 0usize;
    rows.push(Row {
        label: raw_label(
            Operation::Verify,
            curve,
            Method::Batch8CompressedR,
            "batch verification of 8 queued compressed-R signatures from 8 signers without tables; \
             latency per batch, ratio and rates per signature",
        ),
        setup: ready(Box::new(move || {
            {
                let items: Vec<BatchItem<'_>> = (0..BATCH)
                    .map(|x| {
                        let j = (start + x) % s.keys.len();
                        BatchItem {
                            key: s.keys[j].public_key(),
                            table: None,
                            digest: s.digests[j].as_ref(),
                            sig: &s.compressed[j],
                        }
                    })
                    .collect();
                start = (start + BATCH) % s.keys.len();
                if !batch_verify(&items)?.iter().all(|ok| *ok) {
                    return Err(BenchError::Setup("valid batch rejected".into()));
                }
            }
            Ok(())
        })),
        reference: Reference::Verify,
        items: BATCH as u32,
    });
    // Quick runs are too short to hear every station 16 times: tables from the first one.
    let precomputed = VerifyStrategy::Precomputed(CacheConfig {
        build_after: if quick { 1 } else { CacheConfig::default().build_after },
        ..CacheConfig::default()
    });
    let stack_label = |op: Operation, method: Method, note: &str| {
        let variant = Variant {
            curve: Some(cn),
            message: Some(MessageId::Cam),
            level: Some(Level::Sign),
            signer: Some(SignerKind::Digest),
            payload_bytes: Some(100),
            method: Some(method),
            ..Variant::default()
        };
        Label::new(Suite::Verify, ProtocolId::Ieee16092, op, variant).note(note)
    };
    rows.push(Row {
        label: stack_label(
            Operation::Decap,
            Method::Repeat100Precomputed,
            "strict DECAP, 100 stations round-robin, precomputed strategy (opt-in; tables built after 16 messages)",
        ),
        setup: Make::Later(repeat_signer_decap(curve, SIGNERS, precomputed, false, quick)),
        reference: Reference::Verify,
        items: 1,
    });
    rows.push(Row {
        label: stack_label(
            Operation::Decap,
            Method::Repeat100PrecomputedCompressedR,
            "as repeat100-precomputed, senders sign with compressed R (checked exactly)",
        ),
        setup: Make::Later(repeat_signer_decap(curve, SIGNERS, precomputed, true, quick)),
        reference: Reference::Verify,
        items: 1,
    });
    rows.push(Row {
        label: stack_label(
            Operation::Decap,
            Method::Repeat100Plain,
            "strict DECAP, 100 stations round-robin, plain strategy: every signer is verified as if first seen \
             (no table), fastest backend",
        ),
        setup: Make::Later(repeat_signer_decap(curve, SIGNERS, VerifyStrategy::Plain, false, quick)),
        reference: Reference::Verify,
        items: 1,
    });
    rows.push(Row {
        label: stack_label(
            Operation::Encap,
            Method::Fastest,
            "ENCAP with the fastest signing backend, x-only r",
        ),
        setup: Make::Later(cam_encap(curve, false)),
        reference: Reference::Sign,
        items: 1,
    });
    rows.push(Row {
        label: stack_label(
            Operation::Encap,
            Method::CompressedR,
            "ENCAP with compressed R (R recovered from public values)",
        ),
        setup: Make::Later(cam_encap(curve, true)),
        reference: Reference::Sign,
        items: 1,
    });
    Ok(rows)
}

/// Runs the suite on `curves`; returns the measurements and the paired ratios.
pub fn run(plan: &Plan, quick: bool, curves: &[Curve]) -> Result<(Vec<Measurement>, Vec<PairedRatio>), BenchError> {
    let mut measurements = Vec::new();
    let mut ratios = Vec::new();
    for &curve in curves {
        let rows = rows(curve, quick)?;
        let mut labels = Vec::with_capacity(rows.len());
        let mut refs = Vec::with_capacity(rows.len());
        let mut items = Vec::with_capacity(rows.len());
        let mut ops = Vec::with_capacity(rows.len());
        let mut sizes = Vec::with_capacity(rows.len());
        for row in rows {
            let prepared = match row.setup {
                Make::Ready(op) => Prepared::new(op),
                Make::Later(setup) => setup().map_err(|e| BenchError::SetupFailed {
                    what: row.label.key().to_string(),
                    source: Box::new(e),
                })?,
            };
            labels.push(row.label);
            refs.push(row.reference);
            items.push(f64::from(row.items));
            ops.push(prepared.op);
            sizes.push(prepared.packet_bytes);
        }
        let mut sizings = Vec::with_capacity(ops.len());
        for op in ops.iter_mut() {
            sizings.push(warm_up(plan, &mut **op)?);
        }
        let n = ops.len();
        let mut trials: Vec<Vec<Vec<f64>>> = vec![Vec::new(); n];
        let mut cpu_ns = vec![0u64; n];
        let mut calls = vec![0u64; n];
        for _ in 0..plan.trials.max(1) {
            for i in 0..n {
                let before = thread_cpu_ns();
                trials[i].push(run_trial(sizings[i], &mut *ops[i])?);
                if let (Some(a), Some(b)) = (before, thread_cpu_ns()) {
                    cpu_ns[i] += b.saturating_sub(a);
                }
                calls[i] += sizings[i].batch * sizings[i].samples as u64;
            }
        }
        // Reference rows are the first two (verify, sign).
        let reference_of = |r: Reference| if r == Reference::Verify { 0 } else { 1 };
        for i in 0..n {
            let stats = LatencyStats::from_trials(&trials[i], sizings[i].batch).ok_or(BenchError::NoSamples)?;
            let r = reference_of(refs[i]);
            let per_trial: Vec<f64> = trials[r]
                .iter()
                .zip(&trials[i])
                .map(|(a, b)| items[i] * median(a) / median(b))
                .collect();
            let (lo, hi) = bootstrap_median_ci95(&per_trial);
            let key = labels[i].key();
            ratios.push(PairedRatio {
                key,
                reference: labels[r].key(),
                ratio: median(&per_trial),
                ci95: [lo, hi],
                trials: per_trial.len(),
                median_us: stats.median_us / items[i],
                rate_wall_per_sec: items[i] * 1e6 / stats.median_us,
                rate_cpu_per_sec: (cpu_ns[i] > 0).then(|| items[i] * calls[i] as f64 / (cpu_ns[i] as f64 * 1e-9)),
                note: labels[i].note.clone(),
            });
            measurements.push(labels[i].clone().into_measurement(stats, sizes[i]));
        }
    }
    Ok((measurements, ratios))
}
