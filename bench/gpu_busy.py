#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How busy the GPU is during a run: the share of the wall time in which a kernel was running.

    python3 bench/gpu_busy.py [--out DIR] -- BUILD/formica solve pla85900.tsp --time-limit 60

With Nsight Systems (`nsys` on the PATH) the command runs under `nsys profile --trace=cuda` and the
share is the union of the kernels' intervals over the process's wall time (overlapping kernels
count once); the kernels that took the most time are listed. Without nsys, `nvidia-smi` is sampled
every 100 ms while the command runs and the share is the mean of its utilization.gpu readings
(the fraction of each sample period in which a kernel ran). Written to --out: busy.md, and with
nsys the kernels' CSV.
"""
import argparse
import csv
import io
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def union_ns(intervals):
    """Total length of the union of [start, end) intervals."""
    total, current_start, current_end = 0, None, None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        total += current_end - current_start
    return total


def column(row, *names):
    for name in names:
        if name in row:
            return row[name]
    raise KeyError(f"none of {names} in the nsys report's columns {list(row)}")


def with_nsys(command, out):
    report = out / "run"
    start = time.monotonic()
    subprocess.run(["nsys", "profile", "--trace=cuda", "--sample=none", "--cpuctxsw=none", "--force-overwrite=true",
                    "-o", str(report), *command], check=True)
    wall = time.monotonic() - start
    stats = subprocess.run(["nsys", "stats", "--report", "cuda_gpu_trace", "--format", "csv", "--output", "-",
                            f"{report}.nsys-rep"], check=True, capture_output=True, text=True).stdout
    # nsys stats prints notes before the CSV: start at its header.
    body = stats[stats.index("Start"):] if "Start" in stats else stats
    intervals, by_kernel = [], {}
    for row in csv.DictReader(io.StringIO(body)):
        name = column(row, "Name", "Kernel Name")
        if "[CUDA mem" in name:  # copies and sets are not kernels
            continue
        start_ns = int(float(column(row, "Start (ns)", "Start")))
        duration = int(float(column(row, "Duration (ns)", "Duration")))
        intervals.append((start_ns, start_ns + duration))
        by_kernel[name] = by_kernel.get(name, 0) + duration
    busy = union_ns(intervals) / 1e9
    (out / "kernels.csv").write_text("kernel,seconds\n" + "".join(
        f"\"{k}\",{v / 1e9:.6f}\n" for k, v in sorted(by_kernel.items(), key=lambda kv: -kv[1])))
    top = sorted(by_kernel.items(), key=lambda kv: -kv[1])[:10]
    lines = [f"kernels running {busy:.2f} s of the process's {wall:.2f} s wall time (nsys, profiling "
             f"overhead included in the wall time): **{100 * busy / wall:.1f} %**", "",
             "| kernel | seconds |", "|---|---|"] + [f"| `{k[:80]}` | {v / 1e9:.3f} |" for k, v in top]
    return lines


def with_nvidia_smi(command):
    sampler = subprocess.Popen(["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits",
                                "-lms", "100"], stdout=subprocess.PIPE, text=True)
    start = time.monotonic()
    subprocess.run(command, check=True)
    wall = time.monotonic() - start
    sampler.terminate()
    readings = [float(line) for line in sampler.communicate()[0].split() if line.strip().replace(".", "").isdigit()]
    if not readings:
        sys.exit("gpu_busy: nvidia-smi gave no readings")
    return [f"nvidia-smi utilization.gpu over {len(readings)} samples of 100 ms in {wall:.2f} s: mean "
            f"**{statistics.mean(readings):.1f} %**, median {statistics.median(readings):.0f} %"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="gpu_busy_out")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to profile after --")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = with_nsys(command, out) if shutil.which("nsys") else with_nvidia_smi(command)
    text = "\n".join([f"# GPU busy: `{' '.join(command)}`", ""] + lines) + "\n"
    (out / "busy.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
