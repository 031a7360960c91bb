#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tour-construction strategies and pheromone-update designs of Cecilia et al. (2013) and
# Zhou et al. on one GPU machine, alpha 1, beta 2, rho 0.5, m = n (docs/papers.md's table):
#   1. construction: ms per iteration for every construction strategy (x selection, KE-ALL and
#      KE-ONE), 1 warm-up + TIMED iterations, the pheromone update at its default;
#   2. pheromone: ms per iteration of each update design (scatter-gather refuses the large ones);
#   3. block size: block-per-ant roulette and stc tile roulette at 32 ... 1024 threads (Zhou C2);
#   4. quality: the fastest exact strategy per instance (from 1), QUALITY_ITERATIONS iterations
#      averaged over seeds (Zhou Table C6 shape); fewer seeds on the largest instances, as printed;
#   5. I-Roulette's distance from roulette on real rows (selection_deviation);
#   6. the sequential CPU Ant System (roulette, I-Roulette, tile roulette), run in the background
#      on the same machine meanwhile, 1 iteration on the large instances, for same-method speed-ups.
#   bench/construction_table.sh BUILD_DIR OUT_DIR [INSTANCES]
# Environment: TIMED (3), QUALITY_ITERATIONS (1000), CPU_SELECTIONS ("roulette tile-roulette
# i-roulette"; empty to skip the CPU rows).
set -uo pipefail
build=$1 out=$2
instances=${3:-d198,lin318,pcb442,rat783,pr1002,fl1577,pr2392,pcb3038,fnl4461}
timed=${TIMED:-3}
quality_iterations=${QUALITY_ITERATIONS:-1000}
cpu_selections=${CPU_SELECTIONS-roulette tile-roulette i-roulette}
mkdir -p "$out"
started=$SECONDS

# 6. CPU rows in the background: one process per instance and selection.
cpu_pids=()
for instance in ${instances//,/ }; do
  case $instance in pr2392|pcb3038|fnl4461) iterations=1 ;; fl1577) iterations=2 ;; *) iterations=3 ;; esac
  for s in $cpu_selections; do
    "$build/formica_bench" --instances "$instance" --config "cpu-$s:algorithm=as,backend=cpu,threads=1,selection=$s" \
      --warmup 0 --iterations $iterations --csv "$out/cpu_${instance}_$s.csv" >"$out/cpu_${instance}_$s.txt" 2>&1 &
    cpu_pids+=($!)
  done
done

# 1. Construction strategies. label -> configuration (the pheromone update stays at its default).
declare -A spec=(
  [warp-roulette]="construction=warp-per-ant,selection=roulette"
  [warp-trial]="construction=warp-per-ant,selection=stochastic-trial"
  [warp-i-roulette]="construction=warp-per-ant,selection=i-roulette"
  [block-roulette]="construction=block-per-ant,selection=roulette"
  [block-i-roulette]="construction=block-per-ant,selection=i-roulette"
  [block-tile]="construction=block-per-ant,selection=tile-roulette"
  [block-roulette-ke1]="construction=block-per-ant,selection=roulette,launch=ke-one"
  [thread-roulette]="construction=thread-per-ant,selection=roulette"
  [thread-i-roulette]="construction=thread-per-ant,selection=i-roulette"
  [stc-roulette]="construction=stc,selection=roulette"
  [stc-tile]="construction=stc,selection=tile-roulette"
  [stc-i-roulette]="construction=stc,selection=i-roulette"
  [stc-tile-ke1]="construction=stc,selection=tile-roulette,launch=ke-one"
  [dyn-roulette]="construction=st-dynamic,selection=roulette"
  [dyn-tile]="construction=st-dynamic,selection=tile-roulette"
  [dyn-i-roulette]="construction=st-dynamic,selection=i-roulette"
  [dyn-tile-ke1]="construction=st-dynamic,selection=tile-roulette,launch=ke-one"
)
order="warp-roulette warp-trial warp-i-roulette block-roulette block-i-roulette block-tile block-roulette-ke1
  thread-roulette thread-i-roulette stc-roulette stc-tile stc-i-roulette stc-tile-ke1 dyn-roulette dyn-tile
  dyn-i-roulette dyn-tile-ke1"
configs=()
for label in $order; do configs+=(--config "$label:algorithm=as,backend=cuda,${spec[$label]}"); done
echo "## 1. construction strategies"
"$build/formica_bench" --instances "$instances" "${configs[@]}" --warmup 1 --iterations "$timed" \
  --csv "$out/gpu_construction.csv"
echo "# GPU construction table: $((SECONDS - started)) s so far"

# 2. Pheromone-update designs (construction: warp-per-ant roulette).
configs=()
for d in atomic atomic-tiled scatter-gather scatter-gather-tiled scatter-gather-reduction symmetrize; do
  configs+=(--config "$d:algorithm=as,backend=cuda,construction=warp-per-ant,pheromone-update=$d")
done
echo "## 2. pheromone-update designs"
"$build/formica_bench" --instances "$instances" "${configs[@]}" --warmup 1 --iterations 2 --csv "$out/gpu_pheromone.csv"
echo "# GPU pheromone table: $((SECONDS - started)) s so far"

# 3. Block sizes.
configs=()
for b in 32 64 128 256 512 1024; do
  configs+=(--config "block-$b:algorithm=as,backend=cuda,construction=block-per-ant,block-size=$b")
  configs+=(--config "stc-tile-$b:algorithm=as,backend=cuda,construction=stc,selection=tile-roulette,block-size=$b")
done
echo "## 3. block sizes"
"$build/formica_bench" --instances "$instances" "${configs[@]}" --warmup 1 --iterations 1 --csv "$out/gpu_block_size.csv"
echo "# GPU block-size table: $((SECONDS - started)) s so far"

# 4. Quality of the fastest strategy per instance.
echo "## 4. quality: the fastest exact strategy of table 1 per instance, $quality_iterations iterations"
for instance in ${instances//,/ }; do
  # The fastest exact strategy: I-Roulette samples another distribution (section 5), not the AS rule.
  fastest=$(awk -F, -v inst="$instance" 'NR > 1 && $1 == inst && $9 != "" && $3 !~ /i-roulette/ &&
    (best == "" || $9 + 0 < best) { best = $9 + 0; label = $3 } END { print label }' "$out/gpu_construction.csv")
  [ -z "$fastest" ] && continue
  case $instance in pr2392) seeds=3 ;; pcb3038) seeds=2 ;; fnl4461) seeds=1 ;; *) seeds=10 ;; esac
  echo "# $instance: fastest is $fastest, $seeds seed(s)"
  "$build/formica_bench" --instances "$instance" --config "$fastest:algorithm=as,backend=cuda,${spec[$fastest]}" --warmup 0 \
    --iterations "$quality_iterations" --seeds $seeds --csv "$out/gpu_quality_$instance.csv" | grep -v '^#'
done
echo "# GPU quality: $((SECONDS - started)) s so far"

# 5. I-Roulette's distance from roulette.
echo "## 5. I-Roulette vs roulette"
"$build/selection_deviation" --instances "$instances" --draws 100000
echo "# GPU part done after $((SECONDS - started)) s; waiting for the CPU rows"

wait "${cpu_pids[@]}"
echo "## 6. sequential CPU (same machine, alongside the GPU runs)"
cat "$out"/cpu_*.txt 2>/dev/null | grep '^instance' | head -1
cat "$out"/cpu_*.txt 2>/dev/null | grep -v -e '^#' -e '^instance' | sort
echo "# all done after $((SECONDS - started)) s"
