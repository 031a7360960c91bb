#!/usr/bin/env bash
# The stall measured on GA-EAX's own tours (not the adopted guest's): the GPU suites touched, the
# CLI tests, then issue 20's pcb3038 and fnl4461 targets (5 seeds, each stopping at the optimum).
source devrun/common.sh
B=$PWD/build-dev/tests
{
$B/localsearch_tests 2>&1 | tail -n 3
$B/solver_tests 2>&1 | tail -n 3
$B/aco_tests --gtest_filter='*Merge*:*Hybrid*:*Focused*:*Memory*' 2>&1 | tail -n 3
timeout 200 $B/cli_tests 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED TEST|tests ran"
} > $OUT/tests.txt 2>&1
cat $OUT/tests.txt
for s in 1 2 3 4 5; do run auto pcb3038 137694 20 $s; done | tee $OUT/bench.txt
for s in 1 2 3 4 5; do run auto fnl4461 182566 60 $s; done | tee -a $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
