#!/usr/bin/env bash
# devrun/b.sh, then devrun/c.sh (each after devrun/common.sh, as in run.sh), on the H200 machine.
# Issue 20's larger targets with the stall measured on GA-EAX's own tours: usa13509 60 s (seeds
# 2-4; 2 and 3 were 0.18 / 0.21 % before the fix) and d18512 120 s (seeds 2, 3).
{ for s in 2 3 4; do run auto usa13509 19982859 60 $s; done
  for s in 2 3; do run auto d18512 645238 120 $s; done; } | tee $OUT/bench.txt
grep -h "auto:" $OUT/r/d18512_auto_s2.log >> $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
# Issue 20's pla33810 target (<= 0.1 % at 120 s) with the default solver after the stall fix,
# seeds 1 and 2, and usa13509 60 s seed 5.
{ for s in 1 2; do run auto pla33810 66048945 120 $s; done
  run auto usa13509 19982859 60 5; } | tee $OUT/bench.txt
grep -h "auto:" $OUT/r/pla33810_auto_s1.log >> $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
