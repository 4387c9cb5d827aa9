//! Who holds whose certificate on the sidelink, for the schedules that depend on it: IEEE
//! 1609.2 P2PCD (`p2pcd`: a station that receives a digest-signed CAM from a signer whose
//! certificate it lacks asks for it in its next CAM; the signer, reading the request in a
//! CAM it could verify, attaches its certificate to its next CAM) and a certificate after a
//! new station was heard (`certificate_on_new_station`). The same rules as the 802.11p
//! engine's, on the radio's receptions: the sidelink does not simulate verification, so a
//! CAM is "verified" when its certificate or its signer's is held.

use crate::metrics::RunMetrics;
use crate::security::p2pcd::P2pcdQueue;
use crate::security::SecurityModel;
use std::collections::HashSet;
use std::sync::Arc;

/// A CAM as sent: its sequence number, whether it carried the certificate and whom it asked.
#[derive(Debug, Clone, Default)]
struct Sent {
    seq: u64,
    certificate: bool,
    request: Option<Arc<[u32]>>,
}

/// Recent CAMs kept per station: enough for a packet sent after newer ones were generated.
const RECENT: usize = 4;

/// The certificate state of every station.
pub struct Certificates {
    p2pcd: bool,
    on_new_station: bool,
    known: Vec<HashSet<u32>>,
    ask: Vec<P2pcdQueue<u32>>,
    due: Vec<bool>,
    sent: Vec<[Sent; RECENT]>,
}

impl Certificates {
    /// None when the variant's schedule does not depend on who holds what (every result
    /// then stays as it was without this state).
    pub fn new(sec: &SecurityModel, stations: usize) -> Option<Certificates> {
        (sec.p2pcd || sec.certificate_on_new_station).then(|| Certificates {
            p2pcd: sec.p2pcd,
            on_new_station: sec.certificate_on_new_station,
            known: vec![HashSet::new(); stations],
            ask: vec![P2pcdQueue::default(); stations],
            due: vec![false; stations],
            sent: vec![Default::default(); stations],
        })
    }

    /// Station `u` generates a CAM: whether its certificate is due (asked for, or a new
    /// station heard) and whose certificates it asks for (each signer asked once).
    pub fn generate(&mut self, u: usize) -> (bool, Option<Arc<[u32]>>) {
        (
            std::mem::take(&mut self.due[u]),
            if self.p2pcd { self.ask[u].take() } else { None },
        )
    }

    /// Records what CAM `seq` of station `u` carried.
    pub fn sent(&mut self, u: usize, seq: u64, certificate: bool, request: Option<Arc<[u32]>>) {
        self.sent[u][(seq as usize) % RECENT] = Sent {
            seq,
            certificate,
            request,
        };
    }

    /// Station `rx` received CAM `seq` of `src`; `counted` adds it to the metrics.
    pub fn received(&mut self, src: u32, seq: u64, rx: u32, counted: bool, m: &mut RunMetrics) {
        let (s, r) = (src as usize, rx as usize);
        let cam = &self.sent[s][(seq as usize) % RECENT];
        let (certificate, asks_rx) = if cam.seq == seq {
            (cam.certificate, cam.request.as_ref().is_some_and(|q| q.contains(&rx)))
        } else {
            (false, false)
        };
        let held = self.known[r].contains(&src);
        if counted {
            m.security_arrivals += 1;
        }
        if certificate {
            if counted {
                m.certificates_received += 1;
                m.certificates_redundant += u64::from(held);
            }
            if !held {
                self.known[r].insert(src);
                self.due[r] |= self.on_new_station;
                self.ask[r].received(src);
            }
        } else if !held {
            if counted {
                m.crypto_lost_unknown_certificate += 1;
            }
            if self.p2pcd {
                self.ask[r].want(src);
            }
            // Not verifiable: its request, if any, is not read.
            return;
        }
        if asks_rx {
            self.due[r] = true;
        }
    }
}
