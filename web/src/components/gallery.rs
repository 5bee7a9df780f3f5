//! Every shipped scenario: title, one-line story, upstream issue link, and whether it has a
//! guided tour. Opening one starts it at t = 0 (guided mode if it has steps).

use yew::prelude::*;

use crate::format;
use crate::gallery::gallery;
use crate::playground::Action;
use crate::toggles::issue_url;

/// Props of [`Gallery`].
#[derive(Properties, PartialEq, Clone)]
pub struct GalleryProps {
    /// The file currently open, to mark it.
    pub current: Option<&'static str>,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

/// The gallery.
#[function_component]
pub fn Gallery(props: &GalleryProps) -> Html {
    // Decoding the shipped scenarios costs a little; do it once per mount.
    let entries = use_memo((), |_| gallery());
    html! {
        <section id="gallery" class="panel gallery">
            <h3>{ "Gallery" }</h3>
            <ul>
                { for entries.iter().map(|e| {
                    let (story, _) = format::story(&e.scenario.description);
                    let open = {
                        let cb = props.on_action.clone();
                        let s = e.scenario.clone();
                        let file = e.file;
                        Callback::from(move |_: MouseEvent| cb.emit(Action::Open { scenario: Box::new(s.clone()), file: Some(file) }))
                    };
                    let current = props.current == Some(e.file);
                    html! {
                        <li class={ classes!(current.then_some("current")) } data-file={ e.file }>
                            <button class="link" onclick={ open }>{ &e.scenario.name }</button>
                            if !e.scenario.guide.is_empty() {
                                <span class="badge" title="has guided steps">{ format!("guided · {}", crate::format::plural(e.scenario.guide.len(), "step", "steps")) }</span>
                            }
                            <p>{ story }</p>
                            if let Some(issue) = &e.scenario.issue {
                                if let Some(url) = issue_url(issue) {
                                    <a class="issue-link" href={ url } target="_blank" rel="noopener">{ issue }</a>
                                }
                            }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
