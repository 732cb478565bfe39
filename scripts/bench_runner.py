#!/usr/bin/env python3
"""The runner's own CPU per ply: Arbiter against fastchess, the same games, in one run (a benchmark, not a test;
docs/benchmarks.md, "Matches").

Plays the same match with both runners, interleaved (Arbiter, fastchess, Arbiter, fastchess, ...): `arbiter uci`
against itself at a fixed number of nodes per move, openings from an EPD file in order, each opening with both
colours. Fixed nodes make the games the same in both runners; the script checks that they are (the same set of
start positions and move lists) before it prints anything.

What is timed is the runner process's own CPU (user + system), not its engines': the runner is left a zombie
after it exits (waitid with WNOWAIT), its utime and stime read from /proc/PID/stat, then it is reaped. A
runner's CPU therefore includes its start-up, reading the openings and writing its PGN and reports.

fastchess is not part of Arbiter or its tests: build it from its public sources (github.com/Disservin/fastchess,
`make -j` in its root, which builds with -march=native) and pass its path.

Usage: python3 scripts/bench_runner.py --fastchess PATH [--runs N] [--games N] [--nodes N] [--concurrency N]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = os.path.join(ROOT, "..", "shared", "suites", "openings", "2moves_v1.epd")


def own_cpu(cmd, cwd):
    """Runs cmd in cwd (its output into cwd/runner.log); returns the process's own CPU seconds, its children's
    left out (utime and stime of /proc/PID/stat, read while it is a zombie)."""
    with open(os.path.join(cwd, "runner.log"), "w") as log:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        rc = proc.wait()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    if rc != 0:
        sys.exit(f"{' '.join(cmd)} failed ({rc}); see {cwd}/runner.log")
    return cpu


def games_of(pgn_path):
    """The games of a PGN file as (start FEN, moves) pairs: SAN tokens without numbers, comments or results."""
    text = open(pgn_path).read()
    games = []
    for block in re.split(r"\n(?=\[Event )", text.strip()):
        fen = re.search(r'\[FEN "([^"]*)"\]', block)
        body = "\n".join(line for line in block.splitlines() if not line.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        body = re.sub(r"\([^)]*\)", " ", body)
        moves = [t for t in body.split() if not re.match(r"^\d+\.+$|^(1-0|0-1|1/2-1/2|\*)$", t)]
        moves = [re.sub(r"^\d+\.+", "", m) for m in moves]
        games.append((fen.group(1) if fen else "startpos", tuple(m for m in moves if m)))
    return games


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fastchess", required=True, help="a fastchess binary built from its sources")
    ap.add_argument("--arbiter", default=os.path.join(ROOT, "target", "release", "arbiter"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=60, help="games per match (even)")
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default=OPENINGS)
    args = ap.parse_args()
    if args.games % 2:
        sys.exit("--games must be even (each opening is played with both colours)")
    arbiter = os.path.abspath(args.arbiter)
    openings = os.path.abspath(args.openings)
    version = subprocess.run([arbiter, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"runner: {version}; fastchess: {args.fastchess}")
    print(f"{args.games} games of `arbiter uci` against itself at {args.nodes} nodes, concurrency "
          f"{args.concurrency}, openings {os.path.basename(openings)} in order, {args.runs} runs interleaved")

    def arbiter_cmd(out):
        engine = f"cmd={arbiter},args=uci"
        return [arbiter, "match", "--engine", f"name=a,{engine}", "--engine", f"name=b,{engine}",
                "--nodes", str(args.nodes), "--games", str(args.games), "--concurrency", str(args.concurrency),
                "--openings", openings, "--order", "sequential", "--out", out]

    def fastchess_cmd(out):
        return [args.fastchess, "-engine", f"cmd={arbiter}", "args=uci", "name=a",
                "-engine", f"cmd={arbiter}", "args=uci", "name=b",
                "-each", "tc=inf", f"nodes={args.nodes}", "-rounds", str(args.games // 2), "-games", "2",
                "-repeat", "-concurrency", str(args.concurrency),
                "-openings", f"file={openings}", "format=epd", "order=sequential",
                "-pgnout", f"file={os.path.join(out, 'games.pgn')}", "notation=san"]

    cpu = {"arbiter": [], "fastchess": []}
    plies = {}
    games = {}
    with tempfile.TemporaryDirectory(prefix="bench-runner-") as tmp:
        for run in range(args.runs):
            for name, make in (("arbiter", arbiter_cmd), ("fastchess", fastchess_cmd)):
                work = os.path.join(tmp, f"{name}-{run}")
                os.makedirs(work)
                cpu[name].append(own_cpu(make(work), work))
                played = games_of(os.path.join(work, "games.pgn"))
                if len(played) != args.games:
                    sys.exit(f"{name} run {run}: {len(played)} games in its PGN, expected {args.games}")
                plies[name] = sum(len(moves) for _, moves in played)
                games.setdefault(name, sorted(played))
                if sorted(played) != games[name]:
                    sys.exit(f"{name} run {run}: the games differ from its first run")
    if games["arbiter"] != games["fastchess"]:
        sys.exit("the two runners played different games; the comparison would not be fair")
    n = plies["arbiter"]
    print(f"{n} plies, the same games in both runners\n")
    print(f"{'runner':10s} {'own CPU median':>15s} {'min':>7s} {'max':>7s} {'per ply (median)':>17s}")
    medians = {}
    for name, times in cpu.items():
        medians[name] = statistics.median(times)
        print(f"{name:10s} {medians[name]:13.2f} s {min(times):6.2f}s {max(times):6.2f}s "
              f"{1e6 * medians[name] / n:13.1f} us")
    print(f"\nArbiter / fastchess: {medians['arbiter'] / medians['fastchess']:.2f}x")


if __name__ == "__main__":
    main()
