#!/usr/bin/env python3
"""(Re)generate the CHECK/SUM lines of a uniformity filetest from kc's current output.

Every kernel `kernel.func @k { ... }` in the file gets, right after its closing brace:
  SUM-LABEL/SUM-NEXT lines pinning its summary header, and
  CHECK-LABEL/CHECK-NEXT lines pinning every line of its annotated body.
Existing generated lines (// CHECK..., // SUM...) are dropped first; other comments stay.
Use only after confirming the verdicts (uniformity_vs_llvm.py against opt-22, and the
document): this pins kc's current output.
Usage: tests/tools/update_uniformity_checks.py FILE.mlir...
"""
import re, subprocess, sys

import os
KC = os.environ.get("KC") or os.path.join(
    os.environ.get("CARGO_TARGET_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target"),
    "debug", "kc")

def main(path):
    src = open(path).read().splitlines()
    src = [l for l in src if not re.match(r"\s*// (CHECK|SUM)(-[A-Z]+)?:", l)]
    out = subprocess.run([KC, path, "--emit=uniformity", "--no-locs"], capture_output=True, text=True, check=True).stdout.splitlines()
    summaries, bodies = {}, {}
    cur = None
    for l in out:
        m = re.match(r"// uniformity of @(\S+):$", l)
        if m:
            cur = m.group(1)
            summaries[cur] = [l]
            continue
        if l.startswith("//") and cur and cur not in bodies:
            summaries[cur].append(l)
    cur = None
    for l in out:
        m = re.match(r"\s*kernel\.func @(\S+) \{", l)
        if m:
            cur = m.group(1)
            bodies[cur] = [l.strip()]
            continue
        if cur:
            if l == "  }":
                bodies[cur].append("}")
                cur = None
            else:
                bodies[cur].append(l.strip())
    res = []
    cur = None
    for l in src:
        res.append(l)
        m = re.match(r"kernel\.func @(\S+) \{", l.strip())
        if m:
            cur = m.group(1)
        if l.rstrip() == "}" and cur:
            s = summaries[cur]
            first = cur == list(summaries)[0]
            last = cur == list(summaries)[-1]
            res.append(f"// SUM-LABEL: {s[0]}" if first else f"// SUM-NEXT:  {s[0]}")
            res += [f"// SUM-NEXT:  {x}" for x in s[1:]]
            if last:
                res.append("// SUM-NEXT:  module {")
            b = bodies[cur]
            res.append(f"// CHECK-LABEL: {b[0]}")
            res += [f"// CHECK-NEXT:  {x}" for x in b[1:]]
            cur = None
    open(path, "w").write("\n".join(res) + "\n")

for p in sys.argv[1:]:
    main(p)
