"""How much memory a tiny MLP step reads when nothing is cached: counted, not timed.

On a busy host the MLP step's gap to NumPy grows (``mlp_step.py --under-load``), and the
tiny-step table's cold column says why: with the caches flushed, every function, object
and piece of interpreter code a step touches comes from memory again. That column is a
time, and on this shared host its noise hides any change smaller than about a tenth.

This script counts the same thing with a simulated cache instead of a clock. Valgrind's
cachegrind runs the step with a 32 MiB last-level cache; before each step 64 MiB are
written (as in ``mlp_step.time_cold``), so nothing of the step survives. The lines
(64 bytes) the step then fetches from memory are its footprint, the same count in every
run to within 1%. Each contender runs in two child processes, ``STEPS`` cold steps and
``STEPS`` flushes with no step; the difference over ``STEPS`` is one cold step's lines, split into

- instruction lines (machine code) and data lines (objects, bytecode, arrays),
- where they were spent: the Python interpreter, NumPy (and anything else without source
  paths, such as extensions), BLAS, the C library.

``--pieces`` also counts minigrad's ``nn`` step piece by piece, in the step's own order, each
piece charged with what it touches first (``zero_grad`` and the first ``Linear`` pay for
much that the rest then finds in cache). The harness between pieces costs lines of its own,
so the pieces add up to a little more than the whole step: compare pieces, not their sum.

Needs ``valgrind`` (not installed by ``./run``: ``apt-get install valgrind``); a child run
takes about a minute. Run: ``python benchmarks/cold_footprint.py [--pieces] [--torch]``.
Printed, not part of ``./run bench``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import argparse
import collections
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

import lean_tape
import mlp_step

STEPS = 4  # cold steps per child run (the counts are exact: a few suffice)
CACHE = "--LL=33554432,16,64"  # this machine's L3: 32 MiB, 16-way, 64-byte lines
PIECES = ("zero_grad", "first Linear", "ReLU", "second Linear", "log_softmax", "nll_loss", "backward",
          "optimizer.step")
KINDS = ("interpreter", "NumPy and other", "BLAS", "C library")


# --- reading cachegrind's output ---------------------------------------------------------------
def where(source_file, function):
    """Which of ``KINDS`` spent a line: by the source path cachegrind recorded (CPython's build
    keeps its own; NumPy's wheels have none, so they show as ``???``)."""
    if any(part in source_file for part in ("/Python/", "/Objects/", "/Modules/", "/Include/", "/Parser/")):
        return "interpreter"
    if "gemm" in function or "blas" in function.lower():
        return "BLAS"
    if source_file.startswith("./"):  # (glibc's sources: ./malloc/malloc.c, ./string/...)
        return "C library"
    return "NumPy and other"


def memory_lines(text):
    """``{(kind, "instruction" | "data"): lines fetched from memory}`` in one cachegrind output
    file (events Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw; the last-level misses are lines)."""
    totals = collections.Counter()
    source_file = function = ""
    for line in text.splitlines():
        if line.startswith("fl="):
            source_file = line[3:]
        elif line.startswith("fn="):
            function = line[3:]
        elif line[:1].isdigit():
            counts = [int(n) for n in line.split()[1:]] + [0] * 9
            kind = where(source_file, function)
            totals[kind, "instruction"] += counts[2]
            totals[kind, "data"] += counts[5] + counts[8]
    return totals


def per_step(with_steps, without, steps=STEPS):
    """One step's lines: the difference of the two runs' counts, over ``steps``."""
    return {key: (with_steps.get(key, 0) - without.get(key, 0)) / steps for key in set(with_steps) | set(without)}


# --- the child: STEPS cold steps (or flushes alone) ------------------------------------------
def make_step(contender, pieces):
    """``(runner, step)``: a warm contender and its step as one call, or, with ``pieces``, the nn
    step's first ``pieces`` pieces (all eight are ``MinigradNNStep.step``)."""
    weights, x, y = mlp_step.make_problem(sizes=mlp_step.TINY)
    kinds = {"NumPy": mlp_step.NumpyStep, "lean tape": lean_tape.LeanTapeStep, "nn": mlp_step.MinigradNNStep,
             "ops": mlp_step.MinigradOpsStep, "PyTorch": mlp_step.TorchStep}
    runner = kinds[contender](weights, x, y)
    for _ in range(20):
        runner.step()  # (warm: every lazy first-call cost paid)
    if pieces is None:
        return runner, runner.step
    from minigrad.nn import functional as F

    held = {}
    parts = (lambda: runner.optimizer.zero_grad(),
             lambda: held.update(h=runner.l1(runner.x)),
             lambda: held.update(h=runner.model[1](held["h"])),
             lambda: held.update(h=runner.l2(held["h"])),
             lambda: held.update(h=F.log_softmax(held["h"], 1)),
             lambda: held.update(h=F.nll_loss(held["h"], runner.y)),
             lambda: held["h"].backward(),
             lambda: runner.optimizer.step())[:pieces]

    def step():
        for part in parts:
            part()
        held.clear()

    return runner, step


def child(contender, pieces, run):
    import numpy as np

    _, step = make_step(contender, pieces)
    timing.freeze_imports()  # (as every benchmark does after its imports)
    flush = np.ones(mlp_step.COLD_WRITE // 8)
    for _ in range(STEPS):
        flush += 1.0  # (reads and writes every line)
        if run:
            step()
    os._exit(0)  # (no interpreter shutdown: it would be counted, and differently in the two runs)


# --- the parent -----------------------------------------------------------------------------------
def count(contender, pieces, run):
    """Run one child under cachegrind; its ``memory_lines``."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "cachegrind.out")
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", CACHE, f"--cachegrind-out-file={out}",
                   sys.executable, os.path.abspath(__file__), "--child", contender, str(pieces), str(int(run))]
        environment = dict(os.environ, PYTHONHASHSEED="0")  # (the same dicts and sets in both runs)
        subprocess.run(command, check=True, capture_output=True, env=environment)
        with open(out) as f:
            return memory_lines(f.read())


def measure(jobs):
    """``{name: one step's lines}`` for ``jobs``: name -> (contender, pieces), two children each."""
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        runs = {(name, run): pool.submit(count, contender, pieces, run)
                for name, (contender, pieces) in jobs.items() for run in (True, False)}
        return {name: per_step(runs[name, True].result(), runs[name, False].result()) for name in jobs}


def table(rows, first_column, baseline=None):
    """Markdown: per row, total lines, instruction/data, and each kind; ``baseline``'s excess."""
    header = [first_column, "lines/step", "instruction", "data", *KINDS]
    if baseline:
        header.append(f"over {baseline}")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, counts in rows.items():
        total = sum(counts.values())
        cells = [name, f"{total:,.0f}"]
        cells += [f"{sum(v for key, v in counts.items() if key[1] == part):,.0f}" for part in ("instruction", "data")]
        cells += [f"{sum(v for key, v in counts.items() if key[0] == kind):,.0f}" for kind in KINDS]
        if baseline:
            cells.append(f"{total - sum(rows[baseline].values()):+,.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", action="store_true", help="also count the nn step piece by piece")
    parser.add_argument("--torch", action="store_true", help="count PyTorch's step too (slow under valgrind)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        contender, pieces, run = args.child
        child(contender, None if pieces == "None" else int(pieces), run == "1")
    if shutil.which("valgrind") is None:
        sys.exit("cold_footprint.py needs valgrind (cachegrind): apt-get install valgrind")
    contenders = ["NumPy", "lean tape", "nn", "ops"] + (["PyTorch"] if args.torch else [])
    steps = measure({name: (name, None) for name in contenders})
    print(f"Memory lines (64 B) per cold tiny step {'x'.join(map(str, mlp_step.TINY))}, cachegrind, {STEPS} steps each\n")
    print(table(steps, "step", baseline="NumPy"))
    if args.pieces:
        cumulative = measure({name: ("nn", index + 1) for index, name in enumerate(PIECES)})
        marginal, before = {}, collections.Counter()
        for name in PIECES:
            marginal[name] = {key: value - before[key] for key, value in cumulative[name].items()}
            before = collections.Counter(cumulative[name])
        print("\nminigrad's nn step, piece by piece (each charged with what it touches first)\n")
        print(table(marginal, "piece"))


if __name__ == "__main__":
    main()
