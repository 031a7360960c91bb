# Functions of scripts/gpu_sanitize, apart so that tests/scripts/gpu_sanitize_test.sh can run them on
# fake input (no GPU needed).

# gpu_test_filter TESTS_DIR: a gtest filter of every test suite defined in a test source that calls
# FORMICA_REQUIRE_CUDA; each suite plain (Suite.*) and instantiated (*/Suite.*).
gpu_test_filter() {
  local files
  mapfile -t files < <(grep -rl --include='*.cpp' 'FORMICA_REQUIRE_CUDA' "$1" | sort)
  [ ${#files[@]} -gt 0 ] || return 0
  grep -hoE '^[[:space:]]*(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)\([[:space:]]*[A-Za-z0-9_]+' "${files[@]}" |
    sed 's/.*([[:space:]]*//' | sort -u | awk '{ printf "%s%s.*:*/%s.*", sep, $1, $1; sep = ":" }'
}

# sanitizer_verdict LOG EXIT_CODE LIMIT: one table cell for a compute-sanitizer run: "0" when the
# tool found nothing and every test passed, else the errors found and what else went wrong.
# Errors are the sum of the "ERROR SUMMARY: N errors" lines (memcheck, synccheck, initcheck; one
# per process) and of racecheck's "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)".
sanitizer_verdict() {
  local log=$1 rc=$2 limit=$3
  awk -v rc="$rc" -v limit="$limit" '
    /ERROR SUMMARY: [0-9]+ error/ {
      for (i = 1; i <= NF; ++i) if ($i == "SUMMARY:") { errors += $(i + 1); summaries++ }
    }
    /RACECHECK SUMMARY: / {
      summaries++
      if (match($0, /\(([0-9]+) errors?, ([0-9]+) warnings?\)/)) {
        split(substr($0, RSTART + 1, RLENGTH - 2), parts, /[^0-9]+/)
        errors += parts[1]; warnings += parts[2]
      }
    }
    /^\[  FAILED  \] .* \([0-9]+ ms\)$/ { failed++ }   # one line per test, --gtest_brief or not
    /^\[  SKIPPED \] .* \([0-9]+ ms\)$/ { skipped++ }
    /^\[==========\] [0-9]+ tests? from .* ran/ { ran += $2 }
    END {
      cell = errors + 0
      if (rc == 124 || rc == 137) cell = cell "; timed out after " limit " s"
      else if (summaries == 0) cell = cell "; no sanitizer summary (exit " rc ")"
      if (warnings > 0) cell = cell "; " warnings " race warnings"
      if (failed > 0) cell = cell "; " failed " tests failed"
      if (skipped > 0) cell = cell "; " skipped " tests skipped"
      if (rc != 124 && rc != 137 && summaries > 0 && ran == 0) cell = cell "; no test ran"
      else if (rc != 0 && rc != 124 && rc != 137 && cell == "0") cell = cell "; exit " rc
      print cell
    }' "$log"
}
