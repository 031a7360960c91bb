# issue 20 long budgets, default solver (CUDA build carried in device-pack/): pla85900 120 s seeds 1-2, uniform 200k 300 s seed 1
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
F=$PWD/device-pack/formica; chmod +x $F
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
$F info 2>&1 | head -5 >> $OUT/host.txt
one_pla() {
  python3 bench/lkh_compare.py --formica $F --instances pla85900 --budgets 1,3,10,30,60,100,120 --first-seed $1 --seeds 1 \
    --solvers formica --formica-anytime --csv $OUT/pla85900_s$1.csv > $OUT/pla85900_s$1.log 2>&1
}
one_pla 1
mkdir -p $OUT/large
OUT_DIR=$OUT/large bash bench/large_seeds.sh device-pack 200000 300 "1" default > $OUT/large/summary.txt 2>&1
rm -f $OUT/large/*.tsp
one_pla 2
