// Times the shared benchmark in WebAssembly under Node.js (V8, the engine Chromium uses).
// Usage: node run.mjs path/to/faultline_wasm_bench.wasm [minutes] [--from SECONDS]
// With --from, the world is built and run to SECONDS untimed, and only the stretch from there
// to the end is timed: the raw model over the same stretch as a playground seek (the browser
// test seeks the full-scale scenario from 30 s to 6 min: `6 --from 30`).
import { readFileSync } from "node:fs";
import { timeStretch } from "./stretch.mjs";

const args = process.argv.slice(2);
const fromAt = args.indexOf("--from");
const fromSecs = fromAt >= 0 ? Number(args[fromAt + 1]) : null;
const [wasmPath, minutesArg] = fromAt >= 0 ? args.filter((_, i) => i !== fromAt && i !== fromAt + 1) : args;
const minutes = Number(minutesArg ?? 10);
if (!Number.isInteger(minutes) || minutes < 1 || (fromSecs !== null && !(fromSecs >= 0 && fromSecs < minutes * 60))) {
  console.error("usage: node run.mjs WASM [MINUTES >= 1] [--from SECONDS below MINUTES * 60]");
  process.exit(2);
}
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
if (fromSecs === null) {
  const start = performance.now();
  const events = instance.exports.bench_full_scale(minutes);
  const secs = (performance.now() - start) / 1000;
  console.log(`wasm: ${minutes} simulated min, ${events} events, ${secs.toFixed(2)} s`);
} else {
  const { events, ms } = timeStretch(instance, fromSecs, minutes * 60);
  const secs = ms / 1000;
  const span = minutes * 60 - fromSecs;
  console.log(
    `wasm: ${fromSecs} s -> ${minutes} simulated min, ${events} events, ${secs.toFixed(2)} s = ${(span / secs).toFixed(1)} simulated s per s`,
  );
}
