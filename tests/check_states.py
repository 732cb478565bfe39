"""Positions for the differential test of impossible checks (tests/integration/fen.rs::impossible_checks_match_python_chess).

Prints one line per position, `KIND<TAB>FEN`, from a fixed seed:
- `reached`: a position in check reached by legal play in a random game (standard and Chess960, moves that give
  check preferred so that double checks, promotions, en passant and castling checks occur); every one must be
  accepted.
- `impossible`: a random placement that python-chess's Board.status() refuses only for its check state
  (STATUS_TOO_MANY_CHECKERS or STATUS_IMPOSSIBLE_CHECK); every one must be refused.
- `valid`: a random placement in check that python-chess's status() finds valid; Arbiter may refuse some of
  them (its rule is stricter: two knights, for example), and the test reports how many.
Exit code 3 when python-chess is missing.
"""

import random
import sys

try:
    import chess
except ImportError:
    print("python-chess is missing: pip install chess", file=sys.stderr)
    sys.exit(3)

rng = random.Random(15)
CHECK_BITS = chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK


def reached(games, chess960):
    for _ in range(games):
        if chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        for _ in range(160):
            moves = list(board.legal_moves)
            if not moves:
                break
            checking = [m for m in moves if board.gives_check(m)]
            pool = checking if checking and rng.random() < 0.5 else moves
            board.push(rng.choice(pool))
            if board.is_check():
                fen = board.shredder_fen() if chess960 else board.fen()
                print(f"reached{'960' if chess960 else ''}\t{fen}")


def placements(count):
    pieces = "PNBRQpnbrq"
    made = 0
    while made < count:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + rng.randrange(2, 7))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:]:
            board.set_piece_at(sq, chess.Piece.from_symbol(rng.choice(pieces)))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not board.is_check():
            continue
        status = board.status()
        if status & ~CHECK_BITS:
            continue
        made += 1
        print(f"{'impossible' if status & CHECK_BITS else 'valid'}\t{board.fen()}")


reached(100, False)
reached(40, True)
placements(3000)
