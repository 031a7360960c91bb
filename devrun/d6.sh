# pla85900, 500 s, seed 1: the default (GPU colonies + Lin-Kernighan host threads), read at every budget
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
F=$PWD/device-pack/formica; chmod +x $F
python3 bench/lkh_compare.py --formica $F --instances pla85900 --budgets 1,3,10,30,60,100,120,200,300,400,480,500 --first-seed 1 --seeds 1 \
  --solvers formica --formica-anytime --csv $OUT/pla85900_default_s1.csv > $OUT/pla85900_default_s1.log 2>&1
cat $OUT/pla85900_default_s1.csv
