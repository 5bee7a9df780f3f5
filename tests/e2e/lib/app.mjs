// Reading the app's state through the element ids it promises (see web/src/app.rs).
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = path.join(here, "..", "artifacts");

/** How long a scenario may take in the browser before the test gives up. */
const RUN_TIMEOUT_MS = 180_000;

/** Waits until #status reads "finished"; fails early if the app reports a crash. */
export async function waitFinished(page, problems) {
  try {
    await page.waitForFunction(
      () => {
        const s = document.getElementById("status")?.textContent;
        return s === "finished" || s === "crashed" || s === "failed";
      },
      null,
      { timeout: RUN_TIMEOUT_MS, polling: 100 },
    );
  } catch (e) {
    throw new Error(`${e.message}\nstatus: ${await text(page, "status")}\n${problems.join("\n")}`);
  }
  const status = await text(page, "status");
  if (status !== "finished") {
    throw new Error(`run ${status}: ${await text(page, "error")}\n${problems.join("\n")}`);
  }
}

/** Text content of the element with `id`, or null if absent. */
export async function text(page, id) {
  return page.evaluate((id) => document.getElementById(id)?.textContent ?? null, id);
}

/** Saves a full-page screenshot as tests/e2e/artifacts/<name>.png for reviewers. */
export async function screenshot(page, name) {
  await fs.mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** How long a seek or an edit may take to catch up. */
const SEEK_TIMEOUT_MS = 120_000;

/** Waits until #status is one of `states` (a seek or an edit has caught up). */
export async function waitStatus(page, problems, states = ["paused", "finished"]) {
  try {
    await page.waitForFunction(
      (states) => states.includes(document.getElementById("status")?.textContent),
      states,
      { timeout: SEEK_TIMEOUT_MS, polling: 100 },
    );
  } catch (e) {
    throw new Error(`${e.message}\nstatus: ${await text(page, "status")}\n${problems.join("\n")}`);
  }
}

/**
 * Moves the scrubber to `secs` (whole seconds) and waits, in the page, until the cursor rests
 * there: #status `paused` and #sim-time `<secs>.000 s`. Resolves to the wall time that took
 * on the page's clock (from the scrubber's change event to the DOM change that showed the
 * landing, so no polling interval is in it) and the progress values the seek bar showed.
 */
export async function seekTo(page, secs, timeoutMs = 600_000) {
  return page.evaluate(
    ({ ms, timeoutMs }) =>
      new Promise((resolve, reject) => {
        const want = `${ms / 1000}.000 s`;
        const landed = () =>
          document.getElementById("status")?.textContent === "paused" &&
          document.getElementById("sim-time")?.textContent === want;
        if (landed()) return resolve({ wallMs: 0, reached: [] });
        const reached = new Set();
        const t0 = performance.now();
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`the seek to ${want} did not land in ${timeoutMs} ms`));
        }, timeoutMs);
        const observer = new MutationObserver(() => {
          const p = document.getElementById("seek-progress")?.dataset.reached;
          if (p != null) reached.add(Number(p));
          if (!landed()) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve({ wallMs: performance.now() - t0, reached: [...reached] });
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        const scrubber = document.getElementById("scrubber");
        scrubber.value = String(ms);
        scrubber.dispatchEvent(new Event("change", { bubbles: true }));
      }),
    { ms: secs * 1000, timeoutMs },
  );
}

/**
 * Plays the opened scenario to its end at full speed and waits for it: a scenario opens
 * paused (at 0 or at the link's cursor), so nothing runs before the reader asks.
 */
export async function playToEnd(page, problems) {
  await waitStatus(page, problems, ["paused", "finished"]);
  if ((await text(page, "status")) === "paused") await page.click('[data-speed="max"]');
  await waitFinished(page, problems);
}

/** The Export TOML link's text, once the worker has written it. */
export async function exportedToml(page) {
  const handle = await page.waitForFunction(
    () => {
      const a = document.getElementById("export-toml");
      return a?.tagName === "A" && a.getAttribute("href")?.startsWith("data:") ? a.getAttribute("href") : null;
    },
    null,
    { timeout: 30_000, polling: 100 },
  );
  const href = await handle.jsonValue();
  return decodeURIComponent(href.slice(href.indexOf(",") + 1));
}

/** Clicks region `r` on the region map (one cell per region, row by row). */
export async function clickRegion(page, r) {
  const canvas = page.locator(".region-map canvas");
  const m = await canvas.evaluate((c) => ({ w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight }));
  await canvas.click({
    position: {
      x: ((r % m.w) + 0.5) * (m.cw / m.w),
      y: (Math.floor(r / m.w) + 0.5) * (m.ch / m.h),
    },
  });
  await page.waitForSelector(`.region-detail[data-region="${r}"]`, { timeout: 10_000 });
}
