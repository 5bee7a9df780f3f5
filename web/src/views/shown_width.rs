//! How wide an element is shown, kept as state and updated when it changes: a canvas drawn
//! at the width it is shown at keeps its text at the size it was drawn in, where one drawn at
//! a fixed width and scaled by CSS shrinks it (to about half on a phone).
//!
//! A `ResizeObserver` reports the width once when it starts watching and again only when the
//! layout changes it (a window resize, a scrollbar appearing, the page's phone layout), so a
//! chart redrawn every frame while the run plays reads no layout at all.

use yew::prelude::*;

/// What is known of an element's shown width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Watched, not reported yet: it is reported after layout, before the next paint, so
    /// drawing at a guessed width now would only be redone at once. Also what server-side
    /// rendering sees, where effects do not run.
    Waiting,
    /// Laid out this many CSS pixels wide. Only the browser's observer reports one.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Width(u32),
    /// It cannot be watched (no `ResizeObserver`): draw at the width given.
    Unknown,
}

impl Shown {
    /// The width, once reported.
    pub fn width(self) -> Option<u32> {
        match self {
            Shown::Width(w) => Some(w),
            Shown::Waiting | Shown::Unknown => None,
        }
    }
}

/// The content-box width of the element behind `node`, in whole CSS pixels, as it is known.
#[hook]
pub fn use_shown_width(node: &NodeRef) -> Shown {
    let shown = use_state_eq(|| Shown::Waiting);
    {
        let (node, shown) = (node.clone(), shown.clone());
        use_effect_with((), move |_| {
            let watch = watch(&node, shown.clone());
            if watch.is_none() {
                shown.set(Shown::Unknown);
            }
            // Unmounting drops the watch, which stops the observer.
            move || {
                let _stopped = watch;
            }
        });
    }
    *shown
}

/// Watches the element's width until dropped.
#[cfg(target_arch = "wasm32")]
struct Watch {
    observer: web_sys::ResizeObserver,
    _on_resize: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

#[cfg(target_arch = "wasm32")]
impl Drop for Watch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Starts watching the element behind `node`, writing each width it reports to `shown`; None
/// if it is not on the page or the browser has no `ResizeObserver` (the chart then keeps the
/// width it was given).
#[cfg(target_arch = "wasm32")]
fn watch(node: &NodeRef, shown: UseStateHandle<Shown>) -> Option<Watch> {
    use wasm_bindgen::{closure::Closure, JsCast};
    let element = node.cast::<web_sys::Element>()?;
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        // use_state_eq: an unchanged width does not re-render.
        if let Some(width) = last_width(&entries) {
            shown.set(Shown::Width(width));
        }
    });
    let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
    observer.observe(&element);
    Some(Watch {
        observer,
        _on_resize: on_resize,
    })
}

/// The width the newest of a `ResizeObserver`'s entries reports, if it is laid out.
#[cfg(target_arch = "wasm32")]
fn last_width(entries: &js_sys::Array) -> Option<u32> {
    use wasm_bindgen::JsCast;
    let last = entries.get(entries.length().checked_sub(1)?);
    let entry = last.dyn_into::<web_sys::ResizeObserverEntry>().ok()?;
    let shown = entry.content_rect().width().round();
    (shown >= 1.0).then_some(shown as u32)
}

/// Natively nothing is laid out, so nothing is watched.
#[cfg(not(target_arch = "wasm32"))]
struct Watch;

/// Natively nothing is laid out, so nothing is watched.
#[cfg(not(target_arch = "wasm32"))]
fn watch(_: &NodeRef, _: UseStateHandle<Shown>) -> Option<Watch> {
    None
}
