#!/usr/bin/env python3
"""Benchmark of `arbiter serve` on a long run: how fast a run of 100,000 games opens, and whether the server's
memory stays flat while a run adds games. Not a test (it times things); docs/dashboard.md gives its figures.

It plays one real 40-game match (seed against nomob at 800 nodes), then writes a run folder of N games (default
100,000) from it: the match's run.toml, and its games.csv rows and games.pgn games repeated with their pair and
game numbers shifted, as a match of N games would have written them. Then it serves that folder and measures,
median of 7 (min, max):

- the server's answers the run's page needs (`/api/runs`, `/api/runs/0`, the first page of its games, the last
  game for the move viewer);
- with headless Chromium (when selenium and chromedriver are there): the time from opening `#/run/0` to the
  run's figures and both charts drawn, as the browser's own clock tells it;
- the server's resident memory (VmRSS) after each of 20 rounds in which 5,000 more games are appended to the
  folder while a client polls the page's answers, so 100,000 games more in all.

Usage: python3 scripts/bench_dashboard.py [--games 100000] [--arbiter target/release/arbiter]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")


def timed(fn, n=7):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def split_pgn(text):
    games, current = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith("[Event ") and current:
            games.append("".join(current))
            current = []
        current.append(line)
    if current:
        games.append("".join(current))
    return games


def grow(src, dst, first_pair, pairs):
    """Appends `pairs` pairs to dst's games.csv and games.pgn, copied from src's, numbered from `first_pair`."""
    rows = open(os.path.join(src, "games.csv")).read().splitlines()[1:]
    games = split_pgn(open(os.path.join(src, "games.pgn")).read())
    by_pair = {}
    for row, game in zip(rows, games):
        fields = row.split(",")
        by_pair.setdefault(int(fields[0]), []).append((fields, game))
    templates = [v for _, v in sorted(by_pair.items()) if len(v) == 2]
    with open(os.path.join(dst, "games.csv"), "a") as csv, open(os.path.join(dst, "games.pgn"), "a") as pgn:
        for k in range(pairs):
            pair = first_pair + k
            for g, (fields, game) in enumerate(templates[pair % len(templates)]):
                fields = [str(pair), str(2 * pair + g)] + fields[2:]
                pgn.write(game)
                csv.write(",".join(fields) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--arbiter", default=os.path.join(ROOT, "target", "release", "arbiter"))
    args = parser.parse_args()
    arbiter = os.path.abspath(args.arbiter)
    work = tempfile.mkdtemp(prefix="arbiter-dashboard-bench-")
    try:
        src = os.path.join(work, "played")
        subprocess.run([arbiter, "match", "--engine", f"name=seed,config={ROOT}/configs/seed.toml", "--engine",
                        f"name=nomob,config={ROOT}/configs/nomob.toml", "--nodes", "800", "--rounds", "20",
                        "--concurrency", "1", "--openings",
                        f"file={SHARED}/suites/openings/2moves_v1.epd,format=epd,order=random",
                        "--sprt", "elo0=0,elo1=10", "--out", src], check=True, capture_output=True)
        run = os.path.join(work, "results", "long")
        os.makedirs(run)
        shutil.copy(os.path.join(src, "run.toml"), run)
        with open(os.path.join(run, "games.csv"), "w") as f:
            f.write(open(os.path.join(src, "games.csv")).readline())
        open(os.path.join(run, "games.pgn"), "w").close()
        grow(src, run, 0, args.games // 2)
        size = sum(os.path.getsize(os.path.join(run, f)) for f in ("games.csv", "games.pgn"))
        print(f"run folder: {args.games} games, games.csv + games.pgn {size / 1e6:.1f} MB")

        server = subprocess.Popen([arbiter, "serve", os.path.join(work, "results"), "--bind", "127.0.0.1:0"],
                                  stdout=subprocess.PIPE, text=True)
        base = server.stdout.readline().split(": ", 1)[1].strip().rstrip("/")
        get = lambda url: urllib.request.urlopen(base + url, timeout=60).read()
        last = args.games - 1
        for url in ["/api/runs", "/api/runs/0", "/api/runs/0/games?from=0&count=100", f"/api/runs/0/game/{last}"]:
            body = get(url)
            med, lo, hi = timed(lambda: get(url))
            print(f"GET {url:40} {len(body) / 1e3:8.1f} kB  {med * 1e3:7.1f} ms (min {lo * 1e3:.1f}, max {hi * 1e3:.1f})")

        try:
            from selenium import webdriver
            from selenium.webdriver.common.by import By
            options = webdriver.ChromeOptions()
            for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
                options.add_argument(flag)
            from selenium.webdriver.chrome.service import Service
            path = shutil.which("chromedriver")
            browser = webdriver.Chrome(options=options, service=Service(path) if path else None)
            try:
                times = []
                for _ in range(7):
                    browser.get("about:blank")
                    start = time.perf_counter()
                    browser.get(base + "/#/run/0")
                    while not (browser.find_elements(By.CSS_SELECTOR, "#llr-chart polyline")
                               and browser.find_elements(By.CSS_SELECTOR, "#elo-chart polyline")
                               and browser.find_elements(By.CSS_SELECTOR, "#all-games tbody tr")):
                        time.sleep(0.005)
                    times.append(time.perf_counter() - start)
                print(f"browser: #/run/0 to its figures, both charts and its games drawn: median "
                      f"{statistics.median(times) * 1e3:.0f} ms (min {min(times) * 1e3:.0f}, max {max(times) * 1e3:.0f})")
            finally:
                browser.quit()
        except ImportError:
            print("browser: selenium not installed, left out")

        memory = [rss_kib(server.pid)]
        for round_ in range(20):
            grow(src, run, args.games // 2 + round_ * 2500, 2500)
            for url in ["/api/runs", "/api/runs/0", "/api/runs/0/games?from=0&count=100", f"/api/runs/0/game/{last}"]:
                get(url)
            memory.append(rss_kib(server.pid))
        print("server VmRSS (MiB) after each 5,000 games added and the run page's answers read: "
              + " ".join(f"{m / 1024:.0f}" for m in memory))
        # The rating list fits every game of every run: it holds them while it fits (not the run's page).
        med, lo, hi = timed(lambda: get("/api/ratings"), 3)
        print(f"GET /api/ratings over {args.games + 100_000} games: {med * 1e3:.0f} ms (min {lo * 1e3:.0f}, max "
              f"{hi * 1e3:.0f}); VmRSS after it {rss_kib(server.pid) / 1024:.0f} MiB")
        server.terminate()
        server.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
