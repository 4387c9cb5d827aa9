//! EXPERIMENTAL post-quantum secured messages — not IEEE 1609.2, not ETSI TS 103 097, whose
//! current versions define no post-quantum algorithms. Three designs ([`PqDesign`]): a
//! post-quantum-only certificate and signature, a composite (ECDSA P-256 + ML-DSA-44 or
//! FN-DSA-512, both parts checked) and NDSS 2024's Partially Hybrid (ECDSA message signatures,
//! hybrid-signed certificates). The message keeps 1609.2's ToBeSignedData; signer and signature
//! travel in v2xsec's own 0xE1 wrapper (`v2x_wire::experimental_pq`), which every standard
//! receiver refuses. SN-DECAP runs the standard stack's steps in its order with its reason
//! codes, and refuses downgrades (`downgrade-refused`). [`store`] keeps a design's PKI on
//! disk beside a standard PKI directory.

mod design;
mod entity;
mod pki;
pub mod store;

pub use design::{scheme_from_wire_id, scheme_wire_id, PqDesign};
pub use entity::{PqDecapped, PqEncapError, PqReceiver, PqRejection, PqSender};
pub use pki::{default_ticket_permissions, issue, PqCert, PqCertError, PqCertSpec, PqCredential, PqPki, PqPkiError};
