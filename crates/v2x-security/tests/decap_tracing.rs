//! SN-DECAP emits `tracing` events (what `V2X_LOG=v2x_security=debug` shows in the CLI):
//! accepted / rejected with the step, reason and signer at debug level, certificate cache
//! hits and misses at trace level. Nothing is formatted when no subscriber listens.

use std::io::Write;
use std::sync::{Arc, Mutex};
use v2x_security::*;

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn captured(level: tracing::Level, f: impl FnOnce()) -> String {
    let out = Captured::default();
    let writer = out.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, f);
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn decap_reports_outcome_reason_signer_and_cache_use() {
    let fx = InMemoryPki::builder().build().unwrap();
    let t = fx.ticket().unwrap();
    let signer = t.certificate.hashed_id8().to_string();
    let mut s = fx.sender(t);
    let first = s.encap(&EncapRequest::cam(b"a").at(fx.now)).unwrap().bytes;
    let second = s.encap(&EncapRequest::cam(b"b").at(fx.now)).unwrap().bytes;
    let mut bad = second.clone();
    let n = bad.len();
    bad[n - 5] ^= 1;
    let mut r = fx.receiver();
    let log = captured(tracing::Level::TRACE, || {
        r.decap_at(&first, fx.now).unwrap();
        r.decap_at(&second, fx.now).unwrap();
        assert!(r.decap_at(&bad, fx.now).is_err());
    });
    assert!(log.contains("accepted"), "{log}");
    assert!(log.contains(&signer), "the signer's HashedId8 is named: {log}");
    assert!(log.contains("cache miss"), "{log}");
    assert!(log.contains("cache hit"), "{log}");
    assert!(
        log.contains("rejected") && log.contains("reason=\"duplicate-message\""),
        "{log}"
    );
    assert!(log.contains("step=\"replay look-up\""), "{log}");

    // At debug level: outcomes only, no cache chatter.
    let mut r = fx.receiver();
    let log = captured(tracing::Level::DEBUG, || {
        r.decap_at(&first, fx.now).unwrap();
    });
    assert!(log.contains("accepted") && !log.contains("cache"), "{log}");
}
