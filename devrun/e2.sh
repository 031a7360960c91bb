source devrun/e1.sh
run k30 1 125 --host-search eax --eax-first-kicks 30
run k30p30 1 125 --host-search eax --eax-first-kicks 30 --population 30
run p30 1 125 --host-search eax --population 30
grep -h "auto\|GA-EAX\|eax" $OUT/k30_s1.log | head -5
