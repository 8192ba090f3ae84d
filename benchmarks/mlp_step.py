"""(a) One MLP training step: minigrad against hand-written NumPy and PyTorch.

The model is 784-256-10 with a ReLU, trained on a batch of 128 with softmax
cross-entropy and plain SGD, in float32 (PyTorch's default dtype). All
contenders start from the same weights, made once with NumPy and copied in,
and the script checks that they compute the same losses before timing them,
so the ratios compare equal work.

Run alone: ``python benchmarks/mlp_step.py [--quick]``; ``--by-position`` times each step of a
round on its own instead (``by_position``); ``--under-load`` times the step while another process
streams memory on another CPU (``under_load``, ``neighbour.py``).
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import statistics

import numpy as np

import minigrad

BATCH, IN, HIDDEN, OUT = 128, 784, 256, 10
LR = 0.1
TITLE = "(a) MLP training step"


TINY = (4, 6, 5, 3)  # batch, in, hidden, out: the same step with almost no arithmetic
COLD_WRITE = 64 << 20  # bytes written before each cold step: twice this machine's 32 MiB L3


def make_problem(seed=0, sizes=(BATCH, IN, HIDDEN, OUT)):
    """Weights (PyTorch's Linear init: U(-1/sqrt(fan_in), 1/sqrt(fan_in))), a batch and its labels."""
    rng = np.random.default_rng(seed)
    batch, n_in, hidden, out = sizes

    def uniform(fan_in, *shape):
        bound = 1.0 / np.sqrt(fan_in)
        return rng.uniform(-bound, bound, size=shape).astype(np.float32)

    weights = {"W1": uniform(n_in, hidden, n_in), "b1": uniform(n_in, hidden),
               "W2": uniform(hidden, out, hidden), "b2": uniform(hidden, out)}
    x = rng.standard_normal((batch, n_in)).astype(np.float32)
    y = rng.integers(0, out, size=batch).astype(np.int64)
    return weights, x, y


# --- the three (or four) contenders: each is built fresh from the same weights ---------
class NumpyStep:
    """The step written by hand: forward, softmax cross-entropy, backward, SGD."""

    name = "NumPy by hand"

    def __init__(self, weights, x, y):
        self.p = {k: v.copy() for k, v in weights.items()}
        self.x, self.y = x, y
        self.rows = np.arange(len(y))

    def step(self):
        p, x, y = self.p, self.x, self.y
        # forward
        h_pre = x @ p["W1"].T + p["b1"]
        h = np.maximum(h_pre, 0)
        logits = h @ p["W2"].T + p["b2"]
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        sum_e = e.sum(axis=1, keepdims=True)
        loss = np.log(sum_e[:, 0]).mean() - shifted[self.rows, y].mean()
        # backward: d loss / d logits = (softmax - onehot) / N
        d_logits = e / sum_e
        d_logits[self.rows, y] -= 1
        d_logits /= len(y)
        d_W2 = d_logits.T @ h
        d_b2 = d_logits.sum(axis=0)
        d_h = d_logits @ p["W2"]
        d_h[h_pre <= 0] = 0
        d_W1 = d_h.T @ x
        d_b1 = d_h.sum(axis=0)
        # SGD
        p["W1"] -= LR * d_W1
        p["b1"] -= LR * d_b1
        p["W2"] -= LR * d_W2
        p["b2"] -= LR * d_b2
        return float(loss)


def minigrad_has_nn():
    """True once ``minigrad.nn.Linear`` and ``minigrad.optim.SGD`` exist."""
    return hasattr(minigrad.nn, "Linear") and hasattr(minigrad.optim, "SGD")


def _minigrad_cross_entropy():
    functional = getattr(minigrad.nn, "functional", None)
    return getattr(functional, "cross_entropy", None) or minigrad.cross_entropy


class MinigradNNStep:
    """minigrad the way a user trains: ``nn.Linear``, ``cross_entropy``, ``optim.SGD``."""

    name = "minigrad (nn + optim)"

    def __init__(self, weights, x, y):
        nn = minigrad.nn
        (hidden, n_in), out = weights["W1"].shape, weights["W2"].shape[0]
        self.l1, self.l2 = nn.Linear(n_in, hidden), nn.Linear(hidden, out)
        self.model = nn.Sequential(self.l1, nn.ReLU(), self.l2)
        with minigrad.no_grad():
            for layer, w, b in ((self.l1, "W1", "b1"), (self.l2, "W2", "b2")):
                layer.weight.copy_(minigrad.tensor(weights[w]))
                layer.bias.copy_(minigrad.tensor(weights[b]))
        self.optimizer = minigrad.optim.SGD(self.model.parameters(), lr=LR)
        self.cross_entropy = _minigrad_cross_entropy()
        self.x, self.y = minigrad.tensor(x), minigrad.tensor(y)

    def loss(self):
        """The forward pass alone (the graph hangs off the returned loss)."""
        return self.cross_entropy(self.model(self.x), self.y)

    def step(self):
        self.optimizer.zero_grad()
        loss = self.loss()
        loss.backward()
        self.optimizer.step()
        return loss


class MinigradOpsStep:
    """minigrad with tensors and ops only: ``x @ W.t() + b``, ``relu``, ``cross_entropy``."""

    name = "minigrad (tensors + ops)"

    def __init__(self, weights, x, y):
        self.params = [minigrad.tensor(weights[k], requires_grad=True) for k in ("W1", "b1", "W2", "b2")]
        self.x, self.y = minigrad.tensor(x), minigrad.tensor(y)

    def loss(self):
        """The forward pass alone (the graph hangs off the returned loss)."""
        W1, b1, W2, b2 = self.params
        h = minigrad.relu(self.x @ W1.t() + b1)
        return minigrad.cross_entropy(h @ W2.t() + b2, self.y)

    def step(self):
        loss = self.loss()
        loss.backward()
        with minigrad.no_grad():
            for p in self.params:
                p -= LR * p.grad
                p.grad = None  # what zero_grad(set_to_none=True) does
        return loss


class TorchStep:
    """The same step in PyTorch: ``nn.Linear``, ``F.cross_entropy``, ``optim.SGD``."""

    name = "PyTorch"

    def __init__(self, weights, x, y):
        torch = timing.optional_torch()
        self.torch = torch
        (hidden, n_in), out = weights["W1"].shape, weights["W2"].shape[0]
        self.l1, self.l2 = torch.nn.Linear(n_in, hidden), torch.nn.Linear(hidden, out)
        self.model = torch.nn.Sequential(self.l1, torch.nn.ReLU(), self.l2)
        with torch.no_grad():
            for layer, w, b in ((self.l1, "W1", "b1"), (self.l2, "W2", "b2")):
                layer.weight.copy_(torch.from_numpy(weights[w]))
                layer.bias.copy_(torch.from_numpy(weights[b]))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=LR)
        self.x, self.y = torch.from_numpy(x), torch.from_numpy(y)

    def step(self):
        self.optimizer.zero_grad()
        loss = self.torch.nn.functional.cross_entropy(self.model(self.x), self.y)
        loss.backward()
        self.optimizer.step()
        return loss


def contenders():
    """The step classes to compare, NumPy first; minigrad's nn/optim only once they exist."""
    steps = [NumpyStep]
    if minigrad_has_nn():
        steps.append(MinigradNNStep)
    steps.append(MinigradOpsStep)
    if timing.optional_torch() is not None:
        steps.append(TorchStep)
    return steps


def _as_float(loss):
    return loss.item() if hasattr(loss, "item") else float(loss)


def check_same_losses(weights, x, y, steps=3, classes=None):
    """Run a few steps of each contender (``classes``, NumPy's first; default: ``contenders()``)
    from the same start; return their losses.

    Raises:
        AssertionError: if any contender's losses differ from NumPy's by more than 1e-4
            (then the timings would not compare equal work).
    """
    losses = {}
    for cls in classes or contenders():
        runner = cls(weights, x, y)
        losses[cls.name] = [_as_float(runner.step()) for _ in range(steps)]
    reference = losses[NumpyStep.name]
    for name, values in losses.items():
        worst = max(abs(a - b) for a, b in zip(values, reference))
        if worst > 1e-4:
            raise AssertionError(f"{name} losses {values} differ from NumPy's {reference} by {worst:.2e}")
    return losses


def _warmed_runners(weights, x, y, steps, classes=None):
    """Every contender (``classes``; default: ``contenders()``) built from the same start, then run
    ``steps`` untimed steps each (first-call allocations, caches, lazy imports)."""
    runners = {cls.name: cls(weights, x, y) for cls in classes or contenders()}
    for runner in runners.values():
        for _ in range(steps):
            runner.step()
    return runners


def run(quick=False):
    """Check equal work, time the step of every contender, and report ms/step and ratios."""
    report = timing.Report(TITLE)
    weights, x, y = make_problem()
    losses = check_same_losses(weights, x, y)
    first = ", ".join(f"{v:.6f}" for v in losses[NumpyStep.name])
    report.add(f"Batch {BATCH}, {IN}-{HIDDEN}-{OUT}, ReLU, cross-entropy, SGD lr={LR}, float32, one thread. "
               f"Same initial weights everywhere; losses of the first 3 steps agree to 1e-4 "
               f"({first}).", "")

    runners = _warmed_runners(weights, x, y, 2 if quick else 5)
    number, repeats = (2, 3) if quick else (5, 100)
    times = timing.time_interleaved({name: r.step for name, r in runners.items()}, number, repeats)

    numpy_t = times[NumpyStep.name]
    torch_t = times.get(TorchStep.name)
    report.add(*_step_table(times, number, repeats))

    # The fixed cost of a step: the same step on tiny matrices, where the arithmetic is next to
    # nothing. What is left of the full step is the NumPy (or PyTorch kernel) work.
    tiny_weights, tiny_x, tiny_y = make_problem(sizes=TINY)
    tiny_runners = _warmed_runners(tiny_weights, tiny_x, tiny_y, 2 if quick else 20)
    tiny_steps = {name: r.step for name, r in tiny_runners.items()}
    tiny = timing.time_interleaved(tiny_steps, *((2, 3) if quick else (50, 60)))
    cold = time_cold(tiny_steps, 3 if quick else 50)
    rows = [[name, f"{tiny[name].median * 1e6:.0f}", f"{cold[name].median * 1e6:.0f}",
             f"{(times[name].median - tiny[name].median) * 1e6:.0f}"] for name in times]
    report.add("", f"The same step on tiny matrices (batch {TINY[0]}, {TINY[1]}-{TINY[2]}-{TINY[3]}): its time is "
               "the fixed cost of a step (Python, bookkeeping, dispatch); the full step minus it is roughly "
               f"the arithmetic. *Cold*: the tiny step timed alone right after {COLD_WRITE >> 20} MiB were written, "
               "so that its code and data come from memory, as beside a neighbour that streams memory (there, "
               "the contenders' full steps exceed NumPy's in the order of this column, not of the warm one: "
               "benchmarks/HISTORY.md, session 21).", "")
    report.add(*timing.table(["step", "µs/step, tiny", "µs/step, tiny, cold", "µs/step, full minus tiny"], rows))

    main = MinigradNNStep.name if MinigradNNStep.name in times else MinigradOpsStep.name
    vs_numpy = times[main].ratio_to(numpy_t)
    report.goal(f"MLP step ({main}) within 1.15x of NumPy by hand", f"{vs_numpy:.2f}x", vs_numpy <= 1.15)
    vs_torch = None if torch_t is None else times[main].ratio_to(torch_t)
    report.goal(f"MLP step ({main}) no slower than PyTorch", timing.fmt(vs_torch, 2) + "x" if vs_torch else "-",
                None if vs_torch is None else vs_torch <= 1.0)
    return report


def time_cold(steps, rounds):
    """Each step (dict name -> callable) timed alone right after ``COLD_WRITE`` bytes were written
    (not timed), in ``rounds`` interleaved rounds: its fixed cost when none of its code or data is
    left in any cache.

    Returns:
        dict name -> timing.Timing (``.median`` is seconds per step).
    """
    sweep = np.zeros(COLD_WRITE // 8)

    def write_sweep():
        np.add(sweep, 1.0, out=sweep)  # (reads and writes every line: the caches hold the sweep, nothing else)

    return timing.time_interleaved(steps, 1, rounds, before=write_sweep)


def _step_table(times, number, repeats):
    """The lines of the step table: ms/step, IQR and ratios of each contender, and what they mean."""
    numpy_t = times[NumpyStep.name]
    torch_t = times.get(TorchStep.name)
    rows = []
    for name, t in times.items():
        vs_torch = "-" if torch_t is None else f"{t.ratio_to(torch_t):.2f}x"
        rows.append([name, f"{t.median * 1e3:.3f}", f"{t.iqr * 100:.0f}%", f"{t.ratio_to(numpy_t):.2f}x",
                     vs_torch])
    return timing.table(["step", "ms/step", "IQR", "vs NumPy", "vs PyTorch"], rows) + [
        "", f"Times are {timing.clock_name()}, median of {repeats} interleaved rounds of {number} steps each; "
        "IQR = interquartile range / median. Ratios are medians of per-round ratios."]


def under_load(rounds=100, number=5):
    """``run``'s step table, timed while another process streams memory on another CPU
    (``neighbour.py``): what a busy host does to each contender, made on demand.
    Printed, not part of ``./run bench``.
    """
    import neighbour

    weights, x, y = make_problem()
    runners = _warmed_runners(weights, x, y, 5)
    with neighbour.memory_streaming_neighbour() as load:
        times = timing.time_interleaved({name: r.step for name, r in runners.items()}, number, rounds)
    return [f"The MLP step {load}:", ""] + _step_table(times, number, rounds)


def by_position(rounds=100, number=5):
    """The rounds of ``run``, each step of a round timed on its own: what each contender's first step
    after another contender's round costs, against its later steps.

    ``timing.time_interleaved`` runs the contenders in a fixed order, so each one's first step comes
    after the same other contender's round and finds its arrays, and much of its code, evicted
    (minigrad's nn step comes after NumPy's; its tensors-and-ops step after the nn step, whose round
    leaves minigrad's own code warm). The last column is the steady state a training loop sees.
    Printed, not part of ``./run bench``.
    """
    weights, x, y = make_problem()
    runners = _warmed_runners(weights, x, y, 5)
    times = {name: [[] for _ in range(number)] for name in runners}
    for _ in range(rounds):
        for name, runner in runners.items():
            for position in range(number):
                start = timing.clock()
                runner.step()
                times[name][position].append(timing.clock() - start)
    medians = {name: [statistics.median(t) * 1e6 for t in by_step] for name, by_step in times.items()}
    numpy_last = medians[NumpyStep.name][-1]
    rows = [[name] + [f"{m:.0f}" for m in steps] + [f"{steps[-1] / numpy_last:.2f}x"]
            for name, steps in medians.items()]
    headers = ["step (µs, median)"] + [f"step {i + 1} of {number}" for i in range(number)] + ["last vs NumPy's last"]
    return timing.table(headers, rows)


if __name__ == "__main__":
    import sys

    timing.optional_torch()
    timing.freeze_imports()
    quick = "--quick" in sys.argv
    if "--by-position" in sys.argv:
        print("\n".join(by_position(*((3, 2) if quick else (100, 5)))))
    elif "--under-load" in sys.argv:
        print("\n".join(under_load(*((3, 2) if quick else (100, 5)))))
    else:
        print(run(quick=quick).markdown())
