#!/usr/bin/env python3
"""Generate the gfx942 memory-model oracle filetests (tests/filetests/gfx942/memory_model/).

For every synchronizing operation kc supports (read-modify-write, compare-and-swap, atomic
load, atomic store, each on global and on shared memory; fence; barrier) and every ordering
and scope it allows, one kernel in a .k file and its OpenCL C twin in Inputs/<file>.cl, which
uses clang's scoped atomics (`__scoped_atomic_*` with __MEMORY_SCOPE_*, C++/HIP semantics:
not OpenCL's one-address-space scopes, like kc) and `__builtin_amdgcn_fence`.

The CHECK lines are read off clang-22's listing of the twin, never written by hand: in the
listing filtered to memory instructions, waits, cache operations and labels (FILTER), each
kernel's window around the operation: the memory instruction before it, the waits and cache
operations before it, the operation with its cache-policy bits, the waits and cache operations
after it, and the next memory instruction. The filetest then checks kc's listing, and llc-22's
listing of kc's own LLVM IR, against the same lines, assembles kc's listing with llvm-mc-22,
and runs every kernel on the simulator and the reference interpreter (same buffers).

After writing, the script runs FileCheck on clang's and kc's listings and reports any kernel
whose window differs (it exits 1 then): a difference is a bug to fix in kc, not a line to edit.

Usage: tests/tools/gen_memory_model_tests.py [--kc PATH]   (default: target/debug/kc)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "filetests", "gfx942", "memory_model")
OPENCL = os.path.join(ROOT, "examples", "opencl")
CLANG = ["clang-22", "-O2", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx942", "-nogpulib",
         "-x", "cl", "-cl-std=CL2.0"]
FILECHECK = os.environ.get("KC_FILECHECK", "/usr/lib/llvm-22/bin/FileCheck")
# Labels, memory instructions, waits, cache operations, barriers: what the windows consist of.
FILTER = r"^[A-Za-z_][A-Za-z0-9_]*:|^\s+(s_waitcnt|buffer_|s_barrier|s_endpgm|global_|ds_)"

ORDERINGS = {"relaxed": "__ATOMIC_RELAXED", "acquire": "__ATOMIC_ACQUIRE",
             "release": "__ATOMIC_RELEASE", "acq_rel": "__ATOMIC_ACQ_REL",
             "seq_cst": "__ATOMIC_SEQ_CST"}
SCOPES = {"wavefront": ("__MEMORY_SCOPE_WVFRNT", '"wavefront"'),
          "workgroup": ("__MEMORY_SCOPE_WRKGRP", '"workgroup"'),
          "agent": ("__MEMORY_SCOPE_DEVICE", '"agent"'),
          "system": ("__MEMORY_SCOPE_SYSTEM", '""')}
# What each kind allows (LLVM's rules, LANGUAGE.md section 6.1).
ALLOWED = {"rmw": list(ORDERINGS), "cmpxchg": list(ORDERINGS),
           "load": ["relaxed", "acquire", "seq_cst"],
           "store": ["relaxed", "release", "seq_cst"],
           "fence": ["acquire", "release", "acq_rel", "seq_cst"]}
FAILURE = {"release": "relaxed", "acq_rel": "acquire"}

# Kernel bodies: (pre, operation, post) in kc and in OpenCL C. `@P` is the atomic's pointer,
# `@O`/`@S` kc's ordering and scope, `@CO`/`@CS` clang's, `@CF` the cmpxchg failure
# ordering, `@FS` the fence's scope string. The pre part leaves a global and an LDS access outstanding, so
# each wait of a sequence shows; the post part reads after the operation. Both pre accesses
# need the kernel argument `n` or a pointer, so the wait for the kernel arguments comes before
# them in both compilers' listings and is never the same instruction as a release wait.
STORES_BEFORE = ("    out[t] = 5;\n    l[t] = n;\n", "    out[t] = 5;\n    l[t] = n;\n")
READ_AFTER = ("    out[t + 64] = a + g[t + 128] + l[(t + 1) & 63];\n",
              "    out[t + 64] = a + g[t + 128] + l[(t + 1) & 63];\n")
KINDS = {
    "rmw": (STORES_BEFORE, ("    let a = atomic_add(@P, 1, @O, @S);\n",
                            "    int a = __scoped_atomic_fetch_add(@P, 1, @CO, @CS);\n"), READ_AFTER),
    "cmpxchg": (STORES_BEFORE, ("    let a = atomic_cmpxchg(@P, 0, 1, @O, @S);\n",
                                "    int a = 0;\n    __scoped_atomic_compare_exchange_n(@P, &a, 1, false, @CO, @CF, @CS);\n"),
                READ_AFTER),
    "load": (STORES_BEFORE, ("    let a = atomic_load(@P, @O, @S);\n",
                             "    int a = __scoped_atomic_load_n(@P, @CO, @CS);\n"), READ_AFTER),
    "store": (STORES_BEFORE, ("    atomic_store(@P, 7, @O, @S);\n    let a = 0;\n",
                              "    __scoped_atomic_store_n(@P, 7, @CO, @CS);\n    int a = 0;\n"), READ_AFTER),
    "fence": (STORES_BEFORE, ("    fence(@O, @S);\n    let a = 0;\n",
                              "    __builtin_amdgcn_fence(@CO, @FS);\n    int a = 0;\n"), READ_AFTER),
    "barrier": (STORES_BEFORE, ("    barrier();\n    let a = 0;\n", "    barrier(0);\n    int a = 0;\n"),
                READ_AFTER),
}
# The operation's instruction in each kind's kernel, on global and on shared memory: the
# first of its kind in the kernel (an atomic store: the second, after the pre part's store)
# (a fence has none: its steps come before the first load after it).
ACCESS = {"rmw": ("global_atomic_add ", "ds_add_rtn_u32 "),
          "cmpxchg": ("global_atomic_cmpswap ", "ds_cmpst_rtn_b32 "),
          "load": ("global_load_dword ", "ds_read_b32 "), "store": ("global_store_dword ", "ds_write_b32 "),
          "fence": ("(global_load_dword|ds_read_b32) ",) * 2, "barrier": ("s_barrier",) * 2}
MEMORY = r"(global_|ds_)"
MM = r"(s_waitcnt|buffer_)"


def files():
    """(file stem, kind, space, [(kernel name, ordering, scope)])."""
    out = []
    for kind in ["rmw", "cmpxchg", "load", "store"]:
        for space in ["global", "shared"]:
            ks = [(f"{kind}_{o}_{s}", o, s) for o in ALLOWED[kind] for s in SCOPES]
            out.append((f"{kind}_{space}", kind, space, ks))
    out.append(("fence", "fence", None, [(f"fence_{o}_{s}", o, s) for o in ALLOWED["fence"] for s in SCOPES]))
    out.append(("barrier", "barrier", None, [("barrier_workgroup", None, None)]))
    return out


def body(kind, space, o, s, lang):
    pre, op, post = (x[lang] for x in KINDS[kind])
    # (An atomic store to shared memory goes to another lane's element than the pre part's
    # store, which would otherwise be dead.)
    p = "&g[t]" if space == "global" else "&l[t ^ 32]" if kind == "store" else "&l[t]"
    co = ORDERINGS.get(o, "")
    cf = ORDERINGS.get(FAILURE.get(o, o), "")
    cs, fs = SCOPES.get(s, ("", ""))
    for key, val in [("@P", p), ("@O", o), ("@S", s), ("@CO", co), ("@CF", cf), ("@CS", cs),
                     ("@FS", fs)]:
        op = op.replace(key, val or "")
    return pre + op + post


def kc_kernel(name, kind, space, o, s):
    return (f"kernel {name}(g: ptr<global, i32>, out: ptr<global, i32>, n: i32) {{\n"
            "    shared l: [i32; 64];\n    let t = workitem_id(x);\n"
            + body(kind, space, o, s, 0) + "}\n")


def cl_kernel(name, kind, space, o, s):
    return (f"__kernel void {name}(__global int *g, __global int *out, int n) {{\n"
            "    __local int l[64];\n    int t = (int)get_local_id(0);\n"
            + body(kind, space, o, s, 1) + "}\n")


def filtered(listing):
    """The lines FILTER keeps, comments removed."""
    return [l.split(";")[0].rstrip() for l in listing.splitlines() if re.search(FILTER, l)]


def mnemonic(line):
    return line.split()[0]


def bits(line):
    """The trailing cache-policy bits of an instruction (` sc0 sc1`, or '')."""
    words = line.split(";")[0].split()
    tail = []
    while words and words[-1] in ("sc0", "sc1", "nt"):
        tail.insert(0, words.pop())
    return "".join(" " + w for w in tail)


def exact(line):
    """A CHECK pattern for a wait or cache operation, whole (a trailing comment allowed)."""
    return line.split(";")[0].strip() + "{{ *(;.*)?$}}"


def normalize(lines, access, nth):
    """What the RUN lines' awk does: drop the memory instructions before the kernel's `nth`
    `access` instruction (the kernel's own accesses, which the scheduler may put on either
    side of a release wait that only concerns the other counter), keep everything else."""
    out, count = [], 0
    for l in lines:
        if re.match(r"^[A-Za-z_]", l):
            count = 0
        elif re.match(r"^[ \t]+" + access, l):
            count += 1
        if count < nth and re.match(r"^[ \t]+(global_|ds_)", l):
            continue
        out.append(l)
    return out


def window(lines, name, kind):
    """CHECK lines for kernel `name` from clang's normalized listing: every line from the
    label through the operation to the first memory instruction after it, then no cache
    operation in the rest of the kernel."""
    start = lines.index(f"{name}:")
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"^[A-Za-z_]", lines[i]))
    ks = [l.strip() for l in lines[start + 1:end]]
    access = next(i for i, l in enumerate(ks) if re.match(r"(global_|ds_|s_barrier)", l))
    last = next(i for i in range(access + 1, len(ks)) if re.match(r"(global_|ds_)", ks[i]))
    checks = [f"CHECK-LABEL: {{{{^}}}}{name}:"]
    for i in range(last + 1):
        l = ks[i]
        if i == access and kind not in ("fence", "barrier"):
            checks.append(f"CHECK-NEXT: {mnemonic(l)} {{{{[^;]*[]0-9a-z]}}}}{bits(l)}{{{{ *(;.*)?$}}}}")
        elif re.match(r"(global_|ds_)", l):
            checks.append(f"CHECK-NEXT: {mnemonic(l)}")
        else:
            checks.append(f"CHECK-NEXT: {exact(l)}")
    checks.append("CHECK-NOT: buffer_")
    checks.append("CHECK: s_endpgm")
    return checks


# normalize() as an awk program (comments removed first, as `filtered` does).
AWK = ("sed 's/;.*//' | awk '/^[A-Za-z_]/ {{ c = 0 }} /^[ \\t]+{access}/ {{ c++ }} "
       "c >= {nth} || !/^[ \\t]+(global_|ds_)/'")

HEADER = """\
// GENERATED by tests/tools/gen_memory_model_tests.py from clang-22's listing of the OpenCL
// twin (Inputs/{stem}.cl); regenerate, never edit.
// {what}
// Each listing is filtered to labels, memory instructions, waits and cache operations, and
// the kernel's own memory instructions before the operation are dropped (the scheduler may
// put them on either side of a release wait for the other counter). Then, per kernel: the
// wait for the kernel arguments, the release steps, the operation with exactly its
// cache-policy bits, the acquire steps, the next memory instruction; no cache operation
// after that. kc's listing, llc-22's listing of kc's own LLVM IR and clang-22's listing of
// the twin all match the same lines; kc's listing assembles; the simulator (no caches) and
// the reference interpreter compute the same buffers.
// RUN: %kc %s -S -o %t.s && %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o 2>%t.err && test ! -s %t.err
// RUN: grep -E '{flt}' %t.s | {awk} | FileCheck %s
// RUN: %clang {clang} -I%examples/opencl -S -o - %S/Inputs/{stem}.cl 2>/dev/null | grep -E '{flt}' | {awk} | FileCheck %s
// RUN: %kc %s --emit=llvm -o %t.ll && %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -amdgpu-atomic-optimizer-strategy=None %t.ll -o - | grep -E '{flt}' | {awk} | FileCheck %s
// RUN: for k in $(sed -n 's/^kernel \\([a-z_0-9]*\\).*/\\1/p' %s); do \\
// RUN:   %kc run %s --kernel $k --args %S/Inputs/memory_model.args.json | grep -v '"engine"\\|"counts"' > %t.sim && \\
// RUN:   %kc run %s --kernel $k --args %S/Inputs/memory_model.args.json --engine ref | grep -v '"engine"\\|"counts"' > %t.ref && \\
// RUN:   diff %t.sim %t.ref || {{ echo "FAILED: $k"; exit 1; }}; done
// REQUIRES: clang, llc, llvm-mc
"""

WHAT = {"rmw": "atomic_add (read-modify-write) on {space} memory, every ordering and scope.",
        "cmpxchg": "atomic_cmpxchg on {space} memory, every ordering and scope (clang's failure\n// ordering is kc's: acq_rel fails acquire, release fails relaxed).",
        "load": "atomic_load on {space} memory, every ordering a load allows and every scope.",
        "store": "atomic_store on {space} memory, every ordering a store allows and every scope.",
        "fence": "fence, every ordering a fence allows and every scope (clang: __builtin_amdgcn_fence).",
        "barrier": "barrier(): a workgroup release fence, s_barrier, a workgroup acquire fence\n// (the twin's barrier() is kc_ocl.h's, HIP's __syncthreads)."}


def main():
    kc = os.path.join(ROOT, "target", "debug", "kc")
    if "--kc" in sys.argv:
        kc = sys.argv[sys.argv.index("--kc") + 1]
    os.makedirs(os.path.join(OUT, "Inputs"), exist_ok=True)
    with open(os.path.join(OUT, "Inputs", "memory_model.args.json"), "w") as f:
        f.write('{"block": 64, "g": {"type": "i32", "len": 256}, "out": {"type": "i32", "len": 128}, "n": 3}\n')
    bad = 0
    for stem, kind, space, kernels in files():
        cl = "// GENERATED by tests/tools/gen_memory_model_tests.py: the OpenCL C twin of ../" + stem + ".k.\n"
        cl += '#include "kc_ocl.h"\n\n' + "\n".join(cl_kernel(n, kind, space, o, s) for n, o, s in kernels)
        cl_path = os.path.join(OUT, "Inputs", stem + ".cl")
        open(cl_path, "w").write(cl)
        listing = subprocess.run(CLANG + ["-I" + OPENCL, "-S", "-o", "-", cl_path], check=True,
                                 capture_output=True, text=True).stdout
        access = ACCESS[kind][space == "shared"]
        nth = 2 if kind == "store" else 1
        lines = normalize(filtered(listing), access, nth)
        checks = []
        for n, o, s in kernels:
            checks += window(lines, n, kind)
        what = WHAT[kind].format(space=space)
        awk = AWK.format(access=access, nth=nth)
        text = HEADER.format(stem=stem, what=what, flt=FILTER, awk=awk, clang=" ".join(CLANG[1:]))
        text += "\n".join(kc_kernel(n, kind, space, o, s) for n, o, s in kernels)
        text += "\n" + "\n".join("// " + c for c in checks) + "\n"
        k_path = os.path.join(OUT, stem + ".k")
        open(k_path, "w").write(text)
        # Check both listings now, kernel by kernel, to name what differs.
        for who, cmd in [("clang-22", None), ("kc", [kc, k_path, "-S", "-o", "-"])]:
            out = listing if cmd is None else subprocess.run(cmd, capture_output=True, text=True).stdout
            flt = "\n".join(normalize(filtered(out), access, nth)) + "\n"
            r = subprocess.run([FILECHECK, k_path], input=flt, capture_output=True, text=True)
            if r.returncode != 0:
                bad += 1
                print(f"{stem}: {who} differs:\n" + "\n".join(r.stderr.splitlines()[:12]))
        print(f"wrote {os.path.relpath(k_path, ROOT)} ({len(kernels)} kernels)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
