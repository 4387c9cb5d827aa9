//! A station's P2PCD requests, as `v2x-security`'s stack keeps them: the signers whose
//! certificate it lacks, each asked for once, at most [`MAX_REQUESTS_PER_CAM`] per CAM, at
//! most [`MAX_PENDING`] waiting (the oldest dropped); a certificate that arrives is no longer
//! asked for. The one queue of the 802.11p engine and the sidelink.

use std::collections::VecDeque;
use std::sync::Arc;

/// Requests one CAM carries at most (`v2x_security::p2pcd::MAX_REQUESTS_PER_MESSAGE`).
pub const MAX_REQUESTS_PER_CAM: usize = 8;
/// Signers waiting to be asked for at most.
pub const MAX_PENDING: usize = 64;

/// Bytes `k` ≥ 1 requests add to a CAM: the extension addition with one HashedId3
/// ([`crate::scenario::P2PCD_REQUEST_BYTES`]) and 3 bytes per further HashedId3.
pub fn request_bytes(k: usize) -> u32 {
    if k == 0 {
        0
    } else {
        crate::scenario::P2PCD_REQUEST_BYTES + 3 * (k as u32 - 1)
    }
}

/// The signers a station still wants to ask for (station numbers of type `T`).
#[derive(Debug, Clone, Default)]
pub struct P2pcdQueue<T> {
    wanted: VecDeque<T>,
}

impl<T: Copy + PartialEq> P2pcdQueue<T> {
    /// A CAM of `signer` could not be verified: ask for its certificate.
    pub fn want(&mut self, signer: T) {
        if !self.wanted.contains(&signer) {
            if self.wanted.len() >= MAX_PENDING {
                self.wanted.pop_front();
            }
            self.wanted.push_back(signer);
        }
    }

    /// `signer`'s certificate arrived.
    pub fn received(&mut self, signer: T) {
        self.wanted.retain(|w| *w != signer);
    }

    /// The requests the next CAM carries (each sent once), if any.
    pub fn take(&mut self) -> Option<Arc<[T]>> {
        let n = self.wanted.len().min(MAX_REQUESTS_PER_CAM);
        (n > 0).then(|| self.wanted.drain(..n).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_signer_is_asked_once_eight_at_a_time_and_an_arrival_cancels_it() {
        let mut q = P2pcdQueue::default();
        for s in 0..10u32 {
            q.want(s);
            q.want(s);
        }
        q.received(3);
        let first = q.take().unwrap();
        assert_eq!(&first[..], &[0, 1, 2, 4, 5, 6, 7, 8]);
        assert_eq!(&q.take().unwrap()[..], &[9]);
        assert!(q.take().is_none());
        assert_eq!((request_bytes(0), request_bytes(1), request_bytes(8)), (0, 9, 30));
    }

    #[test]
    fn the_oldest_wanted_signer_goes_when_the_queue_is_full() {
        let mut q = P2pcdQueue::default();
        for s in 0..(MAX_PENDING as u32 + 1) {
            q.want(s);
        }
        assert_eq!(q.take().unwrap()[0], 1);
    }
}
