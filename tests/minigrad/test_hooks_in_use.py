"""fast_path 19: the plain backward loop asks for hooks only once the process has one, and
tells its common node by type.

``hooks_in_use`` is process-wide and stays set once any test registered a hook, so the
tests here clear it first (``no_hooks_yet``): each kind of hook must set it again by being
registered, or the plain loop would skip the hook.
"""

import copy
import pickle

import numpy as np
import pytest

import minigrad
from minigrad import fast_path
from minigrad.graph import Node
from minigrad.ops.operands import apply_with_outputs
from test_fast_backward import Twice
from test_inputs_argument import all_nodes
from test_ops_table import CASES, _forward, _rng


@pytest.fixture
def no_hooks_yet():
    """``hooks_in_use`` empty for the test, as in a process that registered no hook yet."""
    before = list(fast_path.hooks_in_use)
    fast_path.hooks_in_use.clear()
    yield fast_path.hooks_in_use
    if before and not fast_path.hooks_in_use:
        fast_path.hooks_in_use.extend(before)


def _x():
    return minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)


def _times_ten(grad):
    return grad * 10


def _grad_times_ten(leaf):
    leaf.grad.mul_(10)


# Each: (register a hook on x or on the graph of (x * 2).sum(), what x.grad must be then)
# d/dx of sum(2x) is 2 everywhere; a hook that multiplies a gradient by 10 makes it 20.
HOOKS = {
    "tensor hook on a leaf": (lambda x, h, out: x.register_hook(_times_ten), 20.0),
    "tensor hook on a non-leaf": (lambda x, h, out: h.register_hook(_times_ten), 20.0),
    "node pre-hook": (lambda x, h, out: h.grad_fn.register_prehook(lambda g: (g[0] * 10,)), 20.0),
    "node post-hook": (lambda x, h, out: h.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,) + gi[1:]), 20.0),
    "pre-hook on the leaf's AccumulateGrad":
        (lambda x, h, out: h.grad_fn.next_functions[0][0].register_prehook(lambda g: (g[0] * 10,)), 20.0),
    "post-accumulate hook": (lambda x, h, out: x.register_post_accumulate_grad_hook(_grad_times_ten), 20.0),
}


@pytest.mark.parametrize("kind", HOOKS)
def test_each_kind_of_hook_is_seen_by_the_plain_loop(no_hooks_yet, kind):
    register, expected = HOOKS[kind]
    x = _x()
    h = x * 2
    out = h.sum()
    assert not no_hooks_yet
    register(x, h, out)
    assert no_hooks_yet, "registering it must tell the plain loop that hooks exist"
    out.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [expected] * 3)


def test_retain_grad_is_seen_by_the_plain_loop(no_hooks_yet):
    x = _x()
    h = x * 2
    h.retain_grad()
    assert no_hooks_yet
    (h * h).sum().backward()
    np.testing.assert_array_equal(h.grad.numpy(), 2 * h.detach().numpy())


def test_a_training_step_registers_nothing(no_hooks_yet):
    # What the benchmarks time: nn, a loss, backward, an optimizer (none of it a hook).
    model = minigrad.nn.Sequential(minigrad.nn.Linear(3, 4), minigrad.nn.ReLU(), minigrad.nn.Linear(4, 2))
    optimizer = minigrad.optim.SGD(model.parameters(), lr=0.1)
    x, y = minigrad.randn(5, 3), minigrad.tensor([0, 1, 1, 0, 1])
    for _ in range(2):
        optimizer.zero_grad()
        minigrad.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    assert not no_hooks_yet


@pytest.mark.parametrize("how", ["pickle", "copy.copy"])
def test_a_pickled_or_copied_tensor_leaves_its_hooks_behind_as_in_pytorch(torch, how):
    # Else a hook could come back in a process that never registered one, and be skipped.
    remake = {"pickle": lambda t: pickle.loads(pickle.dumps(t)), "copy.copy": copy.copy}[how]
    for lib in (minigrad, torch):
        t = lib.tensor([1.0, 2.0], requires_grad=True)
        t.register_hook(_times_ten)
        t.register_post_accumulate_grad_hook(_grad_times_ten)
        with pytest.warns(UserWarning, match=r"backward hook <function _times_ten at .*> on tensor will not be "
                                             r"serialized\."):
            u = remake(t)
        assert u.requires_grad
        (u * 1).sum().backward()
        assert u.grad.tolist() == [1.0, 1.0], lib.__name__


def _multi_output_and_custom_nodes():
    x = minigrad.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)
    a, b = x.split(1, 0)
    c, d = x.unbind(1)
    v, m = minigrad.var_mean(x, 0)
    s, n = minigrad.std_mean(x, 1)
    only = x.split(2, 0)[0]  # one piece: still a node of the several-outputs kind
    return (a.sum() + b.sum() + c.sum() + d.sum() + v.sum() + m.sum() + s.sum() + n.sum()
            + only.sum() + Twice.apply(x).sum())


@pytest.mark.parametrize("case", CASES)
def test_every_node_the_plain_loop_takes_by_type_has_one_output_and_a_plain_formula(case):
    arrays = [a.astype(np.float32) for a in case.draw(_rng(case))]
    _, out = _forward(case, arrays)
    for node in all_nodes(out.grad_fn):
        if type(node) in fast_path.PLAIN_NODE_TYPES:
            assert node.num_outputs == 1 and node.takes_plain_gradients, node.name()


def test_nodes_of_several_outputs_and_custom_functions_are_not_taken_by_type():
    nodes = all_nodes(_multi_output_and_custom_nodes().grad_fn)
    names = {node.name() for node in nodes if type(node) not in fast_path.PLAIN_NODE_TYPES}
    assert {"SplitBackward0", "UnbindBackward0", "VarMeanBackward0", "StdMeanBackward0",
            "TwiceBackward"} <= names
    for node in nodes:
        if type(node) in fast_path.PLAIN_NODE_TYPES:
            assert node.num_outputs == 1 and node.takes_plain_gradients, node.name()


def test_a_node_class_of_several_outputs_must_say_so():
    class Halves(Node):
        def forward(self, x):
            return x[:1], x[1:]

    with pytest.raises(TypeError, match="Halves must declare several_outputs = True"):
        apply_with_outputs(Halves, [minigrad.tensor([1.0, 2.0], requires_grad=True)])
