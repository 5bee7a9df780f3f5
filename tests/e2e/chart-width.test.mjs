// Charts draw their labels in canvas pixels, so a canvas drawn wider than it is shown shrinks
// its text: at 1024x768 a 1,280-pixel key chart shown 686 pixels wide had labels at half the
// size of the other charts', and on a phone every chart, drawn 640 pixels wide and shown 353,
// had labels at about half size (key charts at a third). Each chart's canvas is now drawn as
// wide as it is shown (views/shown_width.rs), and follows when the window is resized.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useApp } from "./lib/harness.mjs";
import { waitStatus } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();
const GUIDED = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";
/** The narrowest canvas a chart is drawn on (`MIN_CANVAS_PX` in web/src/views/chart.rs). */
const MIN_CANVAS = 280;

/** Each chart's canvas width, the width it is shown at, and whether it is a key chart. */
async function chartWidths(page) {
  return page.$$eval("#views figure.chart canvas", (cs) =>
    cs.map((c) => ({
      chart: c.closest("figure").dataset.chart,
      key: c.closest("figure").dataset.key === "true",
      canvas: c.width,
      shown: Math.round(c.getBoundingClientRect().width),
    })),
  );
}

/**
 * Each chart's widths once they settle: a chart is first drawn at its usual width, then at
 * its shown width when the page's ResizeObserver reports it, after layout. Waits up to 10 s
 * for every canvas to match, then returns what is there either way, for the assertion to name.
 */
async function settledWidths(page) {
  await page
    .waitForFunction(
      (min) =>
        [...document.querySelectorAll("#views figure.chart canvas")].every(
          (c) => Math.abs(c.width - Math.max(min, Math.round(c.getBoundingClientRect().width))) <= 1,
        ),
      MIN_CANVAS,
      { timeout: 10_000 },
    )
    .catch(() => {});
  return chartWidths(page);
}

/** Fails unless every chart is drawn as wide as it is shown. */
function assertDrawnAsShown(charts) {
  for (const c of charts) {
    const want = Math.max(MIN_CANVAS, c.shown);
    assert.ok(Math.abs(c.canvas - want) <= 1, `${c.chart}: canvas ${c.canvas} px, shown ${c.shown} px wide`);
  }
}

/** A new page at `width`x`height` on `file` at 90 s, paused, with its charts on; and the page
 * errors it reports. */
async function openAt(width, height, file) {
  const page = await ctx.browser.context.newPage();
  await page.setViewportSize({ width, height });
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(`${ctx.server.url}${linkFragment(file)}&t=90`);
  await waitStatus(page, problems, ["paused"]);
  await page.waitForFunction(() => document.querySelectorAll('#views figure[data-key="true"] canvas').length > 0);
  return { page, problems };
}

const CASES = [
  [GUIDED, 1440, 900],
  [GUIDED, 1024, 768],
  [GUIDED, 390, 844],
  ["scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure.toml", 390, 844],
];

for (const [file, width, height] of CASES) {
  test(`at ${width}x${height} charts are drawn as wide as they are shown: ${file}`, async () => {
    const { page, problems } = await openAt(width, height, file);
    const charts = await settledWidths(page);
    assert.ok(charts.some((c) => c.key), "the scenario has key charts");
    assert.ok(charts.some((c) => !c.key), "and other charts");
    assertDrawnAsShown(charts);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test("a chart redraws at its new width when the window is resized", async () => {
  const { page, problems } = await openAt(1440, 900, GUIDED);
  const before = await settledWidths(page);
  assertDrawnAsShown(before);
  await page.setViewportSize({ width: 390, height: 844 });
  const after = await settledWidths(page);
  assertDrawnAsShown(after);
  assert.ok(after[0].canvas < before[0].canvas, `${before[0].canvas} px, then ${after[0].canvas} px`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a chart is drawn once when it appears, at its shown width, not first at a guess", async () => {
  const page = await ctx.browser.context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  // plotters starts every drawing by filling the whole canvas white: count those per chart.
  await page.addInitScript(() => {
    window.__chartDraws = [];
    const fillRect = CanvasRenderingContext2D.prototype.fillRect;
    CanvasRenderingContext2D.prototype.fillRect = function (x, y, w, h) {
      const figure = this.canvas.closest?.("figure.chart");
      if (figure && x === 0 && y === 0 && w === this.canvas.width && h === this.canvas.height) {
        window.__chartDraws.push({ chart: figure.dataset.chart, width: w });
      }
      return fillRect.call(this, x, y, w, h);
    };
  });
  await page.goto(`${ctx.server.url}${linkFragment(GUIDED)}&t=90`);
  await waitStatus(page, [], ["paused"]);
  await settledWidths(page);
  // Away from the charts and back: every chart mounts again.
  await page.evaluate(() => (window.__chartDraws = []));
  await page.click('[data-view="log"]');
  await page.waitForFunction(() => !document.querySelector("#views figure.chart"));
  await page.click('[data-view="charts"]');
  const charts = await settledWidths(page);
  assertDrawnAsShown(charts);
  const draws = await page.evaluate(() => window.__chartDraws);
  const shown = Object.fromEntries(charts.map((c) => [c.chart, c.canvas]));
  for (const c of charts) {
    const mine = draws.filter((d) => d.chart === c.chart);
    assert.deepEqual(mine.map((d) => d.width), [shown[c.chart]], `${c.chart} was drawn at ${JSON.stringify(mine)}`);
  }
  await page.close();
});
