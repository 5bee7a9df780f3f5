//! Shows a panic in the page instead of leaving a dead tab: the message goes into the
//! `#error` element (created if the app has not rendered yet) and to the console, with a
//! repro link: the page URL, whose hash always holds the scenario and cursor.

/// Installs the panic hook. Call first thing in `main`.
#[cfg(target_arch = "wasm32")]
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let href = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let text = format!(
            "The simulation crashed: {info}\nRepro link (copy it into a bug report): {href}\nReload the page to continue."
        );
        web_sys_log(&text);
        show(&text);
    }));
}

#[cfg(target_arch = "wasm32")]
fn web_sys_log(text: &str) {
    gloo::console::error!(text.to_string());
}

#[cfg(target_arch = "wasm32")]
fn show(text: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let el = match doc.get_element_by_id("error") {
        Some(el) => el,
        None => match (doc.create_element("p"), doc.body()) {
            (Ok(el), Some(body)) => {
                el.set_id("error");
                let _ = body.append_child(&el);
                el
            }
            _ => return,
        },
    };
    el.set_text_content(Some(text));
    if let Some(status) = doc.get_element_by_id("status") {
        status.set_text_content(Some("crashed"));
    }
}
