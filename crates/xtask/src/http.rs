//! The HTTP/1.1 side of `cargo xtask serve`: a thread per connection, one request per
//! connection (`Connection: close`), GET and HEAD only; the request head is parsed by
//! `httparse`. What to answer is [`crate::static_server`]'s business.
//!
//! Until 2026-12-07 this was tiny_http, whose thread pool starts a thread for a new
//! connection only when it counts no idle one, and a woken idle thread leaves that count only
//! once it runs. When a browser opened six connections at once on a busy machine, two of them
//! were queued behind connections it kept alive and were never read: the page's requests for
//! the simulation worker's files hung, and the page said the worker had not started. A thread
//! per connection cannot be starved by connections held open.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// How long a connection may take to send its request head.
const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest request head read; browsers send a few KB.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Header slots for the parser; a browser's request has about 15 headers.
const MAX_HEADERS: usize = 64;

/// What the server needs of a request.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, ...
    pub method: String,
    /// The request target as sent (`/index.html`, `/?embed`).
    pub path: String,
    /// The `Accept-Encoding` header, empty if absent.
    pub accept_encoding: String,
}

/// An answer: status, headers (besides `Content-Length` and `Connection`), body.
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
    /// The body (not sent for HEAD), shared with the server's copy of the file.
    pub body: Arc<[u8]>,
}

/// Accepts connections on `listener` for ever, each on its own thread, answering each one's
/// request with `answer`.
pub fn serve<F>(listener: TcpListener, answer: F)
where
    F: Fn(&Request) -> Reply + Send + Sync + Clone + 'static,
{
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            continue;
        };
        let answer = answer.clone();
        std::thread::spawn(move || {
            // A client that went away mid-request is nobody's concern but its own.
            let _ = handle(stream, &answer);
        });
    }
}

/// Reads one request from `stream`, writes the answer and closes.
fn handle<F>(mut stream: TcpStream, answer: &F) -> io::Result<()>
where
    F: Fn(&Request) -> Reply,
{
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let head = read_head(&mut BufReader::new(&stream))?;
    let Some(request) = parse(&head) else {
        return write_reply(&mut stream, &error(400), false);
    };
    if request.method != "GET" && request.method != "HEAD" {
        let mut reply = error(405);
        reply.headers.push(("Allow", "GET, HEAD".into()));
        return write_reply(&mut stream, &reply, false);
    }
    write_reply(&mut stream, &answer(&request), request.method == "HEAD")
}

/// The bytes up to and including the blank line that ends a request head.
fn read_head(reader: &mut impl BufRead) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    loop {
        let before = head.len();
        if reader.read_until(b'\n', &mut head)? == 0 || head.len() > MAX_HEAD_BYTES {
            return Ok(head); // closed early or too long: the parser refuses it
        }
        if head[before..].starts_with(b"\r\n") || head[before..].starts_with(b"\n") {
            return Ok(head);
        }
    }
}

/// The request in `head`, or None if it is not a complete, valid HTTP/1.x request head.
pub fn parse(head: &[u8]) -> Option<Request> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        _ => return None,
    }
    let accept_encoding = parsed
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("Accept-Encoding"))
        .map(|h| String::from_utf8_lossy(h.value).into_owned())
        .unwrap_or_default();
    Some(Request {
        method: parsed.method?.to_string(),
        path: parsed.path?.to_string(),
        accept_encoding,
    })
}

/// An empty answer with `status`.
pub fn error(status: u16) -> Reply {
    Reply {
        status,
        headers: Vec::new(),
        body: Arc::from(&[][..]),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "",
    }
}

/// Writes `reply` with its length and `Connection: close`; the body unless `head_only`.
fn write_reply(stream: &mut TcpStream, reply: &Reply, head_only: bool) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        reply.body.len()
    ));
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(&reply.body)?;
    }
    stream.flush()
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
