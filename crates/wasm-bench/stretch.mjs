// The one way the raw model's speed over a stretch of simulated time is measured, shared by
// run.mjs (under Node.js) and tests/e2e/lib/raw-model.mjs (in a browser worker, which takes
// this function's source): the full-scale world is built and run untimed to `fromSecs`, then
// timed from there to `untilSecs`. Self-contained, as its source runs on its own in a worker.

/** Runs the instance's full-scale stretch; returns the events run and the wall milliseconds. */
export function timeStretch(instance, fromSecs, untilSecs) {
  instance.exports.prepare_full_scale(fromSecs);
  const start = performance.now();
  const events = instance.exports.advance_prepared(untilSecs);
  return { events: Number(events), ms: performance.now() - start };
}
