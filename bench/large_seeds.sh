#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Very large instances on one GPU and its host: `formica solve` on a uniform instance from
# `formica generate --seed 1` with one setting, for several seeds, each run's best length at a third
# and two thirds of the budget (program start counted) and at the end, every tour verified; the
# JSON reports (tours left out) and logs are kept. bench/results/2026-11-25-large-instances/
# was measured this way (default against --lk-stretch 0 at 1,000,000 cities, 120 s, seeds 1-3).
#   bench/large_seeds.sh BUILD_DIR CITIES SECONDS SEEDS LABEL [SOLVE_FLAG...]
# SEEDS is a list such as "1 2 3"; OUT_DIR (default bench/out/large_seeds, outside git) takes the files.
set -euo pipefail
build=$1 cities=$2 seconds=$3 seeds=$4 label=$5
shift 5
out=${OUT_DIR:-bench/out/large_seeds}
mkdir -p "$out"
instance="$out/uniform_${cities}.tsp"
[ -f "$instance" ] || "$build/formica" generate --cities "$cities" --seed 1 --output "$instance" >/dev/null
echo "formica, uniform ${cities} cities (seed 1), ${seconds} s, $label ($*), $(nproc) CPU threads," \
  "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || echo 'no GPU')"
for seed in $seeds; do
  name="${cities}_${label}_s${seed}"
  "$build/formica" solve "$instance" --time-limit "$seconds" --seed "$seed" "$@" \
    --json "$out/$name.json" --tour-out "$out/$name.tour" >"$out/$name.log" 2>&1
  verified=$("$build/formica" verify "$instance" "$out/$name.tour" | tail -n 1)
  rm -f "$out/$name.tour"
  python3 - "$out/$name.json" "$label" "$seed" "$seconds" "$verified" <<'PY'
import json, sys
path, label, seed, seconds, verified = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
d = json.load(open(path))
d.pop("tour", None)
json.dump(d, open(path, "w"), indent=1)
at = []
for m in (seconds / 3, 2 * seconds / 3):
    before = [h["length"] for h in d["history"] if h["seconds"] <= m]
    at.append(f"{m:.0f} s {min(before)}" if before else f"{m:.0f} s -")
print(f"{label} seed {seed}  {'  '.join(at)}  end {d['best_length']}  ({d['seconds']:.1f} s, "
      f"{d['iterations']} it)  {verified}")
PY
done
