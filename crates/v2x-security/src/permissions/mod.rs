//! Permissions: what a certificate may sign and what an issuer may pass on.
//!
//! * [`issuance`]: IEEE 1609.2 §5.1.2.4 chain consistency — every certificate's app,
//!   request and issue permissions lie within a `certIssuePermissions` group of its issuer
//!   whose SSP ranges, chain-length range and end-entity type allow them.
//! * [`ssp`]: what the signer's SSP allows a message to say — the ETSI CAM and DENM SSP
//!   semantics (EN 302 637-2 / EN 302 637-3) as tables, checked against the facilities
//!   payload where it decodes, or a plain bit mask for other PSIDs.

pub mod issuance;
pub mod ssp;

pub use ssp::{EtsiService, SspRequirement, SspRule, SspViolation};
