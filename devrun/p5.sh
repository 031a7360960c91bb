source devrun/e1.sh
run default 5 120
mkdir -p $OUT/raw && mv $OUT/*.json $OUT/*.log $OUT/raw/; tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
