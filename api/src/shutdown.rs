//! Stopping on SIGTERM or SIGINT: the listener stops accepting, open live streams are told to
//! reconnect (to another process, or to this service once it is back) and closed, requests in
//! flight are finished (at most `SHUTDOWN_TIMEOUT_SECONDS`), and the process exits 0.

use tokio::sync::watch;

/// Whether this process is stopping; every live stream watches it.
pub struct Shutdown {
    stopping: watch::Sender<bool>,
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown {
            stopping: watch::channel(false).0,
        }
    }
}

impl Shutdown {
    /// Tells every stream, those opened from now on too, that the process stops.
    pub fn begin(&self) {
        self.stopping.send_replace(true);
    }

    pub fn is_stopping(&self) -> bool {
        *self.stopping.borrow()
    }

    /// Resolves once the process stops (at once when it already does).
    pub fn stopped(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut stopping = self.stopping.subscribe();
        async move {
            // An error means the sender is gone: the server state, and so the process, ends.
            let _ = stopping.wait_for(|s| *s).await;
        }
    }
}

/// Resolves with the signal's name on the first SIGTERM or SIGINT.
pub async fn signalled() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate()).expect("SIGTERM can be handled");
        let mut int = signal(SignalKind::interrupt()).expect("SIGINT can be handled");
        tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = int.recv() => "SIGINT",
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}
