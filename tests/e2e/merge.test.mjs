// A region merge (issue 14) as the playground shows it: the merged region's id is left blank on
// the map and its detail says which region took it; the target's detail names the keys of both;
// a merge built in the palette is in the shared link.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, screenshot, exportedToml, clickRegion } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

const MERGE = "scenarios/cdc-region-merge-during-replication.toml";

test("a merged region is gone from the map and its target holds both ranges", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(MERGE)}&t=31`);
  await waitStatus(page, problems);
  await page.click('button[data-view="regions"]');
  // Ids are not reused: the map keeps region 2's cell, blank.
  await page.waitForSelector('.region-map[data-regions="8"]');
  await clickRegion(page, 2);
  const gone = await page.textContent(".region-detail");
  assert.match(gone, /Merged into region 3: its keys are region 3's now and its peers were destroyed/);
  // PrepareMerge made the source's epoch 2/2; a gone region has no peer table.
  assert.match(gone, /Last epoch 2\/2/);
  assert.equal(await page.locator(".region-detail table").count(), 0);
  await screenshot(page, "merge-gone-region-detail");
  await clickRegion(page, 3);
  const target = await page.textContent(".region-detail");
  // Region 3 (keys 150..200) took region 2's keys 100..150; its version is max(2, 1) + 1.
  assert.match(target, /keys 100\.\.200 of table t1/);
  assert.match(target, /epoch 1\/3/);
  assert.match(target, /leader on tikv-/);
  await screenshot(page, "merge-region-detail");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a merge built in the palette is in the shared link", async () => {
  const CDC = "scenarios/cdc-basic-replication.toml";
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(CDC)}&t=10`);
  await waitStatus(page, problems, ["paused"]);
  await page.selectOption("#fault-action", "merge");
  await page.selectOption("#fault-target", "pd-1");
  await page.fill("#fault-region", "1");
  await page.fill("#fault-at", "40s");
  await page.click("#fault-schedule");
  await waitStatus(page, problems, ["paused"]);
  const chips = await page.$$eval(".fault", (cs) => cs.map((c) => c.textContent));
  assert.ok(chips.some((c) => c.includes("merge region 1")), chips.join(" | "));
  await screenshot(page, "merge-palette");
  const link = await page.evaluate(() => location.href);
  const shared = await open(ctx.browser.context, link);
  await waitStatus(shared.page, shared.problems, ["paused"]);
  const toml = await exportedToml(shared.page);
  for (const line of ['action = "merge"', "region = 1"]) {
    assert.ok(toml.includes(line), `${line} missing from the shared scenario:\n${toml}`);
  }
  assert.deepEqual(problems, []);
  await shared.page.close();
  await page.close();
});
