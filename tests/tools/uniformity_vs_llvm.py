#!/usr/bin/env python3
"""Cross-check kc's uniformity verdicts against LLVM 22 on a CF-IR test file.

Usage: tests/tools/uniformity_vs_llvm.py FILE.mlir [-v] [--ll]

Translates every kernel of FILE (the subset of ops the uniformity filetests use) to LLVM IR
(block arguments become phis, constants are inlined, kernel ops become the AMDGPU intrinsics
of the same uniformity), runs `opt-22 -passes=print<uniformity>` on it and `kc --emit=uniformity`
on FILE, and prints every value, branch, assumed-divergent cycle and divergent-exit cycle on
which they disagree. Exit status 1 if any. The expected disagreements are kc's documented
departures (dialect/src/analysis/uniformity.rs).

cf.cond_br successors are emitted reversed with a negated condition, so that LLVM's cycle DFS
(which visits the last successor first) walks the CFG in kc's order and finds the same cycle
headers. Needs opt-22 on PATH; not run by the test suite (a development aid).
"""
import re, subprocess, sys

import os
KC = os.environ.get("KC") or os.path.join(
    os.environ.get("CARGO_TARGET_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target"),
    "debug", "kc")

def ty(t):
    t = t.strip()
    if t == "f32":
        return "float"
    if t.startswith("!kernel.ptr<shared"):
        return "ptr addrspace(3)"
    if t.startswith("!kernel.ptr"):
        return "ptr addrspace(1)"
    return t

def numeric(text):
    # LLVM wants numbered names in order: give kc's numbered values a letter.
    return re.sub(r"%(\d+)\b", r"%n\1", text)

def parse(text):
    text = numeric(text)
    funcs = []
    cur = None
    for line in text.splitlines():
        line = line.split("//")[0].rstrip()
        s = line.strip()
        if not s:
            continue
        m = re.match(r"kernel\.func @(\S+) \{", s)
        if m:
            cur = {"name": m.group(1), "blocks": []}
            funcs.append(cur)
            continue
        if s == "}" or s.startswith("builtin.module") or s.startswith("module"):
            continue
        m = re.match(r"\^([\w.$-]+)(?:\((.*)\))?:$", s)
        if m:
            args = []
            if m.group(2):
                for a in re.split(r",\s*(?=%)", m.group(2)):
                    n, t = a.split(":", 1)
                    args.append((n.strip().lstrip("%"), t.strip()))
            cur["blocks"].append({"name": m.group(1), "args": args, "ops": []})
            continue
        cur["blocks"][-1]["ops"].append(s)
    return funcs

def succs(s):
    # "^a(%x, %y : i32, i32), ^b" -> [("a", ["x","y"]), ("b", [])]
    out = []
    for m in re.finditer(r"\^([\w.$-]+)(?:\(([^):]*)(?::[^)]*)?\))?", s):
        args = [a.strip().lstrip("%") for a in m.group(2).split(",")] if m.group(2) else []
        out.append((m.group(1), args))
    return out

def result_type(op, t):
    # The custom form's type after `:` is the operands' for a compare (the result is i1) and
    # `FROM to TO` for a cast.
    if re.match(r"arith\.cmp[if] ", op):
        return "i1"
    return t.split(" to ")[-1]

def translate(f):
    types = {}
    consts = {}
    blocks = f["blocks"]
    entry = blocks[0]
    for n, t in entry["args"]:
        types[n] = ty(t)
    for b in blocks:
        for n, t in b["args"]:
            types[n] = ty(t)
        for op in b["ops"]:
            mb = re.match(r"%([\w.$-]+) = arith\.constant (true|false)$", op)
            if mb:
                types[mb.group(1)] = "i1"
                consts[mb.group(1)] = mb.group(2)
            m = re.match(r"%([\w.$-]+) = (.*?) : ([^:]+)$", op)
            if m:
                types[m.group(1)] = ty(result_type(m.group(2), m.group(3)))
                mc = re.match(r"arith\.constant (\S+)", m.group(2))
                if mc:
                    consts[m.group(1)] = mc.group(1)
    def v(x):
        x = x.strip().lstrip("%")
        return consts.get(x, "%" + x)
    # incoming values for phis
    incoming = {b["name"]: [] for b in blocks}
    names = {b["name"]: ("entry" if i == 0 else b["name"]) for i, b in enumerate(blocks)}
    for b in blocks:
        t = b["ops"][-1]
        for (tgt, args) in succs(t if t.startswith("cf.") else ""):
            incoming[tgt].append((names[b["name"]], args))
    conds = set()
    for b in blocks:
        t = b["ops"][-1]
        if t.startswith("cf.cond_br"):
            conds.add(t.split()[1].rstrip(",").lstrip("%"))
    def inv(n, o):
        if n in conds:
            o.append(f"  %{n}.inv = xor i1 {v(n)}, true")
    out = []
    params = ", ".join(f"{types[n]} %{n}" for n, _ in entry["args"] if types[n] != "!conv.token")
    out.append(f"define amdgpu_kernel void @{f['name']}({params}) {{")
    for i, b in enumerate(blocks):
        out.append(f"{names[b['name']]}:")
        if i > 0:
            for k, (n, t) in enumerate(b["args"]):
                inc = ", ".join(f"[ {v(args[k])}, %{p} ]" for p, args in incoming[b["name"]])
                out.append(f"  %{n} = phi {ty(t)} {inc}")
        for n, _ in b["args"]:
            inv(n, out)
        for op in b["ops"]:
            if re.match(r"%[\w.$-]+ = arith\.constant (true|false)$", op):
                continue
            m = re.match(r"%([\w.$-]+) = (\S+) ?(.*?) : ([^:]+)$", op)
            if m:
                r, opc, rest, t = m.group(1), m.group(2), m.group(3), ty(result_type(m.group(2), m.group(4)))
                ops = [x.strip() for x in rest.split(",")] if rest else []
                if opc == "arith.constant" or opc.startswith("conv."):
                    continue
                if opc == "kernel.workitem_id":
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.workitem.id.{ops[0]}()")
                elif opc == "kernel.workgroup_id":
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.workgroup.id.{ops[0]}()")
                elif opc == "kernel.lane_id":
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)")
                elif opc == "kernel.readfirstlane":
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.readfirstlane.i32(i32 {v(ops[0])})")
                elif opc == "kernel.ballot":
                    out.append(f"  %{r} = call i64 @llvm.amdgcn.ballot.i64(i1 {v(ops[0])})")
                elif opc == "kernel.load":
                    pt = types[ops[0].lstrip("%")]
                    out.append(f"  %{r}.p = getelementptr {t}, {pt} {v(ops[0])}, i32 {v(ops[1])}")
                    out.append(f"  %{r} = load {t}, {pt} %{r}.p")
                elif opc == "kernel.atomic":
                    out.append(f"  %{r} = atomicrmw {ops[0]} ptr addrspace(1) {v(ops[1])}, {t} {v(ops[2])} seq_cst")
                elif opc == "arith.cmpi":
                    out.append(f"  %{r} = icmp {ops[0]} {types[ops[1].lstrip('%')] if not ops[1].lstrip('%') in consts else 'i32'} {v(ops[1])}, {v(ops[2])}")
                elif opc in ("arith.trunci", "arith.extsi", "arith.extui"):
                    llop = {"arith.trunci": "trunc", "arith.extsi": "sext", "arith.extui": "zext"}[opc]
                    out.append(f"  %{r} = {llop} {types[ops[0].lstrip('%')]} {v(ops[0])} to {t}")
                elif opc == "kernel.readlane":
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.readlane.i32(i32 {v(ops[0])}, i32 {v(ops[1])})")
                elif opc == "kernel.atomic_cmpxchg":
                    out.append(f"  %{r}.pair = cmpxchg ptr addrspace(1) {v(ops[0])}, {t} {v(ops[1])}, {t} {v(ops[2])} seq_cst seq_cst")
                    out.append(f"  %{r} = extractvalue {{ {t}, i1 }} %{r}.pair, 0")
                elif opc in ("kernel.workgroup_size", "kernel.num_workgroups", "kernel.wave_size"):
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.workgroup.id.x()")
                elif opc == "kernel.shared_alloc":
                    out.append(f"  %{r} = getelementptr i8, ptr addrspace(3) @lds, i32 0")
                elif opc == "kernel.reduce":
                    kind = {"add": "add", "max": "max", "min": "min"}[ops[0]]
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.wave.reduce.u{'max' if kind == 'max' else 'add'}.i32(i32 {v(ops[1])}, i32 0)")
                elif opc == "kernel.ptr_offset":
                    out.append(f"  %{r} = getelementptr i8, {t} {v(ops[0])}, i32 {v(ops[1])}")
                elif opc == "kernel.shuffle":
                    out.append(f"  %{r} = call i32 @llvm.amdgcn.ds.bpermute(i32 {v(ops[1])}, i32 {v(ops[0])})")
                elif opc == "arith.cmpf":
                    out.append(f"  %{r} = fcmp {ops[0]} float {v(ops[1])}, {v(ops[2])}")
                elif opc == "arith.select":
                    out.append(f"  %{r} = select i1 {v(ops[0])}, {t} {v(ops[1])}, {t} {v(ops[2])}")
                else:
                    llop = {"arith.addf": "fadd", "arith.subf": "fsub", "arith.mulf": "fmul",
                            "arith.divf": "fdiv", "arith.shrsi": "ashr", "arith.shrui": "lshr",
                            "arith.shli": "shl", "arith.divui": "udiv", "arith.remui": "urem",
                            "arith.divsi": "sdiv", "arith.remsi": "srem", "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul",
                            "arith.xori": "xor", "arith.andi": "and", "arith.ori": "or"}[opc]
                    out.append(f"  %{r} = {llop} {t} {v(ops[0])}, {v(ops[1])}")
                inv(r, out)
                continue
            if op.startswith("kernel.store"):
                ops = [x.strip() for x in op[len("kernel.store"):].split(",")]
                val = ops[0].lstrip("%")
                t = types.get(val, "i32")
                tag = f"st{len(out)}"
                pt = types[ops[1].lstrip("%")]
                out.append(f"  %{tag} = getelementptr {t}, {pt} {v(ops[1])}, i32 {v(ops[2])}")
                out.append(f"  store {t} {v(ops[0])}, {pt} %{tag}")
            elif op.startswith("cf.br"):
                (tgt, _), = succs(op)
                out.append(f"  br label %{names[tgt]}")
            elif op.startswith("cf.cond_br"):
                c = op.split()[1].rstrip(",")
                (a, _), (b2, _) = succs(op)
                cv = v(c)
                cv = {"true": "false", "false": "true"}.get(cv, cv + ".inv")
                out.append(f"  br i1 {cv}, label %{names[b2]}, label %{names[a]}")
            elif op.startswith("kernel.return"):
                out.append("  ret void")
            elif op.startswith("kernel.barrier"):
                pass
            else:
                raise SystemExit(f"unhandled op: {op}")
    out.append("}")
    return "\n".join(out)

DECLS = """
@lds = internal addrspace(3) global [256 x i8] poison
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.umax.i32(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.uadd.i32(i32, i32)
"""

def llvm_verdicts(ll):
    p = subprocess.run(["opt-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942",
                        "-passes=print<uniformity>,print<cycles>", "-disable-output"],
                       input=ll, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(p.stderr + ll)
    res = {}
    fn = None
    block = None
    for line in p.stderr.splitlines():
        m = re.match(r"UniformityInfo for function '(.*)'", line)
        if m:
            fn = m.group(1)
            res[fn] = {"values": {}, "branches": {}, "text": []}
            continue
        if fn is None:
            continue
        res[fn]["text"].append(line)
        m = re.match(r"BLOCK (\S+)", line.strip())
        if m:
            block = m.group(1)
        div = "DIVERGENT:" in line
        m = re.search(r"%([\w.$-]+) = ", line)
        if m and "BLOCK" not in line and not m.group(1).endswith(".inv") and not m.group(1).endswith(".p") and not m.group(1).startswith("st"):
            res[fn]["values"][m.group(1)] = div
        if re.search(r"\bbr i1 ", line):
            res[fn]["branches"][block] = div
    for fn in res:
        res[fn]["sections"] = sections(res[fn]["text"], ["CYCLES ASSUMED DIVERGENT:", "CYCLES WITH DIVERGENT EXIT:"])
    return res, p.stderr

def sections(lines, titles):
    out = {t: set() for t in titles}
    cur = None
    for l in lines:
        l = l.strip().lstrip("/").strip()
        if l in titles:
            cur = l
            continue
        m = re.match(r"depth=(\d+): entries\(([^)]*)\)(.*)", l)
        if m and cur:
            ents = m.group(2).replace("^", "").split()
            rest = m.group(3).replace("^", "").split()
            out[cur].add((ents[0], frozenset(ents), frozenset(ents + rest)))
            continue
        if not l.startswith("depth="):
            cur = None
    return out

def kc_verdicts(path):
    p = subprocess.run([KC, path, "--emit=uniformity", "--no-locs"], capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(p.stderr)
    res = {}
    fn = None
    block = None
    summ = {}
    for line in numeric(p.stdout).splitlines():
        m = re.match(r"// uniformity of @(\S+):", line)
        if m:
            sfn = m.group(1)
            summ[sfn] = []
        if line.startswith("//"):
            summ[sfn].append(line.replace("cycles assumed divergent:", "CYCLES ASSUMED DIVERGENT:").replace("cycles with divergent exit:", "CYCLES WITH DIVERGENT EXIT:"))
            continue
        m = re.match(r"\s*kernel\.func @(\S+)", line)
        if m:
            fn = m.group(1)
            res[fn] = {"values": {}, "branches": {}}
            first = True
            continue
        m = re.match(r"\s*\^([\w.$-]+)(\(.*\))?:(?: // (.*))?$", line)
        if m:
            block = m.group(1) if not first else "entry"
            first = False
            if m.group(2) and block != "entry":
                for part in (m.group(3) or "").split(";")[0].split(","):
                    mm = re.match(r"\s*%([\w.$-]+) (divergent|uniform)", part)
                    if mm:
                        res[fn]["values"][mm.group(1)] = mm.group(2) == "divergent"
            continue
        m = re.match(r"\s*%([\w.$-]+) = .* // (divergent|uniform)$", line)
        if m:
            res[fn]["values"][m.group(1)] = m.group(2) == "divergent"
        if "cf.cond_br" in line:
            res[fn]["branches"][block] = "// divergent branch" in line
    for fn in res:
        res[fn]["sections"] = sections(summ[fn], ["CYCLES ASSUMED DIVERGENT:", "CYCLES WITH DIVERGENT EXIT:"])
    return res, p.stdout

def main():
    path = sys.argv[1]
    verbose = "-v" in sys.argv
    text = open(path).read()
    funcs = parse(text)
    ll = "\n".join(translate(f) for f in funcs) + DECLS
    if "--ll" in sys.argv:
        print(ll)
    lv, ltext = llvm_verdicts(ll)
    kv, ktext = kc_verdicts(path)
    bad = 0
    for f in funcs:
        n = f["name"]
        L, K = lv[n], kv[n]
        for name, d in sorted(K["values"].items()):
            if name in L["values"] and L["values"][name] != d:
                print(f"{n}: %{name}: kc {'divergent' if d else 'uniform'}, llvm {'divergent' if L['values'][name] else 'uniform'}")
                bad += 1
        for blk, d in sorted(K["branches"].items()):
            if blk in L["branches"] and L["branches"][blk] != d:
                print(f"{n}: branch in ^{blk}: kc {'divergent' if d else 'uniform'}, llvm {'divergent' if L['branches'][blk] else 'uniform'}")
                bad += 1
        for t in L["sections"]:
            if L["sections"][t] != K["sections"][t]:
                print(f"{n}: {t} kc {sorted(map(str,K['sections'][t]))} llvm {sorted(map(str,L['sections'][t]))}")
                bad += 1
        missing = [x for x in K["values"] if x not in L["values"]]
        if missing and verbose:
            print(f"{n}: not compared: {missing}")
    if verbose:
        print(ltext)
        print(ktext)
    print("MISMATCHES", bad)
    sys.exit(1 if bad else 0)

main()
