# 600-s pair, part 1: formica usa13509 600 s (lane 0) and LKH-3 anytime 600 s, 16 processes (lane 1), both setsid into /tmp/b
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
python3 -m pip install --no-index --target /tmp/pyx .whl/elkai-*.whl > /tmp/pip.log 2>&1; export PYTHONPATH=/tmp/pyx; python3 -c 'import elkai' || { cat /tmp/pip.log; exit 1; }
F=$PWD/build-dev/formica
rm -rf /tmp/b; mkdir -p /tmp/b/r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > /tmp/b/host.txt
I=$FORMICA_TSPLIB_DIR/tsp/usa13509.tsp
setsid nohup bash -c "CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 $F solve $I --time-limit 600 --seed 1 --threads 16 --lk-threads 14 --merge-tours true --json /tmp/b/r/usa13509_600s_s1_new.json --tour-out /tmp/b/r/f.tour > /tmp/b/r/usa13509_600s_s1_new.log 2>&1; $F verify $I /tmp/b/r/f.tour > /tmp/b/r/verify.txt 2>&1; touch /tmp/b/f.done" > /dev/null 2>&1 < /dev/null &
setsid nohup bash -c "export PYTHONPATH=/tmp/pyx FORMICA_TSPLIB_DIR=$FORMICA_TSPLIB_DIR; CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 python3 -u bench/lkh_compare.py --formica $F --instances usa13509 --budgets 1,3,10,30,100,300,600 --seeds 1 --solvers lkh3 --lkh-anytime --lkh-processes 16 --csv /tmp/b/r/lkh_usa13509_600.csv > /tmp/b/r/lkh.log 2>&1; touch /tmp/b/l.done" > /dev/null 2>&1 < /dev/null &
sleep 2; ps aux | grep -c "[L]KH\|[e]lkai\|lkh_compare"; pgrep -f "formica solve" | head -2
sleep 560
ls /tmp/b /tmp/b/r; tail -3 /tmp/b/r/lkh.log; tail -2 /tmp/b/r/usa13509_600s_s1_new.log
