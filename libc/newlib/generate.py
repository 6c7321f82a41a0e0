#!/usr/bin/env python3
"""Generates libc/newlib/sources.txt and the two headers newlib's configure writes
(include/newlib.h, include/_newlib_version.h) from Debian's newlib-source tarball.

pnacl builds newlib without autotools (crates/cli/src/libc.rs): it compiles the files
sources.txt lists with the flags it gives. This script is how that list was made, once,
by newlib's own build system, so that the list is exactly what `configure && make` would
compile for le32 (and can be made again for another newlib release):

 1. The tarball is unpacked into a scratch directory.
 2. newlib 3.3.0 does not know the le32 CPU (the PNaCl SDK used a fork that did), so
    the scratch copy of newlib/configure.host gets three entries, which is all a port
    of newlib to a new target is (see PATCHES below):
    - CPU `le32`: no machine directory (no assembly: everything is portable C);
    - host `le32-*-nacl*` in the system table: libc/posix (opendir, glob, regex,
      fnmatch, sleep/usleep over nanosleep) like other POSIX-like targets;
    - host `le32-*-nacl*` in the flags table: libc/syscalls (the POSIX names `read`,
      `write`, ... over the reentrant `_read_r`, which call the platform's `_read`),
      and the flags described in PATCHES.
 3. newlib is configured with the options in CONFIGURE_OPTIONS (reasons beside them),
    with clang-14 for le32-unknown-nacl as the compiler, wrapped by a script that
    records every compile command, and built with make.
 4. Every compile of a newlib source is turned into one line of sources.txt: the
    archive member, the source (relative to the tarball's newlib/ directory) and the
    flags newlib's Makefiles gave it. Flags shared by every line are written once, on
    the `flags:` line. Paths become `$NEWLIB/...` (the tarball's newlib directory) and
    `$PNACL/...` (this directory's include/, pnacl's headers, which also hold the two
    generated headers); autoconf's PACKAGE_* macros, dependency-file and optimisation
    flags are dropped (pnacl gives its own: libc/clang-flags.txt).

Usage: python3 libc/newlib/generate.py [TARBALL]   (default /usr/src/newlib/newlib-3.3.0.tar.xz)
Needs clang-14, llvm-ar-14, make and a shell. Takes a few minutes on two cores.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.path.join(HERE, "include")
TARBALL = "/usr/src/newlib/newlib-3.3.0.tar.xz"

# What configure.host gets. Flags, with why:
#  -D_COMPILING_NEWLIB     newlib's headers then declare the `_read`, `_lseek`... the
#                          reentrant layer calls (else implicit `int` declarations: a
#                          64-bit `_lseek` result would be cut to 32 bits);
#  -DHAVE_RENAME           `rename` is the IRT's (atomic, replaces the target), not
#                          link + unlink;
#  -DHAVE_NANOSLEEP        sleep/usleep (libc/posix) over `nanosleep`, which the IRT has;
#  -DHAVE_BLKSIZE          stdio sizes its buffers from st_blksize (4096 and more)
#                          rather than BUFSIZ (1024);
#  -DGETREENT_PROVIDED     pnacl's `__getreent` gives each thread its own reent
#                          (errno), with __DYNAMIC_REENT__ (include/sys/config.h);
#  -D_NO_POPEN -D_NO_WORDEXP -D_NO_POSIX_SPAWN
#                          no processes under NaCl: popen, wordexp and posix_spawn
#                          would only fail.
PATCHES = [
    (
        "  *)\n\techo '***' \"Newlib does not support CPU ${host_cpu}\"",
        "  le32)\n\t;;\n  *)\n\techo '***' \"Newlib does not support CPU ${host_cpu}\"",
    ),
    (
        "  mmix-knuth-mmixware)\n\tsys_dir=mmixware\n\t;;",
        "  le32-*-nacl*)\n\tposix_dir=posix\n\t;;\n  mmix-knuth-mmixware)\n\tsys_dir=mmixware\n\t;;",
    ),
    (
        "  moxie-*-elf* | moxie-*-rtems*)",
        "  le32-*-nacl*)\n\tsyscall_dir=syscalls\n"
        "\tnewlib_cflags=\"${newlib_cflags} -D_COMPILING_NEWLIB -DHAVE_RENAME -DHAVE_NANOSLEEP"
        " -DHAVE_BLKSIZE -DGETREENT_PROVIDED -D_NO_POPEN -D_NO_WORDEXP -D_NO_POSIX_SPAWN\"\n\t;;\n"
        "  moxie-*-elf* | moxie-*-rtems*)",
    ),
]

# Members left out because pnacl's platform layer (libc/platform) replaces them, or
# because another member defines the same symbols:
REPLACED = {
    # the lock functions, no-ops there: pnacl's lock.c implements them over pthread
    "libc-misc-lock.o": "libc/platform/lock.c",
    # _isatty through fstat: pnacl's asks the IRT (dev-fdio-0.3's isatty)
    "libc-posix-_isatty.o": "libc/platform/fdio.c",
    # isatty and execve, which libc/syscalls defines too (over _isatty_r, _execve_r)
    "libc-posix-isatty.o": "libc-syscalls-sysisatty.o",
    "libc-posix-execve.o": "libc-syscalls-sysexecve.o",
    # the allocator: pnacl's size classes (binarytrees 16 ran 2.9 times as long with
    # newlib's dlmalloc 2.6.4, which merges free chunks on every free)
    "libc-stdlib-mallocr.o": "libc/platform/malloc.c",
    "libc-stdlib-callocr.o": "libc/platform/malloc.c",
    "libc-stdlib-cfreer.o": "libc/platform/malloc.c",
    "libc-stdlib-freer.o": "libc/platform/malloc.c",
    "libc-stdlib-malignr.o": "libc/platform/malloc.c",
    "libc-stdlib-mallinfor.o": "libc/platform/malloc.c",
    "libc-stdlib-malloptr.o": "libc/platform/malloc.c",
    "libc-stdlib-mallstatsr.o": "libc/platform/malloc.c",
    "libc-stdlib-msizer.o": "libc/platform/malloc.c",
    "libc-stdlib-pvallocr.o": "libc/platform/malloc.c",
    "libc-stdlib-reallocr.o": "libc/platform/malloc.c",
    "libc-stdlib-vallocr.o": "libc/platform/malloc.c",
    "libc-stdlib-malloc.o": "libc/platform/malloc.c",
    "libc-stdlib-calloc.o": "libc/platform/malloc.c",
    "libc-stdlib-realloc.o": "libc/platform/malloc.c",
    "libc-stdlib-malign.o": "libc/platform/malloc.c",
    "libc-stdlib-msize.o": "libc/platform/malloc.c",
    "libc-stdlib-mstats.o": "libc/platform/malloc.c",
    "libc-stdlib-valloc.o": "libc/platform/malloc.c",
    # signal and raise: pnacl's keep a handler installed when it runs, as glibc's and
    # sigaction's do (newlib's reset it to SIG_DFL), and add sigaction
    "libc-signal-signal.o": "libc/platform/signal.c",
    # square roots: newlib has a hardware one for some machines only, else fdlibm's
    # bit-by-bit loop (nbody: 10.3 s instead of 0.4 s); PNaCl has llvm.sqrt
    "libm-math-e_sqrt.o": "libc/platform/sqrt.c",
    "libm-math-ef_sqrt.o": "libc/platform/sqrt.c",
    "libm-math-w_sqrt.o": "libc/platform/sqrt.c",
    "libm-math-wf_sqrt.o": "libc/platform/sqrt.c",
}

CONFIGURE_OPTIONS = [
    "--host=le32-unknown-nacl",
    "--build=x86_64-linux-gnu",
    "--disable-multilib",
    # pnacl's platform layer (libc/platform) supplies the system calls, over the IRT.
    "--disable-newlib-supplied-syscalls",
    # printf/scanf as C99 and glibc have them: %lld, %hh, %j, %z, %t, %a, long double.
    "--enable-newlib-io-long-long",
    "--enable-newlib-io-c99-formats",
    "--enable-newlib-io-long-double",
    # Multibyte locales (C.UTF-8), as the PNaCl SDK's newlib had.
    "--enable-newlib-mb",
    # Threads: stdio and malloc lock through __retarget_lock_*, which pnacl's pthread
    # implements; one set of stdin/stdout/stderr for all threads.
    "--enable-newlib-retargetable-locking",
    "--enable-newlib-global-stdio-streams",
]


def unpack(tarball, into):
    with tarfile.open(tarball) as t:
        t.extractall(into)
    for d in os.listdir(into):
        if os.path.isfile(os.path.join(into, d, "newlib", "configure.host")):
            return os.path.join(into, d)
    sys.exit(f"{tarball}: no newlib/configure.host inside")


def patch_configure_host(top):
    path = os.path.join(top, "newlib", "configure.host")
    text = open(path).read()
    for old, new in PATCHES:
        if text.count(old) != 1:
            sys.exit(f"configure.host: expected one `{old.splitlines()[0].strip()}`")
        text = text.replace(old, new)
    open(path, "w").write(text)


def write_wrapper(scratch, overrides, log):
    path = os.path.join(scratch, "cc")
    with open(path, "w") as f:
        f.write("#!/usr/bin/env python3\n")
        f.write("import json, os, sys\n")
        f.write(f"open({log!r}, 'a').write(json.dumps([os.getcwd(), sys.argv[1:]]) + '\\n')\n")
        f.write(
            "os.execvp('clang-14', ['clang-14', '-I', %r, '-target', 'le32-unknown-nacl', '-nostdlibinc',"
            " '-fno-vectorize', '-fno-slp-vectorize', '-ffp-contract=off', '-Wno-everything'] + sys.argv[1:])\n"
            % overrides
        )
    os.chmod(path, 0o755)
    return path


def build(top, scratch):
    # pnacl's hand-written headers, without the generated ones (this run makes them).
    overrides = os.path.join(scratch, "overrides")
    shutil.copytree(INCLUDE, overrides, ignore=shutil.ignore_patterns("newlib.h", "_newlib_version.h"))
    log = os.path.join(scratch, "cc.log")
    cc = write_wrapper(scratch, overrides, log)
    objdir = os.path.join(scratch, "build")
    os.mkdir(objdir)
    env = dict(os.environ, CC=cc, AR="llvm-ar-14", RANLIB="llvm-ranlib-14", AS="/bin/false", CFLAGS="-O2 -emit-llvm")
    run = lambda cmd: subprocess.run(cmd, cwd=objdir, env=env, check=True, stdout=subprocess.DEVNULL)
    run([os.path.join(top, "newlib", "configure")] + CONFIGURE_OPTIONS)
    run(["make", f"-j{os.cpu_count()}"])
    return objdir, log


def symbolic(path, cwd, top, objdir):
    """A path as sources.txt spells it, or None for a directory without headers."""
    p = os.path.normpath(os.path.join(cwd, path))
    newlib = os.path.join(top, "newlib")
    if p == os.path.join(objdir, "targ-include"):
        return "$PNACL"
    if p.startswith(newlib + os.sep):
        return "$NEWLIB/" + os.path.relpath(p, newlib)
    if p.startswith(objdir):
        # The build directories hold objects only.
        return None
    sys.exit(f"unexpected include directory {p}")


def lines(top, objdir, log):
    newlib = os.path.join(top, "newlib")
    out = []
    for entry in open(log):
        cwd, args = json.loads(entry)
        sources = [a for a in args if a.endswith(".c") and not a.startswith("-")]
        if len(sources) != 1 or "-o" not in args:
            continue
        src = os.path.normpath(os.path.join(cwd, sources[0]))
        if not src.startswith(os.path.join(newlib, "lib")) or "conftest" in src:
            continue
        obj = args[args.index("-o") + 1]
        flags = []
        it = iter(a for a in args if a != sources[0])
        for a in it:
            if a == "-o":
                next(it)
            elif a in ("-c", "-emit-llvm", "-g") or re.match(r"-O\d?$", a):
                pass
            elif a.startswith("-DPACKAGE_"):
                pass
            elif a.startswith("-I"):
                d = symbolic(a[2:] or next(it), cwd, top, objdir)
                if d:
                    flags.append("-I" + d)
            elif a.startswith(("-D", "-U", "-f", "-W", "-std=")):
                flags.append(a)
            else:
                sys.exit(f"unexpected flag {a} in {args}")
        rel_dir = os.path.relpath(cwd, objdir)  # libc/stdio
        name = obj[len("lib_a-"):] if obj.startswith("lib_a-") else obj
        member = rel_dir.replace("/", "-") + "-" + name
        out.append((member, os.path.relpath(src, newlib), flags))
    return out


# Members compiled under another name, because the platform layer defines the standard
# one and calls newlib's as a part of it: the extra flags given to them.
RENAMED = {
    # strstr: libc/platform/strstr.c looks for the needle's first byte with the
    # word-at-a-time strchr and falls back to newlib's two-way search when that gets slow.
    "libc-string-strstr.o": ["-Dstrstr=__newlib_strstr"],
    # fwrite, fputs: libc/platform/stdio_write.c copies into room in a fully buffered
    # stream's buffer and leaves every other case to newlib's.
    "libc-stdio-fwrite.o": ["-Dfwrite=__newlib_fwrite"],
    "libc-stdio-fputs.o": ["-Dfputs=__newlib_fputs"],
    # _dtoa_r: libc/platform/dtoa.c makes the fixed-precision modes (printf's %e %f %g)
    # from the exact decimal expansion, and leaves the shortest modes to newlib's.
    "libc-stdlib-dtoa.o": ["-D_dtoa_r=__newlib_dtoa_r"],
}

# Members compiled with a configuration macro of their own.
CONFIGURED = {
    # findfp.c: with HAVE_FCNTL, stdout is line-buffered only on a terminal (makebuf.c asks
    # _isatty when the stream first writes), fully buffered elsewhere, as glibc does;
    # without it, always line-buffered: a write per line to a pipe or file (fasta: 8% of
    # its run time against the library before newlib).
    "libc-stdio-findfp.o": ["-DHAVE_FCNTL"],
}


def main():
    tarball = sys.argv[1] if len(sys.argv) > 1 else TARBALL
    with tempfile.TemporaryDirectory(prefix="pnacl-newlib-") as scratch:
        top = unpack(tarball, scratch)
        patch_configure_host(top)
        objdir, log = build(top, scratch)
        entries = [e for e in lines(top, objdir, log) if e[0] not in REPLACED]
        members = [e[0] for e in entries]
        if len(set(members)) != len(members):
            sys.exit("two objects of one name")
        common = set(entries[0][2])
        for e in entries:
            common &= set(e[2])
        common_flags = [f for f in entries[0][2] if f in common]
        with open(os.path.join(HERE, "sources.txt"), "w") as f:
            f.write("# Generated by libc/newlib/generate.py from newlib-3.3.0.tar.xz (Debian's newlib-source):\n")
            f.write("# what newlib's own build compiles for le32. Each line: archive member, source\n")
            f.write("# (in the tarball's newlib/ directory), flags. $NEWLIB is that directory,\n")
            f.write("# $PNACL is libc/newlib/include. The flags: line applies to every source.\n")
            for member, by in sorted(REPLACED.items()):
                f.write(f"# left out: {member} (see {by})\n")
            f.write("flags: " + " ".join(common_flags) + "\n")
            for member, src, flags in sorted(entries):
                rest = [x for x in flags if x not in common] + RENAMED.get(member, []) + CONFIGURED.get(member, [])
                f.write(" ".join([member, src] + rest) + "\n")
        for h in ("newlib.h", "_newlib_version.h"):
            shutil.copy(os.path.join(objdir, "targ-include", h), os.path.join(INCLUDE, h))
        print(f"{len(entries)} sources")


main()
