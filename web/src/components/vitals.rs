//! Headline numbers at the cursor, with stable `data-metric` attributes for the browser
//! tests (e.g. `[data-metric="leaderless_regions"]`).

use faultline_scenario::Run;
use yew::prelude::*;

/// Props of [`Vitals`].
#[derive(Properties, PartialEq, Clone)]
pub struct VitalsProps {
    /// Names the run in tests: `primary` or `twin`.
    pub which: AttrValue,
    /// Bumped when the run changed (the run itself is borrowed by the parent).
    pub rows: Vec<(String, String, String)>,
}

/// The metrics worth a glance, as (metric name, label, value) rows.
pub fn rows(run: &Run) -> Vec<(String, String, String)> {
    let m = &run.world.kernel.metrics;
    let mut out = Vec::new();
    let mut push = |name: &str, label: &str| {
        if let Some(v) = m.last(name) {
            out.push((name.to_string(), label.to_string(), fmt_value(v)));
        }
    };
    push("leaderless_regions", "leaderless regions");
    push(
        "max_leaderless_secs",
        "longest current leaderless streak (s)",
    );
    push("hibernated_peers", "hibernated peers");
    push("orphaned_regions", "orphaned regions (TiCDC)");
    for cf in &run.scenario.changefeeds {
        push(
            &format!("checkpoint_lag.{}", cf.id),
            &format!("{} checkpoint lag (s)", cf.id),
        );
        push(
            &format!("resolved_lag.{}", cf.id),
            &format!("{} resolved lag (s)", cf.id),
        );
    }
    out
}

fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The headline numbers.
#[function_component]
pub fn Vitals(props: &VitalsProps) -> Html {
    html! {
        <dl class="vitals" data-run={ props.which.clone() }>
            { for props.rows.iter().map(|(name, label, value)| html! {
                <div class="vital">
                    <dt>{ label }</dt>
                    <dd data-metric={ name.clone() }>{ value }</dd>
                </div>
            }) }
        </dl>
    }
}
