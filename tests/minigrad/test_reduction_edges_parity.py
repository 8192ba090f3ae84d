"""Reductions at their edges, as PyTorch gives them: empty tensors, a 0-d tensor, no degrees of freedom.

An empty tensor has no largest element: PyTorch refuses ``max()`` over all of it (and says to
name a dim) and a reduction over a dim of size 0, with errors minigrad must word the same.
``var`` and ``std`` with a correction that leaves no degrees of freedom give nan or inf with
PyTorch's warning, each time, at the user's line (not NumPy's own warning from inside minigrad).
"""

import subprocess
import sys

import pytest

import minigrad
from torch_parity import expression_outcome

SHAPES = {"x0": (), "x1": (3,), "x2": (2, 3), "e": (0, 3), "e1": (0,)}

EXPRESSIONS = [
    "e.max()", "e.min()", "e.amax()", "e.amin()", "e.max(0)", "e.min(0)", "e.max(1)", "e.min(-1)",
    "e.amax(0)", "e.amax(1)", "e.amin((1, 0))", "e1.max(-1)", "e.argmax()", "e.argmin()", "e.argmax(0)",
    "e.argmin(1)", "e1.argmax(0)", "e.median(0)", "e.median(1)", "e.sum()", "e.sum(0)", "e.prod()",
    "e.logsumexp(0)", "e.norm()", "e.mean()", "e.mean(0)",
    "x1[:1].std()", "x1[:1].var()", "x2.var(0)", "x2.std(1, correction=3)", "x2.var(correction=6)",
    "x2.var(correction=7)", "x2.var(0, unbiased=False)", "e.var()", "e.std(0)", "x0.var()", "x0.std(correction=0)",
    "lib.var_mean(x2, 0)", "lib.std_mean(x2, 1, correction=4)", "lib.std_mean(x1[:1])",
    "x2.max()", "x2.max(1)", "x2.amax((0, 1))", "x2.argmax()", "x2.argmin(0, keepdim=True)", "x0.max(0)",
    # An empty dim list reduces over every dim (x.sum(dim=()) is the sum of all elements, not x):
    "x2.sum(())", "x2.sum([], keepdim=True)", "x1.sum(dim=())", "x0.sum(())", "lib.sum(x2, ())", "x2.mean(())",
    "x2.mean([], True)", "x0.mean(())", "x2.nansum(())", "x2.var(())", "x2.std((), keepdim=True)",
    "lib.var_mean(x1, ())", "lib.std_mean(x1, [])", "x2.norm(dim=())", "x2.logsumexp(())", "x1.logsumexp([])",
    "x2.logsumexp((), keepdim=True)", "x0.logsumexp(())", "x2.count_nonzero(())", "x0.count_nonzero(())",
    "x2.amax(())", "lib.autograd.grad(x2.mean(()), x2)", "lib.autograd.grad(x2.norm(dim=()), x2)",
    "lib.autograd.grad(x2.logsumexp((), True).sum(), x2)",
    # keepdim needs a dim (PyTorch's sum/mean have two forms: (*, dtype) and (dim, keepdim, *, dtype)):
    "x2.sum(keepdim=True)", "x2.mean(keepdim=False)", "x2.sum(dtype=lib.float64, keepdim=True)", "x2.sum(dims=0)",
    "x2.sum(None, True)", "x2.sum(axis=0, keepdims=True)", "x2.mean(dim=1, keepdim=True)",
]


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "plain"])
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_a_reduction_at_its_edge_gives_what_pytorch_gives(expression, requires_grad, torch):
    def seen(lib):
        return expression_outcome(lib, expression, requires_grad, True, SHAPES, warnings_seen=True)

    assert seen(minigrad) == seen(torch)


_REPEATED = """
import warnings, {lib} as lib
x = lib.ones(1)
for _ in range(3):
    x.var()
lib.ones(3).std(correction=3)
"""


def test_no_degrees_of_freedom_warns_as_pytorch_once_per_line_under_the_default_filter():
    # (Under the default filter a warning shows once per line of the user's code, so it must be
    # raised at that line, and nothing in minigrad may reset which warnings were shown.)
    def shown(lib):
        run = subprocess.run([sys.executable, "-c", _REPEATED.format(lib=lib)], capture_output=True, text=True,
                             check=True)
        return [line.split(" (Triggered internally")[0] for line in run.stderr.splitlines()]

    mine = shown("minigrad")
    assert mine == shown("torch")
    assert [line.split(":")[1] for line in mine if "UserWarning" in line] == ["5", "6"]


def test_var_over_an_empty_dim_list_has_the_gradient_of_var_over_every_dim(torch):
    """``x.var([])`` is the variance of every element, and so is its gradient: ``2 (x - mean) / (N - 1)``.

    NB: PyTorch 2.13 gives the values right but the gradient as +-inf (its backward counts the
    elements of an empty dim list as one, so it divides by 1 - 1): minigrad gives the true one.
    """
    import numpy as np

    values = np.array([[1.0, 2.0, 4.0], [0.5, 3.0, -1.0]])
    expected = 2 * (values - values.mean()) / (values.size - 1)
    for spread in ("var", "std"):
        x = minigrad.tensor(values, requires_grad=True)
        whole = getattr(x, spread)()
        empty = getattr(x, spread)([])
        assert empty.item() == whole.item() and empty.grad_fn.name() == whole.grad_fn.name()
        grad, = minigrad.autograd.grad(empty, x)
        by_hand = expected if spread == "var" else expected / (2 * np.sqrt(values.var(ddof=1)))
        np.testing.assert_allclose(grad.numpy(), by_hand, rtol=1e-12)
    t = torch.tensor(values, requires_grad=True)
    assert torch.isinf(torch.autograd.grad(t.var([]), t)[0]).all()  # (PyTorch's, as the docstring says)


STD_OF_EQUAL_NUMBERS = {
    "std()": lambda lib, x: x.std(),
    "std(0)": lambda lib, x: x.std(0),
    "std(1, keepdim)": lambda lib, x: x.std(1, keepdim=True),
    "std(1, correction=0)": lambda lib, x: x.std(1, correction=0),
    "std_mean(x, 1)": lambda lib, x: lib.std_mean(x, 1)[0],
    "std_mean(x) both": lambda lib, x: sum(lib.std_mean(x)),
}


@pytest.mark.parametrize("name", STD_OF_EQUAL_NUMBERS)
def test_the_gradient_of_a_std_that_is_zero_is_zero_as_in_pytorch(name, torch):
    # (PyTorch masks grad / std where std is 0: the first row has no spread. It was nan here.)
    def run(lib):
        x = lib.tensor([[1.0, 1.0, 1.0], [1.0, 2.0, 4.0]], requires_grad=True)
        STD_OF_EQUAL_NUMBERS[name](lib, x).sum().backward()
        return [[round(v, 5) for v in row] for row in x.grad.tolist()]

    assert run(minigrad) == run(torch)
