// A region split (issue 14) as the playground shows it: after the split the region map holds
// the new regions, and a new region's detail says which region it split from and its epoch
// (conf_ver/version), the numbers the gallery tour names; with TiCDC, the keys and table it holds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, screenshot, exportedToml, clickRegion } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

const SPLIT = "scenarios/raft-region-split.toml";

test("a split region shows on the map, with the region it split from and its epoch", async () => {
  const before = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SPLIT)}&t=19`);
  await waitStatus(before.page, before.problems);
  await before.page.click('button[data-view="regions"]');
  await before.page.waitForSelector('.region-map[data-regions="16"]');
  await before.page.close();

  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SPLIT)}&t=21`);
  await waitStatus(page, problems);
  await page.click('button[data-view="regions"]');
  await page.waitForSelector('.region-map[data-regions="19"]');
  // The heatmap's rows are the starting regions' ranges, and its caption says where the
  // split regions are drawn.
  assert.match(
    await page.textContent(".heatmap figcaption"),
    /The 3 regions split off since the start are drawn in the rows of the ranges they came from/,
  );
  await clickRegion(page, 17);
  const detail = await page.textContent(".region-detail");
  assert.match(detail, /split from region 5/);
  assert.match(detail, /epoch 1\/4/);
  assert.match(detail, /leader on tikv-/);
  await screenshot(page, "split-region-detail");
  await clickRegion(page, 2);
  const untouched = await page.textContent(".region-detail");
  assert.doesNotMatch(untouched, /split from/);
  assert.match(untouched, /epoch 1\/1/);
  assert.deepEqual(problems, []);
  await page.close();
});

const CDC_SPLIT = "scenarios/cdc-region-split-during-replication.toml";

test("with TiCDC, a split region's detail names its keys and table", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(CDC_SPLIT)}&t=41`);
  await waitStatus(page, problems);
  await page.click('button[data-view="regions"]');
  await page.waitForSelector('.region-map[data-regions="11"]');
  await clickRegion(page, 8);
  const detail = await page.textContent(".region-detail");
  // Region 2 (keys 100..150, table t1) split in four: region 8 took the first part.
  assert.match(detail, /keys 100\.\.112 of table t1/);
  assert.match(detail, /split from region 2/);
  assert.match(detail, /epoch 1\/4/);
  await screenshot(page, "split-cdc-region-detail");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a split by table and a split at a row built in the palette are in the shared link", async () => {
  const CDC = "scenarios/cdc-basic-replication.toml";
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(CDC)}&t=10`);
  await waitStatus(page, problems, ["paused"]);
  await page.selectOption("#fault-action", "split");
  await page.selectOption("#fault-target", "pd-1");
  await page.fill("#fault-region", "");
  await page.fill("#fault-table", "t1");
  await page.fill("#fault-parts", "3");
  await page.fill("#fault-at", "40s");
  await page.click("#fault-schedule");
  await waitStatus(page, problems, ["paused"]);
  await page.fill("#fault-table", "t2");
  await page.fill("#fault-row", "30");
  await page.fill("#fault-parts", "");
  await page.fill("#fault-at", "50s");
  await page.click("#fault-schedule");
  await waitStatus(page, problems, ["paused"]);
  const chips = await page.$$eval(".fault", (cs) => cs.map((c) => c.textContent));
  assert.ok(chips.some((c) => c.includes("split t1's regions in 3")), chips.join(" | "));
  assert.ok(chips.some((c) => c.includes("split t2 at row 30")), chips.join(" | "));
  await screenshot(page, "split-by-table-palette");

  const link = await page.evaluate(() => location.href);
  const shared = await open(ctx.browser.context, link);
  await waitStatus(shared.page, shared.problems, ["paused"]);
  const toml = await exportedToml(shared.page);
  for (const line of ['table = "t1"', "parts = 3", 'table = "t2"', "row = 30"]) {
    assert.ok(toml.includes(line), `${line} missing from the shared scenario:\n${toml}`);
  }
  assert.deepEqual(problems, []);
  await shared.page.close();
  await page.close();
});
