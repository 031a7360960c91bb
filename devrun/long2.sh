# 600-s pair, part 2: wait for both, bring back /tmp/b
for i in $(seq 1 170); do [ -e /tmp/b/f.done ] && [ -e /tmp/b/l.done ] && break; sleep 1; done
ls /tmp/b; cat /tmp/b/r/verify.txt; tail -12 /tmp/b/r/lkh.log; tail -2 /tmp/b/r/usa13509_600s_s1_new.log
python3 - <<'PY'
import json
d = json.load(open('/tmp/b/r/usa13509_600s_s1_new.json')); d.pop("tour", None); json.dump(d, open('/tmp/b/r/usa13509_600s_s1_new.json', "w"), indent=1)
opt = 19982859; h = d["history"]
print(" ".join(f"{b}s {100*(min(e['length'] for e in h if e['seconds'] <= b)-opt)/opt:.4f}" for b in (1,3,10,30,60,100,200,300,400,500,600) if any(e['seconds'] <= b for e in h)), d['best_length'])
PY
rm -f /tmp/b/r/f.tour; tar -C /tmp/b -czf $OUT/long.tgz r host.txt
