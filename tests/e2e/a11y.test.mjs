// Keyboard, touch and screen readers (issue 18 item 10): axe-core, run inside the page, finds
// no violations on the main views, with the guide on and with compare on; a skip link leads
// past the gallery; Esc closes help; nodes and fault chips take keyboard actions; a tap opens
// a node's menu; on a phone the controls and the key view come before the gallery.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createRequire } from "node:module";
import { open } from "./lib/browser.mjs";
import { useApp } from "./lib/harness.mjs";
import { waitStatus, screenshot } from "./lib/app.mjs";
import { linkFragment } from "./lib/cli.mjs";

const ctx = useApp();
const require = createRequire(import.meta.url);
const AXE = path.join(path.dirname(require.resolve("axe-core")), "axe.min.js");
const GUIDED = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";
const SMALL = "scenarios/raft-basics-kill-a-store.toml";

/** axe-core's WCAG violations on the page as it is now, one line each. */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    // The WCAG 2.1 A and AA rules (axe's best-practice extras are advice, not violations).
    const runOnly = { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] };
    const r = await window.axe.run(document, { runOnly, resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
  });
  return found;
}

async function openAt(file, t = 20) {
  const { page, problems } = await open(ctx.browser.context, `${ctx.server.url}${linkFragment(file)}&t=${t}`);
  await waitStatus(page, problems, ["paused"]);
  return { page, problems };
}

test("axe-core finds no violations: main view, every tab, guide on, compare on", async () => {
  const { page, problems } = await openAt(GUIDED);
  const report = [];
  report.push(...(await violations(page)).map((v) => `main: ${v}`));
  for (const tab of await page.$$eval("[data-view]", (bs) => bs.map((b) => b.dataset.view))) {
    await page.click(`[data-view="${tab}"]`);
    await page.waitForTimeout(300);
    report.push(...(await violations(page)).map((v) => `${tab} tab: ${v}`));
  }
  await page.click("#guide-start");
  await page.waitForSelector("#guide");
  await waitStatus(page, problems, ["paused"]);
  report.push(...(await violations(page)).map((v) => `guide: ${v}`));
  await page.click("#guide-leave");
  await page.click("#compare-on");
  await page.waitForSelector("#compare.on");
  await waitStatus(page, problems, ["paused"]);
  report.push(...(await violations(page)).map((v) => `compare: ${v}`));
  await page.click("#help-open");
  await page.waitForSelector("#help");
  report.push(...(await violations(page)).map((v) => `help: ${v}`));
  await screenshot(page, "a11y-compare-and-help");
  assert.deepEqual(report, []);
  await page.close();
});

test("a skip link leads past the gallery and Esc closes help", async () => {
  const { page } = await openAt(SMALL);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.className), "skip-link");
  await screenshot(page, "a11y-skip-link");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "playground");
  assert.ok((await page.evaluate(() => location.hash)).startsWith("#v2."), "the skip link changed the link");
  await page.keyboard.press("?");
  await page.waitForSelector("#help");
  // Focus goes to Close, at the dialog's end, yet the dialog opens at its top (the shortcuts).
  await page.waitForFunction(() => document.activeElement?.id === "help-close");
  const help = await page.$eval("#help", (d) => ({ top: d.scrollTop, tall: d.scrollHeight > d.clientHeight }));
  assert.equal(help.top, 0, `help opened scrolled down (${JSON.stringify(help)})`);
  await page.keyboard.press("Escape");
  await page.waitForSelector("#help", { state: "detached" });
  await page.close();
});

test("nodes and fault chips take keyboard actions", async () => {
  const { page, problems } = await openAt(SMALL);
  await page.focus('[data-node="tikv-1"]');
  await page.keyboard.press("Enter");
  await page.waitForSelector("#node-menu");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#node-menu", { state: "detached" });
  const chip = '[data-fault="0"]';
  const before = await page.$eval(chip, (e) => e.title);
  await page.focus(chip);
  await page.keyboard.press("Enter");
  await page.waitForSelector(`${chip}.selected`);
  await page.waitForSelector("#selected-fault");
  await page.focus(chip);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(([c, t]) => document.querySelector(c)?.title !== t, [chip, before]);
  await waitStatus(page, problems, ["paused"]);
  assert.match(await page.$eval(chip, (e) => e.title), /^kill tikv-1 at 31s$/);
  await page.close();
});

test("on a phone the controls and the key view come first; a tap opens a node's menu", async () => {
  const page = await ctx.browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${ctx.server.url}${linkFragment(SMALL)}&t=20`);
  await waitStatus(page, [], ["paused"]);
  const top = (sel) => page.$eval(sel, (e) => e.getBoundingClientRect().top);
  const gallery = await top(".side");
  assert.ok((await top(".panel.time")) < gallery, "the gallery comes before the controls");
  assert.ok((await top("#views")) < gallery, "the gallery comes before the key view");
  assert.ok((await top("#views")) < (await top("#inspector")), "the editors come before the key view");
  await screenshot(page, "phone-390x844");
  // The persistent test context cannot emulate a touch screen, so send the tap's pointer
  // event as a touch screen does.
  await page.$eval('[data-node="tikv-2"]', (el) =>
    el.dispatchEvent(new PointerEvent("pointerdown", { pointerType: "touch", button: 0, bubbles: true, isPrimary: true })),
  );
  await page.waitForSelector("#node-menu");
  assert.match(await page.textContent("#node-menu"), /kill now/);
  await page.close();
});
