#!/bin/bash
# Big stretches against whole-tour threads, threads only (large_tour_bench), 14 threads.
set -u
B=device-pack/large_tour_bench
R=$OUT/r; mkdir -p $R
nproc > $R/host.txt; lscpu | grep "Model name" >> $R/host.txt
run() { local name=$1; shift; timeout 200 $B "$@" > $R/$name.txt 2>&1; }
run 200k_whole --cities 200000 --seconds 60 --every 10 --threads 14 --lk-step 3opt --whole-only
run 200k_s10k --cities 200000 --seconds 60 --every 10 --threads 14 --lk-step 3opt --stretch 10000 --kicks 3000 --stretches-only
run 200k_s25k --cities 200000 --seconds 60 --every 10 --threads 14 --lk-step 3opt --stretch 25000 --kicks 5000 --stretches-only
run 1m_whole --cities 1000000 --seconds 60 --every 10 --threads 14 --lk-step 3opt --whole-only
run 1m_s10k --cities 1000000 --seconds 60 --every 10 --threads 14 --lk-step 3opt --stretch 10000 --kicks 3000 --stretches-only
run 1m_s35k --cities 1000000 --seconds 60 --every 10 --threads 14 --lk-step 3opt --stretch 35000 --kicks 5000 --stretches-only
tail -n 4 $R/*.txt
tar czf $OUT/s1.tgz -C $OUT r
