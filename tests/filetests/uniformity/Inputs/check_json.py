"""Checks `kc --emit=uniformity-json` output on stdin against expectations for one kernel.

usage: check_json.py KERNEL [divergent=a,b] [uniform=c,d] [divergent_branches=blk,...]
                            [joins=branch_block:join_block,...] [temporal=value,...]
                            [assumed_divergent=header,...] [divergent_exit=header,...]
       check_json.py --files FILE...   (invariants only, each file a whole report)

Names are printed names without sigils. Also checks the schema invariants every report keeps:
each divergent value has a reason and each uniform one none, reason kinds are known, every
referenced block / value / cycle exists, and lists are in IR order.
"""
import json
import sys

REASONS = {
    "source": {"op"},
    "operand": {"op", "operand"},
    "incoming": {"from_block", "value"},
    "join": {"branch", "block"},
    "divergent_exit": {"branch", "block", "cycle"},
    "divergent_cycle": {"branch", "cycle", "join"},
    "temporal": {"value", "user", "user_block", "cycle"},
}


def fail(msg):
    print(f"check_json: {msg}", file=sys.stderr)
    sys.exit(1)


def check_reason(r, values, blocks, ncycles, where):
    kind = r.get("kind")
    if kind not in REASONS:
        fail(f"{where}: unknown reason kind {kind!r}")
    if set(r) - {"kind"} != REASONS[kind]:
        fail(f"{where}: reason {kind} has fields {sorted(r)}")
    for f in ("operand", "value"):
        if f in r and r[f] not in values:
            fail(f"{where}: reason names unknown value {r[f]!r}")
    for f in ("from_block", "branch", "block", "join", "user_block"):
        if f in r and r[f] not in blocks:
            fail(f"{where}: reason names unknown block {r[f]!r}")
    if "cycle" in r and not 0 <= r["cycle"] < ncycles:
        fail(f"{where}: reason names unknown cycle {r['cycle']}")


def main():
    if sys.argv[1:2] == ["--files"]:
        for path in sys.argv[2:]:
            with open(path) as f:
                try:
                    report = json.load(f)
                except json.JSONDecodeError as e:
                    fail(f"{path}: invalid JSON: {e}")
            check(report, [])
        return
    check(json.load(sys.stdin), sys.argv[1:])


def check(report, args):
    if report.get("version") != 1:
        fail("version is not 1")
    want = {}
    for arg in args[1:]:
        key, _, vals = arg.partition("=")
        want[key] = [v for v in vals.split(",") if v]
    kernels = {k["name"]: k for k in report["kernels"]}
    for k in report["kernels"]:
        blocks = [b["name"] for b in k["blocks"]]
        values = {v["name"]: v for v in k["values"]}
        if len(values) != len(k["values"]):
            fail(f"{k['name']}: duplicate value names")
        order = [blocks.index(v["block"]) for v in k["values"]]
        if order != sorted(order):
            fail(f"{k['name']}: values are not in block order")
        ncycles = len(k["cycles"])
        for v in k["values"]:
            if v["divergent"] != (v["reason"] is not None):
                fail(f"{k['name']}: %{v['name']}: divergent={v['divergent']} but reason={v['reason']}")
            if v["reason"]:
                check_reason(v["reason"], values, blocks, ncycles, f"%{v['name']}")
        for b in k["branches"]:
            if b["block"] not in blocks or b["condition"] not in values:
                fail(f"{k['name']}: branch {b}")
            if b["divergent"] != (b["reason"] is not None):
                fail(f"{k['name']}: branch in ^{b['block']}: divergent without reason or vice versa")
            if not b["divergent"] and (b["joins"] or b["divergent_exits"]):
                fail(f"{k['name']}: uniform branch in ^{b['block']} has joins")
        for i, c in enumerate(k["cycles"]):
            if c["id"] != i or c["header"] != c["entries"][0] or c["reducible"] != (len(c["entries"]) == 1):
                fail(f"{k['name']}: cycle {c}")
            if c["parent"] is not None and not set(c["blocks"]) <= set(k["cycles"][c["parent"]]["blocks"]):
                fail(f"{k['name']}: cycle {i} is not inside its parent")
        for c in k["assumed_divergent_cycles"] + k["divergent_exit_cycles"]:
            if not 0 <= c < ncycles:
                fail(f"{k['name']}: unknown cycle {c}")
        for t in k["temporal_divergence"]:
            if t["value"] not in values or t["user_block"] not in blocks:
                fail(f"{k['name']}: temporal {t}")
    if not args:
        return
    k = kernels.get(args[0]) or fail(f"no kernel {args[0]!r}")
    values = {v["name"]: v for v in k["values"]}
    for name in want.get("divergent", []):
        if not values.get(name, {}).get("divergent"):
            fail(f"%{name} should be divergent")
    for name in want.get("uniform", []):
        if name not in values or values[name]["divergent"]:
            fail(f"%{name} should be uniform")
    branches = {b["block"]: b for b in k["branches"]}
    got = sorted(b for b, x in branches.items() if x["divergent"])
    if "divergent_branches" in want and got != sorted(want["divergent_branches"]):
        fail(f"divergent branches are {got}")
    for pair in want.get("joins", []):
        br, _, join = pair.partition(":")
        if join not in branches.get(br, {}).get("joins", []):
            fail(f"^{join} should be a join of the branch in ^{br}")
    if "temporal" in want:
        got = sorted({t["value"] for t in k["temporal_divergence"]})
        if got != sorted(want["temporal"]):
            fail(f"temporally divergent values are {got}")
    for key in ("assumed_divergent", "divergent_exit"):
        if key in want:
            got = sorted(k["cycles"][c]["header"] for c in k[key + "_cycles"])
            if got != sorted(want[key]):
                fail(f"{key} cycles have headers {got}")


main()
