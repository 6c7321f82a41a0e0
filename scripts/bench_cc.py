"""The `cc` section of scripts/bench: programs built by `pnacl cc` and run by `pnacl run`,
against the same sources built natively by gcc -O2, measured in the same run (interleaved,
median of several runs each, the translation cached by a first run). With `--old-pnacl
PATH` (a pnacl binary with the C library before newlib, built from an older commit) each
program is also built and run with that one, in its own cache, so that the two C
libraries are compared on the same machine at the same time.

Programs: the benchmark-game programs of tests/c/benchmarks with the arguments of the
RUNS.tsv bench rows, CoreMark (posix port), zlib's minigzip and bzip2 compressing a 3 MB
text, Lua running a small benchmark script, and the library kernels of tests/c/kernels
(printf, strtod, qsort, string functions, math functions, malloc), whose time is mostly
the C library's.
"""
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

LUA_BENCH = """
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local t = {}
for i = 1, 200000 do t[i] = (i * 7919) % 100003 end
table.sort(t)
local parts = {}
for i = 1, 50000 do parts[#parts + 1] = string.format("%d:%.3f", i, i / 7) end
local s = table.concat(parts, ",")
local words = 0
for w in s:gmatch("%d+:") do words = words + 1 end
print(fib(27), t[1], t[#t], #s, words)
"""


def corpus_c(corpus, *parts):
    return os.path.join(corpus, "c", *parts)


def programs(root, corpus, work, run_rows):
    """(name, sources, flags, args, stdin path or None, needs a --dir): what is measured."""
    out = []
    for r in run_rows("bench"):
        name = os.path.basename(r["file"])[: -len(".pexe")]
        src = os.path.join(root, "tests", "c", "benchmarks", name + ".c")
        if os.path.exists(src):
            out.append((f"{name} {r['args']}", [src], [], r["args"].split(), None))
    m = corpus_c(corpus, "coremark")
    out.append(("coremark 20000", [os.path.join(m, f) for f in
                                   ["core_list_join.c", "core_main.c", "core_matrix.c", "core_state.c", "core_util.c",
                                    "posix/core_portme.c"]],
                ["-I" + m, "-I" + os.path.join(m, "posix"), '-DFLAGS_STR="-O2"', "-DITERATIONS=20000"],
                ["0x0", "0x0", "0x66", "20000", "7", "1", "2000"], None))
    text = os.path.join(work, "input.txt")
    with open(text, "wb") as f:
        for path in sorted(glob.glob(corpus_c(corpus, "*", "*.c")))[:60]:
            with open(path, "rb") as g:
                f.write(g.read())
    while os.path.getsize(text) < 3_000_000:
        with open(text, "rb") as g:
            data = g.read()
        with open(text, "ab") as f:
            f.write(data)
    z = corpus_c(corpus, "zlib")
    zlib = [os.path.join(z, f + ".c") for f in
            ["adler32", "compress", "crc32", "deflate", "gzclose", "gzlib", "gzread", "gzwrite", "infback",
             "inffast", "inflate", "inftrees", "trees", "uncompr", "zutil"]]
    out.append(("zlib minigzip -9", zlib + [os.path.join(z, "test", "minigzip.c")],
                ["-I" + z, "-DZ_HAVE_UNISTD_H", "-DZ_HAVE_STDARG_H"], ["-9"], text))
    b = corpus_c(corpus, "bzip2")
    with open(os.path.join(work, "bz_version.h"), "w") as f:
        f.write('#define BZ_VERSION "1.1.0"\n')
    out.append(("bzip2 -9", [os.path.join(b, f + ".c") for f in
                             ["blocksort", "huffman", "crctable", "randtable", "compress", "decompress", "bzlib",
                              "bzip2"]],
                ["-I" + work, "-I" + b, "-D_GNU_SOURCE", "-DBZ_UNIX=1", "-DBZ_LCCWIN32=0"], ["-9"], text))
    lua = [p for p in sorted(glob.glob(corpus_c(corpus, "lua", "*.c")))
           if os.path.basename(p) not in ("onelua.c", "ltests.c")]
    script = os.path.join(work, "bench.lua")
    with open(script, "w") as f:
        f.write(LUA_BENCH)
    out.append(("lua bench.lua", lua, ["-std=c99", "-DLUA_USE_POSIX"], [script], None))
    kernels = {"printf": "3000000", "strtod": "4000000", "qsort": "3000000", "string": "1000000", "math": "4000000",
               "malloc": "5000000"}
    for k, arg in kernels.items():
        out.append((f"kernel {k} {arg}", [os.path.join(root, "tests", "c", "kernels", k + ".c")], [], [arg], None))
    return out


def build(kind, tool, name, sources, flags, exe, env):
    """Builds one variant; returns an error message or None."""
    if kind == "native":
        cmd = ["gcc", "-O2", "-w"] + flags + sources + ["-o", exe, "-lm"]
    else:
        cmd = [tool, "cc", "-O2", "-w"] + flags + sources + ["-o", exe]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return (p.stderr.strip().splitlines() or ["failed"])[-1][:120]
    return None


def command(kind, tool, exe, args):
    if kind == "native":
        return [exe] + args
    # Lua's script (and only it) is a file: the guest sees its directory at the same path.
    dirs = [a for a in args if a.startswith("/")]
    extra = [x for d in dirs for x in ["--dir", os.path.dirname(d)]]
    return [tool, "run"] + extra + [exe, "--"] + args


def bench_cc(root, corpus, pnacl, quick, old_pnacl, run_rows):
    times = 3 if quick else 5
    work = tempfile.mkdtemp(prefix="pnacl-bench-cc-")
    variants = [("native", None, dict(os.environ)),
                ("newlib", pnacl, dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache-newlib")))]
    if old_pnacl:
        variants.insert(1, ("old libc", old_pnacl, dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache-old"))))
    progs = programs(root, corpus, work, run_rows)
    print(f"\n`pnacl cc -O2` programs, with newlib{' and with the C library before it' if old_pnacl else ''}, "
          f"against gcc -O2 natively: median of {times} interleaved runs (translation cached)")
    built = {}
    for name, sources, flags, args, stdin in progs:
        for kind, tool, env in variants:
            stem = "".join(c if c.isalnum() else "_" for c in f"{name}-{kind}")
            exe = os.path.join(work, stem + ("" if kind == "native" else ".pexe"))
            t0 = time.perf_counter()
            err = build(kind if kind == "native" else "pnacl", tool, name, sources, flags, exe, env)
            built[(name, kind)] = (None, err) if err else (exe, time.perf_counter() - t0)
    walls = {key: [] for key in built}
    outputs = {}
    for i in range(times + 1):
        for name, sources, flags, args, stdin in progs:
            for kind, tool, env in variants:
                exe, _ = built[(name, kind)]
                if exe is None:
                    continue
                cmd = command("native" if kind == "native" else "pnacl", tool, exe, args)
                with open(stdin or os.devnull, "rb") as inp:
                    t0 = time.perf_counter()
                    p = subprocess.run(cmd, stdin=inp, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
                    wall = time.perf_counter() - t0
                if i > 0:
                    walls[(name, kind)].append(wall)
                outputs[(name, kind)] = (p.returncode, p.stdout)
    header = f"  {'program':<26} {'native':>8}"
    for kind, _, _ in variants[1:]:
        header += f" {kind:>9} {'ratio':>6}"
    if old_pnacl:
        header += f" {'newlib/old':>10}"
    print(header + "   output")
    ratios = {kind: [] for kind, _, _ in variants[1:]}
    for name, *_ in progs:
        native = walls[(name, "native")]
        if not native:
            print(f"  {name:<26} native build failed: {built[(name, 'native')][1]}")
            continue
        base = statistics.median(native)
        line = f"  {name:<26} {base:7.3f}s"
        medians = {}
        for kind, _, _ in variants[1:]:
            w = walls[(name, kind)]
            if w:
                medians[kind] = statistics.median(w)
                ratios[kind].append(medians[kind] / base)
                line += f" {medians[kind]:8.3f}s {medians[kind] / base:5.2f}x"
            else:
                line += f" {'-':>9} {'-':>6}"
        if old_pnacl:
            if "old libc" in medians and "newlib" in medians:
                line += f" {medians['newlib'] / medians['old libc']:9.2f}x"
            else:
                line += f" {'-':>10}"
        same = [kind for kind, _, _ in variants[1:] if outputs.get((name, kind)) == outputs.get((name, "native"))]
        differ = [kind for kind, _, _ in variants[1:] if (name, kind) in outputs and kind not in same]
        notes = [f"{k} differs" for k in differ] + [f"{k}: {built[(name, k)][1]}" for k, _, _ in variants[1:]
                                                     if built[(name, k)][0] is None]
        print(line + "   " + ("; ".join(notes) if notes else "same as native"))
    for kind, r in ratios.items():
        if r:
            geo = statistics.geometric_mean(r)
            print(f"  geometric mean ratio, {kind}: {geo:.2f}x over {len(r)} programs")
    print("  (output: stdout and exit status against the native build's; CoreMark prints its own timing, and the "
          "math kernel sums results of libraries of different last-bit accuracy)")
    sys.stdout.flush()
