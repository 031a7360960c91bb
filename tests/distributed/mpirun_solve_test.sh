#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `mpirun -np 2 formica solve` end to end (ctest registers it where MPI is found): a valid tour is
# written once, the JSON report says 2 ranks, only rank 0 prints the summary; and input every rank
# refuses gives one error line and exit code 2, not a hang; and a rank killed with SIGKILL in the
# middle of a run ends the whole run with an error soon after, not a hang (each run under a timeout).
# Usage: mpirun_solve_test.sh FORMICA MPIEXEC [MPIEXEC FLAGS...]
# The two ranks exchange through MPI's host buffers unless FORMICA_EXPECT_TRANSPORT names another
# transport the run must report (a GPU host with two GPUs and NCCL built: "NCCL (device buffers)").
set -euo pipefail
formica=$1
shift
mpirun=("$@")
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=$(cd "$(dirname "$0")/../data" && pwd)
fail() { echo "FAILED: $*"; exit 1; }

"$formica" generate --cities 200 --kind uniform --seed 3 --output "$work/u200.tsp" >/dev/null
status=0
timeout 120 "${mpirun[@]}" -np 2 "$formica" solve "$work/u200.tsp" --time-limit 2 --threads 1 --island-interval 0.4 \
  --tour-out "$work/best.tour" --json "$work/run.json" >"$work/out" 2>"$work/err" || status=$?
cat "$work/out" "$work/err"
[ $status = 0 ] || fail "mpirun -np 2 formica solve exited $status"
[ "$(grep -c '^u200\|best .* after' "$work/out")" = 1 ] || fail "the summary is not printed exactly once"
grep -q '^exchange ' "$work/err" || fail "rank 0 printed no exchange"
"$formica" verify "$work/u200.tsp" "$work/best.tour" >/dev/null || fail "the tour written is not a valid tour"
grep -q '"ranks": 2' "$work/run.json" || fail "the JSON report does not say 2 ranks"
transport=${FORMICA_EXPECT_TRANSPORT:-MPI (host buffers)}
grep -q "\"transport\": \"$transport\"" "$work/run.json" || fail "the JSON report does not name $transport"

status=0
timeout 60 "${mpirun[@]}" -np 2 "$formica" solve "$data/garbage.tsp" --time-limit 2 >"$work/out" 2>"$work/err" || status=$?
cat "$work/err"
[ $status != 124 ] || fail "a bad input under mpirun hung (timeout)"
[ $status = 2 ] || fail "a bad input under mpirun exited $status, not 2"
[ "$(grep -c '^formica: error' "$work/err")" = 1 ] || fail "a bad input under mpirun did not give exactly one error line"

# Rank 1 killed with SIGKILL in the middle of a 60-s run, once rank 0 has written --tour-out at an
# exchange (a fixed sleep is too short where ASan and a busy machine slow the start; MPMD: rank 1 is
# a shell that starts formica, kills it and exits with its status, which mpirun sees): mpirun ends
# every rank, well before the limit, and --tour-out holds the best tour of the last exchange (rank 0
# rewrites it at each that improved).
kill_rank() { "$formica" solve "$work/u200.tsp" --time-limit 60 --threads 1 --island-interval 0.4 --quiet &
  local pid=$!
  for _ in $(seq 300); do [ -s "$work/killed.tour" ] && break; sleep 0.1; done
  sleep 0.5
  kill -9 "$pid"
  wait "$pid"; }
export -f kill_rank
export formica work
status=0
start=$SECONDS
timeout 120 "${mpirun[@]}" -np 1 "$formica" solve "$work/u200.tsp" --time-limit 60 --threads 1 --island-interval 0.4 \
  --tour-out "$work/killed.tour" : -np 1 bash -c kill_rank >"$work/out" 2>"$work/err" || status=$?
took=$((SECONDS - start))
cat "$work/err"
[ $status != 124 ] || fail "a killed rank hung the run (timeout)"
[ $status != 0 ] || fail "a killed rank ended the run with exit 0"
[ $took -lt 40 ] || fail "a killed rank ended the run only after ${took} s"
grep -qi "signal\|non-zero\|exited\|killed\|abort" "$work/err" || fail "no error names the killed rank"
"$formica" verify "$work/u200.tsp" "$work/killed.tour" >/dev/null || fail "no valid tour left in --tour-out after the kill"
echo "a killed rank ended the run in ${took} s with exit ${status}; --tour-out holds the last exchange's best tour"
echo "passed"
