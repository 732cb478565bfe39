#!/usr/bin/env python3
"""Checks the tablebase adjudications of a games.pgn with python-chess's own Syzygy prober.

Usage: syzygy_games.py TABLE_DIR GAMES_PGN [--ignore50]

Every game whose Termination is "adjudication: tablebase" is replayed to its last position, which is probed
with chess.syzygy; the result the tables give there under the rule of docs/tablebases.md (the 50-move rule
from the position's halfmove clock, or none with --ignore50) must be the game's Result, and the last move's
comment must say "tablebase adjudication". Prints one line per adjudicated game ("RESULT WDL DTZ CLOCK") and
a count; exits 1 on the first disagreement.
"""

import sys

import chess
import chess.pgn
import chess.syzygy


def expected(wdl, dtz, clock, ignore50, white_to_move):
    """The result string the rule gives, or None where it leaves the game open."""
    def mover(sign):
        if sign == 0:
            return "1/2-1/2"
        wins = sign > 0
        return "1-0" if wins == white_to_move else "0-1"

    if ignore50:
        return mover((wdl > 0) - (wdl < 0))
    if wdl in (-1, 0, 1):
        return "1/2-1/2"
    if clock == 0:
        return mover(wdl)
    reach = clock + abs(dtz)
    if reach <= 99:
        return mover(wdl)
    if reach >= 101:
        return "1/2-1/2"
    return None


def main():
    folder, path = sys.argv[1], sys.argv[2]
    ignore50 = "--ignore50" in sys.argv[3:]
    count = 0
    with chess.syzygy.open_tablebase(folder) as tables, open(path, encoding="utf-8") as pgn:
        while True:
            game = chess.pgn.read_game(pgn)
            if game is None:
                break
            if game.headers.get("Termination") != "adjudication: tablebase":
                continue
            board = game.end().board()
            wdl, dtz = tables.probe_wdl(board), tables.probe_dtz(board)
            want = expected(wdl, dtz, board.halfmove_clock, ignore50, board.turn == chess.WHITE)
            got = game.headers["Result"]
            comment = game.end().comment
            print(got, wdl, dtz, board.halfmove_clock)
            if want != got or "tablebase adjudication" not in comment:
                print(f"disagreement at {board.fen()}: the tables give {want}, the game says {got} ({comment!r})")
                sys.exit(1)
            count += 1
    print(f"{count} adjudicated games agree")


if __name__ == "__main__":
    main()
