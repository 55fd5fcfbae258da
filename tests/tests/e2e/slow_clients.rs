//! Slow clients: a client that trickles its request (headers or body) byte by byte, or reads
//! nothing of its responses, is cut off within its bound while everybody else is served
//! meanwhile; idle connections hold nobody up; live streams outlast every bound.

use std::time::{Duration, Instant};

use baumeister_api::config::ClientTimeouts;
use baumeister_tests::serde_json::json;
use baumeister_tests::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Short bounds, so that the tests take seconds.
const QUICK: ClientTimeouts = ClientTimeouts {
    header: Duration::from_secs(1),
    body: Duration::from_secs(2),
    send: Duration::from_secs(2),
    keep_alive: Duration::from_secs(2),
    disconnect: Duration::from_secs(1),
};

/// How much later than its bound a cut may come on a loaded machine.
const SLACK: Duration = Duration::from_millis(2500);

async fn start() -> TestServer {
    TestServer::start_with(|c| {
        c.timeouts = QUICK;
        c.live.keepalive = Duration::from_secs(1);
    })
    .await
}

async fn connect(s: &TestServer) -> TcpStream {
    TcpStream::connect(s.base.trim_start_matches("http://"))
        .await
        .unwrap()
}

/// How a trickle ended: what the server answered (empty when it just closed) and when,
/// counted from the first byte.
struct Cut {
    answer: String,
    after: Duration,
}

/// Sends `bytes` one every `pause` until the server answers or closes the connection.
async fn trickle(conn: &mut TcpStream, bytes: &[u8], pause: Duration) -> Cut {
    let start = Instant::now();
    for byte in bytes {
        if conn.write_all(&[*byte]).await.is_err() {
            return Cut {
                answer: String::new(),
                after: start.elapsed(),
            };
        }
        let mut buf = [0u8; 4096];
        match tokio::time::timeout(pause, conn.read(&mut buf)).await {
            Err(_) => continue,
            Ok(Ok(n)) => {
                let after = start.elapsed();
                let mut answer = buf[..n].to_vec();
                let _ = tokio::time::timeout(Duration::from_secs(2), conn.read_to_end(&mut answer))
                    .await;
                return Cut {
                    answer: String::from_utf8_lossy(&answer).into_owned(),
                    after,
                };
            }
            Ok(Err(_)) => {
                return Cut {
                    answer: String::new(),
                    after: start.elapsed(),
                }
            }
        }
    }
    panic!(
        "the server took all of a trickled request ({} bytes)",
        bytes.len()
    );
}

/// Headers that never end.
fn endless_headers() -> Vec<u8> {
    let mut head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".to_vec();
    head.extend(std::iter::repeat_n(b'a', 10_000));
    head
}

/// Other clients' requests, answered quickly all along, until `until`.
async fn others_are_served(s: &TestServer, until: Duration) -> usize {
    let start = Instant::now();
    let mut served = 0;
    while start.elapsed() < until {
        let asked = Instant::now();
        // A connection of its own each time: a pooled one may be one the server is closing
        // (its keep-alive is short here), and a reset would say nothing of being served.
        let r = s
            .send(s.request("GET", "/v1/kinds", None).force_close(), None)
            .await;
        assert_eq!(r.status, 200);
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "another client waited {:?}",
            asked.elapsed()
        );
        served += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    served
}

fn assert_cut_within(cut: &Cut, bound: Duration) {
    assert!(
        cut.after + Duration::from_millis(100) >= bound,
        "cut after {:?}, before its bound {bound:?}",
        cut.after
    );
    assert!(
        cut.after <= bound + SLACK,
        "cut after {:?}, bound {bound:?}",
        cut.after
    );
}

#[actix_web::test]
async fn trickled_headers_of_a_first_request_get_408_in_time_while_others_are_served() {
    let s = start().await;
    let mut conn = connect(&s).await;
    let head = endless_headers();
    let (cut, served) = tokio::join!(
        trickle(&mut conn, &head, Duration::from_millis(50)),
        others_are_served(&s, QUICK.header + Duration::from_millis(500)),
    );
    assert!(cut.answer.starts_with("HTTP/1.1 408"), "{}", cut.answer);
    assert_cut_within(&cut, QUICK.header);
    assert!(served >= 3, "{served}");
    s.finish().await;
}

#[actix_web::test]
async fn trickled_headers_of_a_later_request_on_a_kept_alive_connection_are_cut_off_in_time() {
    let s = start().await;
    let mut conn = connect(&s).await;
    conn.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 4096];
    let n = conn.read(&mut buf).await.unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    // actix-web alone bounds only a connection's first request: these bytes would hold it forever.
    let head = endless_headers();
    let (cut, served) = tokio::join!(
        trickle(&mut conn, &head, Duration::from_millis(50)),
        others_are_served(&s, QUICK.header + Duration::from_millis(500)),
    );
    assert_eq!(cut.answer, "", "closed without an answer");
    assert_cut_within(&cut, QUICK.header);
    assert!(served >= 3, "{served}");
    s.finish().await;
}

#[actix_web::test]
async fn a_trickled_body_gets_408_request_timeout_in_time_while_others_are_served() {
    let s = start().await;
    let token = s.player("anna").await;
    let id = s.open_game(&token, "burgbaumeister", 2).await;
    let body = format!(
        "{{\"name\": \"anna\", \"password\": \"{}\"}}",
        "x".repeat(100)
    );
    let requests = [
        // A JSON body.
        format!(
            "POST /v1/tokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
        // An optional body read as bytes.
        format!(
            "POST /v1/games/{id}/join HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
        // Chunked, without a length.
        format!(
            "POST /v1/tokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        ),
    ];
    for request in requests {
        let (head, rest) = request.split_at(request.find("\r\n\r\n").unwrap() + 4);
        let mut conn = connect(&s).await;
        conn.write_all(head.as_bytes()).await.unwrap();
        let (cut, served) = tokio::join!(
            trickle(&mut conn, rest.as_bytes(), Duration::from_millis(50)),
            others_are_served(&s, QUICK.body + Duration::from_millis(500)),
        );
        assert!(cut.answer.starts_with("HTTP/1.1 408"), "{}", cut.answer);
        assert!(
            cut.answer.contains("application/problem+json"),
            "{}",
            cut.answer
        );
        assert!(cut.answer.contains("\"request_timeout\""), "{}", cut.answer);
        assert!(
            cut.answer
                .to_ascii_lowercase()
                .contains("connection: close"),
            "{}",
            cut.answer
        );
        assert_cut_within(&cut, QUICK.body);
        assert!(served >= 5, "{served}");
    }
    s.finish().await;
}

#[actix_web::test]
async fn a_client_that_reads_nothing_of_its_responses_is_cut_off() {
    let s = start().await;
    let spec = baumeister_api::openapi::spec_json().len();
    let pipelined = |n: usize| b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(n);
    let open = || async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        socket
            .connect(s.base.trim_start_matches("http://").parse().unwrap())
            .await
            .unwrap()
    };
    let read_all = |mut conn: TcpStream| async move {
        let mut total = 0;
        let mut buf = vec![0u8; 1 << 20];
        let start = Instant::now();
        while let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_millis(500), conn.read(&mut buf)).await
        {
            if n == 0 {
                return (total, true, start.elapsed());
            }
            total += n;
        }
        (total, false, start.elapsed())
    };

    // A client that reads gets every answer, however slowly it started.
    let mut reader = open().await;
    reader.write_all(&pipelined(20)).await.unwrap();
    tokio::time::sleep(QUICK.send / 2).await;
    let (total, _, _) = read_all(reader).await;
    assert!(total >= 20 * spec, "{total} bytes for 20 answers");

    // One that reads nothing is given up once its answers wait longer than the bound.
    let mut stalled = open().await;
    stalled.write_all(&pipelined(300)).await.unwrap();
    tokio::time::sleep(QUICK.send + SLACK).await;
    let (total, closed, _) = read_all(stalled).await;
    assert!(closed, "the connection is closed");
    assert!(
        total < 300 * spec / 2,
        "{total} bytes sent to a client that read nothing"
    );
    s.finish().await;
}

#[actix_web::test]
async fn many_idle_connections_do_not_hold_up_new_requests() {
    let s = start().await;
    let mut idle = Vec::new();
    for _ in 0..200 {
        idle.push(connect(&s).await);
    }
    // Kept alive after a request.
    for _ in 0..50 {
        let mut conn = connect(&s).await;
        conn.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 1024];
        assert!(conn.read(&mut buf).await.unwrap() > 0);
        idle.push(conn);
    }
    let served = others_are_served(&s, Duration::from_millis(500)).await;
    assert!(served >= 3, "{served}");
    // And they are closed in time, so they hold no memory either.
    tokio::time::sleep(QUICK.header.max(QUICK.keep_alive) + SLACK).await;
    for (i, conn) in idle.iter_mut().enumerate() {
        let mut rest = Vec::new();
        let read =
            tokio::time::timeout(Duration::from_millis(200), conn.read_to_end(&mut rest)).await;
        assert!(read.is_ok(), "idle connection {i} is still open");
    }
    s.finish().await;
}

#[actix_web::test]
async fn a_live_stream_outlasts_every_client_timeout() {
    let s = start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let mut stream = s
        .stream(&format!("/v1/games/{id}/stream"), Some(&tokens[0]), None)
        .await;
    assert_eq!(stream.status, 200);
    let quiet = [QUICK.header, QUICK.body, QUICK.send, QUICK.keep_alive]
        .into_iter()
        .max()
        .unwrap()
        + Duration::from_secs(1);
    let start = Instant::now();
    while start.elapsed() < quiet {
        let message = stream.next_any(Duration::from_secs(5)).await;
        assert!(message.is_some(), "the stream stays open and keeps alive");
    }
    let version = s.get(&format!("/v1/games/{id}"), None).await.body["version"]
        .as_i64()
        .unwrap();
    let moves = s.moves(id, &tokens[0]).await;
    let seat = if moves.body["moves"].as_array().unwrap().is_empty() {
        1
    } else {
        0
    };
    let moves = s.moves(id, &tokens[seat]).await;
    s.commanded(id, &tokens[seat], &moves.body["moves"][0])
        .await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let message = stream
            .next_any(Duration::from_secs(5))
            .await
            .expect("the stream still delivers");
        if message.event == "event" && message.id > Some(version) {
            break;
        }
        assert!(Instant::now() < deadline, "no new event on the stream");
    }
    s.finish().await;
}
