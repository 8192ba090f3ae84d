"""(b) Per-op overhead: common ops on 16-element tensors, minigrad against PyTorch and NumPy.

On a tensor of 16 elements the arithmetic is free, so the time measured is
what each library spends around it: argument checks, building the result,
recording the graph node, and (for backward) running the engine over it.

Each op is timed three ways:

* no-grad forward: inputs that do not require grad, so nothing is recorded
  (as every op inside a plain backward pass); NumPy runs the same op too;
* recorded forward: inputs that require grad, so the op records its node;
* forward + backward: the recorded op, then ``out.backward(ones)`` into the leaves.

The same lambda runs on minigrad and PyTorch (minigrad's API is PyTorch's); the
NumPy column is the same op written with NumPy, the floor any wrapper pays.

Run alone: ``python benchmarks/per_op_overhead.py [--quick]``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import math

import numpy as np

import minigrad

TITLE = "(b) Per-op overhead on tiny tensors"
MODES = ("no-grad fwd", "recorded fwd", "fwd+bwd")
GEOMEAN_GOAL, WORST_GOAL = 1.5, 2.5


def _np_softmax(a):
    e = np.exp(a - a.max())
    return e / e.sum()


# name -> (op on (a, b, A, B, r) for minigrad and PyTorch, the same op in NumPy or None);
# a, b have shape (16,), A, B (4, 4), r (1, 16).
OPS = {
    "add": (lambda a, b, A, B, r: a + b, lambda a, b, A, B, r: a + b),
    "sub": (lambda a, b, A, B, r: a - b, lambda a, b, A, B, r: a - b),
    "mul": (lambda a, b, A, B, r: a * b, lambda a, b, A, B, r: a * b),
    "mul scalar": (lambda a, b, A, B, r: a * 2.0, lambda a, b, A, B, r: a * np.float32(2.0)),
    "div": (lambda a, b, A, B, r: a / b, lambda a, b, A, B, r: a / b),
    "pow 2": (lambda a, b, A, B, r: a ** 2, lambda a, b, A, B, r: a ** 2),
    "matmul (4x4)": (lambda a, b, A, B, r: A @ B, lambda a, b, A, B, r: A @ B),
    "exp": (lambda a, b, A, B, r: a.exp(), lambda a, b, A, B, r: np.exp(a)),
    "tanh": (lambda a, b, A, B, r: a.tanh(), lambda a, b, A, B, r: np.tanh(a)),
    "relu": (lambda a, b, A, B, r: a.relu(), lambda a, b, A, B, r: np.maximum(a, 0)),
    "sum": (lambda a, b, A, B, r: a.sum(), lambda a, b, A, B, r: a.sum()),
    "mean dim": (lambda a, b, A, B, r: A.mean(1), lambda a, b, A, B, r: A.mean(1)),
    "softmax": (lambda a, b, A, B, r: a.softmax(0), lambda a, b, A, B, r: _np_softmax(a)),
    "expand": (lambda a, b, A, B, r: r.expand(4, 16), lambda a, b, A, B, r: np.broadcast_to(r, (4, 16))),
    "reshape": (lambda a, b, A, B, r: a.reshape(4, 4), lambda a, b, A, B, r: a.reshape(4, 4)),
    "transpose": (lambda a, b, A, B, r: A.t(), lambda a, b, A, B, r: A.T),
    "getitem": (lambda a, b, A, B, r: a[1:3], lambda a, b, A, B, r: a[1:3]),
}


def _arrays():
    """The float32 inputs, the same values for every library."""
    rng = np.random.default_rng(0)
    return [rng.uniform(0.5, 1.5, size=s).astype(np.float32) for s in ((16,), (16,), (4, 4), (4, 4), (1, 16))]


def _forward(lib, op, requires_grad):
    args = [lib.tensor(x, requires_grad=requires_grad) for x in _arrays()]
    return lambda: op(*args)


def _forward_backward(lib, op):
    args = [lib.tensor(x, requires_grad=True) for x in _arrays()]
    ones = lib.ones(op(*args).shape)

    def step():
        op(*args).backward(ones)

    return step


def _contenders(libs, mode, op, numpy_op):
    """name -> zero-argument callable for one op in one mode."""
    if mode == "fwd+bwd":
        return {name: _forward_backward(lib, op) for name, lib in libs.items()}
    fns = {name: _forward(lib, op, requires_grad=mode == "recorded fwd") for name, lib in libs.items()}
    if mode == "no-grad fwd" and numpy_op is not None:
        arrays = _arrays()
        fns["numpy"] = lambda: numpy_op(*arrays)
    return fns


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def run(quick=False):
    """Time every op in every mode; report µs/op, per-op ratios and their geometric means."""
    torch = timing.optional_torch()
    report = timing.Report(TITLE)
    number, repeats = (20, 2) if quick else (100, 25)
    libs = {"minigrad": minigrad}
    if torch is not None:
        libs["torch"] = torch

    rows, ratios, numpy_ratios, failures = [], {mode: {} for mode in MODES}, {}, []
    for name, (op, numpy_op) in OPS.items():
        row = [name]
        for mode in MODES:
            cells = 5 if mode == "no-grad fwd" else 3
            try:
                fns = _contenders(libs, mode, op, numpy_op)
                for fn in fns.values():  # warm up
                    for _ in range(20):
                        fn()
            except Exception as error:  # a broken op is reported, not allowed to hide the others
                row += [f"error: {type(error).__name__}"] + [""] * (cells - 1)
                failures.append(f"{name} ({mode}): {type(error).__name__}: {error}")
                continue
            times = timing.time_interleaved(fns, number, repeats)
            mg = times["minigrad"]
            th = times.get("torch")
            r = mg.ratio_to(th) if th is not None else None
            if r is not None:
                ratios[mode][name] = r
            row += [timing.fmt(mg.median * 1e6), timing.fmt(th.median * 1e6 if th else None),
                    "-" if r is None else f"{r:.2f}x"]
            if mode == "no-grad fwd":
                npt = times.get("numpy")
                if npt is not None:
                    numpy_ratios[name] = mg.ratio_to(npt)
                row += [timing.fmt(npt.median * 1e6 if npt else None, 2),
                        f"{numpy_ratios[name]:.1f}x" if name in numpy_ratios else "-"]
        rows.append(row)

    gm = {mode: geomean(list(ratios[mode].values())) for mode in MODES}
    gm_numpy = geomean(list(numpy_ratios.values()))

    def cell(value, digits=2):
        return "-" if value is None else f"{value:.{digits}f}x"

    rows.append(["**geometric mean**", "", "", cell(gm["no-grad fwd"]), "", cell(gm_numpy, 1),
                 "", "", cell(gm["recorded fwd"]), "", "", cell(gm["fwd+bwd"])])
    report.add("Inputs: float32 of shape (16,), (4, 4) or (1, 16) (for expand); one thread. *no-grad*: inputs "
               "that do not require grad, so nothing is recorded; *recorded*: inputs that require grad; "
               "*fwd+bwd*: the recorded op then `out.backward(ones)`. NumPy runs the same op on arrays (no-grad "
               f"only). Times in µs per op, {timing.clock_name()}: median of {repeats} interleaved rounds of "
               f"{number} calls; ratios (minigrad over the other) are medians of per-round ratios.", "")
    report.add(*timing.table(["op", "no-grad minigrad", "torch", "ratio", "numpy", "vs numpy",
                              "recorded minigrad", "torch", "ratio", "fwd+bwd minigrad", "torch", "ratio"], rows))
    if failures:
        report.add("", "Ops that raised (not timed):", *[f"- {f}" for f in failures])

    for mode in MODES:
        if not ratios[mode]:
            report.goal(f"per-op {mode}: geomean within {GEOMEAN_GOAL}x of PyTorch, no op over {WORST_GOAL}x",
                        "-", None)
            continue
        worst_op = max(ratios[mode], key=ratios[mode].get)
        worst = ratios[mode][worst_op]
        report.goal(f"per-op {mode}: geomean within {GEOMEAN_GOAL}x of PyTorch, no op over {WORST_GOAL}x",
                    f"geomean {gm[mode]:.2f}x, worst {worst:.2f}x ({worst_op})",
                    gm[mode] <= GEOMEAN_GOAL and worst <= WORST_GOAL and not failures)
    return report


if __name__ == "__main__":
    import sys

    timing.optional_torch()
    timing.freeze_imports()
    print(run(quick="--quick" in sys.argv).markdown())
