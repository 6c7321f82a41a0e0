"""The `web` section of scripts/bench: browser (PPAPI) pexes on their original pages in headless
chromium (Debian's, driven by selenium through crates/testutil/browser/drive.py), through
`pnacl web --serve`.

- Translation of each app's pexe: ahead of time (`pnacl wasm`, the whole command, median of 5)
  and in the browser (the polyfill's translator in a Worker, from the pexe's bytes to the
  compiled module, on the first load of `pnacl web --serve --in-browser`).
- Load time of each app's page, from the page's start to the module's `load` event and to its
  first message (where it sends one unasked), and the guest memory of each instance: first
  and second load, with the translation made by the server (`pnacl web --serve`: translated on
  the first request, then from its memory) and in the page (`--in-browser`: translated in
  the page, then from Cache Storage). Each row is the median of several sessions, each with
  a fresh browser profile.
- path_tracer's render speed: passes per second shown by the page (#iterationCount).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHROMIUM, CHROMEDRIVER, PYTHON = "/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"

# The apps whose modules load on their own pages (the others need interfaces still missing).
APPS = ["hello_tutorial", "webpenc", "astar", "path_tracer", "hello_tutorial_compress", "supernet_api", "iguana_small",
        "glbench"]

# Loads the page twice: records every module's times when all have loaded (and, for up
# to 3 s more, their first messages), reloads, records again.
TWICE = r"""
const embeds = [...document.querySelectorAll('embed')].filter((e) => e.pnaclTimes);
const key = 'pnaclBenchLoads';
const loads = JSON.parse(sessionStorage.getItem(key) ?? '[]');
if (!embeds.length) {
  if (performance.now() > 60000) return {loads, error: 'no module element after 60 s'};
  return null;
}
const failed = embeds.find((e) => e.lastError);
if (failed) return {loads, error: failed.lastError};
if (!embeds.every((e) => e.pnaclTimes.loaded)) {
  if (performance.now() > 120000) return {loads, error: 'not loaded after 120 s: ' + embeds.map((e) => e.pnaclState)};
  return null;
}
window.pnaclBenchAllLoaded ??= performance.now();
if (!embeds.every((e) => e.pnaclTimes.firstMessage) && performance.now() < window.pnaclBenchAllLoaded + 3000) return null;
if (window.pnaclBenchDone) return null;
window.pnaclBenchDone = true;
loads.push(embeds.map((e) => ({times: e.pnaclTimes, translation: e.pnaclTranslation, memory: e.pnaclMemory})));
sessionStorage.setItem(key, JSON.stringify(loads));
if (loads.length < 2) {
  location.reload();
  return null;
}
return {loads, error: ''};
"""

# path_tracer: passes per second between the first pass shown and 20 s later.
PASSES = r"""
const count = Number(document.getElementById('iterationCount')?.textContent ?? 0);
if (count >= 1 && !window.pnaclBenchFirst) window.pnaclBenchFirst = {count, at: performance.now()};
const f = window.pnaclBenchFirst;
if (f && performance.now() > f.at + 20000) return {passes: count - f.count, seconds: (performance.now() - f.at) / 1000, error: ''};
if (performance.now() > 120000) return {error: 'no pass shown after 120 s'};
return null;
"""


# Translates each pexe given with the translator module, 5 times, and prints the median
# milliseconds of each (pexe bytes to module bytes, one thread, as in a page's Worker).
NODE_TRANSLATE = r"""
import fs from 'node:fs';
const [translator, ...pexes] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(fs.readFileSync(translator), {});
const t = instance.exports;
for (const pexe of pexes) {
  const bytes = fs.readFileSync(pexe);
  const ms = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const at = t.pnacl_input(bytes.length);
    new Uint8Array(t.memory.buffer, at, bytes.length).set(bytes);
    if (t.pnacl_translate() !== 0) throw new Error(pexe + ': refused');
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(`${pexe}\t${ms[2]}`);
}
"""


def drive(pages, timeout):
    scratch = tempfile.mkdtemp(prefix="pnacl-bench-web-")
    job = {"pages": pages, "parallel": 1, "timeout": timeout, "chromium": CHROMIUM, "chromedriver": CHROMEDRIVER,
           "netlog": os.path.join(scratch, "netlog.json"), "profile": os.path.join(scratch, "profile")}
    p = subprocess.run([PYTHON, DRIVER], input=json.dumps(job), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"scripts/bench web: the browser driver failed: {p.stderr}")
    return json.loads(p.stdout)["pages"]


class Served:
    def __init__(self, pnacl, site, in_browser, checked=False):
        cmd = [pnacl, "web", site, "--serve", "--port", "0"] + (["--in-browser"] if in_browser else []) + \
            (["--checked"] if checked else [])
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.url = self.p.stdout.readline().strip()

    def stop(self):
        self.p.terminate()
        self.p.wait()


def web_rows(corpus):
    rows = {}
    with open(os.path.join(corpus, "web", "WEB.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            rows[r["app"]] = r
    return rows


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def ms(x):
    return f"{x:7.0f} ms" if x is not None else "      -   "


def bench_web(corpus, pnacl, quick):
    global DRIVER
    DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "testutil", "browser",
                          "drive.py")
    for tool, package in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")]:
        if not os.path.exists(tool):
            sys.exit(f"scripts/bench web: {tool} is missing (Debian: apt-get install {package})")
    rows = web_rows(corpus)
    sessions = 2 if quick else 3
    print("\nTranslation of each app's pexe: ahead of time (pnacl wasm command, all cores, median of 5), by the "
          "in-browser translator module under node (median of 5), and in the page (first --in-browser load: "
          "fetching the translator, pexe bytes to compiled module, in a Worker)")
    work = tempfile.mkdtemp(prefix="pnacl-bench-web-")
    ahead = {}
    for name, r in sorted(rows.items()):
        pexe = os.path.join(corpus, "web", r["dir"], r["pexe"])
        walls = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([pnacl, "wasm", pexe, "-o", os.path.join(work, name + ".wasm")], check=True)
            walls.append(time.perf_counter() - t0)
        ahead[name] = (os.path.getsize(pexe), statistics.median(walls))
    # The in-browser translator, run by node (the same V8 as chromium's) on every pexe.
    subprocess.run([pnacl, "web", "--polyfill", work], check=True)
    script = os.path.join(work, "translate.mjs")
    with open(script, "w") as f:
        f.write(NODE_TRANSLATE)
    pexes = {name: os.path.join(corpus, "web", r["dir"], r["pexe"]) for name, r in rows.items()}
    out = subprocess.run(["node", script, os.path.join(work, ".pnacl", "translator.wasm"), *pexes.values()],
                         capture_output=True, text=True, check=True).stdout
    by_path = dict(line.split("\t") for line in out.splitlines())
    in_node = {name: float(by_path[path]) for name, path in pexes.items()}
    results = {}
    for app in APPS:
        r = rows[app]
        if r["page"] == "-":
            continue
        for in_browser in (False, True):
            loads = []
            for _ in range(sessions):
                server = Served(pnacl, os.path.join(corpus, "web", r["dir"]), in_browser)
                page = drive([{"url": server.url + r["page"].replace(" ", "%20"), "until": TWICE}], 180)[0]
                server.stop()
                v = page.get("value") or {}
                if page.get("error") or v.get("error"):
                    print(f"  {app} ({'in page' if in_browser else 'server'}): {page.get('error') or v.get('error')}")
                    break
                loads.append(v["loads"])
            results[(app, in_browser)] = loads
    for name, (size, wall) in sorted(ahead.items()):
        in_page = [e["translation"]["ms"] for s in results.get((name, True), []) for e in s[0][:1]
                   if e.get("translation") and not e["translation"]["cached"]]
        tr = median(in_page)
        print(f"  {name:<26} {size / 1e6:5.2f} MB  ahead of time {wall * 1000:6.0f} ms   translator module "
              f"(node, one thread) {in_node[name]:6.0f} ms ({size / 1e3 / in_node[name]:5.1f} MB/s)"
              + (f"   in the page {tr:6.0f} ms" if tr is not None else ""))
    print(f"\nPage start to the module's load event / first message, median of {sessions} sessions; "
          "guest memory per instance")
    print(f"  {'app':<16} {'translated':<10} {'first load':>22} {'second load':>22}  memory")
    for (app, in_browser), loads in results.items():
        if not loads:
            continue
        cols = []
        for k in (0, 1):
            load = median([max(e["times"]["loaded"] for e in s[k]) for s in loads])
            msg = median([max((e["times"].get("firstMessage") or 0) for e in s[k]) or None for s in loads])
            cols.append(f"{ms(load)} / {ms(msg)}")
        mem = median([max(e["memory"] for e in s[0]) for s in loads]) / (1 << 20)
        where = "in page" if in_browser else "server"
        print(f"  {app:<16} {where:<10} {cols[0]:>22} {cols[1]:>22}  {mem:6.1f} MiB")
    print("\npath_tracer, passes per second (512x384; its renderer's source is not in the corpus, so no native "
          "build to compare with; the baseline is the same pexe translated with --checked, measured alternately)")
    rates = {False: [], True: []}
    for _ in range(1 if quick else 2):
        for checked in (False, True):
            server = Served(pnacl, os.path.join(corpus, "web", "path_tracer"), False, checked)
            page = drive([{"url": server.url + "index.html", "until": PASSES}], 180)[0]
            server.stop()
            v = page.get("value") or {}
            if v.get("error") != "":
                print(f"  path_tracer{' --checked' if checked else ''}: {page.get('error') or v.get('error')}")
                continue
            rates[checked].append(v["passes"] / v["seconds"])
    if rates[False] and rates[True]:
        plain, checked = median(rates[False]), median(rates[True])
        print(f"  pnacl web: {plain:.2f} passes/s; pnacl web --checked: {checked:.2f} passes/s "
              f"(the default at {plain / checked:.2f}x the checked one's speed)")
