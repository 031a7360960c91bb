# SPDX-License-Identifier: MIT
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

# compute-sanitizer's error (exit 255) for a process that made no CUDA call: a run that stopped at a
# bad argument, or a test of a GPU suite that checks host logic only. The tool had nothing to watch.
no_cuda_call='terminated before first instrumented API call'

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

# gtest_names: the full names (Suite.Test, Prefix/Suite.Test/Param) in a gtest binary's
# --gtest_list_tests output on standard input, one per line (comments and other lines dropped).
gtest_names() {
  awk '/^[^ ]/ { suite = ($1 ~ /\.$/) ? $1 : ""; next }
       /^  [^ ]/ && suite != "" { print suite $1 }'
}

# per_test_summary STATUS_FILE: the cell of one tool on one binary from the per-test status lines
# "BINARY TEST VERDICT..." (VERDICT as sanitizer_verdict prints it): "0 in N tests" when every test
# finished clean, else how many finished clean, how many timed out with nothing found, and the
# tests with anything else (the first five named; the status file has them all).
per_test_summary() {
  awk '{
      total++
      verdict = $0; sub(/^[^ ]+ [^ ]+ /, "", verdict)
      if (verdict == "0; no CUDA call") { clean++; host++ }
      else if (verdict == "0") clean++
      else if (verdict ~ /^0; timed out after [0-9]+ s$/) late++
      else if (++bad <= 5) names = names (bad > 1 ? ", " : "") $2 " (" verdict ")"
    }
    END {
      if (total == 0) { print "- (no test)"; exit }
      note = host > 0 ? " (" host " of them made no CUDA call: passed without the tool)" : ""
      if (clean == total) { print "0 in " total " tests" note; exit }
      cell = "0 in " clean + 0 " of " total " tests" note
      if (late > 0) cell = cell "; " late " timed out with nothing found"
      if (bad > 0) cell = cell "; " bad " with findings or failures: " names (bad > 5 ? ", ..." : "")
      print cell
    }' "$1"
}
