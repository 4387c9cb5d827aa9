//! The messages of the two session-key schemes, as paper 003 counts them: per step, the
//! fields on the air and the operations of the sender (once), of every node that receives
//! it (each of the n - 1 hops verifies the signature before forwarding: Section 3), and of
//! the destination (once).
//!
//! The schemes themselves are implemented in `v2x_protocols::session`; this is their cost
//! accounting, not a second implementation.

use serde::Serialize;

v2x_profile::named_enum! {
    /// Which scheme.
    pub enum Scheme ("scheme") {
        /// Raya & Hubaux (2007): signed handshake, session key sent under the peer's public key, HMAC data.
        RayaHubaux = "raya-hubaux",
        /// Wang et al. (2008): signed Diffie-Hellman handshake, encrypted and signed data.
        Wang = "wang",
    }
}

v2x_profile::named_enum! {
    /// Two stations, or a leader keying a group.
    pub enum Topology ("topology") {
        Pairwise = "pairwise",
        Group = "group",
    }
}

/// Which cipher an encryption uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CipherRole {
    /// The combination's cipher (Wang pairwise: the data cipher; otherwise key transport).
    Combination,
    /// The cost set's symmetric data cipher (Wang group data).
    Data,
}

/// A field of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "field")]
pub enum Field {
    /// M1, M2, M3 or m.
    Message,
    Signature,
    Certificate,
    Hmac,
    KeyHash,
    /// The encryption of `plaintext` bytes.
    Ciphertext {
        role: CipherRole,
        plaintext: u64,
    },
}

/// An operation on `bytes` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "op")]
pub enum Op {
    Sign {
        bytes: u64,
    },
    Verify {
        bytes: u64,
    },
    Encrypt {
        role: CipherRole,
        bytes: u64,
    },
    /// Decryption of the encryption of `bytes` plaintext bytes.
    Decrypt {
        role: CipherRole,
        bytes: u64,
    },
    Hmac {
        bytes: u64,
    },
    DhKeygen,
    DhDerive,
}

/// Kinds of operation, to name one in a [`crate::model::Adjustment`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpKind {
    Sign,
    Verify,
    Encrypt,
    Decrypt,
    Hmac,
    DhKeygen,
    DhDerive,
}

impl Op {
    pub fn kind(&self) -> OpKind {
        match self {
            Op::Sign { .. } => OpKind::Sign,
            Op::Verify { .. } => OpKind::Verify,
            Op::Encrypt { .. } => OpKind::Encrypt,
            Op::Decrypt { .. } => OpKind::Decrypt,
            Op::Hmac { .. } => OpKind::Hmac,
            Op::DhKeygen => OpKind::DhKeygen,
            Op::DhDerive => OpKind::DhDerive,
        }
    }
}

/// One message of a scheme.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// As the paper writes it, e.g. `A→B: M1, Sig_A[M1|T], Cert_A`.
    pub label: String,
    pub fields: Vec<Field>,
    pub sender: Vec<Op>,
    /// At every receiving node: n - 1 times.
    pub per_hop: Vec<Op>,
    pub destination: Vec<Op>,
}

/// Sizes the steps need before an algorithm is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepSizes {
    pub message: u64,
    pub hmac: u64,
    pub session_key: u64,
    pub key_hash: u64,
    /// Ciphertext bytes of the data message (the HMAC in Wang's data step covers it).
    pub data_ciphertext: u64,
}

/// The steps of `scheme` in `topology`; a group has `members` members.
pub fn steps(scheme: Scheme, topology: Topology, members: u32, z: StepSizes) -> Vec<Step> {
    use CipherRole::{Combination, Data};
    let s = z.message;
    let step = |label: &str, fields: Vec<Field>, sender: Vec<Op>, per_hop: Vec<Op>, destination: Vec<Op>| Step {
        label: label.into(),
        fields,
        sender,
        per_hop,
        destination,
    };
    // Wang's data message, mode 3 (the paper's choice): E_SK(m), Sig_A[HMAC_SK(E_SK(m))].
    let wang_data = |label: &str, role: CipherRole| {
        step(
            label,
            vec![Field::Ciphertext { role, plaintext: s }, Field::Signature],
            vec![
                Op::Encrypt { role, bytes: s },
                Op::Hmac {
                    bytes: z.data_ciphertext,
                },
                Op::Sign { bytes: z.hmac },
            ],
            vec![Op::Verify { bytes: z.hmac }],
            vec![
                Op::Hmac {
                    bytes: z.data_ciphertext,
                },
                Op::Decrypt { role, bytes: s },
            ],
        )
    };
    let hmac_data = |label: &str| {
        step(
            label,
            vec![Field::Message, Field::Hmac],
            vec![Op::Hmac { bytes: s }],
            vec![],
            vec![Op::Hmac { bytes: s }],
        )
    };
    let key = z.session_key;
    let group_entry = [
        Field::KeyHash,
        Field::Ciphertext {
            role: Combination,
            plaintext: key,
        },
    ];
    match (scheme, topology) {
        (Scheme::Wang, Topology::Pairwise) => vec![
            step(
                "A→B: M1(a, q, Y_A), Sig_A[M1|T], Cert_A",
                vec![Field::Message, Field::Signature, Field::Certificate],
                vec![Op::DhKeygen, Op::Sign { bytes: s }],
                vec![Op::Verify { bytes: s }],
                vec![],
            ),
            step(
                "B→A: M2(Y_B), Sig_B[M2|T], Cert_B, HMAC_SK(M2)",
                vec![Field::Message, Field::Signature, Field::Certificate, Field::Hmac],
                vec![Op::DhKeygen, Op::DhDerive, Op::Hmac { bytes: s }, Op::Sign { bytes: s }],
                vec![Op::Verify { bytes: s }],
                vec![Op::DhDerive, Op::Hmac { bytes: s }],
            ),
            step(
                "A→B: M3, HMAC_SK(M3)",
                vec![Field::Message, Field::Hmac],
                vec![Op::Hmac { bytes: s }],
                vec![],
                vec![Op::Hmac { bytes: s }],
            ),
            wang_data("A→B: E_SK(m), Sig_A[HMAC_SK(E_SK(m))]", Combination),
        ],
        (Scheme::RayaHubaux, Topology::Pairwise) => vec![
            step(
                "A→B: M1, Sig_A[M1|T], Cert_A",
                vec![Field::Message, Field::Signature, Field::Certificate],
                vec![Op::Sign { bytes: s }],
                vec![Op::Verify { bytes: s }],
                vec![],
            ),
            step(
                "B→A: M2, Sig_B[M2|T], Cert_B",
                vec![Field::Message, Field::Signature, Field::Certificate],
                vec![Op::Sign { bytes: s }],
                vec![Op::Verify { bytes: s }],
                vec![],
            ),
            // Table 3 charges the encryption of a message-sized plaintext for {B|SK|T}.
            step(
                "A→B: {B|SK|T}_PuK_B, Sig_A[B|SK|T]",
                vec![
                    Field::Ciphertext {
                        role: Combination,
                        plaintext: s,
                    },
                    Field::Signature,
                ],
                vec![
                    Op::Encrypt {
                        role: Combination,
                        bytes: s,
                    },
                    Op::Sign { bytes: s },
                ],
                vec![Op::Verify { bytes: s }],
                vec![Op::Decrypt {
                    role: Combination,
                    bytes: s,
                }],
            ),
            hmac_data("A→B: m, HMAC_SK(m)"),
        ],
        (Scheme::RayaHubaux, Topology::Group) => {
            let signed = z.key_hash + key;
            let mut v: Vec<Step> = (1..=members.max(1))
                .map(|i| {
                    step(
                        &format!("L→member {i}: H_i, {{SK}}_PuK_i, Sig_L[the whole message]"),
                        group_entry.into_iter().chain([Field::Signature]).collect(),
                        vec![
                            Op::Encrypt {
                                role: Combination,
                                bytes: key,
                            },
                            Op::Sign { bytes: signed },
                        ],
                        vec![Op::Verify { bytes: signed }],
                        vec![Op::Decrypt {
                            role: Combination,
                            bytes: key,
                        }],
                    )
                })
                .collect();
            v.push(hmac_data("L→members: m, HMAC_SK(m)"));
            v
        }
        (Scheme::Wang, Topology::Group) => {
            let g = members.max(1) as usize;
            let signed = (z.key_hash + key) * g as u64;
            let mut fields = group_entry.repeat(g);
            fields.push(Field::Signature);
            let mut sender = vec![
                Op::Encrypt {
                    role: Combination,
                    bytes: key,
                };
                g
            ];
            sender.push(Op::Sign { bytes: signed });
            vec![
                step(
                    "L→*: H_A, {SK}_PuK_A, H_B, {SK}_PuK_B, …, Sig_L[the whole message]",
                    fields,
                    sender,
                    vec![Op::Verify { bytes: signed }],
                    // Members decrypt their own entry in parallel: one decryption of latency.
                    vec![Op::Decrypt {
                        role: Combination,
                        bytes: key,
                    }],
                ),
                wang_data("L→*: E_SK(m), Sig_L[HMAC_SK(E_SK(m))]", Data),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes() -> StepSizes {
        StepSizes {
            message: 1024,
            hmac: 20,
            session_key: 16,
            key_hash: 20,
            data_ciphertext: 1040,
        }
    }

    fn count(steps: &[Step], f: impl Fn(&Step) -> &Vec<Op>, k: OpKind) -> usize {
        steps.iter().flat_map(|s| f(s).iter()).filter(|o| o.kind() == k).count()
    }

    #[test]
    fn pairwise_steps_count_what_the_paper_counts() {
        // Section 3: one signature per signed step, verified at every hop; Wang step 3
        // carries only an HMAC; step 4 adds one encryption and one decryption.
        let w = steps(Scheme::Wang, Topology::Pairwise, 0, sizes());
        assert_eq!(w.len(), 4);
        assert_eq!(count(&w, |s| &s.sender, OpKind::Sign), 3);
        assert_eq!(count(&w, |s| &s.per_hop, OpKind::Verify), 3);
        assert!(w[2].per_hop.is_empty());
        assert_eq!(count(&w, |s| &s.sender, OpKind::Encrypt), 1);
        assert_eq!(count(&w, |s| &s.destination, OpKind::Decrypt), 1);
        let r = steps(Scheme::RayaHubaux, Topology::Pairwise, 0, sizes());
        assert_eq!(r.len(), 4);
        assert_eq!(count(&r, |s| &s.sender, OpKind::Sign), 3);
        assert_eq!(count(&r, |s| &s.per_hop, OpKind::Verify), 3);
        assert_eq!(
            r[2].destination,
            vec![Op::Decrypt {
                role: CipherRole::Combination,
                bytes: 1024
            }]
        );
        assert!(r[3].per_hop.is_empty(), "intermediate nodes cannot check an HMAC");
    }

    #[test]
    fn group_steps_scale_with_members() {
        let r = steps(Scheme::RayaHubaux, Topology::Group, 5, sizes());
        assert_eq!(r.len(), 6, "one key message per member, then the data");
        let w = steps(Scheme::Wang, Topology::Group, 5, sizes());
        assert_eq!(w.len(), 2, "one key message for every member");
        assert_eq!(count(&w, |s| &s.sender, OpKind::Encrypt), 5 + 1);
        assert_eq!(count(&w, |s| &s.sender, OpKind::Sign), 2);
        assert_eq!(w[0].fields.len(), 2 * 5 + 1);
    }
}
