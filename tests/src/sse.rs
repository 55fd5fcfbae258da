//! A Server-Sent Events client for the tests: reads messages one at a time.

use std::pin::Pin;
use std::time::Duration;

use actix_web::web::Bytes;
use serde_json::Value;

/// One message (a comment line is a message with `comment` set).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub event: String,
    pub id: Option<i64>,
    pub data: Value,
    pub comment: Option<String>,
}

type Body = Pin<Box<dyn futures_core::Stream<Item = Result<Bytes, awc::error::PayloadError>>>>;

pub struct Stream {
    pub status: u16,
    pub content_type: String,
    /// The problem document when the stream was refused.
    pub problem: Value,
    body: Body,
    buffer: String,
}

impl Stream {
    pub async fn open(request: awc::ClientRequest) -> Stream {
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("Content-Type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let mut stream = Stream {
            status,
            content_type,
            problem: Value::Null,
            body: Box::pin(response),
            buffer: String::new(),
        };
        if status != 200 {
            let mut text = String::new();
            while let Some(chunk) = stream.chunk().await {
                text.push_str(&String::from_utf8_lossy(&chunk));
            }
            stream.problem = serde_json::from_str(&text).unwrap_or(Value::String(text));
        }
        stream
    }

    async fn chunk(&mut self) -> Option<Bytes> {
        let body = &mut self.body;
        std::future::poll_fn(|cx| body.as_mut().poll_next(cx))
            .await
            .map(|r| r.expect("the stream reads"))
    }

    /// The next message, comments included; `None` when the stream ended or `wait` passed.
    pub async fn next_any(&mut self, wait: Duration) -> Option<Message> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                if block.trim() == "" || block.starts_with("retry:") {
                    continue;
                }
                return Some(parse(&block));
            }
            let chunk = tokio::time::timeout_at(deadline, self.chunk())
                .await
                .ok()??;
            self.buffer
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }

    /// The next message that is not a comment.
    pub async fn next(&mut self, wait: Duration) -> Option<Message> {
        loop {
            let m = self.next_any(wait).await?;
            if m.comment.is_none() {
                return Some(m);
            }
        }
    }

    /// Messages until a `status` message with at least `version` (included), or panics after
    /// `wait` without one.
    pub async fn until_version(&mut self, version: i64, wait: Duration) -> Vec<Message> {
        let mut got = Vec::new();
        loop {
            let m = self
                .next(wait)
                .await
                .unwrap_or_else(|| panic!("no status {version} within {wait:?}; got {got:?}"));
            let done = m.event == "status" && m.data["version"].as_i64() >= Some(version);
            got.push(m);
            if done {
                return got;
            }
        }
    }
}

fn parse(block: &str) -> Message {
    let mut message = Message {
        event: "message".into(),
        id: None,
        data: Value::Null,
        comment: None,
    };
    let mut data = String::new();
    for line in block.lines() {
        if let Some(c) = line.strip_prefix(':') {
            message.comment = Some(c.trim().to_string());
        } else if let Some(e) = line.strip_prefix("event: ") {
            message.event = e.to_string();
        } else if let Some(id) = line.strip_prefix("id: ") {
            message.id = Some(id.parse().expect("ids are versions"));
        } else if let Some(d) = line.strip_prefix("data: ") {
            data.push_str(d);
        }
    }
    if !data.is_empty() {
        message.data = serde_json::from_str(&data).expect("data is JSON");
    }
    message
}
