#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On the GPU machine: unpack a packed build (device-pack/bin.tar.xz, made from an sm_90 build by
# `tar -C BUILD -cJf device-pack/bin.tar.xz tests/*_tests formica`) and run every test binary
# with a time limit each, four at a time, then each failed test again alone; one summary line per
# binary, failures and logs under $OUT. With --python, the Python suite too: the extension built
# there from this tree (sm_90, nlohmann-json from device-pack/nlohmann-json3-dev_*.deb when the
# machine has none), pytest with one worker process per core group (pytest-xdist: a worker that
# crashes is reported and replaced, the rest still run), and on a crash of the first call into
# the extension a backtrace under cuda-gdb.
#   scripts/device_tests.sh [--python] [GTEST_FILTER] [SECONDS_PER_BINARY]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=0
if [ "${1:-}" = --python ]; then python=1; shift; fi
filter=${1:-*}
limit=${2:-300}
out=${OUT:-$root/gpu-check-logs}
# Unpacked into a build folder at the top of the tree, where the command line finds the TSPLIB
# instances the tree ships (../data/tsplib: src/io/instance_source.h), as in a build of its own.
bin=$root/build-device
mkdir -p "$out/t" "$bin" && tar -C "$bin" -xJf "$root/device-pack/bin.tar.xz"
export FORMICA_TSPLIB_DIR=$root/shared/tsplib FORMICA_TEST_DATA_DIR=$root/tests/data FORMICA_CLI=$bin/formica
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

run_binary() {  # one test binary, its log under $out/t, a summary line
  local name code
  name=$(basename "$1")
  timeout "$limit" "$1" --gtest_brief=1 --gtest_filter="$filter" >"$out/t/$name.log" 2>&1
  code=$?
  printf '%-18s exit %-3d %s\n' "$name" "$code" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/t/$name.log" | tr '\n' ' ')"
}
export -f run_binary
export limit filter out
# shellcheck disable=SC2016  # $0 is expanded by the bash that xargs starts
find "$bin/tests" -name '*_tests' -type f -print0 | xargs -0 -P 4 -n 1 bash -c 'run_binary "$0"'
grep -h -B2 -A10 'Failure' "$out"/t/*.log | head -80
for log in "$out"/t/*.log; do  # the failed tests again, each alone (the binaries ran side by side)
  grep -E '^\[  FAILED  \] [A-Za-z]' "$log" | awk '{print $4}' | sort -u | while read -r test; do
    timeout 120 "$bin/tests/$(basename "$log" .log)" --gtest_filter="$test" --gtest_brief=1 >/dev/null 2>&1
    echo "alone: $test exit $?"
  done
done

if [ "$python" = 1 ]; then
  prefix=()
  if ! echo '#include <nlohmann/json.hpp>' | g++ -x c++ -fsyntax-only - 2>/dev/null; then
    mkdir -p /tmp/nl && dpkg -x "$root"/device-pack/nlohmann-json3-dev_*.deb /tmp/nl && prefix=(-DCMAKE_PREFIX_PATH=/tmp/nl/usr)
  fi
  # The system's g++: the GPU machine's PATH starts with /opt/gcc, whose g++ links libstdc++ into
  # the extension statically, and such an extension crashed there at its first calls
  # (docs/python.md, "A wheel built on a GPU machine").
  [ -x /usr/bin/g++ ] && prefix+=(-DCMAKE_CXX_COMPILER=/usr/bin/g++ -DCMAKE_CUDA_HOST_COMPILER=/usr/bin/g++)
  CUDAARCHS=90 cmake -S "$root" -B /tmp/ext -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFORMICA_BUILD_TESTS=OFF \
    -DFORMICA_BUILD_BENCH=OFF -DFORMICA_BUILD_CLI=OFF -DFORMICA_PYTHON=ON "${prefix[@]}" \
    -DPython_EXECUTABLE="$(command -v python3)" >"$out/ext_build.log" 2>&1 && ninja -C /tmp/ext >>"$out/ext_build.log" 2>&1
  echo "extension built: exit $?, by $(grep -m1 'CMAKE_CXX_COMPILER:' /tmp/ext/CMakeCache.txt)"
  first='import formica._core as c; print(len(c.batch_parameters()), "batch parameters")'
  if ! (cd /tmp && PYTHONPATH=/tmp/ext/python python3 -X faulthandler -c "$first"); then
    (cd /tmp && PYTHONPATH=/tmp/ext/python timeout 120 cuda-gdb -q -batch -ex run -ex bt --args python3 -c "$first") \
      2>&1 | grep -vE '^\[(New Thread|Thread|Detaching)' | tail -40
  fi
  (cd /tmp && PYTHONPATH=/tmp/ext/python timeout 400 python3 -m pytest -q -rs -p no:cacheprovider --timeout 120 \
    -n 8 "$root/python/tests") >"$out/pytest.log" 2>&1
  echo "pytest: exit $?"
  tail -30 "$out/pytest.log"
fi
tar -C "$out" -czf "$out/test-logs.tgz" t && rm -rf "$out/t"
