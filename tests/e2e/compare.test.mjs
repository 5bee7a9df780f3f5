// Compare mode knows every bug (issue 18 item 5): for each of the four modelled bugs, comparing
// its gallery scenario runs two different runs (their trace hashes differ), the buggy side
// shows the symptom (every expectation passes) and the fixed side does not (one fails).
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

for (const bug of BUGS) {
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

test("compare shows both runs' region maps side by side on the Regions tab", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(BUGS[0].file)}&t=90`);
  await waitStatus(page, problems, ["paused"]);
  await page.click("#compare-on");
  await page.waitForSelector("#compare.on");
  await page.click('[data-view="regions"]');
  await page.waitForSelector('[data-map="primary"] canvas');
  await page.waitForSelector('[data-map="twin"] canvas');
  await screenshot(page, "compare-two-region-maps");
  await page.close();
});
