"""(b) Per-operation overhead: common ops on tiny tensors, minigrad against PyTorch.

On a tensor of 4 elements the arithmetic is free, so the time measured is
what each library spends around it: argument checks, building the result,
recording the graph node, and (for backward) running the engine over it.

Each op is timed two ways, with its inputs requiring grad:

* forward: the op alone, graph recording on;
* forward + backward: the op, then ``out.backward(ones)`` into the leaves.

The same lambda runs on both libraries (minigrad's API is PyTorch's).

Run alone: ``python benchmarks/per_op_overhead.py [--quick]``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import math

import numpy as np

import minigrad

TITLE = "(b) Per-op overhead on tiny tensors"

# name -> op on (a, b, A, B): a, b of shape (4,); A, B of shape (4, 4).
OPS = {
    "add": lambda a, b, A, B: a + b,
    "mul": lambda a, b, A, B: a * b,
    "mul scalar": lambda a, b, A, B: a * 2.0,
    "div": lambda a, b, A, B: a / b,
    "matmul (4x4)": lambda a, b, A, B: A @ B,
    "exp": lambda a, b, A, B: a.exp(),
    "tanh": lambda a, b, A, B: a.tanh(),
    "relu": lambda a, b, A, B: a.relu(),
    "sum": lambda a, b, A, B: a.sum(),
    "mean dim": lambda a, b, A, B: A.mean(1),
    "softmax": lambda a, b, A, B: a.softmax(0),
    "reshape": lambda a, b, A, B: a.reshape(2, 2),
    "transpose": lambda a, b, A, B: A.t(),
    "getitem": lambda a, b, A, B: a[1:3],
}


def _leaves(lib):
    """Tiny float32 leaves that require grad, the same values for both libraries."""
    rng = np.random.default_rng(0)
    arrays = [rng.uniform(0.5, 1.5, size=s).astype(np.float32) for s in ((4,), (4,), (4, 4), (4, 4))]
    return [lib.tensor(x, requires_grad=True) for x in arrays]


def _forward(lib, op):
    args = _leaves(lib)
    return lambda: op(*args)


def _forward_backward(lib, op):
    args = _leaves(lib)
    ones = lib.ones(op(*args).shape)

    def step():
        op(*args).backward(ones)

    return step


def run(quick=False):
    """Time every op forward and forward+backward in both libraries; report µs/op and ratios."""
    torch = timing.optional_torch()
    report = timing.Report(TITLE)
    number, repeats = (20, 2) if quick else (100, 25)
    libs = {"minigrad": minigrad}
    if torch is not None:
        libs["torch"] = torch

    rows, ratios, failures = [], {"fwd": [], "fwd+bwd": []}, []
    for name, op in OPS.items():
        row = [name]
        for mode, build in (("fwd", _forward), ("fwd+bwd", _forward_backward)):
            try:
                fns = {lib_name: build(lib, op) for lib_name, lib in libs.items()}
                for fn in fns.values():  # warm up
                    for _ in range(20):
                        fn()
            except Exception as error:  # a broken op is reported, not allowed to hide the others
                row += [f"error: {type(error).__name__}", "", ""]
                failures.append(f"{name} ({mode}): {type(error).__name__}: {error}")
                continue
            times = timing.time_interleaved(fns, number, repeats)
            mg = times["minigrad"].median * 1e6
            th = times["torch"].median * 1e6 if "torch" in times else None
            r = times["minigrad"].ratio_to(times["torch"]) if "torch" in times else None
            row += [timing.fmt(mg), timing.fmt(th), "-" if r is None else f"{r:.2f}x"]
            if r is not None:
                ratios[mode].append(r)
        rows.append(row)

    def geomean(values):
        return math.exp(sum(map(math.log, values)) / len(values)) if values else None

    gm = {mode: geomean(values) for mode, values in ratios.items()}
    rows.append(["**geometric mean**", "", "", timing.fmt(gm["fwd"], 2) + "x" if gm["fwd"] else "-",
                 "", "", timing.fmt(gm["fwd+bwd"], 2) + "x" if gm["fwd+bwd"] else "-"])
    report.add("Inputs: float32, shape (4,) or (4, 4), requires_grad=True; one thread. "
               "fwd+bwd = the op then `out.backward(ones)`. Times in µs per op, "
               f"{timing.clock_name()}: median of {repeats} interleaved rounds of {number} calls; "
               "ratios are medians of per-round ratios.", "")
    report.add(*timing.table(["op", "minigrad fwd", "torch fwd", "ratio", "minigrad fwd+bwd",
                              "torch fwd+bwd", "ratio"], rows))
    if failures:
        report.add("", "Ops that raised (not timed):", *[f"- {f}" for f in failures])

    for mode in ("fwd", "fwd+bwd"):
        worst = max(ratios[mode]) if ratios[mode] else None
        met = None if worst is None else worst <= 2.0
        measured = "-" if worst is None else f"geomean {gm[mode]:.2f}x, worst {worst:.2f}x"
        report.goal(f"per-op overhead ({mode}) within 2x of PyTorch", measured, met)
    return report


if __name__ == "__main__":
    import sys

    timing.optional_torch()
    timing.freeze_imports()
    print(run(quick="--quick" in sys.argv).markdown())
