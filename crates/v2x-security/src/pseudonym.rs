//! A station's signing credentials and its pool of authorization tickets
//! (pseudonyms) with rotation.

use crate::certificate::CertRef;
use crate::time::TaiTime;
use std::time::Duration;
use v2x_crypto::PrivateKey;

/// One authorization ticket (or any signing certificate) with its private keys.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub certificate: CertRef,
    pub signing_key: PrivateKey,
    /// Private key of the certificate's encryption key, if it has one.
    pub encryption_key: Option<PrivateKey>,
}

/// N tickets of one station; one is active at a time.
#[derive(Debug, Clone)]
pub struct PseudonymPool {
    tickets: Vec<Credentials>,
    active: usize,
    /// Rotate to the next ticket after this long (None: only on request).
    pub rotation_interval: Option<Duration>,
    activated_at: Option<TaiTime>,
}

impl PseudonymPool {
    /// A pool; `None` if `tickets` is empty.
    pub fn new(tickets: Vec<Credentials>) -> Option<PseudonymPool> {
        if tickets.is_empty() {
            return None;
        }
        Some(PseudonymPool {
            tickets,
            active: 0,
            rotation_interval: None,
            activated_at: None,
        })
    }

    pub fn active(&self) -> &Credentials {
        // `tickets` is never empty and `active` always indexes it.
        &self.tickets[self.active % self.tickets.len()]
    }

    pub fn len(&self) -> usize {
        self.tickets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tickets.is_empty()
    }

    pub fn tickets(&self) -> &[Credentials] {
        &self.tickets
    }

    /// Makes the ticket at `index` (pool order) the active one; `None` if out of range.
    pub fn select(&mut self, index: usize) -> Option<&Credentials> {
        if index >= self.tickets.len() {
            return None;
        }
        self.active = index;
        Some(&self.tickets[index])
    }

    /// Switches to the next ticket that is valid at `now` (round robin).
    pub fn rotate(&mut self, now: TaiTime) -> &Credentials {
        let n = self.tickets.len();
        for step in 1..=n {
            let i = (self.active + step) % n;
            if self.tickets[i].certificate.validity().contains(now) {
                self.active = i;
                break;
            }
        }
        self.activated_at = Some(now);
        self.active()
    }

    /// Makes the first ticket, from the active one on in pool order (round robin), that is
    /// valid at `now` and `fits` the active one; false (nothing changed) if none does.
    /// SN-ENCAP uses it to leave a pseudonym whose permissions lack the message's PSID
    /// for one that has it (PRESERVE F-SIG-05).
    pub fn activate_first(&mut self, now: TaiTime, fits: impl Fn(&Credentials) -> bool) -> bool {
        let n = self.tickets.len();
        for step in 0..n {
            let i = (self.active + step) % n;
            let t = &self.tickets[i];
            if t.certificate.validity().contains(now) && fits(t) {
                if i != self.active {
                    self.active = i;
                    self.activated_at = Some(now);
                }
                return true;
            }
        }
        false
    }

    /// Rotates if the rotation interval elapsed or the active ticket is not valid at
    /// `now`; returns true when the ticket changed.
    pub fn maybe_rotate(&mut self, now: TaiTime) -> bool {
        let expired = !self.active().certificate.validity().contains(now);
        let due = match (self.rotation_interval, self.activated_at) {
            (Some(iv), Some(at)) => now >= at.saturating_add(iv),
            (Some(_), None) => {
                self.activated_at = Some(now);
                false
            }
            _ => false,
        };
        if expired || due {
            let before = self.active;
            self.rotate(now);
            return self.active != before;
        }
        false
    }
}
