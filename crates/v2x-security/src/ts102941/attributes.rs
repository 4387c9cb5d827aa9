//! `CertificateSubjectAttributes` ↔ the certificate profile of this crate
//! ([`AppPermission`]s, validity, region), and the rule every authority applies to a request:
//! what is asked must lie within what the authority grants.

use crate::certificate::AppPermission;
use crate::convert;
use crate::region::Region;
use crate::time::TaiTime;
use rasn::types::OctetString;
use rasn_its::ieee1609dot2::base_types as bt;
use std::time::Duration;
use v2x_wire::ts102941::CertificateSubjectAttributes;

/// App permissions as `SequenceOfPsidSsp` (SSPs as opaque octets, as this crate issues them).
pub fn app_permissions_to_wire(permissions: &[AppPermission]) -> bt::SequenceOfPsidSsp {
    bt::SequenceOfPsidSsp(
        permissions
            .iter()
            .map(|p| bt::PsidSsp {
                psid: convert::psid(p.psid),
                ssp: p
                    .ssp
                    .as_ref()
                    .map(|s| bt::ServiceSpecificPermissions::Opaque(OctetString::from(s.clone()))),
            })
            .collect(),
    )
}

/// Why requested attributes cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttributeError {
    #[error("no appPermissions")]
    NoAppPermissions,
    #[error("certIssuePermissions in an end-entity request")]
    IssuePermissions,
    #[error("PSID out of range")]
    Psid,
    #[error("unsupported SSP form")]
    Ssp,
    #[error("region not supported")]
    Region,
}

/// The app permissions of requested attributes (which must have some, and no
/// `certIssuePermissions`: TS 102 941 forbids them in EC and AT requests).
pub fn requested_app_permissions(a: &CertificateSubjectAttributes) -> Result<Vec<AppPermission>, AttributeError> {
    if a.cert_issue_permissions.is_some() {
        return Err(AttributeError::IssuePermissions);
    }
    let list = a.app_permissions.as_ref().ok_or(AttributeError::NoAppPermissions)?;
    list.0
        .iter()
        .map(|p| {
            let psid = convert::psid_value(&p.psid).ok_or(AttributeError::Psid)?;
            let ssp = match &p.ssp {
                None => None,
                Some(bt::ServiceSpecificPermissions::Opaque(o)) => Some(o.to_vec()),
                Some(bt::ServiceSpecificPermissions::BitmapSsp(b)) => Some(b.0.to_vec()),
                Some(_) => return Err(AttributeError::Ssp),
            };
            Ok(AppPermission { psid, ssp })
        })
        .collect()
}

/// The requested region, if any, in this crate's model.
pub fn requested_region(a: &CertificateSubjectAttributes) -> Result<Option<Region>, AttributeError> {
    a.region
        .as_ref()
        .map(|r| Region::from_wire(r).ok_or(AttributeError::Region))
        .transpose()
}

/// The requested validity `(start, duration)`, if any.
pub fn requested_validity(a: &CertificateSubjectAttributes) -> Option<(TaiTime, Duration)> {
    a.validity_period.as_ref().map(|v| {
        (
            TaiTime::from_time32(v.start.0),
            Duration::from_secs(crate::certificate::duration_seconds(&v.duration)),
        )
    })
}

/// The permissions of `asked` that `granted` does not cover (same PSID, and the same SSP or
/// a grant with no SSP restriction). Empty: everything asked may be granted.
pub fn not_granted<'a>(asked: &'a [AppPermission], granted: &[AppPermission]) -> Vec<&'a AppPermission> {
    asked
        .iter()
        .filter(|a| {
            !granted
                .iter()
                .any(|g| g.psid == a.psid && (g.ssp.is_none() || g.ssp == a.ssp))
        })
        .collect()
}

/// The longest validity not above `d` that a 1609.2 `Duration` holds exactly (one of its
/// units times at most 65535). A validity cut to "until the issuer's end" must be rounded down,
/// not up, or the certificate outlives its issuer and receivers refuse the chain.
pub fn representable_floor(d: Duration) -> Duration {
    let s = d.as_secs();
    for unit in [1u64, 60, 3600, 216_000, 31_556_952] {
        if s / unit <= u64::from(u16::MAX) {
            return Duration::from_secs(s / unit * unit);
        }
    }
    Duration::from_secs(u64::from(u16::MAX) * 31_556_952)
}

/// End-entity attributes with these app permissions (and validity, when given).
pub fn attributes(
    permissions: &[AppPermission],
    validity: Option<(TaiTime, Duration)>,
    region: Option<&Region>,
) -> CertificateSubjectAttributes {
    let mut a = CertificateSubjectAttributes::app(app_permissions_to_wire(permissions));
    a.validity_period = validity.map(|(start, d)| bt::ValidityPeriod {
        start: bt::Time32(start.to_time32()),
        duration: crate::issue::wire_duration(d),
    });
    a.region = region.and_then(Region::to_wire);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_wire::ItsAid;

    #[test]
    fn a_grant_without_ssp_covers_any_ssp_and_a_grant_with_one_only_that() {
        let asked = vec![
            AppPermission::new(ItsAid::CAM, Some(vec![1, 2])),
            AppPermission::new(ItsAid::DENM, Some(vec![3])),
        ];
        let granted = vec![
            AppPermission::new(ItsAid::CAM, None),
            AppPermission::new(ItsAid::DENM, Some(vec![4])),
        ];
        let missing = not_granted(&asked, &granted);
        assert_eq!(missing, vec![&asked[1]]);
        assert!(not_granted(&asked[..1], &granted).is_empty());
    }

    #[test]
    fn representable_floor_never_rounds_up() {
        for s in [
            59u64,
            65_535,
            65_536,
            3_931_199,
            3_931_201,
            157_700_000,
            5 * 31_556_952 - 1,
        ] {
            let f = representable_floor(Duration::from_secs(s));
            assert!(f.as_secs() <= s, "{s}");
            let wire = crate::certificate::duration_seconds(&crate::issue::wire_duration(f));
            assert_eq!(wire, f.as_secs(), "{s}: {f:?} is exact");
            assert!(s - f.as_secs() < 216_000, "{s}: cut by less than the unit");
        }
    }

    #[test]
    fn requested_permissions_round_trip_and_issue_permissions_are_refused() {
        let p = vec![AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))];
        let a = attributes(&p, None, None);
        assert_eq!(requested_app_permissions(&a).unwrap(), p);
        let mut b = a.clone();
        b.cert_issue_permissions = Some(rasn_its::ieee1609dot2::SequenceOfPsidGroupPermissions(vec![]));
        assert_eq!(requested_app_permissions(&b), Err(AttributeError::IssuePermissions));
        let none = CertificateSubjectAttributes::default();
        assert_eq!(requested_app_permissions(&none), Err(AttributeError::NoAppPermissions));
    }
}
