"""Hooks: on tensors (leaf and non-leaf), on nodes (pre and post), after accumulation; and their order."""


import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error, in_minigrad_words

def all_nodes(root):
    """Every node reachable from ``root``, each once, in a fixed (depth-first) order."""
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions))
    return seen


def leaf(values):
    return minigrad.tensor(values, requires_grad=True)


# --- tensor hooks ---------------------------------------------------------------------


def test_leaf_hook_sees_the_gradient():
    """A hook on leaf x is called once with d/dx sum(x*x) = 2x = [2, 4]."""
    x = leaf([1.0, 2.0])
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()))
    (x * x).sum().backward()
    assert seen == [[2.0, 4.0]]
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_leaf_hook_return_value_replaces_the_gradient():
    """A leaf hook returning g * 10 makes x.grad = 10 * 2x = [20, 40]."""
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: g * 10)
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 40.0])


def test_non_leaf_hook_return_value_flows_upstream():
    """h = 2x, y = sum(h*h): dy/dh = 2h = 4x; a hook making it 10x bigger gives x.grad = 2 * 40x = [80, 160]."""
    x = leaf([1.0, 2.0])
    h = x * 2.0
    seen = []
    h.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    (h * h).sum().backward()
    assert seen == [[4.0, 8.0]]
    np.testing.assert_array_equal(x.grad.numpy(), [80.0, 160.0])


def test_hook_returning_none_keeps_the_gradient():
    """A hook that returns None only observes: x.grad = 2x = [2, 4]."""
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: None)
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_several_hooks_run_in_registration_order_and_chain():
    """Hooks g + 1 then g * 10 on h give (1 + 1) * 10 = 20 for dy/dh = 1, so x.grad = 3 * 20 = 60."""
    x = leaf(1.0)
    h = x * 3.0
    h.register_hook(lambda g: g + 1)
    h.register_hook(lambda g: g * 10)
    h.backward()
    assert x.grad.item() == 60.0


def test_handle_remove_unregisters_the_hook():
    """After handle.remove() the hook is not called and the gradient is untouched."""
    x = leaf([1.0, 2.0])
    calls = []
    handle = x.register_hook(lambda g: calls.append(1) or g * 100)
    handle.remove()
    (x * x).sum().backward()
    assert calls == []
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_handle_remove_on_a_non_leaf_hook():
    """Removing a non-leaf hook restores plain gradients: x.grad = 2 * 2 * (2x) = 8x."""
    x = leaf(1.0)
    h = x * 2.0
    handle = h.register_hook(lambda g: g * 100)
    handle.remove()
    (h * h).backward()
    assert x.grad.item() == 8.0


def test_handle_remove_twice_is_harmless():
    """handle.remove() a second time does nothing."""
    x = leaf(1.0)
    handle = x.register_hook(lambda g: g * 2)
    handle.remove()
    handle.remove()
    (x * 3.0).backward()
    assert x.grad.item() == 3.0


def test_leaf_used_twice_calls_its_hook_once_with_the_sum(torch):
    """x feeds two products; its hook runs once with the summed gradient, as in PyTorch."""

    def run(lib):
        x = lib.tensor(1.0, requires_grad=True)
        seen = []
        x.register_hook(lambda g: seen.append(g.item()))
        (x * 2.0 + x * 5.0).backward()
        return seen

    assert run(minigrad) == run(torch) == [7.0]


def test_hooks_also_run_under_autograd_grad(torch):
    """A tensor hook changes what autograd.grad returns, as in PyTorch (here 10 * 2x)."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 10)
        (g,) = lib.autograd.grad((x * x).sum(), x)
        return g.tolist()

    assert run(minigrad) == run(torch)


def test_hook_on_tensor_without_requires_grad_is_an_error(torch):
    """register_hook on a tensor that does not require grad raises PyTorch's error."""

    def run(lib):
        lib.tensor([1.0]).register_hook(lambda g: g)

    assert_same_error(run, torch, expect_hint=False)


# --- retain_grad and hooks ---------------------------------------------------------------


@pytest.mark.parametrize("retain_first", [True, False], ids=["retain_then_hook", "hook_then_retain"])
def test_retain_grad_sees_the_hook_modified_gradient(retain_first, torch):
    """h.retain_grad() and a hook g * 10 on h: h.grad is what PyTorch stores, whichever came first."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2.0
        if retain_first:
            h.retain_grad()
        h.register_hook(lambda g: g * 10)
        if not retain_first:
            h.retain_grad()
        (h * 3.0).sum().backward()
        return h.grad.tolist(), x.grad.tolist()

    assert run(minigrad) == run(torch)


def test_retain_grad_keeps_non_leaf_grad():
    """h = 2x, y = sum(h*h): after retain_grad, h.grad = 2h = [4, 8]."""
    x = leaf([1.0, 2.0])
    h = x * 2.0
    h.retain_grad()
    (h * h).sum().backward()
    assert h.retains_grad
    np.testing.assert_array_equal(h.grad.numpy(), [4.0, 8.0])


def test_retained_grad_accumulates_over_calls():
    """Two retaining backward calls add into h.grad: 2 * [4, 8]."""
    x = leaf([1.0, 2.0])
    h = x * 2.0
    h.retain_grad()
    y = (h * h).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(h.grad.numpy(), [8.0, 16.0])


# --- node hooks --------------------------------------------------------------------------


def test_node_prehook_receives_the_grad_outputs_tuple():
    """MulBackward0's pre-hook gets a 1-tuple holding dL/d(output) = [1, 1]."""
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    y = x * w
    seen = []
    y.grad_fn.register_prehook(lambda grad_outputs: seen.append(
        (type(grad_outputs), [g.tolist() for g in grad_outputs])))
    y.sum().backward()
    assert seen == [(tuple, [[1.0, 1.0]])]


def test_node_prehook_return_value_replaces_grad_outputs():
    """A pre-hook returning (g * 2,) doubles what the node sees: x.grad = 2w = [6, 8]."""
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    y = x * w
    y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 2,))
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 8.0])
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, 4.0])


def test_node_post_hook_receives_grad_inputs_and_grad_outputs():
    """MulBackward0's hook gets (grad_inputs, grad_outputs) = ((w, x), (ones,))."""
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    y = x * w
    seen = []
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        ([g.tolist() for g in grad_inputs], [g.tolist() for g in grad_outputs])))
    y.sum().backward()
    assert seen == [([[3.0, 4.0], [1.0, 2.0]], [[1.0, 1.0]])]


def test_node_post_hook_return_value_replaces_grad_inputs():
    """A post hook returning (gx * 0, gw) stops x's gradient: x.grad = [0, 0], w.grad = x = [1, 2]."""
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    y = x * w
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 0, grad_inputs[1]))
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(w.grad.numpy(), [1.0, 2.0])


def test_node_hook_handles_remove():
    """Removed pre- and post-hooks are not called."""
    x = leaf([1.0, 2.0])
    y = x * 2.0
    calls = []
    y.grad_fn.register_prehook(lambda grad_outputs: calls.append("pre")).remove()
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: calls.append("post")).remove()
    y.sum().backward()
    assert calls == []


def test_prehook_on_accumulate_grad_node_sees_the_leaf_gradient():
    """The AccumulateGrad node of x takes pre-hooks too; it sees dL/dx = w = [3, 4]."""
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    y = x * w
    accumulate = y.grad_fn.next_functions[0][0]
    seen = []
    accumulate.register_prehook(lambda grad_outputs: seen.append(grad_outputs[0].tolist()))
    y.sum().backward()
    assert seen == [[3.0, 4.0]]


# --- post-accumulate-grad hooks ------------------------------------------------------------


def test_post_accumulate_grad_hook_sees_the_updated_grad():
    """The hook is called with the leaf itself after .grad was written: 2x, then 4x on a second call."""
    x = leaf([1.0, 2.0])
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append((t is x, t.grad.tolist())))
    (x * x).sum().backward()
    (x * x).sum().backward()
    assert seen == [(True, [2.0, 4.0]), (True, [4.0, 8.0])]


def test_post_accumulate_grad_hook_runs_after_tensor_hooks(torch):
    """A tensor hook runs before accumulation, the post-accumulate hook after: order and values as PyTorch."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        events = []
        x.register_post_accumulate_grad_hook(lambda t: events.append(("post", t.grad.tolist())))
        x.register_hook(lambda g: events.append(("tensor", g.tolist())) or g * 3)
        (x * x).sum().backward()
        return events

    assert run(minigrad) == run(torch)


def test_post_accumulate_grad_hook_handle_remove():
    """After remove(), the post-accumulate hook is not called."""
    x = leaf([1.0, 2.0])
    calls = []
    x.register_post_accumulate_grad_hook(lambda t: calls.append(1)).remove()
    (x * x).sum().backward()
    assert calls == []


def test_post_accumulate_grad_hook_on_non_leaf_is_an_error(torch):
    """register_post_accumulate_grad_hook on a non-leaf raises PyTorch's error."""

    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        (x * 2).register_post_accumulate_grad_hook(lambda t: None)

    assert_same_error(run, torch, expect_hint=False)


def test_post_accumulate_grad_hook_without_requires_grad_is_an_error(torch):
    """register_post_accumulate_grad_hook on a tensor not requiring grad raises PyTorch's error."""

    def run(lib):
        lib.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None)

    assert_same_error(run, torch, expect_hint=False)


# --- execution order against PyTorch ---------------------------------------------------------


def record_order(lib, build):
    """Build a graph with ``build(lib)``, put a name-recording pre-hook on every node, run backward."""
    order = []
    out = build(lib, order)
    for node in all_nodes(out.grad_fn):
        node.register_prehook(lambda grad_outputs, name=node.name(): order.append(name))
    out.backward()
    return order


def shared_subexpression(lib, order):
    """f = sum(exp(a*b) * (a*b + a)) + sum(b), with tensor hooks on a and on c = a*b."""
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    a.register_hook(lambda g: order.append("hook a"))
    c.register_hook(lambda g: order.append("hook c"))
    f = (c.exp() * (c + a)).sum() + b.sum()
    return f


def long_and_short_branch(lib, order):
    """f = tanh(sin(cos(x))) + 2x: one long branch and one short branch into x."""
    x = lib.tensor(0.5, requires_grad=True)
    x.register_hook(lambda g: order.append("hook x"))
    return x.cos().sin().tanh() + x * 2.0


def two_leaves_two_depths(lib, order):
    """f = sum(relu(u @ v) * u.sum()) with matrices: branches of different lengths into u."""
    u = lib.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    v = lib.tensor([[0.5, 1.0], [-1.0, 2.0]], requires_grad=True)
    return ((u @ v).relu() * u.sum()).sum()


@pytest.mark.parametrize("build", [shared_subexpression, long_and_short_branch, two_leaves_two_depths],
                         ids=lambda f: f.__name__)
def test_nodes_and_hooks_run_in_torch_order(build, torch):
    """Recording every node's name (via pre-hooks) and tensor hooks gives PyTorch's execution order."""
    assert record_order(minigrad, build) == record_order(torch, build)


def test_hook_kinds_run_in_torch_order(torch):
    """On one non-leaf: tensor hook, retain_grad, node pre-hook, node post-hook run in PyTorch's order."""

    def run(lib):
        events = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2.0
        h.grad_fn.register_hook(lambda gi, go: events.append("node post"))
        h.grad_fn.register_prehook(lambda go: events.append("node pre"))
        h.register_hook(lambda g: events.append("tensor"))
        h.retain_grad()
        x.register_hook(lambda g: events.append("leaf tensor"))
        x.register_post_accumulate_grad_hook(lambda t: events.append("leaf post accumulate"))
        (h * h).sum().backward()
        return events

    assert run(minigrad) == run(torch)


def _grad_mode_in_hooks(lib, how):
    """What each hook of one pass saw as ``is_grad_enabled()``, then the mode after the pass."""
    seen = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    h.register_hook(lambda g: seen.append(("tensor", lib.is_grad_enabled())))
    h.grad_fn.register_prehook(lambda go: seen.append(("node pre", lib.is_grad_enabled())))
    h.grad_fn.register_hook(lambda gi, go: seen.append(("node post", lib.is_grad_enabled())))
    x.register_hook(lambda g: seen.append(("leaf", lib.is_grad_enabled())))
    if how.startswith("backward"):
        x.register_post_accumulate_grad_hook(lambda t: seen.append(("post accumulate", lib.is_grad_enabled())))
    loss = (h * h).sum()
    create_graph = how.endswith("create_graph")
    if how == "backward inputs":
        loss.backward(inputs=[x])
    elif how.startswith("backward"):
        loss.backward(create_graph=create_graph)
    else:
        lib.autograd.grad(loss, x, create_graph=create_graph)
    seen.append(("after", lib.is_grad_enabled()))
    return seen


@pytest.mark.parametrize("how", ["backward", "backward inputs", "grad", "grad create_graph"])
def test_hooks_run_in_grad_mode_create_graph(how, torch):
    """As in PyTorch, every hook of a pass runs with grad mode set to ``create_graph``,
    whatever the mode where backward was called (a hook's own ops record only then)."""
    assert _grad_mode_in_hooks(minigrad, how) == _grad_mode_in_hooks(torch, how)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_hooks_of_backward_with_create_graph_run_in_grad_mode():
    # (Not run under torch here: PyTorch gives its create_graph warning once a process, and
    # the differential tests compare that warning in a fresh process state.)
    seen = _grad_mode_in_hooks(minigrad, "backward create_graph")
    assert seen == [("tensor", True), ("node pre", True), ("node post", True), ("leaf", True),
                    ("post accumulate", True), ("after", True)]
