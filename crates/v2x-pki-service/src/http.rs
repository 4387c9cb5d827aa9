//! The HTTP binding (TS 102 941: HTTP POST with `Content-Type: application/x-its-request`,
//! answered `200 OK` with `application/x-its-response` — whatever the response code inside;
//! distribution by HTTP GET) on axum, and what every other case gets:
//!
//! | case | status | body |
//! |---|---|---|
//! | an ITS response (any response code) | 200 | `application/x-its-response` |
//! | not decryptable by us (no ITS response possible) | 400 | text; `x-its-response-code` names the code (`imnottherecipient`, `decryptionfailed`, ...) |
//! | a role this instance does not play | 404 | text |
//! | another content type | 415 | text |
//! | a body over the limit | 413 | text |
//! | more requests in flight than the limit (load shedding) | 503 | text |
//! | the database down, full or read-only | 503 | text, `retry-after` |
//!
//! No input can make the service panic: every decoder returns typed errors.

use crate::config::{content_type, paths, RESPONSE_CODE_HEADER};
use crate::distribution::ListKind;
use crate::service::{Answer, Service};
use crate::store::Store;
use axum::body::Bytes;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tower::ServiceBuilder;

fn text(status: StatusCode, code: Option<&'static str>, reason: String) -> Response {
    let mut r = (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], reason).into_response();
    if let Some(c) = code {
        r.headers_mut()
            .insert(RESPONSE_CODE_HEADER, HeaderValue::from_static(c));
    }
    if status == StatusCode::SERVICE_UNAVAILABLE {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    r
}

fn answer(a: Answer) -> Response {
    match a {
        Answer::Its(bytes) => ([(header::CONTENT_TYPE, content_type::RESPONSE)], bytes).into_response(),
        Answer::Plain { status, code, reason } => text(
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            code,
            reason,
        ),
    }
}

/// A 415 answer unless the request is sent as a TS 102 941 request.
fn wrong_content_type(headers: &HeaderMap) -> Option<Response> {
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let essence = ct.split(';').next().unwrap_or("").trim();
    (!essence.eq_ignore_ascii_case(content_type::REQUEST)).then(|| {
        text(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            None,
            format!("content type {ct:?}: send {}", content_type::REQUEST),
        )
    })
}

async fn enrol<S: Store>(State(s): State<Arc<Service<S>>>, headers: HeaderMap, body: Bytes) -> Response {
    match wrong_content_type(&headers) {
        Some(r) => r,
        None => answer(s.enrol(body.to_vec()).await),
    }
}

async fn validate<S: Store>(State(s): State<Arc<Service<S>>>, headers: HeaderMap, body: Bytes) -> Response {
    match wrong_content_type(&headers) {
        Some(r) => r,
        None => answer(s.validate(body.to_vec()).await),
    }
}

async fn authorize<S: Store>(State(s): State<Arc<Service<S>>>, headers: HeaderMap, body: Bytes) -> Response {
    match wrong_content_type(&headers) {
        Some(r) => r,
        None => answer(s.authorize(body.to_vec()).await),
    }
}

async fn list<S: Store>(s: &Service<S>, kind: ListKind, rca: Option<&str>) -> Response {
    let Some(d) = s.distribution() else {
        return text(
            StatusCode::NOT_FOUND,
            None,
            "this instance does not distribute trust lists".into(),
        );
    };
    if let Some(rca) = rca {
        if !rca.eq_ignore_ascii_case(&d.root().to_string()) {
            return text(
                StatusCode::NOT_FOUND,
                None,
                format!("no lists of root CA {rca}; this centre serves {}", d.root()),
            );
        }
    }
    match d.get(s.store().as_ref(), kind).await {
        Ok(bytes) => {
            let ct = match kind {
                ListKind::Crl => content_type::CRL,
                ListKind::Ctl | ListKind::Ectl => content_type::CTL,
            };
            ([(header::CONTENT_TYPE, ct)], bytes).into_response()
        }
        Err(e) => text(StatusCode::SERVICE_UNAVAILABLE, None, e.to_string()),
    }
}

async fn get_ctl<S: Store>(State(s): State<Arc<Service<S>>>, Path(rca): Path<String>) -> Response {
    list(&s, ListKind::Ctl, Some(&rca)).await
}

async fn get_crl<S: Store>(State(s): State<Arc<Service<S>>>, Path(rca): Path<String>) -> Response {
    list(&s, ListKind::Crl, Some(&rca)).await
}

async fn get_ectl<S: Store>(State(s): State<Arc<Service<S>>>) -> Response {
    list(&s, ListKind::Ectl, None).await
}

async fn status<S: Store>(State(s): State<Arc<Service<S>>>) -> Response {
    let t = &s.tally;
    let n = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed);
    let counts = s.store().counts().await;
    let (crypto, database) = s.inline_cpu();
    let body = serde_json::json!({
        "roles": {"ea": s.config().roles.ea, "aa": s.config().roles.aa, "dc": s.config().roles.dc},
        "answered": {
            "enrolments_ok": n(&t.enrolments_ok),
            "enrolments_refused": n(&t.enrolments_refused),
            "validations_ok": n(&t.validations_ok),
            "validations_refused": n(&t.validations_refused),
            "authorizations_ok": n(&t.authorizations_ok),
            "authorizations_refused": n(&t.authorizations_refused),
            "unanswerable": n(&t.unanswerable),
            "store_errors": n(&t.store_errors),
        },
        // CPU time of the work done inline on the HTTP runtime's threads (the benchmark's split).
        "inline_cpu_us": {"crypto": crypto.as_micros() as u64, "database": database.as_micros() as u64},
        "stored": counts.as_ref().ok(),
        "store_error": counts.as_ref().err().map(|e| e.to_string()),
    });
    ([(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

/// The service's routes, with the body limit and load shedding of its configuration.
pub fn router<S: Store>(service: Arc<Service<S>>) -> Router {
    let max_body = service.config().max_body;
    let max_in_flight = service.config().max_in_flight;
    let shed = ServiceBuilder::new()
        .layer(HandleErrorLayer::new(|e: tower::BoxError| async move {
            text(
                StatusCode::SERVICE_UNAVAILABLE,
                None,
                format!("overloaded, request shed: {e}"),
            )
        }))
        .load_shed()
        .concurrency_limit(max_in_flight);
    Router::new()
        .route(paths::ENROLMENT, post(enrol::<S>))
        .route(paths::VALIDATION, post(validate::<S>))
        .route(paths::AUTHORIZATION, post(authorize::<S>))
        .route(&format!("{}/{{rca}}", paths::CTL), get(get_ctl::<S>))
        .route(&format!("{}/{{rca}}", paths::CRL), get(get_crl::<S>))
        .route(paths::ECTL, get(get_ectl::<S>))
        .route(paths::STATUS, get(status::<S>))
        .layer(DefaultBodyLimit::max(max_body))
        .layer(shed)
        .with_state(service)
}
