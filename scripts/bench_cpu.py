#!/usr/bin/env python3
"""The shipped binary, a native build and the generic code path side by side, in one run (a benchmark, not a
test; docs/benchmarks.md, "Code paths").

Builds `target/release/arbiter` (what `cargo install --path .` ships: generic x86-64 plus the run-time chosen
x86-64-v3 path) and the same source with `-C target-cpu=native` into `target/native`, then times, interleaved
(A B C, A B C, ...), single thread:
  - perft of the start position at depth 6 and of Kiwipete at depth 5 (`arbiter perft --threads 1`; the time
    Arbiter prints, which leaves out the start-up);
  - `arbiter bench` (nps as printed, and the process's CPU time);
  - a match's games per second (`arbiter match`, seed against itself at 1000 nodes, concurrency 1);
for the shipped binary, the native build, and the shipped binary with ARBITER_CPU=generic. Every node count and
bench signature must agree. With --cozy, also `cargo bench --bench movegen` built native (Arbiter's and
cozy-chess's move generators in one process, on the same positions).

Usage: python3 scripts/bench_cpu.py [--runs N] [--cozy] [--games N]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def build(native):
    env = dict(os.environ)
    args = ["cargo", "build", "--release", "--bin", "arbiter", "-q"]
    if native:
        env["RUSTFLAGS"] = "-C target-cpu=native"
        args += ["--target-dir", os.path.join(ROOT, "target", "native")]
        out = os.path.join(ROOT, "target", "native", "release", "arbiter")
    else:
        env.pop("RUSTFLAGS", None)
        out = os.path.join(ROOT, "target", "release", "arbiter")
    subprocess.run(args, cwd=ROOT, env=env, check=True)
    return out


def cpu_of(cmd, env):
    before = os.times()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True, cwd=ROOT)
    after = os.times()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return proc.stdout, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--cozy", action="store_true")
    args = ap.parse_args()

    shipped = build(False)
    native = build(True)
    base = {k: v for k, v in os.environ.items() if k != "ARBITER_CPU"}
    subjects = [
        ("shipped", shipped, base),
        ("native", native, base),
        ("generic path", shipped, dict(base, ARBITER_CPU="generic")),
    ]
    for name, binary, env in subjects:
        version = subprocess.run([binary, "--version"], env=env, capture_output=True, text=True).stdout.strip()
        print(f"{name:13s} {version}")

    tasks = [
        ("perft startpos d6", ["perft", "--depth", "6", "--threads", "1"]),
        ("perft kiwipete d5", ["perft", "--fen", KIWIPETE, "--depth", "5", "--threads", "1"]),
        ("bench", ["bench"]),
    ]
    # results[task][subject] = list of (seconds, count)
    results = {t: {s[0]: [] for s in subjects} for t, _ in tasks + [("match", None)]}
    games = args.games
    tmp = tempfile.mkdtemp(prefix="bench-cpu-")
    for run in range(args.runs):
        for task, words in tasks:
            for name, binary, env in subjects:
                out, cpu = cpu_of([binary] + words, env)
                if task.startswith("perft"):
                    m = re.search(r"nodes (\d+) time ([0-9.]+)s", out)
                    results[task][name].append((float(m.group(2)), int(m.group(1))))
                else:
                    m = re.search(r"(\d+) nodes (\d+) nps", out)
                    results[task][name].append((cpu, int(m.group(1)), int(m.group(2))))
        for name, binary, env in subjects:
            folder = os.path.join(tmp, f"{run}-{name.replace(' ', '-')}")
            cmd = [binary, "match", "--engine", "name=a,config=configs/seed.toml", "--engine",
                   "name=b,config=configs/seed.toml", "--nodes", "1000",
                   "--games", str(games), "--concurrency", "1", "--openings",
                   os.path.join(ROOT, "..", "shared", "suites", "openings", "2moves_v1.epd"), "--out", folder]
            start = os.times().elapsed
            out, cpu = cpu_of(cmd, env)
            wall = os.times().elapsed - start
            csv = open(os.path.join(folder, "games.csv")).read().splitlines()
            results["match"][name].append((wall, len(csv) - 1, cpu))
    shutil.rmtree(tmp, ignore_errors=True)

    print(f"\nmedians of {args.runs} interleaved runs, single thread")
    print(f"| | {' | '.join(s[0] for s in subjects)} | native / shipped |")
    print("|---|" + "---:|" * (len(subjects) + 1))
    for task, _ in tasks:
        row = results[task]
        counts = {r[1] for rs in row.values() for r in rs}
        if len(counts) != 1:
            sys.exit(f"{task}: the node counts differ: {sorted(counts)}")
        if task.startswith("perft"):
            med = {s: statistics.median(r[0] for r in row[s]) for s in row}
            nodes = next(iter(counts))
            cells = [f"{med[s]:.3f} s ({nodes / med[s] / 1e6:.0f} Mnps)" for s, _, _ in subjects]
            ratio = med["shipped"] / med["native"]
        else:
            med = {s: statistics.median(r[2] for r in row[s]) for s in row}
            cpu = {s: statistics.median(r[0] for r in row[s]) for s in row}
            cells = [f"{med[s] / 1e6:.2f} M nps ({cpu[s]:.3f} s CPU)" for s, _, _ in subjects]
            ratio = med["native"] / med["shipped"]
        print(f"| {task} ({counts.pop():,} nodes) | {' | '.join(cells)} | {ratio:.3f} |")
    row = results["match"]
    gps = {s: statistics.median(r[1] / r[0] for r in row[s]) for s in row}
    cells = [f"{gps[s]:.2f} games/s" for s, _, _ in subjects]
    print(f"| match, {games} games at 1000 nodes | {' | '.join(cells)} | {gps['native'] / gps['shipped']:.3f} |")

    if args.cozy:
        env = dict(base, RUSTFLAGS="-C target-cpu=native")
        print("\ncargo bench --bench movegen, built with -C target-cpu=native (Arbiter and cozy-chess, one process):")
        subprocess.run(["cargo", "bench", "-q", "--bench", "movegen", "--target-dir",
                        os.path.join(ROOT, "target", "native"), "--", "--runs", str(args.runs), "bulk"],
                       cwd=ROOT, env=env, check=True)


if __name__ == "__main__":
    main()
