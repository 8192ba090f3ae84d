"""(a2) micrograd's demo step, written with tensors: minigrad against PyTorch.

Karpathy's micrograd demo trains a 2-16-16-1 MLP (ReLU hidden layers, a
linear output) on 100 points of a two-moons toy set, with labels -1 and +1.
One step is: the forward pass, the SVM "max-margin" loss
``mean(relu(1 - y * score))`` plus an L2 penalty ``1e-4 * sum(p * p)``, the
backward pass, and an SGD update. micrograd does it one scalar at a time;
here each layer is one matrix product, as a learner writes it with tensors.

Matrices of 100x16 cost next to nothing, so this step measures what a
library spends per op: about 25 ops forward, as many backward. Both
libraries start from the same weights, and the script checks that they
compute the same losses before timing them.

Run alone: ``python benchmarks/micrograd_demo.py [--quick]``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import numpy as np

import minigrad

TITLE = "(a2) micrograd's demo step"
POINTS, SIZES = 100, (2, 16, 16, 1)
ALPHA = 1e-4  # the L2 penalty of micrograd's demo
LR = 0.1


def make_moons(n=POINTS, noise=0.1, seed=1337):
    """Two interleaving half circles (scikit-learn's ``make_moons``, by hand), labels -1 and +1."""
    rng = np.random.default_rng(seed)
    upper, lower = n // 2, n - n // 2
    angle_up, angle_down = np.linspace(0, np.pi, upper), np.linspace(0, np.pi, lower)
    x = np.concatenate([np.stack([np.cos(angle_up), np.sin(angle_up)], 1),
                        np.stack([1 - np.cos(angle_down), 0.5 - np.sin(angle_down)], 1)])
    x += rng.normal(scale=noise, size=x.shape)
    y = np.concatenate([-np.ones(upper), np.ones(lower)])
    return x.astype(np.float32), y.astype(np.float32)[:, None]


def make_weights(seed=0):
    """W1, b1, W2, b2, W3, b3: U(-1, 1) as micrograd's Neuron initialises them."""
    rng = np.random.default_rng(seed)
    weights = []
    for n_in, n_out in zip(SIZES, SIZES[1:]):
        weights += [rng.uniform(-1, 1, size=(n_in, n_out)).astype(np.float32),
                    rng.uniform(-1, 1, size=n_out).astype(np.float32)]
    return weights


class DemoStep:
    """The demo step in a library with PyTorch's API (``minigrad`` or ``torch``)."""

    def __init__(self, lib, weights, x, y):
        self.lib, self.name = lib, "minigrad" if lib is minigrad else "PyTorch"
        self.params = [lib.tensor(w, requires_grad=True) for w in weights]
        self.x, self.y = lib.tensor(x), lib.tensor(y)

    def step(self):
        W1, b1, W2, b2, W3, b3 = self.params
        h = (self.x @ W1 + b1).relu()
        h = (h @ W2 + b2).relu()
        scores = h @ W3 + b3
        data_loss = (1 - self.y * scores).relu().mean()
        reg_loss = ALPHA * sum((p * p).sum() for p in self.params)
        loss = data_loss + reg_loss
        for p in self.params:
            p.grad = None  # micrograd's model.zero_grad()
        loss.backward()
        with self.lib.no_grad():
            for p in self.params:
                p -= LR * p.grad
        return loss.item()


def run(quick=False):
    """Check equal work, then time the step in both libraries; report µs/step and the ratio."""
    torch = timing.optional_torch()
    report = timing.Report(TITLE)
    x, y = make_moons()
    weights = make_weights()
    libs = [minigrad] + ([torch] if torch is not None else [])

    losses = {}
    for lib in libs:
        runner = DemoStep(lib, weights, x, y)
        losses[runner.name] = [runner.step() for _ in range(3)]
    if "PyTorch" in losses:
        worst = max(abs(a - b) for a, b in zip(losses["minigrad"], losses["PyTorch"]))
        if worst > 1e-4:
            raise AssertionError(f"losses differ: minigrad {losses['minigrad']}, PyTorch {losses['PyTorch']}")

    runners = {r.name: r for r in (DemoStep(lib, weights, x, y) for lib in libs)}
    for runner in runners.values():  # warm up
        for _ in range(5 if quick else 50):
            runner.step()
    number, repeats = (5, 3) if quick else (20, 60)
    times = timing.time_interleaved({name: r.step for name, r in runners.items()}, number, repeats)

    torch_t = times.get("PyTorch")
    rows = [[name, f"{t.median * 1e6:.0f}", f"{t.iqr * 100:.0f}%",
             "-" if torch_t is None else f"{t.ratio_to(torch_t):.2f}x"] for name, t in times.items()]
    first = ", ".join(f"{v:.6f}" for v in losses["minigrad"])
    report.add(f"{POINTS} points of a two-moons set, MLP {'-'.join(map(str, SIZES))} (ReLU, linear output), "
               f"max-margin loss + {ALPHA:g} * L2, backward, SGD lr={LR}; float32, one thread, written with "
               f"tensors. Same initial weights; losses of the first 3 steps agree to 1e-4 ({first}).", "")
    report.add(*timing.table(["library", "µs/step", "IQR", "vs PyTorch"], rows))
    report.add("", f"{timing.clock_name()}, median of {repeats} interleaved rounds of {number} steps; "
               "the ratio is the median of per-round ratios.")

    ratio = None if torch_t is None else times["minigrad"].ratio_to(torch_t)
    report.goal("micrograd demo step within 1.5x of PyTorch", timing.fmt(ratio, 2) + "x" if ratio else "-",
                None if ratio is None else ratio <= 1.5)
    return report


if __name__ == "__main__":
    import sys

    timing.optional_torch()
    timing.freeze_imports()
    print(run(quick="--quick" in sys.argv).markdown())
