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
