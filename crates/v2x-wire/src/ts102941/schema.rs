//! The pre-scan description (see `crate::ieee1609dot2::guard`) of the TS 102 941 protocol
//! messages of `crate::ts102941`, as this crate models them. No SEQUENCE here models an
//! extension addition, so any addition is refused before `rasn` could misread it.

use crate::ieee1609dot2::guard::schema::{
    CERTIFICATE, CERTIFICATE_ID, FIXED16, GEOGRAPHIC_REGION, HASHED_ID8, IEEE1609DOT2_DATA, OPT, PUBLIC_ENCRYPTION_KEY,
    PUBLIC_VERIFICATION_KEY, REQ, SEQ_OF_PSID_GROUP_PERMISSIONS, SEQ_OF_PSID_SSP, UINT8, VALIDITY_PERIOD,
};
use crate::ieee1609dot2::guard::Ty::{self, *};
use crate::trust_list::schema::{CTL_FORMAT, TO_BE_SIGNED_CRL};

static OCTETS: Ty = Len;
/// `CertificateFormat ::= INTEGER (1..255)`.
static CERTIFICATE_FORMAT: Ty = Fixed(1);
static CERTIFICATE_SUBJECT_ATTRIBUTES: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (OPT, &CERTIFICATE_ID),
        (OPT, &VALIDITY_PERIOD),
        (OPT, &GEOGRAPHIC_REGION),
        (OPT, &Fixed(1)),
        (OPT, &SEQ_OF_PSID_SSP),
        (OPT, &SEQ_OF_PSID_GROUP_PERMISSIONS),
    ],
};
pub(crate) static PUBLIC_KEYS: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &PUBLIC_VERIFICATION_KEY), (OPT, &PUBLIC_ENCRYPTION_KEY)],
};
static EC_SIGNATURE: Ty = Choice {
    ext_alts: &[],
    ext: false,
    alts: &[Some(&IEEE1609DOT2_DATA), Some(&IEEE1609DOT2_DATA)],
};
pub(crate) static INNER_EC_REQUEST: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (REQ, &OCTETS),
        (REQ, &CERTIFICATE_FORMAT),
        (REQ, &PUBLIC_KEYS),
        (REQ, &CERTIFICATE_SUBJECT_ATTRIBUTES),
    ],
};
/// `InnerEcResponse`, `InnerAtResponse`: request hash, response code, optional certificate.
static INNER_RESPONSE: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &FIXED16), (REQ, &Enum), (OPT, &CERTIFICATE)],
};
pub(crate) static SHARED_AT_REQUEST: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (REQ, &HASHED_ID8),
        (REQ, &FIXED16),
        (REQ, &CERTIFICATE_FORMAT),
        (REQ, &CERTIFICATE_SUBJECT_ATTRIBUTES),
    ],
};
static INNER_AT_REQUEST: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[
        (REQ, &PUBLIC_KEYS),
        (REQ, &Fixed(32)),
        (REQ, &SHARED_AT_REQUEST),
        (REQ, &EC_SIGNATURE),
    ],
};
static AUTHORIZATION_VALIDATION_REQUEST: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &SHARED_AT_REQUEST), (REQ, &EC_SIGNATURE)],
};
static AUTHORIZATION_VALIDATION_RESPONSE: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &FIXED16), (REQ, &Enum), (OPT, &CERTIFICATE_SUBJECT_ATTRIBUTES)],
};
static CA_CERTIFICATE_REQUEST: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &PUBLIC_KEYS), (REQ, &CERTIFICATE_SUBJECT_ATTRIBUTES)],
};
static ETSI_TS102941_DATA_CONTENT: Ty = Choice {
    // Link-certificate and butterfly extension alternatives are skipped by length here and
    // refused by the decoder (it models none of them).
    ext_alts: &[],
    ext: true,
    alts: &[
        Some(&IEEE1609DOT2_DATA),
        Some(&INNER_RESPONSE),
        Some(&INNER_AT_REQUEST),
        Some(&INNER_RESPONSE),
        Some(&TO_BE_SIGNED_CRL),
        Some(&CTL_FORMAT),
        Some(&CTL_FORMAT),
        Some(&AUTHORIZATION_VALIDATION_REQUEST),
        Some(&AUTHORIZATION_VALIDATION_RESPONSE),
        Some(&CA_CERTIFICATE_REQUEST),
    ],
};
pub(crate) static ETSI_TS102941_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &ETSI_TS102941_DATA_CONTENT)],
};
