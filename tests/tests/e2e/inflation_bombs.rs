//! Inflation bombs: a small gzip body that inflates to hundreds of MiB. Sent anonymously or by a
//! player to the import (which only auditors may use), it is refused without being read; sent
//! by an auditor, or to any other operation, it is refused (413) as soon as the inflated bytes
//! pass the operation's limit. Throughout, the server's memory (this process's: the server runs
//! in it) grows by well under 64 MiB and `/healthz` answers at once.
//!
//! The memory test is the only test of this file, so that nothing else runs in the process
//! while it measures.

use std::io::Read as _;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use baumeister_tests::serde_json;
use baumeister_tests::{Reply, TestServer};

/// Bits into bytes, least significant first, as deflate packs them.
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    used: u32,
}

impl Bits {
    /// `value`'s `n` low bits, least significant first (header fields, extra bits).
    fn put(&mut self, value: u32, n: u32) {
        for i in 0..n {
            if self.used.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let bit = ((value >> i) & 1) as u8;
            *self.bytes.last_mut().unwrap() |= bit << (self.used % 8);
            self.used += 1;
        }
    }

    /// A Huffman code of `n` bits, most significant first.
    fn code(&mut self, code: u32, n: u32) {
        for i in (0..n).rev() {
            self.put((code >> i) & 1, 1);
        }
    }
}

/// A gzip body of about `inflated / 159` bytes that inflates to `inflated` spaces (JSON
/// whitespace): one deflate block with the fixed codes, a literal space, then copies of the
/// 258 bytes before, 13 bits each. Built by hand, as compressing hundreds of MiB would take a
/// debug build long. The trailer's CRC is left 0: the server must refuse the body long before
/// it would get there.
fn bomb(inflated: usize) -> Vec<u8> {
    let mut bits = Bits::default();
    bits.put(1, 1); // the last block
    bits.put(1, 2); // fixed Huffman codes
    bits.code(0x30 + u32::from(b' '), 8); // literal ' '
    let copies = (inflated - 1) / 258;
    for _ in 0..copies {
        bits.code(0b1100_0101, 8); // length 258 (code 285)
        bits.code(0, 5); // distance 1 (code 0)
    }
    bits.code(0, 7); // end of block (256)
    let mut gzip = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    gzip.extend(bits.bytes);
    gzip.extend(0u32.to_le_bytes());
    gzip.extend(((1 + copies * 258) as u32).to_le_bytes());
    gzip
}

/// This process's resident memory in bytes: now (`VmRSS`) or at its peak (`VmHWM`).
fn memory(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux's /proc");
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} in /proc/self/status"));
    let kib: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap();
    kib * 1024
}

/// Starts measuring the peak from now: Linux resets `VmHWM` to `VmRSS` on `5` in `clear_refs`.
fn reset_peak() -> usize {
    std::fs::write("/proc/self/clear_refs", "5").expect("the peak can be reset");
    memory("VmRSS:")
}

/// Sends `body` as gzip-encoded JSON (shared, not copied: the test's own memory counts too).
async fn send_bomb(
    s: &TestServer,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Bytes,
) -> Reply {
    let mut response = s
        .request(method, path, token)
        .insert_header(("Content-Type", "application/json"))
        .insert_header(("Content-Encoding", "gzip"))
        .send_body(body.clone())
        .await
        .expect("the server answers");
    let bytes = response.body().await.expect("a body");
    Reply {
        status: response.status().as_u16(),
        headers: response.headers().clone(),
        body: serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    }
}

fn assert_refused(r: &Reply, took: Duration, expected: (u16, &str), what: &str) {
    assert_eq!((r.status, r.code()), expected, "{what}: {}", r.body);
    assert!(took < Duration::from_secs(3), "{what} took {took:?}");
}

#[actix_web::test]
async fn gzip_bombs_are_refused_before_or_while_inflating_and_memory_stays_bounded() {
    let s = TestServer::start().await;
    let player = s.player("pia").await;
    let auditor = s.auditor("audra").await;
    let game = s.open_game(&player, "burgbaumeister", 2).await;

    const MIB: usize = 1024 * 1024;
    // 1.6 MiB of gzip for 256 MiB of spaces: within the import's 32 MiB on the wire.
    let big = Bytes::from(bomb(256 * MIB));
    // 53 KiB of gzip for 8 MiB: within the other operations' 64 KiB on the wire.
    let small = Bytes::from(bomb(8 * MIB));
    assert!(small.len() < baumeister_api::BODY_LIMIT, "{}", small.len());
    let mut start = Vec::new();
    flate2::read::GzDecoder::new(&small[..])
        .take(MIB as u64)
        .read_to_end(&mut start)
        .unwrap();
    assert!(start.len() == MIB && start.iter().all(|b| *b == b' '));
    assert_eq!(s.get("/healthz", None).await.status, 200);

    let before = reset_peak();

    // Nobody and a player: refused without the body being read, several at once.
    let import = "/v1/games/import";
    for (token, expected, who) in [
        (None, (401, "token_missing"), "anonymous"),
        (Some(player.as_str()), (403, "not_auditor"), "player"),
    ] {
        let at = Instant::now();
        let replies = futures_join(
            (0..4)
                .map(|_| send_bomb(&s, "POST", import, token, &big))
                .collect(),
        )
        .await;
        for r in &replies {
            assert_refused(r, at.elapsed(), expected, who);
        }
    }

    // Every other operation with a body: 413 once 64 KiB are inflated.
    for (path, token) in [
        ("/v1/accounts".to_string(), None),
        ("/v1/tokens".to_string(), None),
        ("/v1/games".to_string(), Some(player.as_str())),
        (format!("/v1/games/{game}/join"), Some(auditor.as_str())),
        (format!("/v1/games/{game}/commands"), Some(player.as_str())),
        ("/v1/me/webhooks".to_string(), Some(player.as_str())),
    ] {
        let at = Instant::now();
        let r = send_bomb(&s, "POST", &path, token, &small).await;
        assert_refused(&r, at.elapsed(), (413, "payload_too_large"), &path);
    }
    let r = send_bomb(&s, "PUT", "/v1/me/vacation", Some(&player), &small).await;
    assert_eq!((r.status, r.code()), (413, "payload_too_large"), "vacation");

    // Nothing of those bodies was kept beyond 64 KiB each (what grew is mostly the client's
    // buffers of the bodies it sent).
    let refusing = memory("VmHWM:").saturating_sub(before);
    assert!(
        refusing < 16 * MIB,
        "the peak memory grew by {} MiB while refusing",
        refusing / MIB
    );
    // An auditor's import is read: refused as soon as 32 MiB are inflated, while `/healthz`
    // keeps answering at once.
    let at = Instant::now();
    let bombing = send_bomb(&s, "POST", import, Some(&auditor), &big);
    let probing = async {
        let mut slowest = Duration::ZERO;
        let mut probes = 0;
        while at.elapsed() < Duration::from_millis(1500) {
            let t = Instant::now();
            assert_eq!(s.get("/healthz", None).await.status, 200);
            slowest = slowest.max(t.elapsed());
            probes += 1;
            actix_web::rt::time::sleep(Duration::from_millis(20)).await;
        }
        (slowest, probes)
    };
    let (r, (slowest, probes)) = tokio::join!(bombing, probing);
    assert_refused(&r, at.elapsed(), (413, "payload_too_large"), "auditor");
    assert!(
        r.body["detail"].as_str().unwrap().contains("32 MiB"),
        "{}",
        r.body
    );
    assert!(
        slowest < Duration::from_millis(500),
        "/healthz took up to {slowest:?} ({probes} probes) while a bomb was inflated"
    );

    // The auditor's 32 MiB, and no more.
    let grown = memory("VmHWM:").saturating_sub(before);
    eprintln!(
        "peak memory grew by {} KiB refusing, {} KiB in all; /healthz took at most {slowest:?}",
        refusing / 1024,
        grown / 1024
    );
    assert!(
        grown < 48 * MIB,
        "the peak memory grew by {} MiB",
        grown / MIB
    );
    s.finish().await;
}

/// Runs the futures at once; their outputs in order.
async fn futures_join<F: std::future::Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut pending: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut done: Vec<Option<F::Output>> = pending.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all = true;
        for (f, out) in pending.iter_mut().zip(done.iter_mut()) {
            if out.is_none() {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => *out = Some(v),
                    std::task::Poll::Pending => all = false,
                }
            }
        }
        if all {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    done.into_iter().map(Option::unwrap).collect()
}
