//! Sharing and keeping work: copy link, copy issue report, export/import TOML, undo/redo.
//! Copied text is also shown in a box, because a browser may refuse clipboard access.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::PanelProps;
use crate::dom;
use crate::playground::report::{issue_report, ReportInput};
use crate::playground::Action;

/// The share bar.
#[function_component]
pub fn Share(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let copied = use_state(|| None::<(String, String)>);
    // Keeps the file read alive until it finishes.
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    let url = format!(
        "{}{}",
        dom::base_url(),
        crate::playground::link_check::checked_url_hash(&pg)
    );
    let copy_link = {
        let (copied, cb, url) = (copied.clone(), props.on_action.clone(), url.clone());
        Callback::from(move |_: MouseEvent| {
            dom::copy(&url);
            copied.set(Some(("Link".into(), url.clone())));
            cb.emit(Action::Notice("Link copied".into()));
        })
    };
    let copy_report = copy_report(&copied, &props.on_action, &props.state);
    // The worker prints the TOML (the page links no TOML code); until its answer for the
    // current link arrives the button says so. Re-encoded only when the answer changes.
    let exported = pg
        .exported
        .as_ref()
        .filter(|(link, _)| *link == pg.link)
        .map(|(_, text)| text);
    let toml_href = use_memo(exported.is_some().then(|| pg.link.clone()), |ready| {
        ready
            .as_ref()
            .and(exported)
            .map(|text| dom::data_url("application/toml", text))
    });
    let file_name = toml_file_name(&pg.scenario().name);
    let on_import = import_toml(&props.on_action, &reader);
    let (can_undo, can_redo) = pg.history.can();
    let send = |a: Action| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let close = {
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| copied.set(None))
    };
    html! {
        <div class="share row" role="toolbar" aria-label="share">
            <button id="copy-link" onclick={ copy_link }>{ "Copy link" }</button>
            <button id="copy-report" onclick={ copy_report }>{ "Copy issue report" }</button>
            if let Some(href) = (*toml_href).clone() {
                <a id="export-toml" class="button" href={ href } download={ file_name }>{ "Export TOML" }</a>
            } else {
                <span id="export-toml" class="button disabled" aria-busy="true" title="the worker is writing the TOML">{ "Export TOML (loading…)" }</span>
            }
            if let Some(name) = &pg.importing {
                <span id="importing" class="button disabled" aria-busy="true">{ format!("Importing {name} (loading…)") }</span>
            }
            <label class="button" for="import-toml">{ "Import TOML…" }</label>
            <input id="import-toml" type="file" accept=".toml,text/plain" class="visually-hidden" onchange={ on_import } />
            <button id="undo" disabled={ !can_undo } title="Undo edit (ctrl+z)" onclick={ send(Action::Undo) }>{ "Undo" }</button>
            <button id="redo" disabled={ !can_redo } title="Redo edit (ctrl+shift+z)" onclick={ send(Action::Redo) }>{ "Redo" }</button>
            if let Some((what, text)) = &*copied {
                <div class="copied">
                    <span>{ format!("{what} (copied; select it here if the clipboard refused):") }</span>
                    <textarea id="copied-text" readonly=true rows={ copied_rows(text).to_string() } value={ text.clone() } />
                    <button onclick={ close }>{ "Close" }</button>
                </div>
            }
        </div>
    }
}

/// Copies the issue report. Built on click, not per render: the page re-renders with every
/// frame while playing.
fn copy_report(
    copied: &UseStateHandle<Option<(String, String)>>,
    on_action: &Callback<Action>,
    state: &crate::state::StateHandle,
) -> Callback<MouseEvent> {
    let (copied, cb, state) = (copied.clone(), on_action.clone(), state.clone());
    Callback::from(move |_: MouseEvent| {
        let report = {
            let pg = state.pg.borrow();
            let url = format!(
                "{}{}",
                dom::base_url(),
                crate::playground::link_check::checked_url_hash(&pg)
            );
            issue_report(&ReportInput {
                scenario: pg.scenario(),
                url: &url,
                cursor: pg.now(),
                trace_hash: pg.trace_hash(),
                results: &pg.frame.expectations.rows,
            })
        };
        dom::copy(&report);
        copied.set(Some(("Issue report".into(), report.clone())));
        cb.emit(Action::Notice("Issue report copied (Markdown)".into()));
    })
}

/// Rows of the box that shows what was copied: one per line of the text, so an issue report is
/// readable without scrolling a four-line box, but never more than the screen takes.
fn copied_rows(text: &str) -> usize {
    text.lines().count().clamp(MIN_COPIED_ROWS, MAX_COPIED_ROWS)
}

/// A link is one line; the box still shows a few so it reads as a text box.
const MIN_COPIED_ROWS: usize = 4;
/// About half a 900-pixel-high window at 12 px monospace.
const MAX_COPIED_ROWS: usize = 24;

/// `raft-basics-kill-a-store.toml` from a scenario's name: lower-case letters and digits,
/// dashes for the rest.
fn toml_file_name(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("{}.toml", stem.trim_matches('-'))
}

/// Reads the chosen file and imports it as TOML; `reader` keeps the read alive until it ends.
fn import_toml(
    on_action: &Callback<Action>,
    reader: &Rc<RefCell<Option<FileReader>>>,
) -> Callback<Event> {
    let (cb, reader) = (on_action.clone(), reader.clone());
    Callback::from(move |e: Event| {
        let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        let file = gloo::file::File::from(file);
        let name = file.name();
        let cb = cb.clone();
        let task = gloo::file::callbacks::read_as_text(&file, move |res| match res {
            Ok(text) => cb.emit(Action::ImportToml(name, text)),
            Err(e) => cb.emit(Action::Notice(format!("Could not read the file: {e}"))),
        });
        *reader.borrow_mut() = Some(task);
        input.set_value("");
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copied_box_grows_with_the_text_between_its_bounds() {
        assert_eq!(copied_rows("http://x/#v2.abc"), MIN_COPIED_ROWS);
        let report: String = (0..10).map(|i| format!("line {i}\n")).collect();
        assert_eq!(copied_rows(&report), 10);
        let long: String = (0..100).map(|i| format!("line {i}\n")).collect();
        assert_eq!(copied_rows(&long), MAX_COPIED_ROWS);
    }
}
