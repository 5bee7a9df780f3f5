// A first visit on a slow link (issue 18 item 8): with the network held to 1.6 Mbps down and
// 150 ms latency (Chromium's own throttling over CDP) and an empty cache, the page shows its
// layout before the WebAssembly arrives, never claims "no expectations" while the run loads,
// and reaches its first simulated frame. The times are recorded (lib/measure.mjs), never
// asserted: they depend on the machine's load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, screenshot } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";
import { record } from "./lib/measure.mjs";

const ctx = useApp();
const FILE = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";
/** The link the issue names: 1.6 Mbps down, 750 kbps up, 150 ms round trip. */
const SLOW = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };

test("first visit on a 1.6 Mbps / 150 ms link: layout at once, expectations pending, then the first frame", async () => {
  const page = await ctx.browser.context.newPage();
  const cdp = await ctx.browser.context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", SLOW);
  // Watch, from the first byte of the page, for when the layout and the first frame appear
  // and for any "no expectations" text on the way.
  await page.addInitScript(() => {
    const seen = { layout: null, falseEmpty: false };
    window.__firstVisit = seen;
    const look = () => {
      if (seen.layout === null && document.querySelector(".topbar")) seen.layout = performance.now();
      if (document.body?.textContent.includes("This scenario has no expectations")) seen.falseEmpty = true;
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
  });
  // Bytes on the wire for the page's own requests (the worker's fetches are its own target).
  const bytes = { total: 0 };
  cdp.on("Network.loadingFinished", (e) => {
    bytes.total += e.encodedDataLength;
  });
  const t0 = Date.now();
  await page.goto(`${ctx.server.url}${linkFragment(FILE)}`, { timeout: 120_000 });
  await waitStatus(page, [], ["paused"]);
  const firstFrameMs = Date.now() - t0;
  const seen = await page.evaluate(() => window.__firstVisit);
  await screenshot(page, "first-visit-slow-link");
  record("first visit, 1.6 Mbps / 150 ms, empty cache", {
    layout_ms: seen.layout,
    first_frame_ms: firstFrameMs,
    page_transferred_kb: bytes.total / 1024,
  });
  assert.ok(seen.layout !== null, "the layout appeared");
  assert.equal(seen.falseEmpty, false, 'the page said "This scenario has no expectations" while loading');
  // The scenario's expectations are listed (pending or judged), never "none".
  assert.ok((await page.$$("[data-verdict]")).length > 0);
  await page.close();
});
