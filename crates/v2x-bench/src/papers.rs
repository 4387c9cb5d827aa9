//! The papers' measured values, shipped as data (`data/papers.json`), each with its
//! source table or figure. Transcribed from the papers, never measured here.

pub use crate::metric::Metric;
use crate::result::Measurement;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use v2x_profile::{CurveId, Level, MessageId, Operation, ProtocolId, SignerKind};

/// The shipped data file.
pub const PAPERS_JSON: &str = include_str!("../data/papers.json");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperData {
    pub description: String,
    /// Hardware identifier -> description (with its source table).
    pub hardware: BTreeMap<String, String>,
    /// Paper number -> citation.
    pub papers: BTreeMap<String, String>,
    pub entries: Vec<PaperValue>,
}

/// One published value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperValue {
    /// `000`, `001`, `002`, `004`.
    pub paper: String,
    /// Table or figure, e.g. `Table 4`, `Fig. 12`.
    pub source: String,
    pub hardware: String,
    pub procedure: String,
    #[serde(default)]
    pub scheme: Option<String>,
    pub metric: Metric,
    pub value: f64,
    /// Upper end when the paper gives a range (`form` = `range`).
    #[serde(default)]
    pub value_high: Option<f64>,
    /// How the paper states the value: a reading, a range, the largest point of a curve,
    /// or a bound (`v2x reproduce` compares each as what it is).
    #[serde(default, skip_serializing_if = "Form::is_point")]
    pub form: Form,
    /// The unit of the last digit the paper prints, in this entry's unit (0.01 for
    /// "72.66 %" as a fraction is 0.0001). Absent: the last decimal of `value` as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Whether our value can confirm the paper's: `independent` (default) unless the
    /// mechanism that gives ours contains the paper's number; `evidence_note` says how.
    #[serde(default, skip_serializing_if = "Evidence::is_independent")]
    pub evidence: Evidence,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub evidence_note: String,
    /// Why no set-up here can decide this value (it hangs on something not modelled,
    /// e.g. the paper's 802.11p driver buffers): ours is shown, not judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    /// A name for a value a paper's own module of `v2x reproduce` compares (no `match`,
    /// `sim` or `testbed`: the comparison is not a lookup).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Which measurement of this machine compares with it (none: no equivalent here).
    #[serde(default, rename = "match")]
    pub matcher: Option<Matcher>,
    /// For `time_ratio`: the denominator measurement.
    #[serde(default, rename = "match_denominator")]
    pub denominator: Option<Matcher>,
    #[serde(default)]
    pub note: String,
    /// Where in the paper: section and, where the paper's text has them, page or figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// For simulation results: which statistic of which scenario variant compares with it
    /// (`v2x reproduce` runs the scenario; the benchmark ignores these entries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sim: Option<SimMatch>,
    /// For test-bench results: which statistic of which live testbed run compares with it
    /// (`v2x reproduce` runs the testbed; the benchmark ignores these entries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub testbed: Option<TestbedMatch>,
}

v2x_profile::named_enum! {
    /// How a paper states a value.
    #[derive(Default)]
    pub enum Form ("value form") {
        /// A reading ("the PDR is equal to 0.48").
        #[default]
        Point = "point",
        /// A range, `value` to `value_high` ("2-3 orders of magnitude", "15-20 bytes").
        Range = "range",
        /// The largest point of a curve ("goes up to 90 ms", "as long as 10 ms"): compared
        /// with our largest point of the same curve.
        Maximum = "maximum",
        /// A bound from above ("less than 200 ms", "below 2 ms").
        UpperBound = "upper_bound",
        /// A bound from below ("as high as 25,000 per second").
        LowerBound = "lower_bound",
    }
}

impl Form {
    fn is_point(&self) -> bool {
        *self == Form::Point
    }
}

v2x_profile::named_enum! {
    /// What a comparison of ours with the paper's value can show.
    #[derive(Default)]
    pub enum Evidence ("evidence class") {
        /// Measured or simulated by a mechanism that does not contain the paper's number:
        /// the only class that counts as reproduced.
        #[default]
        Independent = "independent",
        /// Ours follows from what was put in: a byte layout coded from the paper's field
        /// sizes, a configured rate, an input echoed back.
        ByConstruction = "by-construction",
        /// Ours depends on a value back-computed from the paper's results.
        Fitted = "fitted",
        /// Our own question, not the paper's (its "value" is ours too).
        Extension = "extension",
    }
}

impl Evidence {
    fn is_independent(&self) -> bool {
        *self == Evidence::Independent
    }
}

v2x_profile::named_enum! {
    /// The axis a simulated maximum or bound is taken over.
    pub enum Axis ("axis") {
        /// The distance bins of the scenario's `[metrics]` (the paper's curve over Tx-Rx
        /// distance).
        Distance = "distance",
        /// The variants listed in `variants` (the paper's bars, e.g. one per message type).
        Variants = "variants",
    }
}

v2x_profile::named_enum! {
    /// A statistic of a simulation variant (pooled over replications).
    pub enum SimStatistic ("simulation statistic") {
        /// Verified / sent CAMs within the scenario's headline range.
        PdrApplication = "pdr_application",
        /// Received / sent CAMs within the headline range.
        PdrNetwork = "pdr_network",
        /// Mean end-to-end delay of accepted CAMs (ms).
        E2eMeanMs = "e2e_mean_ms",
        /// Mean inter-arrival time of accepted CAMs from one sender (ms).
        InterArrivalMeanMs = "inter_arrival_mean_ms",
        /// CAMs dropped by the security queue / CAMs that reached it.
        CryptoLossRatio = "crypto_loss_ratio",
        /// CAMs verified before they expired / CAMs that reached the security queue (paper
        /// 001 Eq. 3: one minus the cryptographic loss ratio when nothing is forged).
        VerificationRatio = "verification_ratio",
        /// Weighted safety awareness (fidelity of the neighbour table, 0..1).
        WeightedAwareness = "weighted_awareness",
        /// V2I queries answered / queries sent.
        QuerySuccessRate = "query_success_rate",
        /// Mean request-reply delay of answered queries (ms).
        QueryDelayMeanMs = "query_delay_mean_ms",
        /// 99th percentile of the MAC delay (queueing + channel access) of sent frames (ms).
        MacDelayP99Ms = "mac_delay_p99_ms",
        /// CAMs verified within `threshold_ms` of their reception by the radio / CAMs that
        /// reached the security layer (paper 004 Fig. 5: the verification-latency CDF over
        /// the packets that could have been received at the network layer).
        VerifiedWithinShare = "verified_within_share",
        /// V2I query requests received by the RSU / requests sent (paper 000 Table 7's
        /// "received requests" over "transmitted requests").
        QueryRequestsReceivedShare = "query_requests_received_share",
        /// V2I replies received by the vehicle / requests sent (Table 7's "received
        /// replies" over "transmitted requests").
        QueryRepliesReceivedShare = "query_replies_received_share",
        /// Certificate copies received by a station that already held that certificate /
        /// certificate copies received (NDSS 2024's "redundant" certificates).
        CertificateRedundancy = "certificate_redundancy",
    }
}

/// A simulation statistic a published value compares with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimMatch {
    /// Scenario name (a file under scenarios/papers/).
    pub scenario: String,
    /// Variant name in that scenario.
    pub variant: String,
    pub statistic: SimStatistic,
    /// The delay a `verified_within_share` is read at (ms; the scenario must list it in
    /// `[metrics] latency_thresholds_ms` so that it is counted exactly).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_ms: Option<f64>,
    /// For a `maximum` or a bound over a curve: the axis of the curve (our largest point
    /// over distance bins, or over the `variants`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum_over: Option<Axis>,
    /// The variants a maximum over variants is taken over (`variant` is one of them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<String>,
}

/// A live testbed run (paper 002: `senders` benign senders at `rate_hz`, one receiver,
/// optionally attackers of one case) and the statistic of it a published value compares
/// with. `v2x reproduce` makes the run with today's receiver and with PRESERVE's emulated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestbedMatch {
    /// Attack case code (`A-SIG-01`, ...); none: benign traffic only (the load plan).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    #[serde(default)]
    pub attackers: u32,
    /// Packets per second of each attacker.
    #[serde(default)]
    pub attacker_rate_hz: f64,
    /// Benign senders (Table 4.1: 5).
    #[serde(default = "five")]
    pub senders: u32,
    /// Benign packets per second of each sender (Table 4.1: 10).
    #[serde(default = "ten")]
    pub rate_hz: f64,
    /// No security header at all (Sec. 4.1.3's baseline): the `none` protocol.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsecured: bool,
    pub statistic: TestbedStatistic,
}

fn five() -> u32 {
    5
}
fn ten() -> f64 {
    10.0
}

v2x_profile::named_enum! {
    /// What a testbed value measures at the receiver.
    pub enum TestbedStatistic ("testbed statistic") {
        /// Benign packets received / all packets received (benign and attack), paper 002's
        /// "packet delivery ratio".
        PacketDeliveryRatio = "packet_delivery_ratio",
        /// Mean generation-to-verified delay of accepted benign packets (ms).
        E2eMeanMs = "e2e_mean_ms",
        /// Benign packets not accepted / benign packets sent.
        PacketLoss = "packet_loss",
        /// Benign packets dropped or rejected by the security layer / benign packets sent.
        SecurityLoss = "security_loss",
        /// Mean verification time of benign packets at the receiver (ms).
        VerifyMeanMs = "verify_mean_ms",
    }
}

/// Selects a measurement; absent fields match anything. `protocol` and `message` are in
/// order of preference.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matcher {
    #[serde(default)]
    pub protocol: Vec<ProtocolId>,
    #[serde(default)]
    pub operation: Option<Operation>,
    #[serde(default)]
    pub curve: Option<CurveId>,
    #[serde(default)]
    pub level: Option<Level>,
    #[serde(default)]
    pub signer: Option<SignerKind>,
    #[serde(default)]
    pub message: Vec<MessageId>,
    #[serde(default)]
    pub payload_bytes: Option<usize>,
}

impl Matcher {
    fn fits(&self, m: &Measurement) -> bool {
        fn opt<T: PartialEq>(want: &Option<T>, have: &Option<T>) -> bool {
            want.as_ref().is_none_or(|w| have.as_ref() == Some(w))
        }
        let v = &m.variant;
        self.operation.is_none_or(|o| o == m.operation)
            && opt(&self.curve, &v.curve)
            && opt(&self.level, &v.level)
            && opt(&self.signer, &v.signer)
            && self.payload_bytes.is_none_or(|p| m.payload_bytes == Some(p))
    }

    /// The preferred matching measurement: by protocol order, then message order, then
    /// the order of the run (smallest payload first).
    pub fn find<'a>(&self, measurements: &'a [Measurement]) -> Option<&'a Measurement> {
        let protocols: Vec<Option<&ProtocolId>> = if self.protocol.is_empty() {
            vec![None]
        } else {
            self.protocol.iter().map(Some).collect()
        };
        let messages: Vec<Option<&MessageId>> = if self.message.is_empty() {
            vec![None]
        } else {
            self.message.iter().map(Some).collect()
        };
        for p in &protocols {
            for msg in &messages {
                let hit = measurements.iter().find(|m| {
                    p.is_none_or(|p| *p == m.protocol)
                        && msg.is_none_or(|w| m.variant.message.as_ref() == Some(w))
                        && self.fits(m)
                });
                if hit.is_some() {
                    return hit;
                }
            }
        }
        None
    }
}

/// Parses the shipped data.
pub fn load() -> Result<PaperData, serde_json::Error> {
    serde_json::from_str(PAPERS_JSON)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_data_parses_and_is_sourced() {
        let d = load().unwrap();
        let raw: serde_json::Value = serde_json::from_str(PAPERS_JSON).unwrap();
        let listed = raw["entries"].as_array().unwrap().len();
        assert!(listed >= 388, "paper values were lost: {listed}");
        assert_eq!(d.entries.len(), listed, "every published value loads");
        for e in d.entries.iter().filter(|e| e.sim.is_some() || e.testbed.is_some()) {
            assert!(
                e.location.is_some(),
                "a simulated value names where it is printed: {e:?}"
            );
        }
        for e in &d.entries {
            assert!(!e.source.is_empty(), "{e:?}");
            assert!(d.papers.contains_key(&e.paper), "{e:?}");
            assert!(d.hardware.contains_key(&e.hardware), "unknown hardware in {e:?}");
            assert!(e.value.is_finite() && e.value >= 0.0, "{e:?}");
            // A value as written shows its printed digit, or says it (no binary residue
            // such as 0.7265999999999999 standing for 72.66 %).
            let digits = format!("{}", e.value).split_once('.').map_or(0, |(_, d)| d.len());
            assert!(digits <= 6 || e.precision.is_some(), "{e:?}");
            assert_eq!(e.form == Form::Range, e.value_high.is_some(), "{e:?}");
            assert!(
                e.evidence == Evidence::Independent || !e.evidence_note.is_empty(),
                "a value that is not independent says why: {e:?}"
            );
        }
        for p in ["000", "001", "002", "004", "005"] {
            assert!(d.entries.iter().any(|e| e.paper == p), "paper {p} has no value");
        }
    }

    #[test]
    fn transcribed_values_spot_check() {
        let d = load().unwrap();
        let get = |src: &str, hw: &str, proc_: &str, scheme: &str| {
            d.entries
                .iter()
                .find(|e| {
                    e.source == src
                        && e.hardware == hw
                        && e.procedure == proc_
                        && e.scheme.as_deref().is_none_or(|s| s == scheme || scheme.is_empty())
                })
                .map(|e| e.value)
        };
        // Paper 000 Table 5: Xeon, verify & decrypt with certificate, NISTP384-SHA384.
        assert_eq!(
            get(
                "Table 5",
                "xeon-e5-2667",
                "Verify & Decrypt with Certificate",
                "NISTP384-SHA384"
            ),
            Some(10.99)
        );
        // Paper 000 Table 4: CubieBoard, sign w/o certificate, NISTP192-SHA256.
        assert_eq!(
            get("Table 4", "cubieboard", "Sign w/o Certificate", "NISTP192-SHA256"),
            Some(1.39)
        );
        // Paper 002 Table 3.2: raw OpenSSL 64-bit verify/s.
        assert_eq!(
            get("Table 3.2", "atom-d510", "Raw OpenSSL (64bit) verify/s", ""),
            Some(2780.6)
        );
        // Paper 001 Table 11: hash-chain verify/s for BSM.
        assert_eq!(
            get("Table 11", "mk5-software", "hash-chain verify (BSM)", ""),
            Some(25000.0)
        );
    }

    #[test]
    fn a_typo_fails_to_load_instead_of_dropping_a_comparison() {
        let one = |metric: &str, matcher: &str| {
            format!(
                r#"{{"description":"","hardware":{{}},"papers":{{}},"entries":[{{"paper":"000","source":"T","hardware":"h",
                "procedure":"p","metric":"{metric}","value":1.0,"match":{matcher}}}]}}"#
            )
        };
        assert!(serde_json::from_str::<PaperData>(&one("latency_ms", r#"{"protocol":["raw"]}"#)).is_ok());
        let e = serde_json::from_str::<PaperData>(&one("latncy_ms", "{}"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown metric `latncy_ms`") && e.contains("ops_per_sec"),
            "{e}"
        );
        let e = serde_json::from_str::<PaperData>(&one("latency_ms", r#"{"protocol":["tesal"]}"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown protocol `tesal`"), "{e}");
        let e = serde_json::from_str::<PaperData>(&one("latency_ms", r#"{"curv":"p256"}"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("curv"), "{e}");
    }
}
