// Seeks into time already played (issue 18 item 9: they land within 200 ms, from snapshots) on
// gallery scenarios of the sizes the tours use, away from the tour's steps and the faults
// (where a snapshot stands at the very time): the cursor lands at each time asked for, and
// what each seek took goes to the printed report (lib/measure.mjs), never to pass/fail. The
// 256,000-region scenario's seeks are in heatmap.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, text, seekTo } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";
import { record } from "./lib/measure.mjs";

const ctx = useApp();

/** Each scenario opens at its end (every second of it played) and seeks back to `to`, in
 * this order: back and forth, none of them a tour step or a fault time. */
const CASES = [
  { file: "scenarios/tikv-14547-leaders-lost-after-store-failure.toml", end: 960, to: [137, 431, 702, 250, 890, 33] },
  { file: "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure.toml", end: 600, to: [97, 333, 512, 211, 47, 455] },
  { file: "scenarios/raft-basics-kill-a-store.toml", end: 240, to: [17, 203, 88, 151, 43] },
];

for (const c of CASES) {
  test(`seeks into played time land where asked: ${c.file}`, async () => {
    const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(c.file)}&t=${c.end}`);
    await waitStatus(page, problems);
    const figures = {};
    let worst = 0;
    for (const secs of c.to) {
      const { wallMs } = await seekTo(page, secs, 120_000);
      assert.equal(await text(page, "sim-time"), `${secs}.000 s`);
      assert.equal(await text(page, "status"), "paused");
      figures[`to_${secs}_s_ms`] = wallMs;
      worst = Math.max(worst, wallMs);
    }
    record(`seeks into played time, ${c.file.replace(/^scenarios\//, "")}`, { ...figures, worst_ms: worst });
    assert.deepEqual(problems, []);
    await page.close();
  });
}
