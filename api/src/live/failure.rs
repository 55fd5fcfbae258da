//! Why a delivery attempt failed, as the webhook's owner sees it (`last_error`): a coarse
//! category only. The raw connect or I/O error would tell an owner whether a port is closed,
//! filtered or speaking TLS — a port scanner run by the worker — so it goes to the operator's
//! log, never into `last_error`.

use std::fmt;
use std::io;

use awc::error::{ConnectError, SendRequestError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The attempt (lookup, connection, request and response head) took longer than
    /// `WEBHOOK_TIMEOUT_SECONDS`.
    Timeout,
    /// The host did not resolve, or to no address.
    Dns,
    /// The host resolved to an address that is not public (and the operator allows only those).
    NotPublicAddress,
    /// The connection was refused.
    Refused,
    /// The TLS handshake failed (certificate, protocol).
    Tls,
    /// Any other failure to connect or to exchange the request and response.
    Connection,
    /// The receiver answered, but not with a 2xx (redirects included: they are not followed).
    Status(u16),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Timeout => f.write_str("timeout"),
            Failure::Dns => f.write_str("dns"),
            Failure::NotPublicAddress => f.write_str("not_public_address"),
            Failure::Refused => f.write_str("refused"),
            Failure::Tls => f.write_str("tls"),
            Failure::Connection => f.write_str("connection"),
            Failure::Status(status) => write!(f, "status {status}"),
        }
    }
}

impl Failure {
    /// The category of an error from sending a request.
    pub fn of(error: &SendRequestError) -> Failure {
        match error {
            SendRequestError::Timeout => Failure::Timeout,
            SendRequestError::Connect(e) => match e {
                ConnectError::Timeout => Failure::Timeout,
                ConnectError::Resolver(_) | ConnectError::NoRecords | ConnectError::Unresolved => {
                    Failure::Dns
                }
                ConnectError::Io(e) => Failure::of_io(e),
                _ => Failure::Connection,
            },
            SendRequestError::Send(e) => Failure::of_io(e),
            _ => Failure::Connection,
        }
    }

    fn of_io(error: &io::Error) -> Failure {
        match error.kind() {
            io::ErrorKind::ConnectionRefused => Failure::Refused,
            io::ErrorKind::TimedOut => Failure::Timeout,
            // What rustls's handshake fails with (a bad certificate, no common protocol).
            io::ErrorKind::InvalidData => Failure::Tls,
            _ => Failure::Connection,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_owner_sees_a_category_and_never_the_error_text() {
        let io = |kind| {
            SendRequestError::Connect(ConnectError::Io(io::Error::new(
                kind,
                "10.0.0.7:22: SSH-2.0-OpenSSH",
            )))
        };
        for (error, shown) in [
            (io(io::ErrorKind::ConnectionRefused), "refused"),
            (io(io::ErrorKind::TimedOut), "timeout"),
            (io(io::ErrorKind::InvalidData), "tls"),
            (io(io::ErrorKind::ConnectionReset), "connection"),
            (SendRequestError::Connect(ConnectError::Timeout), "timeout"),
            (SendRequestError::Connect(ConnectError::NoRecords), "dns"),
            (SendRequestError::Timeout, "timeout"),
            (
                SendRequestError::Send(io::Error::new(io::ErrorKind::BrokenPipe, "x")),
                "connection",
            ),
        ] {
            assert_eq!(Failure::of(&error).to_string(), shown, "{error}");
        }
        assert_eq!(Failure::Status(503).to_string(), "status 503");
        assert_eq!(Failure::NotPublicAddress.to_string(), "not_public_address");
    }
}
