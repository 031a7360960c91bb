set -u
sed -i 's/for b in (1, 3, 10, 30, 60, 100, 120, 200, 300)/for b in (1, 3, 10, 30, 60, 100, 120, 150, 200, 250, 300)/' devrun/one.sh
bash devrun/one.sh "pla85900:300:1:eaxnn100:--host-search,eax,--eax-start,nearest-neighbour,--population,100 pla85900:200:1:eaxnn70:--host-search,eax,--eax-start,nearest-neighbour,--population,70"
rm -rf $OUT/r
