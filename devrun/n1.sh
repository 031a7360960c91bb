set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
timeout 110 build-dev/eax_bench --instance pla85900 --seconds 100 --population 100 --threads 14 --start nearest-neighbour --once > $OUT/eaxbench_nn100.log 2>&1
awk 'NR%20==1' $OUT/eaxbench_nn100.log | tail -40; tail -2 $OUT/eaxbench_nn100.log
bash devrun/one.sh "pla85900:120:1:eaxnn100:--host-search,eax,--eax-start,nearest-neighbour,--population,100 pla85900:120:1:eaxnn50:--host-search,eax,--eax-start,nearest-neighbour,--population,50 pla85900:120:1:eaxnn200:--host-search,eax,--eax-start,nearest-neighbour,--population,200"
