# LKH-3 (elkai) on the H200 host beside the eax kicks runs: pcb3038 10 s, fnl4461 30 s, 3 seeds, 16 processes
set -u
python3 -m pip install --no-index --target /tmp/pyx .whl/elkai-*.whl > $OUT/pip.log 2>&1; export PYTHONPATH=/tmp/pyx; python3 -c 'import elkai' || exit 1
cmake -S . -B build-k -G Ninja -DCMAKE_BUILD_TYPE=Release -DFORMICA_CUDA=OFF -DFORMICA_BUILD_TESTS=OFF -DFORMICA_MPI=OFF -DFORMICA_PYTHON=OFF -DFORMICA_NCCL=OFF > /dev/null 2>&1
ninja -C build-k formica > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
F=$(find build-k -name formica -type f -perm -u+x | head -1)
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
python3 bench/lkh_compare.py --formica $F --instances pcb3038 --budgets 10 --seeds 3 --solvers lkh3 --csv $OUT/lkh_pcb3038.csv 2>&1 | tail -5
python3 bench/lkh_compare.py --formica $F --instances fnl4461 --budgets 30 --seeds 3 --solvers lkh3 --csv $OUT/lkh_fnl4461.csv 2>&1 | tail -5
