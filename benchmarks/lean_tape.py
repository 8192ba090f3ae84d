"""A floor for the MLP step's fixed cost: the same step through the leanest tape autograd.

How much of minigrad's fixed cost per step is Python itself, and how much is what minigrad
does to behave as PyTorch does? To tell them apart, this file runs ``mlp_step``'s step through
a reverse-mode tape of about fifty lines, written for this one step and nothing else:

- three ops (``linear``, ``relu``, ``cross_entropy``), each a closure over what its backward
  needs; their NumPy expressions are those of ``mlp_step.NumpyStep`` (relu's backward masks by
  its output, as PyTorch's does, and the loss's gradient is scaled by the one coming in), so the
  array work is the same and only the tape around it differs;
- ``backward``: a depth-first topological order, then each op's closure in reverse order, the
  gradients summed in a dict on their way and into ``.grad`` at the leaves.

What it leaves out is what minigrad (and PyTorch) does on every step: ``grad_fn`` nodes with
PyTorch's names and sequence numbers (the order a backward runs in), ``AccumulateGrad`` nodes
and hooks, the version checks of saved tensors (PyTorch's error after an in-place change),
freeing the graph after backward, checking each formula's gradient against its input's shape
and dtype, deciding whether a gradient may become ``.grad`` without a copy, formulas that also
record under ``create_graph=True``, ``nn.Module`` and the optimizer's parameter groups. So the
lean tape is not a contender and has no goal: it is about the least a tape written in Python
pays on this step.

Run: ``python benchmarks/lean_tape.py [--quick]``. Printed, not part of ``./run bench``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import numpy as np

import mlp_step


class Var:
    """A value on the tape: its array, the values it was computed from, and the closure that
    turns its gradient into theirs (None for a leaf)."""

    __slots__ = ("data", "parents", "backward", "requires_grad", "grad")

    def __init__(self, data, parents=(), backward=None, requires_grad=False):
        self.data, self.parents, self.backward = data, parents, backward
        self.requires_grad = requires_grad or any(p.requires_grad for p in parents)
        self.grad = None


def linear(x, weight, bias):
    out = x.data @ weight.data.T + bias.data

    def backward(g):
        return (g @ weight.data if x.requires_grad else None), g.T @ x.data, g.sum(axis=0)

    return Var(out, (x, weight, bias), backward)


def relu(x):
    out = np.maximum(x.data, 0)

    def backward(g):
        g[out <= 0] = 0  # (in place: g is the fresh gradient the next op's backward just made)
        return (g,)

    return Var(out, (x,), backward)


def cross_entropy(logits, y):
    """Softmax cross-entropy, mean over the batch, as one op (PyTorch records two)."""
    a = logits.data
    shifted = a - a.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    sum_e = e.sum(axis=1, keepdims=True)
    rows = np.arange(len(y))
    loss = np.log(sum_e[:, 0]).mean() - shifted[rows, y].mean()

    def backward(g):
        d_logits = e / sum_e
        d_logits[rows, y] -= 1
        d_logits *= g / len(y)
        return (d_logits,)

    return Var(np.asarray(loss, a.dtype), (logits,), backward)


def backward(root):
    """Accumulate d root / d leaf into every leaf's ``.grad`` that requires grad."""
    order, seen = [], set()

    def visit(var):
        if id(var) not in seen:
            seen.add(id(var))
            for parent in var.parents:
                visit(parent)
            order.append(var)

    visit(root)
    grads = {id(root): np.ones((), root.data.dtype)}
    for var in reversed(order):
        g = grads.pop(id(var), None)
        if g is None:
            continue
        if var.backward is None:  # a leaf
            var.grad = g if var.grad is None else var.grad + g
            continue
        for parent, grad in zip(var.parents, var.backward(g)):
            if grad is not None and parent.requires_grad:
                key = id(parent)
                grads[key] = grad if key not in grads else grads[key] + grad


class LeanTapeStep:
    """``mlp_step``'s step through the lean tape, with plain SGD."""

    name = "lean tape (no PyTorch parity)"

    def __init__(self, weights, x, y):
        self.p = {k: Var(v.copy(), requires_grad=True) for k, v in weights.items()}
        self.x, self.y = Var(x), y

    def loss(self):
        """The forward pass alone (the tape hangs off the returned loss)."""
        p = self.p
        h = relu(linear(self.x, p["W1"], p["b1"]))
        return cross_entropy(linear(h, p["W2"], p["b2"]), self.y)

    def step(self):
        p = self.p
        for param in p.values():
            param.grad = None
        loss = self.loss()
        backward(loss)
        for param in p.values():
            param.data -= mlp_step.LR * param.grad
        return float(loss.data)


def run(quick=False):
    """The step table of ``mlp_step`` (full size, then tiny) with the lean tape among the contenders."""
    lines = []
    for label, sizes, warm_up, (number, rounds) in (
            ("full size", (mlp_step.BATCH, mlp_step.IN, mlp_step.HIDDEN, mlp_step.OUT), 5, (5, 100)),
            ("tiny matrices: the fixed cost", mlp_step.TINY, 20, (50, 60))):
        weights, x, y = mlp_step.make_problem(sizes=sizes)
        classes = [mlp_step.NumpyStep, LeanTapeStep] + mlp_step.contenders()[1:]
        mlp_step.check_same_losses(weights, x, y, classes=classes)
        runners = mlp_step._warmed_runners(weights, x, y, 2 if quick else warm_up, classes)
        times = timing.time_interleaved({name: r.step for name, r in runners.items()},
                                        *((2, 3) if quick else (number, rounds)))
        numpy_t = times[mlp_step.NumpyStep.name]
        rows = [[name, f"{t.median * 1e6:.0f}", f"{(t.median - numpy_t.median) * 1e6:+.0f}",
                 f"{t.ratio_to(numpy_t):.2f}x"] for name, t in times.items()]
        lines += [f"The MLP step, {label} (batch {sizes[0]}, {sizes[1]}-{sizes[2]}-{sizes[3]}):", ""]
        lines += timing.table(["step", "µs/step", "over NumPy, µs", "vs NumPy"], rows) + [""]
    return lines + [f"Times are {timing.clock_name()}, medians of interleaved rounds; ratios are medians "
                    "of per-round ratios. Every contender's losses agree with NumPy's to 1e-4 at both sizes."]


if __name__ == "__main__":
    import sys

    timing.optional_torch()
    timing.freeze_imports()
    print("\n".join(run(quick="--quick" in sys.argv)))
