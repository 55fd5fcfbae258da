//! Slow clients. actix-web bounds only the first request of a connection (its headers must arrive
//! within `client_request_timeout`) and idle connections (keep-alive). The headers of every
//! later request, any request body, and a response the client stops reading have no bound: a
//! client sending or reading a byte now and then would hold its connection (and the memory of
//! its half-done request) forever. So every connection's socket is wrapped ([`Guarded`]) and
//! every request marks its connection busy while it is served ([`mark_busy`]):
//! - between requests, once a byte of the next request has arrived, its headers must be complete
//!   within [`ClientTimeouts::header`], or the connection is closed;
//! - a body must arrive whole within [`ClientTimeouts::body`] of its headers, or the request is
//!   answered 408 `request_timeout` and the connection closed (see `crate::body::body_error`);
//! - a response the client reads nothing of for [`ClientTimeouts::send`] is given up and the
//!   connection closed.
//!
//! Live streams are not affected while their client reads them: a stream's request is being
//! served for as long as the stream lasts.

use std::cell::Cell;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::rt::net::TcpStream;
use actix_web::rt::time::{sleep, Instant, Sleep};
use actix_web::web::{self, Bytes};
use actix_web::HttpMessage as _;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::config::ClientTimeouts;
use crate::AppState;

/// How many requests of one connection are being served (headers parsed, response not yet sent
/// whole). A connection's requests are served one after another on one worker thread.
#[derive(Clone, Default)]
pub struct Busy(Rc<Cell<u32>>);

/// A request being served; dropped when its response has been sent (or given up).
pub struct Serving(Busy);

impl Busy {
    fn begin(&self) -> Serving {
        self.0.set(self.0.get() + 1);
        Serving(self.clone())
    }

    fn idle(&self) -> bool {
        self.0.get() == 0
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let busy = &(self.0).0;
        busy.set(busy.get().saturating_sub(1));
    }
}

/// A deadline that is armed and disarmed without allocating.
struct Deadline {
    sleep: Pin<Box<Sleep>>,
    armed: bool,
}

impl Deadline {
    fn new() -> Self {
        Deadline {
            sleep: Box::pin(sleep(std::time::Duration::ZERO)),
            armed: false,
        }
    }

    fn arm(&mut self, after: std::time::Duration) {
        if !self.armed {
            self.armed = true;
            self.sleep.as_mut().reset(Instant::now() + after);
        }
    }

    fn disarm(&mut self) {
        self.armed = false;
    }

    /// Whether the armed deadline has passed (registering a wake-up for it otherwise).
    fn passed(&mut self, cx: &mut Context<'_>) -> bool {
        self.armed && self.sleep.as_mut().poll(cx).is_ready()
    }
}

fn timed_out(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, what.to_string())
}

/// A connection's socket, closed when the client is too slow (see the module's description).
pub struct Guarded {
    io: TcpStream,
    busy: Busy,
    timeouts: ClientTimeouts,
    /// Armed from the first byte read between requests until a request is being served.
    head: Deadline,
    /// Armed while a write waits for the client to read.
    send: Deadline,
}

impl Guarded {
    pub fn new(io: TcpStream, timeouts: ClientTimeouts) -> Self {
        Guarded {
            io,
            busy: Busy::default(),
            timeouts,
            head: Deadline::new(),
            send: Deadline::new(),
        }
    }

    /// What requests of this connection find in their connection data (see [`mark_busy`]).
    pub fn busy(&self) -> Busy {
        self.busy.clone()
    }

    fn after_write<T>(
        &mut self,
        cx: &mut Context<'_>,
        result: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match result {
            Poll::Pending => {
                self.send.arm(self.timeouts.send);
                if self.send.passed(cx) {
                    return Poll::Ready(Err(timed_out(
                        "the client read nothing of the response in time",
                    )));
                }
                Poll::Pending
            }
            ready => {
                self.send.disarm();
                ready
            }
        }
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let result = Pin::new(&mut this.io).poll_read(cx, buf);
        if !this.busy.idle() {
            // A body being read has its own deadline (`mark_busy`).
            this.head.disarm();
            return result;
        }
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.head.arm(this.timeouts.header);
        }
        if this.head.passed(cx) {
            return Poll::Ready(Err(timed_out(
                "the request's headers did not arrive in time",
            )));
        }
        result
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.io).poll_write(cx, data);
        this.after_write(cx, result)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.after_write(cx, result)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.io).poll_flush(cx);
        this.after_write(cx, result)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// A request body that must arrive whole by a deadline; then it fails with a `TimedOut` I/O
/// error, which [`crate::body::read`] reports as 408 (`crate::body::body_error`).
struct BodyDeadline {
    body: Payload,
    deadline: Pin<Box<Sleep>>,
    expired: bool,
}

impl futures_core::Stream for BodyDeadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.body).poll_next(cx) {
            Poll::Pending if this.deadline.as_mut().poll(cx).is_ready() => {
                this.expired = true;
                Poll::Ready(Some(Err(PayloadError::Io(timed_out(
                    "the request body did not arrive in time",
                )))))
            }
            other => other,
        }
    }
}

/// A response body that marks its request served when it is dropped (sent whole, or given up).
struct Tracked {
    body: BoxBody,
    _serving: Option<Serving>,
}

impl MessageBody for Tracked {
    type Error = <BoxBody as MessageBody>::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_next(cx)
    }

    fn try_into_bytes(self) -> Result<Bytes, Self> {
        let Tracked { body, _serving } = self;
        body.try_into_bytes()
            .map_err(|body| Tracked { body, _serving })
    }
}

/// Middleware: marks the connection busy while the request is served, and puts the body's
/// deadline on the request's body.
pub async fn mark_busy(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let serving = req.conn_data::<Busy>().map(Busy::begin);
    let body_timeout = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.timeouts.body);
    if let Some(timeout) = body_timeout {
        match req.take_payload() {
            Payload::None => {}
            body => req.set_payload(Payload::Stream {
                payload: Box::pin(BodyDeadline {
                    body,
                    deadline: Box::pin(sleep(timeout)),
                    expired: false,
                }),
            }),
        }
    }
    let response = next.call(req).await?;
    Ok(response.map_body(move |_, body| Tracked {
        body: body.boxed(),
        _serving: serving,
    }))
}
