use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use super::*;

/// A server on a free port answering every GET with `hello` and the path it was asked for.
fn start() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        serve(listener, |r: &Request| Reply {
            status: 200,
            headers: vec![("X-Path", r.path.clone())],
            body: std::sync::Arc::from(&b"hello"[..]),
        })
    });
    addr
}

/// Sends `request` on a new connection and reads the whole answer (the server closes).
fn ask(addr: std::net::SocketAddr, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out)
        .expect("answered and closed within 20 s");
    out
}

#[test]
fn the_head_a_browser_sends_is_parsed() {
    let head = b"GET /faultline-worker.js?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\naccept-encoding: gzip, br\r\n\r\n";
    assert_eq!(
        parse(head),
        Some(Request {
            method: "GET".into(),
            path: "/faultline-worker.js?x=1".into(),
            accept_encoding: "gzip, br".into(),
        })
    );
    assert_eq!(
        parse(b"GET / HTTP/1.1\r\nHost: x\r\n").map(|r| r.path),
        None
    );
    assert_eq!(parse(b"\x1b[31m nonsense\r\n\r\n"), None);
}

#[test]
fn connections_held_open_do_not_stop_another_from_being_answered() {
    let addr = start();
    // What a browser does: connections opened together and kept idle. A server with a fixed
    // pool of threads reading them would never read the request below.
    let idle: Vec<TcpStream> = (0..16).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let answer = ask(
        addr,
        "GET /faultline-worker_bg.wasm HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(
        answer.contains("X-Path: /faultline-worker_bg.wasm\r\n"),
        "{answer}"
    );
    assert!(
        answer.contains("Content-Length: 5\r\nConnection: close\r\n\r\nhello"),
        "{answer}"
    );
    drop(idle);
}

#[test]
fn head_has_no_body_and_other_methods_are_refused() {
    let addr = start();
    let head = ask(addr, "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(
        head.starts_with("HTTP/1.1 200 OK\r\n") && head.ends_with("\r\n\r\n"),
        "{head}"
    );
    assert!(head.contains("Content-Length: 5\r\n"), "{head}");
    let post = ask(
        addr,
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
    );
    assert!(
        post.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"),
        "{post}"
    );
    assert!(post.contains("Allow: GET, HEAD\r\n"), "{post}");
    let junk = ask(addr, "\x1b[31m\r\n\r\n");
    assert!(junk.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{junk}");
}
