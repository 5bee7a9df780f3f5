// The native `faultline` CLI: the reference the browser build must agree with.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = process.env.FAULTLINE_ROOT ?? path.resolve(here, "..", "..", "..");
const BIN = process.env.FAULTLINE_BIN ?? path.join(ROOT, "target", "debug", "faultline");

function faultline(...args) {
  return execFileSync(BIN, args, { cwd: ROOT, encoding: "utf8" }).trim();
}

/** The 16-hex-digit trace hash of a scenario file or link, computed natively. */
export function traceHash(scenario) {
  const h = faultline("trace-hash", scenario);
  if (!/^[0-9a-f]{16}$/.test(h)) throw new Error(`unexpected trace-hash output: ${h}`);
  return h;
}

/** The share-link fragment (`#v2.…`) for a scenario file. */
export function linkFragment(file) {
  const url = faultline("link", file, "--plain");
  const i = url.indexOf("#");
  if (i < 0) throw new Error(`no fragment in link output: ${url}`);
  return url.slice(i);
}
