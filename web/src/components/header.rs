//! Name, one-line story and upstream issue of the running scenario. `data-file` names the
//! shipped file when the scenario is unchanged from the gallery, so tests can run the same
//! file natively.

use yew::prelude::*;

use super::PanelProps;
use crate::format;
use crate::toggles::issue_url;

/// The scenario header.
#[function_component]
pub fn Header(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let s = pg.scenario();
    let (story, details) = format::story(&s.description);
    html! {
        <section class="scenario">
            <h2 id="scenario-name" data-file={ pg.file }>{ &s.name }</h2>
            <p class="story">{ story }</p>
            if !details.is_empty() && !pg.embed {
                <details class="details"><summary>{ "More" }</summary><p>{ details }</p></details>
            }
            if let Some(issue) = &s.issue {
                <p class="issue">{ "Models " }
                    if let Some(url) = issue_url(issue) {
                        <a href={ url } target="_blank" rel="noopener">{ issue }</a>
                    } else {
                        <code>{ issue }</code>
                    }
                </p>
            }
        </section>
    }
}
