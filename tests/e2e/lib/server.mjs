// A tiny static file server for trunk's dist/ directory, so the tests run against the
// release build exactly as it would be deployed (no dev server, no live reload).
import http from "node:http";
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

/** Serves `root` on 127.0.0.1 at a free port; resolves to { url, close }. */
export async function serveDir(root) {
  const server = http.createServer(async (req, res) => {
    try {
      const urlPath = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = path.join(root, path.normalize(urlPath));
      if (!file.startsWith(path.resolve(root))) {
        res.writeHead(403).end();
        return;
      }
      const stat = await fs.stat(file).catch(() => null);
      if (!stat || stat.isDirectory()) file = path.join(root, "index.html");
      const body = await fs.readFile(file);
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
