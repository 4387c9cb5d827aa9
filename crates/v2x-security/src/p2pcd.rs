//! Inline peer-to-peer certificate distribution (1609.2 §8, ETSI TS 103 097 §7.1.1):
//! a station that receives a digest it cannot resolve asks for the certificate with
//! the HashedId3 in `inlineP2pcdRequest` of its next CAM; a station that sees a
//! request for its own ticket sends its next CAM with the full certificate, and one
//! for a CA certificate it holds answers in `requestedCertificate`.

use std::collections::VecDeque;
use v2x_crypto::HashedId3;

/// At most this many HashedId3 go into one request (keeps CAMs small).
pub const MAX_REQUESTS_PER_MESSAGE: usize = 8;
const MAX_PENDING: usize = 64;

#[derive(Debug, Default)]
pub struct P2pcdState {
    /// Unknown certificates we want to ask for.
    wanted: VecDeque<HashedId3>,
    /// Certificates peers asked for (HashedId3), to answer in our next message.
    asked_of_us: VecDeque<HashedId3>,
}

impl P2pcdState {
    /// Records that we need the certificate with this HashedId3.
    pub fn want(&mut self, id: HashedId3) {
        if !self.wanted.contains(&id) {
            if self.wanted.len() >= MAX_PENDING {
                self.wanted.pop_front();
            }
            self.wanted.push_back(id);
        }
    }

    /// A certificate arrived: stop asking for it.
    pub fn received(&mut self, id: HashedId3) {
        self.wanted.retain(|w| *w != id);
    }

    /// Requests to put into the next outgoing message (each is sent once).
    pub fn take_requests(&mut self) -> Vec<HashedId3> {
        let n = self.wanted.len().min(MAX_REQUESTS_PER_MESSAGE);
        self.wanted.drain(..n).collect()
    }

    pub fn pending_requests(&self) -> impl Iterator<Item = &HashedId3> {
        self.wanted.iter()
    }

    /// A peer asked for `id`.
    pub fn asked(&mut self, id: HashedId3) {
        if !self.asked_of_us.contains(&id) {
            if self.asked_of_us.len() >= MAX_PENDING {
                self.asked_of_us.pop_front();
            }
            self.asked_of_us.push_back(id);
        }
    }

    /// Takes the pending request satisfying `pred`, if any.
    pub fn take_asked(&mut self, mut pred: impl FnMut(HashedId3) -> bool) -> Option<HashedId3> {
        let pos = self.asked_of_us.iter().position(|id| pred(*id))?;
        self.asked_of_us.remove(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_deduplicated_and_sent_once() {
        let mut s = P2pcdState::default();
        s.want(HashedId3([1, 2, 3]));
        s.want(HashedId3([1, 2, 3]));
        s.want(HashedId3([4, 5, 6]));
        s.received(HashedId3([4, 5, 6]));
        assert_eq!(s.take_requests(), vec![HashedId3([1, 2, 3])]);
        assert!(s.take_requests().is_empty());
        s.asked(HashedId3([9, 9, 9]));
        assert_eq!(s.take_asked(|id| id.0[0] == 9), Some(HashedId3([9, 9, 9])));
        assert_eq!(s.take_asked(|_| true), None);
    }
}
