// Measurements the browser tests take but never pass or fail on: frame rates, frame gaps,
// input delays and load times depend on the machine's load, not on the code under test.
// Each one is printed in the test output and appended to artifacts/measurements.jsonl, where
// docs/bench.md takes its web figures from.
import fs from "node:fs";
import path from "node:path";
import { ARTIFACTS } from "./app.mjs";

/** Prints `label` with its figures and records them as one JSON line. */
export function record(label, figures) {
  const shown = Object.entries(figures)
    .map(([k, v]) => `${k} ${typeof v === "number" ? Number(v.toFixed(1)) : v}`)
    .join(", ");
  console.log(`measured: ${label}: ${shown}`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const line = JSON.stringify({ label, at: new Date().toISOString(), ...figures });
  fs.appendFileSync(path.join(ARTIFACTS, "measurements.jsonl"), `${line}\n`);
}
