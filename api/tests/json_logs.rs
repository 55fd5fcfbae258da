//! `LOG_FORMAT=json` (docs/operations.md, "Logs"): every line the binary writes is one JSON
//! object, and a refused command's request id, the one in its `X-Request-Id` header and in its
//! problem body (`request_id`), is on the log lines of its request: the operator finds a
//! player's report in the log.

use std::io::Read;
use std::time::Duration;

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{drop_database, fresh_database};

mod raw_http;
use raw_http::{call, exit_within, free_port, game, next_move, player, serve, signal, wait_ready};

/// Whether a log line was written in the request span with id `id`.
fn of_request(line: &Value, id: &str) -> bool {
    let in_span = |span: &Value| span["name"] == "request" && span["id"] == id;
    in_span(&line["span"])
        || line["spans"]
            .as_array()
            .is_some_and(|spans| spans.iter().any(in_span))
}

#[actix_web::test]
async fn json_lines_carry_the_request_id_that_a_refused_commands_problem_names() {
    let db = fresh_database().await;
    let port = free_port();
    let mut server = serve(
        &db,
        port,
        &[
            ("LOG_FORMAT", "json"),
            ("RUST_LOG", "info,baumeister_api=debug"),
        ],
    );
    let mut stderr = server.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    wait_ready(port);
    let tokens = [player(port, "ada"), player(port, "bea")];
    let id = game(port, &tokens);
    // The seat NOT to act sends a move: refused.
    let (token, _) = next_move(port, id, &tokens);
    let other = tokens.iter().find(|t| **t != token).unwrap();
    let refused = call(
        port,
        "POST",
        &format!("/v1/games/{id}/commands"),
        Some(other),
        Some(&json!({"command": {"type": "ReturnCard"}})),
    );
    assert!(
        (400..500).contains(&refused.status),
        "{}: {}",
        refused.status,
        refused.body
    );
    let request_id = refused.body["request_id"]
        .as_str()
        .expect("the problem names its request")
        .to_string();
    assert_eq!(refused.header("x-request-id"), Some(request_id.as_str()));
    let code = refused.body["code"].as_str().unwrap().to_string();

    signal(&server, "TERM");
    assert!(exit_within(&mut server, Duration::from_secs(15)).success());
    let log = log.join().unwrap();
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(lines.len() > 3, "{log}");
    for line in &lines {
        assert!(
            line["timestamp"].is_string() && line["level"].is_string(),
            "{line}"
        );
        assert!(line["fields"].is_object(), "{line}");
    }
    let mine: Vec<&Value> = lines
        .iter()
        .filter(|l| of_request(l, &request_id))
        .collect();
    assert!(!mine.is_empty(), "no line of request {request_id}: {log}");
    assert!(
        mine.iter().any(|l| l["fields"]["status"] == refused.status
            && l["fields"]["path"] == format!("/v1/games/{id}/commands")),
        "the refused command's line: {mine:?}"
    );
    // Other requests' lines carry their own ids, not this one.
    let others = lines
        .iter()
        .filter(|l| l["fields"]["message"] == "handled" && !of_request(l, &request_id))
        .count();
    assert!(others > 3, "every request has a line of its own");
    eprintln!("{code}: {} lines of request {request_id}", mine.len());
    drop_database(&db).await;
}
