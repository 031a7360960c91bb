import sys, time, subprocess, importlib.util
spec = importlib.util.spec_from_file_location("lc", "bench/lkh_compare.py"); lc = importlib.util.module_from_spec(spec); spec.loader.exec_module(lc)
for name in sys.argv[1:]:
    problem = open(f"shared/tsplib/tsp/{name}.tsp").read()
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", lc.LKH_CHILD, lc.lkh_parameters(1, 1, None)], input=problem, capture_output=True, text=True)
    wall = time.perf_counter() - start
    lines = [l for l in p.stdout.splitlines() if l.startswith(("Lower bound", "Preprocessing", "* 1:"))]
    print(name, f"wall {wall:.1f} s", " | ".join(lines), flush=True)
