"""Run every minigrad benchmark in one process and print the results side by side.

    python benchmarks/run.py                      # the full run (about three minutes)
    python benchmarks/run.py --quick              # a few seconds: checks the script works
    python benchmarks/run.py --only long_chain    # one benchmark
    python benchmarks/run.py --markdown benchmarks/RESULTS.md   # also write the report there
    python benchmarks/run.py --wall               # wall-clock time instead of CPU time

Every library runs on one thread (BLAS, OpenMP and PyTorch's own pools), so
the comparison is about the work each one does, not how many cores it grabs.
The output is markdown: the tables print readably in a terminal and paste
into the README as they are. Benchmarks print ratios; nothing here asserts a
timing (the machine this runs on may be busy).
"""

import timing  # noqa: I001  (first: pins BLAS/OpenMP to one thread before NumPy or PyTorch load)

import argparse
import datetime
import importlib
import os
import platform
import sys
import time
import traceback

# The benchmarks, in the order they run. Each is a module here with a TITLE
# and a ``run(quick) -> timing.Report``; add a new one by adding its name.
BENCHMARKS = [
    "mlp_step",         # (a) MLP training step vs NumPy by hand and PyTorch
    "micrograd_demo",   # (a2) micrograd's demo step (100 points, MLP 2-16-16-1) vs PyTorch
    "per_op_overhead",  # (b) per-op overhead on 16-element tensors vs PyTorch and NumPy
    "long_chain",       # (c) 10^5 and 10^6-node chains
    "memory",           # (d) memory over training steps; retain_graph
    "render_graph",     # (e) drawing a 1,000-node graph with viz (trace, DOT, SVG)
    "render_stepper",   # (e2) a 2,000-node stepper and a 20,000-node draw (collapsed; in full, the time limit)
]


def machine():
    """A one-line description of the machine: CPU model and core count, OS."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores ({model}), {platform.system()} {platform.release()}"


def header(quick):
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    kind = "quick smoke run (numbers meaningless)" if quick else "full run"
    try:
        load = "load average %.1f, %.1f, %.1f (1, 5, 15 min) at the start" % os.getloadavg()
    except OSError:
        load = "load average unknown"
    return (f"# minigrad benchmarks\n\n"
            f"- date: {when} ({kind})\n"
            f"- machine: {machine()}; every library on one thread; {load}\n"
            f"- versions: {timing.versions()}\n"
            f"- clock: {timing.clock_name()}. On a shared machine timings move by 10-30% from run to "
            f"run (see the IQR columns): read the ratios, which are measured side by side\n")


def goals_table(goals):
    rows = [[goal, measured, {True: "met", False: "**not met**", None: "n/a"}[met]]
            for goal, measured, met in goals]
    return "## Goals\n\n" + "\n".join(timing.table(["goal", "measured", "status"], rows)) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run of a few seconds")
    parser.add_argument("--only", choices=BENCHMARKS, action="append", help="run only this benchmark")
    parser.add_argument("--markdown", metavar="PATH", help="also write the report to this file")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock instead of CPU time")
    args = parser.parse_args(argv)
    if args.wall:
        timing.use_wall_clock()

    timing.optional_torch()  # prints the install hint once, up front, if PyTorch is missing
    modules = {name: importlib.import_module(name) for name in args.only or BENCHMARKS}
    timing.freeze_imports()
    out = [header(args.quick)]
    print(out[0], flush=True)
    goals, failed = [], []
    for name, module in modules.items():
        timing.log(f"running {name}...")
        start = time.perf_counter()
        try:
            report = module.run(quick=args.quick)
        except Exception:
            failed.append(name)
            text = f"## {module.TITLE}\n\nFAILED:\n\n```\n{traceback.format_exc()}```\n"
        else:
            goals += report.goals
            text = report.markdown()
        timing.log(f"{name} took {time.perf_counter() - start:.1f} s")
        out.append(text)
        print(text, flush=True)

    out.append(goals_table(goals))
    print(out[-1], flush=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(out))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
