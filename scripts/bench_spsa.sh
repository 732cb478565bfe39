#!/usr/bin/env bash
# The SPSA benchmark of docs/spsa.md: iterations per second and CPU time of `arbiter spsa` with the built-in
# engine in-process against the same engine over UCI (`arbiter uci` as an external process), interleaved, two
# runs each. Run from the project root after `cargo build --release`; writes into ${OUT:-/tmp/bench-spsa}.
set -euo pipefail
root=$(pwd)
out=${OUT:-/tmp/bench-spsa}
mkdir -p "$out"
arbiter="$root/target/release/arbiter"
printf 'material[1], int, 150, 50, 600, 20, 0.01\nmaterial[3], int, 300, 100, 900, 30, 0.01\n' > "$out/p.txt"
for i in 1 2; do
  for kind in inproc uci; do
    if [ "$kind" = inproc ]; then engine="name=seed"; else engine="name=seed,cmd=$arbiter,args=uci"; fi
    rm -rf "$out/run-$kind-$i"
    /usr/bin/time -f "$kind run $i: wall %e s, CPU user %U s + system %S s (engine processes included)" \
      "$arbiter" spsa --engine "$engine" --params "$out/p.txt" --iterations 60 --pairs-per-iteration 4 \
      --nodes 1000 --concurrency 2 --out "$out/run-$kind-$i" --openings "$root/suites/openings/arbiter-book.epd" \
      > "$out/$kind-$i.txt" 2> "$out/$kind-$i.err"
    tail -1 "$out/$kind-$i.err"
    grep "iterations/s" "$out/$kind-$i.txt"
  done
done
