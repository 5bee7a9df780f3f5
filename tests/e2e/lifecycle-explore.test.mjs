// Browser tests for the TiCDC lifecycle views (issue 7: sink state lanes, owner tick chart,
// changefeed list) and the Explore panel (issue 8: seeds in slices, progress, failures as
// links, Shrink).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, playToEnd, text, screenshot, ARTIFACTS } from "./lib/app.mjs";
import { ROOT, linkFragment } from "./lib/cli.mjs";
import { record } from "./lib/measure.mjs";

const T4241 = "scenarios/tiflow-4241-kafka-sink-close-blocks-owner.toml";

const ctx = useApp();

/** Saves a screenshot of one element (a view) as artifacts/<name>.png. */
async function shoot(page, selector, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await (await page.$(selector)).screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

test("tiflow#4241: sink state lanes, owner tick chart and the changefeed list", async () => {
  // At 3 min the broker has been down for 2: the Kafka sinks were closed inside the owner's
  // tick, the owner pass took tens of seconds, and the MySQL changefeed's lag climbed.
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(T4241)}&t=180`);
  await waitStatus(page, problems);
  assert.equal(await text(page, "error"), null);
  await page.click('[data-view="cdc"]');
  await page.waitForSelector('figure[data-lanes="sink-state"] g[data-lane]');

  const lanes = await page.$$eval('figure[data-lanes="sink-state"] g[data-lane]', (gs) =>
    Object.fromEntries(gs.map((g) => [g.dataset.lane, g.dataset.states.split(",")])),
  );
  assert.deepEqual(Object.keys(lanes), ["kafka-cf-1", "kafka-cf-2", "kafka-cf-3", "mysql-cf"]);
  assert.equal(lanes["kafka-cf-1"][0], "running", "sinks start running");
  assert.ok(lanes["kafka-cf-1"].includes("closing"), `kafka-cf-1 lane: ${lanes["kafka-cf-1"]}`);
  assert.deepEqual(lanes["mysql-cf"], ["running"], "the MySQL sink never closes");
  const segments = await page.$$eval('figure[data-lanes="sink-state"] rect[data-state]', (r) => r.length);
  assert.ok(segments >= 6, `segments drawn: ${segments}`);

  const owner = await page.$('figure[data-chart="owner-tick"] canvas');
  assert.ok(owner, "the owner tick chart is drawn");
  assert.match(
    await page.$eval('figure[data-chart="owner-tick"]', (f) => f.dataset.series),
    /owner_tick_secs/,
  );

  const rows = await page.$$eval(".changefeed-list tr[data-changefeed]", (trs) =>
    trs.map((tr) => ({
      id: tr.dataset.changefeed,
      state: tr.dataset.state,
      sink: tr.dataset.sink,
      lag: Number.parseFloat(tr.querySelector("[data-lag]").dataset.lag),
    })),
  );
  assert.equal(rows.length, 4);
  const mysql = rows.find((r) => r.id === "mysql-cf");
  assert.equal(mysql.state, "normal");
  assert.ok(mysql.lag > 30, `mysql-cf lag at 3 min: ${mysql.lag}`);
  assert.ok(
    rows.some((r) => r.id.startsWith("kafka") && ["error", "warning"].includes(r.state)),
    `kafka changefeeds: ${JSON.stringify(rows)}`,
  );
  await shoot(page, "#views", "view-cdc");

  // Clicking a lane segment jumps the cursor to where it began.
  const from = await page.$eval('g[data-lane="kafka-cf-1"] rect[data-state="closing"]', (r) => r.dataset.from);
  await page.click('g[data-lane="kafka-cf-1"] rect[data-state="closing"]');
  await waitStatus(page, problems);
  assert.equal(await text(page, "sim-time"), `${Number(from).toFixed(3)} s`);
  await page.close();
});

const T9344 = "scenarios/tiflow-9344-double-write-after-cdc-network-loss.toml";

test("tiflow#9344: table-to-capture lanes outline the double write; differing rows link to it", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(T9344)}&t=150`);
  await waitStatus(page, problems);
  await page.click('[data-view="cdc"]');
  await page.waitForSelector('figure[data-lanes="table-capture"] g[data-lane]');
  const lanes = await page.$$eval('figure[data-lanes="table-capture"] g[data-lane]', (gs) =>
    gs.map((g) => ({ lane: g.dataset.lane, states: g.dataset.states, highlights: Number(g.dataset.highlights) })),
  );
  assert.equal(lanes.length, 10, "one lane per table");
  const overlapped = lanes.filter((l) => l.highlights > 0);
  assert.ok(overlapped.length >= 1, `no double-write window: ${JSON.stringify(lanes)}`);
  assert.ok(await page.$('figure[data-lanes="owner"] g[data-lane="owner"]'), "the owner lane is drawn");
  assert.ok(await page.$('figure[data-chart="writers"] canvas'), "the writers chart is drawn");
  assert.ok(await page.$('figure[data-chart="lease"] canvas'), "the lease chart is drawn");
  await shoot(page, "#views", "view-cdc-9344");

  // The consistency table's differing rows link to when their table's double write began.
  await page.click('[data-view="consistency"]');
  await page.waitForSelector('[data-consistency="differs"] button[data-double-write-at]');
  const at = await page.$eval("button[data-double-write-at]", (b) => Number(b.dataset.doubleWriteAt));
  await shoot(page, "#views", "view-consistency-9344");
  await page.click("button[data-double-write-at]");
  await waitStatus(page, problems);
  assert.equal(await text(page, "sim-time"), `${(at / 1e6).toFixed(3)} s`);
  await page.close();
});

/**
 * raft-basics without its kill, one minute long, expecting that no region is ever leaderless:
 * the base run passes, and any random kill breaks it.
 */
function fragileScenario() {
  const base = fs.readFileSync(path.join(ROOT, "scenarios/raft-basics-kill-a-store.toml"), "utf8");
  const head = base.split("[[faults]]")[0].replace('duration = "4m"', 'duration = "1m"');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "faultline-explore-")), "fragile.toml");
  fs.writeFileSync(
    file,
    `${head}\n[[expect]]\nname = "no region is ever leaderless"\nmetric = "leaderless_regions"\n` +
      `agg = "max"\nop = "=="\nvalue = 0\n`,
  );
  return file;
}

test("explore panel: seeds run in slices with progress, failures open as links, shrink", async () => {
  const file = fragileScenario();
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(file)}&t=0`);
  await waitStatus(page, problems);
  await page.fill("#explore-seeds", "4");
  await page.fill("#explore-faults", "kill");
  await page.click("#explore-start");

  // Progress is shown while seeds run, and the page stays interactive between slices: frames
  // keep arriving and a key press is handled. How many frames come in the first 600 ms (or
  // more) and the longest gap are recorded, not judged (they depend on machine load): the measurement waits for at
  // least two frames however long they take, and only a page that stops painting for 30 s
  // fails it.
  await page.waitForSelector('#explore-status[data-state="running"]');
  const gaps = await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        let last = performance.now();
        let max = 0;
        let frames = 0;
        const start = last;
        const stalled = setTimeout(() => reject(new Error("no frame painted for 30 s while seeds ran")), 30_000);
        const frame = (t) => {
          max = Math.max(max, t - last);
          last = t;
          frames += 1;
          if (t - start < 600 || frames < 2) requestAnimationFrame(frame);
          else {
            clearTimeout(stalled);
            resolve({ max, frames, window: t - start });
          }
        };
        requestAnimationFrame(frame);
      }),
  );
  record("exploring: page frames", { frames: gaps.frames, window_ms: gaps.window, longest_gap_ms: gaps.max });
  const helpWas = await page.$("#help");
  await page.keyboard.press("?");
  await page.waitForFunction((was) => !!document.getElementById("help") !== was, !!helpWas, { timeout: 30_000 });
  await page.keyboard.press("?");
  await page.waitForFunction((was) => !!document.getElementById("help") === was, !!helpWas, { timeout: 30_000 });
  await page.waitForFunction(
    () => document.getElementById("explore-status")?.dataset.state === "finished",
    null,
    { timeout: 120_000, polling: 50 },
  ).then(() => {}, (e) => { throw new Error(`${e.message}\n${problems.join("\n")}`); });
  const status = await page.$eval("#explore-status", (s) => ({ ...s.dataset, text: s.textContent }));
  assert.equal(status.done, "4");
  assert.equal(status.total, "4");
  assert.ok(Number(status.failing) >= 1, `random kills should break the expectation: ${status.text}`);
  assert.equal(await page.$eval("#explore-progress", (p) => p.value), 4);

  const failures = await page.$$eval("#explore-failures tr[data-seed]", (trs) =>
    trs.map((tr) => ({
      seed: tr.dataset.seed,
      property: tr.dataset.property,
      href: tr.querySelector("a.open").href,
      target: tr.querySelector("a.open").target,
    })),
  );
  assert.ok(failures.length >= 1);
  assert.equal(failures[0].property, "expect[0]");
  assert.match(failures[0].href, /#v2\.[A-Za-z0-9_-]+$/);
  assert.equal(failures[0].target, "_blank", "a failure opens in a new tab");
  await shoot(page, "#explore", "explore-failures");

  // The link opens the failing run in a new tab; played to the end it fails the expectation.
  const [tab] = await Promise.all([
    ctx.browser.context.waitForEvent("page"),
    page.click("#explore-failures tr[data-seed] a.open"),
  ]);
  // Like every link it opens paused at 0; play it to the end.
  await playToEnd(tab, []);
  assert.ok(await tab.$('li[data-expect-index="0"][data-verdict="fail"]'), "the linked run fails expect[0]");
  await tab.close();

  // Shrink the first failure: it ends with a scenario that still has at most as many faults.
  const before = await page.evaluate(() => document.querySelectorAll("#explore-failures tr[data-seed]").length);
  await page.click("#explore-failures tr[data-seed] button.shrink");
  await page.waitForSelector("#shrink-status");
  await page.waitForFunction(
    () => ["done", "capped", "failed"].includes(document.getElementById("shrink-status")?.dataset.state),
    null,
    { timeout: 180_000, polling: 100 },
  );
  const shrunk = await page.$eval("#shrink-status", (s) => ({ ...s.dataset, text: s.textContent }));
  assert.notEqual(shrunk.state, "failed", shrunk.text);
  assert.ok(Number(shrunk.runs) >= 1, shrunk.text);
  assert.ok(Number(shrunk.faults) >= 1, `a failure needs at least one kill: ${shrunk.text}`);
  assert.match(await page.$eval("#shrunk-link", (a) => a.href), /#v2\./);
  assert.equal(
    await page.evaluate(() => document.querySelectorAll("#explore-failures tr[data-seed]").length),
    before,
  );
  await shoot(page, "#explore", "explore-shrink");
  await screenshot(page, "explore");
  await page.close();
});
