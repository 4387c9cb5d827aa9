//! IEEE 1609.2 / TS 103 097 secured data and certificates, as `rasn-its` 0.30 models them.

use super::walker::Ty::{self, *};

pub(crate) const OPT: bool = true;
pub(crate) const REQ: bool = false;

pub(crate) static UINT8: Ty = Fixed(1);
pub(crate) static UINT16: Ty = Fixed(2);
static HASHED_ID3: Ty = Fixed(3);
pub(crate) static HASHED_ID8: Ty = Fixed(8);
static FIXED32: Ty = Fixed(32);
pub(crate) static FIXED16: Ty = Fixed(16);
pub(crate) static NULL: Ty = Fixed(0);
static TIME64: Ty = Fixed(8);
pub(crate) static INTEGER: Ty = Len;
static OCTETS: Ty = Len;

static ECC_P256_POINT: Ty = Choice {
    ext_alts: &[],
    ext: false,
    alts: &[
        Some(&FIXED32),
        Some(&NULL),
        Some(&FIXED32),
        Some(&FIXED32),
        Some(&Fixed(64)),
    ],
};
static ECDSA_P256_SIGNATURE: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &ECC_P256_POINT), (REQ, &FIXED32)],
};
pub(crate) static SIGNATURE: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&ECDSA_P256_SIGNATURE), Some(&ECDSA_P256_SIGNATURE)],
};
pub(crate) static PUBLIC_VERIFICATION_KEY: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&ECC_P256_POINT), Some(&ECC_P256_POINT)],
};
static VERIFICATION_KEY_INDICATOR: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&PUBLIC_VERIFICATION_KEY), Some(&ECC_P256_POINT)],
};
static BASE_PUBLIC_ENCRYPTION_KEY: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&ECC_P256_POINT), Some(&ECC_P256_POINT)],
};
pub(crate) static PUBLIC_ENCRYPTION_KEY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &Enum), (REQ, &BASE_PUBLIC_ENCRYPTION_KEY)],
};
static SYMMETRIC_ENCRYPTION_KEY: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&FIXED16)],
};
static ENCRYPTION_KEY: Ty = Choice {
    ext_alts: &[],
    ext: false,
    alts: &[Some(&PUBLIC_ENCRYPTION_KEY), Some(&SYMMETRIC_ENCRYPTION_KEY)],
};

static TWO_D_LOCATION: Ty = Fixed(8);
static THREE_D_LOCATION: Ty = Fixed(10);
static CIRCULAR_REGION: Ty = Fixed(10);
static RECTANGULAR_REGION: Ty = Fixed(16);
static SEQ_OF_UINT8: Ty = SeqOf(&UINT8);
static SEQ_OF_UINT16: Ty = SeqOf(&UINT16);
static COUNTRY_AND_REGIONS: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT16), (REQ, &SEQ_OF_UINT8)],
};
static REGION_AND_SUBREGIONS: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &SEQ_OF_UINT16)],
};
static SEQ_OF_REGION_AND_SUBREGIONS: Ty = SeqOf(&REGION_AND_SUBREGIONS);
static COUNTRY_AND_SUBREGIONS: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT16), (REQ, &SEQ_OF_REGION_AND_SUBREGIONS)],
};
static IDENTIFIED_REGION: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&UINT16), Some(&COUNTRY_AND_REGIONS), Some(&COUNTRY_AND_SUBREGIONS)],
};
static SEQ_OF_RECTANGULAR_REGION: Ty = SeqOf(&RECTANGULAR_REGION);
static POLYGONAL_REGION: Ty = SeqOf(&TWO_D_LOCATION);
static SEQ_OF_IDENTIFIED_REGION: Ty = SeqOf(&IDENTIFIED_REGION);
pub(crate) static GEOGRAPHIC_REGION: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[
        Some(&CIRCULAR_REGION),
        Some(&SEQ_OF_RECTANGULAR_REGION),
        Some(&POLYGONAL_REGION),
        Some(&SEQ_OF_IDENTIFIED_REGION),
    ],
};

static DURATION: Ty = Choice {
    ext_alts: &[],
    ext: false,
    alts: &[
        Some(&UINT16),
        Some(&UINT16),
        Some(&UINT16),
        Some(&UINT16),
        Some(&UINT16),
        Some(&UINT16),
        Some(&UINT16),
    ],
};
pub(crate) static VALIDITY_PERIOD: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &Fixed(4)), (REQ, &DURATION)],
};

static SERVICE_SPECIFIC_PERMISSIONS: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&OCTETS)],
};
static PSID_SSP: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &INTEGER), (OPT, &SERVICE_SPECIFIC_PERMISSIONS)],
};
pub(crate) static SEQ_OF_PSID_SSP: Ty = SeqOf(&PSID_SSP);
static SEQ_OF_OCTETS: Ty = SeqOf(&OCTETS);
static SSP_RANGE: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&SEQ_OF_OCTETS), Some(&NULL)],
};
static PSID_SSP_RANGE: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &INTEGER), (OPT, &SSP_RANGE)],
};
static SEQ_OF_PSID_SSP_RANGE: Ty = SeqOf(&PSID_SSP_RANGE);
static SUBJECT_PERMISSIONS: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&SEQ_OF_PSID_SSP_RANGE), Some(&NULL)],
};
static PSID_GROUP_PERMISSIONS: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[
        (REQ, &SUBJECT_PERMISSIONS),
        (OPT, &INTEGER),
        (OPT, &INTEGER),
        (OPT, &Fixed(1)),
    ],
};
pub(crate) static SEQ_OF_PSID_GROUP_PERMISSIONS: Ty = SeqOf(&PSID_GROUP_PERMISSIONS);

static LINKAGE_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT16), (REQ, &Fixed(9)), (OPT, &Fixed(13))],
};
pub(crate) static CERTIFICATE_ID: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&LINKAGE_DATA), Some(&OCTETS), Some(&OCTETS), Some(&NULL)],
};
pub(crate) static ISSUER_IDENTIFIER: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&HASHED_ID8), Some(&Enum)],
};
// ToBeSignedCertificate extension additions: flags BIT STRING (SIZE (8)), appExtensions,
// certIssueExtensions, certRequestExtension (rasn-its: operating-organization extensions only).
static APP_EXTENSION: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &Len)],
};
static NULL_OR_NULL: Ty = Choice {
    ext_alts: &[],
    ext: false,
    alts: &[Some(&NULL), Some(&NULL)],
};
static ISSUE_OR_REQUEST_EXTENSION: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &NULL_OR_NULL)],
};
static SEQ_OF_APP_EXTENSION: Ty = SeqOf(&APP_EXTENSION);
static SEQ_OF_ISSUE_OR_REQUEST_EXTENSION: Ty = SeqOf(&ISSUE_OR_REQUEST_EXTENSION);
pub(crate) static TO_BE_SIGNED_CERTIFICATE: Ty = Seq {
    additions: &[
        &Fixed(1),
        &SEQ_OF_APP_EXTENSION,
        &SEQ_OF_ISSUE_OR_REQUEST_EXTENSION,
        &SEQ_OF_ISSUE_OR_REQUEST_EXTENSION,
    ],
    ext: true,
    fields: &[
        (REQ, &CERTIFICATE_ID),
        (REQ, &HASHED_ID3),
        (REQ, &UINT16),
        (REQ, &VALIDITY_PERIOD),
        (OPT, &GEOGRAPHIC_REGION),
        (OPT, &Fixed(1)),
        (OPT, &SEQ_OF_PSID_SSP),
        (OPT, &SEQ_OF_PSID_GROUP_PERMISSIONS),
        (OPT, &SEQ_OF_PSID_GROUP_PERMISSIONS),
        (OPT, &NULL),
        (OPT, &PUBLIC_ENCRYPTION_KEY),
        (REQ, &VERIFICATION_KEY_INDICATOR),
    ],
};
pub(crate) static CERTIFICATE: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[
        (REQ, &UINT8),
        (REQ, &Enum),
        (REQ, &ISSUER_IDENTIFIER),
        (REQ, &TO_BE_SIGNED_CERTIFICATE),
        (OPT, &SIGNATURE),
    ],
};
pub(crate) static SEQ_OF_CERTIFICATE: Ty = SeqOf(&CERTIFICATE);

static HASHED_DATA: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&FIXED32)],
};
pub(crate) static SIGNED_DATA_PAYLOAD: Ty = Seq {
    // omitted NULL
    additions: &[&NULL],
    ext: true,
    fields: &[(OPT, &IEEE1609DOT2_DATA), (OPT, &HASHED_DATA)],
};
static MISSING_CRL_IDENTIFIER: Ty = Seq {
    additions: &[],
    ext: true,
    fields: &[(REQ, &HASHED_ID3), (REQ, &UINT16)],
};
// HeaderInfo extension additions: inlineP2pcdRequest, requestedCertificate, pduFunctionalType,
// contributedExtensions (rasn-its models the contributed blocks as a CHOICE of an IEEE block of
// Extension { id, HashedId8 } and an ETSI block of CRL / delta-CTL requests, encoded inline).
static SEQ_OF_HASHED_ID3: Ty = SeqOf(&HASHED_ID3);
static IEEE_HEADER_EXTENSION: Ty = Fixed(9);
static ETSI_CRL_REQUEST: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &HASHED_ID8), (OPT, &Fixed(4))],
};
static ETSI_CTL_REQUEST: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &HASHED_ID8), (OPT, &UINT8)],
};
static ETSI_HEADER_EXTENSION: Ty = ById(&[(1, &ETSI_CRL_REQUEST), (2, &ETSI_CTL_REQUEST)]);
static SEQ_OF_IEEE_HEADER_EXTENSION: Ty = SeqOf(&IEEE_HEADER_EXTENSION);
static SEQ_OF_ETSI_HEADER_EXTENSION: Ty = SeqOf(&ETSI_HEADER_EXTENSION);
static IEEE_CONTRIBUTED_BLOCK: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &SEQ_OF_IEEE_HEADER_EXTENSION)],
};
static ETSI_CONTRIBUTED_BLOCK: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &SEQ_OF_ETSI_HEADER_EXTENSION)],
};
static CONTRIBUTED_EXTENSION_BLOCK: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&IEEE_CONTRIBUTED_BLOCK), Some(&ETSI_CONTRIBUTED_BLOCK)],
};
static CONTRIBUTED_EXTENSION_BLOCKS: Ty = SeqOf(&CONTRIBUTED_EXTENSION_BLOCK);
pub(crate) static HEADER_INFO: Ty = Seq {
    additions: &[&SEQ_OF_HASHED_ID3, &CERTIFICATE, &UINT8, &CONTRIBUTED_EXTENSION_BLOCKS],
    ext: true,
    fields: &[
        (REQ, &INTEGER),
        (OPT, &TIME64),
        (OPT, &TIME64),
        (OPT, &THREE_D_LOCATION),
        (OPT, &HASHED_ID3),
        (OPT, &MISSING_CRL_IDENTIFIER),
        (OPT, &ENCRYPTION_KEY),
    ],
};
pub(crate) static TO_BE_SIGNED_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &SIGNED_DATA_PAYLOAD), (REQ, &HEADER_INFO)],
};
pub(crate) static SIGNER_IDENTIFIER: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&HASHED_ID8), Some(&SEQ_OF_CERTIFICATE), Some(&NULL)],
};
pub(crate) static SIGNED_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[
        (REQ, &Enum),
        (REQ, &TO_BE_SIGNED_DATA),
        (REQ, &SIGNER_IDENTIFIER),
        (REQ, &SIGNATURE),
    ],
};

static ONE28_BIT_CCM_CIPHERTEXT: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &Fixed(12)), (REQ, &OCTETS)],
};
static SYMMETRIC_CIPHERTEXT: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&ONE28_BIT_CCM_CIPHERTEXT)],
};
static ECIES_P256_ENCRYPTED_KEY: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &ECC_P256_POINT), (REQ, &FIXED16), (REQ, &FIXED16)],
};
static ENCRYPTED_DATA_ENCRYPTION_KEY: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&ECIES_P256_ENCRYPTED_KEY), Some(&ECIES_P256_ENCRYPTED_KEY)],
};
static SYMM_RECIPIENT_INFO: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &HASHED_ID8), (REQ, &SYMMETRIC_CIPHERTEXT)],
};
static PK_RECIPIENT_INFO: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &HASHED_ID8), (REQ, &ENCRYPTED_DATA_ENCRYPTION_KEY)],
};
static RECIPIENT_INFO: Ty = Choice {
    ext_alts: &[],
    ext: false,
    alts: &[
        Some(&HASHED_ID8),
        Some(&SYMM_RECIPIENT_INFO),
        Some(&PK_RECIPIENT_INFO),
        Some(&PK_RECIPIENT_INFO),
        Some(&PK_RECIPIENT_INFO),
    ],
};
static SEQ_OF_RECIPIENT_INFO: Ty = SeqOf(&RECIPIENT_INFO);
pub(crate) static ENCRYPTED_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &SEQ_OF_RECIPIENT_INFO), (REQ, &SYMMETRIC_CIPHERTEXT)],
};
static IEEE1609DOT2_CONTENT: Ty = Choice {
    ext_alts: &[],
    ext: true,
    alts: &[Some(&OCTETS), Some(&SIGNED_DATA), Some(&ENCRYPTED_DATA), Some(&OCTETS)],
};
pub(crate) static IEEE1609DOT2_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT8), (REQ, &IEEE1609DOT2_CONTENT)],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ieee1609dot2::guard::walker::rest_after;
    use crate::ieee1609dot2::{DecodeFailure, WireError};

    fn malformed(r: Result<usize, WireError>) -> bool {
        matches!(r, Err(WireError::Decode(DecodeFailure::Malformed(_))))
    }

    #[test]
    fn extension_additions_the_decoder_does_not_model_are_refused() {
        // MissingCrlIdentifier: preamble with the extension bit, 3 + 2 octets, then a bitmap
        // announcing additions 1 and 10. rasn-its models none, and rasn 0.30 then reads neither
        // the bitmap nor the open types: it would decode them as whatever field follows. The
        // pre-scan used to skip them by length, letting bytes it never walked reach rasn.
        let b = [
            0x80, 1, 2, 3, 0, 1, 0x03, 0x06, 0x80, 0x40, 0x01, 0xAA, 0x02, 0xBB, 0xCC, 0x99,
        ];
        assert!(matches!(
            rest_after(&MISSING_CRL_IDENTIFIER, &b),
            Err(WireError::Unsupported(_))
        ));
        // HeaderInfo models 4 additions: a fifth is refused the same way.
        let h = [0x80, 0x01, 0x24, 0x02, 0x03, 0x08, 0x01, 0xAA];
        assert!(matches!(rest_after(&HEADER_INFO, &h), Err(WireError::Unsupported(_))));
        // A modelled one (inlineP2pcdRequest, one HashedId3) passes.
        let h = [0x80, 0x01, 0x24, 0x02, 0x04, 0x80, 0x05, 0x01, 0x01, 1, 2, 3, 0x99];
        assert_eq!(rest_after(&HEADER_INFO, &h), Ok(1));
    }

    #[test]
    fn extension_bitmap_unused_bits_must_be_zero() {
        // The same inlineP2pcdRequest, with the bitmap declaring 7 unused bits: bit 0 alone
        // counts for the pre-scan, but rasn 0.30 reads bit 1 (requestedCertificate) regardless.
        // This is how the 212-byte crash message of issue 11 hid a forged quantity.
        let h = [0x80, 0x01, 0x24, 0x02, 0x07, 0x40, 0x05, 0x01, 0x01, 1, 2, 3];
        assert!(malformed(rest_after(&HEADER_INFO, &h)));
        assert!(malformed(rest_after(
            &HEADER_INFO,
            &[0x80, 0x01, 0x24, 0x02, 0x08, 0x00]
        )));
        assert!(malformed(rest_after(&HEADER_INFO, &[0x80, 0x01, 0x24, 0x01, 0x01])));
        assert!(malformed(rest_after(&HEADER_INFO, &[0x80, 0x01, 0x24, 0x00])));
    }

    #[test]
    fn extension_additions_are_walked_inside_their_open_type() {
        // inlineP2pcdRequest whose open type holds a forged quantity (the open type is 9 bytes,
        // the quantity announces 2^60 elements).
        let h = [
            0x80, 0x01, 0x24, 0x02, 0x04, 0x80, 0x09, 0x08, 0x10, 0, 0, 0, 0, 0, 0, 0,
        ];
        assert!(malformed(rest_after(&HEADER_INFO, &h)));
        // A quantity that fits the whole input but not its open type.
        let h = [
            0x80, 0x01, 0x24, 0x02, 0x04, 0x80, 0x02, 0x01, 0x05, 1, 2, 3, 4, 5, 6, 7, 8,
        ];
        assert!(malformed(rest_after(&HEADER_INFO, &h)));
    }

    #[test]
    fn quantity_larger_than_input_is_rejected() {
        assert!(malformed(rest_after(&SEQ_OF_HASHED_ID3, &[1, 2, 1, 2, 3])));
        assert_eq!(rest_after(&SEQ_OF_HASHED_ID3, &[1, 1, 1, 2, 3]), Ok(0));
        assert!(malformed(rest_after(&SEQ_OF_HASHED_ID3, &[0])));
        assert!(malformed(rest_after(
            &SEQ_OF_HASHED_ID3,
            &[9, 0, 0, 0, 0, 0, 0, 0, 0, 1]
        )));
        assert!(malformed(rest_after(&SEQ_OF_HASHED_ID3, &[2, 0, 1, 1, 2, 3])));
    }

    #[test]
    fn unknown_extension_alternative_is_skipped_unknown_root_is_not() {
        // Signature alternative 4 (sm2, extension): open type of 2 octets.
        assert_eq!(rest_after(&SIGNATURE, &[0x84, 2, 0, 0]), Ok(0));
        // RecipientInfo has no extension marker: tag 5 is malformed.
        assert!(malformed(rest_after(&RECIPIENT_INFO, &[0x85, 0])));
    }

    #[test]
    fn nesting_is_bounded() {
        // Signed data whose payload is signed data whose payload is ... (no end).
        let mut b = Vec::new();
        for _ in 0..40 {
            b.extend_from_slice(&[3, 0x81, 0, 0x40]);
        }
        assert!(malformed(rest_after(&IEEE1609DOT2_DATA, &b)));
    }
}
