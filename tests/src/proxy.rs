//! A TCP proxy between a server under test and PostgreSQL, to take the database away and give
//! it back without touching the real one (which other tests share): `cut` closes every
//! connection through it and refuses new ones until `restore`; `lose_answers` lets statements
//! through but closes a connection instead of passing on what PostgreSQL answers, as a primary
//! that dies right after a commit does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

pub struct Proxy {
    /// The port the proxy listens on (127.0.0.1).
    pub port: u16,
    up: Arc<AtomicBool>,
    losing: Arc<AtomicBool>,
    connections: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accepting: JoinHandle<()>,
}

impl Proxy {
    /// A proxy to `upstream` (`host:port`), passing connections through until cut.
    pub async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let losing = Arc::new(AtomicBool::new(false));
        let connections: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let accepting = {
            let (up, losing, connections) = (up.clone(), losing.clone(), connections.clone());
            tokio::spawn(async move {
                loop {
                    let Ok((client, _)) = listener.accept().await else {
                        continue;
                    };
                    if !up.load(Ordering::SeqCst) {
                        // Down: the connection is closed at once, as by a database that is
                        // not there.
                        drop(client);
                        continue;
                    }
                    let (upstream, losing) = (upstream.clone(), losing.clone());
                    let task = tokio::spawn(async move {
                        if let Ok(server) = TcpStream::connect(&upstream).await {
                            relay(client, server, losing).await;
                        }
                    });
                    let mut connections = connections.lock().unwrap();
                    connections.retain(|t| !t.is_finished());
                    connections.push(task);
                }
            })
        };
        Proxy {
            port,
            up,
            losing,
            connections,
            accepting,
        }
    }

    /// Closes every connection through the proxy and refuses new ones.
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for task in self.connections.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    /// Lets connections through again, answers and all.
    pub fn restore(&self) {
        self.losing.store(false, Ordering::SeqCst);
        self.up.store(true, Ordering::SeqCst);
    }

    /// From now on, whatever PostgreSQL answers on a connection closes it instead (on both
    /// sides): what was sent is done, what it did is never told. Until `restore`.
    pub fn lose_answers(&self) {
        self.losing.store(true, Ordering::SeqCst);
    }
}

/// Passes bytes both ways until either side closes, or until PostgreSQL answers while answers
/// are being lost: then both sockets are dropped unanswered.
async fn relay(client: TcpStream, server: TcpStream, losing: Arc<AtomicBool>) {
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    let requests = async {
        let _ = tokio::io::copy(&mut from_client, &mut to_server).await;
    };
    let answers = async {
        let mut buffer = vec![0u8; 16 * 1024];
        loop {
            let n = match from_server.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            if losing.load(Ordering::SeqCst) || to_client.write_all(&buffer[..n]).await.is_err() {
                return;
            }
        }
    };
    tokio::select! {
        () = requests => {}
        () = answers => {}
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.cut();
        self.accepting.abort();
    }
}
