#!/usr/bin/env bash
# Issue 20's larger targets with the stall measured on GA-EAX's own tours: usa13509 60 s (seeds
# 2-4; 2 and 3 were 0.18 / 0.21 % before the fix) and d18512 120 s (seeds 2, 3).
source devrun/common.sh
{ for s in 2 3 4; do run auto usa13509 19982859 60 $s; done
  for s in 2 3; do run auto d18512 645238 120 $s; done; } | tee $OUT/bench.txt
grep -h "auto:" $OUT/r/d18512_auto_s2.log >> $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
