// Times the shared benchmark in WebAssembly under Node.js (V8, the engine Chromium uses).
// Usage: node run.mjs path/to/faultline_wasm_bench.wasm [minutes]
import { readFileSync } from "node:fs";

const [wasmPath, minutesArg] = process.argv.slice(2);
const minutes = Number(minutesArg ?? 10);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const start = performance.now();
const events = instance.exports.bench_full_scale(minutes);
const secs = (performance.now() - start) / 1000;
console.log(`wasm: ${minutes} simulated min, ${events} events, ${secs.toFixed(2)} s`);
