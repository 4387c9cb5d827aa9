//! A cost set: what each cryptographic operation costs and how big its outputs are, for one
//! machine (paper 003's Tables 2-3, or this machine measured by [`crate::measure`]). The
//! file format of `v2x model --costs FILE` (TOML or JSON; times in µs, sizes in bytes).
//!
//! Sizes scale with the bytes processed through an algorithm's blocks: a cipher turns S
//! plaintext bytes into `blocks(S) = ceil((S + padding) / block)` blocks and
//! `overhead + ciphertext_block * blocks(S)` ciphertext bytes; an operation costs
//! `fixed + per_block * blocks(S)`, given in the file as its time `us` at `bytes` and the
//! size-independent part `fixed_us` (`{ us = X }` alone: independent of size). Signatures,
//! HMAC and hashing process bytes (a block of 1).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CostError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: {message}")]
    Parse { path: String, message: String },
    #[error("cost set `{set}`: {field}: {reason}")]
    Invalid { set: String, field: String, reason: String },
    #[error("unknown {kind} `{name}` in cost set `{set}` (valid: {})", valid.join(", "))]
    Unknown {
        kind: &'static str,
        name: String,
        set: String,
        valid: Vec<String>,
    },
}

/// Symmetric ciphers encrypt data under the session key; asymmetric ones transport it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CipherKind {
    Symmetric,
    Asymmetric,
}

/// The time of one operation as written in a cost file.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpCostSpec {
    /// Time in µs (at `bytes` when given).
    pub us: f64,
    /// Bytes processed when `us` was taken; absent: the time does not depend on size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// The part of `us` independent of size (required with `bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_us: Option<f64>,
}

impl OpCostSpec {
    /// A size-independent time.
    pub fn fixed(us: f64) -> OpCostSpec {
        OpCostSpec {
            us,
            bytes: None,
            fixed_us: None,
        }
    }
}

/// Byte sizes of the protocol fields that do not belong to one algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtocolSizes {
    /// M1, M2, M3, the data message m, and the plaintext RH step 3 encrypts.
    pub message_bytes: u64,
    pub hmac_bytes: u64,
    /// The session key group messages transport.
    pub session_key_bytes: u64,
    /// H_i, the hash of a member's public key in group messages.
    pub key_hash_bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignatureSpec {
    /// Name in tables and plots, e.g. `DSA`, `ECDSA P-256`.
    pub label: String,
    /// `dsa`, `rsa`, `ecdsa`: pairs the paper's algorithms with today's.
    pub family: String,
    /// Security strength (NIST SP 800-57), e.g. 80 for RSA-1024, 128 for P-256.
    pub security_bits: u32,
    pub signature_bytes: u64,
    pub certificate_bytes: u64,
    pub sign: OpCostSpec,
    pub verify: OpCostSpec,
    #[serde(default)]
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CipherSpec {
    pub label: String,
    pub kind: CipherKind,
    /// `aes`, `ecies`, `rsa`.
    pub family: String,
    pub security_bits: u32,
    /// Plaintext bytes per block (1 for stream-like ciphers).
    pub block_bytes: u64,
    /// Bytes added before blocking (PKCS#7: 1).
    #[serde(default)]
    pub padding_bytes: u64,
    pub ciphertext_block_bytes: u64,
    /// Bytes added once per ciphertext (ephemeral key, tag, ...).
    #[serde(default)]
    pub ciphertext_overhead_bytes: u64,
    pub encrypt: OpCostSpec,
    pub decrypt: OpCostSpec,
    #[serde(default)]
    pub source: String,
}

impl CipherSpec {
    /// Blocks processed for `plaintext` bytes.
    pub fn blocks(&self, plaintext: u64) -> u64 {
        (plaintext + self.padding_bytes).div_ceil(self.block_bytes.max(1))
    }

    pub fn ciphertext_bytes(&self, plaintext: u64) -> u64 {
        self.ciphertext_overhead_bytes + self.ciphertext_block_bytes * self.blocks(plaintext)
    }
}

/// Costs and sizes of one machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostSet {
    pub name: String,
    pub source: String,
    /// Where and when the costs were measured (measured sets only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_on: Option<String>,
    /// The symmetric cipher Wang et al.'s group data uses.
    pub data_cipher: String,
    pub sizes: ProtocolSizes,
    pub hmac: OpCostSpec,
    pub dh_keygen: OpCostSpec,
    pub dh_derive: OpCostSpec,
    pub signatures: BTreeMap<String, SignatureSpec>,
    pub ciphers: BTreeMap<String, CipherSpec>,
}

/// A resolved time: `fixed + per_unit * units`, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OpCost {
    pub fixed_ms: f64,
    pub per_unit_ms: f64,
}

impl OpCost {
    pub fn ms(&self, units: u64) -> f64 {
        self.fixed_ms + self.per_unit_ms * units as f64
    }
}

impl CostSet {
    /// Reads a cost set from TOML, or JSON when the file name ends in `.json`.
    pub fn load(path: &Path) -> Result<CostSet, CostError> {
        let text = std::fs::read_to_string(path).map_err(|source| CostError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        CostSet::parse(&text, json, &path.display().to_string())
    }

    /// Parses and validates a cost set; `origin` names the text in errors.
    pub fn parse(text: &str, json: bool, origin: &str) -> Result<CostSet, CostError> {
        let set: CostSet = if json {
            serde_json::from_str(text).map_err(|e| CostError::Parse {
                path: origin.into(),
                message: e.to_string(),
            })?
        } else {
            toml::from_str(text).map_err(|e| CostError::Parse {
                path: origin.into(),
                message: e.to_string(),
            })?
        };
        set.validate()?;
        Ok(set)
    }

    fn invalid(&self, field: impl Into<String>, reason: impl Into<String>) -> CostError {
        CostError::Invalid {
            set: self.name.clone(),
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// Checks every number and name; after this, every resolution succeeds.
    pub fn validate(&self) -> Result<(), CostError> {
        if self.signatures.is_empty() {
            return Err(self.invalid("signatures", "at least one signature algorithm is needed"));
        }
        let s = &self.sizes;
        if s.message_bytes == 0 || s.session_key_bytes == 0 {
            return Err(self.invalid("sizes", "message_bytes and session_key_bytes must be positive"));
        }
        self.resolve_op("hmac", &self.hmac, |b| b)?;
        self.resolve_op("dh_keygen", &self.dh_keygen, |b| b)?;
        self.resolve_op("dh_derive", &self.dh_derive, |b| b)?;
        for (name, sig) in &self.signatures {
            self.resolve_op(&format!("signatures.{name}.sign"), &sig.sign, |b| b)?;
            self.resolve_op(&format!("signatures.{name}.verify"), &sig.verify, |b| b)?;
            if sig.signature_bytes == 0 {
                return Err(self.invalid(format!("signatures.{name}.signature_bytes"), "must be positive"));
            }
        }
        for (name, c) in &self.ciphers {
            if c.block_bytes == 0 || c.ciphertext_block_bytes == 0 {
                return Err(self.invalid(
                    format!("ciphers.{name}"),
                    "block_bytes and ciphertext_block_bytes must be positive",
                ));
            }
            self.resolve_op(&format!("ciphers.{name}.encrypt"), &c.encrypt, |b| c.blocks(b))?;
            self.resolve_op(&format!("ciphers.{name}.decrypt"), &c.decrypt, |b| c.blocks(b))?;
        }
        let data = self.cipher(&self.data_cipher)?;
        if data.kind != CipherKind::Symmetric {
            return Err(self.invalid("data_cipher", format!("`{}` is not symmetric", self.data_cipher)));
        }
        Ok(())
    }

    /// Resolves a time given in the file; `units` maps bytes to the algorithm's units.
    fn resolve_op(&self, field: &str, spec: &OpCostSpec, units: impl Fn(u64) -> u64) -> Result<OpCost, CostError> {
        let ok = |v: f64| v.is_finite() && v >= 0.0;
        if !ok(spec.us) {
            return Err(self.invalid(field, format!("us = {} is not a finite time >= 0", spec.us)));
        }
        match (spec.bytes, spec.fixed_us) {
            (None, None) => Ok(OpCost {
                fixed_ms: spec.us / 1e3,
                per_unit_ms: 0.0,
            }),
            (None, Some(_)) => Err(self.invalid(field, "fixed_us needs the bytes its time was taken at")),
            (Some(_), None) => Err(self.invalid(
                field,
                "bytes needs fixed_us (the size-independent part of us; 0 for proportional)",
            )),
            (Some(bytes), Some(fixed)) => {
                if !ok(fixed) || fixed > spec.us {
                    return Err(self.invalid(field, format!("fixed_us = {fixed} must be in 0..=us ({})", spec.us)));
                }
                let n = units(bytes);
                if n == 0 {
                    return Err(self.invalid(field, "bytes must be positive"));
                }
                Ok(OpCost {
                    fixed_ms: fixed / 1e3,
                    per_unit_ms: (spec.us - fixed) / 1e3 / n as f64,
                })
            }
        }
    }

    pub fn signature(&self, name: &str) -> Result<&SignatureSpec, CostError> {
        self.signatures.get(name).ok_or_else(|| CostError::Unknown {
            kind: "signature algorithm",
            name: name.into(),
            set: self.name.clone(),
            valid: self.signatures.keys().cloned().collect(),
        })
    }

    pub fn cipher(&self, name: &str) -> Result<&CipherSpec, CostError> {
        self.ciphers.get(name).ok_or_else(|| CostError::Unknown {
            kind: "cipher",
            name: name.into(),
            set: self.name.clone(),
            valid: self.ciphers.keys().cloned().collect(),
        })
    }

    /// Cipher names of one kind, in name order.
    pub fn ciphers_of(&self, kind: CipherKind) -> Vec<&str> {
        self.ciphers
            .iter()
            .filter(|(_, c)| c.kind == kind)
            .map(|(n, _)| n.as_str())
            .collect()
    }

    pub fn sign_cost(&self, sig: &str) -> Result<OpCost, CostError> {
        let s = self.signature(sig)?;
        self.resolve_op(sig, &s.sign, |b| b)
    }

    pub fn verify_cost(&self, sig: &str) -> Result<OpCost, CostError> {
        let s = self.signature(sig)?;
        self.resolve_op(sig, &s.verify, |b| b)
    }

    /// Encryption (`decrypt` false) or decryption cost of a cipher, per block.
    pub fn cipher_cost(&self, cipher: &str, decrypt: bool) -> Result<OpCost, CostError> {
        let c = self.cipher(cipher)?;
        let spec = if decrypt { &c.decrypt } else { &c.encrypt };
        self.resolve_op(cipher, spec, |b| c.blocks(b))
    }

    pub fn hmac_cost(&self) -> Result<OpCost, CostError> {
        self.resolve_op("hmac", &self.hmac, |b| b)
    }

    pub fn dh_cost(&self, derive: bool) -> Result<OpCost, CostError> {
        let spec = if derive { &self.dh_derive } else { &self.dh_keygen };
        self.resolve_op("dh", spec, |b| b)
    }

    /// The cost set as TOML (what `v2x model --measure` writes and `--costs` reads).
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paper() -> CostSet {
        crate::paper003::Paper003::load().unwrap().inputs
    }

    #[test]
    fn paper_ciphertext_sizes_follow_table_3() {
        let set = paper();
        let c = |n: &str| set.cipher(n).unwrap().ciphertext_bytes(1024);
        assert_eq!(c("aes"), 1040, "PKCS#7 adds a whole block at 1024 B");
        assert_eq!(c("ecc"), 1110);
        assert_eq!(c("rsa"), 256 * 12, "86 * 11 + 78 = 12 blocks");
        assert_eq!(set.cipher("rsa").unwrap().blocks(86 * 11 + 78), 12);
        assert_eq!(set.cipher("rsa").unwrap().blocks(86 * 12 + 1), 13);
    }

    #[test]
    fn op_cost_is_fixed_plus_per_block() {
        let set = paper();
        let rsa = set.cipher_cost("rsa", false).unwrap();
        assert!((rsa.ms(12) - 124.1057).abs() < 1e-9);
        assert!(
            (rsa.ms(1) - 124.1057 / 12.0).abs() < 1e-9,
            "proportional: no fixed part"
        );
        let dsa = set.sign_cost("dsa").unwrap();
        assert_eq!(
            dsa.ms(1),
            dsa.ms(100_000),
            "signatures in the paper do not depend on size"
        );
        assert!((dsa.ms(0) - 11.88676).abs() < 1e-12);
    }

    #[test]
    fn invalid_values_are_typed_errors() {
        let text = toml::to_string(&paper()).unwrap();
        let bad = text.replace("us = 8096.0", "us = -1.0");
        let e = CostSet::parse(&bad, false, "x.toml").unwrap_err();
        assert!(e.to_string().contains("signatures.dsa.verify"), "{e}");
        let bad = text.replace("data_cipher = \"aes\"", "data_cipher = \"ecc\"");
        assert!(CostSet::parse(&bad, false, "x.toml")
            .unwrap_err()
            .to_string()
            .contains("not symmetric"));
        let bad = text.replace("data_cipher = \"aes\"", "data_cipher = \"des\"");
        let e = CostSet::parse(&bad, false, "x.toml").unwrap_err().to_string();
        assert!(e.contains("unknown cipher `des`") && e.contains("aes, ecc, rsa"), "{e}");
        let bad = format!("{text}\nunexpected = 1\n");
        assert!(matches!(
            CostSet::parse(&bad, false, "x.toml"),
            Err(CostError::Parse { .. })
        ));
    }

    #[test]
    fn fixed_part_must_be_within_the_time() {
        let mut set = paper();
        set.ciphers.get_mut("aes").unwrap().encrypt.fixed_us = Some(1e9);
        assert!(set.validate().unwrap_err().to_string().contains("fixed_us"));
        set.ciphers.get_mut("aes").unwrap().encrypt.fixed_us = None;
        assert!(set.validate().unwrap_err().to_string().contains("needs fixed_us"));
    }

    #[test]
    fn json_and_toml_round_trip() {
        let set = paper();
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(CostSet::parse(&json, true, "x.json").unwrap(), set);
        assert_eq!(CostSet::parse(&set.to_toml(), false, "x.toml").unwrap(), set);
    }
}
