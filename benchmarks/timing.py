"""Shared helpers for the benchmarks: one thread, fair timing, markdown tables.

Import this module *before* NumPy or PyTorch: it pins every BLAS/OpenMP pool
to one thread, which only works if it happens before those libraries load.
Every benchmark module starts with ``import timing`` for that reason.

Timing rules used everywhere:

* the clock is this process's CPU time (``time.process_time``), not the wall
  clock: on a shared machine a benchmark often waits for a core while other
  jobs run, and that wait is not minigrad's doing. On an idle machine the two
  agree; ``run.py --wall`` switches to the wall clock;
* contenders are timed *interleaved*, in rounds (A, B, C, A, B, C, ...), so a
  burst of load from another process hits all of them alike, and a ratio is
  taken within each round (A's block against B's block of the same round),
  then the median over rounds is reported;
* each contender is timed ``repeats`` times over ``number`` calls and the
  *median* per-call time is reported (the minimum is a lucky run, the mean is
  dragged by the unlucky ones), with the interquartile range as the noise;
* the garbage collector stays on: it is part of what a user's loop pays. The
  objects that exist after the imports are frozen first (``freeze_imports``).
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

TORCH_MISSING = "PyTorch not installed: pip install torch==2.13.0 (the oracle extra)"

_torch = None
_torch_checked = False


def optional_torch():
    """PyTorch pinned to one thread, or None (with the install hint printed once)."""
    global _torch, _torch_checked
    if not _torch_checked:
        _torch_checked = True
        try:
            import torch
        except ImportError:
            print(TORCH_MISSING, flush=True)
        else:
            torch.set_num_threads(1)
            try:
                torch.set_num_interop_threads(1)
            except RuntimeError:  # only allowed before any parallel work started
                pass
            _torch = torch
    return _torch


#: The clock every benchmark reads (see the module docstring).
clock = time.process_time


def use_wall_clock():
    """Time with ``time.perf_counter`` (wall clock) instead of CPU time."""
    global clock
    clock = time.perf_counter


def clock_name():
    return "wall-clock time" if clock is time.perf_counter else "CPU time of the process"


class Timing:
    """The per-call times of one contender's timed blocks (seconds), in round order."""

    def __init__(self, samples):
        self.samples = samples
        self.median = statistics.median(samples)
        # Interquartile range over median: how noisy this measurement was.
        if len(samples) >= 4:
            q1, _, q3 = statistics.quantiles(samples, n=4)
        else:
            q1, q3 = min(samples), max(samples)
        self.iqr = (q3 - q1) / self.median if self.median else 0.0

    def ratio_to(self, other):
        """Median over rounds of (this block's time / the other's block time in the same round)."""
        return statistics.median(a / b for a, b in zip(self.samples, other.samples))


def time_interleaved(contenders, number, repeats, before=None):
    """Time each zero-argument callable in interleaved rounds of blocks.

    Args:
        contenders: dict name -> callable.
        number: calls per timed block.
        repeats: rounds (timed blocks per contender).
        before: a zero-argument callable run before each block, not timed (or None).

    Returns:
        dict name -> Timing (``.median`` is seconds per call).
    """
    samples = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, fn in contenders.items():
            if before is not None:
                before()
            start = clock()
            for _ in range(number):
                fn()
            samples[name].append((clock() - start) / number)
    return {name: Timing(values) for name, values in samples.items()}


def ratio(a, b):
    """``a / b`` as text (``1.23x``), or a dash when either is missing."""
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def fmt(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def table(headers, rows):
    """A markdown table as a list of lines (columns padded so it reads in a terminal too)."""
    cells = [list(map(str, headers))] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(row, widths))) + " |"

    rule = "|" + "|".join("-" * (w + 1) + ("-" if i == 0 else ":") for i, w in enumerate(widths)) + "|"
    return [line(cells[0]), rule] + [line(row) for row in cells[1:]]


class Report:
    """What one benchmark hands back to ``run.py``: markdown lines and goal checks.

    Attributes:
        title: the section header (``## title`` in the output).
        lines: markdown lines of the section body.
        goals: ``(goal, measured, met)`` triples for the summary table; ``met``
            is True, False, or None when it could not be checked (no PyTorch).
    """

    def __init__(self, title):
        self.title = title
        self.lines = []
        self.goals = []

    def add(self, *lines):
        self.lines.extend(lines)

    def goal(self, goal, measured, met):
        self.goals.append((goal, measured, met))

    def markdown(self):
        return "\n".join([f"## {self.title}", ""] + self.lines) + "\n"


def freeze_imports():
    """Hide every object that exists now (mostly imported modules) from the cyclic GC.

    A full garbage collection visits every tracked object in the process, and
    ``import torch`` alone brings about 150,000 of them (NumPy and minigrad:
    about 20,000). Without this, minigrad's long graphs would pay to scan
    PyTorch's module objects over and over, which a minigrad-only process
    does not. ``gc.freeze()`` keeps them alive and out of every collection.
    """
    import gc

    gc.collect()
    gc.freeze()


def versions():
    """``python x, numpy y, torch z`` for the results header."""
    import platform

    import numpy

    torch = optional_torch()
    parts = [f"Python {platform.python_version()}", f"NumPy {numpy.__version__}",
             f"PyTorch {torch.__version__}" if torch is not None else "PyTorch not installed"]
    return ", ".join(parts)


def log(message):
    """Progress to stderr, so stdout stays the report."""
    print(message, file=sys.stderr, flush=True)
