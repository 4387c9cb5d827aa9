//! A structural pre-scan of C-OER input that bounds every SEQUENCE OF quantity by the bytes left.
//!
//! Why: `rasn` 0.30's OER decoder sizes a `Vec::with_capacity(quantity)` from the untrusted
//! quantity field of a SEQUENCE OF before reading any element. A 6-byte input can therefore make
//! it request terabytes (the process aborts: "memory allocation failed") or overflow the capacity
//! computation (a panic). Neither is a typed error, and an abort cannot be caught.
//!
//! The guard walks the encoding along a compact description of the 1609.2 / TS 103 097 /
//! TS 102 941 schema (root components only: extension additions and extension alternatives are
//! length-prefixed open types, which the walk skips by their length) and rejects any quantity
//! larger than the remaining input — every element of every SEQUENCE OF in these schemas takes
//! at least one octet, so such a quantity is always malformed. It allocates nothing and costs a
//! fraction of the real decode. It is not the decoder: it only has to accept everything valid;
//! `rasn` still does the full checks afterwards.

use super::WireError;

/// A type's C-OER shape, as far as the walk needs it.
pub(crate) enum Ty {
    /// A fixed number of octets (constrained integers, fixed-size strings, BOOLEAN, ...).
    Fixed(usize),
    /// A length determinant then that many octets (OCTET STRING / UTF8String / IA5String without
    /// a fixed size, unconstrained or semi-constrained INTEGER, open types).
    Len,
    /// ENUMERATED: one octet below 128, or 0x80|n then n octets.
    Enum,
    /// SEQUENCE: `ext` = has an extension marker; fields are (optional-or-default, type);
    /// `additions` are the extension additions `rasn-its` decodes, in order (walked inside their
    /// open type, since `rasn` decodes them too); later additions are skipped by length.
    Seq {
        ext: bool,
        fields: &'static [(bool, &'static Ty)],
        additions: &'static [&'static Ty],
    },
    /// An `Extension { id, content }` whose content type depends on the id octet (as
    /// `rasn-its` decodes the ETSI header-info extensions: inline, no open type).
    ById(&'static [(u8, &'static Ty)]),
    /// CHOICE: the root alternatives in tag order (context tags 0, 1, ...); `None` marks a root
    /// alternative this crate does not decode. `ext_alts` are the extension alternatives that
    /// `rasn-its` decodes and that contain a SEQUENCE OF (walked inside their open type); other
    /// extension alternatives are skipped by length.
    Choice {
        ext: bool,
        alts: &'static [Option<&'static Ty>],
        ext_alts: &'static [&'static Ty],
    },
    /// SEQUENCE OF: quantity then elements.
    SeqOf(&'static Ty),
}

use Ty::*;

const MAX_DEPTH: usize = 48;

fn err(msg: &str) -> WireError {
    WireError::Decode(format!("malformed C-OER: {msg}"))
}

fn take(input: &[u8], n: usize) -> Result<&[u8], WireError> {
    input.get(n..).ok_or_else(|| err("truncated"))
}

/// Reads a length determinant; returns (length, rest).
fn length(input: &[u8]) -> Result<(usize, &[u8]), WireError> {
    let (&first, rest) = input.split_first().ok_or_else(|| err("truncated length"))?;
    if first < 0x80 {
        return Ok((usize::from(first), rest));
    }
    let n = usize::from(first & 0x7f);
    let (digits, rest) = rest.split_at_checked(n).ok_or_else(|| err("truncated length"))?;
    if n == 0 || n > 8 {
        return Err(err("length of length"));
    }
    let len = digits.iter().fold(0u64, |a, &d| (a << 8) | u64::from(d));
    let len = usize::try_from(len).map_err(|_| err("length too large"))?;
    Ok((len, rest))
}

fn skip_len(input: &[u8]) -> Result<&[u8], WireError> {
    let (n, rest) = length(input)?;
    take(rest, n)
}

/// Walks one value of type `ty`; returns the bytes after it.
pub(crate) fn walk<'a>(ty: &Ty, input: &'a [u8], depth: usize) -> Result<&'a [u8], WireError> {
    if depth > MAX_DEPTH {
        return Err(err("nested too deeply"));
    }
    match ty {
        Fixed(n) => take(input, *n),
        Len => skip_len(input),
        Enum => {
            let (&first, rest) = input.split_first().ok_or_else(|| err("truncated enumerated"))?;
            if first < 0x80 {
                Ok(rest)
            } else {
                take(rest, usize::from(first & 0x7f))
            }
        }
        ById(table) => {
            let (&id, rest) = input.split_first().ok_or_else(|| err("truncated extension id"))?;
            let (_, ty) = table
                .iter()
                .find(|(k, _)| *k == id)
                .ok_or_else(|| err("unknown extension id"))?;
            walk(ty, rest, depth + 1)
        }
        Seq { ext, fields, additions } => {
            let optional = fields.iter().filter(|f| f.0).count();
            let bits = optional + usize::from(*ext);
            let pre_len = bits.div_ceil(8);
            let preamble = input.get(..pre_len).ok_or_else(|| err("truncated preamble"))?;
            let bit = |i: usize| preamble.get(i / 8).is_some_and(|b| b & (0x80 >> (i % 8)) != 0);
            let mut rest = take(input, pre_len)?;
            let extended = *ext && bit(0);
            let mut next_bit = usize::from(*ext);
            for (optional, ty) in fields.iter() {
                let present = if *optional {
                    next_bit += 1;
                    bit(next_bit - 1)
                } else {
                    true
                };
                if present {
                    rest = walk(ty, rest, depth + 1)?;
                }
            }
            if extended {
                // Extension presence bitmap (a length-prefixed BIT STRING: unused-bits octet
                // then the bits), then one open type per bit set.
                let (n, after) = length(rest)?;
                let bitmap = after.get(..n).ok_or_else(|| err("truncated extension bitmap"))?;
                rest = take(after, n)?;
                let (unused, bits) = bitmap.split_first().ok_or_else(|| err("empty extension bitmap"))?;
                let total = (bits.len() * 8)
                    .checked_sub(usize::from(*unused))
                    .ok_or_else(|| err("extension bitmap"))?;
                for i in 0..total {
                    if bits.get(i / 8).is_some_and(|b| b & (0x80 >> (i % 8)) != 0) {
                        let (n, after) = length(rest)?;
                        let open = after.get(..n).ok_or_else(|| err("truncated extension addition"))?;
                        if let Some(ty) = additions.get(i) {
                            walk(ty, open, depth + 1)?;
                        }
                        rest = take(after, n)?;
                    }
                }
            }
            Ok(rest)
        }
        Choice { ext, alts, ext_alts } => {
            let (&tag, rest) = input.split_first().ok_or_else(|| err("truncated choice"))?;
            let number = usize::from(tag & 0x3f);
            if tag >> 6 != 0b10 || number == 0x3f {
                // Only context tags below 63 occur in these schemas (root or extension).
                return Err(err("choice tag"));
            }
            match alts.get(number) {
                Some(Some(ty)) => walk(ty, rest, depth + 1),
                Some(None) => Err(WireError::Unsupported(format!("choice alternative {number}"))),
                None if *ext => {
                    let (n, after) = length(rest)?;
                    let open = after.get(..n).ok_or_else(|| err("truncated extension alternative"))?;
                    if let Some(ty) = number.checked_sub(alts.len()).and_then(|i| ext_alts.get(i)) {
                        walk(ty, open, depth + 1)?;
                    }
                    take(after, n)
                }
                None => Err(err("unknown choice alternative")),
            }
        }
        SeqOf(elem) => {
            let (&n, rest) = input.split_first().ok_or_else(|| err("truncated quantity"))?;
            let n = usize::from(n);
            let (digits, mut rest) = rest.split_at_checked(n).ok_or_else(|| err("truncated quantity"))?;
            if n == 0 || n > 8 {
                return Err(err("quantity length"));
            }
            let count = digits.iter().fold(0u64, |a, &d| (a << 8) | u64::from(d));
            if count > rest.len() as u64 {
                return Err(err(&format!(
                    "SEQUENCE OF announces {count} elements with {} bytes left",
                    rest.len()
                )));
            }
            for _ in 0..count {
                rest = walk(elem, rest, depth + 1)?;
            }
            Ok(rest)
        }
    }
}

/// Length of the `ty` value at the start of `bytes` (cheap: no allocation, no values built).
pub(crate) fn encoded_len(ty: &Ty, bytes: &[u8]) -> Result<usize, WireError> {
    walk(ty, bytes, 0).map(|rest| bytes.len() - rest.len())
}

/// Checks that `bytes` starts with a well-formed `ty` under the guard's rules.
pub(crate) fn check(ty: &Ty, bytes: &[u8]) -> Result<(), WireError> {
    walk(ty, bytes, 0).map(|_| ())
}

// ---------------------------------------------------------------------------------------------
// IEEE 1609.2 (base types and secured data), as rasn-its 0.30 models them.

const OPT: bool = true;
const REQ: bool = false;

static UINT8: Ty = Fixed(1);
static UINT16: Ty = Fixed(2);
static HASHED_ID3: Ty = Fixed(3);
static HASHED_ID8: Ty = Fixed(8);
static FIXED32: Ty = Fixed(32);
static FIXED16: Ty = Fixed(16);
static NULL: Ty = Fixed(0);
static TIME64: Ty = Fixed(8);
static INTEGER: Ty = Len;
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
static PUBLIC_VERIFICATION_KEY: Ty = Choice {
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
static PUBLIC_ENCRYPTION_KEY: Ty = Seq {
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
static GEOGRAPHIC_REGION: Ty = Choice {
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
static VALIDITY_PERIOD: Ty = Seq {
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
static SEQ_OF_PSID_SSP: Ty = SeqOf(&PSID_SSP);
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
static SEQ_OF_PSID_GROUP_PERMISSIONS: Ty = SeqOf(&PSID_GROUP_PERMISSIONS);

static LINKAGE_DATA: Ty = Seq {
    additions: &[],
    ext: false,
    fields: &[(REQ, &UINT16), (REQ, &Fixed(9)), (OPT, &Fixed(13))],
};
static CERTIFICATE_ID: Ty = Choice {
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
    additions: &[],
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

// ---------------------------------------------------------------------------------------------
// ETSI TS 102 941 trust lists and CRL body (see crate::trust_list).

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

/// The guard description of `T`, for the types decoded from untrusted input (see
/// [`super::decode_exact`]); `None` for other types.
pub(crate) fn description_of<T: 'static>() -> Option<&'static Ty> {
    use crate::trust_list;
    use std::any::TypeId;
    let t = TypeId::of::<T>();
    let table: [(TypeId, &'static Ty); 17] = [
        (TypeId::of::<super::crl_base_types::CrlContents>(), &CRL_CONTENTS),
        (TypeId::of::<super::Ieee1609Dot2Data>(), &IEEE1609DOT2_DATA),
        (TypeId::of::<super::ts103097::EtsiTs103097Data>(), &IEEE1609DOT2_DATA),
        (TypeId::of::<super::Certificate>(), &CERTIFICATE),
        (TypeId::of::<super::ts103097::EtsiTs103097Certificate>(), &CERTIFICATE),
        (TypeId::of::<super::SequenceOfCertificate>(), &SEQ_OF_CERTIFICATE),
        (TypeId::of::<super::ToBeSignedCertificate>(), &TO_BE_SIGNED_CERTIFICATE),
        (TypeId::of::<super::ToBeSignedData>(), &TO_BE_SIGNED_DATA),
        (TypeId::of::<super::SignedDataPayload>(), &SIGNED_DATA_PAYLOAD),
        (TypeId::of::<super::SignedData>(), &SIGNED_DATA),
        (TypeId::of::<super::HeaderInfo>(), &HEADER_INFO),
        (TypeId::of::<super::SignerIdentifier>(), &SIGNER_IDENTIFIER),
        (TypeId::of::<super::EncryptedData>(), &ENCRYPTED_DATA),
        (TypeId::of::<super::Signature>(), &SIGNATURE),
        (TypeId::of::<trust_list::EtsiTs102941Data>(), &ETSI_TS102941_DATA),
        (TypeId::of::<trust_list::CtlFormat>(), &CTL_FORMAT),
        (TypeId::of::<trust_list::ToBeSignedCrl>(), &TO_BE_SIGNED_CRL),
    ];
    table.iter().find(|(id, _)| *id == t).map(|(_, ty)| *ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensible_sequence_with_unknown_addition_is_skipped() {
        // MissingCrlIdentifier-like: preamble with extension bit, 3 + 2 octets, then a bitmap
        // announcing additions 0 and 9 (unknown to the description), each an open type.
        let b = [
            0x80, 1, 2, 3, 0, 1, 0x03, 0x06, 0x80, 0x40, 0x01, 0xAA, 0x02, 0xBB, 0xCC, 0x99,
        ];
        assert_eq!(walk(&MISSING_CRL_IDENTIFIER, &b, 0).map(|r| r.len()), Ok(1));
        // Truncated open type.
        assert!(walk(&MISSING_CRL_IDENTIFIER, &b[..13], 0).is_err());
    }

    #[test]
    fn quantity_larger_than_input_is_rejected() {
        assert!(walk(&SEQ_OF_HASHED_ID3, &[1, 2, 1, 2, 3], 0).is_err());
        assert_eq!(walk(&SEQ_OF_HASHED_ID3, &[1, 1, 1, 2, 3], 0).map(|r| r.len()), Ok(0));
        assert!(walk(&SEQ_OF_HASHED_ID3, &[0], 0).is_err());
        assert!(walk(&SEQ_OF_HASHED_ID3, &[9, 0, 0, 0, 0, 0, 0, 0, 0, 1], 0).is_err());
    }

    #[test]
    fn unknown_extension_alternative_is_skipped_unknown_root_is_not() {
        // Signature alternative 4 (sm2, extension): open type of 2 octets.
        assert_eq!(walk(&SIGNATURE, &[0x84, 2, 0, 0], 0).map(|r| r.len()), Ok(0));
        // RecipientInfo has no extension marker: tag 5 is malformed.
        assert!(walk(&RECIPIENT_INFO, &[0x85, 0], 0).is_err());
        // EtsiTs102941DataContent root alternative 0 (enrolment request) is not decoded here.
        assert!(matches!(
            walk(&ETSI_TS102941_DATA, &[1, 0x80, 0], 0),
            Err(WireError::Unsupported(_))
        ));
    }

    #[test]
    fn nesting_is_bounded() {
        // Signed data whose payload is signed data whose payload is ... (no end).
        let mut b = Vec::new();
        for _ in 0..40 {
            b.extend_from_slice(&[3, 0x81, 0, 0x40]);
        }
        assert!(walk(&IEEE1609DOT2_DATA, &b, 0).is_err());
    }
}
