// A tiny static file server for trunk's dist/ directory, so the tests run against the
// release build exactly as it would be deployed (no dev server, no live reload), compressed as
// `cargo xtask serve` compresses it (brotli at quality 11 with a 16 MiB window where the
// browser accepts `br`, else zlib deflate at level 9), so the first-visit measurement counts
// the bytes a visitor downloads.
import http from "node:http";
import zlib from "node:zlib";
import fs from "node:fs/promises";
import path from "node:path";
import os from "node:os";
import crypto from "node:crypto";

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

/** Each file's compressed bodies, by encoding, path and modification time (compressed once,
 * as xtask's server does at start-up). */
const compressed = new Map();
/** Brotli at quality 11 takes seconds for the two wasm modules, and every test file is its own
 * process: compressed bodies are kept on disk by content hash, so only the first pays. */
const DISK_CACHE = path.join(os.tmpdir(), "faultline-e2e-compressed");

const COMPRESS = {
  br: (body) =>
    zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  deflate: (body) => zlib.deflateSync(body, { level: 9 }),
};

async function compressedBody(encoding, file, stat, body) {
  const key = `${encoding}:${file}:${stat.mtimeMs}`;
  if (!compressed.has(key)) {
    const hash = crypto.createHash("sha256").update(body).digest("hex");
    const cached = path.join(DISK_CACHE, `${hash}.${encoding}`);
    let packed = await fs.readFile(cached).catch(() => null);
    if (!packed) {
      packed = COMPRESS[encoding](body);
      await fs.mkdir(DISK_CACHE, { recursive: true });
      await fs.writeFile(`${cached}.${process.pid}`, packed);
      await fs.rename(`${cached}.${process.pid}`, cached);
    }
    compressed.set(key, packed);
  }
  return compressed.get(key);
}

/** Compresses every file under `root` in both encodings before the server answers, as
 * xtask's server does, so no response waits on a compressor. */
async function precompress(root) {
  for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const stat = await fs.stat(file);
    const body = await fs.readFile(file);
    for (const encoding of Object.keys(COMPRESS)) await compressedBody(encoding, file, stat, body);
  }
}

/** The encoding xtask's server picks (crates/xtask/src/encoding.rs `negotiate`): `br`, then
 * `deflate`, skipping a coding refused with q=0; null for none. */
export function negotiate(acceptEncoding) {
  const items = (acceptEncoding ?? "").split(",").map((item) => {
    const [coding, ...params] = item.split(";").map((p) => p.trim());
    const refused = params.some((p) => /^q=\s*0(\.0*)?$/.test(p));
    return { coding: coding.toLowerCase(), refused };
  });
  const accepts = (name) => {
    const named = items.find((i) => i.coding === name);
    if (named) return !named.refused;
    const star = items.find((i) => i.coding === "*");
    return star ? !star.refused : false;
  };
  return ["br", "deflate"].find(accepts) ?? null;
}

/**
 * Serves `root` on 127.0.0.1 at a free port; resolves to { url, close, requests }.
 * `requests` lists the path of every request that reached the server, in order (clear it
 * with `requests.length = 0`): a test can count what was really downloaded, whichever page
 * or worker asked for it.
 */
export async function serveDir(root) {
  await precompress(root);
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
      const headers = { "content-type": type, "cache-control": "no-store", vary: "accept-encoding" };
      const encoding = negotiate(req.headers["accept-encoding"]);
      if (encoding) {
        headers["content-encoding"] = encoding;
        res.writeHead(200, headers).end(await compressedBody(encoding, file, stat, body));
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
