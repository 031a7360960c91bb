# pla85900, 540 s, seed 1: GPU colonies + GA-EAX host threads (--host-search eax), read at every budget
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
F=$PWD/device-pack/formica; chmod +x $F
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
timeout 30 $F solve $FORMICA_TSPLIB_DIR/tsp/pla85900.tsp --host-search eax --time-limit 2 2>&1 | grep -i "auto:\|pla85900:" > $OUT/summary_line.txt
cat $OUT/summary_line.txt
python3 bench/lkh_compare.py --formica $F --instances pla85900 --budgets 1,3,10,30,60,100,120,200,300,400,540 --first-seed 1 --seeds 1 \
  --solvers formica --formica-anytime --formica-args "--host-search eax" --csv $OUT/pla85900_eax_s1.csv > $OUT/pla85900_eax_s1.log 2>&1
cat $OUT/pla85900_eax_s1.log | tail -20; cat $OUT/pla85900_eax_s1.csv
