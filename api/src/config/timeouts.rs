//! How long a client may take over its part of a connection.

use std::time::Duration;

use super::env::at_least_a_second;

/// How long a client may take over its part of a connection (docs/configuration.md), so that a
/// client that trickles its request or stops reading holds a connection for seconds, not forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientTimeouts {
    /// `CLIENT_HEADER_TIMEOUT_SECONDS`: a request's line and headers, from their first byte
    /// (from the connection's start for its first request); late: 408, or the connection closed.
    pub header: Duration,
    /// `CLIENT_BODY_TIMEOUT_SECONDS`: a request's whole body, from the end of its headers;
    /// late: 408 `request_timeout` and the connection closed.
    pub body: Duration,
    /// `SEND_TIMEOUT_SECONDS`: how long a response may wait for the client to read any of it.
    pub send: Duration,
    /// `KEEP_ALIVE_SECONDS`: how long an idle connection is kept between requests.
    pub keep_alive: Duration,
    /// `CLIENT_DISCONNECT_TIMEOUT_SECONDS`: how long a closing connection waits for the client's
    /// side of the close.
    pub disconnect: Duration,
}

impl Default for ClientTimeouts {
    fn default() -> Self {
        ClientTimeouts {
            header: Duration::from_secs(5),
            body: Duration::from_secs(10),
            send: Duration::from_secs(30),
            keep_alive: Duration::from_secs(15),
            disconnect: Duration::from_secs(1),
        }
    }
}

impl ClientTimeouts {
    pub(super) fn from_env() -> Result<ClientTimeouts, String> {
        let d = ClientTimeouts::default();
        Ok(ClientTimeouts {
            header: at_least_a_second("CLIENT_HEADER_TIMEOUT_SECONDS", d.header)?,
            body: at_least_a_second("CLIENT_BODY_TIMEOUT_SECONDS", d.body)?,
            send: at_least_a_second("SEND_TIMEOUT_SECONDS", d.send)?,
            keep_alive: at_least_a_second("KEEP_ALIVE_SECONDS", d.keep_alive)?,
            disconnect: at_least_a_second("CLIENT_DISCONNECT_TIMEOUT_SECONDS", d.disconnect)?,
        })
    }
}
