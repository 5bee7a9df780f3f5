// The page stays smooth while the 256,000-region cluster plays: the simulation runs in a Web
// Worker, so the main thread only renders frames and handles input. Measures frame intervals
// (requestAnimationFrame) and input handling while tikv-14547-full-scale plays, and checks
// that a crash inside the worker is reported in the page with a repro link.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { text } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

const FULL_SCALE = "scenarios/tikv-14547-full-scale.toml";
/** How long to measure, while the run plays. */
const MEASURE_MS = 5_000;
/** Keys pressed during the measurement ("?" opens and closes the help overlay). */
const PRESSES = 10;

/** The given percentile of a list of numbers. */
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const f1 = (x) => x.toFixed(1);

test("tikv-14547 at full scale plays while the page keeps its frame rate and answers input", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(FULL_SCALE)}`);
  // Building 256,000 regions takes a while (in the worker); the page is up meanwhile.
  await page.waitForFunction(
    () => document.getElementById("status")?.textContent === "running" && document.getElementById("events")?.textContent !== "0",
    null,
    { timeout: 180_000, polling: 200 },
  );
  const simBefore = await text(page, "sim-time");
  const eventsBefore = Number(await text(page, "events"));

  // Frame intervals from requestAnimationFrame; for each key press, the input delay (event
  // timestamp to handler) and the response (to the DOM change the app makes for it).
  await page.evaluate(() => {
    const p = { frames: [], delays: [], responses: [], stop: false, lastKey: null };
    window.__perf = p;
    let last = null;
    const loop = (t) => {
      if (last !== null) p.frames.push(t - last);
      last = t;
      if (!p.stop) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    document.addEventListener(
      "keydown",
      (e) => {
        p.delays.push(performance.now() - e.timeStamp);
        p.lastKey = e.timeStamp;
      },
      true,
    );
    let open = !!document.getElementById("help");
    new MutationObserver(() => {
      const now = !!document.getElementById("help");
      if (now !== open && p.lastKey !== null) {
        p.responses.push(performance.now() - p.lastKey);
        p.lastKey = null;
      }
      open = now;
    }).observe(document.body, { childList: true, subtree: true });
  });
  const start = Date.now();
  for (let i = 0; i < PRESSES; i++) {
    await page.waitForTimeout(MEASURE_MS / PRESSES);
    await page.keyboard.press("?");
  }
  await page.waitForTimeout(Math.max(0, MEASURE_MS - (Date.now() - start)) + 300);
  const perf = await page.evaluate(() => {
    window.__perf.stop = true;
    return window.__perf;
  });
  const status = await text(page, "status");
  const simAfter = await text(page, "sim-time");
  const eventsAfter = Number(await text(page, "events"));

  const frames = perf.frames;
  const p50 = percentile(frames, 50);
  const p95 = percentile(frames, 95);
  const worst = Math.max(...frames);
  const fps = (1000 * frames.length) / frames.reduce((a, b) => a + b, 0);
  const delayP95 = percentile(perf.delays, 95);
  const responseP95 = percentile(perf.responses, 95);
  console.log(
    `full scale playing ${simBefore} -> ${simAfter} (${eventsAfter - eventsBefore} events in ~${MEASURE_MS / 1000} s), status ${status}\n` +
      `  frames: ${frames.length}, ${f1(fps)} fps; interval p50 ${f1(p50)} ms, p95 ${f1(p95)} ms, worst ${f1(worst)} ms\n` +
      `  input delay (keydown timestamp -> handler): p95 ${f1(delayP95)} ms, max ${f1(Math.max(...perf.delays))} ms over ${perf.delays.length} keys\n` +
      `  response (keydown -> help overlay toggled in the DOM): p95 ${f1(responseP95)} ms, max ${f1(Math.max(...perf.responses))} ms over ${perf.responses.length}`,
  );

  assert.deepEqual(problems, [], "console errors while playing");
  assert.ok(eventsAfter > eventsBefore, "the worker kept simulating during the measurement");
  assert.equal(perf.delays.length, PRESSES, "every key press reached the page");
  assert.equal(perf.responses.length, PRESSES, "every key press toggled the help overlay");
  // Input within 100 ms (issue 5).
  assert.ok(delayP95 <= 100, `input delay p95 ${f1(delayP95)} ms > 100 ms`);
  assert.ok(responseP95 <= 100, `response p95 ${f1(responseP95)} ms > 100 ms`);
  // 60 fps is a 16.7 ms interval. Headless Chromium on a shared 2-core box misses vsyncs
  // whatever the page does (measured here: 53-59 fps, p95 16.8-33.3 ms), so the bounds leave
  // room for that; the design before the worker, with simulation slices on the main thread,
  // fails them (25 fps, p95 83 ms, input delay 692 ms: see docs/bench.md).
  assert.ok(fps >= 40, `${f1(fps)} fps < 40`);
  assert.ok(p95 <= 50, `frame interval p95 ${f1(p95)} ms > 50 ms`);
  await page.close();
});

test("a panic in the simulation worker is reported in the page with a repro link", async () => {
  const link = linkFragment("scenarios/raft-basics-kill-a-store.toml");
  const { page } = await open(ctx.browser.context, `${ctx.server.url}?crash-worker${link}`);
  await page.waitForFunction(() => document.getElementById("status")?.textContent === "crashed", null, {
    timeout: 60_000,
    polling: 100,
  });
  const error = await text(page, "error");
  assert.match(error, /The simulation crashed/);
  assert.match(error, /crash-report test/);
  assert.ok(error.includes(`Repro link`) && error.includes(link), `no repro link in: ${error}`);
  // The page is alive: the help overlay still opens.
  await page.keyboard.press("?");
  await page.waitForSelector("#help", { timeout: 5_000 });
  await page.close();
});
