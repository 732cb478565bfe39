#!/usr/bin/env python3
"""A small xboard (CECP 2) engine that misbehaves on cue, for tests/integration/xboard.rs.

Usage: faulty_xboard.py MODE [AFTER [TRANSCRIPT]]  (MODE: good, crash, stall, illegal, garbage; AFTER: its own
moves first; TRANSCRIPT: a file to which every command received is appended)

It announces `feature setboard=1 usermove=1 ping=1 myname="faulty" done=1`, keeps the board with python-chess,
and answers `go` with `move M` (the first legal move in sorted order, with a thinking line). After AFTER moves
of its own it misbehaves: crash exits at once, stall stops answering, illegal plays a move that is not legal,
garbage answers a line that is not a move.
"""

import sys

import chess

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
after = int(sys.argv[2]) if len(sys.argv) > 2 else 2
transcript = open(sys.argv[3], "a") if len(sys.argv) > 3 else None
board = chess.Board()
played = 0
forced = True


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def think_and_move():
    global played
    if played >= after and mode != "good":
        if mode == "crash":
            sys.exit(3)
        if mode == "stall":
            while True:
                sys.stdin.readline()
        if mode == "illegal":
            say("move a1a8" if board.turn == chess.WHITE else "move a8a1")
            return
        if mode == "garbage":
            say("move this-is-no-move")
            return
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    move = moves[0]
    say(f"1 {len(moves)} 0 {played + 1} {move.uci()}")
    board.push(move)
    played += 1
    say(f"move {move.uci()}")


for line in sys.stdin:
    if transcript:
        transcript.write(line)
        transcript.flush()
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "protover":
        say('feature setboard=1 usermove=1 ping=1 myname="faulty" done=1')
    elif cmd == "new":
        board = chess.Board()
        forced = False
    elif cmd == "force":
        forced = True
    elif cmd == "setboard":
        board = chess.Board(" ".join(words[1:]))
    elif cmd == "usermove":
        board.push_uci(words[1])
    elif cmd == "ping":
        say(f"pong {words[1]}")
    elif cmd == "go":
        forced = False
        think_and_move()
    elif cmd == "quit":
        break
