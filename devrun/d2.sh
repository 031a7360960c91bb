# issue 20 every-budget table: LKH-3 traced (16 processes, TOTAL_TIME_LIMIT = largest budget) on usa13509, pcb3038, fnl4461; formica default 5 seeds on pcb3038, fnl4461
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
python3 -m pip install --no-index --target /tmp/pyx .whl/elkai-*.whl > /dev/null 2>&1; export PYTHONPATH=/tmp/pyx; python3 -c 'import elkai' || exit 1
F=$PWD/device-pack/formica; chmod +x $F
L="python3 bench/lkh_compare.py --formica $F"
$L --instances usa13509 --budgets 1,3,10,30,100,300 --seeds 1 --solvers lkh3 --lkh-anytime --csv $OUT/lkh_usa13509.csv > $OUT/lkh_usa13509.log 2>&1
$L --instances pcb3038,fnl4461 --budgets 1,3,10,30,100 --seeds 1 --solvers lkh3 --lkh-anytime --stop-at-optimum --csv $OUT/lkh_small.csv > $OUT/lkh_small.log 2>&1
for i in pcb3038 fnl4461; do
  $L --instances $i --budgets 1,3,10,20 --seeds 5 --solvers formica --formica-anytime --stop-at-optimum --csv $OUT/formica_$i.csv > $OUT/formica_$i.log 2>&1
done
