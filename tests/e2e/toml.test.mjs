// TOML in the browser: the page links no TOML code, so export, import and the parse errors
// of a bad file all come from the simulation worker; the gallery is compiled into the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, text, screenshot, exportedToml } from "./lib/app.mjs";
import { ROOT, linkFragment } from "./lib/cli.mjs";

const ctx = useApp();

const SMALL = "scenarios/raft-basics-kill-a-store.toml";


/** Imports `text` as file `name` through the Import TOML… input. */
async function importToml(page, name, text) {
  await page.setInputFiles("#import-toml", { name, mimeType: "text/plain", buffer: Buffer.from(text) });
}

test("export TOML, then import it edited: the worker writes and parses the file", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SMALL)}&t=5`);
  await waitStatus(page, problems);
  const exported = await exportedToml(page);
  const original = fs.readFileSync(path.join(ROOT, SMALL), "utf8");
  const name = original.match(/^name = "(.*)"$/m)[1];
  assert.ok(exported.includes(`name = "${name}"`), exported);
  assert.ok(exported.includes("[topology]"), exported);
  assert.match(await page.getAttribute("#export-toml", "download"), /\.toml$/);

  const edited = exported.replace(`name = "${name}"`, 'name = "Imported from a file"');
  await importToml(page, "edited.toml", edited);
  await page.waitForFunction(
    () => document.getElementById("scenario-name")?.textContent?.includes("Imported from a file"),
    null,
    { timeout: 30_000, polling: 100 },
  );
  await waitStatus(page, problems, ["running", "paused", "finished"]);
  assert.equal(await text(page, "error"), null);
  // The export follows the imported scenario.
  await page.waitForFunction(
    () => decodeURIComponent(document.getElementById("export-toml")?.getAttribute("href") ?? "").includes("Imported from a file"),
    null,
    { timeout: 30_000, polling: 100 },
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test("importing a bad TOML file shows the parser's error with file and line", async () => {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SMALL)}&t=5`);
  await waitStatus(page, problems);
  const before = await text(page, "scenario-name");
  await importToml(page, "bad.toml", 'name = "x"\nduration = \n');
  await page.waitForSelector("#error", { timeout: 30_000 });
  const error = await text(page, "error");
  assert.ok(error.startsWith("Could not import bad.toml:\nbad.toml:2:"), error);
  await screenshot(page, "import-bad-toml");
  // The scenario is unchanged.
  assert.equal(await text(page, "scenario-name"), before);

  await page.click('.error-box button:has-text("Dismiss")');
  await page.waitForSelector("#error", { state: "detached" });
  await importToml(page, "typo.toml", 'name = "x"\nduration = "1m"\nbogus = 1\n');
  await page.waitForFunction(
    () => document.getElementById("error")?.textContent?.includes("typo.toml"),
    null,
    { timeout: 30_000, polling: 100 },
  );
  const typo = await text(page, "error");
  assert.ok(typo.startsWith("Could not import typo.toml:\ntypo.toml:3:1: unknown field `bogus`"), typo);
  await page.close();
});

test("the gallery lists every shipped scenario and opens one", async () => {
  const src = fs.readFileSync(path.join(ROOT, "crates/scenario/src/gallery.rs"), "utf8");
  const shipped = [...src.match(/pub const SHIPPED[^=]*=\s*shipped!\[([\s\S]*?)\]/)[1].matchAll(/"([^"]+\.toml)"/g)].map((m) => m[1]);
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(SMALL)}&t=5`);
  await page.waitForSelector("#gallery li");
  const files = await page.$$eval("#gallery li", (lis) => lis.map((li) => li.dataset.file));
  assert.deepEqual(files, shipped);
  await waitStatus(page, problems);
  const target = shipped.find((f) => f.startsWith("cdc-basic")) ?? shipped[1];
  await page.click(`#gallery li[data-file="${target}"] button`);
  await page.waitForSelector(`#gallery li.current[data-file="${target}"]`, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.getElementById("scenario-name")?.dataset.file), target);
  assert.equal(await text(page, "error"), null);
  await page.close();
});
