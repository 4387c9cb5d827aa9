//! The HTTP client side of the binding (blocking; for the CLI, the testbed's stations and
//! Python): POST a request and get the ITS response, or a typed refusal that names the HTTP
//! status and the standard's code.

use crate::config::{content_type, RESPONSE_CODE_HEADER};
use std::time::Duration;

/// Why a request got no ITS response.
#[derive(Debug, Clone, thiserror::Error)]
pub enum HttpError {
    /// Connection refused, reset, timed out...: the service is down or unreachable.
    #[error("{url}: {reason}")]
    Unreachable { url: String, reason: String },
    /// The service answered without an ITS response.
    #[error("{url} answered {status}{}: {reason}", code.as_ref().map(|c| format!(" ({c})")).unwrap_or_default())]
    Status {
        url: String,
        status: u16,
        code: Option<String>,
        reason: String,
    },
}

impl HttpError {
    /// Whether trying again later may help (unreachable, overloaded, database unavailable).
    pub fn is_transient(&self) -> bool {
        match self {
            HttpError::Unreachable { .. } => true,
            HttpError::Status { status, .. } => *status == 503 || *status == 429,
        }
    }
}

/// A blocking HTTP client with a timeout per request.
#[derive(Clone)]
pub struct HttpClient {
    http: reqwest::blocking::Client,
}

impl HttpClient {
    /// A client whose requests give up after `timeout`.
    pub fn new(timeout: Duration) -> HttpClient {
        HttpClient {
            http: reqwest::blocking::Client::builder()
                .timeout(timeout)
                .build()
                .expect("an HTTP client without TLS always builds"),
        }
    }

    fn finish(&self, url: &str, resp: reqwest::Result<reqwest::blocking::Response>) -> Result<Vec<u8>, HttpError> {
        let unreachable = |e: reqwest::Error| HttpError::Unreachable {
            url: url.to_string(),
            reason: e.to_string(),
        };
        let resp = resp.map_err(unreachable)?;
        let status = resp.status().as_u16();
        let code = resp
            .headers()
            .get(RESPONSE_CODE_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = resp.bytes().map_err(unreachable)?;
        if status != 200 {
            return Err(HttpError::Status {
                url: url.to_string(),
                status,
                code,
                reason: String::from_utf8_lossy(&body).into_owned(),
            });
        }
        Ok(body.to_vec())
    }

    /// POSTs a TS 102 941 request; the ITS response body.
    pub fn post(&self, url: &str, request: &[u8]) -> Result<Vec<u8>, HttpError> {
        let resp = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, content_type::REQUEST)
            .body(request.to_vec())
            .send();
        self.finish(url, resp)
    }

    /// GETs a trust list or CRL.
    pub fn get(&self, url: &str) -> Result<Vec<u8>, HttpError> {
        let resp = self.http.get(url).send();
        self.finish(url, resp)
    }
}
