"""An op's saved output is still checked for in-place changes, though its version counter is
made late.

A recorded op that saves its own output (exp, tanh, sigmoid, relu, softmax ...) keeps the array
alone while the output Tensor has no version counter, and the counter is made the first time
something needs one: an in-place change, a view, a detach, a peek at ``_saved_result``. Each of
those ways must still share one counter between the Tensor, its views and the saved entry, so
that a later change is PyTorch's error at backward, never a silently wrong gradient; and what
does not change the output must not raise. Every case runs under PyTorch and minigrad.
"""

import pytest

import minigrad
from torch_parity import in_minigrad_words, pytorch_part


def _x(lib):
    return lib.tensor([1.0, 2.0, 3.0], requires_grad=True)


def _detach_then_change(lib):
    x = _x(lib)
    y = x.exp()
    w = (y * 2).sum()
    y.detach_()
    y.add_(1)
    w.backward()
    return x.grad


def _peek_then_change(lib, which):
    x = _x(lib)
    y = x.exp()
    peeked = y.grad_fn._saved_result
    (y if which == "output" else peeked).add_(1)
    return peeked._version, y._version


def _double_backward_after_a_change(lib):
    x = _x(lib)
    y = x.exp()
    (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
    y.add_(1)
    g.sum().backward()
    return x.grad


def _second_backward_after_a_change(lib):
    x = _x(lib)
    y = x.exp()
    y.sum().backward(retain_graph=True)
    y[1:].zero_()
    (y * 1).sum().backward()
    return x.grad


def _data_replaced_then_changed(lib):
    # As PyTorch: ``y.data = ...`` keeps y's version counter, so a change after it still counts.
    x = _x(lib)
    y = x.exp()
    y.data = lib.ones(3)
    y.add_(1)
    y.sum().backward()
    return x.grad


def _peek_changed_around_another_use(lib):
    # The output itself has no counter yet when the peek's change makes one: y, saved by the
    # product, must read the peek's version then, and see the second change.
    x = _x(lib)
    y = x.exp()
    peeked = y.grad_fn._saved_result
    peeked.add_(1)
    z = y * 3
    peeked.add_(1)
    z.sum().backward()
    return x.grad


def _in_place_after_a_peek(lib):
    # pow_ keeps a copy of y in y's place in the graph: the copy has a version of its own.
    x = _x(lib)
    y = x.exp()
    y.grad_fn._saved_result
    y.pow_(2)
    y.sum().backward()
    return x.grad


CASES = {
    "an in-place change": lambda lib: _x(lib).exp().add_(1).sum().backward(),
    "a change through a view": lambda lib: (lambda y: (y[0:1].mul_(2), y.sum().backward()))(_x(lib).exp()),
    "a change through an unsqueezed view": lambda lib: (lambda y: (y.unsqueeze(0).add_(1),
                                                                   y.sum().backward()))(_x(lib).tanh()),
    "a change through detach()": lambda lib: (lambda y: (y.detach().zero_(), y.sum().backward()))(_x(lib).exp()),
    "a change after detach_()": _detach_then_change,
    "softmax's output set by index": lambda lib: (lambda y: (y.__setitem__(0, 5.0),
                                                             y.sum().backward()))(_x(lib).softmax(0)),
    "sigmoid's output changed, used by another op": lambda lib: (lambda y: (lambda z: (y.sub_(1), z.sum().backward()))(
        y * 1))(_x(lib).sigmoid()),
    "a peek, then the output changed": lambda lib: _peek_then_change(lib, "output"),
    "a peek, then the peeked tensor changed": lambda lib: _peek_then_change(lib, "peek"),
    "double backward after a change": _double_backward_after_a_change,
    "a second backward after a change": _second_backward_after_a_change,
    "the data replaced, then changed": _data_replaced_then_changed,
    "a peek changed before and after another op saved the output": _peek_changed_around_another_use,
    "an in-place op that keeps a copy, after a peek": _in_place_after_a_peek,
    "two peeks, one changed": lambda lib: (lambda y: (lambda s, t: (t.add_(1), (s._version, y._version, t._version))[1])(
        y.grad_fn._saved_result, y.grad_fn._saved_result))(_x(lib).sigmoid()),
    # What changes nothing the node saved must not raise:
    "a clone changed": lambda lib: (lambda y: (y.clone().add_(1), y.sum().backward()))(_x(lib).exp()),
    "the output only read": lambda lib: (lambda y: (y.grad_fn._saved_result._version, y._version,
                                                    y.view(3)._version))(_x(lib).exp()),
}


def _outcome(lib, case):
    try:
        result = case(lib)
    except RuntimeError as error:
        return "RuntimeError", in_minigrad_words(pytorch_part(error)) if lib is not minigrad else pytorch_part(error)
    return "ok", repr(result).replace("torch", "minigrad")


@pytest.mark.parametrize("name", list(CASES))
def test_a_change_to_a_saved_output_is_caught_as_pytorch_catches_it(name, torch):
    assert _outcome(minigrad, CASES[name]) == _outcome(torch, CASES[name])
