set -u
sed -i 's/for b in (1, 3, 10, 30, 60, 100, 120, 200, 300)/for b in (1, 3, 10, 20, 30)/' devrun/one.sh
timeout 100 bash devrun/one.sh "usa13509:30:1:auto"
grep -h "generations\|auto:" $OUT/r/*.log | cut -c1-300 | head -3
rm -rf $OUT/r
