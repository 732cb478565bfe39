"""Reads a file of bullet's text format (`FEN | score | result`, written by `arbiter datagen --format text`)
with python-chess, for tests/integration/datagen_formats.rs.

Prints one tab-separated line per input line: `FEN<TAB>score<TAB>result<TAB>status`, where FEN is python-chess's
own FEN of the parsed board (en passant shown only when a legal capture exists), score the integer read,
result the float read, and status `valid` or python-chess's status flags when `Board.is_valid()` refuses it.
Exit code 1 (with the line number on stderr) on a line that is not three `|`-separated fields, a FEN
python-chess cannot parse, a score that is not an integer or a result other than 1.0, 0.5, 0.0; exit code 3
when python-chess is missing.
"""

import sys

try:
    import chess
except ImportError:
    print("python-chess is missing: pip install chess", file=sys.stderr)
    sys.exit(3)


def fail(number, line, why):
    print(f"{sys.argv[1]}:{number}: {why}: {line!r}", file=sys.stderr)
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="ascii") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            fields = [field.strip() for field in line.split("|")]
            if len(fields) != 3:
                fail(number, line, "expected FEN | score | result")
            fen, score, result = fields
            try:
                board = chess.Board(fen)
            except ValueError as err:
                fail(number, line, f"bad FEN ({err})")
            try:
                score = int(score)
            except ValueError:
                fail(number, line, "score is not an integer")
            if result not in ("1.0", "0.5", "0.0"):
                fail(number, line, "result is not 1.0, 0.5 or 0.0")
            status = "valid" if board.is_valid() else repr(board.status())
            print(f"{board.fen()}\t{score}\t{result}\t{status}")


main()
