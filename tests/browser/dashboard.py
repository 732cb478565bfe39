#!/usr/bin/env python3
"""The dashboard (`arbiter serve`) as a person sees it: headless Chromium driven through WebDriver (selenium).

Plays real runs into a fresh results folder (a finished gauntlet of three engines, one with a crashing engine
under --recover, an SPSA run, a Texel tuning run), starts an SPRT match that keeps playing, serves the folder
and checks, in the browser:

- the run list, and that the live match's game count and LLR change without a reload (a mark set in the
  page's window survives the updates);
- the running SPRT's page: its figures change live, its LLR and Elo charts are drawn in the page;
- the finished gauntlet's pairings, the SPSA trajectories, the tuning loss curve, the rating list, two runs
  side by side;
- the move viewer: a game opened from its row, stepped through with the buttons and the arrow keys (the board
  and the FEN follow each ply); the crashed game reached from its row, with the engine's last lines;
- a finished run's report.html opened from the disk (file://, no server) shows the same page;
- 50 clients polling the server at once while the browser reads it.

Screenshots go to --shots (default target/dashboard-shots); `--shots docs/dashboard` renews the ones the docs
show. Exit 0 when every check holds; a failed check names itself and exits 1.

Usage: python3 tests/browser/dashboard.py [--arbiter target/release/arbiter] [--shots DIR]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
OPENINGS = os.path.join(SHARED, "suites", "openings", "2moves_v1.epd")
TUNING = os.path.join(SHARED, "data", "tuning", "selfplay-sf15-n1500-quiet")


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def check(condition, what):
    if not condition:
        fail(what)
    print(f"ok: {what}")


def wait_for(what, test, timeout=90.0, every=0.25):
    """Waits until test() gives a true value (exceptions count as not yet); returns it, or fails naming what."""
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            value = test()
            if value:
                return value
        except Exception as error:  # the page is being redrawn: try again
            last = error
        time.sleep(every)
    fail(f"{what} (waited {timeout:.0f} s{'; last error: ' + str(last) if last else ''})")


def run(cmd, **kw):
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if done.returncode not in (0, 10, 11):
        fail(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr[-2000:]}")
    return done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arbiter", default=os.path.join(ROOT, "target", "release", "arbiter"))
    parser.add_argument("--faulty", default=os.path.join(ROOT, "target", "release", "examples", "faulty-engine"))
    parser.add_argument("--shots", default=os.path.join(ROOT, "target", "dashboard-shots"))
    args = parser.parse_args()
    arbiter = os.path.abspath(args.arbiter)
    os.makedirs(args.shots, exist_ok=True)
    work = tempfile.mkdtemp(prefix="arbiter-dashboard-")
    results = os.path.join(work, "results")
    os.makedirs(results)
    configs = os.path.join(ROOT, "configs")
    seed = f"name=seed,config={configs}/seed.toml"
    nomob = f"name=nomob,config={configs}/nomob.toml"
    book = f"file={OPENINGS},format=epd,order=random"
    procs = []
    try:
        # The finished runs, played before the page opens.
        run([arbiter, "match", "--engine", seed, "--engine", nomob, "--engine",
             f"name=crashy,cmd={args.faulty},args=--mode crash --after 30", "--tournament", "gauntlet",
             "--nodes", "1000", "--rounds", "6", "--concurrency", "1", "--recover", "--openings", book,
             "--seed", "7", "--out", os.path.join(results, "gauntlet-1000n")])
        with open(os.path.join(work, "material.txt"), "w") as f:
            f.write("material[1], int, 150, 50, 600, 20, 0.01\nmaterial[3], int, 300, 100, 900, 30, 0.01\n")
        run([arbiter, "spsa", "--engine", f"name=me,cmd={arbiter},args=uci", "--params",
             os.path.join(work, "material.txt"), "--iterations", "24", "--pairs-per-iteration", "2", "--nodes", "500",
             "--concurrency", "1", "--out", os.path.join(results, "spsa-material")])
        run([arbiter, "tune", "--data", TUNING + ".book", "--games", TUNING + ".meta.tsv", "--config", "seed",
             "--out", os.path.join(results, "tuned.toml"), "--epochs", "40"])
        run([arbiter, "match", "--engine", seed, "--engine", nomob, "--nodes", "800", "--rounds", "20",
             "--concurrency", "1", "--openings", book, "--seed", "3", "--sprt", "elo0=0,elo1=10",
             "--out", os.path.join(results, "sprt-800n")])
        check(os.path.isfile(os.path.join(results, "gauntlet-1000n", "report.html")), "a finished match wrote report.html")
        check(os.path.isfile(os.path.join(results, "spsa-material", "report.html")), "a finished SPSA run wrote report.html")

        # The live SPRT: long enough to be watched, stopped at the end of the test.
        live = subprocess.Popen([arbiter, "match", "--engine", seed, "--engine", nomob, "--nodes", "2500",
                                 "--rounds", "400", "--concurrency", "1", "--openings", book, "--seed", "5",
                                 "--sprt", "elo0=120,elo1=170,alpha=0.001,beta=0.001", "--out", os.path.join(results, "sprt-live")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(live)
        server = subprocess.Popen([arbiter, "serve", results, "--bind", "127.0.0.1:0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        procs.append(server)
        line = server.stdout.readline()
        check(line.startswith("arbiter serve: http://127.0.0.1:"), f"the server says its address ({line.strip()})")
        base = line.split(": ", 1)[1].strip().rstrip("/")

        runs = wait_for("the live run is listed with games",
                        lambda: [r for r in json.load(urllib.request.urlopen(base + "/api/runs"))["runs"]
                                 if r["name"] == "sprt-live" and r["games"] >= 4])
        ids = {r["name"]: r["id"] for r in json.load(urllib.request.urlopen(base + "/api/runs"))["runs"]}
        check(set(ids) >= {"gauntlet-1000n", "spsa-material", "tuned.loss.csv", "sprt-800n", "sprt-live"},
              f"every run is listed: {sorted(ids)}")

        options = webdriver.ChromeOptions()
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1500,1000", "--force-device-scale-factor=1"]:
            options.add_argument(flag)
        driver_path = shutil.which("chromedriver")
        browser = webdriver.Chrome(options=options, service=Service(driver_path) if driver_path else None)
        try:
            pollers_stop = threading.Event()
            poll_errors = []
            polls = [0]

            def poll():
                while not pollers_stop.is_set():
                    try:
                        for url in ["/", "/api/runs", f"/api/runs/{ids['sprt-live']}"]:
                            urllib.request.urlopen(base + url, timeout=30).read()
                        polls[0] += 1
                    except Exception as error:
                        poll_errors.append(str(error))
                    time.sleep(0.5)

            pollers = [threading.Thread(target=poll, daemon=True) for _ in range(50)]
            for p in pollers:
                p.start()

            # The run list, live.
            browser.get(base + "/")
            browser.execute_script("window.arbiterMark = 'not reloaded';")
            row = f"#run-{ids['sprt-live']}"
            cells = lambda: (browser.find_element(By.CSS_SELECTOR, row + " .games").text,
                             browser.find_element(By.CSS_SELECTOR, row + " .llr").text)
            first = wait_for("the live run's row shows games and an LLR", lambda: cells() if cells()[1] != "-" else None)
            later = wait_for("the run list's game count and LLR change without a reload",
                             lambda: cells() if cells()[0] != first[0] and cells()[1] != first[1] else None)
            check(browser.execute_script("return window.arbiterMark") == "not reloaded",
                  f"the list updated in place: games {first[0]} -> {later[0]}, LLR {first[1]} -> {later[1]}")
            check(len(browser.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) == len(ids), "one row per run")
            browser.save_screenshot(os.path.join(args.shots, "run-list.png"))

            # The running SPRT's page.
            browser.find_element(By.CSS_SELECTOR, row + " a").click()
            wait_for("the running SPRT's page with its LLR chart",
                     lambda: browser.find_elements(By.CSS_SELECTOR, "#llr-chart polyline")
                     and browser.find_element(By.CSS_SELECTOR, "#llr-chart polyline").get_attribute("points"))
            check(bool(browser.find_elements(By.CSS_SELECTOR, "#elo-chart polygon")), "the Elo chart has its interval band")
            figure = lambda cls: browser.find_element(By.CSS_SELECTOR, f".figures td.{cls}").text
            before = (figure("games"), figure("llr"), browser.find_element(By.CSS_SELECTOR, "#llr-chart polyline").get_attribute("points"))
            after = wait_for("the run's page follows the match (games, LLR, chart)",
                             lambda: (figure("games"), figure("llr"), browser.find_element(By.CSS_SELECTOR, "#llr-chart polyline").get_attribute("points"))
                             if figure("games") != before[0] and figure("llr") != before[1] else None)
            check(after[2] != before[2] and browser.execute_script("return window.arbiterMark") == "not reloaded",
                  f"the LLR chart is redrawn in place ({before[0]} -> {after[0]} games)")
            check("running" in figure("state"), "the run is shown running")
            browser.save_screenshot(os.path.join(args.shots, "running-sprt.png"))

            # The finished gauntlet: pairings, the crashed game with the engine's last lines.
            browser.get(base + f"/#/run/{ids['gauntlet-1000n']}")
            pairings = wait_for("the gauntlet's pairings", lambda: browser.find_elements(By.CSS_SELECTOR, "#pairings tbody tr"))
            check(len(pairings) == 2, "a gauntlet of three engines has two pairings")
            failed = wait_for("the crashed games are listed", lambda: browser.find_elements(By.CSS_SELECTOR, "#failed a.view"))
            check("crashing as told" in browser.find_element(By.CSS_SELECTOR, "#failed .log").text,
                  "the failed game's row shows the engine's last lines")
            browser.save_screenshot(os.path.join(args.shots, "finished-gauntlet.png"))
            failed[0].click()
            wait_for("the crashed game opens in the viewer with the last lines",
                     lambda: "crashing as told" in browser.find_element(By.ID, "last-lines").text)

            # The move viewer, from a game's row of the latest games.
            browser.get(base + f"/#/run/{ids['gauntlet-1000n']}")
            link = wait_for("a game's row", lambda: browser.find_elements(By.CSS_SELECTOR, "#recent a.view"))
            link[-1].click()
            squares = wait_for("the board", lambda: browser.find_elements(By.CSS_SELECTOR, "#board div"))
            check(len(squares) == 64, "the board has 64 squares")
            fen = lambda: browser.find_element(By.ID, "fen").text
            ply = lambda: browser.find_element(By.ID, "ply").text
            end_fen = fen()
            browser.find_element(By.ID, "first").click()
            start_fen = fen()
            check(start_fen != end_fen and ply().startswith("ply 0 "), "⏮ goes to the start position")
            seen = [start_fen]
            for k in range(1, 6):
                browser.find_element(By.ID, "next").click()
                check(ply().startswith(f"ply {k} ") and fen() not in seen, f"▶ steps to ply {k}: {fen()}")
                seen.append(fen())
            browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
            check(ply().startswith("ply 4 ") and fen() == seen[4], "the left arrow key steps back")
            pieces = sum(1 for s in browser.find_elements(By.CSS_SELECTOR, "#board div") if s.text.strip())
            check(2 <= pieces <= 32, f"the board shows the pieces ({pieces})")
            browser.save_screenshot(os.path.join(args.shots, "move-viewer.png"))

            # SPSA, tuning, the rating list, side by side.
            browser.get(base + f"/#/run/{ids['spsa-material']}")
            wait_for("the SPSA trajectories", lambda: len(browser.find_elements(By.CSS_SELECTOR, "#spsa-chart polyline")) == 2)
            check(len(browser.find_elements(By.CSS_SELECTOR, "#params tbody tr")) == 2, "both parameters are listed")
            browser.save_screenshot(os.path.join(args.shots, "spsa-run.png"))
            browser.get(base + f"/#/run/{ids['tuned.loss.csv']}")
            wait_for("the tuning loss curves", lambda: len(browser.find_elements(By.CSS_SELECTOR, "#loss-chart polyline")) == 2)
            browser.save_screenshot(os.path.join(args.shots, "tuning-run.png"))
            browser.get(base + "/#/ratings")
            names = wait_for("the rating list", lambda: [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#ratings-0 tbody td:nth-child(2)")])
            check(set(names) == {"seed", "nomob", "crashy"}, f"the rating list rates every engine the runs share: {names}")
            check("[" in browser.find_element(By.CSS_SELECTOR, "#ratings-0 tbody td:nth-child(4)").text, "with intervals")
            browser.save_screenshot(os.path.join(args.shots, "rating-list.png"))
            browser.get(base + "/")
            wait_for("the list", lambda: browser.find_elements(By.CSS_SELECTOR, "input.pick"))
            for name in ["sprt-800n", "sprt-live"]:
                browser.find_element(By.CSS_SELECTOR, f"#run-{ids[name]} input.pick").click()
            browser.find_element(By.ID, "compare").click()
            wait_for("two runs side by side", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".cols section.run")) == 2
                     and "minus" in browser.find_element(By.ID, "difference").text)
            browser.save_screenshot(os.path.join(args.shots, "side-by-side.png"))

            pollers_stop.set()
            for p in pollers:
                p.join(timeout=60)
            check(not poll_errors and polls[0] >= 50, f"50 clients polled the server at once: {polls[0]} rounds, {len(poll_errors)} errors {poll_errors[:3]}")

            # A finished run's report, from the disk.
            browser.get("file://" + os.path.join(results, "gauntlet-1000n", "report.html"))
            wait_for("report.html shows the run without a server",
                     lambda: len(browser.find_elements(By.CSS_SELECTOR, "#pairings tbody tr")) == 2)
            link = wait_for("a game in the report", lambda: browser.find_elements(By.CSS_SELECTOR, "#recent a.view"))
            link[0].click()
            wait_for("the report's move viewer", lambda: len(browser.find_elements(By.CSS_SELECTOR, "#board div")) == 64)
            logs = browser.get_log("browser") if hasattr(browser, "get_log") else []
            errors = [e for e in logs if e.get("level") == "SEVERE"]
            check(not errors, f"no script errors in the browser's console: {errors[:3]}")
        finally:
            browser.quit()
        check(server.poll() is None, "the server is still up")
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(work, ignore_errors=True)
    print(f"dashboard: every check holds; screenshots in {args.shots}")


if __name__ == "__main__":
    main()
