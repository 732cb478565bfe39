#!/usr/bin/env python3
"""Random legal positions of every 3- and 4-piece material, probed by python-chess's own Syzygy prober.

Usage: syzygy_reference.py TABLE_DIR PER_MATERIAL SEED > positions.jsonl
       syzygy_reference.py TABLE_DIR --clock-openings COUNT SEED > openings.epd

Each output line is {"fen", "wdl", "dtz", "terminal"}: the WDL and DTZ that chess.syzygy reads for the position
(python-chess's sign convention), and whether the side to move has no legal move (checkmate or stalemate, where
the rules end a game before any probe). Both sides to move appear for every material, and for KPvKP en-passant
positions are added (a pawn that has just advanced two squares beside an enemy pawn), with the capture legal
or not. tests/integration/tablebase.rs compares `arbiter tb` with these answers.

With --clock-openings, it prints COUNT FENs (pawnless, 3 or 4 pieces) that the side to move wins with a DTZ of n
but at a halfmove clock of 102 - n: the 50-move rule turns the win into a draw, and the side to move has no
capture, so its first move cannot reset the clock.
"""

import json
import random
import sys

import chess
import chess.syzygy

PIECES = "QRBNP"


def materials():
    """KXvK, KXYvK and KXvKY for every piece type X, Y: the 35 tables of the 3- and 4-piece set."""
    out = []
    for a in PIECES:
        out.append(("K" + a, "K"))
    for i, a in enumerate(PIECES):
        for b in PIECES[i:]:
            out.append(("K" + a + b, "K"))
    for i, a in enumerate(PIECES):
        for b in PIECES[i:]:
            out.append(("K" + a, "K" + b))
    return out


def place(rng, white, black, turn):
    """A random legal position with these pieces, or None after many tries."""
    for _ in range(1000):
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for sq, (letter, color) in zip(squares, [(c, chess.WHITE) for c in white] + [(c, chess.BLACK) for c in black]):
            piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
            if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                ok = False
                break
            board.set_piece_at(sq, piece)
        if not ok:
            continue
        board.turn = turn
        # A double check is refused by Arbiter's FEN reader when no single move could have given it; leave
        # double checks out rather than tell the two kinds apart here.
        if board.is_valid() and len(board.checkers()) < 2:
            return board
    return None


def en_passant(rng):
    """A KPvKP position right after a double pawn push beside an enemy pawn, so that e.p. may be captured."""
    for _ in range(1000):
        board = chess.Board(None)
        file = rng.randrange(8)
        side = rng.choice([-1, 1])
        if not 0 <= file + side < 8:
            continue
        if rng.random() < 0.5:
            # Black has just played a pawn from rank 7 to rank 5; White's pawn on rank 5 beside it.
            board.set_piece_at(chess.square(file, 4), chess.Piece(chess.PAWN, chess.BLACK))
            board.set_piece_at(chess.square(file + side, 4), chess.Piece(chess.PAWN, chess.WHITE))
            board.turn = chess.WHITE
            board.ep_square = chess.square(file, 5)
        else:
            board.set_piece_at(chess.square(file, 3), chess.Piece(chess.PAWN, chess.WHITE))
            board.set_piece_at(chess.square(file + side, 3), chess.Piece(chess.PAWN, chess.BLACK))
            board.turn = chess.BLACK
            board.ep_square = chess.square(file, 2)
        free = [sq for sq in range(64) if board.piece_at(sq) is None and sq != board.ep_square]
        wk, bk = rng.sample(free, 2)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        # The squares the pawn passed over must be empty.
        behind = board.ep_square + (8 if board.turn == chess.WHITE else -8)
        if board.piece_at(behind) is not None:
            continue
        if board.is_valid():
            return board
    return None


def clock_openings(folder, count, seed):
    rng = random.Random(seed)
    materials = [("KQ", "K"), ("KR", "K"), ("KQ", "KR"), ("KQ", "KN"), ("KQ", "KB"), ("KR", "KN")]
    found = []
    with chess.syzygy.open_tablebase(folder) as tables:
        while len(found) < count:
            white, black = rng.choice(materials)
            board = place(rng, white, black, rng.choice([chess.WHITE, chess.BLACK]))
            if board is None or board.is_check() or any(board.generate_legal_captures()):
                continue
            if tables.probe_wdl(board) != 2:
                continue
            n = tables.probe_dtz(board)
            if not 12 <= n <= 60:
                continue
            board.halfmove_clock = 102 - n
            found.append(board.fen())
    print("\n".join(found))


def main():
    if sys.argv[2] == "--clock-openings":
        clock_openings(sys.argv[1], int(sys.argv[3]), int(sys.argv[4]))
        return
    folder, per_material, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    boards = []
    for white, black in materials():
        for i in range(per_material):
            turn = chess.WHITE if i % 2 == 0 else chess.BLACK
            board = place(rng, white, black, turn)
            if board is not None:
                boards.append(board)
    for _ in range(per_material * 4):
        board = en_passant(rng)
        if board is not None:
            boards.append(board)
    with chess.syzygy.open_tablebase(folder) as tables:
        for board in boards:
            terminal = not any(board.legal_moves)
            line = {
                "fen": board.fen(en_passant="fen"),
                "wdl": tables.probe_wdl(board),
                "dtz": tables.probe_dtz(board),
                "terminal": terminal,
                "ep": board.ep_square is not None,
            }
            print(json.dumps(line))


if __name__ == "__main__":
    main()
