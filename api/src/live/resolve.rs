//! Looking up a webhook's host. The worker resolves a host once per attempt, checks every
//! address and connects to one of exactly those; the lookup sits behind a trait so that tests
//! can answer differently at registration and at delivery (DNS rebinding) without real DNS.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

/// A lookup under way.
pub type Lookup = Pin<Box<dyn Future<Output = io::Result<Vec<SocketAddr>>> + Send>>;

/// Resolves a host name (never an address literal: those are not looked up) to addresses.
pub trait Resolve: Send + Sync + fmt::Debug {
    fn lookup(&self, host: &str, port: u16) -> Lookup;
}

/// The operating system's resolver (`getaddrinfo`, on a blocking thread).
#[derive(Debug, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn lookup(&self, host: &str, port: u16) -> Lookup {
        let host = host.to_string();
        Box::pin(async move {
            Ok(tokio::net::lookup_host((host.as_str(), port))
                .await?
                .collect())
        })
    }
}

/// The resolver a server uses (shared by the registration check and the worker).
#[derive(Clone)]
pub struct Resolver(pub Arc<dyn Resolve>);

impl Resolver {
    pub fn new(resolve: impl Resolve + 'static) -> Self {
        Resolver(Arc::new(resolve))
    }

    pub fn lookup(&self, host: &str, port: u16) -> Lookup {
        self.0.lookup(host, port)
    }
}

impl Default for Resolver {
    fn default() -> Self {
        Resolver::new(SystemResolver)
    }
}

impl fmt::Debug for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
