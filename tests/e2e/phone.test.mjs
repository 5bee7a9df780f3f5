// The phone layout (issue 18 item 10): at 390x844 nothing is wider than the screen, on every
// tab, with the guide on and with compare on (a11y.test.mjs checks that the controls and the
// key view come first); a broken link says so on the first screen; the tour's caption and the
// view it talks about share the screen (chart-width.test.mjs checks the key charts' width
// there).
import { test } from "node:test";
import assert from "node:assert/strict";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, screenshot } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();
const GUIDED = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";

/** The page's width beyond the viewport, and the widest elements that stick out. */
async function overflow(page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const wide = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5 && e.getClientRects().length > 0)
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}.${[...e.classList].join(".")} ${Math.round(e.getBoundingClientRect().right)}px`)
      .slice(0, 8);
    return { scroll: document.documentElement.scrollWidth, width, wide };
  });
}

/** Asserts the page does not scroll sideways, naming what sticks out if it does. */
async function assertFits(page, where) {
  const o = await overflow(page);
  assert.ok(o.scroll <= o.width, `${where}: page ${o.scroll}px wide on a ${o.width}px screen; sticking out: ${o.wide.join(", ")}`);
}

test("at 390x844 nothing scrolls sideways: every tab, guide on, compare on", async () => {
  const page = await ctx.browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${ctx.server.url}${linkFragment(GUIDED)}&t=90`);
  await waitStatus(page, [], ["paused"]);
  await assertFits(page, "opened");
  for (const tab of await page.$$eval("[data-view]", (bs) => bs.map((b) => b.dataset.view))) {
    await page.click(`[data-view="${tab}"]`);
    await page.waitForFunction(() => !document.querySelector("#views .hint")?.textContent.startsWith("Computing"));
    await assertFits(page, `${tab} tab`);
  }
  await page.click('[data-view="charts"]');
  await page.click("#guide-start");
  await page.waitForSelector("#guide");
  await waitStatus(page, [], ["paused"]);
  await assertFits(page, "guide on");
  await page.click("#guide-leave");
  await page.click("#compare-on");
  await page.waitForSelector("#compare.on");
  await waitStatus(page, [], ["paused"]);
  await page.waitForSelector('[data-chart-pair="leaderless"]');
  await assertFits(page, "compare on, charts");
  await page.click('[data-view="regions"]');
  await page.waitForSelector('[data-map="twin"] canvas');
  await assertFits(page, "compare on, regions");
  await screenshot(page, "phone-390x844-compare");
  await page.close();
});

test("at 390x844 a broken link says so on the first screen, above the default scenario", async () => {
  const page = await ctx.browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${ctx.server.url}#v2.this-is-broken`);
  await waitStatus(page, [], ["paused"]);
  const box = await page.evaluate(() => {
    const top = (sel) => document.querySelector(sel)?.getBoundingClientRect().top ?? null;
    return { error: top(".error-box"), scenario: top(".center > .scenario"), time: top(".center > .panel.time") };
  });
  assert.notEqual(box.error, null, "the error box is shown");
  assert.ok(box.error < box.scenario && box.error < box.time, `the error comes first: ${JSON.stringify(box)}`);
  assert.ok(box.error < 844, `and on the first screen: ${JSON.stringify(box)}`);
  await screenshot(page, "phone-390x844-broken-link");
  await page.close();
});

for (const file of [GUIDED, "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure.toml"]) {
  test(`at 390x844 the tour's caption stands above the views and stays in sight at each step: ${file}`, async () => {
    const page = await ctx.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${ctx.server.url}${linkFragment(file)}`);
    await waitStatus(page, [], ["paused"]);
    await page.click("#guide-start");
    await page.waitForSelector("#guide");
    let visited = 0;
    for (;;) {
      await waitStatus(page, [], ["paused"]);
      await page.waitForTimeout(300); // the step's scroll
      const at = await page.evaluate(() => ({
        step: document.getElementById("guide").dataset.step,
        caption: document.getElementById("guide").getBoundingClientRect().top,
        views: document.getElementById("views").getBoundingClientRect().top,
        chart: document.querySelector("#views .chart.highlight")?.getBoundingClientRect().top ?? null,
      }));
      assert.ok(at.caption < at.views, `the caption comes before the views: ${JSON.stringify(at)}`);
      assert.ok(at.caption >= 0 && at.caption < 844, `the caption is on the screen: ${JSON.stringify(at)}`);
      // The chart the step talks about shows below it, a good part of it on the same screen.
      if (at.chart !== null) {
        assert.ok(at.chart > at.caption && at.chart < 844 - 150, `the step's chart is in sight: ${JSON.stringify(at)}`);
      }
      visited++;
      const next = await page.$("#guide-next:not([disabled])");
      if (!next) break;
      await next.click();
      await page.waitForFunction((s) => document.getElementById("guide").dataset.step !== s, at.step);
    }
    assert.ok(visited >= 3, `the tour went through its steps (${visited} stops)`);
    await screenshot(page, `phone-390x844-tour-end-${file.replace(/^scenarios\/|\.toml$/g, "")}`);
    await page.close();
  });
}
