//! ETSI TS 102 941 trust lists and CRL body (see `crate::trust_list`) and the IEEE 1609.2 CRL
//! contents (`crl_base_types`), as `rasn-its` 0.30 and this crate model them.

use super::schema::{CERTIFICATE, FIXED16, HASHED_ID8, INTEGER, NULL, OPT, REQ, UINT16, UINT8};
use super::walker::Ty::{self, *};

// ETSI TS 102 941 trust lists and CRL body.

static URL: Ty = Len;
static SEQ_OF_HASHED_ID8: Ty = SeqOf(&HASHED_ID8);
static ROOT_CA_ENTRY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &CERTIFICATE), (OPT, &CERTIFICATE)],
};
static EA_ENTRY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &CERTIFICATE), (REQ, &URL), (OPT, &URL)],
};
static AA_ENTRY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &CERTIFICATE), (REQ, &URL)],
};
static DC_ENTRY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &URL), (REQ, &SEQ_OF_HASHED_ID8)],
};
static TLM_ENTRY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &CERTIFICATE), (OPT, &CERTIFICATE), (REQ, &URL)],
};
static CTL_ENTRY: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[
        Some(&ROOT_CA_ENTRY),
        Some(&EA_ENTRY),
        Some(&AA_ENTRY),
        Some(&DC_ENTRY),
        Some(&TLM_ENTRY),
    ],
};
static CTL_DELETE: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&HASHED_ID8), Some(&URL)],
};
static CTL_COMMAND: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&CTL_ENTRY), Some(&CTL_DELETE)],
};
static SEQ_OF_CTL_COMMAND: Ty = SeqOf(&CTL_COMMAND);
pub(crate) static CTL_FORMAT: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (REQ, &INTEGER),
        (REQ, &Fixed(4)),
        (REQ, &Fixed(1)),
        (REQ, &UINT8),
        (REQ, &SEQ_OF_CTL_COMMAND),
    ],
};
pub(crate) static TO_BE_SIGNED_CRL: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (REQ, &INTEGER),
        (REQ, &Fixed(4)),
        (REQ, &Fixed(4)),
        (REQ, &SEQ_OF_HASHED_ID8),
    ],
};
static ETSI_TS102941_DATA_CONTENT: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[
        None,
        None,
        None,
        None,
        Some(&TO_BE_SIGNED_CRL),
        Some(&CTL_FORMAT),
        Some(&CTL_FORMAT),
        None,
        None,
        None,
    ],
};
pub(crate) static ETSI_TS102941_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &ETSI_TS102941_DATA_CONTENT)],
};

// IEEE 1609.2 CRL contents (crl_base_types), as rasn-its 0.30 models them.

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ieee1609dot2::guard::walker::rest_after;
    use crate::ieee1609dot2::WireError;

    #[test]
    fn root_alternatives_this_crate_does_not_decode_are_unsupported() {
        // EtsiTs102941DataContent root alternative 0 (enrolment request) is not decoded here.
        assert!(matches!(
            rest_after(&ETSI_TS102941_DATA, &[1, 0x80, 0]),
            Err(WireError::Unsupported(_))
        ));
    }
}
