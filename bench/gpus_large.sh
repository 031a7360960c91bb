#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Very large instances on several GPUs of one host: `formica solve --gpus G` with the
# stretch decomposition split between the islands by region (the default), the same without the
# split (--lk-split false: every island walks every stretch), and one GPU with the whole host, at
# the same wall time, on a uniform instance from `formica generate --seed 1`. Prints each run's
# best length at a few points of its history (program start counted) and at the end, and keeps
# every run's --json and a verified tour.
#   bench/gpus_large.sh BUILD_DIR CITIES SECONDS [OUT_DIR] [RUN...]
# RUN is one of split, nosplit, one (default: all three, in that order); GPUS=N (default every GPU).
set -euo pipefail
build=$1 cities=$2 seconds=$3
out=${4:-bench/out/gpus_large}
shift $(($# >= 4 ? 4 : 3))
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(split nosplit one)
gpus=${GPUS:-$(nvidia-smi -L | wc -l)}
mkdir -p "$out"
instance="$out/uniform_${cities}.tsp"
[ -f "$instance" ] || "$build/formica" generate --cities "$cities" --seed 1 --output "$instance" >/dev/null
echo "formica, uniform ${cities} cities (seed 1), ${seconds} s each, $(nproc) CPU threads, $(nvidia-smi -L | wc -l) GPUs:"
nvidia-smi --query-gpu=index,name --format=csv,noheader
for run in "${runs[@]}"; do
  case $run in
    split) flags=(--gpus "$gpus") ;;
    nosplit) flags=(--gpus "$gpus" --lk-split false) ;;
    one) flags=(--gpus 1) ;;
    *) echo "unknown run '$run' (split, nosplit or one)" >&2; exit 2 ;;
  esac
  name="${cities}_${run}_${seconds}s"
  "$build/formica" solve "$instance" "${flags[@]}" --time-limit "$seconds" --seed 1 --quiet \
    --json "$out/$name.json" --tour-out "$out/$name.tour" >"$out/$name.log" 2>&1
  "$build/formica" verify "$instance" "$out/$name.tour" >/dev/null
  python3 - "$out/$name.json" "$run" "${flags[*]}" "$seconds" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
seconds = float(sys.argv[4])
marks = [seconds * f for f in (1 / 3, 2 / 3)]
at = []
for m in marks:
    before = [h["length"] for h in d["history"] if h["seconds"] <= m]
    at.append(f"{m:.0f} s {min(before):,}" if before else f"{m:.0f} s -")
first = d["history"][0]["seconds"] if d["history"] else float("nan")
print(f"{sys.argv[2]:8} ({sys.argv[3]}): {d['best_length']:,} at {d['seconds']:.1f} s; "
      f"{'; '.join(at)}; first tour {first:.1f} s; {d['ranks']} islands, {d['gpus']} GPUs, "
      f"{d['exchanges']} exchanges, {d['iterations']} iterations")
PY
done
