// Browser tests for the web shell, run by `cargo xtask test` against the release build in
// dist/. Each test gets a fresh Chromium profile.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { playToEnd, text, screenshot, waitStatus } from "./lib/app.mjs";
import { ROOT, traceHash, linkFragment } from "./lib/cli.mjs";


const ctx = useApp();

/**
 * Scenario files whose browser run is compared with the CLI: $FAULTLINE_E2E_SCENARIOS
 * (comma-separated, relative to the repo root), else the shipped gallery
 * (`faultline_scenario::gallery::SHIPPED`). Not every scenarios/*.toml: the full-scale
 * tikv#14547 run (256,000 regions) takes minutes in a browser and is not in the gallery; its
 * wasm speed is measured by `cargo xtask bench-wasm` instead.
 */
function scenarioFiles() {
  const env = process.env.FAULTLINE_E2E_SCENARIOS;
  if (env) return env.split(",").map((s) => s.trim()).filter(Boolean);
  return shippedScenarios().map((f) => path.join("scenarios", f));
}

/**
 * The file names in the SHIPPED list of crates/scenario/src/gallery.rs, read from the source
 * so a scenario added to the gallery is tested without editing this file.
 */
function shippedScenarios() {
  const src = fs.readFileSync(path.join(ROOT, "crates/scenario/src/gallery.rs"), "utf8");
  const list = src.match(/pub const SHIPPED[^=]*=\s*shipped!\[([\s\S]*?)\]/);
  assert.ok(list, "gallery.rs no longer has a `SHIPPED = shipped![...]` list");
  const files = [...list[1].matchAll(/"([^"]+\.toml)"/g)].map((m) => m[1]);
  assert.ok(files.length > 0, "the SHIPPED list names no scenario");
  return files;
}

/** The scenario file the page says it is running by default (data-file on the name). */
async function defaultFile(page) {
  const file = await page.evaluate(
    () => document.getElementById("scenario-name")?.dataset.file ?? null,
  );
  assert.ok(file, "the page does not name its default scenario file (data-file)");
  return fs.existsSync(path.join(ROOT, file)) ? file : path.join("scenarios", file);
}

function artifactName(file) {
  return path.basename(file, ".toml").replace(/[^A-Za-z0-9_-]/g, "_");
}

test("a shared link runs in the browser with the native trace hash", async (t) => {
  const files = scenarioFiles();
  assert.ok(files.length > 0, "no scenario files to test");
  for (const file of files) {
    await t.test(file, async () => {
      const expected = traceHash(file);
      const { page, problems } = await open(ctx.browser.context, ctx.server.url + linkFragment(file));
      await playToEnd(page, problems);
      await screenshot(page, `link-${artifactName(file)}`);
      assert.equal(await text(page, "error"), null, "a valid link must not show an error");
      assert.equal(await text(page, "trace-hash"), expected, `wasm vs native hash for ${file}`);
      assert.equal(await text(page, "sim-time"), await text(page, "sim-end"));
      await page.close();
    });
  }
});

test("without a link the default scenario runs, as natively", async () => {
  const { page, problems } = await open(ctx.browser.context, ctx.server.url);
  await playToEnd(page, problems);
  await screenshot(page, "default");
  assert.equal(await text(page, "error"), null);
  assert.equal(await text(page, "trace-hash"), traceHash(await defaultFile(page)));
  await page.close();
});

test("a broken link shows what is wrong and the default scenario still runs", async (t) => {
  const real = linkFragment(scenarioFiles()[0]);
  const broken = {
    garbage: "#v1.this-is-not-a-scenario",
    truncated: real.slice(0, Math.max(6, Math.floor(real.length / 2))),
    "future-version": "#v9." + real.slice(4),
  };
  let first = true;
  for (const [kind, fragment] of Object.entries(broken)) {
    await t.test(kind, async () => {
      const { page, problems } = await open(ctx.browser.context, ctx.server.url + fragment);
      if (first) {
        // Once, the whole default run with the native hash; the other kinds only need the
        // default scenario running (a full run costs ~15 s of e2e time each).
        await playToEnd(page, problems);
        assert.equal(await text(page, "trace-hash"), traceHash(await defaultFile(page)));
      } else {
        // The default scenario is loaded, paused at 0 like any scenario.
        await waitStatus(page, problems, ["paused"]);
        await defaultFile(page);
      }
      first = false;
      await screenshot(page, `broken-link-${kind}`);
      const error = await text(page, "error");
      assert.ok(error && error.length > 10, `expected an error message, got ${error}`);
      await page.close();
    });
  }
});
