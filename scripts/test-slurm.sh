#!/usr/bin/env bash
# The Slurm test of issue 19: the job-array recipe of docs/resume-and-shards.md ("Slurm") on a real single-node
# cluster, with one array task requeued while it plays.
#
# Starts a cluster in a temporary folder (scripts/slurm-cluster.sh), reads the recipe's two blocks from
# docs/resume-and-shards.md (shards.sbatch and the submit lines, marked by `<!-- scripts/test-slurm.sh: ... -->`)
# and runs them unchanged from a temporary submit folder, with `arbiter` on PATH: four shards of seed against
# nomob under an SPRT, then a merge after all of them (--dependency=afterany). As soon as shard 2 has recorded a
# game it is requeued (`scontrol requeue`) and released at once (`scontrol update StartTime=now`, instead of
# Slurm's wait of about 2 minutes). Everything is waited for, at most 15 minutes. scripts/check_slurm_run.py then
# checks the run and prints its figures (games per shard, the pair at which the combined LLR crossed, the time from
# the decision to the last shard's exit, the merge's report). The cluster is stopped on every exit (a trap), and no
# slurmctld, slurmd, slurmstepd or munged may be left.
#
# Needs root, python3 (3.11 or later: tomllib) and the Debian packages slurmctld slurmd slurm-client munge
# (scripts/test.sh installs them); installs nothing itself. Uses target/release/arbiter (built when missing), or
# the binary named by $ARBITER.
# For trying the job flow only: SLURM_TEST_GAMES and SLURM_TEST_NODES replace the recipe's `--games 4000` and
# `--nodes 5000` (the checks then need not hold); the test itself sets neither.
# Exit codes: 0 passed, 1 a check failed, 2 the recipe is not found in the docs, 3 a system failure (no Slurm,
# a cluster that does not start, a job that does not end in time).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

# The longest the jobs may take, from the submission to the merge's end.
deadline_s=900

for bin in slurmctld slurmd munged sbatch squeue scontrol; do
  if ! command -v "$bin" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$bin" ]; then
    echo "test-slurm: $bin not found; install the Debian packages slurmctld slurmd slurm-client munge" \
      "(scripts/test.sh does)" >&2
    exit 3
  fi
done
if ! python3 -c 'import tomllib' 2>/dev/null; then
  echo "test-slurm: python3 3.11 or later (tomllib) needed" >&2
  exit 3
fi

arbiter=${ARBITER:-$repo/target/release/arbiter}
if [ ! -x "$arbiter" ]; then
  [ -z "${ARBITER:-}" ] || { echo "test-slurm: ARBITER=$ARBITER is not an executable" >&2; exit 3; }
  echo "== cargo build --release (no $arbiter yet)"
  cargo build --release
fi

tmp=$(mktemp -d /tmp/arbiter-slurm.XXXXXX)
# munged runs as the munge user and must reach the cluster's folder inside.
chmod 755 "$tmp"
cluster=$tmp/cluster
work=$tmp/work
mkdir -p "$tmp/bin" "$work"
ln -s "$(readlink -f "$arbiter")" "$tmp/bin/arbiter"

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  echo "== stopping the cluster"
  if ! "$repo/scripts/slurm-cluster.sh" stop "$cluster"; then
    echo "test-slurm: FAILED: a Slurm daemon was left behind" >&2
    [ "$status" -ne 0 ] || status=1
  fi
  if [ "$status" -eq 0 ]; then
    rm -rf "$tmp"
  else
    echo "test-slurm: the cluster's logs and the run are kept in $tmp" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== the recipe from docs/resume-and-shards.md"
if ! python3 - "$repo/docs/resume-and-shards.md" "$work" <<'EOF'
import pathlib, sys
page, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
lines = page.read_text(encoding="utf-8").splitlines()
for name in ("shards.sbatch", "submit"):
    marker = f"<!-- scripts/test-slurm.sh: {name} -->"
    if marker not in lines:
        sys.exit(f"{page}: no line {marker!r} before the recipe's {name} block")
    at = lines.index(marker) + 1
    if at >= len(lines) or not lines[at].startswith("```"):
        sys.exit(f"{page}:{at + 1}: a code block must follow {marker!r}")
    end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith("```")), None)
    if end is None:
        sys.exit(f"{page}:{at + 1}: the {name} block is not closed")
    (work / (name if name.endswith(".sbatch") else name + ".sh")).write_text("\n".join(lines[at + 1:end]) + "\n")
EOF
then
  exit 2
fi
if [ -n "${SLURM_TEST_GAMES:-}" ]; then
  sed -i "s/--games 4000 /--games $SLURM_TEST_GAMES /" "$work/shards.sbatch"
fi
if [ -n "${SLURM_TEST_NODES:-}" ]; then
  sed -i "s/--nodes 5000 /--nodes $SLURM_TEST_NODES /" "$work/shards.sbatch"
fi
cat "$work/shards.sbatch" "$work/submit.sh"

echo "== starting a single-node cluster"
"$repo/scripts/slurm-cluster.sh" start "$cluster" || exit 3
export SLURM_CONF=$cluster/slurm.conf
export PATH=$tmp/bin:$PATH

echo "== submitting (from $work)"
cd "$work"
start_s=$(date +%s)
jobid=
merge_jobid=
# shellcheck source=/dev/null # the recipe's submit block, read from the docs above
if ! source ./submit.sh || [ -z "$jobid" ] || [ -z "$merge_jobid" ]; then
  echo "test-slurm: the recipe's submit block failed, or did not set jobid and merge_jobid" >&2
  exit 3
fi
jobid=${jobid%%;*}
merge_jobid=${merge_jobid%%;*}
echo "job array $jobid, merge job $merge_jobid"

over_deadline() { [ $(($(date +%s) - start_s)) -ge "$deadline_s" ]; }

# Requeues shard 2 once it has recorded a game (a header line and at least one row), while it plays.
requeued=$tmp/requeued.txt
csv=results/run/shard-2/games.csv
until [ -f "$csv" ] && [ "$(wc -l <"$csv")" -ge 2 ]; do
  if over_deadline; then echo "test-slurm: shard 2 recorded no game in ${deadline_s} s" >&2; exit 3; fi
  # The recipe's line at the task's end: shard 2 ended without a game (a bad flag, an engine that fails).
  if grep -q '^shard 2: exit ' results/logs/shard-2.log 2>/dev/null &&
    { [ ! -f "$csv" ] || [ "$(wc -l <"$csv")" -lt 2 ]; }; then
    echo "test-slurm: FAILED: shard 2 ended without recording a game; its log:" >&2
    tail -n 30 results/logs/shard-2.log >&2 || true
    exit 1
  fi
  sleep 0.2
done
state=$(squeue -h -j "${jobid}_2" -o %T 2>/dev/null || true)
decided=no
[ ! -f results/run/decision.toml ] || decided=yes
echo "== scontrol requeue ${jobid}_2 (state $state, $(($(wc -l <"$csv") - 1)) games recorded," \
  "decision.toml written: $decided)"
# What shard 2 had recorded when it was requeued: every complete row of it must still be there at the end.
cp "$csv" "$tmp/shard-2-at-requeue.csv"
printf 'state %s\ndecided %s\ntime %s\n' "$state" "$decided" "$(date +%s.%N)" >"$requeued"
scontrol requeue "${jobid}_2"
# Slurm holds a requeued task about 2 minutes (Reason=BeginTime); release it as soon as it is pending again.
released=no
for ((i = 0; i < 300; i++)); do
  if [ "$(squeue -h -j "${jobid}_2" -o %T 2>/dev/null || true)" = PENDING ]; then
    scontrol update jobid="${jobid}_2" StartTime=now && released=yes
    break
  fi
  sleep 0.1
done
[ "$released" = yes ] || echo "test-slurm: shard 2 was not seen pending after the requeue; Slurm restarts it later"

echo "== waiting for the shards and the merge (at most ${deadline_s} s from the submission)"
while [ -n "$(squeue -h -j "$jobid,$merge_jobid" -o %i 2>/dev/null || true)" ]; do
  if over_deadline; then
    echo "test-slurm: the jobs have not ended after ${deadline_s} s:" >&2
    squeue >&2 || true
    exit 3
  fi
  sleep 1
done
merge_exit=$(scontrol show job "$merge_jobid" 2>/dev/null | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' | head -n 1)
echo "all jobs ended after $(($(date +%s) - start_s)) s; merge job exit code ${merge_exit:-unknown}"

echo "== checks"
python3 "$repo/scripts/check_slurm_run.py" --work "$work" --requeued-shard 2 --requeued "$requeued" \
  --requeued-csv "$tmp/shard-2-at-requeue.csv" --merge-exit "${merge_exit:-unknown}" --arbiter "$tmp/bin/arbiter"
