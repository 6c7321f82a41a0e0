"""The `wasm` section of scripts/bench: pexes as WebAssembly under Node, against the same C
programs compiled by clang-19 for wasm32-wasi (Debian's wasi-libc, lld-19) and run by the same
node, measured in the same run (interleaved, medians).

- Run time of the `bench` rows of RUNS.tsv: gcc -O2 natively, `pnacl run` of Google's pexe
  (translation cached), node on `pnacl wasm` of Google's pexe, node on `pnacl wasm` of the
  pexe `pnacl cc -O2` builds from the same source (tests/c/benchmarks), node on clang-19's
  wasm32-wasi module. Ratios are against clang's module; its own ratio to native is printed
  too. Each output is checked against RUNS.tsv's expected output.
- Translation: criterion, `pnacl_wasm::translate` of the largest pexe on one thread, against
  reading it (crates/wasm/benches/translate.rs), and the module's size against the pexe's,
  raw and after gzip -9 of both.
- Start-up: node running hello_world (pnacl wasm of Google's pexe) against node running a wasi
  hello world built by clang-19: median wall time of the whole process (start, load, print,
  exit), which bounds the time to `_start`.
"""
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time

WASI_RUNNER = """import { WASI } from 'node:wasi';
import { readFileSync } from 'node:fs';
const [file, ...args] = process.argv.slice(2);
const wasi = new WASI({ version: 'preview1', args: [file, ...args], env: {}, returnOnExit: true });
const module = await WebAssembly.compile(readFileSync(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
"""

HELLO = '#include <stdio.h>\nint main(void) { puts("Hello, world!"); return 0; }\n'


def need(tool, package):
    from shutil import which
    if which(tool) is None:
        sys.exit(f"scripts/bench wasm: {tool} is missing (Debian: apt-get install {package})")


def check(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if p.returncode != 0:
        sys.exit(f"scripts/bench wasm: {' '.join(cmd)} failed:\n{p.stderr.decode(errors='replace')}")
    return p


def wasi_build(source, out, flags=()):
    check(["clang-19", "--target=wasm32-wasi", "--sysroot=/usr", "-O2", "-w", *flags, source, "-o", out, "-lm"])


def pnacl_wasm(pnacl, pexe, out, env):
    check([pnacl, "wasm", pexe, "-o", out], env=env)
    return out[: -len(".wasm")] + ".mjs"


def timed(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t0, p.returncode, p.stdout


def bench_runs(root, corpus, pnacl, quick, run_rows, output_ok, work, env):
    times = 3 if quick else 5
    node = ["node", "--no-warnings"]
    runner = os.path.join(work, "wasi-run.mjs")
    rows, seen = [], set()
    for r in run_rows("bench"):
        if (r["file"], r["args"]) in seen:
            continue
        seen.add((r["file"], r["args"]))
        rows.append(r)
    programs = []
    for r in rows:
        name = os.path.basename(r["file"])[: -len(".pexe")]
        src = os.path.join(root, "tests", "c", "benchmarks", name + ".c")
        pexe = os.path.join(corpus, r["file"])
        args = r["args"].split()
        variants = {}
        exe = os.path.join(work, name)
        check(["gcc", "-O2", "-w", src, "-o", exe, "-lm"])
        variants["native"] = [exe] + args
        variants["pnacl run"] = [pnacl, "run", pexe, "--"] + args
        variants["node, Google's pexe"] = node + [pnacl_wasm(pnacl, pexe, os.path.join(work, name + "-g.wasm"), env)] + args
        cc_pexe = os.path.join(work, name + "-cc.pexe")
        check([pnacl, "cc", "-O2", "-w", src, "-o", cc_pexe], env=env)
        variants["node, pnacl cc -O2"] = node + [pnacl_wasm(pnacl, cc_pexe, os.path.join(work, name + "-cc.wasm"), env)] + args
        wasi = os.path.join(work, name + "-wasi.wasm")
        wasi_build(src, wasi)
        variants["node, clang-19 wasi"] = node + [runner, wasi] + args
        programs.append((f"{name} {r['args']}", r, variants))
    kinds = list(programs[0][2])
    walls = {(p[0], k): [] for p in programs for k in kinds}
    ok = {}
    for i in range(times + 1):
        for label, row, variants in programs:
            for kind in kinds:
                wall, status, out = timed(variants[kind], env)
                if i == 0:
                    # The first round fills the translation cache and checks every output.
                    path = os.path.join(work, "out")
                    with open(path, "wb") as f:
                        f.write(out)
                    ok[(label, kind)] = status == int(row["expected_exit"]) and output_ok(row["expected_stdout"], path)
                else:
                    walls[(label, kind)].append(wall)
    print(f"\nThe bench rows of RUNS.tsv as WebAssembly under node {node_version()}: median of {times} interleaved "
          "runs; ratios against clang-19's wasm32-wasi module of the same source under the same node")
    print(f"  {'program':<22}" + "".join(f" {k:>21}" for k in kinds))
    ratios = {k: [] for k in kinds}
    for label, _, _ in programs:
        base = statistics.median(walls[(label, "node, clang-19 wasi")])
        line = f"  {label:<22}"
        for kind in kinds:
            m = statistics.median(walls[(label, kind)])
            ratios[kind].append(m / base)
            flag = "" if ok[(label, kind)] else " WRONG"
            line += f" {m:7.3f}s ({m / base:4.2f}x){flag:>6}"
        print(line)
    print("  geometric mean against clang-19 wasi under node: " + ", ".join(
        f"{k} {statistics.geometric_mean(r):.2f}x" for k, r in ratios.items()))
    native = ratios["native"]
    print(f"  clang-19 wasi under node against gcc -O2 native: {1 / statistics.geometric_mean(native):.2f}x")
    bad = [f"{label} ({kind})" for (label, kind), good in ok.items() if not good]
    if bad:
        print("  WRONG OUTPUT: " + ", ".join(bad))


def node_version():
    return subprocess.run(["node", "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()


def bench_size(corpus, pnacl, work, env):
    pexe = os.path.join(corpus, "ppapi", "supernet_api.pexe")
    out = os.path.join(work, "supernet_api.wasm")
    t0 = time.perf_counter()
    check([pnacl, "wasm", pexe, "-o", out], env=env)
    wall = time.perf_counter() - t0
    p, w = open(pexe, "rb").read(), open(out, "rb").read()
    gp, gw = len(gzip.compress(p, 9)), len(gzip.compress(w, 9))
    print(f"\nsupernet_api.pexe {len(p):,} B -> module {len(w):,} B ({len(w) / len(p):.2f}x); after gzip -9 "
          f"{gp:,} B -> {gw:,} B ({gw / gp:.2f}x); `pnacl wasm` command (all cores, host written too) {wall:.2f} s")


def bench_startup(corpus, pnacl, quick, work, env):
    times = 10 if quick else 25
    hello_c = os.path.join(work, "hello.c")
    with open(hello_c, "w") as f:
        f.write(HELLO)
    wasi = os.path.join(work, "hello-wasi.wasm")
    wasi_build(hello_c, wasi)
    runner = os.path.join(work, "wasi-run.mjs")
    mjs = pnacl_wasm(pnacl, os.path.join(corpus, "cli", "hello_world.pexe"), os.path.join(work, "hello.wasm"), env)
    cmds = {"pnacl wasm hello_world": ["node", "--no-warnings", mjs],
            "clang-19 wasi hello": ["node", "--no-warnings", runner, wasi],
            "node -e 0 (node alone)": ["node", "-e", "0"]}
    walls = {k: [] for k in cmds}
    for i in range(times + 1):
        for k, c in cmds.items():
            wall, status, _ = timed(c, env)
            if status != 0:
                sys.exit(f"scripts/bench wasm: {' '.join(c)} exited {status}")
            if i:
                walls[k].append(wall)
    base = statistics.median(walls["clang-19 wasi hello"])
    print(f"\nStart-up (whole process, median of {times}):")
    for k, w in walls.items():
        print(f"  {k:<24} {statistics.median(w) * 1000:7.1f} ms ({statistics.median(w) / base:.2f}x)")


def bench_wasm(root, corpus, pnacl, quick, run_rows, output_ok, run, mbps):
    need("node", "nodejs")
    need("clang-19", "clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32")
    work = tempfile.mkdtemp(prefix="pnacl-bench-wasm-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    with open(os.path.join(work, "wasi-run.mjs"), "w") as f:
        f.write(WASI_RUNNER)
    run(["cargo", "bench", "--profile", "dist", "-p", "pnacl-wasm", "--bench", "translate", "--",
         "--noplot"] + (["--quick"] if quick else []))
    base = mbps("wasm", "supernet_api/read-validate (baseline)")
    tr = mbps("wasm", "supernet_api/translate")
    full = mbps("wasm", "supernet_api/read-translate-validate")
    print(f"\nTranslation of supernet_api.pexe on one thread (criterion): translate {tr:.1f} MB/s of bitcode; "
          f"read + translate + validate {full:.1f} MB/s; read + validate alone (baseline) {base:.1f} MB/s "
          f"(translate costs {base / tr:.2f}x reading)")
    bench_size(corpus, pnacl, work, env)
    bench_startup(corpus, pnacl, quick, work, env)
    bench_runs(root, corpus, pnacl, quick, run_rows, output_ok, work, env)
    sys.stdout.flush()
