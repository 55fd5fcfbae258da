//! Pause points: places in a read where a test can stop it, commit a command meanwhile, and let
//! it go on, so that a race between a read and a write is reproduced deterministically instead of
//! hoped for. Compiled in only with the `pause-points` feature (the end-to-end tests turn it
//! on); without it, reaching a point is an empty inline function.

/// A read has read its game's head (version, status, the reader's seat) and nothing else yet.
pub const READ_HEAD: &str = "read: head";

/// An append, alone or in a batch, has prepared its statement (the command decided, its events
/// hashed) and is about to send it: a test can make the statement's answer be lost after its
/// commit.
pub const APPEND_SENDING: &str = "append: sending";

#[cfg(feature = "pause-points")]
mod armed {
    use std::sync::Mutex;

    use tokio::sync::oneshot;

    /// One armed point: the next request reaching it reports and waits to be resumed.
    struct Armed {
        point: &'static str,
        reached: oneshot::Sender<()>,
        resume: oneshot::Receiver<()>,
    }

    #[derive(Default)]
    pub struct PausePoints {
        armed: Mutex<Vec<Armed>>,
    }

    /// A pause armed by a test.
    pub struct Paused {
        reached: oneshot::Receiver<()>,
        resume: oneshot::Sender<()>,
    }

    impl Paused {
        /// Waits until a request stops at the point.
        pub async fn reached(&mut self) {
            (&mut self.reached)
                .await
                .expect("the paused request is alive");
        }

        /// Lets the stopped request go on.
        pub fn resume(self) {
            let _ = self.resume.send(());
        }
    }

    impl PausePoints {
        pub fn arm(&self, point: &'static str) -> Paused {
            let (reached_tx, reached_rx) = oneshot::channel();
            let (resume_tx, resume_rx) = oneshot::channel();
            self.armed.lock().unwrap().push(Armed {
                point,
                reached: reached_tx,
                resume: resume_rx,
            });
            Paused {
                reached: reached_rx,
                resume: resume_tx,
            }
        }

        pub async fn reach(&self, point: &'static str) {
            let armed = {
                let mut armed = self.armed.lock().unwrap();
                match armed.iter().position(|a| a.point == point) {
                    Some(i) => armed.remove(i),
                    None => return,
                }
            };
            let _ = armed.reached.send(());
            let _ = armed.resume.await;
        }
    }
}

#[cfg(feature = "pause-points")]
pub use armed::{PausePoints, Paused};

#[cfg(not(feature = "pause-points"))]
#[derive(Default)]
pub struct PausePoints;

#[cfg(not(feature = "pause-points"))]
impl PausePoints {
    #[inline(always)]
    pub async fn reach(&self, _point: &'static str) {}
}
