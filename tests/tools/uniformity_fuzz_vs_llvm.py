#!/usr/bin/env python3
"""Random differential test of kc's uniformity analysis against LLVM 22 (a development aid).

Usage: tests/tools/uniformity_fuzz_vs_llvm.py [FIRST_SEED [ROUNDS [KERNELS]]]
       (defaults 1, 10, 100: ten files of a hundred random kernels each)

Each round generates random CF kernels (reducible and irreducible CFGs, block arguments,
work-item and lane ids, readfirstlane, branches on uniform, divergent and computed
conditions), writes them to one file under $TMPDIR, and compares kc's verdicts with opt-22's
through uniformity_vs_llvm.py (same DFS order on both sides). Prints, per round, the values
and branches on which they disagree, by direction, and the kernels whose cycle summaries
differ. Exit status 1 if kc calls uniform a value or branch that LLVM calls divergent: none of
kc's documented departures does that on these kernels (tokens and kernel.reduce are not
generated), so it would be a bug. kc-divergent/LLVM-uniform differences are expected from the
departures and the LLVM 22 bugs listed in dialect/src/analysis/uniformity.rs; a file to
inspect is left behind for each round.
"""
import os, random, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_src = open(os.path.join(HERE, "uniformity_vs_llvm.py")).read().replace("\nmain()\n", "\n")
g = {"__name__": "uniformity_vs_llvm", "__file__": os.path.join(HERE, "uniformity_vs_llvm.py")}
exec(_src, g)


def gen(rng, name, mode):
    n = rng.randint(2, 10)
    succs = [[] for _ in range(n)]
    for j in range(1, n):
        cands = [p for p in range(j) if len(succs[p]) < 2]
        succs[rng.choice(cands)].append(j)
    for i in range(n):
        if len(succs[i]) < 2 and rng.random() < 0.7:
            if mode == "fwd":
                c = [t for t in range(i + 1, n) if t not in succs[i]]
            else:
                c = [t for t in range(1, n) if t not in succs[i]]
            if c:
                succs[i].append(rng.choice(c))
    for s in succs:
        rng.shuffle(s)
    nargs = [0] + [rng.randint(0, 2) for _ in range(n - 1)]
    t = [f"kernel.func @{name} {{", "^b0(%a: i32, %b: i32):",
         "  %tid = kernel.workitem_id x : i32", "  %zero = arith.constant 0 : i32",
         "  %one = arith.constant 1 : i32", "  %two = arith.constant 2 : i32",
         "  %cu = arith.cmpi slt, %a, %zero : i32", "  %cd = arith.cmpi slt, %tid, %zero : i32"]
    cnt = 0
    for i in range(n):
        if i > 0:
            args = ", ".join(f"%p{i}_{k}: i32" for k in range(nargs[i]))
            t.append(f"^b{i}({args}):" if args else f"^b{i}:")
        pool = ["%a", "%b", "%tid", "%zero", "%one", "%two"] + [f"%p{i}_{k}" for k in range(nargs[i])]
        for _ in range(rng.randint(0, 3)):
            cnt += 1
            v = f"%v{cnt}"
            k = rng.randrange(6)
            if k == 0:
                t.append(f"  {v} = kernel.lane_id : i32")
            elif k == 1:
                t.append(f"  {v} = kernel.readfirstlane {rng.choice(pool)} : i32")
            else:
                t.append(f"  {v} = arith.addi {rng.choice(pool)}, {rng.choice(pool)} : i32")
            pool.append(v)
        def tgt(s):
            a = ", ".join(rng.choice(pool) for _ in range(nargs[s]))
            tys = ", ".join("i32" for _ in range(nargs[s]))
            return f"^b{s}({a} : {tys})" if a else f"^b{s}"
        if not succs[i]:
            t.append("  kernel.return")
        elif len(succs[i]) == 1:
            t.append(f"  cf.br {tgt(succs[i][0])}")
        else:
            k = rng.randrange(4)
            if k == 0: c = "%cu"
            elif k == 1: c = "%cd"
            else:
                cnt += 1
                c = f"%c{cnt}"
                t.append(f"  {c} = arith.cmpi slt, {rng.choice(pool)}, %one : i32")
            t.append(f"  cf.cond_br {c}, {tgt(succs[i][0])}, {tgt(succs[i][1])}")
    t.append("}")
    return "\n".join(t)


def round_(seed, count, outdir):
    rng = random.Random(seed)
    kernels = [gen(rng, f"k{i}", "fwd" if i % 3 == 0 else "any") for i in range(count)]
    path = os.path.join(outdir, f"fuzz{seed}.mlir")
    open(path, "w").write("\n\n".join(kernels) + "\n")
    funcs = g["parse"](open(path).read())
    ll = "\n".join(g["translate"](f) for f in funcs) + g["DECLS"]
    L, _ = g["llvm_verdicts"](ll)
    K, _ = g["kc_verdicts"](path)
    found = {}
    for f in funcs:
        n = f["name"]
        for name, d in K[n]["values"].items():
            if name in L[n]["values"] and L[n]["values"][name] != d:
                found.setdefault("value: kc divergent, llvm uniform" if d else "VALUE: KC UNIFORM, LLVM DIVERGENT", []).append(f"{n}:%{name}")
        for blk, d in K[n]["branches"].items():
            if blk in L[n]["branches"] and L[n]["branches"][blk] != d:
                found.setdefault("branch: kc divergent, llvm uniform" if d else "BRANCH: KC UNIFORM, LLVM DIVERGENT", []).append(f"{n}:^{blk}")
        for t in L[n]["sections"]:
            if L[n]["sections"][t] != K[n]["sections"][t]:
                found.setdefault("summary differs: " + t.lower().rstrip(":"), []).append(n)
    print(f"round {seed} ({path}):")
    for k, v in sorted(found.items()):
        print(f"  {k}: {len(v)}: {' '.join(v[:10])}{' ...' if len(v) > 10 else ''}")
    return any(k.startswith(("VALUE", "BRANCH")) for k in found)


def main():
    first = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    outdir = tempfile.mkdtemp(prefix="kc-uniformity-fuzz-")
    bad = False
    for seed in range(first, first + rounds):
        bad |= round_(seed, count, outdir)
    sys.exit(1 if bad else 0)


main()
