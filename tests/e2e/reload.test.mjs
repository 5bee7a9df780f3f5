// Nothing lost on reload (issue 18 item 7): compare mode, branches, undo history and the open
// tab survive a reload of the tab; corrupt saved state is ignored with a notice, not a blank
// page; a link that cannot be opened stays in the address bar.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, text, screenshot } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();
const SMALL = "scenarios/raft-basics-kill-a-store.toml";

const seed = (page) => page.$eval('input[data-field="seed"]', (i) => i.value);

test("a reload keeps compare mode, branches, undo and the open tab", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SMALL)}&t=10`);
  await waitStatus(page, problems, ["paused"]);
  const seedBefore = await seed(page);
  await page.fill('input[data-field="seed"]', String(Number(seedBefore) + 1));
  await page.press('input[data-field="seed"]', "Tab");
  await page.waitForFunction(() => !document.getElementById("undo").disabled);
  await waitStatus(page, problems, ["paused"]);
  await page.click("#branch-here");
  await page.waitForSelector('#branches [data-branch="1"]');
  await page.click("#compare-on");
  await page.waitForSelector("#compare.on");
  await page.click('[data-view="regions"]');
  await page.waitForSelector('[data-view="regions"].on');
  await waitStatus(page, problems, ["paused"]);
  const hashBefore = await page.textContent('[data-hash="twin"]');

  await page.reload();
  await waitStatus(page, problems, ["paused"]);
  await page.waitForSelector("#compare.on", { timeout: 60_000 });
  assert.equal(await page.$$eval("#branches [data-branch]", (ls) => ls.length), 2, "branches kept");
  assert.ok(await page.$('[data-view="regions"].on'), "the Regions tab is open again");
  assert.equal(await seed(page), String(Number(seedBefore) + 1));
  await page.waitForFunction((h) => document.querySelector('[data-hash="twin"]')?.textContent === h, hashBefore);
  await screenshot(page, "reload-kept-compare-branches");
  assert.equal(await page.$eval("#undo", (b) => b.disabled), false, "undo kept");
  await page.click("#undo");
  await page.waitForFunction((s) => document.querySelector('input[data-field="seed"]').value === s, seedBefore);
  await page.close();
});

test("corrupt saved state is ignored with a notice; another tab keeps its own", async () => {
  const url = `${ctx.server.url}${linkFragment(SMALL)}&t=5`;
  const { page, problems } = await open(ctx.browser.context, url);
  await waitStatus(page, problems, ["paused"]);
  await page.click("#compare-on");
  await page.waitForSelector("#compare.on");
  const other = await open(ctx.browser.context, url);
  await waitStatus(other.page, other.problems, ["paused"]);
  await other.page.reload();
  await waitStatus(other.page, other.problems, ["paused"]);
  assert.equal(await other.page.$("#compare.on"), null, "the other tab took this tab's compare mode");
  await other.page.close();

  await page.evaluate(() => sessionStorage.setItem("faultline.session", "0badc0ffee"));
  await page.reload();
  await waitStatus(page, problems, ["paused"]);
  assert.match((await text(page, "notice")) ?? "", /could not be read/);
  assert.equal(await page.$("#compare.on"), null);
  await page.close();
});

test("a broken link stays in the address bar", async () => {
  const broken = "#v2.AAAAthis-is-not-a-link";
  const { page } = await open(ctx.browser.context, `${ctx.server.url}${broken}`);
  await page.waitForSelector("#error");
  await page.waitForFunction(() => ["paused", "finished"].includes(document.getElementById("status")?.textContent));
  await page.waitForTimeout(1_000);
  assert.equal(await page.evaluate(() => location.hash), broken);
  assert.doesNotMatch((await text(page, "error")) ?? "", /Failed[A-Z]|[a-z][A-Z][a-z]+\(/, "an enum name in the error");
  await screenshot(page, "broken-link-kept");
  await page.close();
});
