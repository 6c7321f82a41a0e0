#!/usr/bin/python3
"""Drives Debian's headless chromium through chromedriver (selenium) over pages served on
127.0.0.1, for the Rust browser tests (crates/testutil/src/browser.rs).

Reads one JSON object on standard input:
  {"pages": [{"url": ..., "until": SCRIPT, "screenshot": PATH}...], "parallel": N, "timeout": SECONDS,
   "chromium": PATH, "chromedriver": PATH, "netlog": PATH, "profile": DIR}
and writes one JSON object on standard output:
  {"pages": [{"url", "status", "stdout", "stderr" (the bytes, in hex), "shown_stdout",
   "shown_stderr" (the <pre> texts), "value", "error", "seconds"}...], "seconds",
   "console": [the browser's log messages: errors, uncaught exceptions, failed loads],
   "requests": [{"url", "initiator"}...], "connections": [{"address", "protocol",
   "bytes_sent"}...]}

A page waits for its program's end (`pnacl wasm --html`'s pages set data-exit-status) or,
with "until", for that script (a function body, run in the page again and again; it may
click and type) to return something other than null: the page's "value". With
"screenshot", the tab is saved as a PNG there when the page is done.

Every host but 127.0.0.1 resolves to nothing (--host-resolver-rules), so no request can
leave the machine; the NetLog (--log-net-log) records every request the browser made,
from pages, Workers and the browser itself, which the caller checks.
"""

import base64
import json
import sys
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import WebDriverException
except ImportError as e:
    print(f"selenium is missing for /usr/bin/python3 ({e}): apt-get install python3-selenium", file=sys.stderr)
    sys.exit(3)

# What a page exposes when its program has ended (js/page.mjs).
RESULT = """
const p = globalThis.pnaclPage;
const s = document.body && document.body.dataset.exitStatus;
if (s === undefined || !p) return null;
return {status: Number(s), stdout: p.base64(1), stderr: p.base64(2),
        shown_stdout: document.getElementById('stdout').textContent,
        shown_stderr: document.getElementById('stderr').textContent};
"""


def browser(job):
    options = webdriver.ChromeOptions()
    options.binary_location = job["chromium"]
    for flag in [
        "--headless=new",
        "--no-sandbox",  # the tests may run as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
        "--disable-extensions",
        "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider",
        "--metrics-recording-only",
        # Nothing but 127.0.0.1 resolves (localhost is 127.0.0.1, as apps that talk to a
        # local server expect): no request leaves the machine.
        "--host-resolver-rules=MAP localhost 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--proxy-server=direct://",
        f"--log-net-log={job['netlog']}",
        "--net-log-capture-mode=Default",
        f"--user-data-dir={job['profile']}",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=job["chromedriver"]), options=options)


def run_pages(driver, job, console):
    pages = job["pages"]
    results = [None] * len(pages)
    pending = list(range(len(pages)))
    open_tabs = {}  # window handle -> (index, started)
    first = driver.current_window_handle
    spare = [first]
    deadline_of = lambda started: started + job["timeout"]
    while pending or open_tabs:
        while pending and len(open_tabs) < job["parallel"]:
            k = pending.pop(0)
            if spare:
                handle = spare.pop()
                driver.switch_to.window(handle)
            else:
                driver.switch_to.new_window("tab")
                handle = driver.current_window_handle
            driver.get(pages[k]["url"])
            open_tabs[handle] = (k, time.monotonic())
        for handle, (k, started) in list(open_tabs.items()):
            driver.switch_to.window(handle)
            until = pages[k].get("until")
            if until is not None:
                try:
                    value = driver.execute_script(until)
                except WebDriverException as e:
                    # A page that reloads itself (pnacl-sw.js's isolation) may be between
                    # two documents: asked again next time round.
                    if not any(s in str(e) for s in ("navigat", "context was destroyed", "unloaded")):
                        raise
                    value = None
                r = None if value is None else {"value": value}
            else:
                r = driver.execute_script(RESULT)
            timed_out = time.monotonic() > deadline_of(started)
            if r is None and not timed_out:
                continue
            if r is None and until is not None:
                r = {"error": f"the page's script returned null for {job['timeout']} s",
                     "value": driver.execute_script("return document.body ? document.body.innerText : null")}
            elif r is None:
                r = {"error": f"no data-exit-status after {job['timeout']} s",
                     "shown_stdout": driver.execute_script(
                         "const e = document.getElementById('stdout'); return e ? e.textContent : null"),
                     "shown_stderr": driver.execute_script(
                         "const e = document.getElementById('stderr'); return e ? e.textContent : null")}
            r["url"] = pages[k]["url"]
            for stream in ("stdout", "stderr"):
                if stream in r:
                    r[stream] = base64.b64decode(r[stream]).hex()
            r["seconds"] = round(time.monotonic() - started, 3)
            if pages[k].get("screenshot"):
                driver.save_screenshot(pages[k]["screenshot"])
            results[k] = r
            del open_tabs[handle]
            # about:blank ends the page's Workers; the tab is used again.
            driver.get("about:blank")
            spare.append(handle)
        # The browser's log is the session's (not a tab's): gathered as it comes.
        console.extend(e["message"] for e in driver.get_log("browser"))
        time.sleep(0.02)
    return results


def net_log(path):
    """What the NetLog says the browser did on the network: every URL requested (with the
    origin that asked for it, if a page did) and every socket connected (with its remote
    address and the bytes sent)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return {"netlog_error": f"no NetLog: {e}"}
    # A NetLog cut short (the browser killed) lacks its closing brackets.
    log = None
    for ending in ["", "]}", "\n]}"]:
        try:
            log = json.loads(text.rstrip().rstrip(",") + ending)
            break
        except ValueError:
            continue
    if log is None:
        return {"netlog_error": "the NetLog does not parse"}
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    requests, sockets = [], {}
    for event in log.get("events", []):
        name = names.get(event.get("type"), "")
        params = event.get("params") or {}
        source = event.get("source", {}).get("id")
        if name == "URL_REQUEST_START_JOB" and isinstance(params.get("url"), str):
            requests.append({"url": params["url"], "initiator": params.get("initiator", "")})
        elif name in ("TCP_CONNECT_ATTEMPT", "UDP_CONNECT", "SOCKET_CONNECT") and params.get("address"):
            sockets.setdefault(source, {"address": params["address"], "protocol": name.split("_")[0],
                                        "bytes_sent": 0})
        elif name == "TCP_CONNECT" and params.get("remote_address"):
            sockets.setdefault(source, {"address": params["remote_address"], "protocol": "TCP", "bytes_sent": 0})
        elif name in ("SOCKET_BYTES_SENT", "UDP_BYTES_SENT") and source in sockets:
            sockets[source]["bytes_sent"] += params.get("byte_count", 0)
    return {"requests": requests, "connections": list(sockets.values())}


def main():
    job = json.load(sys.stdin)
    started = time.monotonic()
    driver = browser(job)
    console = []
    try:
        results = run_pages(driver, job, console)
    finally:
        driver.quit()
    out = {"pages": results, "console": console, "seconds": round(time.monotonic() - started, 3)}
    out.update(net_log(job["netlog"]))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
