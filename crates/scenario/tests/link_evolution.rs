//! Link format v2 survives the format growing: a link written before a field existed opens
//! with the field's default, and a link from a newer model names what this build lacks.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ciborium::Value;
use faultline_scenario::*;

const SMALL: &str = r#"
name = "evolving"
seed = 3
duration = "1m"
[toggles]
"cdc.capture_remove_delay" = "0s"
"cdc.processor_close_on_session_loss" = "deferred"
[cdc]
kafka_timeout = "3s"
[[faults]]
at = "10s"
action = "kill"
target = "tikv-1"
"#;

fn small() -> Scenario {
    parse_scenario("evolving.toml", SMALL).expect("valid")
}

fn payload(link: &str) -> Value {
    let packed = URL_SAFE_NO_PAD
        .decode(link.strip_prefix("v2.").unwrap())
        .unwrap();
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib(&packed).unwrap();
    ciborium::from_reader(bytes.as_slice()).unwrap()
}

fn repack(value: &Value) -> String {
    let mut bytes = Vec::new();
    ciborium::into_writer(value, &mut bytes).unwrap();
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&bytes, 9);
    format!("v2.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// The map entry `key` of a CBOR map.
fn entry<'a>(v: &'a mut Value, key: &str) -> &'a mut Value {
    let Value::Map(m) = v else {
        panic!("not a map")
    };
    let i = m.iter().position(|(k, _)| k.as_text() == Some(key));
    &mut m[i.unwrap_or_else(|| panic!("no key {key}"))].1
}

fn remove(v: &mut Value, key: &str) {
    let Value::Map(m) = v else {
        panic!("not a map")
    };
    m.retain(|(k, _)| k.as_text() != Some(key));
}

fn insert(v: &mut Value, key: &str, value: Value) {
    let Value::Map(m) = v else {
        panic!("not a map")
    };
    m.push((Value::Text(key.into()), value));
}

#[test]
fn a_link_written_before_a_field_existed_opens_with_its_default() {
    // A build from before the tiflow#9344 toggles and the Kafka timeout wrote no such fields:
    // strip them from today's link and the reader fills in today's defaults.
    let mut v = payload(&encode_link(&small()));
    let scenario = entry(&mut v, "scenario");
    let toggles = entry(scenario, "toggles");
    remove(toggles, "cdc.capture_remove_delay");
    remove(toggles, "cdc.processor_close_on_session_loss");
    remove(entry(scenario, "cdc"), "kafka_timeout");
    let opened = decode_link(&repack(&v)).expect("an older link opens");
    let mut expected = small();
    expected.toggles.cdc_capture_remove_delay = Default::default();
    expected.toggles.cdc_processor_close_on_session_loss = Default::default();
    expected.cdc.kafka_timeout = CdcParams::default().kafka_timeout;
    assert_eq!(opened, expected);
    assert_ne!(
        opened,
        small(),
        "the stripped fields were not at their defaults"
    );
}

#[test]
fn defaults_are_left_out_of_the_link() {
    let v = payload(&encode_link(&small()));
    let Value::Map(top) = &v else { panic!() };
    let scenario = &top
        .iter()
        .find(|(k, _)| k.as_text() == Some("scenario"))
        .unwrap()
        .1;
    let Value::Map(fields) = scenario else {
        panic!()
    };
    let keys: Vec<&str> = fields.iter().filter_map(|(k, _)| k.as_text()).collect();
    assert_eq!(
        keys,
        ["name", "seed", "duration", "toggles", "faults", "cdc"]
    );
}

fn newer_link(model: u64, edit: impl FnOnce(&mut Value)) -> String {
    let mut v = payload(&encode_link(&small()));
    *entry(&mut v, "model") = Value::Integer(model.into());
    edit(entry(&mut v, "scenario"));
    repack(&v)
}

#[test]
fn a_newer_models_unknown_value_is_named() {
    let link = newer_link(u64::from(MODEL_VERSION) + 4, |s| {
        let Value::Array(faults) = entry(s, "faults") else {
            panic!()
        };
        *entry(&mut faults[0], "action") = Value::Text("scatter".into());
    });
    let err = decode_link(&link).unwrap_err();
    assert_eq!(
        err,
        LinkError::NewerModel {
            what: "faults[0].action = scatter".into(),
            link_model: MODEL_VERSION + 4,
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("this link uses `faults[0].action = scatter`"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "made with model {}; this build knows up to model {MODEL_VERSION}",
            MODEL_VERSION + 4
        )),
        "{text}"
    );
}

#[test]
fn a_newer_models_unknown_field_is_named() {
    let link = newer_link(u64::from(MODEL_VERSION) + 1, |s| {
        insert(entry(s, "cdc"), "sorter_memory", Value::Integer(7.into()));
    });
    match decode_link(&link).unwrap_err() {
        LinkError::NewerModel { what, .. } => assert_eq!(what, "cdc.sorter_memory"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_unknown_field_from_this_model_is_corruption() {
    let link = newer_link(u64::from(MODEL_VERSION), |s| {
        insert(entry(s, "cdc"), "sorter_memory", Value::Integer(7.into()));
    });
    let err = decode_link(&link).unwrap_err();
    assert!(matches!(err, LinkError::BadScenario(_)), "{err:?}");
    assert!(
        err.to_string().contains("at `cdc`") || err.to_string().contains("sorter_memory"),
        "{err}"
    );
}

#[test]
fn a_corrupted_v2_link_is_rejected() {
    let link = encode_link(&small());
    for i in [5, link.len() / 2, link.len() - 3] {
        let mut chars: Vec<char> = link.chars().collect();
        chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
        let bad: String = chars.into_iter().collect();
        let err = decode_link(&bad).unwrap_err();
        assert!(
            matches!(err, LinkError::Corrupted(_) | LinkError::BadScenario(_)),
            "char {i}: {err:?}"
        );
    }
}
