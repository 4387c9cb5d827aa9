//! What one service process does and how: its roles, where it listens, its store, its
//! limits and its (named) lab options.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::ts102941::Freshness;

/// The roles a process plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roles {
    /// Enrolment authority: `POST /ea/enrolment`, `POST /ea/authorization-validation`.
    pub ea: bool,
    /// Authorization authority: `POST /aa/authorization`.
    pub aa: bool,
    /// Distribution: `GET /dc/getctl/{rca}`, `GET /dc/getcrl/{rca}`, `GET /tlm/getectl`.
    pub dc: bool,
}

impl Roles {
    pub const ALL: Roles = Roles {
        ea: true,
        aa: true,
        dc: true,
    };

    /// Parses `ea,aa,dc` (any subset, at least one).
    pub fn parse(s: &str) -> Result<Roles, String> {
        let mut r = Roles {
            ea: false,
            aa: false,
            dc: false,
        };
        for part in s.split(',').map(str::trim) {
            match part {
                "ea" => r.ea = true,
                "aa" => r.aa = true,
                "dc" => r.dc = true,
                other => {
                    return Err(format!(
                        "unknown role {other:?}: give ea, aa and/or dc, comma separated"
                    ))
                }
            }
        }
        if !(r.ea || r.aa || r.dc) {
            return Err("no role given".into());
        }
        Ok(r)
    }
}

/// The paths of the HTTP binding.
pub mod paths {
    pub const ENROLMENT: &str = "/ea/enrolment";
    pub const VALIDATION: &str = "/ea/authorization-validation";
    pub const AUTHORIZATION: &str = "/aa/authorization";
    pub const CTL: &str = "/dc/getctl";
    pub const CRL: &str = "/dc/getcrl";
    pub const ECTL: &str = "/tlm/getectl";
    pub const STATUS: &str = "/status";
}

/// The content types of the TS 102 941 HTTP binding.
pub mod content_type {
    pub const REQUEST: &str = "application/x-its-request";
    pub const RESPONSE: &str = "application/x-its-response";
    pub const CTL: &str = "application/x-its-ctl";
    pub const CRL: &str = "application/x-its-crl";
}

/// The response header that names the standard's response code of a request answered without
/// an ITS response (one that could not be decrypted, or one refused before it was read).
pub const RESPONSE_CODE_HEADER: &str = "x-its-response-code";

/// A service process.
#[derive(Debug, Clone)]
pub struct ServiceConfig {
    /// Where the CAs' certificates and keys are (created on first start; `DIR/authorities`
    /// of `v2x pki serve --dir DIR`).
    pub authorities: PathBuf,
    /// The curve of newly created authorities.
    pub curve: Curve,
    /// `sqlite:PATH` or `postgres://...`.
    pub store: String,
    pub listen: SocketAddr,
    /// The base URL the trust lists name (default: `http://` + the bound address).
    pub public_url: Option<String>,
    pub roles: Roles,
    /// The EA the AA validates with when this process is not the EA (base URL); also what
    /// the CTL names as the EA when this process distributes but is not the EA.
    pub ea_url: Option<String>,
    /// What the CTL names as the AA when this process distributes but is not the AA (base URL).
    pub aa_url: Option<String>,
    pub freshness: Freshness,
    /// The longest request body accepted (larger: 413). Default 16 KiB: a TS 102 941 request
    /// with a certificate chain is well under 2 KiB.
    pub max_body: usize,
    /// Requests handled at once; more are refused at once with 503 (load shedding keeps the
    /// latency of admitted requests bounded under a flood).
    pub max_in_flight: usize,
    /// At most `.0` authorization validations per EC in any `.1` window (`None`: no limit).
    pub validation_limit: Option<(u32, Duration)>,
    /// LAB OPTION: the AA waits this long before answering each request (a slow AA).
    pub lab_aa_delay: Option<Duration>,
}

impl ServiceConfig {
    /// Every role, the default limits, on `listen`, with the given authorities and store.
    pub fn new(authorities: PathBuf, store: String, listen: SocketAddr) -> ServiceConfig {
        ServiceConfig {
            authorities,
            curve: Curve::NistP256,
            store,
            listen,
            public_url: None,
            roles: Roles::ALL,
            ea_url: None,
            aa_url: None,
            freshness: Freshness::default(),
            max_body: 16 * 1024,
            max_in_flight: 512,
            validation_limit: None,
            lab_aa_delay: None,
        }
    }
}
