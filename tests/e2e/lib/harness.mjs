// The setup every browser test file shares: serve the release build in dist/ and launch one
// Chromium for the file, closed after its tests. Returns an object whose `server` and
// `browser` are filled in before the first test runs.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { serveDir } from "./server.mjs";
import { launch } from "./browser.mjs";
import { ROOT } from "./cli.mjs";

/** Where the build under test lives: $FAULTLINE_DIST, else dist/ at the repo root. */
export const DIST = process.env.FAULTLINE_DIST ?? path.join(ROOT, "dist");

/** Registers the file's before/after hooks; use `.server.url` and `.browser.context` of the result. */
export function useApp() {
  const env = { server: null, browser: null };
  before(async () => {
    assert.ok(fs.existsSync(path.join(DIST, "index.html")), `no build in ${DIST}; run trunk build`);
    env.server = await serveDir(DIST);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
