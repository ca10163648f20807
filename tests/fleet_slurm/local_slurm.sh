#!/bin/sh
# A one-node Slurm cluster under one directory, for tests: munged, slurmctld and slurmd from
# Debian's packages (slurmctld slurmd slurm-client munge), with the config, state, spool, logs,
# munge key and socket all under DIR and SLURM_CONF pointing at DIR/slurm.conf.
#
#   local_slurm.sh start DIR   starts the daemons; prints "export SLURM_CONF=..." lines.
#                              Exits 77 with "skip: why" on stdout when Slurm cannot start
#                              here (not installed, a daemon refuses to start).
#   local_slurm.sh stop DIR    stops the daemons it started, by their pid files (slurmd,
#                              slurmctld, then munged).
#
# What this needs on Debian 12 / Slurm 22.05 with no systemd and no cgroups:
# proctrack/linuxproc, task/none, select/cons_tres, accounting off, NodeName = `hostname -s`
# with RealMemory below what `slurmd -C` reports, the munge socket's folder mode 755 (munged
# refuses 700), spool folders made beforehand, distinct ports per run, and
# batch_sched_delay=0,sched_min_interval=0 so that array tasks start at once.
set -u
cmd=$1
dir=$2

stop() {
  for daemon in slurmd slurmctld munged; do
    pidfile="$dir/run/$daemon.pid"
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
    rm -f "$pidfile"
  done
}

skip() {
  echo "skip: $*"
  stop
  exit 77
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi

for tool in munged slurmctld slurmd sbatch squeue; do
  command -v "$tool" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin"
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (Debian: slurmctld slurmd slurm-client munge)"
done

mkdir -p "$dir/munge" "$dir/run" "$dir/state" "$dir/spool" "$dir/log" || skip "cannot create $dir"
chmod 755 "$dir" "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
munged --force --key-file="$dir/munge/munge.key" --socket="$socket" \
  --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge/munged.seed" >"$dir/log/munged.out" 2>&1 ||
  skip "munged did not start: $(tail -n 3 "$dir/log/munged.out" "$dir/log/munged.log" 2>/dev/null | tr '\n' ' ')"

host=$(hostname -s)
user=$(id -un)
memory=$(slurmd -C 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
[ -n "$memory" ] || skip "slurmd -C reports no memory"
memory=$((memory / 2))
cpus=$(slurmd -C 2>/dev/null | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p')
# Distinct ports per run: from the process id, in 20000..59999.
base=$((20000 + ($$ % 20000) * 2))
cat >"$dir/slurm.conf" <<CONF
ClusterName=fencescope-test
SlurmctldHost=$host
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=$user
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -c >"$dir/log/slurmctld.out" 2>&1 ||
  skip "slurmctld did not start: $(tail -n 3 "$dir/log/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
slurmd >"$dir/log/slurmd.out" 2>&1 ||
  skip "slurmd did not start: $(tail -n 3 "$dir/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
# Ready when the node is idle (about a second).
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
  i=$((i + 1))
  [ $i -lt 100 ] || skip "the node did not become idle: $(sinfo -h 2>&1 | head -n 2 | tr '\n' ' ') $(tail -n 3 "$dir/log/slurmd.log" | tr '\n' ' ')"
  sleep 0.1
done
echo "export SLURM_CONF=$dir/slurm.conf"
