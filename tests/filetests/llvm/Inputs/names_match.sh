#!/usr/bin/env bash
# usage: names_match.sh KC FILE
# Checks that every value `kc FILE --emit=opt` defines (block arguments and op results, except
# arith.constant and kernel.wave_size, which LLVM folds into their uses) is defined under the
# same name by `kc FILE --emit=llvm`, with kc's numbered %N spelled %.N. Per kernel.
set -euo pipefail
kc=$1
file=$2
cf=$("$kc" "$file" --emit=opt --no-locs)
ll=$("$kc" "$file" --emit=llvm)
status=0
for k in $(grep -oE '^ *kernel\.func @[A-Za-z0-9_.$-]+' <<<"$cf" | sed 's/.*@//'); do
  body=$(awk -v k="$k" '$1 == "kernel.func" { on = ($2 == "@" k) } on' <<<"$cf")
  want=$( { grep -E '^ *%' <<<"$body" | grep -vE 'arith\.constant|kernel\.wave_size' \
              | sed -E 's/ = .*//; s/[ ,]+/\n/g' | grep '^%' || true
            grep -oE '^ *\^[^(:]+\(.*\):' <<<"$body" | grep -oE '%[^:]+:' | tr -d ':' || true
          } | sed -E 's/^%([0-9]+)$/%.\1/' | sort -u)
  fn=$(awk -v k="$k" '/^define / { on = index($0, "@" k "(") > 0 } on; /^}/ { on = 0 }' <<<"$ll")
  have=$( { grep -oE '^ *%[^ ]+ =' <<<"$fn" | sed -E 's/ =$//; s/^ *//' || true
            head -1 <<<"$fn" | grep -oE '%[^ ,)]+' || true; } | sort -u)
  missing=$(comm -23 <(echo "$want") <(echo "$have"))
  if [ -n "$missing" ]; then
    echo "$file: kernel @$k: kc values without an LLVM value of the same name:" $missing
    status=1
  fi
done
exit $status
