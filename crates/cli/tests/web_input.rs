//! Input events end to end, in a real browser (Debian's headless chromium, driven by
//! selenium) through `pnacl web --serve`: a small PPAPI module (`data/web/input_events.c`,
//! built here with `pnacl cc`) asks for mouse and touch events, and for wheel events with
//! filtering; the page dispatches DOM events on its `<embed>` and the module posts back a
//! line for each event it gets (PPB_InputEvent, Mouse 1.1, Wheel 1.0, Keyboard 1.2 with
//! character events, Touch 1.0, PPP_InputEvent 0.1). Checked: positions are relative to
//! the element, buttons, click counts, modifiers, key codes, character text and DOM codes,
//! wheel deltas and ticks, touch points; a key pressed before the module asks for keyboard
//! events and a click after it clears its mouse request reach it not; events of a class
//! asked for without filtering are taken from the page (`preventDefault`), filtered ones
//! are not. No page throws, nothing leaves 127.0.0.1.

use pnacl_testutil::browser::{Scripted, Served, build_module, run_scripted};
use std::path::Path;
use std::time::Duration;

const PAGE: &str = r#"<!DOCTYPE html>
<html><body style="margin:0">
<embed id="m" type="application/x-pnacl" src="input.nmf" width="200" height="100"
  style="position:absolute; left:30px; top:40px">
<script>
window.lines = [];
document.getElementById('m').addEventListener('message', (e) => window.lines.push(String(e.data)));
</script>
</body></html>
"#;

/// Drives the page one step a call: each step dispatches events, then waits for the
/// module's acknowledgement of a message, so that the events before it have arrived.
const DRIVE: &str = r"
const el = document.getElementById('m');
if (el.lastError) return {error: el.lastError, lines: window.lines};
const has = (s) => window.lines.includes(s);
const step = window.step ?? 0;
const r = el.getBoundingClientRect();
const at = {clientX: r.left + 12, clientY: r.top + 7, bubbles: true, cancelable: true};
const fire = (e) => el.dispatchEvent(e);
window.kept = window.kept ?? {};
if (step === 0 && window.lines.some((l) => l.startsWith('ready'))) {
  window.kept.down = fire(new MouseEvent('mousedown', {...at, button: 0, buttons: 1, detail: 1, shiftKey: true}));
  fire(new MouseEvent('mouseup', {...at, clientX: r.left + 20, button: 2, detail: 1, ctrlKey: true}));
  window.kept.wheel = fire(new WheelEvent('wheel', {...at, deltaX: 0, deltaY: 120, deltaMode: 0}));
  fire(new KeyboardEvent('keydown', {key: 'q', code: 'KeyQ', keyCode: 81, bubbles: true, cancelable: true}));
  const t = new Touch({identifier: 7, target: el, clientX: r.left + 50.5, clientY: r.top + 60.25, radiusX: 3,
    radiusY: 4, rotationAngle: 0, force: 0.5});
  window.kept.touch = fire(new TouchEvent('touchstart', {touches: [t], changedTouches: [t], targetTouches: [t],
    bubbles: true, cancelable: true}));
  el.postMessage('keys');
  window.step = 1;
} else if (step === 1 && has('ack:keys')) {
  window.kept.key = fire(new KeyboardEvent('keydown', {key: 'a', code: 'KeyA', keyCode: 65, altKey: true,
    bubbles: true, cancelable: true}));
  fire(new KeyboardEvent('keyup', {key: 'a', code: 'KeyA', keyCode: 65, bubbles: true, cancelable: true}));
  el.postMessage('nomouse');
  window.step = 2;
} else if (step === 2 && has('ack:nomouse')) {
  window.kept.late = fire(new MouseEvent('mousedown', {...at, button: 1, buttons: 4, detail: 1}));
  el.postMessage('end');
  window.step = 3;
} else if (step === 3 && has('ack:end')) {
  return {error: '', lines: window.lines, kept: window.kept};
}
if (performance.now() > 60000) return {error: `no result after 60 s at step ${step}`, lines: window.lines};
return null;
";

/// The module built with `pnacl cc`, with its manifest and page, in a temporary site.
fn site(dir: &Path) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web");
    build_module(&data.join("input_events.c"), dir, "input");
    std::fs::write(dir.join("index.html"), PAGE).expect("write the page");
}

#[test]
fn input_events_reach_the_module() {
    pnacl_testutil::browser::require();
    let dir = tempfile::tempdir().expect("temporary directory");
    site(dir.path());
    let server = Served::web(dir.path());
    let pages = [Scripted { url: format!("{}index.html", server.url), until: DRIVE.into(), screenshot: None }];
    let session = run_scripted(&pages, 1, Duration::from_secs(90));
    session.print(&["input"]);
    let v = session.result(0, "input");
    let lines: Vec<&str> = v["lines"].as_array().expect("lines").iter().filter_map(|l| l.as_str()).collect();
    // PP_ERROR codes: both requests succeed.
    let expected = [
        "ready 0 0",
        // Left button down with shift (1) and the left button held (64); then the right
        // button up with control (2), 8 pixels further right.
        "mouse type=0 button=0 x=12 y=7 clicks=1 mods=65 time=1",
        "mouse type=1 button=2 x=20 y=7 clicks=1 mods=2 time=1",
        // 120 pixels down: PPAPI's delta is positive up, a tick is 100 pixels.
        "wheel dx=-0 dy=-120 tx=-0 ty=-1.2 page=0 mods=0",
        // The key 'q' came before the module asked for the keyboard: not delivered.
        "touch type=15 touches=1 changed=1 id=7 x=50.5 y=60.25 rx=3 pressure=0.5 same=1",
        "ack:keys",
        // Key down with alt (4), its character, key up.
        "key type=7 code=65 text= dom=KeyA mods=4 mouse=0",
        "key type=9 code=65 text=a dom=KeyA mods=4 mouse=0",
        "key type=8 code=65 text= dom=KeyA mods=0 mouse=0",
        "ack:nomouse",
        // The middle click after ClearInputEventRequest(MOUSE): not delivered.
        "ack:end",
    ];
    assert_eq!(lines, expected, "the module's lines");
    // Unfiltered classes are taken from the page; the filtered wheel goes on to it.
    let kept = &v["kept"];
    assert_eq!(kept["down"], false, "mousedown (unfiltered) was not taken from the page: {v}");
    assert_eq!(kept["touch"], false, "touchstart (unfiltered) was not taken from the page: {v}");
    assert_eq!(kept["wheel"], true, "wheel (filtered) did not go on to the page: {v}");
    assert_eq!(kept["late"], true, "a mousedown after the request was cleared was taken from the page: {v}");

    session.assert_no_exceptions_or_ends();
    assert!(session.offsite().is_empty(), "the browser went beyond 127.0.0.1: {:#?}", session.offsite());
    server.stop();
}
