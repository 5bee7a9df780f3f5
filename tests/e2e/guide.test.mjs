// Guided playback (issue 18 items 1-2): a scenario opens paused, at 0 or at the link's cursor;
// each tour step moves the cursor to its time and pauses there, brings the view it names into
// sight (its tab open, its chart highlighted and in the viewport, its node highlighted) and
// shows its caption's claims, checked; Next and Prev work for a one-step tour. Every gallery
// tour is walked from step 1 to its last step.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, text, screenshot, ARTIFACTS } from "./lib/app.mjs";
import { ROOT, linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

/** The shipped gallery, read from crates/scenario/src/gallery.rs (as app.test.mjs does). */
function shipped() {
  const src = fs.readFileSync(path.join(ROOT, "crates/scenario/src/gallery.rs"), "utf8");
  const list = src.match(/pub const SHIPPED[^=]*=\s*shipped!\[([\s\S]*?)\]/);
  assert.ok(list, "gallery.rs no longer has a `SHIPPED = shipped![...]` list");
  return [...list[1].matchAll(/"([^"]+\.toml)"/g)].map((m) => path.join("scenarios", m[1]));
}

/** Seconds of a scenario duration such as "1m30s", "90s", "500ms". */
function seconds(dur) {
  const unit = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6 };
  let total = 0;
  for (const [, n, u] of dur.matchAll(/(\d+(?:\.\d+)?)(ms|us|h|m|s)/g)) total += Number(n) * unit[u];
  return total;
}

/** The `at` of every [[guide]] step of a scenario file, in seconds. */
function guideTimes(file) {
  const text = fs.readFileSync(path.resolve(ROOT, file), "utf8");
  return text
    .split("[[guide]]")
    .slice(1)
    .map((chunk) => seconds(chunk.split(/\n\[/)[0].match(/^at\s*=\s*"([^"]+)"/m)[1]));
}

/** The scenario's `duration` (its top-level key, before the first table), in seconds. */
function scenarioEnd(file) {
  const text = fs.readFileSync(path.resolve(ROOT, file), "utf8");
  const top = text.split(/^\[/m)[0];
  return seconds(top.match(/^duration\s*=\s*"([^"]+)"/m)[1]);
}

/** Each [[guide]] step's own keys (before its first sub-table): at (seconds), tab, metric,
 * node, and how many [[guide.expect]] claims it has. */
function guideSteps(file) {
  const text = fs.readFileSync(path.resolve(ROOT, file), "utf8");
  return text
    .split("[[guide]]")
    .slice(1)
    .map((chunk) => {
      const own = chunk.split(/\n\[/)[0];
      const key = (k) => own.match(new RegExp(`^${k}\\s*=\\s*"([^"]+)"`, "m"))?.[1];
      const body = chunk.split(/\n\[(?!\[guide\.expect\]\])/)[0];
      return {
        at: seconds(key("at")),
        tab: key("tab"),
        metric: key("metric"),
        node: key("node"),
        claims: (body.match(/\[\[guide\.expect\]\]/g) ?? []).length,
      };
    });
}

/** True when the element matching `selector` is at least partly inside the viewport. */
async function inViewport(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
  });
}

/** The step's named views are open, highlighted and in sight; its claims are shown, passed. */
async function checkStepView(page, step, label) {
  if (step.tab) {
    await page.waitForSelector(`[data-view="${step.tab}"].on`, { timeout: 10_000 });
  }
  if (step.metric && (step.tab ?? "charts") === "charts") {
    await page.waitForSelector("#views .chart.highlight", { timeout: 20_000 });
    await page.waitForFunction(() => {
      const r = document.querySelector("#views .chart.highlight").getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    }, null, { timeout: 10_000 });
    assert.ok(await inViewport(page, "#views .chart.highlight"), `${label}: its chart is in sight`);
    // The caption stays in sight above the chart it talks about (sticky on a wide screen),
    // and does not cover the chart's top.
    const at = await page.evaluate(() => ({
      guide: document.getElementById("guide").getBoundingClientRect().toJSON(),
      chart: document.querySelector("#views .chart.highlight").getBoundingClientRect().toJSON(),
      height: window.innerHeight,
    }));
    assert.ok(at.guide.bottom > 0 && at.guide.top < at.height, `${label}: its caption is in sight`);
    assert.ok(at.chart.top >= at.guide.bottom - 1, `${label}: the caption covers its chart's top`);
  } else if (step.tab) {
    assert.ok(await inViewport(page, "#views"), `${label}: its view is in sight`);
  }
  if (step.node) {
    await page.waitForSelector(`[data-node="${step.node}"].guided`, { timeout: 10_000 });
  }
  const verdicts = await page.$$eval("#guide-claims li", (lis) => lis.map((li) => li.dataset.verdict));
  assert.equal(verdicts.length, step.claims, `${label}: every claim is shown`);
  assert.ok(verdicts.every((v) => v === "pass"), `${label}: claims ${verdicts.join(",")}`);
}

const shown = (secs) => `${secs.toFixed(3)} s`;

/** Clicks a tour button and waits for the cursor to stop: paused, or finished for a step at
 * the run's end (the page says the run is over there, truthfully). */
async function stepTo(page, problems, button, atEnd = false) {
  await page.click(button);
  await waitStatus(page, problems, [atEnd ? "finished" : "paused"]);
}

test("every gallery tour opens paused at 0 and pauses at each step's time", async (t) => {
  for (const file of shipped()) {
    const times = guideTimes(file);
    if (times.length === 0) continue;
    await t.test(file, async () => {
      const { page, problems } = await open(ctx.browser.context, ctx.server.url + linkFragment(file));
      await waitStatus(page, problems, ["paused"]);
      assert.equal(await text(page, "sim-time"), shown(0), "opens at 0");
      // Still paused a moment later: nothing plays before the reader asks.
      await page.waitForTimeout(500);
      assert.equal(await text(page, "status"), "paused");
      assert.equal(await text(page, "sim-time"), shown(0));
      const end = scenarioEnd(file);
      await stepTo(page, problems, "#guide-start", times[0] >= end);
      const steps = guideSteps(file);
      // The key step: the last one naming a chart (else the last), saved as an artifact.
      const named = steps.map((s, i) => (s.metric ? i : -1)).filter((i) => i >= 0);
      const key = named.length ? named[named.length - 1] : steps.length - 1;
      for (let i = 0; i < times.length; i++) {
        if (i > 0) await stepTo(page, problems, "#guide-next", times[i] >= end);
        assert.equal(await text(page, "sim-time"), shown(times[i]), `step ${i + 1}`);
        assert.match(await text(page, "guide-step"), new RegExp(`^Step ${i + 1} of ${times.length}`));
        assert.ok((await text(page, "guide-caption")).length > 10, `step ${i + 1} has a caption`);
        await checkStepView(page, steps[i], `${file} step ${i + 1}`);
        if (i === key) {
          await page.screenshot({ path: await keyShotPath(file) });
        }
      }
      assert.equal(await page.$eval("#guide-next", (b) => b.disabled), true, "Next ends at the last step");
      await page.close();
    });
  }
});

/** Where a scenario's key-step screenshot goes: what was in the viewport, not the whole page. */
async function keyShotPath(file) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, `guide-key-${path.basename(file, ".toml")}.png`);
}

/** A copy of tiflow#9595-fixed whose tour is one step at 2m (the shape the issue reported). */
function oneStepTour() {
  const src = fs.readFileSync(
    path.join(ROOT, "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml"),
    "utf8",
  );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "faultline-tour-")), "one-step.toml");
  const step = '[[guide]]\nat = "2m"\ncaption = "TiKV is back; every region is re-requested."\n';
  fs.writeFileSync(file, src.slice(0, src.indexOf("[[guide]]")) + step);
  return file;
}

test("a one-step tour: Next reaches its step, Prev goes back to the start", async () => {
  const file = oneStepTour();
  const [at] = guideTimes(file);
  assert.ok(at > 0, "the one-step tour's step is after 0");
  const { page, problems } = await open(ctx.browser.context, ctx.server.url + linkFragment(file));
  await waitStatus(page, problems, ["paused"]);
  await stepTo(page, problems, "#guide-start");
  assert.equal(await text(page, "sim-time"), shown(at));
  assert.match(await text(page, "guide-step"), /^Step 1 of 1/);
  await screenshot(page, "guide-one-step");
  await stepTo(page, problems, "#guide-prev");
  assert.equal(await text(page, "sim-time"), shown(0));
  assert.match(await text(page, "guide-caption"), /starts at/);
  await stepTo(page, problems, "#guide-next");
  assert.equal(await text(page, "sim-time"), shown(at));
  await page.close();
});

test("a link with a cursor opens paused there", async () => {
  const file = "scenarios/raft-basics-kill-a-store.toml";
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(file)}&t=42`);
  await waitStatus(page, problems, ["paused"]);
  assert.equal(await text(page, "sim-time"), shown(42));
  await page.waitForTimeout(500);
  assert.equal(await text(page, "status"), "paused");
  await page.close();
});
