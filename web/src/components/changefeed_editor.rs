//! The inspector's TiCDC part: Kafka brokers and every changefeed's sink, Kafka protocol and
//! redo log; add and remove changefeeds. Each change is one undoable edit.

use std::rc::Rc;

use faultline_scenario::{ChangefeedSpec, KafkaProtocol, Problem, Scenario, SinkKind};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::field_problems::problems_for;
use crate::playground::Action;

/// The sinks a changefeed may write to: (file value, label).
const SINKS: [(SinkKind, &str, &str); 2] = [
    (SinkKind::Mysql, "mysql", "MySQL (mysql-1)"),
    (SinkKind::Kafka, "kafka", "Kafka (kafka-1..N)"),
];

/// The Kafka protocols: (value, file value).
const PROTOCOLS: [(KafkaProtocol, &str); 2] = [
    (KafkaProtocol::OpenProtocol, "open_protocol"),
    (KafkaProtocol::CanalJson, "canal_json"),
];

/// The first `cf-N` id no changefeed has.
pub fn next_changefeed_id(s: &Scenario) -> String {
    (1..)
        .map(|n| format!("cf-{n}"))
        .find(|id| s.changefeeds.iter().all(|c| c.id != *id))
        .unwrap_or_default()
}

fn edit(a: &Callback<Action>, f: impl Fn(&mut Scenario) + 'static) {
    a.emit(Action::Edit(Rc::new(f)));
}

fn select(e: &Event) -> String {
    e.target_dyn_into::<HtmlSelectElement>()
        .map(|s| s.value())
        .unwrap_or_default()
}

/// Edits changefeed `i` if it still exists (a row's callback may outlive a removal).
fn edit_changefeed(a: &Callback<Action>, i: usize, f: impl Fn(&mut ChangefeedSpec) + 'static) {
    edit(a, move |s| {
        if let Some(c) = s.changefeeds.get_mut(i) {
            f(c);
        }
    });
}

/// One changefeed's row.
fn changefeed_row(i: usize, cf: &ChangefeedSpec, a: &Callback<Action>) -> Html {
    let on_sink = {
        let a = a.clone();
        Callback::from(move |e: Event| {
            if let Some((sink, _, _)) = SINKS.into_iter().find(|(_, v, _)| *v == select(&e)) {
                edit_changefeed(&a, i, move |c| c.sink = sink);
            }
        })
    };
    let on_protocol = {
        let a = a.clone();
        Callback::from(move |e: Event| {
            if let Some((p, _)) = PROTOCOLS.into_iter().find(|(_, v)| *v == select(&e)) {
                edit_changefeed(&a, i, move |c| c.protocol = p);
            }
        })
    };
    let on_redo = {
        let a = a.clone();
        Callback::from(move |e: Event| {
            let on = e
                .target_dyn_into::<HtmlInputElement>()
                .is_some_and(|i| i.checked());
            edit_changefeed(&a, i, move |c| c.redo = on);
        })
    };
    let on_remove = {
        let a = a.clone();
        Callback::from(move |_: MouseEvent| {
            edit(&a, move |s| {
                if i < s.changefeeds.len() {
                    s.changefeeds.remove(i);
                }
            })
        })
    };
    let field = |f: &str| format!("changefeeds[{i}].{f}");
    html! {
        <div class="changefeed row" data-changefeed={ cf.id.clone() }>
            <strong>{ &cf.id }</strong>
            <label>{ "sink " }
                <select data-field={ field("sink") } onchange={ on_sink }>
                    { for SINKS.iter().map(|(k, v, label)| html! {
                        <option value={ *v } selected={ *k == cf.sink }>{ *label }</option>
                    }) }
                </select>
            </label>
            if cf.sink == SinkKind::Kafka {
                <label>{ "protocol " }
                    <select data-field={ field("protocol") } onchange={ on_protocol }>
                        { for PROTOCOLS.iter().map(|(k, v)| html! {
                            <option value={ *v } selected={ *k == cf.protocol }>{ *v }</option>
                        }) }
                    </select>
                </label>
            }
            <label class="check">
                <input type="checkbox" data-field={ field("redo") } checked={ cf.redo } onchange={ on_redo } />
                { "redo log (consistent.level = eventual)" }
            </label>
            <button class="danger" data-remove-changefeed={ cf.id.clone() } onclick={ on_remove }>{ "Remove" }</button>
        </div>
    }
}

/// The changefeeds fieldset (with the Kafka brokers they may write to).
pub fn changefeeds_fieldset(
    s: &Scenario,
    brokers: Html,
    a: &Callback<Action>,
    p: &[Problem],
) -> Html {
    let add = |sink: SinkKind| {
        let a = a.clone();
        Callback::from(move |_: MouseEvent| {
            edit(&a, move |s| {
                let mut cf = ChangefeedSpec::new(next_changefeed_id(s));
                cf.sink = sink;
                // A Kafka changefeed needs a broker to write to: add one if there is none.
                if sink == SinkKind::Kafka && s.topology.kafka_brokers == 0 {
                    s.topology.kafka_brokers = 1;
                }
                s.changefeeds.push(cf);
            })
        })
    };
    html! {
        <fieldset class="changefeeds"><legend>{ "TiCDC changefeeds" }</legend>
            { brokers }
            { for s.changefeeds.iter().enumerate().map(|(i, cf)| changefeed_row(i, cf, a)) }
            <div class="row">
                <button id="add-changefeed-mysql" onclick={ add(SinkKind::Mysql) }>{ "Add MySQL changefeed" }</button>
                <button id="add-changefeed-kafka" onclick={ add(SinkKind::Kafka) }>{ "Add Kafka changefeed" }</button>
            </div>
            { problems_for(p, "changefeeds") }
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_scenario::default_scenario;

    #[test]
    fn a_new_changefeed_takes_the_first_free_id() {
        let mut s = default_scenario();
        s.changefeeds = vec![ChangefeedSpec::new("cf-1"), ChangefeedSpec::new("cf-3")];
        assert_eq!(next_changefeed_id(&s), "cf-2");
        s.changefeeds.clear();
        assert_eq!(next_changefeed_id(&s), "cf-1");
    }
}
