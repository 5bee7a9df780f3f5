//! A static file server for the release build in `dist/`, compressed as a production server
//! would: each file is compressed once, at start-up, with brotli and with deflate, and each
//! response carries the best one the browser accepts (see [`crate::encoding`]). `trunk serve`
//! sends everything uncompressed, so a visitor would fetch several times the bytes the size
//! report promises.

use std::collections::BTreeMap;
use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cmd::{err, Error, Result};
use crate::encoding::{self, Encoding};
use crate::http::{self, Reply, Request};

/// One file of `dist/`, ready to send.
struct Asset {
    mime: &'static str,
    raw: Arc<[u8]>,
    /// zlib-wrapped deflate: what HTTP calls `deflate`.
    deflated: Arc<[u8]>,
    /// Brotli at its best quality: what HTTP calls `br`.
    brotli: Arc<[u8]>,
}

impl Asset {
    /// The body to send in `encoding`.
    fn body(&self, encoding: Encoding) -> &Arc<[u8]> {
        match encoding {
            Encoding::Brotli => &self.brotli,
            Encoding::Deflate => &self.deflated,
            Encoding::Identity => &self.raw,
        }
    }
}

/// Serves `dist` at `address:port` until the process is interrupted.
pub fn serve(dist: &Path, address: &str, port: &str) -> Result {
    let assets = Arc::new(load(dist)?);
    let raw: usize = assets.values().map(|a| a.raw.len()).sum();
    let deflated: usize = assets.values().map(|a| a.deflated.len()).sum();
    let brotli: usize = assets.values().map(|a| a.brotli.len()).sum();
    println!(
        "{} files, {} KB: {} KB with brotli, {} KB with deflate",
        assets.len(),
        raw / 1024,
        brotli / 1024,
        deflated / 1024
    );
    let listener = TcpListener::bind(format!("{address}:{port}"))
        .map_err(|e| Error(format!("cannot listen on {address}:{port}: {e}")))?;
    http::serve(listener, move |request| reply(&assets, request));
    Ok(())
}

/// The answer to `request`: the file it names in the best encoding the browser accepts.
fn reply(assets: &BTreeMap<String, Asset>, request: &Request) -> Reply {
    // The scenario lives in the fragment (`#v1...`), which browsers never send, so every
    // path without a file is the app itself.
    let path = request.path.split(['?', '#']).next().unwrap_or("/");
    let key = path.trim_start_matches('/');
    let Some(asset) = assets.get(key).or_else(|| assets.get("index.html")) else {
        return http::error(404);
    };
    let encoding = encoding::negotiate(&request.accept_encoding);
    let mut headers = vec![
        ("Content-Type", asset.mime.to_string()),
        ("Vary", "Accept-Encoding".to_string()),
    ];
    if let Some(enc) = encoding.header() {
        headers.push(("Content-Encoding", enc.to_string()));
    }
    Reply {
        status: 200,
        headers,
        body: Arc::clone(asset.body(encoding)),
    }
}

/// Reads and compresses every file under `dist`, keyed by its path relative to `dist`.
fn load(dist: &Path) -> Result<BTreeMap<String, Asset>> {
    let mut files = Vec::new();
    walk(dist, &mut files)?;
    if files.is_empty() {
        return err(format!("{} is empty; did the build run?", dist.display()));
    }
    println!(
        "compressing {} files (brotli at its best quality takes a few seconds)",
        files.len()
    );
    let mut assets = BTreeMap::new();
    for path in files {
        let raw = fs::read(&path).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        let rel = path.strip_prefix(dist).unwrap_or(&path);
        let key = rel.to_string_lossy().replace('\\', "/");
        let asset = Asset {
            mime: mime_of(&key),
            deflated: encoding::deflate(&raw).into(),
            brotli: encoding::brotli(&raw).into(),
            raw: raw.into(),
        };
        assets.insert(key, asset);
    }
    Ok(assets)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    let entries = fs::read_dir(dir).map_err(|e| Error(format!("{}: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// The MIME type by extension; wasm must be `application/wasm` for streaming compilation.
fn mime_of(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasm_is_served_as_wasm_and_unknown_files_as_bytes() {
        assert_eq!(mime_of("faultline-web_bg.wasm"), "application/wasm");
        assert_eq!(mime_of("index.html"), "text/html; charset=utf-8");
        assert_eq!(mime_of("LICENSE"), "application/octet-stream");
    }

    #[test]
    fn every_file_is_loaded_and_each_encoding_decodes_back() {
        let dir = std::env::temp_dir().join(format!("xtask-static-{}", std::process::id()));
        fs::create_dir_all(dir.join("snippets")).unwrap();
        fs::write(dir.join("index.html"), "<html>faultline</html>".repeat(50)).unwrap();
        fs::write(dir.join("snippets").join("a.js"), "export const a = 1;").unwrap();
        let assets = load(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            assets.keys().cloned().collect::<Vec<_>>(),
            ["index.html", "snippets/a.js"]
        );
        let html = &assets["index.html"];
        assert!(html.deflated.len() < html.raw.len());
        let back = miniz_oxide::inflate::decompress_to_vec_zlib(html.body(Encoding::Deflate));
        assert_eq!(back.unwrap(), &html.raw[..]);
        let mut unbrotli = Vec::new();
        std::io::Read::read_to_end(
            &mut brotli::Decompressor::new(&html.body(Encoding::Brotli)[..], 4096),
            &mut unbrotli,
        )
        .unwrap();
        assert_eq!(unbrotli, &html.raw[..]);
        assert_eq!(html.body(Encoding::Identity), &html.raw);

        // Any path without a file is the app; the best encoding the browser accepts is sent.
        let get = |path: &str, accept: &str| {
            let request = Request {
                method: "GET".into(),
                path: path.into(),
                accept_encoding: accept.into(),
            };
            reply(&assets, &request)
        };
        let page = get("/?embed", "gzip, deflate, br");
        assert_eq!(page.status, 200);
        assert_eq!(page.body, html.brotli);
        assert!(page.headers.contains(&("Content-Encoding", "br".into())));
        assert!(page
            .headers
            .contains(&("Content-Type", "text/html; charset=utf-8".into())));
        let script = get("/snippets/a.js", "");
        assert_eq!(&script.body[..], b"export const a = 1;");
        assert!(!script
            .headers
            .iter()
            .any(|(name, _)| *name == "Content-Encoding"));
        let empty = BTreeMap::new();
        let missing = Request {
            method: "GET".into(),
            path: "/nothing".into(),
            accept_encoding: String::new(),
        };
        assert_eq!(reply(&empty, &missing).status, 404);
    }
}
