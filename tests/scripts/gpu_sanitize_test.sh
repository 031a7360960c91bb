#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/gpu_sanitize's parsing on fake compute-sanitizer and gtest output (no GPU needed): the
# cell each kind of run gets, and the gtest filter of the GPU test suites.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/gpu_sanitize_lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect_cell() {  # expect_cell NAME EXIT_CODE EXPECTED_CELL <<< LOG
  cat >"$work/$1.log"
  local got
  got=$(sanitizer_verdict "$work/$1.log" "$2" 240)
  if [ "$got" != "$3" ]; then
    echo "FAIL $1: expected '$3', got '$got'"
    failures=$((failures + 1))
  else
    echo "ok   $1: $got"
  fi
}

ran='[==========] 12 tests from 3 test suites ran. (812 ms total)'
expect_cell memcheck_clean 0 "0" <<EOF2
========= COMPUTE-SANITIZER
$ran
[  PASSED  ] 12 tests.
========= LEAK SUMMARY: 0 bytes leaked in 0 allocations
========= ERROR SUMMARY: 0 errors
EOF2
expect_cell memcheck_errors 86 "3" <<EOF2
========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at walk_kernel(int *)+0x1a0 in walks.cu:42
$ran
[  PASSED  ] 12 tests.
========= ERROR SUMMARY: 3 errors
EOF2
expect_cell one_error 86 "1" <<EOF2
$ran
========= ERROR SUMMARY: 1 error
EOF2
expect_cell two_processes 86 "3" <<EOF2
========= ERROR SUMMARY: 1 error
$ran
========= ERROR SUMMARY: 2 errors
EOF2
expect_cell racecheck_clean 0 "0" <<EOF2
$ran
[  PASSED  ] 12 tests.
========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)
EOF2
expect_cell racecheck_hazards 86 "1; 2 race warnings" <<EOF2
========= Error: Race reported between Write access at 0x1f0 in k_swap.cu:88
$ran
========= RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)
EOF2
expect_cell timed_out 124 "0; timed out after 240 s" <<EOF2
========= COMPUTE-SANITIZER
EOF2
expect_cell crashed 139 "0; no sanitizer summary (exit 139)" <<EOF2
========= COMPUTE-SANITIZER
Segmentation fault
EOF2
expect_cell test_failed 1 "0; 1 tests failed" <<EOF2
[  FAILED  ] GpuColonies.SameSeedSameTours (31 ms)
$ran
[  FAILED  ] 1 test, listed below:
[  FAILED  ] GpuColonies.SameSeedSameTours
========= ERROR SUMMARY: 0 errors
EOF2
expect_cell skipped 0 "0; 2 tests skipped" <<EOF2
[  SKIPPED ] TwoOptCudaLarge.Pla33810FromTheCurve (0 ms)
[  SKIPPED ] TwoOptCudaLarge.Pla85900FromTheCurve (0 ms)
$ran
[  PASSED  ] 10 tests.
[  SKIPPED ] 2 tests, listed below:
[  SKIPPED ] TwoOptCudaLarge.Pla33810FromTheCurve
[  SKIPPED ] TwoOptCudaLarge.Pla85900FromTheCurve
========= ERROR SUMMARY: 0 errors
EOF2
expect_cell nothing_ran 0 "0; no test ran" <<EOF2
[==========] 0 tests from 0 test suites ran. (0 ms total)
========= ERROR SUMMARY: 0 errors
EOF2

# The filter: suites of the files that call FORMICA_REQUIRE_CUDA, none of the others'.
mkdir -p "$work/tests/aco" "$work/tests/core"
cat >"$work/tests/aco/walk_cuda_test.cpp" <<'EOF2'
TEST(WalkCuda, Climbs) {
  FORMICA_REQUIRE_CUDA();
}
TEST_P(SizesCuda, Every) { FORMICA_REQUIRE_CUDA(); }
  TEST_F( FixtureCuda, Runs) {}
EOF2
cat >"$work/tests/core/tour_test.cpp" <<'EOF2'
TEST(Tour, Length) {}
EOF2
filter=$(gpu_test_filter "$work/tests")
expected='FixtureCuda.*:*/FixtureCuda.*:SizesCuda.*:*/SizesCuda.*:WalkCuda.*:*/WalkCuda.*'
if [ "$filter" != "$expected" ]; then
  echo "FAIL filter: expected '$expected', got '$filter'"
  failures=$((failures + 1))
else
  echo "ok   filter: $filter"
fi
# This checkout's filter names the GPU suites and no CPU suite.
filter=$(gpu_test_filter "$root/tests")
for suite in TwoOptCudaClimb GpuColonies BatchWalksCuda CudaSmoke; do
  [[ ":$filter:" == *":$suite.*:"* ]] || { echo "FAIL filter: $suite missing"; failures=$((failures + 1)); }
done
for suite in Tour ColonySearchCpu Cli; do
  [[ ":$filter:" != *":$suite.*:"* ]] || { echo "FAIL filter: CPU suite $suite included"; failures=$((failures + 1)); }
done

# The test names of a --gtest_list_tests listing, parameterised and typed ones included.
names=$(gtest_names <<'EOF2'
Running main() from ./googletest/src/gtest_main.cc
GpuAliasTables.
  GiveEveryCityItsShareOfTheRow
AllMethods/GpuSelection.
  SamplesTheExactDistribution/warp_per_ant_roulette_n40  # GetParam() = 20-byte object <01-00>
Typed/0.  # TypeParam = int
  Works
EOF2
)
expected='GpuAliasTables.GiveEveryCityItsShareOfTheRow
AllMethods/GpuSelection.SamplesTheExactDistribution/warp_per_ant_roulette_n40
Typed/0.Works'
if [ "$names" != "$expected" ]; then
  echo "FAIL names: expected '$expected', got '$names'"
  failures=$((failures + 1))
else
  echo "ok   names: $(echo "$names" | wc -l) tests"
fi

expect_summary() {  # expect_summary NAME EXPECTED_CELL <<< STATUS_LINES
  cat >"$work/$1.status"
  local got
  got=$(per_test_summary "$work/$1.status")
  if [ "$got" != "$2" ]; then
    echo "FAIL $1: expected '$2', got '$got'"
    failures=$((failures + 1))
  else
    echo "ok   $1: $got"
  fi
}
expect_summary all_clean "0 in 2 tests" <<'EOF2'
aco_tests A.x 0
aco_tests B.y 0
EOF2
expect_summary some_late "0 in 1 of 3 tests; 2 timed out with nothing found" <<'EOF2'
aco_tests A.x 0
aco_tests B.y 0; timed out after 500 s
aco_tests C.z 0; timed out after 500 s
EOF2
expect_summary findings "0 in 1 of 3 tests; 2 with findings or failures: B.y (3), C.z (0; 1 tests failed)" <<'EOF2'
cuda_tests A.x 0
cuda_tests B.y 3
cuda_tests C.z 0; 1 tests failed
EOF2

# The per-test runs end to end on fakes (no GPU): compute-sanitizer, nvidia-smi and a test binary
# with three heavy GPU tests, one quick, one slow, one last, and two small GPU tests of the default
# set, one of which makes no CUDA call (host logic in a GPU suite). A time box (--stop-after) cuts the slow
# one off with its status written and leaves the last unstarted; a second run with --done skips
# what the first finished clean and counts it.
fake=$work/fake
mkdir -p "$fake/bin" "$fake/build/tests"
cat >"$fake/bin/nvidia-smi" <<'EOF2'
#!/usr/bin/env bash
if [ "${1:-}" = -L ]; then echo "GPU 0: Fake GPU (UUID: GPU-0)"; else echo "Fake GPU, 0.0, 1 MiB"; fi
EOF2
cat >"$fake/bin/compute-sanitizer" <<'EOF2'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "fake compute-sanitizer"; exit 0; }
log=""
while [ "${1#--}" != "$1" ]; do  # its options, each with a value
  [ "$1" != --log-file ] || log=$2
  shift 2
done
"$@"
rc=$?
if [[ " $* " == *" --bad "* || "$*" == *host_only* ]]; then  # as a run that makes no CUDA call
  message="========= Error: Target application terminated before first instrumented API call"
  if [ -n "$log" ]; then echo "$message" >"$log"; else echo "$message"; fi
  exit 255
fi
summary="========= ERROR SUMMARY: ${FAKE_ERRORS:-0} errors"
if [ -n "$log" ]; then echo "$summary" >"$log"; else echo "$summary"; fi
[ "${FAKE_ERRORS:-0}" = 0 ] || rc=86
exit $rc
EOF2
cat >"$fake/build/tests/aco_tests" <<'EOF2'
#!/usr/bin/env bash
tests=(AllMethods/GpuSelection.SamplesTheExactDistribution/a_quick_n1000
       AllMethods/GpuSelection.SamplesTheExactDistribution/b_slow_n5000
       AllMethods/GpuSelection.SamplesTheExactDistribution/c_last_n2000
       AllMethods/GpuSelection.SamplesTheExactDistribution/d_small_n40
       AllMethods/GpuSelection.SamplesTheExactDistribution/e_host_only_n40 Selection.RouletteIsExact
       Uchida2012Table4/AntSystemQuality.HundredIterationsLandInThePapersRange/d198)  # CPU, heavy's pattern
filter='*' list=0
for a in "$@"; do
  case $a in --gtest_list_tests) list=1 ;; --gtest_filter=*) filter=${a#--gtest_filter=} ;; esac
done
any_of() {  # any_of NAME PATTERNS: NAME matches one of the colon-separated patterns
  local p
  IFS=: read -ra patterns <<<"$2"
  for p in "${patterns[@]}"; do [[ $1 == $p ]] && return 0; done
  return 1
}
matches() {  # gtest's filter: POSITIVE[-NEGATIVE], an empty positive part meaning '*'
  local positive=${filter%%-*} negative=""
  [[ $filter != *-* ]] || negative=${filter#*-}
  any_of "$1" "${positive:-*}" && ! { [ -n "$negative" ] && any_of "$1" "$negative"; }
}
if [ $list = 1 ]; then
  for t in "${tests[@]}"; do matches "$t" && printf '%s.\n  %s\n' "${t%%.*}" "${t#*.}"; done
  exit 0
fi
[[ $filter == *slow* ]] && sleep "${FAKE_SLOW_SECONDS:-60}"
echo "time scale ${FORMICA_TEST_TIME_SCALE:-unset}, ants ${FORMICA_TEST_MAX_ANTS:-uncapped}"
echo "device ${CUDA_VISIBLE_DEVICES:-unset}"
echo "[==========] 1 test from 1 test suite ran. (5 ms total)"
EOF2
# --cli: a formica that echoes its arguments, and CLI tests that run it on the CPU (--backend cpu,
# bound) and (by default) on the GPU; a filter (the GPU test filter) lists none of them.
cat >"$fake/build/formica" <<'EOF2'
#!/usr/bin/env bash
echo "formica $*"
[[ " $* " != *" --bad "* ]] || exit 2
EOF2
cat >"$fake/build/tests/cli_tests" <<'EOF2'
#!/usr/bin/env bash
case " $* " in
  *" --gtest_filter="*) exit 0 ;;
  *" --gtest_list_tests "*) printf 'Cli.\n  OnTheCpu\n  OnTheGpu\n'; exit 0 ;;
esac
# gtest's sharding: test i runs in shard i mod GTEST_TOTAL_SHARDS
shards=${GTEST_TOTAL_SHARDS:-1} index=${GTEST_SHARD_INDEX:-0} failed=0 ran=0 i=0
for test in OnTheCpu OnTheGpu; do
  if [ $((i % shards)) = "$index" ]; then
    ran=$((ran + 1))
    if [ $test = OnTheCpu ]; then runs=("solve --backend cpu" "solve --backend=cpu" "bound x"); else runs=("solve"); fi
    for args in "${runs[@]}"; do
      # shellcheck disable=SC2086  # the words on purpose
      out=$("$FORMICA_CLI" $args) && [ "$out" = "formica $args" ] || { echo "[  FAILED  ] Cli.$test (1 ms)"; failed=1; }
    done
    if [ $test = OnTheGpu ]; then  # a bad argument: formica's exit code 2 and its output, once
      out=$("$FORMICA_CLI" solve --bad)
      [ $? = 2 ] && [ "$out" = "formica solve --bad" ] || { echo "[  FAILED  ] Cli.$test (1 ms)"; failed=1; }
    fi
    [ $test = OnTheCpu ] || echo "OnTheGpu on device ${CUDA_VISIBLE_DEVICES:-unset}"
  fi
  i=$((i + 1))
done
echo "[==========] $ran tests from 1 test suite ran. (5 ms total)"
exit $failed
EOF2
chmod +x "$fake/bin/"* "$fake/build/tests/aco_tests" "$fake/build/formica" "$fake/build/tests/cli_tests"
fake_run() {  # fake_run OUT OPTIONS...: the script's output; its exit code in OUT.rc
  local out=$1
  shift
  PATH="$fake/bin:$PATH" bash "$root/scripts/gpu_sanitize" --build "$fake/build" --heavy --tools synccheck \
    --jobs 1 --timeout 100 --out "$out" "$@" >"$out.txt" 2>&1
  echo $? >"$out.rc"
}
expect_run() {  # expect_run WHAT CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}
fake_run "$work/box1" --stop-after 12
expect_run "time box: quick test clean" grep -qx 'aco_tests AllMethods/GpuSelection.SamplesTheExactDistribution/a_quick_n1000 0' "$work/box1/synccheck.status"
expect_run "time box: slow test cut off" grep -qE 'b_slow_n5000 0; timed out after 1[0-2] s$' "$work/box1/synccheck.status"
expect_run "time box: last test not started" grep -q '1 tests not started within --stop-after 12 s' "$work/box1.txt"
expect_run "time box: not all ran, so it fails" [ "$(cat "$work/box1.rc")" != 0 ]
FAKE_SLOW_SECONDS=0 fake_run "$work/box2" --done "$work/box1" --first '*/c_last*'
expect_run "resumed: --first puts its tests first" \
  [ "$(awk '{ print $2 }' "$work/box2/synccheck.status" | sed -n 2,3p | tr '\n' ' ')" = \
    "AllMethods/GpuSelection.SamplesTheExactDistribution/c_last_n2000 AllMethods/GpuSelection.SamplesTheExactDistribution/b_slow_n5000 " ]
expect_run "resumed: the clean test skipped" grep -q '2 tests, 1 at a time on GPUs 0 (1 clean in .*box1 not run again)' "$work/box2.txt"
expect_run "resumed: every test counted clean" grep -qx 'synccheck aco_tests: 0 in 3 tests' "$work/box2.txt"
expect_run "resumed: passes" [ "$(cat "$work/box2.rc")" = 0 ]
log=$work/box2/synccheck/aco_tests/AllMethods_GpuSelection.SamplesTheExactDistribution_c_last_n2000.log
expect_run "tests under a tool get time scale 20" grep -qx 'time scale 20, ants uncapped' "$log"
FAKE_SLOW_SECONDS=0 FORMICA_TEST_TIME_SCALE=5 FORMICA_TEST_MAX_ANTS=16 fake_run "$work/box3"
log=$work/box3/synccheck/aco_tests/AllMethods_GpuSelection.SamplesTheExactDistribution_c_last_n2000.log
expect_run "a set time scale and ant cap reach the tests" grep -qx 'time scale 5, ants 16' "$log"
expect_run "the output names them" grep -q 'FORMICA_TEST_MAX_ANTS=16' "$work/box3.txt"
FAKE_SLOW_SECONDS=0 fake_run "$work/box4" --devices 2,3
expect_run "--devices 2,3: the tests go to devices 2 and 3 in turn" \
  [ "$(for t in a_quick_n1000 b_slow_n5000 c_last_n2000; do
         grep -h '^device' "$work/box4/synccheck/aco_tests/AllMethods_GpuSelection.SamplesTheExactDistribution_$t.log"
       done | tr '\n' ' ')" = "device 2 device 3 device 2 " ]
expect_run "--devices 2,3: the output names them" grep -q '3 tests, 1 at a time on GPUs 2 3$' "$work/box4.txt"
fake_run "$work/box5" --devices 1,x
expect_run "--devices with a bad device: one line, exit 2" \
  [ "$(cat "$work/box5.rc")" = 2 -a "$(cat "$work/box5.txt")" = "scripts/gpu_sanitize: --devices: 'x' is not a device index" ]
cli_run() {  # cli_run OUT OPTIONS...: --cli alone (no GPU test binary), memcheck
  local out=$1
  shift
  PATH="$fake/bin:$PATH" bash "$root/scripts/gpu_sanitize" --build "$fake/build" --binaries cli_tests --cli \
    --tools memcheck --timeout 100 --out "$out" "$@" >"$out.txt" 2>&1
  echo $? >"$out.rc"
}
cli_run "$work/box6" --jobs 1
expect_run "--cli: the GPU run under the tool, the CPU runs as they are, every CLI test passes" \
  grep -qE '^memcheck cli_tests: 0 \(2 tests in 1 shards, 2 runs of formica under the tool, 1 of them ended before any CUDA call, [0-9]+ s\)$' "$work/box6.txt"
expect_run "--cli: a run that ends before any CUDA call is run again without the tool, its output once" \
  grep -q '(no CUDA call: run again without the tool' "$work/box6/memcheck-cli_tests.log"
expect_run "--cli: each run's own log" [ "$(find "$work/box6/memcheck-cli/logs" -name '*.log' | wc -l)" = 2 ]
expect_run "--cli: a column of the table, and it passes" \
  grep -q '| memcheck | 0 (2 tests in 1 shards, 2 runs of formica under the tool, 1 of them' "$work/box6/table.md" -a "$(cat "$work/box6.rc")" = 0
FAKE_ERRORS=4 cli_run "$work/box7" --jobs 1
expect_run "--cli: a run's errors count, and the failed CLI test" \
  grep -qE '^memcheck cli_tests: 4; 1 tests failed \(2 tests in 1 shards, 2 runs' "$work/box7.txt"
expect_run "--cli: errors fail the script" [ "$(cat "$work/box7.rc")" = 1 ]
cli_run "$work/box8" --jobs 2 --devices 3,5
expect_run "--cli --jobs 2: two shards, each test once, every CLI test passes" \
  grep -qE '^memcheck cli_tests: 0 \(2 tests in 2 shards, 2 runs of formica under the tool, 1 of them ended before any CUDA call, [0-9]+ s\)$' "$work/box8.txt"
expect_run "--cli --jobs 2: the second shard (the GPU test) on the second device" \
  grep -qx 'OnTheGpu on device 5' "$work/box8/memcheck-cli_tests.log"
FAKE_ERRORS=2 cli_run "$work/box9" --jobs 2
expect_run "--cli --jobs 2: the GPU shard's errors and failure reach the cell" \
  grep -qE '^memcheck cli_tests: 2; 1 tests failed \(2 tests in 2 shards' "$work/box9.txt"
PATH="$fake/bin:$PATH" bash "$root/scripts/gpu_sanitize" --build "$fake/build" --per-test --tools racecheck \
  --racecheck-filter '*' --jobs 1 --timeout 100 --out "$work/box10" >"$work/box10.txt" 2>&1
echo $? >"$work/box10.rc"
expect_run "--per-test without --heavy: racecheck's '*' is the default set, the heavy tests left out" \
  [ "$(awk '{ print $2 }' "$work/box10/racecheck.status" | sort | tr '\n' ' ')" = \
    "AllMethods/GpuSelection.SamplesTheExactDistribution/d_small_n40 AllMethods/GpuSelection.SamplesTheExactDistribution/e_host_only_n40 " ]
expect_run "--per-test: a test that makes no CUDA call runs again without the tool, counted apart" \
  grep -qx 'racecheck aco_tests: 0 in 2 tests (1 of them made no CUDA call: passed without the tool)' "$work/box10.txt"
expect_run "--per-test: ... and the run passes" [ "$(cat "$work/box10.rc")" = 0 ]
FAKE_SLOW_SECONDS=0 fake_run "$work/box11" --tools racecheck --racecheck-filter '*quick*:*small*'
expect_run "--heavy: racecheck's filter within the heavy tests (the small default test left out)" \
  [ "$(awk '{ print $2 }' "$work/box11/racecheck.status")" = \
    "AllMethods/GpuSelection.SamplesTheExactDistribution/a_quick_n1000" ]
PATH="$fake/bin:$PATH" bash "$root/scripts/gpu_sanitize" --build "$fake/build" --heavy --list >"$work/box12.txt" 2>&1
expect_run "--heavy --list: the heavy GPU tests, not a CPU test that a heavy pattern matches" \
  [ "$(grep -c 'aco_tests: 3 of its 5 GPU tests (racecheck: 3)' "$work/box12.txt")" = 1 -a \
    "$(grep -c 'AntSystemQuality' "$work/box12.txt")" = 0 ]
help=$(bash "$root/scripts/gpu_sanitize" --help)
expect_run "--help: the header's options, from the first line to --list" \
  [ "$(head -n 1 <<<"$help" | cut -c1-24)" = "On a machine with a CUDA" -a "$(tail -n 1 <<<"$help" | cut -c1-8)" = "  --list" ]
[ $failures = 0 ] || for box in box1 box2 box3 box4 box5 box6 box7 box8 box9 box10 box11 box12; do echo "--- $box"; cat "$work/$box.txt"; done

[ $failures = 0 ] && echo "all cells and filters as expected" || echo "$failures failures"
exit $((failures > 0))
