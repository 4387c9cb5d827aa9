//! Elliptic-curve arithmetic we control, for public-key ECDSA verification only:
//! Montgomery fields (`field`), Jacobian points (`point`), fixed-base tables and wNAF
//! (`table`), verification (`verify`), and the per-curve statics.
//!
//! Constant time matters for signing and key agreement (secret scalars); it does not for
//! verifying a signature with a public key, where every input is public. Everything here
//! is variable time and must never see a private key.

pub(crate) mod field;
pub(crate) mod point;
pub(crate) mod table;
pub(crate) mod verify;

use crate::Curve;
use point::Group;
use std::sync::LazyLock;
use table::FixedTable;

/// Window of the static generator tables (37 windows x 64 points on 256-bit curves).
const G_WINDOW: u32 = 7;

pub(crate) static P256: LazyLock<Group<4>> = LazyLock::new(|| Group::new(Curve::NistP256));
pub(crate) static BP256: LazyLock<Group<4>> = LazyLock::new(|| Group::new(Curve::BrainpoolP256r1));
pub(crate) static P384: LazyLock<Group<6>> = LazyLock::new(|| Group::new(Curve::NistP384));
pub(crate) static BP384: LazyLock<Group<6>> = LazyLock::new(|| Group::new(Curve::BrainpoolP384r1));

pub(crate) static P256_G: LazyLock<FixedTable<4>> = LazyLock::new(|| FixedTable::build(&P256, &P256.g, G_WINDOW));
pub(crate) static BP256_G: LazyLock<FixedTable<4>> = LazyLock::new(|| FixedTable::build(&BP256, &BP256.g, G_WINDOW));
pub(crate) static P384_G: LazyLock<FixedTable<6>> = LazyLock::new(|| FixedTable::build(&P384, &P384.g, G_WINDOW));
pub(crate) static BP384_G: LazyLock<FixedTable<6>> = LazyLock::new(|| FixedTable::build(&BP384, &BP384.g, G_WINDOW));
