set -u
bash devrun/one.sh "pla85900:120:1:eaxnn30:--host-search,eax,--eax-start,nearest-neighbour,--population,30 pla85900:120:2:eaxnn50:--host-search,eax,--eax-start,nearest-neighbour,--population,50 pla85900:120:3:eaxnn50:--host-search,eax,--eax-start,nearest-neighbour,--population,50 pla85900:120:2:eaxnn30:--host-search,eax,--eax-start,nearest-neighbour,--population,30"
rm -rf $OUT/r
