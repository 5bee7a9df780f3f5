// Launches Debian's Chromium through playwright-core. Playwright's own browser download
// cannot work on these machines, so the executable is always given explicitly.
import { chromium } from "playwright-core";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * A fresh browser context with its own throwaway profile directory (Playwright requires
 * launchPersistentContext for a user data dir). Resolves to { context, close }.
 */
export async function launch() {
  const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), "faultline-e2e-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ARGS,
    viewport: { width: 1100, height: 700 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await fs.rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a new page and records console errors and page crashes, so a failing test
 * can say what the app printed.
 */
export async function open(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(url);
  return { page, problems };
}
