#!/usr/bin/env bash
# SPSA over 4 Slurm array tasks on a single-node cluster (scripts/slurm-cluster.sh), beside a one-process run of
# the same length: prints both times, checks that every shard's spsa.csv equals the one-process run's, and shows the
# trajectory. Run from the project root as root after `cargo build --release`, with the Debian packages slurmctld
# slurmd slurm-client munge installed (not part of the test command: it takes about 3 minutes).
set -euo pipefail
repo=$(pwd)
tmp=$(mktemp -d /tmp/arbiter-slurm-spsa.XXXXXX); mkdir -p "$tmp/bin" "$tmp/work"; chmod 755 "$tmp"
cp "$repo/target/release/arbiter" "$tmp/bin/arbiter"
trap '"$repo/scripts/slurm-cluster.sh" stop "$tmp/cluster"' EXIT
"$repo/scripts/slurm-cluster.sh" start "$tmp/cluster"
export SLURM_CONF=$tmp/cluster/slurm.conf PATH=$tmp/bin:$PATH
cd "$tmp/work"
printf 'material[1], int, 150, 50, 600, 20, 0.01\nmaterial[3], int, 300, 100, 900, 30, 0.01\n' > material.txt
cp "$repo/suites/openings/arbiter-book.epd" book.epd
common="--engine name=seed --params material.txt --iterations 100 --pairs-per-iteration 8 --nodes 1000 --openings book.epd --concurrency 1"
cat > spsa.sbatch <<SB
#!/bin/bash
#SBATCH --job-name=arbiter-spsa
#SBATCH --array=1-4
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=logs/spsa-%a.log
DIR=run/shard-\${SLURM_ARRAY_TASK_ID}
echo "start \$(date +%s.%N)"
if [ -f "\$DIR/spsa.toml" ]; then arbiter spsa --resume "\$DIR"; else arbiter spsa $common --shard "\${SLURM_ARRAY_TASK_ID}/4" --out "\$DIR"; fi
echo "end \$? \$(date +%s.%N)"
SB
mkdir -p logs
s=$(date +%s.%N)
jobid=$(sbatch --parsable spsa.sbatch)
while squeue -h -j "$jobid" | grep -q .; do sleep 1; done
e=$(date +%s.%N)
echo "sharded: $(python3 -c "print(round($e-$s,1))") s"
s=$(date +%s.%N)
arbiter spsa $common --out one > one.txt 2>&1
e=$(date +%s.%N)
echo "one process: $(python3 -c "print(round($e-$s,1))") s"
for i in 1 2 3 4; do cmp run/shard-$i/spsa.csv one/spsa.csv && echo "shard $i: same spsa.csv as one process"; done
wc -l run/shard-*/games.csv one/games.csv
awk -F, 'NR==1 || NR%20==2' one/spsa.csv
tail -2 one/spsa.csv
cat logs/spsa-1.log | tail -3
