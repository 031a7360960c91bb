# The final code on one H200: localsearch_tests, then the default solver on pla85900 for 30 s.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } | tee $OUT/host.txt
build-dev/tests/localsearch_tests > $OUT/ls.log 2>&1; echo "rc=$?" >> $OUT/ls.log
tail -n 3 $OUT/ls.log
$F solve pla85900 --time-limit 30 --seed 1 --tour-out /tmp/p.tour > $OUT/p.log 2>&1
grep "auto:" $OUT/p.log | cut -c1-300; tail -n 1 $OUT/p.log
$F verify pla85900 /tmp/p.tour | tail -n 1
gzip -9 $OUT/*.log
