// The page stays smooth while the 256,000-region cluster plays: the simulation runs in a Web
// Worker, so the main thread only renders frames and handles input. Measures frame intervals
// (requestAnimationFrame) and input handling while tikv-14547-full-scale plays. The test
// asserts behaviour (the worker keeps simulating, frames arrive, every key press is handled);
// the figures are recorded (lib/measure.mjs), never pass/fail: they depend on machine load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { text } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";
import { record } from "./lib/measure.mjs";

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
  // Building 256,000 regions takes a while (in the worker); the page is up meanwhile. The
  // scenario opens paused at 0; then it plays at full speed.
  await page.waitForFunction(() => document.getElementById("status")?.textContent === "paused", null, {
    timeout: 180_000,
    polling: 200,
  });
  await page.click('[data-speed="max"]');
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
  console.log(`full scale playing ${simBefore} -> ${simAfter} (${eventsAfter - eventsBefore} events in ~${MEASURE_MS / 1000} s), status ${status}`);
  record("full scale playing: page frames", { frames: frames.length, fps, p50_ms: p50, p95_ms: p95, worst_ms: worst });
  record("full scale playing: input", {
    keys: perf.delays.length,
    delay_p95_ms: delayP95,
    delay_max_ms: Math.max(...perf.delays),
    response_p95_ms: responseP95,
    response_max_ms: Math.max(...perf.responses),
  });

  assert.deepEqual(problems, [], "console errors while playing");
  assert.ok(eventsAfter > eventsBefore, "the worker kept simulating during the measurement");
  assert.equal(perf.delays.length, PRESSES, "every key press reached the page");
  assert.equal(perf.responses.length, PRESSES, "every key press toggled the help overlay");
  assert.ok(frames.length > 0, "the page painted frames while the run played");
  await page.close();
});
