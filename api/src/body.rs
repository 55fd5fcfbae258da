//! Request bodies. A handler reads its body itself, once it knows the caller may send one (the
//! token checked, the role and the rate limit where the operation has them), so that a refused
//! request costs no reading, inflating or parsing. The body is then read as a stream with two
//! running counts: the bytes on the wire and, for `Content-Encoding: gzip` or `deflate`, the
//! bytes inflated from them. Each is bounded by the operation's limit, and the body is refused
//! (413) as soon as either passes it: a small compressed body that inflates to gigabytes (an
//! inflation bomb) costs at most the limit of memory, never the whole inflated size. Inflating
//! yields to the worker's other requests every [`INFLATE_SLICE`] compressed bytes. Last, the
//! JSON's nesting is bounded ([`MAX_DEPTH`]) before anything is built from it.
//!
//! actix-web's own extractors (`web::Json`, `web::Bytes`) would inflate a whole received chunk
//! at once, before counting it, and read the body while the caller is still being checked:
//! handlers do not use them for bodies.

use std::io::{self, Write};

use actix_web::error::PayloadError;
use actix_web::http::header::{CONTENT_ENCODING, CONTENT_LENGTH};
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::{mime, HttpMessage, HttpRequest};
use serde::de::DeserializeOwned;

use crate::error::{ApiError, ApiResult};

/// The largest JSON body of every operation but the import, on the wire and inflated.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The largest body of `POST /v1/games/import` (exports of long games are large).
pub const IMPORT_BODY_LIMIT: usize = 32 * 1024 * 1024;

/// The deepest nesting of arrays and objects a body may have. Every body the API takes nests
/// less than a dozen levels; serde_json's own bound (128) would first recurse that deep.
pub const MAX_DEPTH: usize = 64;

/// How many compressed bytes are inflated at a time before the worker's other requests get
/// their turn (at most about a thousand times as many come out).
const INFLATE_SLICE: usize = 4 * 1024;

/// 413 `payload_too_large`, naming the limit.
pub fn too_large(limit: usize) -> ApiError {
    let size = if limit >= 1024 * 1024 {
        format!("{} MiB", limit / (1024 * 1024))
    } else {
        format!("{} KiB", limit / 1024)
    };
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        format!("The body is larger than {size}."),
    )
}

/// A request body that could not be read: too large (413), too slow (408, see
/// [`crate::slow_clients`]), or broken off (400).
pub fn body_error(err: PayloadError, limit: usize) -> ApiError {
    match err {
        PayloadError::Overflow => too_large(limit),
        PayloadError::Io(e) if e.kind() == io::ErrorKind::TimedOut => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "request_timeout",
            "The request body did not arrive in time; send it at once.",
        ),
        e => ApiError::bad_request("malformed_request", e.to_string()),
    }
}

fn unsupported_media_type() -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
        "Send the body as `Content-Type: application/json`.",
    )
}

fn unsupported_encoding(encoding: &str) -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_content_encoding",
        format!(
            "A body may be sent as it is, or with `Content-Encoding: gzip` or `deflate`; not `{}`.",
            encoding.escape_debug()
        ),
    )
}

fn not_inflatable(what: &str) -> ApiError {
    ApiError::bad_request(
        "malformed_request",
        format!("The body is not valid {what}."),
    )
}

/// The inflated body so far; refuses to grow beyond its limit (and remembers that it did).
/// Kept in pieces of at most [`PIECE`] bytes, so that growing never copies the whole body:
/// one buffer doubled up to 32 MiB would briefly hold 16 + 32 MiB.
struct Capped {
    pieces: Vec<Bytes>,
    last: BytesMut,
    len: usize,
    limit: usize,
    overflowed: bool,
}

/// See [`Capped`].
const PIECE: usize = 1024 * 1024;

impl Capped {
    fn new(limit: usize) -> Self {
        Capped {
            pieces: Vec::new(),
            last: BytesMut::new(),
            len: 0,
            limit,
            overflowed: false,
        }
    }

    /// The whole body in one buffer (copied once, only when it came in several pieces).
    fn into_bytes(mut self) -> Bytes {
        if self.pieces.is_empty() {
            return self.last.freeze();
        }
        let mut whole = BytesMut::with_capacity(self.len);
        for piece in self.pieces.drain(..) {
            whole.extend_from_slice(&piece);
        }
        whole.extend_from_slice(&self.last);
        whole.freeze()
    }
}

impl Write for Capped {
    fn write(&mut self, mut data: &[u8]) -> io::Result<usize> {
        let written = data.len();
        if self.len + data.len() > self.limit {
            self.overflowed = true;
            return Err(io::Error::other("the body is larger than its limit"));
        }
        self.len += data.len();
        while !data.is_empty() {
            if self.last.len() == PIECE {
                self.pieces.push(self.last.split().freeze());
            }
            if self.last.capacity() == 0 {
                // Whole pieces from the start: a piece grown by doubling leaves its smaller
                // buffers behind.
                self.last.reserve(PIECE.min(self.limit));
            }
            let fits = data.len().min(PIECE - self.last.len());
            self.last.extend_from_slice(&data[..fits]);
            data = &data[fits..];
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How the body came, and what turns it back into JSON. flate2's decoders hand on what they
/// inflate 32 KiB at a time, so [`Capped`] stops them within that of the limit.
enum Inflater {
    Identity(Capped),
    Gzip(Box<flate2::write::GzDecoder<Capped>>, &'static str),
    Deflate(Box<flate2::write::ZlibDecoder<Capped>>, &'static str),
}

impl Inflater {
    fn of(req: &HttpRequest, limit: usize) -> ApiResult<Inflater> {
        let capped = Capped::new(limit);
        let Some(encoding) = req.headers().get(CONTENT_ENCODING) else {
            return Ok(Inflater::Identity(capped));
        };
        let encoding = encoding
            .to_str()
            .map_err(|_| unsupported_encoding("(not text)"))?;
        // One encoding only: a body compressed twice is a bomb's trick, not a client's need.
        match encoding.trim().to_ascii_lowercase().as_str() {
            "" | "identity" => Ok(Inflater::Identity(capped)),
            "gzip" | "x-gzip" => Ok(Inflater::Gzip(
                Box::new(flate2::write::GzDecoder::new(capped)),
                "gzip",
            )),
            "deflate" => Ok(Inflater::Deflate(
                Box::new(flate2::write::ZlibDecoder::new(capped)),
                "deflate (zlib) data",
            )),
            _ => Err(unsupported_encoding(encoding)),
        }
    }

    fn capped(&self) -> &Capped {
        match self {
            Inflater::Identity(c) => c,
            Inflater::Gzip(d, _) => d.get_ref(),
            Inflater::Deflate(d, _) => d.get_ref(),
        }
    }

    /// Turns an inflater's error into the answer: 413 when the limit stopped it, else 400.
    fn failed(&self, what: &str, limit: usize) -> ApiError {
        if self.capped().overflowed {
            too_large(limit)
        } else {
            not_inflatable(what)
        }
    }

    /// Takes a chunk of the wire; a compressed one is inflated a slice at a time.
    async fn take(&mut self, chunk: &[u8], limit: usize) -> ApiResult<()> {
        match self {
            Inflater::Identity(capped) => capped.write_all(chunk).map_err(|_| too_large(limit)),
            Inflater::Gzip(..) | Inflater::Deflate(..) => {
                for slice in chunk.chunks(INFLATE_SLICE) {
                    let (result, what) = match self {
                        Inflater::Gzip(d, what) => (d.write_all(slice), *what),
                        Inflater::Deflate(d, what) => (d.write_all(slice), *what),
                        Inflater::Identity(_) => unreachable!(),
                    };
                    if result.is_err() {
                        return Err(self.failed(what, limit));
                    }
                    tokio::task::yield_now().await;
                }
                Ok(())
            }
        }
    }

    /// The whole inflated body, once the wire has ended (a compressed stream must end too).
    fn finish(self, limit: usize) -> ApiResult<Bytes> {
        let capped = match self {
            Inflater::Identity(capped) => capped,
            Inflater::Gzip(mut d, what) => match d.try_finish() {
                Ok(()) => d.finish().map_err(|_| not_inflatable(what))?,
                Err(_) => return Err(Inflater::Gzip(d, what).failed(what, limit)),
            },
            Inflater::Deflate(mut d, what) => match d.try_finish() {
                Ok(()) => d.finish().map_err(|_| not_inflatable(what))?,
                Err(_) => return Err(Inflater::Deflate(d, what).failed(what, limit)),
            },
        };
        Ok(capped.into_bytes())
    }
}

/// Reads the whole body of `req`: at most `limit` bytes on the wire (a larger
/// `Content-Length` is refused before a byte is read) and at most `limit` bytes inflated,
/// refused with 413 as soon as either is passed.
pub async fn read(req: &HttpRequest, mut body: web::Payload, limit: usize) -> ApiResult<Bytes> {
    use futures_core::Stream;
    let announced = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        return Err(too_large(limit));
    }
    let mut inflater = Inflater::of(req, limit)?;
    let mut on_the_wire = 0usize;
    while let Some(chunk) =
        std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_next(cx)).await
    {
        let chunk = chunk.map_err(|e| body_error(e, limit))?;
        on_the_wire += chunk.len();
        if on_the_wire > limit {
            return Err(too_large(limit));
        }
        inflater.take(&chunk, limit).await?;
    }
    inflater.finish(limit)
}

/// Whether `req` says its body is JSON (`application/json`, or a `+json` type).
fn is_json(req: &HttpRequest) -> bool {
    matches!(req.mime_type(), Ok(Some(mime))
        if mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON))
}

/// Refuses JSON nested deeper than [`MAX_DEPTH`] (400 `too_deeply_nested`), by one pass over
/// the text that builds nothing. Malformed text passes: the parser refuses it after.
pub fn check_depth(text: &[u8]) -> ApiResult<()> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(ApiError::bad_request(
                        "too_deeply_nested",
                        format!(
                            "The body nests arrays and objects deeper than {MAX_DEPTH} levels."
                        ),
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn parse<T: DeserializeOwned>(text: &[u8]) -> ApiResult<T> {
    check_depth(text)?;
    serde_json::from_slice(text).map_err(|e| {
        ApiError::bad_request("malformed_request", format!("Json deserialize error: {e}"))
    })
}

/// Reads and parses a JSON body (see [`read`]); a body not sent as JSON is refused (415)
/// before it is read.
pub async fn json<T: DeserializeOwned>(
    req: &HttpRequest,
    body: web::Payload,
    limit: usize,
) -> ApiResult<T> {
    if !is_json(req) {
        return Err(unsupported_media_type());
    }
    parse(&read(req, body, limit).await?)
}

/// Reads an optional JSON body: none, an empty one, `null` and (for a type whose fields are
/// all optional) `{}` all mean the defaults. Generated clients send no body, or no
/// `Content-Type` with none, so neither is required.
pub async fn optional_json<T: DeserializeOwned + Default>(
    req: &HttpRequest,
    body: web::Payload,
    limit: usize,
) -> ApiResult<T> {
    let text = read(req, body, limit).await?;
    if text.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    Ok(parse::<Option<T>>(&text)?.unwrap_or_default())
}

pub use baumeister_storage::whole_number::{whole, whole_number};

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        "[".repeat(depth) + &"]".repeat(depth)
    }

    #[test]
    fn nesting_up_to_the_bound_passes_and_one_more_is_refused() {
        assert!(check_depth(nested(MAX_DEPTH).as_bytes()).is_ok());
        let refused = check_depth(nested(MAX_DEPTH + 1).as_bytes()).unwrap_err();
        assert_eq!(
            (refused.status.as_u16(), refused.code.as_str()),
            (400, "too_deeply_nested")
        );
        let mixed = "{\"a\":".repeat(MAX_DEPTH) + "1" + &"}".repeat(MAX_DEPTH);
        assert!(check_depth(mixed.as_bytes()).is_ok());
        let deeper = "{\"a\":".repeat(MAX_DEPTH + 1) + "1" + &"}".repeat(MAX_DEPTH + 1);
        assert!(check_depth(deeper.as_bytes()).is_err());
    }

    #[test]
    fn a_body_kept_in_pieces_comes_out_whole_and_stops_at_its_limit() {
        let mut capped = Capped::new(3 * PIECE);
        let data: Vec<u8> = (0..PIECE * 5 / 2).map(|i| (i % 251) as u8).collect();
        for part in data.chunks(10_000) {
            capped.write_all(part).unwrap();
        }
        assert!(capped.write_all(&vec![0; PIECE]).is_err());
        assert!(capped.overflowed);
        assert_eq!(capped.into_bytes(), data);
    }

    #[test]
    fn brackets_inside_strings_do_not_count() {
        let text = format!(r#"{{"a": "{}", "b": "\"[[["}}"#, "[".repeat(1000));
        assert!(check_depth(text.as_bytes()).is_ok());
    }
}
