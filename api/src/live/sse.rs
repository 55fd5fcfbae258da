//! Server-Sent Events framing, and a response body fed by a task through a channel (the task
//! ends when the client goes away: its next send fails, or it sees the channel closed).

use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::web::Bytes;
use actix_web::HttpResponse;
use tokio::sync::mpsc;

/// One SSE message: `event`, optional `id`, and `data` (one line: JSON has no raw newlines).
pub fn message(event: &str, id: Option<i64>, data: &impl serde::Serialize) -> Bytes {
    let mut buffer = Vec::new();
    append(&mut buffer, event, id, data);
    Bytes::from(buffer)
}

/// Appends one SSE message to `buffer` (several messages sent as one write: a stream's batch).
pub fn append(buffer: &mut Vec<u8>, event: &str, id: Option<i64>, data: &impl serde::Serialize) {
    use std::io::Write as _;
    buffer.extend_from_slice(b"event: ");
    buffer.extend_from_slice(event.as_bytes());
    buffer.push(b'\n');
    if let Some(id) = id {
        writeln!(buffer, "id: {id}").expect("a Vec takes every write");
    }
    buffer.extend_from_slice(b"data: ");
    serde_json::to_writer(&mut *buffer, data).expect("messages serialize");
    buffer.extend_from_slice(b"\n\n");
}

/// A comment line: ignored by clients, keeps proxies from closing a quiet connection.
pub fn keepalive() -> Bytes {
    Bytes::from_static(b": keep-alive\n\n")
}

/// The last message of a stream whose process stops: reconnect after `retry_ms` (to another
/// process, or to this service once it is back), resuming with `Last-Event-ID` as after any
/// drop. The stream is closed right after it.
pub fn reconnect(retry_ms: u64) -> Bytes {
    Bytes::from(format!(
        "event: reconnect\nretry: {retry_ms}\ndata: {{}}\n\n"
    ))
}

/// How long a client waits before reconnecting, sent first.
pub fn retry(ms: u64) -> Bytes {
    Bytes::from(format!("retry: {ms}\n\n"))
}

/// The streaming response and the sender that feeds it.
pub fn channel() -> (mpsc::Sender<Bytes>, HttpResponse) {
    let (tx, rx) = mpsc::channel(64);
    let response = HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        // nginx buffers responses unless told not to.
        .insert_header(("X-Accel-Buffering", "no"))
        // A stream's connection ends with it: a client reconnects on a new one anyway, and a
        // stopping process then has no idle connection left to wait for.
        .force_close()
        .streaming(Body(rx));
    (tx, response)
}

struct Body(mpsc::Receiver<Bytes>);

impl futures_core::Stream for Body {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|b| b.map(Ok))
    }
}
