// Links that check themselves, and compare mode's first difference: a copied link reopens as
// "Reproduced", a tampered one as "Different run", and "jump to the first difference" lands
// where the native `faultline diff` says the two runs part.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import zlib from "node:zlib";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, text, screenshot } from "./lib/app.mjs";
import { ROOT, linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

const SMALL = "scenarios/raft-basics-kill-a-store.toml";
const T9595 = "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure.toml";
const BIN = process.env.FAULTLINE_BIN ?? path.join(ROOT, "target", "debug", "faultline");

/** Runs the native CLI; returns its exit code and output (it exits 1 for "differs"). */
function faultline(...args) {
  try {
    return { code: 0, out: execFileSync(BIN, args, { cwd: ROOT, encoding: "utf8" }) };
  } catch (e) {
    return { code: e.status, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** The banner's state (`reproduced`, `different`, `replaying`) once it has an outcome. */
async function bannerOutcome(page) {
  const handle = await page.waitForFunction(
    () => {
      const s = document.getElementById("link-check")?.dataset.state;
      return s === "reproduced" || s === "different" ? s : null;
    },
    null,
    { timeout: 120_000, polling: 100 },
  );
  return handle.jsonValue();
}

/**
 * The same link with its recorded trace hash changed: the v2 payload is zlib'd CBOR, and the
 * record's `hash` key is followed by an unsigned integer whose last byte is flipped here.
 */
function tamperHash(url) {
  const i = url.indexOf("#v2.");
  const [payload, rest] = url.slice(i + 4).split(/(?=&)/);
  const bytes = zlib.inflateSync(Buffer.from(payload, "base64url"));
  const key = bytes.indexOf(Buffer.from([0x64, ...Buffer.from("hash")]));
  assert.ok(key >= 0, "the link has a run record");
  const head = bytes[key + 5];
  const extra = { 24: 1, 25: 2, 26: 4, 27: 8 }[head & 0x1f] ?? 0;
  bytes[key + 5 + extra] ^= 1;
  const packed = zlib.deflateSync(bytes).toString("base64url");
  return `${url.slice(0, i)}#v2.${packed}${rest ?? ""}`;
}

test("a copied link reopens as Reproduced, and with its hash edited as Different run", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SMALL)}&t=40`);
  await waitStatus(page, problems);
  await page.click("#copy-link");
  const link = await page.$eval("#copied-text", (e) => e.value);
  assert.match(link, /#v2\.[A-Za-z0-9_-]+&t=40$/);
  await page.close();

  const fresh = await open(ctx.browser.context, link);
  assert.equal(await bannerOutcome(fresh.page), "reproduced");
  const words = await fresh.page.$eval("#link-check .headline", (e) => e.textContent);
  assert.equal(words, "Reproduced: the same run as when it was shared");
  assert.equal(await text(fresh.page, "sim-time"), "40.000 s");
  await screenshot(fresh.page, "link-check-reproduced");
  await fresh.page.close();

  // The CLI agrees, in the same words.
  const cli = faultline("verify", link);
  assert.equal(cli.code, 0, cli.out);
  assert.ok(cli.out.startsWith(words), cli.out);

  const tampered = tamperHash(link);
  const bad = await open(ctx.browser.context, tampered);
  assert.equal(await bannerOutcome(bad.page), "different");
  const headline = await bad.page.$eval("#link-check .headline", (e) => e.textContent);
  assert.match(headline, /^Different run: shared with model \d+, this is model \d+$/);
  const details = await bad.page.$$eval("#link-check .details li", (li) => li.map((e) => e.textContent));
  assert.ok(details.some((d) => d.startsWith("trace hash at 00:40.000: shared ")), details.join("\n"));
  await screenshot(bad.page, "link-check-different");
  const cliBad = faultline("verify", tampered);
  assert.equal(cliBad.code, 1, cliBad.out);
  assert.ok(cliBad.out.startsWith(headline), cliBad.out);
  assert.deepEqual(bad.problems, []);
  await bad.page.close();
});

test("compare mode jumps to the first difference, where the traces part", async () => {
  // tiflow#9595 buggy vs fixed (the compare twin flips the toggle): they part just after the
  // kill at 1 min.
  const url = faultline("link", T9595, "--plain").out.trim();
  const fragment = url.slice(url.indexOf("#"));
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${fragment}&t=0`);
  await waitStatus(page, problems);
  await page.click("#compare-on");
  await page.waitForSelector("#find-first-difference", { timeout: 60_000 });
  await page.click("#find-first-difference");
  await page.waitForSelector("#jump-first-difference", { timeout: 120_000 });
  const atUs = Number(await page.getAttribute("#jump-first-difference", "data-at-us"));
  const lines = await page.$$eval("#first-difference-lines li", (li) => li.map((e) => e.textContent));

  // The native search over the same pair says the same, event for event.
  const buggy = fragment.slice(1);
  const fixedUrl = faultline(
    "link", T9595, "--plain", "--set", "toggles.cdc.kv_client_evict=after_join",
  ).out.trim();
  const cli = faultline("diff", buggy, fixedUrl.slice(fixedUrl.indexOf("#") + 1));
  assert.equal(cli.code, 1, cli.out);
  assert.deepEqual(lines, cli.out.trim().split("\n"));

  // Just before that moment both runs have the same trace; at it, they differ.
  const hashes = async () => ({
    primary: await page.$eval('[data-hash="primary"]', (e) => e.textContent),
    twin: await page.$eval('[data-hash="twin"]', (e) => e.textContent),
  });
  await page.$eval("#scrubber", (el, ms) => {
    el.value = String(ms);
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }, Math.floor((atUs - 1) / 1000));
  await waitStatus(page, problems, ["paused"]);
  const before = await hashes();
  assert.equal(before.primary, before.twin, "the runs agree before the first difference");

  await page.click("#jump-first-difference");
  await waitStatus(page, problems, ["paused"]);
  // The page shows milliseconds, truncated.
  const ms = Math.floor(atUs / 1000);
  const secs = `${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, "0")} s`;
  await page.waitForFunction((s) => document.getElementById("sim-time")?.textContent === s, secs, {
    timeout: 60_000,
  });
  const at = await hashes();
  assert.notEqual(at.primary, at.twin, "the runs differ at the first difference");
  await screenshot(page, "compare-first-difference");
  assert.deepEqual(problems, []);
  await page.close();
});
