//! Guided playback: where the tour's Prev and Next take the cursor, and what the guide bar
//! shows. Every step pauses at its own time; before the first step (a scenario opens paused
//! at 0) the bar offers the way to step 1, so a one-step tour at 2m is reachable and Prev
//! from it goes back to the start.

use faultline_scenario::GuideTab;
use faultline_sim::SimTime;

use super::Playground;

/// Where a guide button takes the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuideStop {
    /// The start of the run, before the first step (t = 0).
    Start,
    /// Step `i`, at its time.
    Step(usize),
}

/// What the guide bar shows, in guided mode.
#[derive(Clone, Debug, PartialEq)]
pub struct GuideNav<'a> {
    /// The step whose caption applies at the cursor; None before the first step.
    pub step: Option<usize>,
    /// How many steps the tour has.
    pub count: usize,
    /// The caption of `step`.
    pub caption: Option<&'a str>,
    /// Where Prev goes; None when there is nowhere earlier.
    pub prev: Option<GuideStop>,
    /// Where Next goes; None at the last step.
    pub next: Option<GuideStop>,
    /// The view `step` talks about, to bring into sight.
    pub view: StepView<'a>,
}

/// What a step names to bring into sight: a tab, a chart (by a metric it draws), a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepView<'a> {
    /// The tab to open.
    pub tab: Option<GuideTab>,
    /// A metric whose chart is scrolled into sight and highlighted.
    pub metric: Option<&'a str>,
    /// A node to highlight in the topology.
    pub node: Option<&'a str>,
}

impl Playground {
    /// The guide bar's contents; None outside guided mode or for a scenario without steps.
    pub fn guide_nav(&self) -> Option<GuideNav<'_>> {
        self.guide?;
        let steps = &self.scenario().guide;
        if steps.is_empty() {
            return None;
        }
        let shown = self.caption();
        let step = shown.map(|(i, _)| i);
        let prev = match step {
            None => None,
            Some(0) if steps[0].at.to_time() > SimTime(0) => Some(GuideStop::Start),
            Some(0) => None,
            Some(i) => Some(GuideStop::Step(i - 1)),
        };
        let next = match step {
            None => Some(GuideStop::Step(0)),
            Some(i) if i + 1 < steps.len() => Some(GuideStop::Step(i + 1)),
            Some(_) => None,
        };
        let view = step
            .map(|i| StepView {
                tab: steps[i].tab,
                metric: steps[i].metric.as_deref(),
                node: steps[i].node.as_deref(),
            })
            .unwrap_or_default();
        Some(GuideNav {
            step,
            count: steps.len(),
            caption: shown.map(|(_, c)| c),
            prev,
            next,
            view,
        })
    }

    /// Enters guided mode at `stop`: the cursor moves to its time and pauses there.
    pub(super) fn guide_to(&mut self, stop: GuideStop) {
        let (index, at) = match stop {
            GuideStop::Start => (0, SimTime(0)),
            GuideStop::Step(i) => match self.scenario().guide.get(i) {
                Some(step) => (i, step.at.to_time()),
                None => return,
            },
        };
        self.guide = Some(index);
        self.seek(at);
    }
}

#[cfg(test)]
#[path = "guide_tests.rs"]
mod tests;
