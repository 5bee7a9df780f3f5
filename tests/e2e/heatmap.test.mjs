// The region heatmap (issue 18 item 4) and seek progress (item 9): regions without quorum (two
// of four stores dead) are a leaderless stripe until a store returns, and none is left after;
// clicking the stripe selects a leaderless region; "next leaderless region" cycles through
// them; a long seek at
// full scale shows a progress bar. The seek speeds are recorded (lib/measure.mjs), with the
// model alone's speed over the same stretch in the same browser (lib/raw-model.mjs), never
// asserted: they depend on the machine's load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, text, screenshot, seekTo as seekToTime } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";
import { record } from "./lib/measure.mjs";
import { rawModelRun } from "./lib/raw-model.mjs";

const ctx = useApp();

const QUORUM_LOST = "scenarios/raft-quorum-lost-two-stores.toml";
const FULL_SCALE = "scenarios/tikv-14547-full-scale.toml";

/** Opens a scenario at a cursor (seconds) on the region map tab, paused there. */
async function openRegions(file, secs) {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(file)}&t=${secs}`);
  await waitStatus(page, problems);
  await page.click('button[data-view="regions"]');
  await page.waitForSelector(".heatmap[data-recorded]", { timeout: 60_000 });
  return { page, problems };
}

/** The heatmap's data attributes. */
async function heatmap(page) {
  return page.evaluate(() => ({ ...document.querySelector(".heatmap").dataset }));
}

/** How many of the region map's canvas pixels are painted (not transparent). */
const paintedPixels = (page) =>
  page.$eval(".region-map canvas", (c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });

/** The selected region the detail panel shows, and whether it is leaderless. */
async function selected(page) {
  await page.waitForSelector(".region-detail[data-region]", { timeout: 30_000 });
  return page.evaluate(() => {
    const el = document.querySelector(".region-detail[data-region]");
    return { region: Number(el.dataset.region), leaderless: el.dataset.leaderless };
  });
}

test("regions without quorum are a leaderless stripe until tikv-2 returns, and none is left after", async () => {
  // tikv-1 and tikv-2 die at 30 s, tikv-2 returns at 2m30s; at 2m40s the last few of the
  // 128 regions without quorum are still electing, at 4 min every region is led.
  const buggy = await openRegions(QUORUM_LOST, 160);
  const b = await heatmap(buggy.page);
  const fixed = await openRegions(QUORUM_LOST, 240);
  const f = await heatmap(fixed.page);
  await screenshot(buggy.page, "heatmap-quorum-lost-stuck");
  await screenshot(fixed.page, "heatmap-quorum-lost-healed");
  assert.equal(b.buckets, "256", "256 regions, one per row");
  assert.ok(Number(b.recorded) > 150, `columns up to 2m40s: ${b.recorded}`);
  assert.ok(Number(b.stripeRow) >= 0, "a leaderless row at 2m40s");
  assert.equal(f.stripeRow, "-1", "no leaderless row at 4 min");
  // The stripe stays on the map after it ends: the 4 min map holds every cell of the 2m40s one.
  assert.ok(Number(f.leaderlessCells) >= Number(b.leaderlessCells), `2m40s ${b.leaderlessCells} cells, 4m ${f.leaderlessCells}`);
  assert.ok(Number(b.leaderlessCells) > 100 * 100, `128 rows for two minutes: ${b.leaderlessCells}`);
  await fixed.page.close();
  // The first page was left in the background when the second one opened.
  await buggy.page.bringToFront();

  // Click the stripe in the cursor's own column, the last one recorded, on the right
  // part of its cell: that selects a leaderless region there. (This test used to click the
  // column before, noting that the cursor's own column "does not select yet". The cause was
  // the test: it placed the click with the border box's width, 640 px, while Playwright
  // measures from the padding box, 638 px wide, so the click landed on the next column,
  // not yet recorded.)
  const [col, row] = await buggy.page.evaluate(() => {
    const el = document.querySelector(".heatmap");
    return [Number(el.dataset.recorded) - 1, Number(el.dataset.stripeRow)];
  });
  assert.ok(row >= 0, "a leaderless row in the last column");
  // Playwright's position is relative to the padding box, which on this canvas (no padding)
  // is the content box the bitmap fills.
  const canvas = buggy.page.locator(".heatmap canvas");
  const content = await canvas.evaluate((c) => ({ width: c.clientWidth, height: c.clientHeight }));
  await canvas.click({
    position: {
      x: ((col + 0.8) * content.width) / Number(b.columns),
      y: ((row + 0.5) * content.height) / Number(b.buckets),
    },
  });
  await waitStatus(buggy.page, buggy.problems);
  const pick = await selected(buggy.page);
  assert.equal(pick.leaderless, "true", `clicked region ${pick.region} is leaderless`);
  // The region map is still painted: this click selects a region without moving the cursor,
  // so the map does not change, and the map used to stay blank after it.
  assert.equal(await paintedPixels(buggy.page), 256, "every region's pixel is painted");
  await screenshot(buggy.page, "heatmap-quorum-lost-clicked");

  // "Next leaderless region" moves to the next leaderless region in key order and, after the
  // last, back to the first: click until a region comes round again (at most once per region
  // of the map; how many are leaderless here is the model's business, not this test's).
  const seen = [pick.region];
  while (new Set(seen).size === seen.length && seen.length <= 256) {
    const before = seen[seen.length - 1];
    await buggy.page.click('[data-action="next-leaderless"]');
    await buggy.page.waitForFunction(
      (before) => Number(document.querySelector(".region-detail[data-region]")?.dataset.region) !== before,
      before,
      { timeout: 10_000 },
    );
    const next = await selected(buggy.page);
    assert.equal(next.leaderless, "true", `next leaderless region ${next.region}`);
    seen.push(next.region);
  }
  const distinct = new Set(seen);
  assert.ok(distinct.size >= 2, `several leaderless regions: ${seen}`);
  assert.ok(distinct.size < seen.length, `it cycles back: ${seen}`);
  const wraps = seen.slice(1).filter((r, i) => r < seen[i]).length;
  assert.ok(wraps <= 1, `in key order, wrapping once: ${seen}`);
  assert.deepEqual(buggy.problems, []);
  await buggy.page.close();
});

test("with every region led, the region map says there is no leaderless region", async () => {
  const { page, problems } = await openRegions(QUORUM_LOST, 240);
  await page.waitForSelector('[data-next-leaderless="none"]');
  assert.match(await page.textContent(".region-map-next"), /no leaderless region/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a seek at full scale shows its progress; a seek back into played time uses snapshots", async () => {
  // The bar first: the model alone over the same stretch, in this browser, before the app's
  // worker (and its idle work) runs beside it.
  const raw = await rawModelRun(ctx.browser.context, ctx.server.url, 30, 6);
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(FULL_SCALE)}&t=30`);
  await page.waitForFunction(() => document.getElementById("status")?.textContent === "paused", null, {
    timeout: 300_000,
    polling: 200,
  });
  // Forward into unplayed time: 30 s to 6 min, watching the progress bar move.
  const seekTo = (secs) => seekToTime(page, secs);
  const forward = await seekTo(360);
  assert.equal(await text(page, "sim-time"), "360.000 s");
  const steps = new Set(forward.reached);
  assert.ok(steps.size >= 3, `the progress bar moved during the seek: ${[...steps]}`);
  record("full scale seek 30 s -> 6 min (unplayed)", {
    wall_ms: forward.wallMs,
    sim_s_per_s: 330 / (forward.wallMs / 1000),
    progress_updates: steps.size,
    // Issue 18 item 9's target: at least 80% of the raw speed. The landing frame is in the
    // seek's time, not in the raw model's.
    ...(raw.skipped
      ? { raw_model: `not measured: ${raw.skipped}` }
      : { raw_model_ms: raw.ms, raw_model_events: raw.events, share_of_raw_pct: (100 * raw.ms) / forward.wallMs }),
  });
  await screenshot(page, "seek-full-scale-landed");
  // Back into played time: from the nearest snapshot.
  const back = await seekTo(200);
  record("full scale seek 6 min -> 200 s (played)", { wall_ms: back.wallMs });
  // The forward seek took half the snapshots the budget had room for; once the cursor rests,
  // idle time fills the gaps (the status line's count grows), and seeks back replay less.
  const held = () =>
    page.evaluate(() => {
      const dt = [...document.querySelectorAll("dt")].find((d) => d.textContent === "snapshots");
      return Number(dt?.nextElementSibling?.textContent);
    });
  const landed = await held();
  const fillStart = Date.now();
  let filled = landed;
  // 16: the budget at full scale (`Snapshots::budget_for`); the fill stops there.
  while (Date.now() - fillStart < 120_000 && filled < 16) {
    await page.waitForTimeout(250);
    filled = await held();
  }
  assert.ok(filled > landed, `idle time added snapshots: ${landed} -> ${filled}`);
  assert.equal(await text(page, "sim-time"), "200.000 s", "the cursor stayed where it was");
  record("full scale idle fill after the seeks", {
    snapshots_before: landed,
    snapshots_after: filled,
    wall_ms: Date.now() - fillStart,
  });
  const after = {};
  for (const secs of [330, 100, 250]) after[`to_${secs}_s_ms`] = (await seekTo(secs)).wallMs;
  record("full scale seeks into played time after the idle fill", after);
  // The tour's steps and the kill have snapshots at their very times (`Snapshots::with_landmarks`).
  const tour = {};
  for (const secs of [90, 61, 60]) tour[`to_${secs}_s_ms`] = (await seekTo(secs)).wallMs;
  record("full scale seeks back to tour steps (snapshots at the steps)", tour);
  // 250 s is where the cursor was before the tour steps: the seek that left it kept the run.
  record("full scale seek back to where the cursor was (kept by the seek that left it)", {
    to_250_s_ms: (await seekTo(250)).wallMs,
  });
  assert.deepEqual(problems, []);
  await page.close();
});
