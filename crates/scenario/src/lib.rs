//! Faultline scenarios: the TOML format (v1), validation with messages that name the field and
//! the limit, `[[expect]]` checks, share links, and the builder that turns a scenario into a
//! runnable world.

pub mod build;
mod deferred;
pub mod diff;
pub mod dur;
pub mod error;
pub mod expect;
pub mod expect_guide;
pub mod expectation;
mod fault_action;
mod fault_spec;
pub mod format;
pub mod gallery;
pub mod guide;
pub mod limits;
pub mod link;
mod locate;
pub mod model_version;
pub mod nearest;
pub mod nodes;
pub mod overrides;
pub mod params;
pub mod parse;
pub mod reference;
pub mod run;
pub mod section;
pub mod text;
mod unit_enum;
pub mod validate;
mod validate_cdc;
mod validate_field;
mod validate_script;
pub mod verbs;
pub mod verify;

pub use build::{build_world, SimWorld};
pub use diff::{first_difference, FirstDifference, TracedEvent};
pub use dur::{parse_duration_arg, Dur};
pub use error::{Problem, ScenarioError};
pub use expect::{evaluate, ExpectResult, Verdict};
pub use expect_guide::{evaluate_guide, GuideClaimResult};
pub use format::*;
pub use gallery::{default_scenario, gallery, GalleryEntry, DEFAULT_SCENARIO_FILE, SHIPPED};
pub use link::{
    decode_link, decode_shared, encode_link, encode_shared, share_url, LinkError, RunRecord,
    SharedLink,
};
pub use model_version::{FAULTLINE_COMMIT, FAULTLINE_VERSION, MODEL_VERSION};
pub use parse::{override_scenario, parse_scenario, parse_with_overrides, to_toml};
pub use run::{unknown_metric, Run};
pub use verbs::split::MAX_SPLIT_PARTS;
pub use verbs::verb::{Targets, Verb};
pub use verify::{
    compare_records, record_run, self_checking_link, verdict_word, verify_shared, Verification,
    VerifyError,
};
