//! The one place the web app touches the simulation: load a scenario from a link (or the
//! default), run it in slices, read its clock and trace hash.

use crate::slicer::Steppable;
use faultline_scenario::{
    decode_link, default_scenario, ExpectResult, Run, Scenario, DEFAULT_SCENARIO_FILE,
};
use faultline_sim::SimTime;

/// A scenario loaded for the page, plus what went wrong with the link, if anything.
pub struct Loaded {
    /// The run, ready to step.
    pub engine: Engine,
    /// A user-facing message when the link could not be used and the default runs instead.
    pub link_error: Option<String>,
}

/// A running scenario.
pub struct Engine {
    run: Run,
    /// The shipped file this scenario came from, when it is the default (for the tests and
    /// for "open the file" links later).
    default_file: Option<&'static str>,
}

/// Loads the scenario named by a URL hash (`#v1.…`, or empty for the default). A link that
/// does not decode or does not build falls back to the default scenario with an explanation,
/// so the page is never blank. Fails only if the default itself cannot run (a build bug).
pub fn load(hash: &str) -> Result<Loaded, String> {
    let link = hash.trim_start_matches('#');
    if link.is_empty() {
        return Ok(Loaded {
            engine: Engine::default_scenario()?,
            link_error: None,
        });
    }
    let from_link = decode_link(link)
        .map_err(|e| e.to_string())
        .and_then(|s| Engine::new(&s, None).map_err(|e| e.to_string()));
    match from_link {
        Ok(engine) => Ok(Loaded {
            engine,
            link_error: None,
        }),
        Err(e) => Ok(Loaded {
            engine: Engine::default_scenario()?,
            link_error: Some(format!(
                "This link could not be opened: {e}\nShowing the default scenario instead."
            )),
        }),
    }
}

impl Engine {
    fn new(s: &Scenario, default_file: Option<&'static str>) -> Result<Engine, String> {
        let run = Run::new(s).map_err(|e| e.to_string())?;
        Ok(Engine { run, default_file })
    }

    fn default_scenario() -> Result<Engine, String> {
        Engine::new(&default_scenario(), Some(DEFAULT_SCENARIO_FILE))
            .map_err(|e| format!("The default scenario does not run (a bug): {e}"))
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.run.scenario
    }

    /// The shipped file name, when this is the default scenario.
    pub fn default_file(&self) -> Option<&'static str> {
        self.default_file
    }

    /// Simulated time reached so far.
    pub fn now(&self) -> SimTime {
        self.run.now()
    }

    /// Simulated time at which the scenario ends.
    pub fn end(&self) -> SimTime {
        self.run.end()
    }

    /// Trace hash of the events processed so far.
    pub fn trace_hash(&self) -> u64 {
        self.run.trace_hash()
    }

    /// The scenario's expectations, evaluated now.
    pub fn evaluate(&self) -> Vec<ExpectResult> {
        self.run.evaluate()
    }
}

impl Steppable for Engine {
    fn step_events(&mut self, max_events: u64) -> bool {
        let end = self.run.end();
        self.run.run_slice(end, max_events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_scenario::encode_link;

    fn run_to_end(e: &mut Engine) -> u64 {
        while !e.step_events(1_000) {}
        e.trace_hash()
    }

    #[test]
    fn no_hash_runs_the_default() {
        let l = load("").unwrap();
        assert!(l.link_error.is_none());
        assert_eq!(l.engine.default_file(), Some(DEFAULT_SCENARIO_FILE));
    }

    #[test]
    fn a_link_runs_its_scenario_like_an_uninterrupted_run() {
        let mut s = default_scenario();
        s.seed = 7;
        let mut l = load(&format!("#{}", encode_link(&s))).unwrap();
        assert!(l.link_error.is_none());
        assert_eq!(l.engine.scenario().seed, 7);
        // Slicing must not change the result.
        let mut whole = Run::new(&s).unwrap();
        whole.run_to_end();
        assert_eq!(run_to_end(&mut l.engine), whole.trace_hash());
    }

    #[test]
    fn a_broken_link_falls_back_to_the_default_with_a_message() {
        let l = load("#v1.%%%").unwrap();
        let msg = l.link_error.expect("an error message");
        assert!(msg.contains("could not be opened"), "{msg}");
        assert_eq!(l.engine.default_file(), Some(DEFAULT_SCENARIO_FILE));
    }
}
