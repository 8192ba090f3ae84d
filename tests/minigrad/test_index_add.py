"""index_add / index_add_ against PyTorch: values (repeated positions add up), alpha, dims, 0-d,
integer tensors, gradients of both inputs, the graph (IndexAddBackward0 and what it saves) and
PyTorch's errors in PyTorch's order."""

import numpy as np
import pytest

import minigrad
from torch_parity import pytorch_part

CASES = {
    "rows, a repeated position": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([0, 0, 4]), lib.ones(3, 3)),
    "columns, alpha": lambda lib: lib.ones(2, 4).index_add(1, lib.tensor([3, 1]), lib.arange(4.0).reshape(2, 2),
                                                           alpha=2.5),
    "negative dim": lambda lib: lib.zeros(3).index_add(-1, lib.tensor([1, 1]), lib.tensor([2.0, 3.0])),
    "a 0-d index": lambda lib: lib.zeros(3).index_add(0, lib.tensor(1), lib.tensor([2.0])),
    "0-d self and source": lambda lib: lib.zeros(()).index_add(0, lib.tensor([0]), lib.tensor(2.0)),
    "integers, alpha": lambda lib: lib.zeros(3, dtype=lib.long).index_add(0, lib.tensor([1]), lib.tensor([2]), alpha=3),
    "integers, a fractional alpha": lambda lib: lib.zeros(3, dtype=lib.long).index_add(
        0, lib.tensor([1]), lib.tensor([2]), alpha=1.5),
    "function form": lambda lib: lib.index_add(lib.zeros(2, 2), 0, lib.tensor([1]), lib.ones(1, 2)),
    "in place": lambda lib: lib.zeros(4).index_add_(0, lib.tensor([3, 0, 3]), lib.tensor([1.0, 2.0, 3.0])),
    "3-d, middle dim": lambda lib: lib.zeros(2, 3, 2).index_add(1, lib.tensor([2, 0]), lib.ones(2, 2, 2)),
}


@pytest.mark.parametrize("name", CASES)
def test_values_are_pytorchs(name, torch):
    mine, theirs = CASES[name](minigrad), CASES[name](torch)
    assert mine.tolist() == theirs.tolist()
    assert str(mine.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]


@pytest.mark.parametrize("alpha", [1, 3.0])
def test_gradients_and_graph_are_pytorchs(alpha, torch):
    def run(lib):
        a = lib.zeros(4, 2, requires_grad=True)
        s = lib.ones(3, 2, requires_grad=True)
        y = a.index_add(0, lib.tensor([0, 0, 3]), s, alpha=alpha)
        node = y.grad_fn
        seen = (node.name(), [None if f is None else f.name() for f, _ in node.next_functions],
                node._saved_dim, node._saved_alpha, node._saved_index.tolist(), node._saved_source_dim)
        (y * lib.arange(8.0).reshape(4, 2)).sum().backward()
        return seen, a.grad.tolist(), s.grad.tolist()

    assert run(minigrad) == run(torch)


def test_in_place_on_a_non_leaf_records_one_node(torch):
    def run(lib):
        b = lib.zeros(4, 2, requires_grad=True)
        s = lib.ones(1, 2, requires_grad=True)
        z = b.clone()
        z.index_add_(0, lib.tensor([1]), s)
        z.sum().backward()
        return z.grad_fn.name(), z.grad_fn.next_functions[0][0].name(), b.grad.tolist(), s.grad.tolist()

    assert run(minigrad) == run(torch)


ERRORS = {
    "out of bounds": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([0, 5]), lib.ones(2, 3)),
    "negative position": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([0, -1]), lib.ones(2, 3)),
    "count before shape": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([0, 1]), lib.ones(3, 4)),
    "shape before bounds": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([0, 9]), lib.ones(2, 4)),
    "float index first": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([0.0, 9.0]),
                                                               lib.ones(3, 3, dtype=lib.float64)),
    "2-d index before dtypes": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([[0, 9]]),
                                                                     lib.ones(3, 3, dtype=lib.float64)),
    "dtypes": lambda lib: lib.zeros(5, 3).index_add(0, lib.tensor([0, 1]), lib.ones(2, 3, dtype=lib.float64)),
    "dim": lambda lib: lib.zeros(5, 3).index_add(2, lib.tensor([0, 1]), lib.ones(2, 3)),
    "0-d source into 1-d": lambda lib: lib.zeros(3).index_add(0, lib.tensor(1), lib.tensor(2.0)),
    "a list index": lambda lib: lib.zeros(3).index_add(0, [1], lib.tensor([2.0])),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_pytorchs(name, torch):
    def outcome(lib):
        try:
            ERRORS[name](lib)
        except Exception as error:  # noqa: BLE001 (the type is part of what is compared)
            return type(error).__name__, pytorch_part(error)
        return None

    mine = outcome(minigrad)
    assert mine is not None
    assert mine == outcome(torch)


def test_gradients_pass_gradcheck_and_gradgradcheck():
    a = minigrad.tensor(np.linspace(-1, 1, 8).reshape(4, 2), requires_grad=True)
    s = minigrad.tensor(np.linspace(0.5, 2, 6).reshape(3, 2), requires_grad=True)

    def f(a, s):
        return a.index_add(0, minigrad.tensor([0, 0, 3]), s, alpha=1.5) ** 2

    assert minigrad.autograd.gradcheck(f, (a, s))
    assert minigrad.autograd.gradgradcheck(f, (a, s))
