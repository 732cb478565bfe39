#!/usr/bin/env bash
# The cost of the shared SPRT's check (docs/scale.md): a run of N shard folders holding G games in all (synthetic
# games.csv rows in the real format, run.toml from a real shard), read as a shard reads its siblings:
# `arbiter status RUN --timing 100` prints the first full read and the cost of a check with nothing new.
# Run from the project root after `cargo build --release`; writes into ${OUT:-/tmp/bench-shards}.
set -euo pipefail
root=$(pwd)
arbiter="$root/target/release/arbiter"
out=${OUT:-/tmp/bench-shards}
for shards in ${SHARDS:-4 16 64}; do
  for total in ${GAMES:-10000 100000 1000000}; do
    run="$out/run-$shards-$total"
    rm -rf "$run" && mkdir -p "$run"
    # One real shard of the schedule gives the run.toml every shard shares (only the index differs).
    "$arbiter" match --engine name=seed --engine name=nomob --depth 1 --games "$total" --sprt elo0=0,elo1=10 \
      --shard "1/$shards" --out "$run/template" --concurrency 1 > /dev/null 2>&1 &
    pid=$!
    while [ ! -s "$run/template/run.toml" ]; do sleep 0.05; done
    kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    python3 - "$run" "$shards" "$total" <<'PY'
import os, random, sys
run, shards, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
template = open(os.path.join(run, "template", "run.toml")).read()
fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
rng = random.Random(1)
pairs = total // 2
for i in range(1, shards + 1):
    d = os.path.join(run, f"shard-{i}")
    os.makedirs(d)
    open(os.path.join(d, "run.toml"), "w").write(template.replace(f'shard = "1/{shards}"', f'shard = "{i}/{shards}"'))
    with open(os.path.join(d, "games.csv"), "w") as f:
        f.write("pair,game,opening,white,black,result,termination,plies,start_fen\n")
        for k in range(i - 1, pairs, shards):
            for g, (w, b) in enumerate((("seed", "nomob"), ("nomob", "seed"))):
                r = rng.choice(("1-0", "0-1", "1/2-1/2"))
                f.write(f"{k},{g},{k % 2000 + 1},{w},{b},{r},checkmate,80,{fen}\n")
PY
    rm -rf "$run/template"
    echo "== $shards shards, $total games"
    "$arbiter" status "$run" --timing 100 | grep -E "^timing|^combined"
  done
done
