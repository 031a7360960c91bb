# GPU tests, then CPU-backend alpha-rule pairs on 16 cores
set -u
export OUT
( time scripts/device_tests.sh '*' 300 ) > $OUT/tests.txt 2>&1
mkdir -p $OUT/tests_logs && cp $OUT/*_tests.log $OUT/tests_logs/ 2>/dev/null; rm -f $OUT/*_tests.log
tar -czf $OUT/tests_logs.tgz -C $OUT tests_logs && rm -rf $OUT/tests_logs
bash devrun/one.sh "usa13509:20:1:cpu_alpha:--backend,cpu usa13509:20:1:cpu_colonies:--backend,cpu,--lk-lists,colonies d18512:30:1:cpu_alpha:--backend,cpu d18512:30:1:cpu_colonies:--backend,cpu,--lk-lists,colonies"
