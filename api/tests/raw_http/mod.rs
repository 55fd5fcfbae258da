//! The binary as a process of its own, and plain HTTP/1.1 to it over a socket, for the tests
//! that watch the process itself (`shutdown.rs`, `json_logs.rs`): what it writes to its
//! standard error, how it answers signals, how it exits. Each test file includes this with
//! `mod raw_http;`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub use baumeister_tests::process::free_port;
use baumeister_tests::process::serve_command;
use baumeister_tests::serde_json::{json, Value};

/// `serve` on database `db` and `port`, with `env` besides; standard error is piped to the test.
pub fn serve(db: &str, port: u16, env: &[(&str, &str)]) -> Child {
    let mut command = serve_command(env!("CARGO_BIN_EXE_baumeister"), db, port);
    command.stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    command.spawn().expect("the binary starts")
}

/// An answer: status, head (status line and headers, as sent) and the JSON body (`Null` when
/// it is none).
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: Value,
}

impl Answer {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// The head of a request (`Connection: close`), with a JSON body of `length` bytes to follow.
pub fn head(method: &str, path: &str, token: Option<&str>, length: usize) -> String {
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n"
    );
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    head.push_str("\r\n");
    head
}

/// Reads an answer to its end (the server closes the connection after it).
pub fn read_answer(mut stream: TcpStream) -> Answer {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).expect("the answer reads");
    let text = String::from_utf8(bytes).expect("UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    Answer {
        status: head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0),
        head: head.to_string(),
        body: serde_json::from_str(body).unwrap_or(Value::Null),
    }
}

/// One request, its answer; status 0 when nothing listens.
pub fn call(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return Answer {
            status: 0,
            head: String::new(),
            body: Value::Null,
        };
    };
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    stream
        .write_all(head(method, path, token, body.len()).as_bytes())
        .unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    read_answer(stream)
}

/// Waits until the process answers `/readyz`.
pub fn wait_ready(port: u16) {
    let started = Instant::now();
    while call(port, "GET", "/readyz", None, None).status != 200 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Registers `name` and logs in: the token.
pub fn player(port: u16, name: &str) -> String {
    let body = json!({"name": name, "password": "a password of the process tests"});
    let r = call(port, "POST", "/v1/accounts", None, Some(&body));
    assert_eq!(r.status, 201, "{}", r.body);
    let r = call(port, "POST", "/v1/tokens", None, Some(&body));
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["token"].as_str().unwrap().to_string()
}

/// A two-seat Burgbaumeister game of `tokens[0]` (seat 0) and `tokens[1]`: its id.
pub fn game(port: u16, tokens: &[String; 2]) -> i64 {
    let r = call(
        port,
        "POST",
        "/v1/games",
        Some(&tokens[0]),
        Some(&json!({"kind": "burgbaumeister", "seats": 2})),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let r = call(
        port,
        "POST",
        &format!("/v1/games/{id}/join"),
        Some(&tokens[1]),
        Some(&json!({})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

/// The token of the seat to act in game `id`, and its first listed command.
pub fn next_move(port: u16, id: i64, tokens: &[String; 2]) -> (String, Value) {
    let game = call(port, "GET", &format!("/v1/games/{id}"), None, None);
    let seat = game.body["to_act"][0].as_u64().expect("a seat to act") as usize;
    let token = tokens[seat].clone();
    let moves = call(
        port,
        "GET",
        &format!("/v1/games/{id}/moves"),
        Some(&token),
        None,
    );
    let command = moves.body["moves"][0]["command"].clone();
    assert!(command.is_object(), "{}", moves.body);
    (token, json!({ "command": command }))
}

/// Sends `signal` (`TERM`, `INT`) to the process.
pub fn signal(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// Waits at most `within` for the process to exit: its exit status.
pub fn exit_within(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > within {
            let _ = child.kill();
            panic!("the process did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
