//! A plain HTTP client for a server running as a process of its own (the binary a test starts
//! and kills, or a cluster's nodes): every answer is kept as it came, a failed connection is an
//! answer with status 0, and nothing here fails a test by itself.

use std::time::{Duration, Instant};

use serde_json::Value;

pub struct Http {
    pub base: String,
    pub client: awc::Client,
}

/// One answer: status (0 when there was none: the connection failed), whether it carried
/// `Retry-After` and `Idempotent-Replayed`, and the body (null unless JSON).
pub struct Answer {
    pub status: u16,
    pub retry_after: bool,
    pub replayed: bool,
    pub body: Value,
}

impl Http {
    /// A client of `base` (`http://host:port`) whose requests give up after `timeout`.
    pub fn new(base: impl Into<String>, timeout: Duration) -> Http {
        Http {
            base: base.into(),
            client: awc::Client::builder().timeout(timeout).finish(),
        }
    }

    /// A client of the server on this machine's `port`, with a 10 s timeout.
    pub fn local(port: u16) -> Http {
        Http::new(format!("http://127.0.0.1:{port}"), Duration::from_secs(10))
    }

    /// Sends `method path`, with the bearer `token`, the `Idempotency-Key` `key` and the JSON
    /// `body` where given.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        key: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        let method = awc::http::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.insert_header(("Authorization", format!("Bearer {token}")));
        }
        if let Some(key) = key {
            request = request.insert_header(("Idempotency-Key", key));
        }
        let response = match body {
            Some(body) => request.send_json(body).await,
            None => request.send().await,
        };
        let Ok(mut response) = response else {
            return Answer {
                status: 0,
                retry_after: false,
                replayed: false,
                body: Value::Null,
            };
        };
        let bytes = response.body().limit(1 << 24).await.unwrap_or_default();
        Answer {
            status: response.status().as_u16(),
            retry_after: response.headers().contains_key("Retry-After"),
            replayed: response.headers().contains_key("Idempotent-Replayed"),
            body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        }
    }

    /// Waits until the server answers `/healthz` (panics after 30 s: it did not start).
    pub async fn ready(&self) {
        let started = Instant::now();
        while self.call("GET", "/healthz", None, None, None).await.status != 200 {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the server did not start"
            );
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
