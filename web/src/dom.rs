//! The few browser calls the app makes (URL, history, storage, clipboard), in one place so
//! components stay declarative. Natively (tests, clippy) they are inert.

use faultline_scenario::{decode_link, Scenario};

/// localStorage key of the autosaved scenario (a `v1.` link).
pub const AUTOSAVE_KEY: &str = "faultline.autosave";
/// localStorage key of the editor's node positions.
pub const POSITIONS_KEY: &str = "faultline.positions";

/// Wall-clock milliseconds.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

/// The URL hash including `#`, or empty.
pub fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The page URL without its hash.
pub fn base_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or("").to_string())
        .unwrap_or_default()
}

/// True when the URL has `?embed`.
pub fn is_embed() -> bool {
    has_flag("embed")
}

/// True when the URL's query has `name` (alone or as `name=…`).
pub fn has_flag(name: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|s| {
            s.trim_start_matches('?')
                .split('&')
                .any(|kv| kv == name || kv.starts_with(&format!("{name}=")))
        })
}

/// Replaces the URL hash without a history entry or a `hashchange` event.
pub fn replace_hash(hash: &str) {
    let Some(w) = web_sys::window() else { return };
    if w.location().hash().ok().as_deref() == Some(hash) {
        return;
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

/// Reads a localStorage string.
pub fn load(key: &str) -> Option<String> {
    let s = web_sys::window()?.local_storage().ok()??;
    s.get_item(key).ok()?
}

/// Writes a localStorage string (quota errors are ignored: autosave is best effort).
pub fn save(key: &str, value: &str) {
    if let Some(Ok(Some(s))) = web_sys::window().map(|w| w.local_storage()) {
        let _ = s.set_item(key, value);
    }
}

/// The autosaved scenario, if one decodes.
pub fn autosaved() -> Option<Scenario> {
    decode_link(&load(AUTOSAVE_KEY)?).ok()
}

/// Copies text to the clipboard (best effort: headless or insecure pages may refuse; the
/// page also shows the text for manual copying).
pub fn copy(text: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use js_sys::{Function, Reflect};
        use wasm_bindgen::{JsCast, JsValue};
        let Some(w) = web_sys::window() else { return };
        let clip = Reflect::get(&w, &JsValue::from_str("navigator"))
            .and_then(|n| Reflect::get(&n, &JsValue::from_str("clipboard")));
        if let Ok(clip) = clip {
            if let Ok(f) = Reflect::get(&clip, &JsValue::from_str("writeText")) {
                if let Some(f) = f.dyn_ref::<Function>() {
                    // The returned promise is dropped; a refusal leaves the visible copy.
                    let _ = f.call1(&clip, &JsValue::from_str(text));
                }
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = text;
}

/// A `data:` URL downloading `text` (no object URL to revoke).
pub fn data_url(mime: &str, text: &str) -> String {
    let encoded: String = js_encode(text);
    format!("data:{mime};charset=utf-8,{encoded}")
}

fn js_encode(text: &str) -> String {
    // Percent-encode everything but unreserved characters (RFC 3986), byte by byte.
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
