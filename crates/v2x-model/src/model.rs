//! The multi-hop security cost model of paper 003 (Section 3, Table 4).
//!
//! A message crosses n - 1 hops (n nodes on the route). Each step costs, per hop, its
//! transmission time (bytes over the radio) and propagation time (hop distance / c), plus
//! the verification every receiving node does before forwarding; once, the sender's and
//! the destination's operations. Summed over the steps, the security cost of a session is
//!
//! ```text
//! T(n) = (n - 1) * Σ (tx + prop + per_hop) + Σ (sender + destination) = a * n + b
//! a = Σ (tx + prop + per_hop),  b = Σ (sender + destination) - a
//! ```

use crate::costs::{CipherKind, CostError, CostSet};
use crate::radio::{Radio, RadioError};
use crate::scheme::{self, CipherRole, Field, Op, OpKind, Scheme, Step, StepSizes, Topology};
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ModelError {
    #[error(transparent)]
    Cost(#[from] CostError),
    #[error(transparent)]
    Radio(#[from] RadioError),
    #[error("{scheme} {topology} cannot use cipher `{cipher}`: {reason} (valid: {})", valid.join(", "))]
    Combination {
        scheme: Scheme,
        topology: Topology,
        cipher: String,
        reason: &'static str,
        valid: Vec<String>,
    },
    #[error("adjustment of step {step}: {reason}")]
    Adjustment { step: usize, reason: String },
}

/// A scheme with a signature algorithm and a cipher, named as in a [`CostSet`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Combination {
    pub scheme: Scheme,
    pub topology: Topology,
    pub signature: String,
    pub cipher: String,
}

impl Combination {
    pub fn new(scheme: Scheme, topology: Topology, signature: &str, cipher: &str) -> Combination {
        Combination {
            scheme,
            topology,
            signature: signature.into(),
            cipher: cipher.into(),
        }
    }

    /// `(DSA, AES)`, with the cost set's labels (the paper's notation).
    pub fn label(&self, set: &CostSet) -> String {
        let sig = set
            .signatures
            .get(&self.signature)
            .map_or(self.signature.as_str(), |s| &s.label);
        let c = set.ciphers.get(&self.cipher).map_or(self.cipher.as_str(), |c| &c.label);
        format!("({sig}, {c})")
    }

    /// `dsa+aes`: the names, for files and keys.
    pub fn pair(&self) -> String {
        format!("{}+{}", self.signature, self.cipher)
    }

    /// What the combination's cipher does in this scheme.
    fn cipher_kind(&self) -> CipherKind {
        match (self.scheme, self.topology) {
            (Scheme::Wang, Topology::Pairwise) => CipherKind::Symmetric,
            _ => CipherKind::Asymmetric,
        }
    }

    /// Checks that both names exist and the cipher fits the scheme.
    pub fn check(&self, set: &CostSet) -> Result<(), ModelError> {
        set.signature(&self.signature)?;
        let c = set.cipher(&self.cipher)?;
        let kind = self.cipher_kind();
        if c.kind != kind {
            return Err(ModelError::Combination {
                scheme: self.scheme,
                topology: self.topology,
                cipher: self.cipher.clone(),
                reason: match kind {
                    CipherKind::Symmetric => "Wang et al. pairwise encrypts its data with a symmetric cipher",
                    CipherKind::Asymmetric => "the session key travels under an asymmetric cipher",
                },
                valid: set.ciphers_of(kind).into_iter().map(String::from).collect(),
            });
        }
        Ok(())
    }
}

/// Every valid combination of a cost set for a scheme and topology, in name order.
pub fn combinations(set: &CostSet, scheme: Scheme, topology: Topology) -> Vec<Combination> {
    let kind = Combination::new(scheme, topology, "", "").cipher_kind();
    set.signatures
        .keys()
        .flat_map(|sig| {
            set.ciphers_of(kind)
                .into_iter()
                .map(move |c| Combination::new(scheme, topology, sig, c))
        })
        .collect()
}

/// A departure from the model in one step, to reproduce a paper's arithmetic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Adjustment {
    /// The step's message is `bytes` long whatever its fields say.
    StepBytes { step: usize, bytes: u64 },
    /// The destination's `op` of the step is not counted.
    OmitDestinationOp { step: usize, op: OpKind },
}

/// Security cost `a * n + b` (ms) for n nodes on the route.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub a: f64,
    pub b: f64,
}

impl Line {
    pub fn at(&self, n: f64) -> f64 {
        self.a * n + self.b
    }

    /// The n where two lines cross (None when parallel).
    pub fn crossing(&self, other: &Line) -> Option<f64> {
        let da = self.a - other.a;
        (da.abs() > 1e-12).then(|| (other.b - self.b) / da)
    }
}

/// One step's cost terms (ms).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepCost {
    pub step: usize,
    pub label: String,
    pub bytes: u64,
    /// `(field, bytes)`, e.g. `("certificate", 1024)`.
    pub fields: Vec<(String, u64)>,
    /// Per hop.
    pub transmission_ms: f64,
    /// Per hop.
    pub propagation_ms: f64,
    /// Verification at each receiving node, per hop.
    pub processing_per_hop_ms: f64,
    /// Sender and destination, once.
    pub processing_fixed_ms: f64,
}

impl StepCost {
    pub fn per_hop_ms(&self) -> f64 {
        self.transmission_ms + self.propagation_ms + self.processing_per_hop_ms
    }
}

/// A combination's cost on a radio.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    pub combination: Combination,
    pub label: String,
    pub steps: Vec<StepCost>,
    pub line: Line,
}

/// Parameters of an evaluation besides the costs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Conditions {
    pub radio: Radio,
    /// Members keyed by a group leader (group topology).
    pub group_members: u32,
}

struct Resolver<'a> {
    set: &'a CostSet,
    combo: &'a Combination,
}

impl Resolver<'_> {
    fn cipher_name(&self, role: CipherRole) -> &str {
        match role {
            CipherRole::Combination => &self.combo.cipher,
            CipherRole::Data => &self.set.data_cipher,
        }
    }

    fn field(&self, f: &Field) -> Result<(String, u64), CostError> {
        let z = &self.set.sizes;
        let sig = self.set.signature(&self.combo.signature)?;
        Ok(match f {
            Field::Message => ("message".into(), z.message_bytes),
            Field::Signature => ("signature".into(), sig.signature_bytes),
            Field::Certificate => ("certificate".into(), sig.certificate_bytes),
            Field::Hmac => ("hmac".into(), z.hmac_bytes),
            Field::KeyHash => ("key hash".into(), z.key_hash_bytes),
            Field::Ciphertext { role, plaintext } => {
                let name = self.cipher_name(*role);
                (
                    format!("{name} ciphertext"),
                    self.set.cipher(name)?.ciphertext_bytes(*plaintext),
                )
            }
        })
    }

    fn op_ms(&self, op: &Op) -> Result<f64, CostError> {
        let sig = &self.combo.signature;
        Ok(match *op {
            Op::Sign { bytes } => self.set.sign_cost(sig)?.ms(bytes),
            Op::Verify { bytes } => self.set.verify_cost(sig)?.ms(bytes),
            Op::Encrypt { role, bytes } | Op::Decrypt { role, bytes } => {
                let name = self.cipher_name(role);
                let blocks = self.set.cipher(name)?.blocks(bytes);
                let decrypt = matches!(op, Op::Decrypt { .. });
                self.set.cipher_cost(name, decrypt)?.ms(blocks)
            }
            Op::Hmac { bytes } => self.set.hmac_cost()?.ms(bytes),
            Op::DhKeygen => self.set.dh_cost(false)?.ms(0),
            Op::DhDerive => self.set.dh_cost(true)?.ms(0),
        })
    }

    fn ops_ms(&self, ops: &[Op]) -> Result<f64, CostError> {
        // Adding 0.0 turns the empty sum's -0.0 into 0.0.
        Ok(ops.iter().map(|o| self.op_ms(o)).sum::<Result<f64, _>>()? + 0.0)
    }
}

/// The steps of a combination with the cost set's sizes.
pub fn steps_for(set: &CostSet, combo: &Combination, members: u32) -> Result<Vec<Step>, ModelError> {
    let data_cipher = match (combo.scheme, combo.topology) {
        (Scheme::Wang, Topology::Pairwise) => &combo.cipher,
        _ => &set.data_cipher,
    };
    let z = &set.sizes;
    Ok(scheme::steps(
        combo.scheme,
        combo.topology,
        members,
        StepSizes {
            message: z.message_bytes,
            hmac: z.hmac_bytes,
            session_key: z.session_key_bytes,
            key_hash: z.key_hash_bytes,
            data_ciphertext: set.cipher(data_cipher)?.ciphertext_bytes(z.message_bytes),
        },
    ))
}

/// Evaluates a combination: per-step costs and the closed form.
pub fn evaluate(
    set: &CostSet,
    combo: &Combination,
    conditions: &Conditions,
    adjustments: &[Adjustment],
) -> Result<Evaluation, ModelError> {
    combo.check(set)?;
    let mut steps = steps_for(set, combo, conditions.group_members)?;
    let mut bytes_override = vec![None; steps.len()];
    for adj in adjustments {
        let step = match adj {
            Adjustment::StepBytes { step, .. } | Adjustment::OmitDestinationOp { step, .. } => *step,
        };
        let Some(s) = step.checked_sub(1).and_then(|i| steps.get_mut(i)) else {
            return Err(ModelError::Adjustment {
                step,
                reason: format!("the scheme has {} steps", bytes_override.len()),
            });
        };
        match adj {
            Adjustment::StepBytes { bytes, .. } => bytes_override[step - 1] = Some(*bytes),
            Adjustment::OmitDestinationOp { op, .. } => {
                let before = s.destination.len();
                s.destination.retain(|o| o.kind() != *op);
                if s.destination.len() == before {
                    return Err(ModelError::Adjustment {
                        step,
                        reason: format!("its destination does no {op:?}"),
                    });
                }
            }
        }
    }
    let r = Resolver { set, combo };
    let radio = &conditions.radio;
    let mut costs = Vec::with_capacity(steps.len());
    for (i, s) in steps.iter().enumerate() {
        let fields = s.fields.iter().map(|f| r.field(f)).collect::<Result<Vec<_>, _>>()?;
        let bytes = bytes_override[i].unwrap_or_else(|| fields.iter().map(|(_, b)| b).sum());
        costs.push(StepCost {
            step: i + 1,
            label: s.label.clone(),
            bytes,
            fields,
            transmission_ms: radio.transmission_ms(bytes),
            propagation_ms: radio.propagation_ms(),
            processing_per_hop_ms: r.ops_ms(&s.per_hop)?,
            processing_fixed_ms: r.ops_ms(&s.sender)? + r.ops_ms(&s.destination)?,
        });
    }
    let a: f64 = costs.iter().map(StepCost::per_hop_ms).sum();
    let fixed: f64 = costs.iter().map(|c| c.processing_fixed_ms).sum();
    Ok(Evaluation {
        label: combo.label(set),
        combination: combo.clone(),
        steps: costs,
        line: Line { a, b: fixed - a },
    })
}

/// The same message without security: only the data message m, sent over the route.
pub fn non_secure(set: &CostSet, radio: &Radio) -> Line {
    let a = radio.transmission_ms(set.sizes.message_bytes) + radio.propagation_ms();
    Line { a, b: -a }
}

/// The cost set with another message size (the sweeps of Figures 3-5).
pub fn with_message_bytes(set: &CostSet, bytes: u64) -> CostSet {
    let mut s = set.clone();
    s.sizes.message_bytes = bytes;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::radio::RadioKind;

    fn paper() -> (CostSet, Conditions) {
        let p = crate::paper003::Paper003::load().unwrap();
        (p.inputs.clone(), p.conditions())
    }

    #[test]
    fn wang_dsa_aes_terms_follow_table_4_arithmetic() {
        let (set, cond) = paper();
        let e = evaluate(
            &set,
            &Combination::new(Scheme::Wang, Topology::Pairwise, "dsa", "aes"),
            &cond,
            &[],
        )
        .unwrap();
        let s = &e.steps;
        assert_eq!(
            s.iter().map(|c| c.bytes).collect::<Vec<_>>(),
            vec![2088, 2108, 1044, 1080]
        );
        assert_eq!(s[0].fields[0], ("message".to_string(), 1024));
        for c in s {
            assert!((c.transmission_ms - c.bytes as f64 * 8.0 / 11e3).abs() < 1e-12);
            assert!((c.propagation_ms - 250.0 / 3e5).abs() < 1e-15);
        }
        assert!((s[0].processing_fixed_ms - 11.88676).abs() < 1e-12);
        assert!((s[0].processing_per_hop_ms - 8.096).abs() < 1e-12);
        assert_eq!(s[2].processing_fixed_ms, 0.0, "HMAC is free in the paper");
        assert_eq!(s[2].processing_per_hop_ms, 0.0);
        assert!((s[3].processing_fixed_ms - (0.6354 + 1.8411 + 11.88676)).abs() < 1e-12);
        // a = sum of per-hop terms, b = fixed - a
        let a: f64 = s
            .iter()
            .map(|c| c.transmission_ms + c.propagation_ms + c.processing_per_hop_ms)
            .sum();
        assert!((e.line.a - a).abs() < 1e-12);
        let fixed: f64 = s.iter().map(|c| c.processing_fixed_ms).sum();
        assert!(
            (e.line.at(1.0) - fixed).abs() < 1e-9,
            "one node: no hop, only processing"
        );
    }

    #[test]
    fn adjustments_change_only_their_step() {
        let (set, cond) = paper();
        let combo = Combination::new(Scheme::RayaHubaux, Topology::Pairwise, "dsa", "ecc");
        let plain = evaluate(&set, &combo, &cond, &[]).unwrap();
        let adj = evaluate(
            &set,
            &combo,
            &cond,
            &[Adjustment::OmitDestinationOp {
                step: 3,
                op: OpKind::Decrypt,
            }],
        )
        .unwrap();
        assert!((plain.line.b - adj.line.b - 58.7596).abs() < 1e-9);
        assert_eq!(plain.line.a, adj.line.a);
        let bad = evaluate(&set, &combo, &cond, &[Adjustment::StepBytes { step: 9, bytes: 1 }]);
        assert!(matches!(bad, Err(ModelError::Adjustment { step: 9, .. })));
        let bad = evaluate(
            &set,
            &combo,
            &cond,
            &[Adjustment::OmitDestinationOp {
                step: 1,
                op: OpKind::Decrypt,
            }],
        );
        assert!(matches!(bad, Err(ModelError::Adjustment { step: 1, .. })));
    }

    #[test]
    fn combinations_follow_cipher_roles() {
        let (set, _) = paper();
        let pairs = |s, t| {
            combinations(&set, s, t)
                .iter()
                .map(Combination::pair)
                .collect::<Vec<_>>()
        };
        assert_eq!(pairs(Scheme::Wang, Topology::Pairwise), ["dsa+aes", "rsa+aes"]);
        assert_eq!(
            pairs(Scheme::RayaHubaux, Topology::Pairwise),
            ["dsa+ecc", "dsa+rsa", "rsa+ecc", "rsa+rsa"]
        );
        assert_eq!(pairs(Scheme::Wang, Topology::Group).len(), 4);
        let e = Combination::new(Scheme::Wang, Topology::Pairwise, "dsa", "ecc")
            .check(&set)
            .unwrap_err();
        assert!(e.to_string().contains("valid: aes"), "{e}");
        let e = Combination::new(Scheme::RayaHubaux, Topology::Pairwise, "ecdsa", "ecc")
            .check(&set)
            .unwrap_err();
        assert!(e.to_string().contains("unknown signature algorithm `ecdsa`") && e.to_string().contains("dsa, rsa"));
    }

    #[test]
    fn group_cost_grows_with_members() {
        let (set, cond) = paper();
        let at = |s, g| {
            let c = Conditions {
                group_members: g,
                ..cond
            };
            evaluate(&set, &Combination::new(s, Topology::Group, "dsa", "ecc"), &c, &[])
                .unwrap()
                .line
        };
        // RH: one signed key message per member; Wang: one message, g encryptions.
        let (r1, r5) = (at(Scheme::RayaHubaux, 1), at(Scheme::RayaHubaux, 5));
        assert!((r5.a - r1.a) > 4.0 * 8.0, "four more verified messages per hop");
        let (w1, w5) = (at(Scheme::Wang, 1), at(Scheme::Wang, 5));
        assert!((w5.at(1.0) - w1.at(1.0) - 4.0 * 90.3593 * 16.0 / 1024.0).abs() < 1e-9);
        assert!(w5.a - w1.a < 1.0, "only the longer message crosses each hop");
    }

    #[test]
    fn lines_cross_where_they_are_equal() {
        let l1 = Line { a: 29.54, b: 8.6 };
        let l2 = Line { a: 15.95, b: 103.932 };
        let n = l1.crossing(&l2).unwrap();
        assert!((l1.at(n) - l2.at(n)).abs() < 1e-9);
        assert!((n - 7.015).abs() < 1e-3);
        assert_eq!(l1.crossing(&l1), None);
    }

    #[test]
    fn faster_radio_lowers_only_transmission() {
        let (set, cond) = paper();
        let combo = Combination::new(Scheme::Wang, Topology::Pairwise, "rsa", "aes");
        let slow = evaluate(&set, &combo, &cond, &[]).unwrap();
        let fast_radio = Radio::new(RadioKind::Ideal, 27.0, 250.0).unwrap();
        let fast = evaluate(
            &set,
            &combo,
            &Conditions {
                radio: fast_radio,
                ..cond
            },
            &[],
        )
        .unwrap();
        assert!(fast.line.a < slow.line.a);
        assert_eq!(fast.line.at(1.0), slow.line.at(1.0));
    }
}
