"""Plays games between two builds of `arbiter uci` under a real clock kept by this script (python-chess),
and reports every clock overrun. Used until the runner keeps clocks itself (issue 5).

Usage:
    python3 scripts/clock_check.py [--arbiter target/release/arbiter] [--games 200] [--tc 1+0.01]
        [--config-a configs/seed.toml] [--config-b configs/seedv0.toml]
        [--book suites/openings/arbiter-book.epd] [--concurrency 1] [--csv FILE]

Each game starts from the next position of the book (colours swapped in pairs), both engines get
`position ... moves ...` and `go wtime btime winc binc`; the time a move takes is measured here, from the
`go` being sent to the `bestmove` read (pipes and process scheduling included), then the increment is
added. A side whose clock goes below zero has overrun. Games end by python-chess's rules (mate, stalemate,
insufficient material, threefold repetition, fifty moves) or at 400 plies (a draw).
Exit status: 0 when no move overran, 1 otherwise, 2 on bad arguments.
"""
import argparse
import concurrent.futures
import csv
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    print("python-chess is missing: pip install chess", file=sys.stderr)
    sys.exit(2)

MAX_PLIES = 400


def parse_tc(text):
    """'1+0.01' -> (1.0, 0.01) seconds."""
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def read_book(path):
    fens = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) < 4:
                raise SystemExit(f"{path}:{number}: not an EPD line")
            fens.append(" ".join(fields[:4]) + " 0 1")
    return fens


def play_game(args, index, fen):
    base, inc = parse_tc(args.tc)
    configs = (args.config_a, args.config_b)
    # Game pairs: even games give A white, odd games give B white, from the same opening.
    white = index % 2
    engines = [chess.engine.SimpleEngine.popen_uci([args.arbiter, "uci", "--config", c]) for c in configs]
    board = chess.Board(fen)
    clock = {chess.WHITE: base, chess.BLACK: base}
    worst = {"overruns": 0, "max_move_s": 0.0, "min_left_s": base, "moves": 0}
    try:
        for e in engines:
            e.configure({"Hash": 16})
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            mover = board.turn
            engine = engines[white] if mover == chess.WHITE else engines[1 - white]
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK], white_inc=inc, black_inc=inc
            )
            start = time.monotonic()
            result = engine.play(board, limit)
            spent = time.monotonic() - start
            if result.move is None or result.move not in board.legal_moves:
                raise RuntimeError(f"game {index}: illegal move {result.move} in {board.fen()}")
            clock[mover] -= spent
            worst["moves"] += 1
            worst["max_move_s"] = max(worst["max_move_s"], spent)
            worst["min_left_s"] = min(worst["min_left_s"], clock[mover])
            if clock[mover] < 0:
                worst["overruns"] += 1
                print(f"game {index}: {'white' if mover else 'black'} overran by {-clock[mover]:.3f} s", flush=True)
            clock[mover] += inc
            board.push(result.move)
    finally:
        for e in engines:
            e.quit()
    result = board.result(claim_draw=True) if board.is_game_over(claim_draw=True) else "1/2-1/2"
    worst.update(game=index, fen=fen, plies=board.ply(), result=result, a_white=white == 0)
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arbiter", default="target/release/arbiter")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tc", default="1+0.01")
    parser.add_argument("--config-a", default="configs/seed.toml")
    parser.add_argument("--config-b", default="configs/seedv0.toml")
    parser.add_argument("--book", default="suites/openings/arbiter-book.epd")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--csv", default=None, help="per-game CSV (game, plies, result, moves, max_move_s, min_left_s)")
    args = parser.parse_args()
    try:
        parse_tc(args.tc)
    except ValueError:
        parser.error(f"--tc {args.tc!r}: expected BASE+INC in seconds, like 1+0.01")
    book = read_book(args.book)
    if not book:
        parser.error(f"{args.book}: no positions")

    started = time.monotonic()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as pool:
        futures = [pool.submit(play_game, args, i, book[(i // 2) % len(book)]) for i in range(args.games)]
        for future in concurrent.futures.as_completed(futures):
            rows.append(future.result())
    rows.sort(key=lambda r: r["game"])
    elapsed = time.monotonic() - started

    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            fields = ["game", "a_white", "plies", "result", "moves", "overruns", "max_move_s", "min_left_s", "fen"]
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            for r in rows:
                writer.writerow({k: r[k] for k in fields})

    overruns = sum(r["overruns"] for r in rows)
    moves = sum(r["moves"] for r in rows)
    score_a = 0.0
    for r in rows:
        white_score = {"1-0": 1.0, "0-1": 0.0}.get(r["result"], 0.5)
        score_a += white_score if r["a_white"] else 1.0 - white_score
    print(f"games {len(rows)} at {args.tc}, {moves} moves, {elapsed:.1f} s")
    print(f"{args.config_a} scored {score_a:.1f}/{len(rows)} against {args.config_b}")
    print(f"longest move {max(r['max_move_s'] for r in rows) * 1000:.1f} ms, "
          f"lowest clock after a move {min(r['min_left_s'] for r in rows) * 1000:.1f} ms")
    print(f"overruns {overruns}")
    return 0 if overruns == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
