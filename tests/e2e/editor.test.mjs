// The fault editor never changes what the user did not touch (issue 18 item 6): a click on a
// fault chip selects it and leaves the scenario as it was, a drag moves it; a node's menu
// offers only what applies to that node, and Remove removes that node or says why not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, text, screenshot, exportedToml } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

/** tikv-1 is killed at 30 s for 90 s: its chip is a bar, so its middle is far from 30 s. */
const SMALL = "scenarios/raft-basics-kill-a-store.toml";

/** The scenario part of the URL hash (without the cursor). */
const scenarioHash = (page) => page.evaluate(() => location.hash.split("&")[0]);

async function openPaused() {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SMALL)}&t=10`);
  await waitStatus(page, problems, ["paused"]);
  return { page, problems };
}

test("a click on a fault chip selects it without moving it; a drag moves it", async () => {
  const { page, problems } = await openPaused();
  const before = await scenarioHash(page);
  const chip = '[data-fault="0"]';
  const titleBefore = await page.$eval(chip, (e) => e.title);
  await page.click(chip);
  await page.waitForSelector(`${chip}.selected`);
  // Give the page time to rewrite the URL if anything had changed.
  await page.waitForTimeout(1_000);
  assert.equal(await scenarioHash(page), before, "a click changed the scenario");
  assert.equal(await page.$eval(chip, (e) => e.title), titleBefore);
  await screenshot(page, "fault-chip-selected");

  const box = await (await page.$(chip)).boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 4, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 60, y, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction((h) => location.hash.split("&")[0] !== h, before, { timeout: 30_000 });
  await waitStatus(page, problems, ["paused"]);
  const titleAfter = await page.$eval(chip, (e) => e.title);
  assert.notEqual(titleAfter, titleBefore, "the drag moved the fault");
  assert.match(titleAfter, /^kill tikv-1 at /);
  await page.close();
});

test("a node's menu offers what applies to it; Remove says why a middle store stays", async () => {
  const { page } = await openPaused();
  const before = await scenarioHash(page);
  await page.click('[data-node="tikv-2"]', { button: "right" });
  const items = await page.$$eval("#node-menu button", (bs) => bs.map((b) => b.textContent));
  assert.ok(items.includes("kill now") && items.includes("loss now"), items.join(", "));
  // A running store cannot be restarted or resumed: the menu does not offer it.
  for (const foreign of ["remove_capture now", "add_capture now", "pause_changefeed now", "restart now", "resume now"]) {
    assert.ok(!items.includes(foreign), `a TiKV node offers ${foreign}`);
  }
  await page.click('#node-menu button:text-is("Remove")');
  const notice = await text(page, "notice");
  assert.match(notice ?? "", /Only the last store \(tikv-3\)/);
  await page.waitForTimeout(500);
  assert.equal(await scenarioHash(page), before, "refusing to remove changed the scenario");
  assert.ok(await page.$('[data-node="tikv-3"]'), "tikv-3 is still there");
  // PD offers no Remove at all.
  await page.click('[data-node="pd-1"]', { button: "right" });
  const pdItems = await page.$$eval("#node-menu button", (bs) => bs.map((b) => b.textContent));
  assert.ok(!pdItems.includes("Remove"), pdItems.join(", "));
  await page.close();
});


test("a Kafka changefeed, a one-way partition and a 30% loss built in the UI are in the shared link", async () => {
  const CDC = "scenarios/cdc-basic-replication.toml";
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(CDC)}&t=10`);
  await waitStatus(page, problems, ["paused"]);
  const rowsBefore = await page.$$eval(".changefeed", (rs) => rs.length);
  await page.click("#add-changefeed-kafka");
  await page.waitForFunction((n) => document.querySelectorAll(".changefeed").length === n + 1, rowsBefore);
  await waitStatus(page, problems, ["paused"]);
  await page.locator(".changefeed").last().locator('select[data-field$=".protocol"]').selectOption("canal_json");
  await waitStatus(page, problems, ["paused"]);

  await page.selectOption("#fault-action", "partition");
  await page.selectOption("#fault-target", "cdc-1");
  await page.fill("#fault-peers", "tikv-1");
  await page.check("#fault-one-way");
  await page.fill("#fault-at", "40s");
  await page.fill("#fault-duration", "5s");
  await page.click("#fault-schedule");
  await waitStatus(page, problems, ["paused"]);

  await page.selectOption("#fault-action", "loss");
  assert.equal(await page.isChecked("#fault-one-way"), false, "a new verb starts two-way, not one-way unasked");
  await page.selectOption("#fault-target", "tikv-2");
  await page.fill("#fault-peers", "");
  assert.equal(await page.inputValue("#fault-loss"), "30", "the loss shown is the loss applied");
  await page.fill("#fault-loss", "30");
  await page.fill("#fault-at", "50s");
  await page.fill("#fault-duration", "10s");
  await page.click("#fault-schedule");
  await waitStatus(page, problems, ["paused"]);
  await page.waitForSelector('.fault.loss');
  await screenshot(page, "editor-kafka-oneway-loss");

  // Open the shared link in a fresh page: the scenario it carries has all three.
  const link = await page.evaluate(() => location.href);
  const shared = await open(ctx.browser.context, link);
  await waitStatus(shared.page, shared.problems, ["paused"]);
  const toml = await exportedToml(shared.page);
  for (const line of ['sink = "kafka"', 'protocol = "canal_json"', "kafka_brokers = 1", 'peers = "tikv-1"', "one_way = true", "loss_percent = 30"]) {
    assert.ok(toml.includes(line), `${line} missing from the shared scenario:\n${toml}`);
  }
  assert.equal(toml.split("one_way = true").length - 1, 1, `only the partition is one-way:\n${toml}`);
  await shared.page.close();
  await page.close();
});

test("faults at the same time stack instead of overlapping, and the editor opens by the chip", async () => {
  const { page, problems } = await openPaused();
  await page.selectOption("#fault-action", "pause");
  await page.selectOption("#fault-target", "tikv-2");
  await page.fill("#fault-at", "30s");
  await page.click("#fault-schedule");
  await waitStatus(page, problems, ["paused"]);
  await page.waitForSelector('[data-fault="1"]');
  const boxes = await page.$$eval("[data-fault]", (cs) => cs.map((c) => c.getBoundingClientRect().toJSON()));
  const [a, b] = boxes;
  const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  assert.ok(!overlap, `chips overlap: ${JSON.stringify(boxes)}`);
  await page.click('[data-fault="1"]');
  await page.waitForSelector("#selected-fault");
  const chip = await (await page.$('[data-fault="1"]')).boundingBox();
  const editor = await (await page.$("#selected-fault")).boundingBox();
  assert.ok(editor.y - (chip.y + chip.height) < 120, `the editor opens ${editor.y - chip.y}px below the chip`);
  await screenshot(page, "editor-stacked-chips");
  await page.close();
});
