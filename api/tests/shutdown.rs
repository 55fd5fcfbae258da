//! Stopping gracefully (docs/operations.md, "Shutdown"): the real binary, with a live stream
//! open and a command in flight (its head sent, its body not yet), gets SIGTERM. It stops
//! accepting connections, tells the stream to reconnect and closes it, finishes the command
//! (200, stored, in the log) and exits 0 well within `SHUTDOWN_TIMEOUT_SECONDS`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use baumeister_tests::{database, drop_database, fresh_database};

mod raw_http;

/// A GET on a connection kept alive: status, head and body (read by its `Content-Length`).
fn ask(conn: &mut TcpStream, path: &str) -> (u16, String, String) {
    conn.write_all(format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes())
        .unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let n = conn.read(&mut buffer).unwrap();
        assert!(n > 0, "closed before an answer");
        bytes.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&bytes).to_string();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().unwrap())
                })
                .expect("a Content-Length");
            if body.len() >= length {
                let status = head.split(' ').nth(1).unwrap().parse().unwrap();
                return (status, head.to_string(), body.to_string());
            }
        }
    }
}
use raw_http::{
    call, exit_within, free_port, game, head, next_move, player, read_answer, serve, signal,
    wait_ready,
};

/// A live stream of game `id`, open once its first bytes have come; the thread reading it
/// answers all it received when the server closes it.
fn open_stream(port: u16, id: i64) -> std::thread::JoinHandle<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .write_all(format!("GET /v1/games/{id}/stream HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes())
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut seen = String::new();
    while !seen.contains("retry:") {
        let mut buffer = [0u8; 4096];
        let n = stream.read(&mut buffer).unwrap();
        assert!(n > 0, "the stream ended early: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    std::thread::spawn(move || {
        let mut rest = Vec::new();
        // Ends when the server closes the stream's connection.
        let _ = stream.read_to_end(&mut rest);
        seen + &String::from_utf8_lossy(&rest)
    })
}

/// The server's log of the stop: that it is stopping, the command's line, `stopped` last.
fn assert_logged(log: &str, path: &str) {
    assert!(log.contains("stopping"), "{log}");
    assert!(
        log.lines().any(|l| l.contains("handled")
            && l.contains(&format!("path={path}"))
            && l.contains("status=200")),
        "the command's line: {log}"
    );
    assert!(
        log.lines().last().unwrap_or("").contains("stopped"),
        "{log}"
    );
}

#[actix_web::test]
async fn sigterm_tells_streams_to_reconnect_finishes_the_command_in_flight_and_exits_0() {
    let db = fresh_database().await;
    let port = free_port();
    let mut server = serve(
        &db,
        port,
        &[
            ("RUST_LOG", "info,baumeister_api=debug"),
            ("SHUTDOWN_TIMEOUT_SECONDS", "20"),
        ],
    );
    // Standard error, read as it comes (a full pipe would stall the server).
    let stderr = server.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        let mut stderr = stderr;
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    wait_ready(port);
    let tokens = [player(port, "ada"), player(port, "bea")];
    let id = game(port, &tokens);

    let streamed = open_stream(port, id);

    // A command in flight: its head is read, its body not yet sent.
    let (token, body) = next_move(port, id, &tokens);
    let body = body.to_string();
    let mut command = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let path = format!("/v1/games/{id}/commands");
    command
        .write_all(head("POST", &path, Some(&token), body.len()).as_bytes())
        .unwrap();
    // A connection kept alive after a first request.
    let mut kept = TcpStream::connect(("127.0.0.1", port)).unwrap();
    assert_eq!(ask(&mut kept, "/readyz").0, 200);
    std::thread::sleep(Duration::from_millis(300));

    let stopping = Instant::now();
    signal(&server, "TERM");
    std::thread::sleep(Duration::from_millis(200));
    // What a connection already open asks meanwhile is answered, not ready, and the connection
    // is not kept.
    let (status, ready_head, ready) = ask(&mut kept, "/readyz");
    assert_eq!(status, 503, "{ready_head}\n{ready}");
    assert!(ready.contains("\"stopping\":true"), "{ready}");
    assert!(
        ready_head
            .to_ascii_lowercase()
            .contains("connection: close"),
        "{ready_head}"
    );
    // New connections are refused at once.
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_ok() {
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "still accepting connections after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The stream was told to reconnect, and closed.
    let streamed = streamed.join().unwrap();
    assert!(
        streamed.contains("event: reconnect") && streamed.contains("retry: 2000"),
        "{streamed}"
    );
    // The command's body comes after the signal: it is still served, and stored.
    command.write_all(body.as_bytes()).unwrap();
    let answer = read_answer(command);
    assert_eq!(answer.status, 200, "{}: {}", answer.head, answer.body);
    assert_eq!(
        answer.header("connection"),
        Some("close"),
        "{}",
        answer.head
    );
    let version = answer.body["version"].as_i64().unwrap();

    let status = exit_within(&mut server, Duration::from_secs(15));
    assert!(status.success(), "exited with {status}");
    assert!(
        stopping.elapsed() < Duration::from_secs(15),
        "took {:?}",
        stopping.elapsed()
    );
    eprintln!("stopped {:?} after SIGTERM", stopping.elapsed());
    assert_logged(&log.join().unwrap(), &path);
    let stored: i64 = database(&db)
        .await
        .query_one(
            "SELECT count(*) FROM events WHERE game_id = $1 AND version = $2",
            &[&id, &version],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, 1, "the command's events are stored");
    assert_eq!(call(port, "GET", "/healthz", None, None).status, 0, "gone");
    drop_database(&db).await;
}
