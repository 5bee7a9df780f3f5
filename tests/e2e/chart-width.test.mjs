// Key charts (the scenario's key metrics, first and at full width) draw their labels in canvas
// pixels and are scaled to the panel, so a canvas wider than the panel shrinks its text: at
// 1024x768 a 1,280-pixel key chart shown 686 pixels wide had labels at half the size of the
// other charts', on a phone at a third. Each key chart's canvas is at most as wide as it is
// shown, or the usual chart width where the panel is narrower than that.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useApp } from "./lib/harness.mjs";
import { waitStatus } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();
const GUIDED = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";
/** The other charts' canvas width (`ChartProps::width`'s default). */
const USUAL = 640;

const CASES = [
  [GUIDED, 1440, 900],
  [GUIDED, 1024, 768],
  [GUIDED, 390, 844],
  ["scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure.toml", 390, 844],
];

for (const [file, width, height] of CASES) {
  test(`at ${width}x${height} key charts are drawn no wider than they are shown: ${file}`, async () => {
    const page = await ctx.browser.context.newPage();
    await page.setViewportSize({ width, height });
    const problems = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(`${ctx.server.url}${linkFragment(file)}&t=90`);
    await waitStatus(page, problems, ["paused"]);
    await page.waitForFunction(() => document.querySelectorAll('#views figure[data-key="true"] canvas').length > 0);
    const keys = await page.$$eval('#views figure[data-key="true"] canvas', (cs) =>
      cs.map((c) => ({ canvas: c.width, shown: Math.round(c.getBoundingClientRect().width) })),
    );
    assert.ok(keys.length > 0, "the scenario has key charts");
    for (const k of keys) {
      assert.ok(k.canvas <= Math.max(USUAL, k.shown + 1), `canvas ${k.canvas} px shown ${k.shown} px wide`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
