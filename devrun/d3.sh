# batch stretches on the GPU: tests, then whole-tour threads vs whole-tour threads + GPU batch stretches (200k, 1M)
set -u
D=$PWD/device-pack; chmod +x $D/*
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
timeout 200 $D/batch_tests --gtest_brief=1 > $OUT/batch_tests.txt 2>&1; echo "rc=$?" >> $OUT/batch_tests.txt
tail -5 $OUT/batch_tests.txt
timeout 170 $D/large_tour_bench --cities 200000 --seconds 60 --every 10 --threads 15 --lk-step 3opt --whole-only --batch-stretches > $OUT/b200k.txt 2>&1
cat $OUT/b200k.txt
timeout 230 $D/large_tour_bench --cities 1000000 --seconds 90 --every 15 --threads 15 --lk-step 3opt --whole-only --batch-stretches > $OUT/b1m.txt 2>&1
cat $OUT/b1m.txt
