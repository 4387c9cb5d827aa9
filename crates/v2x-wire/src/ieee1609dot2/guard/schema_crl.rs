//! IEEE 1609.2 CRL contents (`crl_base_types`), as `rasn-its` 0.30 models them.

use super::schema::{FIXED16, HASHED_ID8, NULL, OPT, REQ, UINT16, UINT8};
use super::walker::Ty::{self, *};

static CRL_PRIORITY_INFO: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(OPT, &UINT8)],
};
static HASH_BASED_REVOCATION_INFO: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &Fixed(10)), (REQ, &Fixed(4))],
};
static SEQ_OF_HASH_BASED_REVOCATION_INFO: Ty = SeqOf(&HASH_BASED_REVOCATION_INFO);
static TO_BE_SIGNED_HASH_ID_CRL: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &Fixed(4)), (REQ, &SEQ_OF_HASH_BASED_REVOCATION_INFO)],
};
static INDIVIDUAL_REVOCATION: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &FIXED16), (REQ, &FIXED16)],
};
static SEQ_OF_INDIVIDUAL_REVOCATION: Ty = SeqOf(&INDIVIDUAL_REVOCATION);
static SEQ_OF_LINKAGE_SEED: Ty = SeqOf(&FIXED16);
static IMAX_GROUP: Ty = Seq {
    additions: &[&SEQ_OF_LINKAGE_SEED],
    ext: true,
    fields: &[(REQ, &UINT16), (REQ, &SEQ_OF_INDIVIDUAL_REVOCATION)],
};
static SEQ_OF_IMAX_GROUP: Ty = SeqOf(&IMAX_GROUP);
static LA_GROUP: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &Fixed(2)), (REQ, &Fixed(2)), (REQ, &SEQ_OF_IMAX_GROUP)],
};
static SEQ_OF_LA_GROUP: Ty = SeqOf(&LA_GROUP);
static JMAX_GROUP: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &UINT8), (REQ, &SEQ_OF_LA_GROUP)],
};
static SEQ_OF_JMAX_GROUP: Ty = SeqOf(&JMAX_GROUP);
static GROUP_CRL_ENTRY: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (REQ, &UINT16),
        (REQ, &Fixed(2)),
        (REQ, &FIXED16),
        (REQ, &Fixed(2)),
        (REQ, &FIXED16),
    ],
};
static SEQ_OF_GROUP_CRL_ENTRY: Ty = SeqOf(&GROUP_CRL_ENTRY);
static GROUP_SINGLE_SEED_CRL_ENTRY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT16), (REQ, &Fixed(2)), (REQ, &FIXED16)],
};
static SEQ_OF_GROUP_SINGLE_SEED_CRL_ENTRY: Ty = SeqOf(&GROUP_SINGLE_SEED_CRL_ENTRY);
static TO_BE_SIGNED_LINKAGE_VALUE_CRL: Ty = Seq {
    additions: &[&SEQ_OF_GROUP_SINGLE_SEED_CRL_ENTRY],
    ext: true,
    fields: &[
        (REQ, &UINT16),
        (REQ, &UINT8),
        (OPT, &SEQ_OF_JMAX_GROUP),
        (OPT, &SEQ_OF_GROUP_CRL_ENTRY),
    ],
};
static TO_BE_SIGNED_LINKAGE_VALUE_CRL_WITH_ALG: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (REQ, &UINT16),
        (REQ, &UINT8),
        (REQ, &NULL),
        (REQ, &NULL),
        (OPT, &SEQ_OF_JMAX_GROUP),
        (OPT, &SEQ_OF_GROUP_CRL_ENTRY),
        (OPT, &SEQ_OF_GROUP_SINGLE_SEED_CRL_ENTRY),
    ],
};
static TYPE_SPECIFIC_CRL_CONTENTS: Ty = Choice {
    ext_alts: &[
        &TO_BE_SIGNED_LINKAGE_VALUE_CRL_WITH_ALG,
        &TO_BE_SIGNED_LINKAGE_VALUE_CRL_WITH_ALG,
    ],
    ext: true,
    alts: &[
        Some(&TO_BE_SIGNED_HASH_ID_CRL),
        Some(&TO_BE_SIGNED_HASH_ID_CRL),
        Some(&TO_BE_SIGNED_LINKAGE_VALUE_CRL),
        Some(&TO_BE_SIGNED_LINKAGE_VALUE_CRL),
    ],
};
pub(crate) static CRL_CONTENTS: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[
        (REQ, &UINT8),
        (REQ, &UINT16),
        (REQ, &HASHED_ID8),
        (REQ, &Fixed(4)),
        (REQ, &Fixed(4)),
        (REQ, &CRL_PRIORITY_INFO),
        (REQ, &TYPE_SPECIFIC_CRL_CONTENTS),
    ],
};
