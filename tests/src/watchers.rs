//! Many live streams watching games while they are played (the benchmark's `--streams=N`):
//! each stream is a spectator's `GET /v1/games/{id}/stream`, and every event that arrives is
//! timed from the moment the server recorded the command that made it (`recorded_at`, taken
//! when the command arrived, before its transaction commits: so each delay is an upper bound of
//! the delay from commit to arrival, by the command's own decide-and-commit time).

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::sse::Stream;

/// What the watchers saw.
#[derive(Default)]
pub struct Watched {
    /// Microseconds from `recorded_at` (a whole millisecond, so up to 1 ms early) to arrival,
    /// one per event received.
    pub delays_us: Vec<u64>,
    /// Streams that were open (answered 200) when the watching began; a refused one is not.
    pub open: usize,
    /// Open streams that ended before the time was up.
    pub ended: usize,
}

/// Streams opened and reading: `finish` ends them and hands over what they saw.
pub struct Watchers {
    seen: Rc<RefCell<Watched>>,
    tasks: Vec<actix_web::rt::task::JoinHandle<()>>,
}

/// Opens `count` spectator streams over `games` (round robin) on `base`, each through
/// `client` (give it a connection limit above `count`), and waits until every one has sent its
/// first status, so that opening costs nothing during the measured time. They record until
/// [`Watchers::finish`].
pub async fn watch(client: &awc::Client, base: &str, games: &[i64], count: usize) -> Watchers {
    let seen = Rc::new(RefCell::new(Watched::default()));
    let mut opening = Vec::with_capacity(count);
    for i in 0..count {
        let url = format!("{base}/v1/games/{}/stream", games[i % games.len()]);
        opening.push(actix_web::rt::spawn(first_status(client.get(url))));
    }
    let mut streams = Vec::with_capacity(count);
    for o in opening {
        if let Some(stream) = o.await.ok().flatten() {
            streams.push(stream);
        }
    }
    seen.borrow_mut().open = streams.len();
    let tasks = streams
        .into_iter()
        .map(|s| actix_web::rt::spawn(read(s, seen.clone())))
        .collect();
    Watchers { seen, tasks }
}

impl Watchers {
    /// Stops every stream (after giving the last events `grace` to arrive).
    pub async fn finish(self, grace: Duration) -> Watched {
        actix_web::rt::time::sleep(grace).await;
        for t in &self.tasks {
            t.abort();
        }
        for t in self.tasks {
            let _ = t.await;
        }
        Rc::try_unwrap(self.seen)
            .map(RefCell::into_inner)
            .unwrap_or_else(|rc| std::mem::take(&mut *rc.borrow_mut()))
    }
}

/// Opens one stream and reads up to its first status message.
async fn first_status(request: awc::ClientRequest) -> Option<Stream> {
    let mut stream = Stream::open(request).await;
    if stream.status != 200 {
        return None;
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let m = stream.next_any(Duration::from_secs(60)).await?;
        if m.event == "status" {
            return Some(stream);
        }
    }
    None
}

/// Records each event's delay until the stream ends or the task is aborted.
async fn read(mut stream: Stream, seen: Rc<RefCell<Watched>>) {
    loop {
        let Some(m) = stream.next_any(Duration::from_secs(3600)).await else {
            seen.borrow_mut().ended += 1;
            return;
        };
        if m.event != "event" {
            continue;
        }
        let arrived = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_micros() as i64);
        if let Some(recorded) = m.data["recorded_at"]
            .as_str()
            .and_then(baumeister_storage::parse_rfc3339)
        {
            seen.borrow_mut()
                .delays_us
                .push((arrived - recorded * 1000).max(0) as u64);
        }
    }
}
