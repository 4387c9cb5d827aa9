//! Whether an issuer may have issued a certificate: IEEE 1609.2 §5.1.2.4 and the
//! consistency rules of `PsidGroupPermissions`, `PsidSspRange` and `SspRange` (§6.4.28–6.4.31).
//!
//! For a certificate C issued by I, every permission C holds must be covered by one of I's
//! `certIssuePermissions` groups G that applies to it:
//! * C's `appPermissions` (C is an application end entity one level below I): G's eeType has
//!   `app`, G's chain-length range contains 1, and G's subject permissions cover the PSID with
//!   a range that admits C's SSP;
//! * C's `certRequestPermissions` (C is an enrolment end entity): the same with eeType `enrol`;
//! * C's own `certIssuePermissions` groups G' (C is a CA): G's eeType contains G''s, G''s
//!   chain-length range moved one level down lies within G's, and each PSID range of G' lies
//!   within one of G.
//!
//! A PSID is covered by a group listing it explicitly; a group with subject permissions `all`
//! covers it only when no applicable group lists it (1609.2 "option 1").

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::Certificate;
use crate::convert;
use crate::reason::{RejectReason, Rejection};
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use v2x_wire::ItsAid;

/// A chain-length range: `min ..= max` (`max` `None`: unlimited).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Depths {
    min: i64,
    max: Option<i64>,
}

impl Depths {
    fn of(g: &w::PsidGroupPermissions) -> Depths {
        let min = i64::try_from(&g.min_chain_length).unwrap_or(i64::MAX);
        let range = i64::try_from(&g.chain_length_range).unwrap_or(i64::MAX);
        Depths {
            min,
            max: if range == -1 {
                None
            } else {
                Some(min.saturating_add(range))
            },
        }
    }

    fn contains(self, d: i64) -> bool {
        d >= self.min && self.max.is_none_or(|m| d <= m)
    }

    /// Whether `inner`, seen one level further up, lies within `self`.
    fn contains_one_level_down(self, inner: Depths) -> bool {
        let lo = inner.min.saturating_add(1);
        lo >= self.min
            && match (self.max, inner.max) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(m), Some(im)) => im.saturating_add(1) <= m,
            }
    }
}

const EE_APP: u8 = 0x80;
const EE_ENROL: u8 = 0x40;

fn ee_type(g: &w::PsidGroupPermissions) -> u8 {
    g.ee_type.0.as_raw_slice().first().copied().unwrap_or(0) & (EE_APP | EE_ENROL)
}

fn ranges(g: &w::PsidGroupPermissions) -> Option<&[bt::PsidSspRange]> {
    match &g.subject_permissions {
        w::SubjectPermissions::Explicit(r) => Some(&r.0),
        // `all`, or an alternative this implementation does not know (treated as nothing).
        w::SubjectPermissions::All(()) => None,
        #[allow(unreachable_patterns)]
        _ => Some(&[]),
    }
}

/// Whether `groups` cover `psid` with a range satisfying `admits` (explicit listings first).
fn covered<'a>(
    groups: &[&'a w::PsidGroupPermissions],
    psid: ItsAid,
    admits: impl Fn(Option<&'a bt::SspRange>) -> bool,
) -> bool {
    let mut listed = groups
        .iter()
        .filter_map(|g| ranges(g))
        .flatten()
        .filter(|r| convert::psid_value(&r.psid) == Some(psid))
        .peekable();
    if listed.peek().is_some() {
        listed.any(|r| admits(r.ssp_range.as_ref()))
    } else {
        groups.iter().any(|g| ranges(g).is_none())
    }
}

/// Whether an SSP (as granted to an end entity) lies in an SSP range.
fn ssp_in_range(ssp: Option<&bt::ServiceSpecificPermissions>, range: Option<&bt::SspRange>) -> bool {
    match range {
        None | Some(bt::SspRange::All(())) => true,
        Some(bt::SspRange::Opaque(allowed)) => match ssp {
            Some(bt::ServiceSpecificPermissions::Opaque(o)) => allowed.iter().any(|a| a == o),
            _ => false,
        },
        Some(bt::SspRange::BitmapSspRange(r)) => match ssp {
            Some(bt::ServiceSpecificPermissions::BitmapSsp(b)) => masked_bits_equal(&b.0, &r.ssp_value, &r.ssp_bitmask),
            _ => false,
        },
        #[allow(unreachable_patterns)]
        Some(_) => false,
    }
}

/// Every bit set in `mask` has the same value in `have` and `want` (missing bytes are 0).
fn masked_bits_equal(have: &[u8], want: &[u8], mask: &[u8]) -> bool {
    mask.iter().enumerate().all(|(i, m)| {
        let h = have.get(i).copied().unwrap_or(0);
        let w = want.get(i).copied().unwrap_or(0);
        (h ^ w) & m == 0
    })
}

/// Whether a CA's SSP range (what it may pass on) lies within its issuer's range.
fn range_in_range(inner: Option<&bt::SspRange>, outer: Option<&bt::SspRange>) -> bool {
    match outer {
        None | Some(bt::SspRange::All(())) => true,
        Some(bt::SspRange::Opaque(allowed)) => match inner {
            Some(bt::SspRange::Opaque(mine)) => mine.iter().all(|o| allowed.contains(o)),
            _ => false,
        },
        Some(bt::SspRange::BitmapSspRange(r)) => match inner {
            Some(bt::SspRange::BitmapSspRange(mine)) => {
                r.ssp_bitmask.iter().enumerate().all(|(i, m)| {
                    let mm = mine.ssp_bitmask.get(i).copied().unwrap_or(0);
                    m & !mm == 0
                }) && masked_bits_equal(&mine.ssp_value, &r.ssp_value, &r.ssp_bitmask)
            }
            _ => false,
        },
        #[allow(unreachable_patterns)]
        Some(_) => false,
    }
}

fn inconsistent(detail: String) -> Rejection {
    Rejection::new(RejectReason::InconsistentChain, detail)
}

/// Checks that `issuer` may have issued `child` (1609.2 §5.1.2.4).
pub fn check_issued_by(child: &Certificate, issuer: &Certificate) -> Result<(), Rejection> {
    check_issued_by_with(child, issuer, ChainLength::Strict)
}

/// How the chain-length rules of 1609.2 §5.1.2.4 (minChainLength, chainLengthRange) apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChainLength {
    /// As 1609.2 says (the default).
    #[default]
    Strict,
    /// INSECURE lab mode: chain lengths are not checked (PSIDs, SSP ranges and eeType still
    /// are). Test PKIs often leave a root at the ASN.1 defaults (minChainLength 1,
    /// chainLengthRange 0), which allows end entities only and so no AA below it — Vanetza's
    /// `NaiveCertificateProvider` does; such captures can be studied with this.
    InsecureLenient,
}

/// [`check_issued_by`] with a chain-length mode.
pub fn check_issued_by_with(child: &Certificate, issuer: &Certificate, lengths: ChainLength) -> Result<(), Rejection> {
    let lenient = lengths == ChainLength::InsecureLenient;
    let tbs = &child.decoded().to_be_signed;
    let needs_issue_permissions =
        tbs.app_permissions.is_some() || tbs.cert_request_permissions.is_some() || tbs.cert_issue_permissions.is_some();
    if !needs_issue_permissions {
        return Ok(());
    }
    let Some(issuer_groups) = &issuer.decoded().to_be_signed.cert_issue_permissions else {
        return Err(inconsistent(format!(
            "issuer {} has no certIssuePermissions",
            issuer.hashed_id8()
        )));
    };
    let applicable = |ee: u8, depth_ok: &dyn Fn(Depths) -> bool| -> Vec<&w::PsidGroupPermissions> {
        issuer_groups
            .0
            .iter()
            .filter(|g| ee_type(g) & ee == ee && (lenient || depth_ok(Depths::of(g))))
            .collect()
    };

    if let Some(perms) = &tbs.app_permissions {
        let groups = applicable(EE_APP, &|d| d.contains(1));
        for p in perms.0.iter() {
            let psid = convert::psid_value(&p.psid).unwrap_or(ItsAid(u64::MAX));
            if !covered(&groups, psid, |r| ssp_in_range(p.ssp.as_ref(), r)) {
                return Err(inconsistent(format!(
                    "issuer {} may not grant PSID {psid} with SSP {} to an application end entity",
                    issuer.hashed_id8(),
                    ssp_text(p.ssp.as_ref())
                )));
            }
        }
    }
    if let Some(request) = &tbs.cert_request_permissions {
        let groups = applicable(EE_ENROL, &|d| d.contains(1));
        for g in request.0.iter() {
            check_subjects_within(g, &groups, issuer, "request")?;
        }
    }
    if let Some(issue) = &tbs.cert_issue_permissions {
        for g in issue.0.iter() {
            let mine = Depths::of(g);
            if mine.min < 1 && !lenient {
                return Err(inconsistent(format!(
                    "certIssuePermissions of {} with minChainLength {} (at least 1)",
                    child.hashed_id8(),
                    mine.min
                )));
            }
            let groups = applicable(ee_type(g), &|d| d.contains_one_level_down(mine));
            if groups.is_empty() {
                return Err(inconsistent(format!(
                    "issuer {} may not delegate issuing at chain lengths {}..{} with eeType {:02x}",
                    issuer.hashed_id8(),
                    mine.min,
                    mine.max.map_or("unlimited".to_string(), |m| m.to_string()),
                    ee_type(g)
                )));
            }
            check_subjects_within(g, &groups, issuer, "delegate")?;
        }
    }
    Ok(())
}

/// Each PSID range of `g` (or `all`) lies within the applicable issuer `groups`.
fn check_subjects_within(
    g: &w::PsidGroupPermissions,
    groups: &[&w::PsidGroupPermissions],
    issuer: &Certificate,
    what: &str,
) -> Result<(), Rejection> {
    match ranges(g) {
        None => {
            if groups.iter().any(|o| ranges(o).is_none()) {
                Ok(())
            } else {
                Err(inconsistent(format!(
                    "issuer {} may not {what} all PSIDs",
                    issuer.hashed_id8()
                )))
            }
        }
        Some(list) => {
            for r in list {
                let psid = convert::psid_value(&r.psid).unwrap_or(ItsAid(u64::MAX));
                if !covered(groups, psid, |outer| range_in_range(r.ssp_range.as_ref(), outer)) {
                    return Err(inconsistent(format!(
                        "issuer {} may not {what} PSID {psid} with that SSP range",
                        issuer.hashed_id8()
                    )));
                }
            }
            Ok(())
        }
    }
}

fn ssp_text(ssp: Option<&bt::ServiceSpecificPermissions>) -> String {
    match ssp {
        None => "none".into(),
        Some(bt::ServiceSpecificPermissions::Opaque(o)) => format!("opaque {}", hex::encode(o)),
        Some(bt::ServiceSpecificPermissions::BitmapSsp(b)) => format!("bitmap {}", hex::encode(&b.0)),
        Some(_) => "of another kind".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ranges() {
        let d = |min, max| Depths { min, max };
        assert!(d(1, Some(1)).contains(1));
        assert!(!d(2, Some(2)).contains(1));
        assert!(d(1, None).contains(7));
        // An AA (issues end entities, 1..1) under a root allowing exactly 2 levels.
        assert!(d(2, Some(2)).contains_one_level_down(d(1, Some(1))));
        // A ticket claiming to issue (1..1) under an AA allowed 1..1 only: 2 > 1.
        assert!(!d(1, Some(1)).contains_one_level_down(d(1, Some(1))));
        // Unlimited below a bounded issuer is not within it.
        assert!(!d(1, Some(5)).contains_one_level_down(d(1, None)));
        assert!(d(1, None).contains_one_level_down(d(1, None)));
    }

    #[test]
    fn bitmap_ranges() {
        // The ETSI CAM range of the test PKI: version fixed, the two low bits of octet 2 fixed.
        let range = bt::SspRange::BitmapSspRange(bt::BitmapSspRange {
            ssp_value: vec![0x01, 0xff, 0xfc].into(),
            ssp_bitmask: vec![0xff, 0x00, 0x03].into(),
        });
        let bitmap = |b: &[u8]| bt::ServiceSpecificPermissions::BitmapSsp(bt::BitmapSsp(b.to_vec().into()));
        assert!(ssp_in_range(Some(&bitmap(&[1, 0, 0])), Some(&range)));
        assert!(ssp_in_range(Some(&bitmap(&[1, 0xff, 0xfc])), Some(&range)));
        assert!(
            !ssp_in_range(Some(&bitmap(&[2, 0, 0])), Some(&range)),
            "version differs"
        );
        assert!(
            !ssp_in_range(Some(&bitmap(&[1, 0, 1])), Some(&range)),
            "reserved bit set"
        );
        let opaque = bt::ServiceSpecificPermissions::Opaque(vec![1, 0, 0].into());
        assert!(!ssp_in_range(Some(&opaque), Some(&range)), "kinds differ");
        assert!(ssp_in_range(None, None));
        let narrower = bt::SspRange::BitmapSspRange(bt::BitmapSspRange {
            ssp_value: vec![0x01, 0x00, 0x00].into(),
            ssp_bitmask: vec![0xff, 0xff, 0x03].into(),
        });
        assert!(range_in_range(Some(&narrower), Some(&range)));
        assert!(!range_in_range(Some(&range), Some(&narrower)), "wider than its issuer");
        assert!(!range_in_range(None, Some(&range)), "'any SSP' under a bitmap range");
    }
}
