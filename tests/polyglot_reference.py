#!/usr/bin/env python3
"""python-chess's own Polyglot reader and key, for tests/integration/polyglot.rs.

Usage:
  polyglot_reference.py positions COUNT SEED      random positions of random games (castling rights lost and
                                                  kept, en-passant squares with and without a capturer), one FEN
                                                  per line
  polyglot_reference.py book-positions PGN PLIES  the positions of the first PLIES plies of every game of PGN
  polyglot_reference.py keys FENS                 "FEN<TAB>KEY" per line: chess.polyglot.zobrist_hash in hex
  polyglot_reference.py entries BOOK FENS         one JSON list per line: [uci, weight] of every entry of the
                                                  position, in file order (chess.polyglot.open_reader)
"""

import json
import random
import sys

import chess
import chess.pgn
import chess.polyglot


def positions(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Prefer double pawn pushes now and then, so that en-passant squares are common.
            pushes = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN
                      and abs(m.to_square - m.from_square) == 16]
            board.push(rng.choice(pushes) if pushes and rng.random() < 0.3 else rng.choice(moves))
            if rng.random() < 0.15:
                out.append(board.fen(en_passant="fen"))
    return out[:count]


def main():
    mode = sys.argv[1]
    if mode == "positions":
        print("\n".join(positions(int(sys.argv[2]), int(sys.argv[3]))))
    elif mode == "book-positions":
        plies = int(sys.argv[3])
        seen = set()
        with open(sys.argv[2], encoding="utf-8", errors="replace") as pgn:
            while True:
                game = chess.pgn.read_game(pgn)
                if game is None:
                    break
                board = game.board()
                for i, move in enumerate(game.mainline_moves()):
                    if i >= plies:
                        break
                    fen = board.fen()
                    if fen not in seen:
                        seen.add(fen)
                        print(fen)
                    board.push(move)
    elif mode == "keys":
        for fen in open(sys.argv[2]).read().split("\n"):
            if fen:
                print(f"{fen}\t{chess.polyglot.zobrist_hash(chess.Board(fen)):016x}")
    elif mode == "entries":
        with chess.polyglot.open_reader(sys.argv[2]) as book:
            for fen in open(sys.argv[3]).read().split("\n"):
                if fen:
                    board = chess.Board(fen)
                    print(json.dumps([[e.move.uci(), e.weight] for e in book.find_all(board)]))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
