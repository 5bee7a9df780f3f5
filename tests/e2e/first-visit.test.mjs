// A first visit on a slow link (issue 18 item 8): with the network held to 1.6 Mbps down and
// 150 ms latency (Chromium's own throttling over CDP) and an empty cache, the page shows its
// layout before the WebAssembly arrives, never claims "no expectations" while the run loads,
// and reaches its first simulated frame. The simulation worker's files download beside the
// page's own from the start (index.html's early loader), once each. The times are recorded
// (lib/measure.mjs), never asserted: they depend on the machine's load.
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

const PAGE_WASM = /\/faultline-web-[^/]*_bg\.wasm$/;
const WORKER_WASM = /\/faultline-worker_bg\.wasm$/;

/**
 * The page target's requests by CDP request id: url, start and end (CDP's monotonic seconds),
 * bytes on the wire, the response's content encoding, and the error if one failed. A worker's own requests belong to its target
 * and are not seen here; the server's log (`ctx.server.requests`) counts those.
 */
function watchNetwork(cdp) {
  const requests = new Map();
  cdp.on("Network.requestWillBeSent", (e) => {
    if (!requests.has(e.requestId)) requests.set(e.requestId, { url: e.request.url, start: e.timestamp });
  });
  cdp.on("Network.responseReceived", (e) => {
    const r = requests.get(e.requestId);
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (r) r.encoding = headers["content-encoding"] ?? "identity";
  });
  cdp.on("Network.loadingFinished", (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength });
  });
  cdp.on("Network.loadingFailed", (e) => {
    const r = requests.get(e.requestId);
    if (r) r.failed = e.errorText;
  });
  return requests;
}

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
  const network = watchNetwork(cdp);
  ctx.server.requests.length = 0;
  const t0 = Date.now();
  await page.goto(`${ctx.server.url}${linkFragment(FILE)}`, { timeout: 120_000 });
  await waitStatus(page, [], ["paused"]);
  const firstFrameMs = Date.now() - t0;
  const seen = await page.evaluate(() => window.__firstVisit);
  await screenshot(page, "first-visit-slow-link");
  const all = [...network.values()];
  const sent = (re) => all.filter((r) => re.test(r.url));
  const [doc] = all;
  const at = (t) => (t === undefined ? "never" : (t - doc.start) * 1000);
  const kb = (rs) => rs.reduce((n, r) => n + (r.bytes ?? 0), 0) / 1024;
  const worker = all.filter((r) => /\/faultline-worker[^/]*$/.test(r.url));
  record("first visit, 1.6 Mbps / 150 ms, empty cache", {
    layout_ms: seen.layout,
    first_frame_ms: firstFrameMs,
    // Everything the page's target downloaded, the worker's files included since the page
    // fetches them itself now; the worker's share separately.
    transferred_kb: kb(all),
    worker_kb: kb(worker),
    page_wasm_done_ms: at(sent(PAGE_WASM)[0]?.end),
    worker_wasm_start_ms: at(sent(WORKER_WASM)[0]?.start),
    worker_wasm_done_ms: at(sent(WORKER_WASM)[0]?.end),
    page_wasm_requests: sent(PAGE_WASM).length,
    wasm_encoding: sent(WORKER_WASM)[0]?.encoding,
  });
  // The worker's files reached the server once each: the worker ran on the bytes the page
  // fetched early and did not download them again.
  const served = (p) => ctx.server.requests.filter((r) => r === p).length;
  assert.equal(served("/faultline-worker_bg.wasm"), 1, `requests: ${ctx.server.requests.join(" ")}`);
  assert.equal(served("/faultline-worker.js"), 1, `requests: ${ctx.server.requests.join(" ")}`);
  // ...and the early request was the page's, made while its own WebAssembly was still on
  // the way, so the two downloads ran side by side.
  const [early] = sent(WORKER_WASM);
  const [pageWasm] = sent(PAGE_WASM);
  assert.ok(early && early.end !== undefined, "the page downloaded the worker's WebAssembly");
  assert.ok(pageWasm && pageWasm.end !== undefined, "the page downloaded its WebAssembly");
  assert.ok(early.start < pageWasm.end, "the worker's WebAssembly was requested before the page's arrived");
  // Chromium accepts brotli, so both modules came brotli-compressed, as `cargo xtask serve`
  // sends them (about a fifth fewer bytes than deflate: docs/bench.md, First visit).
  assert.equal(early.encoding, "br");
  assert.equal(pageWasm.encoding, "br");
  assert.ok(seen.layout !== null, "the layout appeared");
  assert.equal(seen.falseEmpty, false, 'the page said "This scenario has no expectations" while loading');
  // The scenario's expectations are listed (pending or judged), never "none".
  assert.ok((await page.$$("[data-verdict]")).length > 0);
  await page.close();
});
