# batch stretches: smaller stretches, longer rounds (200k 60 s; 1M 90 s)
set -u
D=$PWD/device-pack; chmod +x $D/*
B="$D/large_tour_bench --threads 15 --lk-step 3opt --whole-only --stretches-only --batch-stretches"
for cfg in "1000 6" "300 3" "200 2"; do set -- $cfg
  timeout 100 $B --cities 200000 --seconds 60 --every 10 --batch-stretch $1 --round-seconds $2 > $OUT/b200k_$1_$2.txt 2>&1; cat $OUT/b200k_$1_$2.txt
done
timeout 150 $B --cities 1000000 --seconds 90 --every 15 --batch-stretch 250 --round-seconds 10 > $OUT/b1m_250_10.txt 2>&1; cat $OUT/b1m_250_10.txt
