//! Metrics in Prometheus's text format (`GET /metrics`, see `routes/metrics.rs`): one recorder
//! per process, fed through the `metrics` facade by the api and the storage crates, rendered
//! when scraped. Every label has few values: routes by their pattern, never by the raw path.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

pub mod http;

/// Buckets of every `…_seconds` histogram: a millisecond to ten seconds.
const SECONDS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Buckets of the group commit's batch sizes (at most `batch::MOST` appends).
const BATCH: &[f64] = &[1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// How often histograms' recent samples are folded into their buckets: they are kept one by
/// one until then.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The process's recorder, installed by the first call (a test process runs several servers,
/// which share it). Until it is, every metric is a no-op: a server without `METRICS_TOKEN`
/// never installs it and pays nothing.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)
            .and_then(|b| {
                b.set_buckets_for_metric(
                    Matcher::Full("baumeister_append_batch_size".into()),
                    BATCH,
                )
            })
            .expect("the buckets are not empty")
            .install_recorder()
            .expect("no other metrics recorder is installed");
        describe();
        handle
    })
}

/// Whether metrics are recorded in this process (labels need not be made otherwise).
pub fn recording() -> bool {
    HANDLE.get().is_some()
}

/// Folds the histograms' samples into their buckets every few seconds, for ever (the recorder
/// holds each sample until then, scraped or not). Spawn it once per server that records.
pub async fn upkeep() {
    let mut every = tokio::time::interval(UPKEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        handle().run_upkeep();
    }
}

/// The `# HELP` lines.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_histogram!(
        "baumeister_http_request_duration_seconds",
        Unit::Seconds,
        "HTTP requests by route pattern, method and status: time to the response's head"
    );
    describe_counter!(
        "baumeister_commands_total",
        "Commands by game kind and result (`accepted`, or the refusal's problem code)"
    );
    describe_histogram!(
        "baumeister_append_batch_size",
        "Appends per group-commit statement (APPEND_BATCHES)"
    );
    describe_histogram!(
        "baumeister_pool_wait_seconds",
        Unit::Seconds,
        "Time to get a database connection from the pool"
    );
    describe_gauge!(
        "baumeister_live_streams_open",
        "Live streams (SSE) open in this process"
    );
    describe_gauge!(
        "baumeister_outbox_pending",
        "Deliveries neither delivered nor given up, by outbox (webhooks, notices); read at scrape"
    );
    describe_gauge!(
        "baumeister_outbox_oldest_age_seconds",
        Unit::Seconds,
        "Age of the oldest pending delivery, by outbox; read at scrape"
    );
    describe_gauge!(
        "baumeister_bot_moves_waiting",
        "Bot moves the last sweep found waiting and could not start yet"
    );
    describe_gauge!(
        "baumeister_bot_moves_running",
        "Bot moves being thought or sent now"
    );
    describe_histogram!(
        "baumeister_bot_think_seconds",
        Unit::Seconds,
        "A bot's search for its move, by level"
    );
    describe_counter!(
        "baumeister_turn_clock_actions_total",
        "What the deadline sweep did: round_deadline, default_move, handed_to_bot, deadline_dropped"
    );
}

/// A command's result, counted by its game's kind (`unknown` when this process has not read the
/// game: a refusal before any read, e.g. an unknown game).
pub fn command(kind: Option<&'static str>, result: &str) {
    metrics::counter!(
        "baumeister_commands_total",
        "kind" => kind.unwrap_or("unknown"),
        "result" => result.to_string()
    )
    .increment(1);
}

/// A bot's search took `took`.
pub fn bot_thought(level: &'static str, took: Duration) {
    metrics::histogram!("baumeister_bot_think_seconds", "level" => level).record(took);
}

/// The bot schedule's queue after a sweep.
pub fn bot_queue(waiting: usize, running: usize) {
    metrics::gauge!("baumeister_bot_moves_waiting").set(waiting as f64);
    metrics::gauge!("baumeister_bot_moves_running").set(running as f64);
}

/// One more (or one less) live stream open.
pub fn stream_opened() {
    metrics::gauge!("baumeister_live_streams_open").increment(1.0);
}

pub fn stream_closed() {
    metrics::gauge!("baumeister_live_streams_open").decrement(1.0);
}

/// The outboxes as just read.
pub fn backlogs(backlogs: &baumeister_storage::Backlogs) {
    for (outbox, backlog) in [
        ("webhooks", backlogs.webhooks),
        ("notices", backlogs.notices),
    ] {
        metrics::gauge!("baumeister_outbox_pending", "outbox" => outbox)
            .set(backlog.pending as f64);
        metrics::gauge!("baumeister_outbox_oldest_age_seconds", "outbox" => outbox)
            .set(backlog.oldest_seconds);
    }
}
