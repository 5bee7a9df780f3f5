//! The Web Worker around the [`Engine`] (wasm only; the logic is tested natively). Commands
//! arrive through gloo-worker's bridge; between slices the worker yields to its message
//! queue through a `MessageChannel` (a zero-delay turn: nested `setTimeout(0)` is clamped
//! to 4 ms), so a command waits at most one slice.
//!
//! A panic is reported to the page as [`FromEngine::Crashed`] from the panic hook, before
//! the wasm instance traps, so the page shows it with a repro link instead of waiting
//! forever; so is a trap without a panic (out of memory), from the worker's error event.

use std::cell::{Cell, RefCell};

use gloo::worker::{HandlerId, Registrable, Worker, WorkerScope};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::MessageChannel;

use super::{Engine, FromEngine, ToEngine};
use crate::dom::now_ms;

/// The file trunk writes for the worker binary (`data-type="worker"` keeps the bin name).
pub const SCRIPT: &str = "./faultline-worker.js";

thread_local! {
    /// Where a panic report goes.
    static REPORT: RefCell<Option<(WorkerScope<SimWorker>, HandlerId)>> = const { RefCell::new(None) };
    /// The cursor after the last slice (µs), for the crash report.
    static LAST_NOW: Cell<u64> = const { Cell::new(0) };
    /// A panic was reported. The trap leaves gloo's state borrowed, so later messages panic
    /// again ("already borrowed"); only the first panic says what went wrong.
    static REPORTED: Cell<bool> = const { Cell::new(false) };
}

/// Internal messages.
pub enum Msg {
    /// Run a turn of the loop.
    Pump,
}

/// The worker.
pub struct SimWorker {
    engine: Engine,
    page: Option<HandlerId>,
    channel: MessageChannel,
    _on_turn: Closure<dyn FnMut()>,
    scheduled: bool,
}

impl Worker for SimWorker {
    type Message = Msg;
    type Input = ToEngine;
    type Output = FromEngine;

    fn create(scope: &WorkerScope<Self>) -> Self {
        install_panic_report();
        report_traps();
        let channel = MessageChannel::new().expect("MessageChannel");
        let s = scope.clone();
        let on_turn = Closure::<dyn FnMut()>::new(move || s.send_message(Msg::Pump));
        channel
            .port1()
            .set_onmessage(Some(on_turn.as_ref().unchecked_ref()));
        SimWorker {
            engine: Engine::new(),
            page: None,
            channel,
            _on_turn: on_turn,
            scheduled: false,
        }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, msg: Msg) {
        match msg {
            Msg::Pump => {
                self.scheduled = false;
                if let Some(f) = self.engine.pump(&now_ms) {
                    self.post(scope, FromEngine::Frame(Box::new(f)));
                }
                LAST_NOW.with(|n| n.set(self.engine.now().as_micros()));
                if self.engine.pending() {
                    self.schedule();
                }
            }
        }
    }

    /// The page's bridge is connected: say so at once, so the page knows the worker loaded
    /// even while the first command (a large build) keeps it busy.
    fn connected(&mut self, scope: &WorkerScope<Self>, id: HandlerId) {
        self.page = Some(id);
        REPORT.with(|r| *r.borrow_mut() = Some((scope.clone(), id)));
        self.post(scope, FromEngine::Ready);
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: ToEngine, id: HandlerId) {
        self.page = Some(id);
        REPORT.with(|r| *r.borrow_mut() = Some((scope.clone(), id)));
        if let Some(out) = self.engine.receive(msg) {
            self.post(scope, out);
        }
        self.schedule();
    }
}

impl SimWorker {
    fn post(&self, scope: &WorkerScope<Self>, out: FromEngine) {
        if let Some(id) = self.page {
            scope.respond(id, out);
        }
    }

    /// Asks for a turn of the loop after the messages already queued.
    fn schedule(&mut self) {
        if !self.scheduled {
            self.scheduled = true;
            let _ = self.channel.port2().post_message(&JsValue::NULL);
        }
    }
}

/// Reports a panic to the page (and the console) before the instance traps.
fn install_panic_report() {
    std::panic::set_hook(Box::new(|info| report_crash(info.to_string())));
}

/// Reports a trap that was no panic: running out of memory aborts without one (wasm32 has
/// 4 GiB at most), and the page would wait for the worker for ever. The trap reaches the
/// worker's global scope as an uncaught error; the instance can still be called after it.
fn report_traps() {
    let scope: web_sys::EventTarget = js_sys::global().unchecked_into();
    let listener = gloo::events::EventListener::new(&scope, "error", |event| {
        let what = js_sys::Reflect::get(event, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        report_crash(format!(
            "the simulation worker stopped ({what}): most likely it ran out of memory, which a \
             browser tab's WebAssembly has at most 4 GiB of"
        ));
    });
    listener.forget();
}

/// Sends the page a crash report, the first time only.
fn report_crash(message: String) {
    gloo::console::error!(format!("faultline worker: {message}"));
    if REPORTED.with(|r| r.replace(true)) {
        return;
    }
    let at_us = LAST_NOW.with(|n| n.get());
    REPORT.with(|r| {
        if let Ok(r) = r.try_borrow() {
            if let Some((scope, id)) = r.as_ref() {
                scope.respond(*id, FromEngine::Crashed { message, at_us });
            }
        }
    });
}

/// Registers the worker. Call once, from the worker binary's `main`.
pub fn register() {
    SimWorker::registrar().register();
}
