// Browser tests for the playground: symptoms of the seed bugs at their moment, the edit loop,
// rewind determinism, compare mode, embed mode, and a screenshot of each view for reviewers.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitFinished, waitStatus, playToEnd, text, screenshot } from "./lib/app.mjs";
import { ROOT, linkFragment } from "./lib/cli.mjs";


const ctx = useApp();

/** The number shown for a metric (`data-metric`) in the given run's strip. */
async function metric(page, name, run = null) {
  return page.evaluate(
    ({ name, run }) => {
      const scope = run ? document.querySelector(`[data-run="${run}"]`) : document;
      const el = scope?.querySelector(`[data-metric="${name}"]`);
      return el ? Number.parseFloat(el.textContent) : null;
    },
    { name, run },
  );
}

/** The first `checkpoint_lag.<cf>` metric name on the page. */
async function lagMetric(page) {
  return page.evaluate(
    () =>
      [...document.querySelectorAll("[data-metric]")]
        .map((e) => e.dataset.metric)
        .find((m) => m.startsWith("checkpoint_lag.")) ?? null,
  );
}

/** Opens a scenario file's link at a cursor (seconds), paused there. */
async function openAt(file, secs) {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(file)}&t=${secs}`);
  await waitStatus(page, problems);
  assert.equal(await text(page, "error"), null);
  return { page, problems };
}

const T14547 = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";
const T14547_FIXED = "scenarios/tikv-14547-leaders-lost-after-store-failure-fixed.toml";
const T9595 = "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure.toml";
const T9595_FIXED = "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml";
const SMALL = "scenarios/raft-basics-kill-a-store.toml";
const QUORUM_LOST = "scenarios/raft-quorum-lost-two-stores.toml";

test("tikv#14547 heals within two minutes of the kill, buggy or fixed; regions without quorum stay leaderless", async () => {
  // This model does not reproduce tikv#14547 (docs/model.md): the kill is at 60 s and by
  // 3 min every region has a leader in both twins.
  const buggy = await openAt(T14547, 180);
  assert.equal(await text(buggy.page, "sim-time"), "180.000 s");
  assert.equal(await metric(buggy.page, "leaderless_regions"), 0, "buggy: no leaderless region");
  await screenshot(buggy.page, "symptom-tikv-14547-buggy");
  await buggy.page.close();
  const fixed = await openAt(T14547_FIXED, 180);
  assert.equal(await metric(fixed.page, "leaderless_regions"), 0, "fixed twin: no leaderless region");
  await fixed.page.close();
  // Two of four stores dead: the regions with two replicas there have no quorum.
  const stuck = await openAt(QUORUM_LOST, 120);
  const n = await metric(stuck.page, "leaderless_regions");
  assert.ok(n >= 100, `leaderless_regions with quorum lost = ${n}`);
  await screenshot(stuck.page, "symptom-quorum-lost");
  await stuck.page.close();
});

test("tiflow#9595: checkpoint lag climbs after the stores return; not with the fix", async () => {
  const { page } = await openAt(T9595, 300);
  const name = await lagMetric(page);
  assert.ok(name, "no checkpoint_lag metric shown");
  const early = await metric(page, name);
  await page.click("#fwd-1m");
  await page.click("#fwd-1m");
  await waitStatus(page, []);
  const late = await metric(page, name);
  assert.ok(late >= early + 100, `buggy: ${name} should climb ~1 s/s: ${early} -> ${late}`);
  await screenshot(page, "symptom-tiflow-9595-buggy");
  await page.close();

  const fixed = await openAt(T9595_FIXED, 420);
  const lag = await metric(fixed.page, await lagMetric(fixed.page));
  assert.ok(lag < 30, `fixed twin: checkpoint lag at 7 min = ${lag}`);
  await fixed.page.close();
});

test("edit loop: add a store, schedule a kill, share the link, same run in a fresh page", async () => {
  const { page, problems } = await openAt(SMALL, 10);
  await page.click("#add-tikv");
  await waitStatus(page, problems);
  assert.ok(await page.$('[data-node="tikv-4"]'), "the new store is drawn");
  await page.selectOption("#fault-action", "kill");
  await page.selectOption("#fault-target", "tikv-4");
  await page.fill("#fault-at", "90s");
  await page.fill("#fault-duration", "30s");
  await page.click("#fault-schedule");
  await waitStatus(page, problems);
  assert.ok(await page.$('[data-fault] >> text=kill tikv-4'), "the kill is on the timeline");
  await page.click("#copy-link");
  const link = await page.$eval("#copied-text", (e) => e.value);
  assert.match(link, /#v2\.[A-Za-z0-9_-]+&t=10$/);
  await page.click('[data-speed="max"]');
  await waitFinished(page, problems);
  const hash = await text(page, "trace-hash");
  await screenshot(page, "edit-loop");
  await page.close();

  // The link opens at the cursor, paused; playing from there must give the same run.
  const fresh = await open(ctx.browser.context, link);
  await waitStatus(fresh.page, fresh.problems);
  assert.equal(await text(fresh.page, "sim-time"), "10.000 s");
  assert.ok(await fresh.page.$('[data-node="tikv-4"]'));
  await fresh.page.click('[data-speed="max"]');
  await waitFinished(fresh.page, fresh.problems);
  assert.equal(await text(fresh.page, "trace-hash"), hash);
  await fresh.page.close();
});

test("rewind, then play forward again: the same trace hash", async () => {
  const { page, problems } = await open(ctx.browser.context, ctx.server.url + linkFragment(SMALL));
  await playToEnd(page, problems);
  const hash = await text(page, "trace-hash");
  await page.$eval("#scrubber", (el) => {
    el.value = "45000";
    el.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await waitStatus(page, problems, ["paused"]);
  assert.equal(await text(page, "sim-time"), "45.000 s");
  await page.keyboard.press("ArrowLeft");
  await waitStatus(page, problems, ["paused"]);
  assert.equal(await text(page, "sim-time"), "44.000 s");
  await page.keyboard.press("ArrowRight"); // one event
  await page.click('[data-speed="max"]');
  await waitFinished(page, problems);
  assert.equal(await text(page, "trace-hash"), hash);
  await page.close();
});

test("gallery, guide, compare, views, help and embed render (screenshots)", async () => {
  const { page, problems } = await openAt(T14547, 90);
  await screenshot(page, "playground");
  await page.click("#guide-start");
  await waitStatus(page, problems);
  await page.click("#guide-next");
  await waitStatus(page, problems);
  assert.ok((await text(page, "guide-caption"))?.length > 10, "a caption is shown");
  assert.equal(await text(page, "sim-time"), "60.000 s");
  await screenshot(page, "guide");
  await page.click("#guide-leave");
  for (const view of ["charts", "regions", "log", "space-time", "blame", "consistency"]) {
    await page.click(`[data-view="${view}"]`);
    await page.waitForTimeout(200);
    await (await page.$("#views")).screenshot({ path: path.join(path.dirname(await screenshot(page, "tmp")), `view-${view}.png`) });
  }
  await page.click("#compare-on");
  await waitStatus(page, problems);
  assert.ok(await page.$('[data-run="twin"]'), "the twin's panel is shown");
  await page.click('[data-view="charts"]');
  await screenshot(page, "compare");
  await page.keyboard.press("?");
  assert.ok(await page.$("#help"), "? opens the help");
  await screenshot(page, "help");
  await page.close();
  fs.rmSync(path.join(path.dirname(await screenshotPath()), "tmp.png"), { force: true });

  const embed = await open(ctx.browser.context, `${ctx.server.url}?embed${linkFragment(SMALL)}`);
  await waitFinished(embed.page, embed.problems);
  assert.equal(await embed.page.$("#inspector"), null, "embed has no editor");
  assert.ok(await embed.page.$("#play"));
  await screenshot(embed.page, "embed");
  await embed.page.close();
});

async function screenshotPath() {
  return path.join(ROOT, "tests", "e2e", "artifacts", "tmp.png");
}

test("a broken link offers the autosaved scenario", async () => {
  // An edit autosaves; a broken link afterwards offers it.
  const { page, problems } = await openAt(SMALL, 5);
  await page.click("#add-tikv");
  await waitStatus(page, problems);
  await page.close();
  const broken = await open(ctx.browser.context, ctx.server.url + "#v1.this-is-not-a-scenario");
  await broken.page.waitForSelector("#open-autosave");
  await screenshot(broken.page, "broken-link-offers-autosave");
  await broken.page.click("#open-autosave");
  await waitStatus(broken.page, broken.problems, ["running", "paused", "finished"]);
  assert.ok(await broken.page.$('[data-node="tikv-4"]'), "the autosaved scenario (4 stores) is open");
  await broken.page.close();
});
