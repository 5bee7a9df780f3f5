// Compare mode knows every bug (issue 18 item 5): for each modelled bug this model reproduces,
// comparing its gallery scenario runs two different runs (their trace hashes differ), the buggy
// side shows the symptom (every expectation passes) and the fixed side does not (one fails).
// tikv#14547 is not reproduced (docs/model.md): its two runs show the same symptom (they differ
// only in the fix's extra StoreUnreachable broadcasts), and compare says why.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, waitFinished, screenshot } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

/** Each bug's compare-list value and the gallery scenario that shows it. */
const BUGS = [
  { value: "0", issue: "tikv/tikv#14547", file: "scenarios/tikv-14547-leaders-lost-after-store-failure.toml" },
  { value: "1", issue: "pingcap/tiflow#9595", file: "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure.toml" },
  { value: "2", issue: "pingcap/tiflow#9344", file: "scenarios/tiflow-9344-double-write-after-cdc-network-loss.toml" },
  { value: "3", issue: "pingcap/tiflow#4241", file: "scenarios/tiflow-4241-kafka-sink-close-blocks-owner.toml" },
];

/** The verdicts in one compare column (`buggy` or `fixed`). */
const verdicts = (page, side) =>
  page.$$eval(`.compare-col[data-side="${side}"] [data-verdict]`, (els) => els.map((e) => e.dataset.verdict));

for (const bug of BUGS.slice(1)) {
  test(`compare on ${bug.issue}: two different runs, the symptom on the buggy side only`, async () => {
    const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(bug.file)}`);
    await waitStatus(page, problems, ["paused"]);
    const offered = await page.$$eval("#compare-toggle option", (os) => os.map((o) => o.textContent));
    assert.equal(offered.length, 4, offered.join(" | "));
    // The list opens on the bug the scenario is about.
    assert.equal(await page.$eval("#compare-toggle", (s) => s.value), bug.value);
    await page.click("#compare-on");
    await page.waitForSelector("#compare.on");
    assert.ok((await page.textContent("#compare h3")).includes(bug.issue));
    await page.click('[data-speed="max"]');
    await waitFinished(page, problems);
    // The twin follows the cursor to the end.
    await page.waitForFunction(() => {
      const [a, b] = [...document.querySelectorAll("[data-hash]")].map((e) => e.textContent);
      return a && b && document.querySelectorAll('.compare-col [data-verdict="pending"]').length === 0;
    }, null, { timeout: 60_000 });
    const primary = await page.textContent('[data-hash="primary"]');
    const twin = await page.textContent('[data-hash="twin"]');
    assert.notEqual(primary, twin, "the two sides are the same run");
    const buggy = await verdicts(page, "buggy");
    const fixed = await verdicts(page, "fixed");
    assert.ok(buggy.length > 0 && buggy.every((v) => v === "pass"), `buggy side: ${buggy}`);
    assert.ok(fixed.includes("fail"), `fixed side shows the symptom too: ${fixed}`);
    // Each side names its own toggle values.
    const heads = await page.$$eval(".compare-col h4", (hs) => hs.map((h) => h.textContent));
    assert.notEqual(heads[0].split(": ").slice(1).join(), heads[1].split(": ").slice(1).join(), heads.join(" | "));
    assert.equal(await page.$("#compare-same"), null);
    await screenshot(page, `compare-${bug.issue.replace(/[/#]/g, "-")}`);
    await page.close();
  });
}

test("compare on tikv#14547: the same run on both sides, and compare says why", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(BUGS[0].file)}&t=150`);
  await waitStatus(page, problems, ["paused"]);
  assert.equal(await page.$eval("#compare-toggle", (s) => s.value), BUGS[0].value);
  await page.click("#compare-on");
  await page.waitForSelector("#compare.on");
  // The twin follows the cursor: wait until both columns hold a hash and the same verdicts
  // (whole-run expectations stay pending at 2m30s on both sides).
  await page.waitForFunction(() => {
    const [a, b] = [...document.querySelectorAll("[data-hash]")].map((e) => e.textContent);
    const side = (s) => [...document.querySelectorAll(`.compare-col[data-side="${s}"] [data-verdict]`)].map((e) => e.dataset.verdict).join();
    return a && b && side("buggy") !== "" && side("buggy") === side("fixed");
  }, null, { timeout: 60_000 });
  const notice = await page.textContent("#compare-not-reproduced");
  assert.match(notice, /does not reproduce tikv#14547/);
  assert.match(notice, /same run/);
  const hashes = await page.$$eval("[data-hash]", (els) => els.map((e) => e.textContent));
  assert.equal(hashes[0], hashes[1], "the notice says one run: both columns hold the same hash");
  assert.deepEqual(await verdicts(page, "buggy"), await verdicts(page, "fixed"));
  await screenshot(page, "compare-tikv-14547-not-reproduced");
  assert.deepEqual(problems, []);
  await page.close();
});

/** Each element's box: where it sits and how big it is. */
const boxes = (page, sel) =>
  page.$$eval(sel, (els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height, ...e.dataset };
  }));

test("compare on tiflow#9595: charts, region maps and heatmaps of both runs side by side, buggy left", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(BUGS[1].file)}&t=180`);
  await waitStatus(page, problems, ["paused"]);
  await page.click("#compare-on");
  await page.waitForSelector("#compare.on");
  await waitStatus(page, problems, ["paused"]);
  // Charts: one plot per run for each chart, same size, buggy on the left.
  await page.waitForSelector('[data-chart-pair="leaderless"] [data-run="fixed"] canvas');
  const plots = await boxes(page, '[data-chart-pair="leaderless"] .chart');
  assert.deepEqual(plots.map((p) => p.run), ["buggy", "fixed"]);
  assert.ok(plots[0].left < plots[1].left && plots[0].top === plots[1].top, JSON.stringify(plots));
  assert.equal(plots[0].width, plots[1].width);
  // Each plot shows one run's series only.
  assert.ok(plots.every((p) => p.series && !p.series.includes(":")), JSON.stringify(plots.map((p) => p.series)));
  await screenshot(page, "journey-design-review-compare-charts");

  await page.click('[data-view="regions"]');
  await page.waitForSelector('[data-map="twin"] canvas');
  await page.waitForSelector('.heatmap[data-run="fixed"][data-recorded]');
  const maps = await boxes(page, "[data-map]");
  assert.deepEqual(maps.map((m) => m.side), ["buggy", "fixed"]);
  assert.ok(maps[0].left < maps[1].left && maps[0].top === maps[1].top, JSON.stringify(maps));
  // The twin catches up with the cursor; then both heatmaps cover the same columns.
  await page.waitForFunction(() => {
    const [a, b] = [...document.querySelectorAll(".heatmap")].map((h) => h.dataset.recorded);
    return a && a === b;
  }, null, { timeout: 60_000 });
  const heat = await boxes(page, ".heatmap");
  assert.deepEqual(heat.map((h) => h.run), ["buggy", "fixed"]);
  assert.ok(heat[0].left < heat[1].left && heat[0].top === heat[1].top, JSON.stringify(heat));
  const canvases = await boxes(page, ".heatmap canvas");
  assert.equal(canvases[0].width, canvases[1].width, "same scale");
  assert.equal(canvases[0].height, canvases[1].height, "same scale");
  assert.equal(heat[0].buckets, heat[1].buckets);
  assert.equal(heat[0].columns, heat[1].columns);
  // Both heatmaps show the kill of every store at 1 min for 60 s: a leaderless band.
  assert.ok(heat.every((h) => Number(h.leaderlessCells) > 0), JSON.stringify(heat));
  await screenshot(page, "journey-design-review-compare-regions");
  assert.deepEqual(problems, []);
  await page.close();
});
