#!/usr/bin/env python3
"""Reads the stdout of `arbiter fastchess` / `arbiter cutechess` as the fishtest and OpenBench workers read
fastchess's and cutechess-cli's, with the same patterns, and prints what each worker would report as JSON.

The patterns are those of fishtest `worker/games.py` (`parse_fastchess_output`: the `Games: ... Points:` and
`Ptnml(0-2): [...]` lines of the fastchess block, `has CRC32:`, `Finished match`, "disconnect"/"stall" and
"on time"/"timeout" in a line) and of OpenBench `Client/worker.py` (`MatchRunner.update_results`: the word after
the `):` of a `Finished game N (A vs B): RESULT {reason}` line, games 2k-1 and 2k making a pair, pentanomial
from the first engine's view). This is an independent implementation of those rules, written for this test.

usage: worker_patterns.py STDOUT_FILE
"""

import json
import re
import sys

WLD = re.compile(r"Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \(")
PTNML = re.compile(r"Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]")
SCORE = {"0-1": 0, "1/2-1/2": 1, "1-0": 2}


def fishtest(lines):
    out = {"crashes": 0, "time_losses": 0, "finished_match": False, "crc": None, "blocks": []}
    wld = ptnml = None
    for line in lines:
        if "has CRC32:" in line:
            out["crc"] = line.split()[-1]
        if "Finished match" in line:
            out["finished_match"] = True
        if "disconnect" in line or "stall" in line:
            out["crashes"] += 1
        if "on time" in line or "timeout" in line:
            out["time_losses"] += 1
        m = WLD.search(line)
        if m:
            wld = [int(m.group(i)) for i in range(1, 5)]
        m = PTNML.search(line)
        if m:
            ptnml = [int(m.group(i)) for i in range(1, 6)]
        if wld is not None and ptnml is not None:
            # The worker asserts that a block's games are the games of its pairs.
            assert wld[0] == 2 * sum(ptnml), (wld, ptnml)
            assert wld[0] == wld[1] + wld[2] + wld[3], wld
            out["blocks"].append({"games": wld[0], "wins": wld[1], "losses": wld[2], "draws": wld[3], "ptnml": ptnml})
            wld = ptnml = None
    return out


def openbench(lines):
    games = {}
    out = {"pentanomial": [0] * 5, "trinomial": [0] * 3, "crashes": 0, "timelosses": 0, "illegals": 0, "finished": 0}
    for line in lines:
        if "Finished game" not in line:
            continue
        reason = line.split(":")[1]
        out["crashes"] += "disconnect" in reason or "stalls" in reason
        out["timelosses"] += "on time" in reason
        out["illegals"] += "illegal" in reason
        tokens = line.split()
        number, result = int(tokens[2]), tokens[6]
        games[number] = result
        out["finished"] += 1
        first, second = (number, number + 1) if number % 2 else (number - 1, number)
        if first in games and second in games:
            r1, r2 = SCORE[games.pop(first)], SCORE[games.pop(second)]
            out["pentanomial"][r1 + 2 - r2] += 1
            out["trinomial"][r1] += 1
            out["trinomial"][2 - r2] += 1
    out["unpaired"] = len(games)
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    print(json.dumps({"fishtest": fishtest(lines), "openbench": openbench(lines)}))


if __name__ == "__main__":
    main()
