//! An in-memory IEEE 1609.2 PKI (root CA → authorization authority → tickets on demand)
//! and the clock mapping of a deployment: what the `ieee1609.2` adapter and TESLA's
//! 1609.2-signed commitments share.
//!
//! Time: the security entity works in TAI microseconds since 2004 (`Time64`). A
//! deployment maps the caller's [`Timestamp`] onto TAI by adding the TAI time at which
//! it was created (`time_base = "deployment-start"`, the default: simulations start at
//! 0), or uses it as TAI directly (`time_base = "tai"`: the testbed passes real time).
//! Certificates are valid from one day before the deployment's creation.

use crate::authenticator::Timestamp;
use crate::setup::SetupError;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::memory_pki::InMemoryPki;
use v2x_security::{Credentials, SecurityEntity, TaiTime};
use v2x_wire::ItsAid;

/// How `Timestamp`s map to TAI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeBase {
    /// TAI = deployment creation time + timestamp.
    #[default]
    DeploymentStart,
    /// The timestamp is already TAI µs since 2004-01-01.
    Tai,
}

/// An in-memory 1609.2 PKI (the security crate's [`InMemoryPki`]: root CA, authorization
/// authority, tickets on demand) with the clock of its deployment.
pub struct Dot2Pki {
    pki: InMemoryPki,
    time_base: TimeBase,
}

impl Dot2Pki {
    /// Root and AA valid for ten years from a day before now; tickets for `psids`, from a
    /// day before now, without encryption key or assurance level (the smallest ticket a
    /// CAM can carry).
    pub fn new(
        curve: Curve,
        psids: &[ItsAid],
        ticket_validity: Duration,
        time_base: TimeBase,
    ) -> Result<Dot2Pki, SetupError> {
        let pki = InMemoryPki::builder()
            .curve(curve)
            .now(TaiTime::now())
            .psids(psids)
            .ca_validity(Duration::from_secs(10 * 31_556_952))
            .ticket_validity(ticket_validity)
            .ticket_backdate(Duration::from_secs(24 * 3600))
            .ticket_encryption_keys(false)
            .ticket_assurance_level(None)
            .build()?;
        Ok(Dot2Pki { pki, time_base })
    }

    /// A fresh authorization ticket with its keys.
    pub fn ticket(&self) -> Result<Credentials, SetupError> {
        Ok(self.pki.ticket()?)
    }

    /// A security entity signing with a fresh ticket.
    pub fn entity(&self) -> Result<(SecurityEntity, Credentials), SetupError> {
        let creds = self.ticket()?;
        Ok((self.pki.sender(creds.clone()), creds))
    }

    /// The clock mapping of this PKI's deployment.
    pub fn clock(&self) -> Clock {
        Clock {
            base_tai: self.pki.now.0,
            time_base: self.time_base,
        }
    }
}

/// Maps [`Timestamp`] to TAI and back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    base_tai: u64,
    time_base: TimeBase,
}

impl Clock {
    /// Timestamps that already are TAI µs since 2004 (a live testbed passes real time).
    pub const fn tai() -> Clock {
        Clock {
            base_tai: 0,
            time_base: TimeBase::Tai,
        }
    }

    /// The mapping of a deployment created at `created` (TAI) under `time_base`.
    pub const fn at(created: TaiTime, time_base: TimeBase) -> Clock {
        Clock {
            base_tai: created.0,
            time_base,
        }
    }

    pub fn to_tai(&self, t: Timestamp) -> TaiTime {
        match self.time_base {
            TimeBase::DeploymentStart => TaiTime(self.base_tai.saturating_add(t.as_micros())),
            TimeBase::Tai => TaiTime(t.as_micros()),
        }
    }

    pub fn from_tai(&self, t: TaiTime) -> Timestamp {
        match self.time_base {
            TimeBase::DeploymentStart => Timestamp(t.0.saturating_sub(self.base_tai)),
            TimeBase::Tai => Timestamp(t.0),
        }
    }
}
