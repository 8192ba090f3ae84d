"""``node._saved_<name>``: PyTorch's peeks at what a node saved, made without ``__getattr__``.

A class with ``__getattr__`` gets none of CPython's specialized attribute reads, and the
engine reads node attributes all the time (fast_path, 18). So every peek a node class can
answer is a ``graph.SavedPeek`` descriptor (or a property the class writes itself), and
these tests check that every name a class declares has one that answers as before.
"""

import numpy as np
import pytest

import minigrad
from minigrad.graph import Node, SavedPeek


def _node_classes():
    found, stack = [], [Node]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


def test_no_node_class_defines_getattr():
    for cls in _node_classes():
        assert "__getattr__" not in vars(cls), cls.__name__
    assert Node.__getattribute__ is object.__getattribute__


def test_every_declared_name_has_a_peek():
    import minigrad.nn  # noqa: F401  (every op module loaded: their node classes exist)

    classes = _node_classes()
    assert len(classes) > 50
    for cls in classes:
        for name in (*cls.saves, *cls.saved_arrays, *cls.saved_params):
            assert hasattr(cls, "_saved_" + name), (cls.__name__, name)


def test_saved_tensors_parameters_and_arrays():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = minigrad.tensor([4.0, 5.0, 6.0], requires_grad=True)
    node = (x * y).grad_fn
    assert node._saved_self is not None and node._saved_other is not None
    np.testing.assert_array_equal(node._saved_self.detach().numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(node._saved_other.detach().numpy(), [4.0, 5.0, 6.0])
    # A tensor the node did not need to keep (x's gradient only needs y): None, as in PyTorch.
    only_x = (x * y.detach()).grad_fn
    assert only_x._saved_self is None
    assert only_x._saved_other is not None

    summed = x.sum(0, keepdim=True).grad_fn  # (PyTorch 2.13: (0,) and True)
    assert summed._saved_dim == (0,) and summed._saved_keepdim is True

    lsm = minigrad.nn.functional.log_softmax(x, dim=0).grad_fn
    assert lsm._saved_dim == 0
    expected = np.log(np.exp([1.0, 2.0, 3.0]) / np.exp([1.0, 2.0, 3.0]).sum())
    np.testing.assert_allclose(lsm._saved_result.detach().numpy(), expected, rtol=1e-6)


def test_released_and_unknown():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    out = (x * x).sum()
    node = out.grad_fn.next_functions[0][0]
    out.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        node._saved_self
    with pytest.raises(AttributeError, match="object has no attribute '_saved_nothing'"):
        node._saved_nothing
    assert not hasattr(node, "_saved_nothing")
    assert isinstance(type(node).__dict__["_saved_self"], SavedPeek)


def test_index_peek_only_for_an_advanced_index():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    advanced = x[minigrad.tensor([2, 0])].grad_fn
    assert advanced._saved_index.tolist() == [2, 0]
    basic = x[1:].grad_fn
    assert not hasattr(basic, "_saved_index")
