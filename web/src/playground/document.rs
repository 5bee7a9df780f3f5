//! The scenario as a document: opening one from scratch, validated edits with undo, and the
//! topology editor's add and remove.

use faultline_scenario::{encode_link, ChangefeedSpec, Problem, Scenario, ScenarioError};
use faultline_sim::SimTime;

use super::history::History;
use super::node_edit::without_node;
use super::topology::NodeKind;
use super::{check, Branch, Playground};

impl Playground {
    /// Opens a scenario from scratch (gallery, import, autosave): new branch list, t = 0.
    pub(super) fn open(&mut self, s: Scenario, file: Option<&'static str>) {
        if check(&s).is_err() {
            return;
        }
        self.link = encode_link(&s);
        self.branches = vec![Branch::main(&s)];
        self.active = 0;
        self.running = s.clone();
        self.file = file;
        self.draft = s;
        self.problems.clear();
        self.history = History::default();
        self.compare = None;
        self.selection.fault = None;
        self.guide = if self.scenario().guide.is_empty() {
            None
        } else {
            Some(0)
        };
        // Opened paused at the start: the reader chooses when to play or take the tour.
        self.playing = false;
        self.load(SimTime(0), Some(false));
    }

    /// Validates and, if valid, runs an edited scenario (recording undo).
    pub(super) fn commit(&mut self, next: Scenario) {
        match check(&next) {
            Ok(_) => {
                self.history.record(self.scenario().clone());
                self.replace(next);
            }
            Err(ScenarioError::Invalid { problems, .. }) => {
                self.draft = next;
                self.problems = problems;
            }
            Err(e) => {
                self.draft = next;
                self.problems = vec![Problem {
                    field: String::new(),
                    message: e.to_string(),
                }];
            }
        }
    }

    /// Runs `next` (already validated) from t = 0 and returns to the cursor.
    pub(super) fn replace(&mut self, next: Scenario) {
        let cursor = self.seek_target().unwrap_or(self.now());
        self.running = next.clone();
        self.link = encode_link(&next);
        self.file = None;
        self.draft = next.clone();
        self.problems.clear();
        if let Some(b) = self.branches.get_mut(self.active) {
            b.scenario = next;
        }
        self.edits += 1;
        self.load(cursor, None);
    }

    pub(super) fn add_node(&mut self, kind: NodeKind) {
        let mut next = self.draft.clone();
        match kind {
            NodeKind::Tikv => {
                next.topology.stores += 1;
                // Stores that may join come after the ones that start: keep room for them.
                if next.topology.max_stores != 0 {
                    next.topology.max_stores = next.topology.max_stores.max(next.topology.stores);
                }
            }
            NodeKind::Cdc => {
                next.topology.captures += 1;
                if next.changefeeds.is_empty() {
                    next.changefeeds.push(new_changefeed(1));
                }
            }
            NodeKind::Mysql => {
                if next.topology.captures == 0 {
                    next.topology.captures = 1;
                }
                let n = next.changefeeds.len() + 1;
                next.changefeeds.push(new_changefeed(n));
            }
            NodeKind::Client => {
                self.notice = Some("The workload's client (client-1) comes with TiCDC.".into());
                return;
            }
            NodeKind::Pd | NodeKind::Kafka => {
                self.notice = Some(
                    "The model has exactly one PD (pd-1); Kafka brokers come with a Kafka changefeed (topology.kafka_brokers)."
                        .into(),
                );
                return;
            }
        }
        self.commit(next);
    }

    /// Removes node `name` itself, or says in the notice why it cannot.
    pub(super) fn remove_node(&mut self, name: &str) {
        match without_node(&self.draft, name) {
            Ok(next) => {
                self.selection.forget_node(name);
                self.commit(next);
            }
            Err(why) => self.notice = Some(why),
        }
    }
}

/// A changefeed `cf-<n>` to MySQL with every other field at its file default
/// (`ChangefeedSpec::new` is tested against the parser in faultline-scenario).
fn new_changefeed(n: usize) -> ChangefeedSpec {
    ChangefeedSpec::new(format!("cf-{n}"))
}
