// A tiny static file server for trunk's dist/ directory, so the tests run against the
// release build exactly as it would be deployed (no dev server, no live reload), compressed as
// `cargo xtask serve` compresses it (zlib deflate, level 9, to browsers that accept it), so
// the first-visit measurement counts the bytes a visitor downloads.
import http from "node:http";
import zlib from "node:zlib";
import fs from "node:fs/promises";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  // application/wasm lets the browser compile while downloading (instantiateStreaming).
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/** Each file's deflated body, by path and modification time (compressed once, as xtask's
 * server does at start-up). */
const deflated = new Map();

function deflatedBody(file, stat, body) {
  const key = `${file}:${stat.mtimeMs}`;
  if (!deflated.has(key)) deflated.set(key, zlib.deflateSync(body, { level: 9 }));
  return deflated.get(key);
}

/**
 * Serves `root` on 127.0.0.1 at a free port; resolves to { url, close, requests }.
 * `requests` lists the path of every request that reached the server, in order (clear it
 * with `requests.length = 0`): a test can count what was really downloaded, whichever page
 * or worker asked for it.
 */
export async function serveDir(root) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    try {
      const urlPath = decodeURIComponent(new URL(req.url, "http://x").pathname);
      requests.push(urlPath);
      let file = path.join(root, path.normalize(urlPath));
      if (!file.startsWith(path.resolve(root))) {
        res.writeHead(403).end();
        return;
      }
      let stat = await fs.stat(file).catch(() => null);
      if (!stat || stat.isDirectory()) {
        file = path.join(root, "index.html");
        stat = await fs.stat(file);
      }
      const body = await fs.readFile(file);
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      const headers = { "content-type": type, "cache-control": "no-store" };
      if (/\bdeflate\b/.test(req.headers["accept-encoding"] ?? "")) {
        headers["content-encoding"] = "deflate";
        res.writeHead(200, headers).end(deflatedBody(file, stat, body));
      } else {
        res.writeHead(200, headers).end(body);
      }
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
