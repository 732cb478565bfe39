#!/usr/bin/env bash
# Installs what Arbiter's tests need and runs all of them: the code gates (rustfmt, clippy with warnings as
# errors, rustdoc with warnings as errors, which also enforces the library's #![warn(missing_docs)]), then the tests.
#
# Needs: Rust (cargo). Installs, when missing: python3 with pip and the UCI engines stockfish, fairy-stockfish,
# ethereal-chess, toga2 and glaurung (Debian packages, via apt-get), and python-chess (PyPI package `chess`), used
# by the tests to replay games.pgn independently of Arbiter; and Slurm (slurmctld slurmd slurm-client munge), for
# the last step: the Slurm job-array recipe on a real single-node cluster (scripts/test-slurm.sh, needs root);
# and headless Chromium with its WebDriver (chromium chromium-driver) and selenium (PyPI), for the dashboard's
# browser test.
# The shared suites are read from ../shared (beside the checkout), as CI lays them out.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  echo "== installing python3 and pip (apt-get)"
  apt_install python3 python3-pip python3-venv
fi
# Real UCI engines from Debian: Stockfish is the perft oracle of `arbiter perft --compare-with`; all of them are
# opponents in the runner's tests (tests/integration/opponents.rs).
missing=()
for pair in stockfish:stockfish fairy-stockfish:fairy-stockfish ethereal-chess:ethereal-chess toga2:toga2 \
            glaurung:glaurung; do
  [ -x "/usr/games/${pair%%:*}" ] || missing+=("${pair##*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]} (apt-get)"
  apt_install "${missing[@]}"
fi
# xboard engines from Debian (tests/integration/xboard.rs) and Debian's `polyglot make-book`, the reference book
# writer of tests/integration/books.rs.
missing=()
for pair in fairymax:fairymax phalanx:phalanx polyglot:polyglot; do
  [ -x "/usr/games/${pair%%:*}" ] || missing+=("${pair##*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]} (apt-get)"
  apt_install "${missing[@]}"
fi
# Slurm from Debian, for scripts/test-slurm.sh: the daemons run on this machine only while that test runs.
if [ ! -x /usr/sbin/slurmctld ]; then
  echo "== installing slurmctld slurmd slurm-client munge (apt-get)"
  apt_install slurmctld slurmd slurm-client munge
fi
if ! python3 -c 'import chess' >/dev/null 2>&1; then
  echo "== installing python-chess (pip install chess)"
  python3 -m pip install --quiet chess 2>/dev/null || python3 -m pip install --quiet --break-system-packages chess
fi
python3 -c 'import chess; print("python-chess", chess.__version__)'
# Headless Chromium from Debian and selenium from PyPI, for the dashboard's browser test (tests/browser/dashboard.py).
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "== installing chromium chromium-driver (apt-get)"
  apt_install chromium chromium-driver
fi
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
  echo "== installing selenium (pip install selenium)"
  python3 -m pip install --quiet selenium 2>/dev/null || python3 -m pip install --quiet --break-system-packages selenium
fi

if [ ! -d ../shared/suites ]; then
  echo "error: ../shared/suites not found beside the checkout; the tests read the public suites from there" >&2
  exit 2
fi

# The code gates come first: a formatting slip, a lint or a broken doc link fails the run before the long tests.
if command -v rustup >/dev/null 2>&1; then
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
fi
echo "== links in README.md and docs/"
python3 scripts/check_doc_links.py
python3 scripts/check_doc_paths.py
echo "== cargo fmt --check"
cargo fmt --check
echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --all-targets -- -D warnings
echo "== cargo doc --no-deps (RUSTDOCFLAGS=-D warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps

echo "== cargo test (release: unit, integration and doc tests)"
cargo test --release
echo "== the generic code path (ARBITER_CPU=generic, docs/benchmarks.md#code-paths): unit tests, perft, bench"
ARBITER_CPU=generic cargo test --release --lib
ARBITER_CPU=generic cargo test --release --test integration -- perft:: differential:: bench::
echo "== perft suites to 1e8 nodes (ignored in the quick run; 1e9 is: see tests/integration/perft.rs)"
cargo test --release --test integration -- --ignored perft::full_suites_to_1e8 perft::seed_test_position_depth_5
echo "== Xiangqi perft suite above 1e8 nodes (the two depth-5 counts of 133 and 141 million)"
cargo test --release --test integration -- --ignored xiangqi::suite_above_1e8
echo "== the dashboard in headless Chromium (tests/browser/dashboard.py)"
cargo build --release --examples
SE_OFFLINE=true python3 tests/browser/dashboard.py
echo "== the Slurm job-array recipe on a single-node cluster (scripts/test-slurm.sh)"
as_root env PATH="$PATH" bash scripts/test-slurm.sh
