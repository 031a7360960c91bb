#!/usr/bin/env bash
# Issue 20's pla33810 target (<= 0.1 % at 120 s) with the default solver after the stall fix,
# seeds 1 and 2, and usa13509 60 s seed 5.
source devrun/common.sh
{ for s in 1 2; do run auto pla33810 66048945 120 $s; done
  run auto usa13509 19982859 60 5; } | tee $OUT/bench.txt
grep -h "auto:" $OUT/r/pla33810_auto_s1.log >> $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
