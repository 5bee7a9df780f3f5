// Each journey's key moment as a screenshot of what the reader sees (issue 18): learning (a
// tour step with the view it talks about in sight), bug report (the issue report, copied and
// shown). Design review (compare side by side) is saved by compare.test.mjs. The tests check
// that each moment is on screen, so a screenshot never shows the wrong thing unnoticed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, ARTIFACTS } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();
const GUIDED = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";

/** Saves what the viewport shows (not the whole page) as artifacts/<name>.png. */
async function viewportShot(page, name) {
  await fs.mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Whether the element is fully inside the viewport. */
const inSight = (page, sel) =>
  page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });

test("learning: a tour step shows its caption and its chart in sight", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(GUIDED)}`);
  await waitStatus(page, problems, ["paused"]);
  await page.click("#guide-start");
  await page.waitForSelector("#guide");
  // Next aims at the step after the one the cursor shows: wait until the seek to step 1 has
  // arrived, or a Next clicked meanwhile goes to step 1 again and "Step 2" never comes.
  await page.waitForFunction(() => document.getElementById("guide-step")?.textContent.startsWith("Step 1"));
  // Step 5 of tikv#14547: 2m, every region led again.
  for (let i = 1; i < 5; i++) {
    await page.click("#guide-next");
    await page.waitForFunction((n) => document.getElementById("guide-step")?.textContent.startsWith(`Step ${n}`), i + 1);
  }
  await waitStatus(page, problems, ["paused"]);
  await page.waitForSelector('#views .highlight[data-chart="leaderless"]');
  await page.waitForTimeout(500);
  assert.ok(await inSight(page, '#views .highlight[data-chart="leaderless"]'), "the step's chart is in the viewport");
  await viewportShot(page, "journey-learning-tour-step");
  assert.deepEqual(problems, []);
  await page.close();
});

test("bug report: the issue report, with the toggles and the run, shown after copying", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(GUIDED)}&t=360`);
  await waitStatus(page, problems, ["paused"]);
  await page.click("#copy-report");
  await page.waitForSelector("#copied-text");
  const report = await page.$eval("#copied-text", (t) => t.value);
  assert.match(report, /tikv\/tikv#14547/);
  const rows = await page.$eval("#copied-text", (t) => t.rows);
  const lines = report.split("\n").length;
  assert.ok(rows > 4 && rows >= Math.min(lines - 1, 24), `the report box shows ${rows} rows of ${lines} lines`);
  await page.$eval("#copied-text", (t) => t.scrollIntoView({ block: "center" }));
  assert.ok(await inSight(page, "#copied-text"));
  await viewportShot(page, "journey-bug-report");
  assert.deepEqual(problems, []);
  await page.close();
});
