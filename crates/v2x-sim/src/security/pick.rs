//! Which profile row a role's cost comes from when the scenario leaves parts of its
//! variant open. A default that picks a cost must be the obvious one for the protocol, or
//! the scenario is refused with the choices listed:
//!
//! 1. rows of the cost protocol and operation that satisfy what the scenario named;
//! 2. the curve: P-256 for the ECDSA protocols (the curve IEEE 1609.2 and both TS 103 097
//!    versions mandate); a profile without it is refused, never another curve;
//! 3. the beacon message (`cam`, else `bsm`, else `v2v`) and the role's signer form
//!    (`digest`, or `certificate` for certificate-carrying messages), where a row names them;
//! 4. of what remains, the rows that name the most of the parts fixed so far (a measured
//!    `p256/cam/sign/digest/100` before a protocol-suite `cam/100`);
//! 5. if those rows still differ, the scenario must say which: an error lists them.

use v2x_profile::{CurveId, MessageId, Operation, OperationCost, ProcessorProfile, ProtocolId, SignerKind, Variant};

/// The beacon messages, in order of preference: what the simulator's periodic CAM/BSM is.
const BEACONS: [MessageId; 3] = [MessageId::Cam, MessageId::Bsm, MessageId::V2v];

/// What one role asks of a profile.
#[derive(Debug, Clone, Copy)]
pub struct Ask {
    pub protocol: ProtocolId,
    pub operation: Operation,
    /// The parts the scenario named (and the level the role implies).
    pub named: Variant,
    /// The simulated protocol, whose obvious curve applies (its costs may be borrowed
    /// from `protocol`).
    pub simulated: ProtocolId,
    /// The signer form the role verifies or signs, when the scenario leaves it open.
    pub signer: Option<SignerKind>,
}

/// A row found, with the defaults that chose it (empty: the scenario named it all).
#[derive(Debug, Clone)]
pub struct Picked {
    pub cost: OperationCost,
    pub defaults: Vec<String>,
    /// A wanted default the profile does not have (e.g. no digest-signed row).
    pub missing: Option<String>,
}

/// Why no row could be picked.
#[derive(Debug, Clone, PartialEq)]
pub enum NotPicked {
    /// The profile has no row of this protocol and operation satisfying what was named.
    NoRow,
    /// The obvious default is not in the profile, or several rows remain: the scenario
    /// must choose one of `choices` (their variants).
    Choose { why: String, choices: Vec<String> },
}

/// The curve a protocol mandates, where it signs with ECDSA.
pub fn mandated_curve(p: ProtocolId) -> Option<CurveId> {
    matches!(p, ProtocolId::Ieee16092 | ProtocolId::EtsiV121 | ProtocolId::Raw).then_some(CurveId::P256)
}

/// Picks the row for `ask` from `profile` (see the module's rules).
pub fn pick(profile: &ProcessorProfile, ask: &Ask) -> Result<Picked, NotPicked> {
    let mut rows: Vec<&OperationCost> = profile
        .costs
        .iter()
        .filter(|c| c.protocol == ask.protocol && c.operation == ask.operation && c.variant.satisfies(&ask.named))
        .collect();
    if rows.is_empty() {
        return Err(NotPicked::NoRow);
    }
    let mut fixed = ask.named;
    let mut defaults = Vec::new();
    let mut missing = None;
    if fixed.curve.is_none() {
        if let Some(curve) = mandated_curve(ask.simulated).or(mandated_curve(ask.protocol)) {
            let with: Vec<&OperationCost> = rows
                .iter()
                .copied()
                .filter(|c| c.variant.curve.is_none_or(|k| k == curve))
                .collect();
            if with.is_empty() {
                return Err(NotPicked::Choose {
                    why: format!(
                        "no {curve} cost, the curve {} mandates (another curve is never taken by default)",
                        ask.simulated
                    ),
                    choices: variants(&rows),
                });
            }
            rows = with;
            fixed.curve = Some(curve);
            defaults.push(format!("curve {curve} ({} mandates it)", ask.simulated));
        }
    }
    if fixed.message.is_none() {
        if let Some(m) = BEACONS
            .iter()
            .copied()
            .find(|m| rows.iter().any(|c| c.variant.message == Some(*m)))
        {
            rows.retain(|c| c.variant.message.is_none_or(|k| k == m));
            fixed.message = Some(m);
            defaults.push(format!("message {m} (the beacon)"));
        }
    }
    if let (None, Some(s)) = (fixed.signer, ask.signer) {
        if rows.iter().any(|c| c.variant.signer == Some(s)) {
            rows.retain(|c| c.variant.signer.is_none_or(|k| k == s));
            fixed.signer = Some(s);
            defaults.push(format!("signer {s}"));
        } else if rows.iter().any(|c| c.variant.signer.is_some()) {
            missing = Some(format!(
                "the profile has no {s}-signed {}/{} cost",
                ask.protocol, ask.operation
            ));
        }
    }
    let named_parts = |v: &Variant| count_named(v, &fixed);
    let most = rows.iter().map(|c| named_parts(&c.variant)).max().unwrap_or(0);
    rows.retain(|c| named_parts(&c.variant) == most);
    let first = rows[0];
    if rows.iter().any(|c| c.variant != first.variant) {
        return Err(NotPicked::Choose {
            why: format!("{} rows remain after the defaults ({})", rows.len(), open_parts(&rows)),
            choices: variants(&rows),
        });
    }
    Ok(Picked {
        cost: first.clone(),
        defaults,
        missing,
    })
}

/// How many of the parts set in `fixed` the row names itself.
fn count_named(row: &Variant, fixed: &Variant) -> usize {
    [
        fixed.curve.is_some() && row.curve.is_some(),
        fixed.hash.is_some() && row.hash.is_some(),
        fixed.message.is_some() && row.message.is_some(),
        fixed.level.is_some() && row.level.is_some(),
        fixed.signer.is_some() && row.signer.is_some(),
        fixed.payload_bytes.is_some() && row.payload_bytes.is_some(),
        fixed.build.is_some() && row.build.is_some(),
        fixed.method.is_some() && row.method.is_some(),
    ]
    .into_iter()
    .filter(|b| *b)
    .count()
}

/// The names of a variant's parts, in [`parts`] order.
const PART_NAMES: [&str; 8] = [
    "curve",
    "hash",
    "message",
    "level",
    "signer",
    "payload size",
    "build",
    "method",
];

/// A variant's parts, comparable one by one.
fn parts(v: &Variant) -> [String; 8] {
    [
        format!("{:?}", v.curve),
        format!("{:?}", v.hash),
        format!("{:?}", v.message),
        format!("{:?}", v.level),
        format!("{:?}", v.signer),
        format!("{:?}", v.payload_bytes),
        format!("{:?}", v.build),
        format!("{:?}", v.method),
    ]
}

/// The names of the parts on which `rows` differ.
fn open_parts(rows: &[&OperationCost]) -> String {
    let first = parts(&rows[0].variant);
    let all: Vec<[String; 8]> = rows.iter().map(|c| parts(&c.variant)).collect();
    let differ: Vec<&str> = PART_NAMES
        .iter()
        .enumerate()
        .filter(|(i, _)| all.iter().any(|p| p[*i] != first[*i]))
        .map(|(_, n)| *n)
        .collect();
    format!("they differ in {}", differ.join(", "))
}

fn variants(rows: &[&OperationCost]) -> Vec<String> {
    let mut v: Vec<String> = rows.iter().map(|c| format!("`{}`", c.variant)).collect();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_profile::Level;

    fn ask(protocol: ProtocolId, op: Operation, named: &str, signer: Option<SignerKind>) -> Ask {
        let mut named: Variant = named.parse().unwrap();
        named.level = named.level.or(Some(Level::Sign));
        Ask {
            protocol,
            operation: op,
            named,
            simulated: protocol,
            signer,
        }
    }

    fn builtin(name: &str) -> ProcessorProfile {
        ProcessorProfile::builtin(name).unwrap()
    }

    /// Issue 28: an ETSI v1.2.1 cost left open took the profile's first row, P-192.
    #[test]
    fn the_curve_left_open_is_p256_never_the_first_row() {
        let p = builtin("i7-4610m");
        assert_eq!(p.costs[0].variant.curve, Some(CurveId::P192), "the trap is still set");
        let a = ask(ProtocolId::EtsiV121, Operation::Decap, "", Some(SignerKind::Digest));
        let got = pick(&p, &a).unwrap();
        assert_eq!(got.cost.variant.to_string(), "p256-sha256/sign");
        assert!(got.defaults[0].starts_with("curve p256"), "{:?}", got.defaults);
        // Borrowed by an ieee1609.2 variant: the same P-256 row.
        let borrowed = Ask {
            simulated: ProtocolId::Ieee16092,
            ..a
        };
        assert_eq!(
            pick(&p, &borrowed).unwrap().cost.variant.to_string(),
            "p256-sha256/sign"
        );
    }

    #[test]
    fn a_profile_without_the_mandated_curve_is_refused_with_its_curves() {
        let p = builtin("cubieboard");
        let a = ask(ProtocolId::EtsiV121, Operation::Decap, "", Some(SignerKind::Digest));
        match pick(&p, &a) {
            Err(NotPicked::Choose { why, choices }) => {
                assert!(why.contains("no p256"), "{why}");
                assert!(choices.iter().any(|c| c.contains("p192-sha256")), "{choices:?}");
            }
            other => panic!("{other:?}"),
        }
        // Named, it is taken.
        let named = ask(ProtocolId::EtsiV121, Operation::Decap, "p224-sha224/digest", None);
        assert_eq!(
            pick(&p, &named).unwrap().cost.variant.to_string(),
            "p224-sha224/sign/digest"
        );
    }

    #[test]
    fn rows_that_still_differ_are_refused_with_the_choices() {
        // Paper 002: two builds of the same library.
        let p = builtin("atom-d510");
        let a = ask(ProtocolId::EtsiV121, Operation::Decap, "", Some(SignerKind::Digest));
        match pick(&p, &a) {
            Err(NotPicked::Choose { why, choices }) => {
                assert!(why.contains("build"), "{why}");
                assert_eq!(choices.len(), 2, "{choices:?}");
            }
            other => panic!("{other:?}"),
        }
        let named = ask(ProtocolId::EtsiV121, Operation::Decap, "vsskit2-64bit", None);
        assert!(pick(&p, &named).is_ok());
    }

    #[test]
    fn the_beacon_and_the_signer_form_are_the_obvious_parts() {
        // Paper 001 measured BSMs with certificates only: the BSM row, and it says so.
        let p = builtin("mk5-software");
        let a = ask(ProtocolId::Ieee16092, Operation::Decap, "", Some(SignerKind::Digest));
        let got = pick(&p, &a).unwrap();
        assert_eq!(got.cost.variant.to_string(), "p256/bsm/sign/certificate");
        assert!(got.missing.as_deref().is_some_and(|m| m.contains("digest")), "{got:?}");
        let flip = ask(ProtocolId::TwoFlip, Operation::Decap, "", None);
        assert_eq!(pick(&p, &flip).unwrap().cost.variant.to_string(), "bsm");
        let none = ask(ProtocolId::HashChain, Operation::Decap, "denm", None);
        assert_eq!(pick(&p, &none).unwrap_err(), NotPicked::NoRow);
    }
}
