#!/usr/bin/env bash
# A single-node Slurm cluster on 127.0.0.1, for the tests: `scripts/slurm-cluster.sh start DIR` and
# `scripts/slurm-cluster.sh stop DIR`.
#
# `start` writes DIR/slurm.conf and starts munged (as the munge user), slurmctld and slurmd with every state, spool,
# log, socket and pid file under DIR (nothing under /etc, /var or /run is written, and no systemd is needed), then
# waits until `sinfo` shows the node idle. Use the cluster with `export SLURM_CONF=DIR/slurm.conf`.
# `stop` cancels what is still queued, runs `scontrol shutdown`, stops munged by its pid file, and checks with
# pgrep that no slurmctld, slurmd, slurmstepd or munged is left (exit 1 if one is).
#
# Needs root and the Debian packages slurmctld, slurmd, slurm-client and munge (scripts/test.sh installs them);
# installs nothing itself. Refuses to start (exit 3) when a slurmctld, slurmd or slurmstepd already runs on the
# machine (its ports would clash); a munged already running is left alone and out of the check at `stop`.
# Exit codes: 0 done, 2 wrong usage, 3 a system failure (a daemon that does not start, a package missing).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
case "$2" in
  /*) dir=$2 ;;
  *) dir=$(pwd)/$2 ;;
esac
conf=$dir/slurm.conf
export SLURM_CONF=$conf

fail() { echo "slurm-cluster: $*" >&2; exit 3; }

# The daemons a cluster runs, under the names pgrep sees.
daemons=(slurmctld slurmd slurmstepd munged)

# The daemons running now, as "name (pid ...)" words, less the pids listed in DIR/preexisting.pids (a munged of the
# machine's own, started before this cluster: it is not this cluster's to check or stop).
left_behind() {
  local name pid out="" own
  for name in "${daemons[@]}"; do
    own=""
    for pid in $(pgrep -x "$name" || true); do
      grep -qx "$pid" "$dir/preexisting.pids" 2>/dev/null || own+="$pid "
    done
    [ -z "$own" ] || out+="$name (pid ${own% }) "
  done
  echo "${out% }"
}

# Waits up to $2 seconds for the process whose pid file is $1 to exit; 0 when it has (or never ran).
wait_pidfile_gone() {
  local file=$1 secs=$2 pid i
  # The daemon may remove its pid file as it exits.
  pid=$(cat "$file" 2>/dev/null) || return 0
  for ((i = 0; i < secs * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  return 1
}

# Ends the process named by pid file $1 (SIGTERM, then SIGKILL after 10 s), when it still runs.
stop_pidfile() {
  local file=$1 pid
  pid=$(cat "$file" 2>/dev/null) || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  wait_pidfile_gone "$file" 10 && return 0
  echo "slurm-cluster: pid $pid ($file) ignored SIGTERM for 10 s; SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
  wait_pidfile_gone "$file" 5
}

start() {
  [ "$(id -u)" -eq 0 ] || fail "start needs root (slurmd runs jobs as their user, munged as munge)"
  local bin
  for bin in munged slurmctld slurmd sinfo scontrol; do
    command -v "$bin" >/dev/null 2>&1 || [ -x "/usr/sbin/$bin" ] ||
      fail "$bin not found: install the Debian packages slurmctld slurmd slurm-client munge"
  done
  id munge >/dev/null 2>&1 || fail "no munge user: install the Debian package munge"
  # A slurmctld or slurmd already running would hold the ports. A munged of the machine's own (Debian's package
  # starts one where services may start) is left alone: this cluster's munged has a socket of its own.
  local name running=""
  for name in slurmctld slurmd slurmstepd; do
    running+=$(pgrep -x "$name" | sed "s/^/$name pid /" | tr '\n' ' ' || true)
  done
  [ -z "$running" ] || fail "a Slurm daemon already runs on this machine (${running% }); stop it first"
  mkdir -p "$dir"
  pgrep -x munged >"$dir/preexisting.pids" || true

  local host cpus mem
  host=$(hostname -s)
  # Slurm counts RealMemory in MiB; the node declares what the machine has, so no job is refused for memory.
  mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  # Four array tasks of one CPU each must run at once on a 2-core machine. The node declares max(4, nproc) CPUs,
  # and `SlurmdParameters=config_overrides` makes slurmd take slurm.conf's count over the hardware it finds
  # (without it a node declaring more CPUs than it has is set INVALID and runs nothing). Both this and
  # `OverSubscribe=FORCE:4` on the partition (the node's real 2 CPUs, each shared by up to 4 jobs) were tried
  # here and both run the 4 tasks at once; declaring 4 CPUs is kept because the scheduler's arithmetic then stays
  # plain: 4 slots for 4 tasks (sinfo shows CPUAlloc=4), as on a real node with a CPU per task, while FORCE:4
  # would admit 8 such tasks on 2 cores.
  cpus=$(nproc)
  [ "$cpus" -ge 4 ] || cpus=4

  # munged runs as the munge user and must reach DIR/munge: DIR itself is traversable (mktemp -d makes 0700).
  chmod 755 "$dir"
  mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/run" "$dir/munge"
  # munged's socket folder must be traversable by every user (the clients), and writable only by munge.
  chown munge:munge "$dir/munge"
  chmod 755 "$dir/munge"
  runuser -u munge -- test -x "$dir/munge" ||
    fail "the munge user cannot reach $dir/munge: every folder above it must be searchable by all (chmod o+x)"

  # The Debian package creates /etc/munge/munge.key when it is installed; a machine without one gets a key of
  # its own under DIR (munged refuses to start without a key).
  local key=/etc/munge/munge.key
  if [ ! -r "$key" ]; then
    key=$dir/munge/munge.key
    runuser -u munge -- mungekey --create --keyfile="$key" || fail "mungekey could not create $key"
  fi
  runuser -u munge -- /usr/sbin/munged \
    --socket="$dir/munge/munge.socket.2" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --key-file="$key" ||
    fail "munged did not start (see $dir/munge/munged.log)"

  cat >"$conf" <<EOF
# Written by scripts/slurm-cluster.sh: a single-node cluster on 127.0.0.1 for the tests.
ClusterName=arbiter-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket.2
# No systemd and no cgroups here: processes are tracked through their parents, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

  # -i: start from an empty state (no job of an earlier cluster in DIR is recovered).
  slurmctld -f "$conf" -i || fail "slurmctld did not start (see $dir/log/slurmctld.log)"
  slurmd -f "$conf" -N "$host" || fail "slurmd did not start (see $dir/log/slurmd.log)"

  local i state=""
  for ((i = 0; i < 300; i++)); do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1) || true
    [ "$state" = idle ] && break
    sleep 0.1
  done
  if [ "$state" != idle ]; then
    echo "slurm-cluster: the node is '${state:-not listed}' after 30 s, not idle; the logs:" >&2
    tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    fail "the cluster did not come up"
  fi
  echo "slurm-cluster: up in $dir ($host, $cpus CPUs); export SLURM_CONF=$conf"
}

stop() {
  if [ -f "$conf" ]; then
    # A job still running when slurmd stops would leave its slurmstepd and processes behind: cancel every job
    # first and wait (bounded) until the queue is empty.
    local ids i
    ids=$(squeue -h -o %A 2>/dev/null | tr '\n' ' ') || true
    if [ -n "${ids// /}" ]; then
      # shellcheck disable=SC2086 # one word per job id
      scancel $ids 2>/dev/null || true
      for ((i = 0; i < 600; i++)); do
        [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
        sleep 0.1
      done
    fi
    scontrol shutdown 2>/dev/null || true
    wait_pidfile_gone "$dir/run/slurmctld.pid" 30 || true
    wait_pidfile_gone "$dir/run/slurmd.pid" 30 || true
  fi
  # Whatever did not stop by `scontrol shutdown` is ended by its own pid file, never by name.
  stop_pidfile "$dir/run/slurmctld.pid" || true
  stop_pidfile "$dir/run/slurmd.pid" || true
  stop_pidfile "$dir/munge/munged.pid" || true
  local left i
  for ((i = 0; i < 50; i++)); do
    left=$(left_behind)
    [ -z "$left" ] && break
    sleep 0.1
  done
  if [ -n "$left" ]; then
    echo "slurm-cluster: still running after stop: $left" >&2
    exit 1
  fi
  echo "slurm-cluster: stopped; no slurmctld, slurmd, slurmstepd or munged left"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
