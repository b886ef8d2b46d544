//! The browser's side of the game (wasm32 only): the URL's query as the command line, files
//! offered as downloads and read through a file picker, errors shown on the page, and the
//! game's state published for the browser test.
//!
//! Built on `web-sys` directly rather than a dialog crate: a download is a Blob behind an
//! `<a download>` and a picker is an `<input type=file>`, a few calls each, and both crates are
//! already in the build through Bevy. A picked file is read asynchronously; it waits in a
//! queue that a system drains ([`take_picked`]), so the game never blocks.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The largest file the picker reads, in bytes: far above any map the game can hold.
pub const MAX_PICKED_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// A file the player picked, with what it was picked for.
#[derive(Debug)]
pub struct Picked {
    /// What the picker was opened for.
    pub purpose: &'static str,
    /// The file's name, or the error reading it (naming the file).
    pub file: Result<(String, String), String>,
}

thread_local! {
    static PICKED: RefCell<Vec<Picked>> = const { RefCell::new(Vec::new()) };
}

fn window() -> Result<web_sys::Window, String> {
    web_sys::window().ok_or_else(|| "no browser window".to_string())
}

fn js_err(what: &str, e: JsValue) -> String {
    format!(
        "{what}: {}",
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    )
}

/// The page's query string as command-line arguments: `?agents=0&on-arrival=stay&timings`
/// gives `--agents 0 --on-arrival stay --timings`. Values are URL-decoded.
pub fn query_args() -> Vec<String> {
    // Through Reflect: web-sys's `Location` would be one more feature, and a rebuild of
    // every crate that uses web-sys.
    let search = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"location".into()).ok())
        .and_then(|l| js_sys::Reflect::get(&l, &"search".into()).ok())
        .and_then(|s| s.as_string())
        .unwrap_or_default();
    let decode = |s: &str| {
        js_sys::decode_uri_component(&s.replace('+', " "))
            .map(String::from)
            .unwrap_or_else(|_| s.to_string())
    };
    let mut args = Vec::new();
    for pair in search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (k, v) = pair
            .split_once('=')
            .map_or((pair, None), |(k, v)| (k, Some(v)));
        args.push(format!("--{}", decode(k)));
        if let Some(v) = v {
            args.push(decode(v));
        }
    }
    args
}

/// Shows `message` on the page in place of the game, and in the console.
pub fn show_page_error(message: &str) {
    web_sys::console::error_1(&message.into());
    if let Some(doc) = web_sys::window().and_then(|w| w.document())
        && let Some(el) = doc.get_element_by_id("gridwalk-error")
    {
        el.set_text_content(Some(message));
        let _ = el.set_attribute("style", "display:block");
    }
}

/// Offers `text` as a download named `name`.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let doc = window()?
        .document()
        .ok_or_else(|| "no document".to_string())?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|e| js_err("download", e))?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| js_err("download", e))?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|e| js_err("download", e))?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // The click has handed the Blob to the download; the URL is no longer needed.
    web_sys::Url::revoke_object_url(&url).map_err(|e| js_err("download", e))
}

/// Opens the browser's file picker for files matching `accept` (".ron,.map"). The file, once
/// read, waits for [`take_picked`] under `purpose`. Must follow a click within a few seconds
/// (browsers open pickers only after a user gesture), as a panel button's does.
pub fn pick_file(accept: &str, purpose: &'static str) -> Result<(), String> {
    let doc = window()?
        .document()
        .ok_or_else(|| "no document".to_string())?;
    let input: web_sys::HtmlInputElement = doc
        .create_element("input")
        .map_err(|e| js_err("file picker", e))?
        .unchecked_into();
    input.set_type("file");
    input.set_accept(accept);
    let picker = input.clone();
    let on_change = Closure::once_into_js(move |_: web_sys::Event| {
        if let Some(file) = picker.files().and_then(|f| f.get(0)) {
            read_picked(file, purpose);
        }
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    input.click();
    Ok(())
}

fn read_picked(file: web_sys::File, purpose: &'static str) {
    let name = file.name();
    if file.size() > MAX_PICKED_BYTES {
        let mib = file.size() / 1024.0 / 1024.0;
        push(
            purpose,
            Err(format!(
                "{name}: {mib:.0} MiB is too large (64 MiB at most)"
            )),
        );
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let read = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await;
        let text = match read {
            Ok(buf) => {
                let bytes = js_sys::Uint8Array::new(&buf).to_vec();
                String::from_utf8(bytes).map_err(|e| {
                    format!(
                        "{name}: byte {} is not UTF-8 text",
                        e.utf8_error().valid_up_to()
                    )
                })
            }
            Err(e) => Err(js_err(&name, e)),
        };
        push(purpose, text.map(|t| (name, t)));
    });
}

fn push(purpose: &'static str, file: Result<(String, String), String>) {
    PICKED.with(|p| p.borrow_mut().push(Picked { purpose, file }));
}

/// The files read since the last call, oldest first.
pub fn take_picked() -> Vec<Picked> {
    PICKED.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// Sets `window.gridwalkStatus` to `json`, for the browser test and the curious.
pub fn publish_status(json: &str) {
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"gridwalkStatus".into(), &json.into());
    }
}
