//! The pre-scan description (see `crate::ieee1609dot2::guard`) of the TS 102 941 types in this
//! module: trust lists and the CRL body, as this crate models them.

use crate::ieee1609dot2::guard::schema::{CERTIFICATE, HASHED_ID8, INTEGER, OPT, REQ, UINT8};
use crate::ieee1609dot2::guard::Ty::{self, *};

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
pub(super) static ETSI_TS102941_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &ETSI_TS102941_DATA_CONTENT)],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ieee1609dot2::guard::rest_after;
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
