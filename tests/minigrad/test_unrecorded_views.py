"""fast_path.unrecorded_view: a view op that records nothing gives what the node's way gives.

Under ``no_grad``, or on a tensor that does not require grad, a view op (reshape, t,
x[1:3], expand ...) skips ``Node.apply``: its node class's ``view`` makes the array, and the
wrapper is marked as a view. Everything a user can see must be as before (the numbers, the
memory shared, ``_base``, the version counter, ``requires_grad``, the errors), and as PyTorch.
"""

import numpy as np
import pytest

import minigrad
from minigrad.ops import shape
from torch_parity import pytorch_part

# name -> the view op, the same code for minigrad and PyTorch
VIEWS = {
    "reshape": lambda t: t.reshape(4, 3),
    "reshape -1": lambda t: t.reshape(-1),
    "view": lambda t: t.view(2, 6),
    "flatten": lambda t: t.flatten(),
    "t": lambda t: t.t(),
    "transpose": lambda t: t.transpose(0, 1),
    "permute": lambda t: t.permute(1, 0),
    "T": lambda t: t.T,
    "mT": lambda t: t.mT,
    "squeeze": lambda t: t.unsqueeze(0).squeeze(),
    "squeeze dim": lambda t: t.unsqueeze(0).squeeze(0),
    "unsqueeze": lambda t: t.unsqueeze(1),
    "expand": lambda t: t[:1].expand(5, 4),
    "expand same": lambda t: t.expand(3, 4),
    "slice": lambda t: t[1:3],
    "int": lambda t: t[1],
    "int of int": lambda t: t[1][2],
    "view of a view": lambda t: t[1:].t()[1:],
}


def _input(lib, requires_grad):
    return lib.arange(12.0).reshape(3, 4).clone().requires_grad_(requires_grad)


def _seen(result, input):
    """What a user can see of a view op's result."""
    return (result.tolist(), result.shape, result.numpy().strides if result.numel() else None,
            result.numpy().flags.writeable, np.shares_memory(result.numpy(), input.numpy()),
            result._base is input, result.requires_grad, result.is_leaf, result.grad_fn is None,
            result._version_counter is input._version_counter, result._version)


@pytest.mark.parametrize("requires_grad", [True, False], ids=["no_grad on a leaf that requires grad", "plain"])
@pytest.mark.parametrize("name", VIEWS)
def test_the_fast_way_gives_what_the_node_way_gives(name, requires_grad, monkeypatch):
    op = VIEWS[name]
    applied = []
    real_apply = minigrad.graph.Node.apply.__func__
    real_apply_as_view = minigrad.graph.Node.apply_as_view.__func__

    def spy(cls, *inputs, **params):
        applied.append(cls.__name__)
        return real_apply(cls, *inputs, **params)

    def spy_as_view(cls, input, *args):
        applied.append(cls.__name__)
        return real_apply_as_view(cls, input, *args)

    def run():
        x = _input(minigrad, requires_grad)
        applied.clear()
        with minigrad.no_grad():
            return _seen(op(x), x)

    monkeypatch.setattr(minigrad.graph.Node, "apply", classmethod(spy))
    monkeypatch.setattr(minigrad.graph.Node, "apply_as_view", classmethod(spy_as_view))
    fast = run()
    assert applied == [], "a view op that records nothing went through Node.apply"
    monkeypatch.setattr(shape, "records", lambda input: True)
    assert run() == fast
    assert applied, "the node way was not taken"


def _outcome(read):
    try:
        return read()
    except RuntimeError as error:
        return pytorch_part(error)


@pytest.mark.parametrize("name", VIEWS)
def test_an_unrecorded_view_is_a_view_as_pytorchs(name, torch):
    op = VIEWS[name]

    def seen(lib, requires_grad, grad_enabled):
        x = _input(lib, requires_grad)
        with lib.set_grad_enabled(grad_enabled):
            y = op(x)
        shared_base = y._base is x or (y._base is not None and y._base is x._base)
        before = (y.requires_grad, y.is_leaf, y.grad_fn is None)
        version = y._version
        with lib.no_grad():
            x.add_(1)  # seen through the view, and by its version counter
        return (y.tolist(), tuple(y.shape), shared_base, before, y._version - version, y.requires_grad,
                _outcome(lambda: y.grad_fn is None))

    for requires_grad, grad_enabled in [(True, False), (False, True), (False, False)]:
        assert seen(minigrad, requires_grad, grad_enabled) == seen(torch, requires_grad, grad_enabled), (
            requires_grad, grad_enabled)


def test_a_view_of_an_empty_tensor_is_as_the_node_way_makes_it(monkeypatch):
    # (The node way marks a view only when there is memory to share: compared with it, not with PyTorch.)
    def seen():
        x = minigrad.zeros(0, 3)
        return _seen(x.t(), x), _seen(x.reshape(3, 0), x), _seen(x[0:0], x)

    fast = seen()
    monkeypatch.setattr(shape, "records", lambda input: True)
    assert seen() == fast


def test_a_view_under_no_grad_still_requires_grad_but_is_outside_the_graph(torch):
    def seen(lib):
        x = lib.ones(2, 3, requires_grad=True)
        with lib.no_grad():
            v = x.t()
        (v * 2).sum().backward()  # requires grad, yet no gradient reaches x through it
        return v.requires_grad, v.is_leaf, v.grad_fn is None, x.grad is None

    assert seen(minigrad) == seen(torch)


def test_a_view_whose_base_came_to_require_grad_through_an_in_place_op_is_recorded(torch):
    # The view was made before its base required grad; an op on it must look again, and record.
    def seen(lib):
        base = lib.ones(3, 4)
        view = base[1:]
        weight = lib.full((3, 4), 2.0, requires_grad=True)
        base.mul_(weight)
        out = view.t()
        out.sum().backward()
        return out.requires_grad, out.grad_fn is not None, weight.grad.tolist()

    assert seen(minigrad) == seen(torch)


BAD = {
    "reshape": lambda t: t.reshape(5, 3),
    "reshape two -1": lambda t: t.reshape(-1, -1),
    "expand": lambda t: t.expand(3, 5),
    "int": lambda t: t[7],
    "t of 3-d": lambda t: t.reshape(1, 3, 4).t(),
    "transpose": lambda t: t.transpose(0, 2),
    "squeeze": lambda t: t.squeeze(5),
}


@pytest.mark.parametrize("name", BAD)
def test_an_unrecorded_view_fails_as_pytorchs(name, torch):
    def failure(lib):
        x = lib.arange(12.0).reshape(3, 4)
        with pytest.raises(Exception) as info:
            BAD[name](x)
        return type(info.value), pytorch_part(info.value)

    assert failure(minigrad) == failure(torch)


@pytest.mark.parametrize("name", VIEWS)
def test_a_recorded_view_is_a_view_as_pytorchs(name, torch):
    # Node.apply_as_view: the recorded way of the same ops (the result marked as a view, the node linked).
    op = VIEWS[name]

    def seen(lib):
        x = _input(lib, True)
        y = op(x)
        shared_base = y._base is x or (y._base is not None and y._base is x._base)
        graph = (y.requires_grad, y.is_leaf, y.grad_fn.name(), y._version == x._version)
        weights = lib.arange(1.0, y.numel() + 1.0).reshape(y.shape)
        (y * weights).sum().backward()
        return y.tolist(), tuple(y.shape), shared_base, graph, x.grad.tolist()

    assert seen(minigrad) == seen(torch)


@pytest.mark.parametrize("name", VIEWS)
def test_a_recorded_view_is_what_apply_makes_of_it(name, monkeypatch):
    # The way apply_as_view shortens: Node.apply, then ops/shape._as_view_of.
    op = VIEWS[name]

    def seen():
        x = _input(minigrad, True)
        y = op(x)
        node, (child, _) = y.grad_fn, y.grad_fn.next_functions[0]
        with minigrad.no_grad():  # (so that _seen may read the arrays)
            return _seen(y, x), node.name(), node.sequence_nr > child.sequence_nr or child.variable is x

    quick = seen()
    # (apply_as_view takes forward's parameters in order, apply by name.)
    monkeypatch.setattr(minigrad.graph.Node, "apply_as_view", classmethod(
        lambda cls, input, *args: shape._as_view_of(cls.apply(input, **cls()._named_params(1, args)), input,
                                                    always=True)))
    assert seen() == quick
