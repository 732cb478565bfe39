"""UCI conformance of `arbiter uci`, checked by python-chess.

Usage: python3 tests/uci_conformance.py PATH/TO/arbiter
Exits non-zero (with a message) on the first failed check.
"""
import sys

try:
    import chess
    import chess.engine
except ImportError:
    print("python-chess is missing: pip install chess, then rerun `cargo test --test integration uci::`", file=sys.stderr)
    sys.exit(3)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main():
    binary = sys.argv[1]
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=20)
    try:
        check(engine.id.get("name", "").startswith("Arbiter"), f"id name: {engine.id}")
        for name in ("Hash", "Threads", "UCI_Chess960", "material[1]", "null_move"):
            check(name in engine.options, f"option {name} missing")

        board = chess.Board()
        # Each limit.
        for limit in (chess.engine.Limit(depth=4), chess.engine.Limit(nodes=5000), chess.engine.Limit(time=0.2)):
            info = engine.analyse(board, limit)
            check("score" in info and "pv" in info and info["pv"], f"analyse {limit}: {info}")
            check(board.is_legal(info["pv"][0]), f"analyse {limit}: illegal pv move")
        info = engine.analyse(board, chess.engine.Limit(depth=5))
        check(info.get("depth") == 5, f"depth 5 reported as {info.get('depth')}")

        # Infinite analysis, stopped early.
        with engine.analysis(board) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 3:
                    break
        check(analysis.info.get("depth", 0) >= 3, "infinite analysis reached depth 3")

        # Options.
        engine.configure({"Hash": 8, "material[1]": 300, "null_move": False})
        result = engine.play(board, chess.engine.Limit(nodes=2000))
        check(result.move in board.legal_moves, "move after configure")
        engine.configure({"Hash": 16, "material[1]": 320, "null_move": True})

        # Clock-based play.
        result = engine.play(board, chess.engine.Limit(white_clock=10, black_clock=10, white_inc=0.1, black_inc=0.1))
        check(result.move in board.legal_moves, "move under a clock")

        # Mate in one reported as Mate(1).
        mate_board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = engine.analyse(mate_board, chess.engine.Limit(depth=4))
        check(info["score"].relative == chess.engine.Mate(1), f"mate in 1 scored {info['score']}")
        check(info["pv"][0] == chess.Move.from_uci("a1a8"), f"mate in 1 pv {info['pv']}")

        # Checkmate and stalemate positions: bestmove 0000 and the engine keeps running.
        for fen in ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"):
            result = engine.play(chess.Board(fen), chess.engine.Limit(depth=3))
            check(not result.move, f"{fen}: bestmove {result.move}")
        engine.ping()

        # Chess960: python-chess sets UCI_Chess960 and writes castling as king-takes-rook. A mate in one by
        # castling queenside (b1a1: king to c1, rook to d1) must be found and sent in that notation...
        board960 = chess.Board("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
        info = engine.analyse(board960, chess.engine.Limit(depth=4))
        check(info["score"].relative == chess.engine.Mate(1), f"960 castling mate scored {info['score']}")
        check(info["pv"][0] == chess.Move.from_uci("b1a1"), f"960 castling mate pv {info['pv']}")
        # ...and a king-takes-rook castling move in `position ... moves` must be understood.
        board960 = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", chess960=True)
        board960.push(chess.Move.from_uci("e1h1"))
        result = engine.play(board960, chess.engine.Limit(nodes=2000))
        check(result.move in board960.legal_moves, f"960: illegal reply {result.move} after e1h1")
        # A Chess960 game from start position 100 (qbbnrnkr) to the end, every move validated.
        game = chess.Board.from_chess960_pos(100)
        while not game.is_game_over(claim_draw=True) and game.ply() < 200:
            result = engine.play(game, chess.engine.Limit(nodes=2000))
            check(result.move in game.legal_moves, f"960: illegal {result.move} in {game.fen()}")
            game.push(result.move)
        print(f"chess960 game: {game.ply()} plies, {game.result(claim_draw=True)}")

        # A full game from the start position; python-chess validates every move.
        engine.configure({})
        game = chess.Board()
        while not game.is_game_over(claim_draw=True) and game.ply() < 300:
            result = engine.play(game, chess.engine.Limit(nodes=2000))
            check(result.move is not None and result.move in game.legal_moves, f"illegal {result.move} in {game.fen()}")
            game.push(result.move)
        print(f"game: {game.ply()} plies, {game.result(claim_draw=True)}")
    finally:
        engine.quit()
    print("uci conformance: ok")


if __name__ == "__main__":
    main()
