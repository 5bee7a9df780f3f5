//! The event log in the systems' own wording, and the recorded messages, filterable by node,
//! kind, level and text. Clicking a row jumps the cursor to its time.

use std::rc::Rc;

use faultline_sim::SimTime;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::fmt;
use crate::view_model::log::{message_matches, LogFilter, LogVm, MessagesVm};

/// Props of [`LogPanel`].
#[derive(Properties, PartialEq)]
pub struct LogPanelProps {
    /// From `view_model::log_vm(&run)`.
    pub log: Rc<LogVm>,
    /// From `view_model::messages_vm(&run)`.
    pub messages: Rc<MessagesVm>,
    /// A row was clicked: jump to its time.
    pub on_jump: Callback<SimTime>,
    /// Rows rendered at most (newest first); the DOM stays small on long runs.
    #[prop_or(500)]
    pub max_rows: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Events,
    Messages,
}

/// The log panel.
#[function_component]
pub fn LogPanel(props: &LogPanelProps) -> Html {
    let tab = use_state(|| Tab::Events);
    let filter = use_state(LogFilter::default);
    let set = |f: fn(&mut LogFilter, String)| {
        let filter = filter.clone();
        move |v: String| {
            let mut next = (*filter).clone();
            f(&mut next, v);
            filter.set(next);
        }
    };
    let on_node = set(|f, v| f.node = v);
    let on_kind = set(|f, v| f.kind = v);
    let on_level = set(|f, v| f.min_level = v);
    let on_text = set(|f, v| f.text = v);
    let tab_button = |t: Tab, label: &str| {
        let tab = tab.clone();
        html! {
            <button class={ classes!("tab", (*tab == t).then_some("active")) }
                    data-tab={ label.to_string() }
                    onclick={ Callback::from(move |_| tab.set(t)) }>{ label }</button>
        }
    };
    let body = match *tab {
        Tab::Events => events(props, &filter),
        Tab::Messages => messages(props, &filter),
    };
    html! {
        <section class="view log-panel">
            <div class="tabs">
                { tab_button(Tab::Events, "events") }
                { tab_button(Tab::Messages, "messages") }
            </div>
            <div class="filters">
                { select("node", &props.log.nodes, &filter.node, on_node) }
                if *tab == Tab::Events {
                    { select("kind", &props.log.kinds, &filter.kind, on_kind) }
                    { select("level", &["WARN".into(), "ERROR".into()], &filter.min_level, on_level) }
                }
                <input type="search" placeholder="text" value={ filter.text.clone() }
                       data-filter="text"
                       oninput={ Callback::from(move |e: InputEvent| {
                           on_text(e.target_unchecked_into::<HtmlInputElement>().value())
                       }) } />
            </div>
            { body }
        </section>
    }
}

/// A filter `<select>` whose empty option means "any".
fn select(name: &str, options: &[String], current: &str, on: impl Fn(String) + 'static) -> Html {
    let onchange =
        Callback::from(move |e: Event| on(e.target_unchecked_into::<HtmlSelectElement>().value()));
    html! {
        <select data-filter={ name.to_string() } {onchange} aria-label={ name.to_string() }>
            <option value="" selected={ current.is_empty() }>{ format!("any {name}") }</option>
            { for options.iter().map(|o| html! {
                <option value={ o.clone() } selected={ o == current }>{ o }</option>
            }) }
        </select>
    }
}

fn jump(cb: &Callback<SimTime>, us: u64) -> Callback<MouseEvent> {
    cb.reform(move |_| SimTime(us))
}

fn events(props: &LogPanelProps, filter: &LogFilter) -> Html {
    let matching: Vec<_> = props
        .log
        .rows
        .iter()
        .rev()
        .filter(|r| filter.matches(r))
        .collect();
    let shown = matching.len().min(props.max_rows);
    html! {
        <>
            <p class="log-count">
                { format!("{} of {} entries", shown, props.log.rows.len()) }
                if props.log.dropped > 0 {
                    { format!(" ({} older entries dropped)", props.log.dropped) }
                }
            </p>
            <table class="log">
                <tbody>
                    { for matching.iter().take(shown).map(|r| html! {
                        <tr class={ classes!("level", r.level.to_lowercase()) }
                            data-at={ r.at_us.to_string() } data-node={ r.node.clone() }
                            data-level={ r.level.clone() } onclick={ jump(&props.on_jump, r.at_us) }>
                            <td class="at">{ fmt::at(r.at_us) }</td>
                            <td class="node">{ if r.node.is_empty() { "sim" } else { &r.node } }</td>
                            <td class="lvl">{ &r.level }</td>
                            <td class="msg">{ &r.message }{ " " }<span class="detail">{ &r.detail }</span></td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </>
    }
}

fn messages(props: &LogPanelProps, filter: &LogFilter) -> Html {
    if !props.messages.enabled {
        return html! {
            <p class="log-count">{ "Message recording is off for this run." }</p>
        };
    }
    let rows = &props.messages.rows;
    let matching: Vec<_> = rows
        .iter()
        .rev()
        .filter(|m| message_matches(filter, m))
        .collect();
    let shown = matching.len().min(props.max_rows);
    html! {
        <>
            <p class="log-count">{ format!(
                "{} of {} delivered in the {} s before the cursor",
                shown,
                crate::format::plural(rows.len(), "message", "messages"),
                crate::engine::MESSAGE_LEAD_IN_US / 1_000_000,
            ) }</p>
            <table class="log messages">
                <tbody>
                    { for matching.iter().take(shown).map(|m| html! {
                        <tr data-at={ m.delivered_us.to_string() }
                            onclick={ jump(&props.on_jump, m.delivered_us) }>
                            <td class="at">{ fmt::at(m.sent_us) }</td>
                            <td class="at">{ fmt::at(m.delivered_us) }</td>
                            <td class="node">{ format!("{} → {}", m.from, m.to) }</td>
                            <td class="msg">{ &m.label }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </>
    }
}
