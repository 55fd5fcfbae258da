//! PostgreSQL's own ceiling for a durable command, as the benchmark and the failover check
//! measure it: `connections` connections, each committing one single-row INSERT of an event's
//! size per transaction, for a while. Whatever the server does per command costs more than this.

use std::time::{Duration, Instant};

use serde_json::json;
use tokio_postgres::NoTls;

/// What the ceiling measured: transactions per second, their latencies (µs, sorted) and
/// PostgreSQL's CPU time per transaction (ms; NaN when its processes are not on this machine).
pub struct Ceiling {
    pub tps: f64,
    pub latencies: Vec<u64>,
    pub cpu_ms: f64,
}

/// Measures the ceiling for `seconds`, writing into `table` (created when missing).
pub async fn commit_ceiling(url: &str, table: &str, connections: usize, seconds: u64) -> Ceiling {
    let admin = connect(url).await;
    admin
        .batch_execute(&format!("CREATE TABLE IF NOT EXISTS {table} (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, game_id bigint NOT NULL, payload jsonb NOT NULL)"))
        .await
        .unwrap();
    let until = Instant::now() + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..connections)
        .map(|n| actix_web::rt::spawn(commit_until(url.to_string(), table.to_string(), n, until)))
        .collect();
    let mut all = Vec::new();
    let mut cpu = 0.0;
    for t in tasks {
        let (latencies, used) = t.await.unwrap();
        all.extend(latencies);
        cpu += used;
    }
    all.sort_unstable();
    Ceiling {
        tps: all.len() as f64 / seconds as f64,
        cpu_ms: cpu / all.len().max(1) as f64,
        latencies: all,
    }
}

/// One connection's commits until `until`: their latencies (µs) and its backend's CPU time.
async fn commit_until(url: String, table: String, n: usize, until: Instant) -> (Vec<u64>, f64) {
    let client = connect(&url).await;
    let insert = client
        .prepare(&format!(
            "INSERT INTO {table} (game_id, payload) VALUES ($1, $2)"
        ))
        .await
        .unwrap();
    let backend = client
        .query_one("SELECT pg_backend_pid()", &[])
        .await
        .unwrap()
        .get::<_, i32>(0) as u32;
    let cpu_before = cpu_ms(backend);
    let payload = json!({"type": "CardPlaced", "seat": 1, "slot": 7});
    let mut latencies = Vec::new();
    while Instant::now() < until {
        let started = Instant::now();
        client
            .execute(&insert, &[&(n as i64), &payload])
            .await
            .unwrap();
        latencies.push(started.elapsed().as_micros() as u64);
    }
    let cpu = cpu_before
        .zip(cpu_ms(backend))
        .map_or(f64::NAN, |(a, b)| b - a);
    (latencies, cpu)
}

/// A connection, waiting up to a minute for the database to take one (a cluster's new primary
/// may still be on its way).
async fn connect(url: &str) -> tokio_postgres::Client {
    for _ in 0..120 {
        if let Ok((client, connection)) = tokio_postgres::connect(url, NoTls).await {
            actix_web::rt::spawn(connection);
            return client;
        }
        actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    }
    panic!("no database answers on {url}");
}

/// The CPU time (ms) a process of this machine has used so far: user and system time from
/// `/proc/<pid>/stat`; none when there is no such process here.
pub fn cpu_ms(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // USER_HZ is 100 on every Linux this runs on.
    Some(ticks * 10.0)
}
