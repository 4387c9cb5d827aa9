//! The service times of a variant's roles (sign, verify, verify with the certificate, the
//! precomputed verifier's table, the query's encrypt/decrypt): from the profile through
//! [`pick`], or fixed by the scenario, each recorded as a [`CostUse`] with its source.

use super::pick::{pick, Ask, NotPicked, Picked};
use super::{Cost, CostUse, VerifierModel};
use crate::error::{CostsError, SimError};
use crate::scenario::{QueryConfig, VariantConfig, VerifierStrategy};
use v2x_profile::{LatencyDistribution, Level, Method, Operation, ProcessorProfile, ProtocolId, SignerKind, Variant};

/// The methods of profile rows that already measure a per-signer table.
const TABLE_METHODS: [Method; 3] = [
    Method::PrecomputedTable100,
    Method::Repeat100Precomputed,
    Method::Repeat100PrecomputedCompressedR,
];

fn spread_name(l: &LatencyDistribution) -> String {
    match &l.spread {
        _ if !l.quantiles.is_empty() => "measured quantiles".into(),
        Some(s) if s.cv > 0.0 => format!("{} cv {}", s.family, s.cv),
        _ => "fixed".into(),
    }
}

fn with_level(l: Level, named: &Variant) -> Variant {
    Variant {
        level: Some(l),
        ..Variant::default()
    }
    .with(named)
}

/// The costs of one variant being resolved.
pub(super) struct Costs<'a> {
    pub v: &'a VariantConfig,
    pub profile: Option<&'a ProcessorProfile>,
    /// The simulated protocol and the protocol whose costs are looked up.
    pub kind: ProtocolId,
    pub cost_protocol: ProtocolId,
    pub used: Vec<CostUse>,
    pub notes: Vec<String>,
}

/// The sign, verify and verify-with-certificate costs, and the verify row's variant (what
/// the sizes and the table cost are matched against).
pub(super) struct Signature {
    pub sign: Cost,
    pub verify: Cost,
    pub verify_certificate: Cost,
    pub verify_variant: Variant,
}

impl<'a> Costs<'a> {
    fn err(&self, e: CostsError) -> SimError {
        SimError::Costs {
            variant: self.v.name.clone(),
            source: e,
        }
    }

    fn profile(&self, what: &str) -> Result<&'a ProcessorProfile, SimError> {
        self.profile.ok_or_else(|| {
            self.err(CostsError::Missing(format!(
                "needs a profile (or a fixed cost) for {what}"
            )))
        })
    }

    /// A bare signature (`raw`) costs a raw ECDSA `sign` / `verify`; the rest the security
    /// service's `encap` / `decap`.
    fn operations(&self) -> (Operation, Operation) {
        if self.cost_protocol == ProtocolId::Raw {
            (Operation::Sign, Operation::Verify)
        } else {
            (Operation::Encap, Operation::Decap)
        }
    }

    /// The row `ask` picks, as a typed error naming the scenario `field` when it cannot.
    fn pick(&self, field: &str, p: &ProcessorProfile, ask: &Ask) -> Result<Picked, SimError> {
        pick(p, ask).map_err(|e| self.not_picked(field, p, ask, e))
    }

    fn not_picked(&self, field: &str, p: &ProcessorProfile, ask: &Ask, e: NotPicked) -> SimError {
        match e {
            // `require` lists what the profile has for the protocol.
            NotPicked::NoRow => match p.require(ask.protocol, ask.operation, &ask.named) {
                Err(e) => self.err(CostsError::Profile(Box::new(e))),
                Ok(c) => self.err(CostsError::Missing(format!("{} matches but was not picked", c.key()))),
            },
            NotPicked::Choose { why, choices } => self.err(CostsError::Choose(Box::new(crate::error::Choose {
                field: field.into(),
                cost: format!("{}/{}", ask.protocol, ask.operation),
                profile: p.name.clone(),
                why,
                choices,
            }))),
        }
    }

    fn ask(&self, operation: Operation, named: Variant, signer: Option<SignerKind>) -> Ask {
        Ask {
            protocol: self.cost_protocol,
            operation,
            named,
            simulated: self.kind,
            signer,
        }
    }

    /// A profile's cost: its measured quantiles, else its mean spread by the scenario's
    /// `service_time_spread`, else by the profile's documented spread.
    fn record(&mut self, role: &'static str, picked: &Picked, profile: &str) -> Cost {
        let c = &picked.cost;
        let mut latency = match self.profile {
            Some(p) => p.latency(c),
            None => c.latency.clone(),
        };
        if latency.quantiles.is_empty() && self.v.service_time_spread.is_some() {
            latency.spread = self.v.service_time_spread.clone();
        }
        if let Some(m) = &picked.missing {
            self.notes.push(format!("{role}: {m}: `{}` is used instead", c.variant));
        }
        self.used.push(CostUse {
            role,
            key: Some(c.key().to_string()),
            source: format!("profile {profile}"),
            chosen_by: chosen_by(&picked.defaults),
            mean_us: c.latency.mean_us,
            spread: spread_name(&latency),
        });
        Cost::Dist(latency)
    }

    fn fixed(&mut self, role: &'static str, us: f64) -> Cost {
        let latency = LatencyDistribution::spread(us, self.v.service_time_spread.clone());
        self.used.push(CostUse {
            role,
            key: None,
            source: "scenario (fixed)".into(),
            chosen_by: "scenario".into(),
            mean_us: us,
            spread: spread_name(&latency),
        });
        Cost::Dist(latency)
    }

    fn free(&mut self, role: &'static str) -> Cost {
        self.used.push(CostUse {
            role,
            key: None,
            source: "free".into(),
            chosen_by: "protocol".into(),
            mean_us: 0.0,
            spread: "none".into(),
        });
        Cost::Free
    }

    /// Signing and verification of the variant's messages.
    pub fn signature(&mut self) -> Result<Signature, SimError> {
        if self.kind == ProtocolId::None {
            return Ok(Signature {
                verify: self.free("verify"),
                verify_certificate: self.free("verify-certificate"),
                sign: self.free("sign"),
                verify_variant: Variant::default(),
            });
        }
        let (send_op, receive_op) = self.operations();
        let v = self.v;
        let (verify, verify_variant) = if v.verify_cost_us > 0.0 {
            (self.fixed("verify", v.verify_cost_us), Variant::default())
        } else {
            let p = self.profile(&format!(
                "{}/{receive_op}: set `profile` or `verify_cost_us`",
                self.cost_protocol
            ))?;
            let ask = self.ask(
                receive_op,
                with_level(Level::Sign, &v.verify_variant),
                Some(SignerKind::Digest),
            );
            let picked = self.pick("verify_variant", p, &ask)?;
            let variant = picked.cost.variant;
            (self.record("verify", &picked, &p.name), variant)
        };
        let verify_certificate = if v.verify_cost_us > 0.0 {
            self.fixed("verify-certificate", v.verify_cost_us)
        } else {
            self.verify_with_certificate(receive_op, &verify)?
        };
        let sign = if v.sign_cost_us > 0.0 {
            self.fixed("sign", v.sign_cost_us)
        } else {
            self.sign(send_op)?
        };
        Ok(Signature {
            sign,
            verify,
            verify_certificate,
            verify_variant,
        })
    }

    /// Messages that carry the certificate: `verify_certificate_variant`, else the verify
    /// variant with signer `certificate`, else the verify cost (with a note).
    fn verify_with_certificate(&mut self, receive_op: Operation, verify: &Cost) -> Result<Cost, SimError> {
        let v = self.v;
        let p = self.profile("verify-certificate")?;
        let (field, named) = if v.verify_certificate_variant.is_empty() {
            let mut named = with_level(Level::Sign, &v.verify_variant);
            named.signer = Some(SignerKind::Certificate);
            ("verify_variant", named)
        } else {
            (
                "verify_certificate_variant",
                with_level(Level::Sign, &v.verify_certificate_variant),
            )
        };
        let ask = self.ask(receive_op, named, None);
        match pick(p, &ask) {
            Ok(picked) => Ok(self.record("verify-certificate", &picked, &p.name)),
            Err(NotPicked::NoRow) if v.verify_certificate_variant.is_empty() => {
                self.notes.push(format!(
                    "verify-certificate: the profile has no certificate-signed {}/{receive_op} cost: \
                     messages with a certificate cost as much as digest-signed ones",
                    self.cost_protocol
                ));
                if let Some(u) = self.used.iter().find(|u| u.role == "verify").cloned() {
                    self.used.push(CostUse {
                        role: "verify-certificate",
                        ..u
                    });
                }
                Ok(verify.clone())
            }
            Err(e) => Err(self.not_picked(field, p, &ask, e)),
        }
    }

    /// The sender's cost; free (with a note) when the profile has none for the protocol.
    fn sign(&mut self, send_op: Operation) -> Result<Cost, SimError> {
        let Some(p) = self.profile else {
            self.notes.push(format!(
                "signing modelled as free: no profile (or fixed cost) for {}/{send_op}: set `profile` or `sign_cost_us`",
                self.cost_protocol
            ));
            return Ok(self.free("sign"));
        };
        let ask = self.ask(
            send_op,
            with_level(Level::Sign, &self.v.sign_variant),
            Some(SignerKind::Digest),
        );
        match pick(p, &ask) {
            Ok(picked) => Ok(self.record("sign", &picked, &p.name)),
            Err(NotPicked::NoRow) => {
                let why = p
                    .require(ask.protocol, ask.operation, &ask.named)
                    .err()
                    .map_or_else(String::new, |e| e.to_string());
                self.notes.push(format!("signing modelled as free: {why}"));
                Ok(self.free("sign"))
            }
            Err(e) => Err(self.not_picked("sign_variant", p, &ask, e)),
        }
    }

    /// `[variant.verifier]`: plain, or per-signer tables with the table's cost.
    pub fn verifier(&mut self, verify_variant: Variant) -> Result<VerifierModel, SimError> {
        let v = self.v;
        if v.verifier.strategy == VerifierStrategy::Plain || self.kind == ProtocolId::None {
            return Ok(VerifierModel::Plain);
        }
        if verify_variant.method.is_some_and(|m| TABLE_METHODS.contains(&m)) {
            return Err(self.err(CostsError::Missing(format!(
                "verifier `precomputed`: the first-seen cost must be a verification without a table, \
                 but verify_variant resolves to `{verify_variant}`; name a plain row, e.g. `repeat100-plain`"
            ))));
        }
        let table = if v.verifier.table_cost_us > 0.0 {
            self.fixed("verify-with-table", v.verifier.table_cost_us)
        } else {
            let (_, receive_op) = self.operations();
            let mut named = with_level(Level::Sign, &v.verify_variant);
            named.method = Some(if self.cost_protocol == ProtocolId::Raw {
                Method::PrecomputedTable100
            } else {
                Method::Repeat100Precomputed
            });
            let named = named.with(&v.verifier.table_variant);
            let p = self.profile("verifier `precomputed`: set `profile` or `verifier.table_cost_us`")?;
            let picked = self.pick(
                "verifier.table_variant",
                p,
                &self.ask(receive_op, named, Some(SignerKind::Digest)),
            )?;
            self.record("verify-with-table", &picked, &p.name)
        };
        let build = self.fixed("table-build", v.verifier.table_build_us);
        Ok(VerifierModel::Precomputed {
            table,
            build,
            build_after: v.verifier.build_after.max(1),
            max_tables: v.verifier.max_tables as usize,
        })
    }

    /// The V2I query's `encap` / `decap` at level `encrypt` (free when it is off).
    pub fn query(&mut self, q: &QueryConfig) -> Result<(Cost, Cost), SimError> {
        if !q.enabled || self.kind == ProtocolId::None {
            return Ok((Cost::Free, Cost::Free));
        }
        let p = self.profile("the query service's encap/decap at level encrypt")?;
        let named = with_level(Level::Encrypt, &q.cost_variant);
        let ask = |operation| Ask {
            protocol: q.cost_protocol,
            operation,
            named,
            simulated: q.cost_protocol,
            signer: None,
        };
        let e = self.pick("query.cost_variant", p, &ask(Operation::Encap))?;
        let d = self.pick("query.cost_variant", p, &ask(Operation::Decap))?;
        Ok((self.record("encrypt", &e, &p.name), self.record("decrypt", &d, &p.name)))
    }
}

/// How a row was chosen, as the report says it.
fn chosen_by(defaults: &[String]) -> String {
    if defaults.is_empty() {
        "scenario".into()
    } else {
        format!("default: {}", defaults.join(", "))
    }
}
