// The simulation worker cannot fail silently: a worker whose script does not load is named in
// the page within a few seconds, and a panic inside the worker is reported with a repro link.
//
// The panic is provoked from outside the app, with no hook in the shipped bundle: an init
// script wraps Worker.prototype.postMessage so that, on request, the next message to the
// worker is bytes gloo-worker's codec cannot decode. Decoding panics inside the worker, which
// is the real path any worker panic takes (panic hook -> FromEngine::Crashed -> the page).
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { text, waitStatus, screenshot } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";
import { record } from "./lib/measure.mjs";

const ctx = useApp();

const SMALL = "scenarios/raft-basics-kill-a-store.toml";

test("a worker script that does not load is reported in the page, not left at seeking", async () => {
  const page = await ctx.browser.context.newPage();
  await page.route(/faultline-worker\.js/, (route) => route.abort());
  const started = Date.now();
  await page.goto(`${ctx.server.url}${linkFragment(SMALL)}`);
  // The page watchdog fires after 6 s; allow for a loaded machine.
  await page.waitForFunction(() => document.getElementById("status")?.textContent === "no worker", null, {
    timeout: 30_000,
    polling: 100,
  });
  record("blocked worker script: time to the message", { ms: Date.now() - started });
  const error = await text(page, "error");
  assert.match(error, /simulation worker has not started/);
  assert.match(error, /faultline-worker\.js/);
  await screenshot(page, "worker-blocked");
  // The page itself is alive: the help overlay still opens.
  await page.keyboard.press("?");
  await page.waitForSelector("#help", { timeout: 10_000 });
  await page.close();
});

// index.html downloads the worker's files early, beside the page's (issue 18 item 8); when
// that download fails, the page must spawn the worker the normal way, from its own requests.
// Only the first request for the file is spoilt (the early one, made while the page's HTML is
// parsed); the worker's own request for it goes through.
for (const [what, file, spoil] of [
  ["aborted", /faultline-worker_bg\.wasm$/, (route) => route.abort()],
  [
    "answered with the page (a server's fallback for missing files)",
    /faultline-worker\.js$/,
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Faultline</title>" }),
  ],
]) {
  test(`an early worker download ${what} leaves the worker to load the normal way`, async () => {
    const page = await ctx.browser.context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    let spoilt = 0;
    await page.route(file, (route) => (spoilt++ === 0 ? spoil(route) : route.continue()));
    ctx.server.requests.length = 0;
    await page.goto(`${ctx.server.url}${linkFragment(SMALL)}`);
    await waitStatus(page, problems);
    assert.equal(spoilt, 2, "the early request, then the worker's own");
    assert.equal(await text(page, "error"), null, "no error shown");
    // The worker ran: it built the scenario and answered with a frame.
    assert.equal(await text(page, "status"), "paused");
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test("a trap that is no panic (out of memory) is reported in the page, not left seeking", async () => {
  const link = linkFragment(SMALL);
  const page = await ctx.browser.context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${ctx.server.url}${link}&t=5`);
  await waitStatus(page, problems);
  const [worker] = page.workers();
  assert.ok(worker, "the simulation worker is running");
  // What an allocation failure leaves: wasm32 aborts with an `unreachable` trap, which
  // reaches the worker's global scope as an uncaught error, with no panic before it.
  await worker.evaluate(() => {
    self.dispatchEvent(new ErrorEvent("error", { message: "RuntimeError: unreachable" }));
  });
  await page.waitForFunction(() => document.getElementById("status")?.textContent === "crashed", null, {
    timeout: 60_000,
    polling: 100,
  });
  const error = await text(page, "error");
  assert.match(error, /ran out of memory/);
  assert.match(error, /unreachable/);
  assert.ok(error.includes("Repro link") && error.includes(link), `no repro link in: ${error}`);
  await page.close();
});

test("a panic in the simulation worker is reported in the page with a repro link", async () => {
  const link = linkFragment(SMALL);
  const page = await ctx.browser.context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (window.__garbleNext) {
        window.__garbleNext = false;
        // No ToWorker variant has tag 0x09090909: bincode rejects it and the worker panics.
        return post.call(this, new Uint8Array([9, 9, 9, 9, 9, 9, 9, 9]), ...rest);
      }
      return post.call(this, message, ...rest);
    };
  });
  await page.goto(`${ctx.server.url}${link}&t=5`);
  await waitStatus(page, problems);
  await page.evaluate(() => {
    window.__garbleNext = true;
  });
  // Any command goes to the worker: step one event.
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.getElementById("status")?.textContent === "crashed", null, {
    timeout: 60_000,
    polling: 100,
  });
  const error = await text(page, "error");
  assert.match(error, /The simulation crashed/);
  assert.match(error, /deserialize/);
  assert.ok(error.includes("Repro link") && error.includes(link), `no repro link in: ${error}`);
  await screenshot(page, "worker-crashed");
  // The page is alive: the help overlay still opens.
  await page.keyboard.press("?");
  await page.waitForSelector("#help", { timeout: 10_000 });
  await page.close();
});
