//! An SMTP sink on 127.0.0.1 for the tests: a small server that speaks just enough SMTP for a
//! client (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT), keeps every message it accepts, and
//! answers `451` to the DATA of the first `failures` messages (a server that fails for a
//! while). Messages are parsed into headers and their text parts, decoded.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// A message the sink accepted.
#[derive(Clone, Debug)]
pub struct Mail {
    pub from: String,
    pub to: Vec<String>,
    /// The headers, unfolded, in order.
    pub headers: Vec<(String, String)>,
    /// The parts by media type (`text/plain`, `text/html`), decoded.
    pub parts: Vec<(String, String)>,
}

impl Mail {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn part(&self, media_type: &str) -> Option<&str> {
        self.parts
            .iter()
            .find(|(t, _)| t == media_type)
            .map(|(_, b)| b.as_str())
    }

    /// The subject, decoded when it is an RFC 2047 encoded word.
    pub fn subject(&self) -> String {
        decode_words(self.header("Subject").unwrap_or(""))
    }

    /// Every `http://` link in the plain text part.
    pub fn links(&self) -> Vec<String> {
        self.part("text/plain")
            .unwrap_or("")
            .split_whitespace()
            .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
            .map(str::to_string)
            .collect()
    }
}

#[derive(Default)]
struct Shared {
    mails: Mutex<Vec<Mail>>,
    failures: AtomicUsize,
    refused: AtomicUsize,
}

pub struct SmtpSink {
    /// `smtp://127.0.0.1:PORT` (plain SMTP).
    pub url: String,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl SmtpSink {
    /// Starts a sink that refuses the first `failures` messages with `451`.
    pub async fn start(failures: usize) -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("smtp://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Shared {
            failures: AtomicUsize::new(failures),
            ..Default::default()
        });
        let serving = shared.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let shared = serving.clone();
                tokio::spawn(async move {
                    let _ = session(stream, shared).await;
                });
            }
        });
        SmtpSink { url, shared, task }
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.shared.mails.lock().unwrap().clone()
    }

    /// How many messages were refused with `451`.
    pub fn refused(&self) -> usize {
        self.shared.refused.load(Ordering::SeqCst)
    }

    /// Waits until `n` messages were accepted (at most `wait`), and returns them all.
    pub async fn accepted(&self, n: usize, wait: Duration) -> Vec<Mail> {
        let deadline = Instant::now() + wait;
        loop {
            let mails = self.mails();
            if mails.len() >= n {
                return mails;
            }
            assert!(
                Instant::now() < deadline,
                "{n} mails not accepted within {wait:?}; got {mails:#?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn stop(self) {
        self.task.abort();
    }
}

async fn session(stream: tokio::net::TcpStream, shared: Arc<Shared>) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 sink ESMTP\r\n").await?;
    let (mut from, mut to) = (String::new(), Vec::new());
    loop {
        let mut line = String::new();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_string();
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" | "HELO" => b"250 sink\r\n",
            "MAIL" => {
                from = angle(&command);
                to.clear();
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(angle(&command));
                b"250 OK\r\n"
            }
            "DATA" => {
                write.write_all(b"354 go on\r\n").await?;
                let mut data = Vec::new();
                loop {
                    let mut line = String::new();
                    if lines.read_line(&mut line).await? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" {
                        break;
                    }
                    // Dot-stuffing: a line that starts with a dot was sent with two.
                    let line = line.strip_prefix('.').unwrap_or(&line).to_string();
                    data.push(line);
                }
                let fail = shared
                    .failures
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                    .is_ok();
                if fail {
                    shared.refused.fetch_add(1, Ordering::SeqCst);
                    b"451 try again later\r\n"
                } else {
                    let mail = parse(&from, &to, &data.concat());
                    shared.mails.lock().unwrap().push(mail);
                    b"250 accepted\r\n"
                }
            }
            "RSET" | "NOOP" => b"250 OK\r\n",
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 not here\r\n",
        };
        write.write_all(reply).await?;
    }
}

fn angle(command: &str) -> String {
    command
        .split_once('<')
        .and_then(|(_, rest)| rest.split_once('>'))
        .map(|(inner, _)| inner.to_string())
        .unwrap_or_default()
}

/// Headers (unfolded) and body of a message or part.
fn split(text: &str) -> (Vec<(String, String)>, String) {
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with(' ') || line.starts_with('\t') {
            if let Some((_, v)) = headers.last_mut() {
                v.push(' ');
                v.push_str(line.trim());
            }
        } else if let Some((n, v)) = line.split_once(':') {
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    (headers, body.to_string())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> &'a str {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

fn parse(from: &str, to: &[String], text: &str) -> Mail {
    let (headers, body) = split(text);
    let mut parts = Vec::new();
    let content_type = header(&headers, "Content-Type");
    if let Some(boundary) = content_type.split("boundary=").nth(1) {
        let boundary = boundary.trim_matches('"').split(';').next().unwrap_or("");
        let delimiter = format!("--{boundary}");
        for part in body.split(&delimiter).skip(1) {
            if part.starts_with("--") {
                break;
            }
            let (part_headers, part_body) = split(part.trim_start_matches("\r\n"));
            let media_type = header(&part_headers, "Content-Type")
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            let decoded = decode(
                header(&part_headers, "Content-Transfer-Encoding"),
                part_body.trim_end_matches("\r\n"),
            );
            parts.push((media_type, decoded));
        }
    } else {
        let media_type = content_type.split(';').next().unwrap_or("").to_string();
        let decoded = decode(header(&headers, "Content-Transfer-Encoding"), &body);
        parts.push((media_type, decoded));
    }
    Mail {
        from: from.into(),
        to: to.to_vec(),
        headers,
        parts,
    }
}

fn decode(encoding: &str, body: &str) -> String {
    match encoding.to_ascii_lowercase().as_str() {
        "base64" => {
            let joined: String = body.split_whitespace().collect();
            String::from_utf8(
                base64::engine::general_purpose::STANDARD
                    .decode(joined)
                    .expect("a base64 part"),
            )
            .expect("a UTF-8 part")
        }
        "quoted-printable" => quoted_printable(body),
        _ => body.replace("\r\n", "\n"),
    }
}

fn quoted_printable(body: &str) -> String {
    let mut bytes = Vec::new();
    let text = body.replace("=\r\n", "");
    let raw = text.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'=' && i + 3 <= raw.len() {
            if let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16) {
                bytes.push(b);
                i += 3;
                continue;
            }
        }
        bytes.push(raw[i]);
        i += 1;
    }
    String::from_utf8(bytes)
        .expect("a UTF-8 part")
        .replace("\r\n", "\n")
}

/// Decodes RFC 2047 encoded words (`=?utf-8?b?…?=` and `=?utf-8?q?…?=`); other text as is.
fn decode_words(value: &str) -> String {
    let mut out = String::new();
    for word in value.split_whitespace() {
        let decoded = word
            .strip_prefix("=?")
            .and_then(|w| w.strip_suffix("?="))
            .and_then(|w| {
                let mut fields = w.splitn(3, '?');
                let (_, encoding, text) = (fields.next()?, fields.next()?, fields.next()?);
                match encoding.to_ascii_lowercase().as_str() {
                    "b" => base64::engine::general_purpose::STANDARD
                        .decode(text)
                        .ok()
                        .and_then(|b| String::from_utf8(b).ok()),
                    "q" => Some(quoted_printable(&text.replace('_', " "))),
                    _ => None,
                }
            });
        match decoded {
            Some(d) => out.push_str(&d),
            None => {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(word);
            }
        }
    }
    out
}
