#!/usr/bin/env python3
"""Checks a run of the Slurm job-array recipe (docs/resume-and-shards.md, "Slurm") after scripts/test-slurm.sh has
run it, and prints the figures issue 19 asks for.

Reads, in the submit folder WORK: shards.sbatch (the number of shards and games), results/run/shard-I/ (each
shard's games.csv), results/run/decision.toml (written once when the combined SPRT decides),
results/logs/shard-I.log (the lines the recipe prints at each task's start and exit) and results/logs/merge.log.
Checks that every shard folder exists and records no game twice; that the requeued shard was restarted, resumed its
folder and kept every game it had recorded; that the decision file exists and its LLR is past the bound it names;
that every shard played fewer pairs than its part and ended with exit 0; that the merge succeeded, kept every game
and shows the decision of decision.toml; and that a shard resumed after the decision exits 0 at once without a
game.
Prints the games per shard, the decision (the pair count of the run at which the combined LLR crossed), the time
from the decision to the last shard's exit, and the merge's report. Exit 0 when every check holds, 1 otherwise.
"""
import argparse
import csv
import datetime
import pathlib
import re
import subprocess
import sys
import tomllib

failures = []


def check(ok: bool, what: str) -> bool:
    print(("ok      " if ok else "FAILED  ") + what)
    if not ok:
        failures.append(what)
    return ok


def recipe_numbers(sbatch: pathlib.Path) -> tuple[int, int]:
    """The shard count (`--array=1-N`) and the run's games (`--games N`) of the recipe."""
    text = sbatch.read_text(encoding="utf-8")
    array = re.search(r"^#SBATCH --array=1-(\d+)\s*$", text, re.M)
    games = re.search(r"--games (\d+)", text)
    if not array or not games:
        sys.exit(f"{sbatch}: no `#SBATCH --array=1-N` or no `--games N` in the recipe")
    return int(array.group(1)), int(games.group(1))


def read_games(path: pathlib.Path) -> list[dict]:
    """The rows of a games.csv, each a dict by its header."""
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def complete_lines(path: pathlib.Path) -> list[str]:
    """The lines of a file that end with a newline (a row being written when it was copied is left out)."""
    text = path.read_text(encoding="utf-8")
    return text.split("\n")[:-1]


def task_log(path: pathlib.Path) -> dict:
    """What the recipe's own lines in a task's log say: the starts, the resumes, and each exit with its time."""
    log = {"starts": 0, "resumes": 0, "exits": [], "requeue_notes": 0, "text": ""}
    if not path.exists():
        return log
    text = path.read_text(encoding="utf-8", errors="replace")
    log["text"] = text
    for line in text.splitlines():
        if re.match(r"shard \d+: start ", line):
            log["starts"] += 1
        elif re.match(r"shard \d+: resuming ", line):
            log["resumes"] += 1
        elif m := re.match(r"shard \d+: exit (\d+) end ([0-9.]+)", line):
            log["exits"].append((int(m.group(1)), float(m.group(2))))
        if "DUE TO JOB REQUEUE" in line:
            log["requeue_notes"] += 1
    return log


def epoch(value) -> float | None:
    """Seconds since the epoch of decision.toml's time: a TOML date-time, or UTC text such as ISO 8601."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return value.timestamp()
    if isinstance(value, str):
        try:
            parsed = datetime.datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace(" UTC", "+00:00"))
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=datetime.timezone.utc)
            return parsed.timestamp()
        except ValueError:
            out = subprocess.run(["date", "-u", "-d", value, "+%s.%N"], capture_output=True, text=True)
            if out.returncode == 0:
                return float(out.stdout)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=pathlib.Path, required=True, help="the submit folder")
    parser.add_argument("--requeued-shard", type=int, required=True)
    parser.add_argument("--requeued", type=pathlib.Path, required=True, help="what the test noted at the requeue")
    parser.add_argument("--requeued-csv", type=pathlib.Path, required=True, help="its games.csv at the requeue")
    parser.add_argument("--merge-exit", required=True, help="the merge job's ExitCode (scontrol), e.g. 0:0")
    parser.add_argument("--arbiter", required=True, help="the arbiter binary the jobs ran")
    args = parser.parse_args()

    run = args.work / "results" / "run"
    logs = args.work / "results" / "logs"
    shards, games = recipe_numbers(args.work / "shards.sbatch")
    part_pairs = games // 2 // shards

    # The shard folders and their games.
    rows, logs_by_shard = {}, {}
    for i in range(1, shards + 1):
        folder = run / f"shard-{i}"
        if not check((folder / "run.toml").is_file() and (folder / "games.csv").is_file(),
                     f"shard {i}: {folder} holds run.toml and games.csv"):
            continue
        rows[i] = read_games(folder / "games.csv")
        numbers = [r["game"] for r in rows[i]]
        twice = sorted({n for n in numbers if numbers.count(n) > 1}, key=int)
        check(not twice, f"shard {i}: no game twice in games.csv" + (f" (twice: {twice[:10]})" if twice else ""))
        logs_by_shard[i] = task_log(logs / f"shard-{i}.log")

    # The requeued shard: restarted, resumed, nothing lost.
    q = args.requeued_shard
    noted = dict(line.split(" ", 1) for line in args.requeued.read_text().splitlines() if " " in line)
    log = logs_by_shard.get(q, task_log(logs / f"shard-{q}.log"))
    check(log["starts"] >= 2, f"shard {q}: its log shows {log['starts']} task starts (requeued: at least 2)")
    check(log["resumes"] >= 1, f"shard {q}: its log shows the restarted task resuming its folder")
    before = complete_lines(args.requeued_csv)
    after = set(complete_lines(run / f"shard-{q}" / "games.csv")) if q in rows else set()
    lost = [line for line in before if line not in after]
    check(not lost, f"shard {q}: all {max(len(before) - 1, 0)} games recorded at the requeue are kept"
          + (f" (lost: {lost[:3]})" if lost else ""))

    # The decision file.
    decision_path = run / "decision.toml"
    decision = None
    if check(decision_path.is_file(), f"{decision_path} exists (the combined SPRT decided)"):
        try:
            decision = tomllib.loads(decision_path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            check(False, f"{decision_path} is TOML ({e})")
    if decision is not None:
        verdict = decision.get("decision")
        check(verdict in ("H1 accepted", "H0 accepted"), f"decision.toml: decision = {verdict!r}")
        llr, lower, upper = decision.get("llr"), decision.get("lower"), decision.get("upper")
        if check(all(isinstance(x, (int, float)) for x in (llr, lower, upper)),
                 f"decision.toml: llr {llr}, lower {lower}, upper {upper} are numbers"):
            past = llr >= upper if verdict == "H1 accepted" else llr <= lower
            check(past, f"decision.toml: the LLR {llr} is past the bound of {verdict!r}")
        ptnml = decision.get("ptnml")
        check(isinstance(ptnml, list) and len(ptnml) == 5, f"decision.toml: ptnml = {ptnml} (5 counts)")
        pairs = decision.get("pairs")
        check(isinstance(pairs, int) and pairs > 0, f"decision.toml: pairs = {pairs}")
        played = sum(len({r["pair"] for r in rs}) for rs in rows.values())
        if isinstance(pairs, int):
            check(played >= pairs, f"the shards hold {played} pairs, at least the {pairs} the decision counted")

    # Every shard stopped before its part, and ended with exit 0.
    for i in range(1, shards + 1):
        if i in rows:
            n = len({r["pair"] for r in rows[i]})
            check(n < part_pairs, f"shard {i}: {n} pairs played, fewer than its part of {part_pairs}")
        exits = logs_by_shard.get(i, {}).get("exits", [])
        last = f"exit {exits[-1][0]}" if exits else "no exit line"
        check(bool(exits) and exits[-1][0] == 0, f"shard {i}: the task's last run exited 0 ({last})")

    # The merge.
    merge_log = logs / "merge.log"
    merge_text = merge_log.read_text(encoding="utf-8", errors="replace") if merge_log.exists() else ""
    check(args.merge_exit == "0:0", f"the merge job's exit code is {args.merge_exit} (0:0 expected)")
    if decision is not None and decision.get("decision"):
        shown = re.findall(r"^\s*decision\s+(H[01] accepted)", merge_text, re.M)
        check(shown[-1:] == [decision["decision"]],
              f"the merge's summary shows the decision of decision.toml ({decision['decision']!r}; merge: {shown})")
    if (run / "games.csv").is_file():
        merged = {r["game"] for r in read_games(run / "games.csv")}
        recorded = {r["game"] for rs in rows.values() for r in rs}
        check(merged == recorded, f"the merged games.csv holds every game of the shards ({len(merged)} of "
              f"{len(recorded)})")
    else:
        check(False, f"the merge wrote {run / 'games.csv'}")

    # A shard started after the decision: exit 0 at once, no game.
    if decision is not None and 1 in rows:
        before_csv = (run / "shard-1" / "games.csv").read_bytes()
        late = subprocess.run([args.arbiter, "match", "--resume", str(run / "shard-1")], capture_output=True,
                              text=True, timeout=60)
        said = "already decided" in late.stdout + late.stderr
        check(late.returncode == 0 and said and (run / "shard-1" / "games.csv").read_bytes() == before_csv,
              f"a resume after the decision exits 0 (exit {late.returncode}), says the SPRT already decided "
              f"({said}) and plays no game")

    # The figures.
    print("\n== figures")
    print(f"shards {shards}, part {part_pairs} pairs each ({games} games in the run)")
    ends = []
    for i in range(1, shards + 1):
        exits = logs_by_shard.get(i, {}).get("exits", [])
        if exits:
            ends.append(exits[-1][1])
        n_games = len(rows.get(i, []))
        n_pairs = len({r["pair"] for r in rows.get(i, [])})
        runs = logs_by_shard.get(i, {}).get("starts", 0)
        print(f"shard {i}: {n_games} games, {n_pairs} pairs, {runs} task run(s), last exit "
              f"{exits[-1][0] if exits else '?'} at {exits[-1][1] if exits else '?'}")
    print(f"requeue of shard {q}: {noted.get('state', '?')} with {max(len(before) - 1, 0)} games recorded, "
          f"decision written then: {noted.get('decided', '?')}")
    if decision is not None:
        print(f"decision: {decision.get('decision')} after {decision.get('pairs')} pairs of the run, LLR "
              f"{decision.get('llr')} (bounds [{decision.get('lower')}, {decision.get('upper')}]), ptnml "
              f"{decision.get('ptnml')}, at {decision.get('time')}")
        if isinstance(decision.get("shards"), list):
            parts = ", ".join(f"{c.get('folder')} {c.get('games')} games ({c.get('pairs')} pairs)"
                              for c in decision["shards"] if isinstance(c, dict))
            print(f"decision.toml, each shard's games when it was taken (by shard {decision.get('by_shard')}): "
                  f"{parts}")
        other = {k: v for k, v in decision.items()
                 if k not in ("decision", "llr", "lower", "upper", "pairs", "ptnml", "time", "shards", "by_shard")}
        if other:
            print(f"decision.toml, the rest: {other}")
        # decision.toml is written once (a file linked into place), so its mtime is the decision's time to the
        # nanosecond; its `time` text may count whole seconds only.
        written = decision_path.stat().st_mtime_ns / 1e9
        t = epoch(decision.get("time"))
        if ends:
            print(f"from the decision to the last shard's exit: {max(ends) - written:.2f} s (decision.toml's mtime"
                  + (f"; {max(ends) - t:.2f} s by its time text" if t is not None else "") + ")")
            print(f"from the decision to each shard's exit: "
                  + ", ".join(f"{e - written:.2f} s" for e in ends))
        else:
            print("from the decision to the last shard's exit: unknown (no exit line in the shards' logs)")
    print("\n== the merge's report (results/logs/merge.log)")
    print(merge_text.rstrip() or "(empty)")
    print()
    if failures:
        print(f"test-slurm: {len(failures)} check(s) FAILED:", file=sys.stderr)
        for f in failures:
            print(f"  {f}", file=sys.stderr)
        return 1
    print("test-slurm: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
