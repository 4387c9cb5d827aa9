//! What the service does with a request, transport aside: the EA's enrolment and validation,
//! the AA's authorization (with the validation exchange, in process when this process is also
//! the EA, over HTTP otherwise) and the distribution of the trust lists. Each step says whether
//! it is crypto (run inline on the serving thread, measured) or storage (the store and the
//! committer).

use crate::config::{content_type, paths, ServiceConfig, RESPONSE_CODE_HEADER};
use crate::distribution::Distribution;
use crate::store::{EcRow, Outcome, Role, Store, StoreError, Write};
use crate::workers::{Committer, Crypto};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use v2x_crypto::HashedId8;
use v2x_security::certificate::{CertRef, Certificate};
use v2x_security::ts102941::aa::{AaPolicy, AuthorizationAuthority, PendingValidation};
use v2x_security::ts102941::authorities::Authorities;
use v2x_security::ts102941::ea::{EaPolicy, EcRecord, EnrolmentAuthority, Requester, StationRecord, Validation};
use v2x_security::ts102941::wire::{
    AuthorizationResponseCode as Arc_, AuthorizationValidationResponseCode as Avc, CertificateSubjectAttributes,
    EnrolmentResponseCode as Erc,
};
use v2x_security::ts102941::{NotOpened, Refusal, Reply};
use v2x_security::TaiTime;

/// How the service answers a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// An ITS response (200, `application/x-its-response`), whatever its response code.
    Its(Vec<u8>),
    /// No ITS response could be made: the HTTP status, the standard's code (when one applies)
    /// and why.
    Plain {
        status: u16,
        code: Option<&'static str>,
        reason: String,
    },
}

impl Answer {
    fn plain(status: u16, code: Option<&'static str>, reason: impl Into<String>) -> Answer {
        Answer::Plain {
            status,
            code,
            reason: reason.into(),
        }
    }

    fn unavailable(e: &StoreError) -> Answer {
        Answer::plain(503, None, e.to_string())
    }

    fn internal(what: impl std::fmt::Display) -> Answer {
        Answer::plain(500, None, what.to_string())
    }
}

/// Counters of what the service answered (for `/status`).
#[derive(Debug, Default)]
pub struct Tally {
    pub enrolments_ok: AtomicU64,
    pub enrolments_refused: AtomicU64,
    pub validations_ok: AtomicU64,
    pub validations_refused: AtomicU64,
    pub authorizations_ok: AtomicU64,
    pub authorizations_refused: AtomicU64,
    pub unanswerable: AtomicU64,
    pub store_errors: AtomicU64,
}

/// One service process.
pub struct Service<S: Store> {
    store: Arc<S>,
    ea: Option<Arc<EnrolmentAuthority>>,
    aa: Option<Arc<AuthorizationAuthority>>,
    ea_remote: Option<(reqwest::Client, String)>,
    crypto: Crypto,
    committer: Committer,
    distribution: Option<Distribution>,
    parsed_ecs: ParsedEcs,
    config: ServiceConfig,
    pub tally: Tally,
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Enrolment credentials the EA has parsed, by HashedId8: every validation and re-enrolment
/// names an EC, and parsing one (decoding, reading its keys, hashing it) costs more than the
/// rest of the lookup. The store stays the authority: an entry is used only when its encoding
/// is byte for byte the stored one, and revocation and permissions always come from the row.
/// Bounded (emptied when full).
#[derive(Default)]
struct ParsedEcs {
    by_id: std::sync::Mutex<HashMap<HashedId8, CertRef>>,
}

impl ParsedEcs {
    /// The most ECs kept parsed (a parsed EC is a few kilobytes).
    const MAX: usize = 16_384;

    fn record(&self, row: EcRow) -> Result<EcRecord, StoreError> {
        let cached = self.lock().get(&row.ec_id).cloned();
        let certificate = match cached {
            Some(c) if c.encoded() == &row.certificate[..] => c,
            _ => {
                let c = Arc::new(
                    Certificate::from_bytes(&row.certificate)
                        .map_err(|e| StoreError::Damaged(format!("EC {}: {e}", row.ec_id)))?,
                );
                let mut by_id = self.lock();
                if by_id.len() >= Self::MAX {
                    by_id.clear();
                }
                by_id.insert(row.ec_id, c.clone());
                c
            }
        };
        Ok(EcRecord {
            certificate,
            revoked: row.revoked,
            at_permissions: row.at_permissions,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<HashedId8, CertRef>> {
        // A panic while holding the lock cannot leave the map inconsistent (single inserts).
        self.by_id.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl<S: Store> Service<S> {
    /// A service with these authorities on `store` (call on the runtime that serves it: the
    /// committer starts there). `public_url` is the base URL the trust lists name.
    pub fn new(config: ServiceConfig, authorities: &Authorities, store: Arc<S>, public_url: &str) -> Service<S> {
        let ea_policy = EaPolicy {
            freshness: config.freshness,
            ..EaPolicy::default()
        };
        let aa_policy = AaPolicy {
            freshness: config.freshness,
            ..AaPolicy::default()
        };
        let ea = config
            .roles
            .ea
            .then(|| Arc::new(authorities.enrolment_authority(ea_policy)));
        let aa = config
            .roles
            .aa
            .then(|| Arc::new(authorities.authorization_authority(aa_policy)));
        let ea_remote = match (&config.ea_url, config.roles.ea) {
            (Some(url), _) => Some((
                reqwest::Client::new(),
                format!("{}{}", url.trim_end_matches('/'), paths::VALIDATION),
            )),
            _ => None,
        };
        let distribution = config.roles.dc.then(|| {
            Distribution::new(
                authorities.clone(),
                public_url,
                config.ea_url.as_deref(),
                config.aa_url.as_deref(),
            )
        });
        Service {
            committer: Committer::start(store.clone()),
            crypto: Crypto::default(),
            store,
            ea,
            aa,
            ea_remote,
            distribution,
            parsed_ecs: ParsedEcs::default(),
            config,
            tally: Tally::default(),
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<S> {
        &self.store
    }

    /// The configuration.
    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// The distribution role, when played.
    pub fn distribution(&self) -> Option<&Distribution> {
        self.distribution.as_ref()
    }

    /// CPU time spent inline on the runtime's threads so far: crypto steps, and the store's
    /// lookups (SQLite) — the rest of those threads' time is HTTP and glue.
    pub fn inline_cpu(&self) -> (std::time::Duration, std::time::Duration) {
        (self.crypto.cpu(), self.store.caller_cpu())
    }

    fn store_failed(&self, e: &StoreError) -> Answer {
        self.tally.store_errors.fetch_add(1, Ordering::Relaxed);
        Answer::unavailable(e)
    }

    // ---- EA: enrolment -------------------------------------------------------------------

    /// `POST /ea/enrolment`.
    pub async fn enrol(&self, request: Vec<u8>) -> Answer {
        let Some(ea) = self.ea.clone() else {
            return Answer::plain(404, None, "this instance is not an EA");
        };
        let now = TaiTime::now();
        let opened = match self.crypto.run(|| ea.open_enrolment(&request, now)) {
            Ok(o) => o,
            Err(e) => return Answer::internal(e),
        };
        let enrolment = match opened {
            Ok(e) => e,
            Err(NotOpened::Refused(reply, refusal)) => return self.enrolment_refused(&ea, reply, refusal, now),
            Err(NotOpened::Unanswerable(u)) => {
                self.tally.unanswerable.fetch_add(1, Ordering::Relaxed);
                return Answer::plain(400, Some(u.code.name()), u.reason);
            }
        };
        let replay = enrolment.replay_key;
        match self.store.seen(Role::Ea, &replay).await {
            Ok(true) => {
                let refusal = Refusal::new(Erc::Deniedrequest, "replay: this request was received before");
                return self.enrolment_refused(&ea, enrolment.reply, refusal, now);
            }
            Ok(false) => {}
            Err(e) => return self.store_failed(&e),
        }
        // Storage: what the registry holds about the requester.
        let (station, ec, its_id) = match &enrolment.requester {
            Requester::Canonical(id) => match self.store.station(id).await {
                Ok(s) => (
                    s.map(|s| StationRecord {
                        canonical_key: s.canonical_key,
                        revoked: s.revoked,
                        at_permissions: s.at_permissions,
                    }),
                    None,
                    id.clone(),
                ),
                Err(e) => return self.store_failed(&e),
            },
            Requester::Enrolled(ec_id) => match self.store.enrolment_credential(*ec_id).await {
                Ok(Some(row)) => {
                    let its_id = row.its_id.clone();
                    match self.parsed_ecs.record(row) {
                        Ok(r) => (None, Some(r), its_id),
                        Err(e) => return self.store_failed(&e),
                    }
                }
                Ok(None) => (None, None, Vec::new()),
                Err(e) => return self.store_failed(&e),
            },
        };
        // Crypto: the origin's signature, the new EC and its answer, which is sent only once
        // the EC is committed.
        let decided = self.crypto.run(|| {
            ea.decide_enrolment(&enrolment, station.as_ref(), ec.as_ref(), now)
                .map(|cert| {
                    let answer = ea.enrolment_response(&enrolment.reply, Erc::Ok, Some(&cert), now);
                    (cert, answer)
                })
        });
        let (cert, answer) = match decided {
            Ok(Ok((cert, Ok(answer)))) => (cert, answer),
            Ok(Ok((_, Err(e)))) => return Answer::internal(e),
            Ok(Err(refusal)) => return self.enrolment_refused(&ea, enrolment.reply, refusal, now),
            Err(e) => return Answer::internal(e),
        };
        // Storage: the EC and the replay key, in one transaction (grouped with others).
        let write = Write::Enrolment {
            replay_key: replay,
            its_id,
            ec_id: cert.hashed_id8(),
            certificate: cert.encoded().to_vec(),
            not_after: cert.validity().end as i64,
            at: unix_now(),
        };
        match self.committer.commit(write).await {
            Ok(Outcome::Done) => {}
            Ok(_) => {
                let refusal = Refusal::new(Erc::Deniedrequest, "replay: this request was received before");
                return self.enrolment_refused(&ea, enrolment.reply, refusal, now);
            }
            Err(e) => return self.store_failed(&e),
        }
        self.tally.enrolments_ok.fetch_add(1, Ordering::Relaxed);
        Answer::Its(answer)
    }

    /// A refusal's response, signed and encrypted; a failure there is a 500.
    fn refusal_answer<E: std::fmt::Display>(&self, respond: impl FnOnce() -> Result<Vec<u8>, E>) -> Answer {
        match self.crypto.run(respond) {
            Ok(Ok(bytes)) => Answer::Its(bytes),
            Ok(Err(e)) => Answer::internal(e),
            Err(e) => Answer::internal(e),
        }
    }

    fn enrolment_refused(
        &self,
        ea: &Arc<EnrolmentAuthority>,
        reply: Reply,
        refusal: Refusal<Erc>,
        now: TaiTime,
    ) -> Answer {
        tracing::debug!(code = refusal.code.name(), reason = %refusal.reason, "enrolment refused");
        self.tally.enrolments_refused.fetch_add(1, Ordering::Relaxed);
        self.refusal_answer(|| ea.enrolment_response(&reply, refusal.code, None, now))
    }

    // ---- EA: authorization validation ----------------------------------------------------

    /// `POST /ea/authorization-validation`.
    pub async fn validate(&self, request: Vec<u8>) -> Answer {
        let Some(ea) = self.ea.clone() else {
            return Answer::plain(404, None, "this instance is not an EA");
        };
        let now = TaiTime::now();
        let opened = match self.crypto.run(|| ea.open_validation(&request, now)) {
            Ok(o) => o,
            Err(e) => return Answer::internal(e),
        };
        let validation = match opened {
            Ok(v) => v,
            Err(NotOpened::Refused(reply, refusal)) => return self.validation_refused(&ea, reply, refusal, now),
            Err(NotOpened::Unanswerable(u)) => {
                self.tally.unanswerable.fetch_add(1, Ordering::Relaxed);
                return Answer::plain(400, Some(u.code.name()), u.reason);
            }
        };
        // The answer is built in the crypto step that decides, and sent only once the replay
        // key is committed.
        let decided = self
            .decide_validation(&ea, &validation, now, |confirmed| {
                ea.validation_response(&validation.reply, Avc::Ok, Some(confirmed), now)
            })
            .await;
        match decided {
            Ok(Ok(answer)) => Answer::Its(answer),
            Ok(Err(refusal)) => self.validation_refused(&ea, validation.reply, refusal, now),
            Err(answer) => answer,
        }
    }

    /// The EA's decision on an opened validation request, wherever it came from: replay, the
    /// EC's record, the EC signature, then the replay key and the validation limit committed.
    /// On success, what `respond` made of the confirmed attributes in the crypto step that
    /// decided; `Err` is the answer when no decision could be made (store, crypto failure).
    async fn decide_validation<R, T, E: std::fmt::Display>(
        &self,
        ea: &EnrolmentAuthority,
        validation: &Validation<R>,
        now: TaiTime,
        respond: impl FnOnce(CertificateSubjectAttributes) -> Result<T, E>,
    ) -> Result<Result<T, Refusal<Avc>>, Answer> {
        match self.store.seen(Role::Ea, &validation.replay_key).await {
            Ok(true) => {
                return Ok(Err(Refusal::new(
                    Avc::Deniedrequest,
                    "replay: this EC signature was used before",
                )))
            }
            Ok(false) => {}
            Err(e) => return Err(self.store_failed(&e)),
        }
        let ec = match self.store.enrolment_credential(validation.ec).await {
            Ok(Some(row)) => match self.parsed_ecs.record(row) {
                Ok(r) => Some(r),
                Err(e) => return Err(self.store_failed(&e)),
            },
            Ok(None) => None,
            Err(e) => return Err(self.store_failed(&e)),
        };
        // Crypto: the EC signature, then the answer.
        let decided = self
            .crypto
            .run(|| ea.decide_validation(validation, ec.as_ref(), now).map(respond));
        let answer = match decided {
            Ok(Ok(Ok(answer))) => answer,
            Ok(Ok(Err(e))) => return Err(Answer::internal(e)),
            Ok(Err(refusal)) => return Ok(Err(refusal)),
            Err(e) => return Err(Answer::internal(e)),
        };
        let write = Write::Validation {
            replay_key: validation.replay_key,
            ec_id: validation.ec,
            at: unix_now(),
            limit: self
                .config
                .validation_limit
                .map(|(n, window)| (i64::from(n), window.as_secs() as i64)),
        };
        match self.committer.commit(write).await {
            Ok(Outcome::Done) => {}
            Ok(Outcome::Replay) => {
                return Ok(Err(Refusal::new(
                    Avc::Deniedrequest,
                    "replay: this EC signature was used before",
                )))
            }
            Ok(Outcome::TooMany) => {
                return Ok(Err(Refusal::new(
                    Avc::Deniedtoomanycerts,
                    "the EC's validation limit is reached",
                )))
            }
            Err(e) => return Err(self.store_failed(&e)),
        }
        self.tally.validations_ok.fetch_add(1, Ordering::Relaxed);
        Ok(Ok(answer))
    }

    /// The EA's decision on a validation request that the AA of this process hands over as
    /// its content (no envelope: see `EnrolmentAuthority::open_validation_in_process`):
    /// `Err` is the answer when no decision could be made.
    async fn validate_in_process(
        &self,
        ea: &EnrolmentAuthority,
        aa: &AuthorizationAuthority,
        content: &[u8],
        now: TaiTime,
    ) -> Result<(Avc, Option<CertificateSubjectAttributes>), Answer> {
        let opened = self
            .crypto
            .run(|| ea.open_validation_in_process(content, aa.certificate(), now))
            .map_err(Answer::internal)?;
        let decided = match opened {
            Ok(validation) => {
                self.decide_validation(ea, &validation, now, Ok::<_, std::convert::Infallible>)
                    .await?
            }
            Err(refusal) => Err(refusal),
        };
        Ok(match decided {
            Ok(confirmed) => (Avc::Ok, Some(confirmed)),
            Err(refusal) => {
                tracing::debug!(code = refusal.code.name(), reason = %refusal.reason, "validation refused");
                self.tally.validations_refused.fetch_add(1, Ordering::Relaxed);
                (refusal.code, None)
            }
        })
    }

    fn validation_refused(
        &self,
        ea: &Arc<EnrolmentAuthority>,
        reply: Reply,
        refusal: Refusal<Avc>,
        now: TaiTime,
    ) -> Answer {
        tracing::debug!(code = refusal.code.name(), reason = %refusal.reason, "validation refused");
        self.tally.validations_refused.fetch_add(1, Ordering::Relaxed);
        self.refusal_answer(|| ea.validation_response(&reply, refusal.code, None, now))
    }

    // ---- AA: authorization ---------------------------------------------------------------

    /// `POST /aa/authorization`.
    pub async fn authorize(&self, request: Vec<u8>) -> Answer {
        let answer = self.authorize_now(request).await;
        if let Some(d) = self.config.lab_aa_delay {
            tokio::time::sleep(d).await;
        }
        answer
    }

    async fn authorize_now(&self, request: Vec<u8>) -> Answer {
        let Some(aa) = self.aa.clone() else {
            return Answer::plain(404, None, "this instance is not an AA");
        };
        let now = TaiTime::now();
        // The EA of this process, when it is the one validating (no --ea-url).
        let local_ea = match (&self.ea_remote, &self.ea) {
            (None, Some(ea)) => Some(ea.clone()),
            _ => None,
        };
        let opened = self.crypto.run(|| {
            let o = aa.open_authorization(&request, now);
            let exchange = o.as_ref().ok().map(|a| match local_ea {
                Some(_) => aa.validation_content(a).map(Exchange::InProcess),
                None => aa.validation_request(a, now).map(Exchange::Wire),
            });
            (o, exchange)
        });
        let opened = match opened {
            Ok(o) => o,
            Err(e) => return Answer::internal(e),
        };
        let (authorization, exchange) = match opened {
            (Ok(a), Some(Ok(x))) => (a, x),
            (Ok(a), Some(Err(e))) => {
                let refusal = Refusal::new(Arc_::AaEaCantreachea, format!("validation request: {e}"));
                return self.authorization_refused(&aa, a.reply, refusal, now);
            }
            (Ok(_), None) => return Answer::internal("no validation request"),
            (Err(NotOpened::Refused(reply, refusal)), _) => {
                return self.authorization_refused(&aa, reply, refusal, now)
            }
            (Err(NotOpened::Unanswerable(u)), _) => {
                self.tally.unanswerable.fetch_add(1, Ordering::Relaxed);
                return Answer::plain(400, Some(u.code.name()), u.reason);
            }
        };
        match self.store.seen(Role::Aa, &authorization.replay_key).await {
            Ok(true) => {
                let refusal = Refusal::new(Arc_::ItsAaOutofsyncrequest, "replay: this request was received before");
                return self.authorization_refused(&aa, authorization.reply, refusal, now);
            }
            Ok(false) => {}
            Err(e) => return self.store_failed(&e),
        }
        // The validation exchange with the EA: its decision as a value from the EA of this
        // process, or its signed and encrypted answer over HTTP.
        let validated = match (exchange, &local_ea, &self.ea_remote) {
            (Exchange::InProcess(content), Some(ea), _) => {
                match self.validate_in_process(ea, &aa, &content, now).await {
                    Ok(decision) => Validated::Decided(decision),
                    Err(Answer::Plain {
                        status: 503, reason, ..
                    }) => return Answer::plain(503, None, reason),
                    Err(answer) => {
                        let why = match answer {
                            Answer::Plain { status, reason, .. } => format!("the EA failed ({status}): {reason}"),
                            Answer::Its(_) => "the EA failed".into(),
                        };
                        let refusal = Refusal::new(Arc_::AaEaCantreachea, why);
                        return self.authorization_refused(&aa, authorization.reply, refusal, now);
                    }
                }
            }
            (Exchange::Wire(pending), _, Some((client, url))) => {
                match post(client, url, pending.message.clone()).await {
                    Ok(b) => Validated::Answered(b, pending),
                    Err(e) => {
                        let refusal = Refusal::new(Arc_::AaEaCantreachea, e);
                        return self.authorization_refused(&aa, authorization.reply, refusal, now);
                    }
                }
            }
            _ => {
                let refusal = Refusal::new(Arc_::AaEaCantreachea, "no EA configured (--ea-url)");
                return self.authorization_refused(&aa, authorization.reply, refusal, now);
            }
        };
        let issued = self.crypto.run(|| {
            let decision = match validated {
                Validated::Decided(d) => Ok(d),
                Validated::Answered(response, pending) => aa
                    .read_validation_response(&response, &pending, &authorization.ea)
                    .map_err(|e| Refusal::new(Arc_::AaEaCantreachea, format!("EA response: {e}"))),
            };
            // The answer is built at once and sent only once the ticket is committed.
            decision.and_then(|d| aa.issue_on(&authorization, d, now)).map(|at| {
                let answer = aa.authorization_response(&authorization.reply, Arc_::Ok, Some(&at), now);
                (at, answer)
            })
        });
        let (at, answer) = match issued {
            Ok(Ok((at, Ok(answer)))) => (at, answer),
            Ok(Ok((_, Err(e)))) => return Answer::internal(e),
            Ok(Err(refusal)) => return self.authorization_refused(&aa, authorization.reply, refusal, now),
            Err(e) => return Answer::internal(e),
        };
        let write = Write::Authorization {
            replay_key: authorization.replay_key,
            at_id: at.hashed_id8(),
            certificate: at.encoded().to_vec(),
            not_after: at.validity().end as i64,
            request_hash: authorization.reply.request_hash,
            at: unix_now(),
        };
        match self.committer.commit(write).await {
            Ok(Outcome::Done) => {}
            Ok(_) => {
                let refusal = Refusal::new(Arc_::ItsAaOutofsyncrequest, "replay: this request was received before");
                return self.authorization_refused(&aa, authorization.reply, refusal, now);
            }
            Err(e) => return self.store_failed(&e),
        }
        self.tally.authorizations_ok.fetch_add(1, Ordering::Relaxed);
        Answer::Its(answer)
    }

    fn authorization_refused(
        &self,
        aa: &Arc<AuthorizationAuthority>,
        reply: Reply,
        refusal: Refusal<Arc_>,
        now: TaiTime,
    ) -> Answer {
        tracing::debug!(code = refusal.code.name(), reason = %refusal.reason, "authorization refused");
        self.tally.authorizations_refused.fetch_add(1, Ordering::Relaxed);
        self.refusal_answer(|| aa.authorization_response(&reply, refusal.code, None, now))
    }
}

/// How the AA asks its EA: the request's content for the EA of this process, or the signed and
/// encrypted request to POST to a remote one.
enum Exchange {
    InProcess(Vec<u8>),
    Wire(PendingValidation),
}

/// What the EA said: its decision (in process), or its response to read (over HTTP).
enum Validated {
    Decided((Avc, Option<CertificateSubjectAttributes>)),
    Answered(Vec<u8>, PendingValidation),
}

/// POSTs a TS 102 941 request and returns the ITS response body (any non-200 answer, or
/// another content type, is an error naming the status and code).
pub(crate) async fn post(client: &reqwest::Client, url: &str, body: Vec<u8>) -> Result<Vec<u8>, String> {
    let resp = client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, content_type::REQUEST)
        .body(body)
        .send()
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    let status = resp.status();
    let code = resp
        .headers()
        .get(RESPONSE_CODE_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = resp.bytes().await.map_err(|e| format!("{url}: {e}"))?;
    if status != reqwest::StatusCode::OK {
        return Err(format!(
            "{url} answered {status}{}: {}",
            code.map(|c| format!(" ({c})")).unwrap_or_default(),
            String::from_utf8_lossy(&bytes)
        ));
    }
    Ok(bytes.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsed_ecs_serve_only_the_stored_encoding() {
        let dir = tempfile::tempdir().unwrap();
        let (a, _) = Authorities::open_or_create(&dir.path().join("authorities"), v2x_crypto::Curve::NistP256).unwrap();
        let (first, second) = (&a.ea.authority.certificate, &a.aa.authority.certificate);
        let id = first.hashed_id8();
        let row = |cert: &Certificate, revoked: bool| EcRow {
            ec_id: id,
            its_id: b"car".to_vec(),
            certificate: cert.encoded().to_vec(),
            revoked,
            at_permissions: Vec::new(),
        };
        let ecs = ParsedEcs::default();
        let parsed = ecs.record(row(first, false)).unwrap();
        assert_eq!(parsed.certificate.encoded(), first.encoded());
        // The same stored bytes: the parsed EC is reused, the row's status is taken as stored.
        let again = ecs.record(row(first, true)).unwrap();
        assert!(Arc::ptr_eq(&parsed.certificate, &again.certificate));
        assert!(again.revoked);
        // Other bytes under the same id (a changed row): parsed anew, never the cached one.
        let changed = ecs.record(row(second, false)).unwrap();
        assert_eq!(changed.certificate.encoded(), second.encoded());
        // Undecodable bytes: a typed error naming the EC, nothing cached.
        let mut bad = row(first, false);
        bad.certificate.truncate(10);
        assert!(matches!(ecs.record(bad), Err(StoreError::Damaged(_))));
    }
}
