// The model alone (crates/wasm-bench, built by `cargo xtask test` with the `release` profile)
// run in this browser, in a Web Worker as the playground's model is: the raw speed a seek is
// measured against (issue 18 item 9: a seek into unplayed time runs at no less than 80% of
// it). Measured here rather than under Node.js, so both figures come from the same engine on
// the same machine in the same hour. A measurement only: nothing passes or fails on it.
import fs from "node:fs";
import { timeStretch } from "../../../crates/wasm-bench/stretch.mjs";

/** The worker: times `from` s -> `minutes` min as `crates/wasm-bench/run.mjs` does under
 * Node.js, with the same function. */
const WORKER = `
const timeStretch = ${timeStretch.toString()};
onmessage = async (e) => {
  const { bytes, from, minutes } = e.data;
  const { instance } = await WebAssembly.instantiate(bytes, {});
  postMessage(timeStretch(instance, from, minutes * 60));
};`;

/**
 * Wall milliseconds the model alone takes in this browser for `from` s -> `minutes` min of
 * the full-scale cluster, and the events it ran; null (with the reason) when the raw build is
 * missing, e.g. when these tests run without `cargo xtask test`.
 */
export async function rawModelRun(context, origin, from, minutes) {
  const wasm = process.env.FAULTLINE_RAW_WASM;
  if (!wasm || !fs.existsSync(wasm)) {
    return { skipped: `no raw model build at ${wasm ?? "(FAULTLINE_RAW_WASM unset)"}` };
  }
  const page = await context.newPage();
  // A page of the test server's origin that the server itself does not have: nothing of the
  // app runs beside the measurement.
  const url = `${origin}raw-model.html`;
  await page.route(url, (r) => r.fulfill({ contentType: "text/html", body: "<!doctype html><title>raw model</title>" }));
  await page.goto(url);
  const bytes = fs.readFileSync(wasm).toString("base64");
  const result = await page.evaluate(
    ({ script, bytes, from, minutes }) =>
      new Promise((resolve, reject) => {
        const raw = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
        const worker = new Worker(URL.createObjectURL(new Blob([script], { type: "text/javascript" })));
        worker.onmessage = (e) => {
          worker.terminate();
          resolve(e.data);
        };
        worker.onerror = (e) => reject(new Error(e.message));
        worker.postMessage({ bytes: raw.buffer, from, minutes }, [raw.buffer]);
      }),
    { script: WORKER, bytes, from, minutes },
  );
  await page.close();
  return result;
}
