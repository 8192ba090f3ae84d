"""(c) A long chain: ``y = y * 1.000001`` repeated 10^5 and 10^6 times on a scalar leaf.

(The factor is that close to 1 so that 10^6 products stay finite in float32:
1.0001 ** 10**6 is about 2.7e43, beyond float32's 3.4e38.)

The engine walks the graph with an explicit stack and a ready queue, never by
recursion, so the chain's depth is limited only by memory. This measures
whether its cost is also *linear*: the time per node at 10^6 nodes divided by
the time per node at 10^5 should be about 1.

Three phases are timed: building the chain (forward), ``backward()``, and
freeing the graph when the last reference goes (``del y``). A chain of 10^6
takes seconds, long next to scheduling noise, but not next to the stretches of
load a shared host has: timed once each, one after the other, three full runs of
the same code gave 1.00x, 1.30x and 1.46x PyTorch. So each length runs in three
rounds, in each of which both lengths run and minigrad and PyTorch take turns;
the medians are reported, and each ratio (10^6 over 10^5, minigrad over PyTorch)
is the median of the rounds' own ratios.

Run alone: ``python benchmarks/long_chain.py [--quick]``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import gc
import statistics
import tracemalloc

import numpy as np

import minigrad

TITLE = "(c) Long chain"
#: Rounds per length in a full run: the median of three is not moved by one unlucky round.
ROUNDS = 3
FACTOR = 1.000001


def time_chain(lib, n, collect=True):
    """Seconds to build, backward through and free a chain of ``n`` multiplications.

    Args:
        collect: False to switch Python's cyclic garbage collector off while
            the chain is built (a diagnostic: how much of the forward time it takes).

    Returns:
        (forward_s, backward_s, free_s, grad): ``grad`` is d y / d x, checked by the caller.
    """
    gc.collect()
    x = lib.tensor(1.0, requires_grad=True)
    if not collect:
        gc.disable()
    try:
        start = timing.clock()
        y = x
        for _ in range(n):
            y = y * FACTOR
        built = timing.clock()
    finally:
        gc.enable()
    y.backward()
    done = timing.clock()
    del y
    freed = timing.clock()
    return built - start, done - built, freed - done, x.grad.item()


def chain_memory(lib, n):
    """Bytes a chain of ``n`` nodes holds after forward, and what is left after backward and ``del``.

    Measured with tracemalloc (Python objects and NumPy buffers), so PyTorch's
    C++ graph would be invisible: minigrad only. Not timed (tracemalloc slows
    every allocation).

    Returns:
        (after_forward, after_del): bytes above the start, with a full ``gc.collect()``
        before each reading.
    """
    gc.collect()
    tracemalloc.start()
    try:
        x = lib.tensor(1.0, requires_grad=True)
        x.grad = lib.zeros(())  # allocated before the start, so backward only adds into it
        gc.collect()
        start = tracemalloc.get_traced_memory()[0]
        y = x
        for _ in range(n):
            y = y * FACTOR
        gc.collect()
        after_forward = tracemalloc.get_traced_memory()[0] - start
        y.backward()
        del y
        gc.collect()
        after_del = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    return after_forward, after_del


def run(quick=False):
    """Time chains of two lengths in minigrad (and PyTorch); report per-node times and their ratio."""
    report = timing.Report(TITLE)
    sizes = (10**3, 10**4) if quick else (10**5, 10**6)
    rounds = 1 if quick else ROUNDS
    libs = {"minigrad": minigrad}
    torch = timing.optional_torch()
    if torch is not None:
        libs["torch"] = torch

    for lib in libs.values():
        time_chain(lib, 1000)  # warm up
    # samples[lib_name, n]: one (forward, backward, free) per round. Within a round both
    # lengths run, and the libraries take turns at each, so that the ratios taken within a
    # round (longer over shorter, minigrad over PyTorch) compare runs made close in time.
    samples = {(lib_name, n): [] for lib_name in libs for n in sizes}
    for round_number in range(rounds):
        for n in sizes:
            for lib_name, lib in libs.items():
                timing.log(f"  chain of {n:.0e} in {lib_name} (round {round_number + 1} of {rounds})...")
                fwd, bwd, free, grad = time_chain(lib, n)
                expected = float(np.float32(FACTOR)) ** n  # the factor as float32 holds it
                if abs(grad - expected) > 1e-2 * expected:  # float32 rounding builds up along the chain
                    raise AssertionError(f"{lib_name}: d y / d x = {grad}, expected about {expected}")
                samples[lib_name, n].append((fwd, bwd, free))

    def per_node_times(lib_name, n):
        """Forward + backward seconds per node, one per round."""
        return [(fwd + bwd) / n for fwd, bwd, _ in samples[lib_name, n]]

    def median_ratio(a, b):
        """The median over rounds of the ratio of a round's two per-node times."""
        return statistics.median(x / y for x, y in zip(per_node_times(*a), per_node_times(*b)))

    per_node = {key: statistics.median(per_node_times(*key)) for key in samples}
    rows = []
    for lib_name, lib in libs.items():
        for n in sizes:
            fwd, bwd, free = (statistics.median(phase) for phase in zip(*samples[lib_name, n]))
            fwd_no_gc = time_chain(lib, n, collect=False)[0] if lib is minigrad else None
            rows.append([lib_name, f"10^{len(str(n)) - 1}", f"{fwd:.2f}", f"{bwd:.2f}", f"{free:.2f}",
                         f"{fwd / n * 1e6:.2f}", f"{bwd / n * 1e6:.2f}", f"{per_node[lib_name, n] * 1e6:.2f}",
                         "-" if fwd_no_gc is None else f"{fwd_no_gc / n * 1e6:.2f}"])
    report.add(f"`y = y * {FACTOR}` n times on a float32 scalar leaf, then `y.backward()`, then `del y`. "
               f"Times in seconds, {timing.clock_name()}: the median of {rounds} round{'s' * (rounds != 1)}, in "
               "which the libraries take turns; per-node times in µs. *fwd µs/node, gc off*: the forward once more "
               "with Python's cyclic garbage collector disabled, to show its share (PyTorch's graph lives "
               "in C++, out of its sight).", "")
    report.add(*timing.table(["library", "nodes", "forward s", "backward s", "free s", "fwd µs/node",
                              "bwd µs/node", "total µs/node", "fwd µs/node, gc off"], rows))

    small, large = sizes
    lines = []
    linearity = {lib_name: median_ratio((lib_name, large), (lib_name, small)) for lib_name in libs}
    for lib_name in libs:
        r = linearity[lib_name]
        lines.append(f"- {lib_name}: per-node time (forward + backward) at {large:.0e} / at {small:.0e} "
                     f"(the median of the rounds' ratios) = **{r:.2f}** (1 = linear)")
    report.add("", *lines)
    r = linearity["minigrad"]
    # "Linear" with a tolerance: a 10x longer chain also means a 10x larger heap,
    # which costs the allocator, the caches and the garbage collector a little more per object.
    report.goal(f"{large:.0e}-node chain in linear time (per-node ratio vs {small:.0e} about 1)", f"{r:.2f}",
                r <= 1.3)
    if torch is not None:
        vs_torch = median_ratio(("minigrad", large), ("torch", large))
        report.goal(f"{large:.0e}-node chain within 1.5x of PyTorch per node (forward + backward)",
                    f"{vs_torch:.2f}x", vs_torch <= 1.5)

    # Memory: linear in the chain's length while it lives, and all of it given back after.
    mem_sizes = (10**2, 10**3) if quick else (10**4, 10**5)
    rows, per_node_bytes, left = [], [], []
    for n in mem_sizes:
        timing.log(f"  memory of a chain of {n:.0e} in minigrad...")
        held, after = chain_memory(minigrad, n)
        per_node_bytes.append(held / n)
        left.append(after)
        rows.append([f"10^{len(str(n)) - 1}", f"{held / 1024:.0f}", f"{held / n:.0f}", f"{after / 1024:.1f}"])
    report.add("", "Memory of minigrad's chain (tracemalloc, after a full `gc.collect()`; not timed): KiB held by "
               "the graph after forward, bytes per node, and KiB still held after `backward()` and `del y`.", "")
    report.add(*timing.table(["nodes", "KiB after forward", "bytes/node", "KiB after backward + del"], rows))
    growth = per_node_bytes[1] / per_node_bytes[0]
    report.goal("chain memory flat: same bytes per node at both lengths, all freed after backward and del",
                f"bytes/node ratio {growth:.2f}, {max(left) / 1024:.1f} KiB left",
                0.9 <= growth <= 1.1 and max(left) < 1024)
    return report


if __name__ == "__main__":
    import sys

    timing.optional_torch()
    timing.freeze_imports()
    print(run(quick="--quick" in sys.argv).markdown())
