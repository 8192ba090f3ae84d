"""(d) Memory: no growth over 1,000 training steps, and what ``retain_graph`` keeps.

Measured with ``tracemalloc``, which sees Python objects *and* NumPy's array
buffers (NumPy reports its allocations to it). PyTorch's allocator is
invisible to tracemalloc, so there is no PyTorch column here; the hand-written
NumPy step is the reference instead.

1. Training: the MLP step of (a) run 1,000 times. After each step (and a
   full garbage collection) we read the memory still allocated; its mean over
   the first 100 steps and over the last 100 should be the same (nothing
   accumulates from step to step), and the peak says how much one step needs
   at most.
2. ``retain_graph``: with the parameters' ``.grad`` already allocated, run a
   forward pass and keep the loss tensor alive, then call
   ``loss.backward(retain_graph=...)``. With ``False`` every node drops the
   tensors it saved for backward, so the memory the forward pass took is
   given back even though the graph object still exists; with ``True`` it is
   all kept for a second backward.

tracemalloc slows every allocation down; these runs say nothing about speed.

Run alone: ``python benchmarks/memory.py [--quick]``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import gc
import tracemalloc

import numpy as np

import mlp_step

TITLE = "(d) Memory"


def _kib(nbytes):
    return f"{nbytes / 1024:.1f}"


def training_memory(cls, steps, window):
    """Run ``steps`` training steps of ``cls`` under tracemalloc.

    After each step two readings are taken: the memory allocated right then
    (*raw*), and again after a full ``gc.collect()`` (*live*). They differ by
    CPython's free lists (tuples, lists, dicts and floats kept for reuse, which
    a full collection empties): a free list fills over hundreds of steps and
    would look like growth in the raw reading alone. ``gc.freeze()`` first
    moves every object that exists before the loop out of the collector's
    view, so the collection after each step costs little.

    Returns:
        dict of bytes: ``baseline`` after setup and one warm-up step; ``peak``
        during the steps; ``raw_max``; ``first`` / ``last``, the mean live
        memory over the first and last ``window`` steps.
    """
    weights, x, y = mlp_step.make_problem()
    gc.collect()
    tracemalloc.start()
    was_frozen = gc.get_freeze_count() > 0
    gc.freeze()
    try:
        runner = cls(weights, x, y)
        runner.step()  # warm up: lazily created state (grad buffers, caches)
        # Preallocated, before the baseline: a list would itself grow by 36 bytes per step.
        raw, live = np.zeros(steps, dtype=np.int64), np.zeros(steps, dtype=np.int64)
        gc.collect()
        baseline = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        for i in range(steps):
            runner.step()
            raw[i] = tracemalloc.get_traced_memory()[0]
            gc.collect()
            live[i] = tracemalloc.get_traced_memory()[0]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        gc.unfreeze()
        gc.collect()
        if was_frozen:  # run.py froze the imports: leave them frozen for the benchmarks after this one
            gc.freeze()
        tracemalloc.stop()
    return {"baseline": baseline, "peak": peak, "raw_max": int(raw.max()),
            "first": float(live[:window].mean()), "last": float(live[-window:].mean())}


def retained_memory(cls, retain_graph):
    """Bytes the graph holds after a forward pass, and after a backward with ``retain_graph``.

    Returns:
        (after_forward, after_backward, after_del): bytes above the starting point
        (parameters with their ``.grad`` already allocated), with the loss still
        alive after forward and after backward, then after ``del loss``.
    """
    weights, x, y = mlp_step.make_problem()
    gc.collect()
    tracemalloc.start()
    try:
        runner = cls(weights, x, y)
        runner.loss().backward()  # allocate every .grad now, so backward below only adds into them
        gc.collect()
        start = tracemalloc.get_traced_memory()[0]
        loss = runner.loss()
        gc.collect()
        after_forward = tracemalloc.get_traced_memory()[0] - start
        loss.backward(retain_graph=retain_graph)
        gc.collect()
        after_backward = tracemalloc.get_traced_memory()[0] - start
        del loss
        gc.collect()
        after_del = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    return after_forward, after_backward, after_del


def run(quick=False):
    """Measure memory over training steps and after backward; report KiB."""
    report = timing.Report(TITLE)
    steps, window = (30, 10) if quick else (1000, 100)
    minigrad_cls = mlp_step.MinigradNNStep if mlp_step.minigrad_has_nn() else mlp_step.MinigradOpsStep

    rows, growth = [], {}
    for cls in (mlp_step.NumpyStep, minigrad_cls):
        timing.log(f"  {steps} steps of {cls.name} under tracemalloc...")
        m = training_memory(cls, steps, window)
        base = m["baseline"]
        growth[cls.name] = m["last"] - m["first"]
        rows.append([cls.name, _kib(base), _kib(m["peak"]), _kib(m["first"] - base),
                     _kib(m["last"] - base), _kib(m["last"] - m["first"]), _kib(m["raw_max"] - base)])
    report.add(f"### Training: {steps} steps of the MLP step of (a)", "",
               "KiB allocated since the step object was made (tracemalloc: Python objects and NumPy "
               "buffers). *Baseline*: after setup and one warm-up step (its weights, and for minigrad the "
               "`.grad` buffers and its copy of the batch); *peak*: the most allocated at any moment of "
               "the run; the other columns are above the baseline. "
               f"*Live first/last {window}*: mean allocated after a step and a full `gc.collect()`, over the "
               f"first and last {window} steps. *Raw max*: the most allocated right after a step, before "
               "that collection (the difference is what the step left in CPython's free lists).", "")
    report.add(*timing.table(["step", "baseline", "peak", f"live first {window}", f"live last {window}",
                              "growth", "raw max"], rows))

    rows = []
    for retain_graph in (False, True):
        fwd, bwd, dropped = retained_memory(minigrad_cls, retain_graph)
        rows.append([f"retain_graph={retain_graph}", _kib(fwd), _kib(bwd), _kib(dropped)])
        if not retain_graph:
            released = (fwd, bwd)
    report.add("", f"### Graph memory after backward ({minigrad_cls.name}, loss tensor kept alive)", "",
               "KiB above the parameters with their `.grad` allocated.", "")
    report.add(*timing.table(["backward", "after forward", "after backward", "after del loss"], rows))

    name = minigrad_cls.name
    # "No growth": less than 1 KiB over the whole run, a tiny fraction of one step's working set.
    report.goal(f"no memory growth over {steps} steps ({name})", f"{growth[name] / 1024:+.1f} KiB",
                abs(growth[name]) < 1024)
    fwd, bwd = released
    report.goal("retain_graph=False frees the saved tensors",
                f"{_kib(bwd)} of {_kib(fwd)} KiB still held", bwd < 0.1 * fwd)
    return report


if __name__ == "__main__":
    import sys

    timing.optional_torch()
    timing.freeze_imports()
    print(run(quick="--quick" in sys.argv).markdown())
