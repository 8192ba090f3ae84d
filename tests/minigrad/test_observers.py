"""The engine's public record: graph.observe and graph.iter_backward, one BackwardStep per node."""

import numpy as np
import pytest

import minigrad
from minigrad.autograd import graph

ACCUMULATE_GRAD = "torch::autograd::AccumulateGrad"


def values(tensors):
    """Plain lists for a tuple of tensors (None stays None)."""
    return [None if t is None else t.tolist() for t in tensors]


def product_sum():
    """y = sum(x * w) with x = [1, 2], w = [3, 4]: dy/dx = w, dy/dw = x."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    return x, w, (x * w).sum()


def all_nodes(root):
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(child for child, _ in node.next_functions)
    return seen


# --- observe ----------------------------------------------------------------------------------


def test_observe_gets_one_step_per_node():
    """sum(x * w) has 4 nodes (Sum, Mul, two AccumulateGrad): 4 steps, indexed 0..3, each node once."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        y.backward()
    assert [s.index for s in steps] == [0, 1, 2, 3]
    assert [s.node.name() for s in steps[:2]] == ["SumBackward0", "MulBackward0"]
    assert sorted(s.node.name() for s in steps[2:]) == [ACCUMULATE_GRAD] * 2
    assert {id(s.node) for s in steps} == {id(n) for n in all_nodes(y.grad_fn)}
    assert all(s.executed for s in steps)


def test_steps_come_in_execution_order():
    """The order of steps is the order the nodes really run (recorded by pre-hooks in the same run)."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    y = (c.exp() * (c + a)).sum() + b.sum()
    ran = []
    for node in all_nodes(y.grad_fn):
        node.register_prehook(lambda grad_outputs, node=node: ran.append(node))
    steps = []
    with graph.observe(steps.append):
        y.backward()
    assert [id(s.node) for s in steps] == [id(n) for n in ran]


def test_step_grad_outputs_and_grad_inputs():
    """Sum gets (1,) and sends ([1, 1],); Mul gets ([1, 1],) and sends (w, x) = ([3, 4], [1, 2])."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        y.backward()
    sum_step, mul_step = steps[0], steps[1]
    assert values(sum_step.grad_outputs) == [1.0]
    assert values(sum_step.grad_inputs) == [[1.0, 1.0]]
    assert values(mul_step.grad_outputs) == [[1.0, 1.0]]
    assert values(mul_step.grad_inputs) == [[3.0, 4.0], [1.0, 2.0]]


def test_accumulate_grad_steps():
    """Each AccumulateGrad step gets its leaf's gradient, sends nothing (()), and records one accumulation."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        y.backward()
    by_leaf = {id(s.node.variable): s for s in steps[2:]}
    x_step, w_step = by_leaf[id(x)], by_leaf[id(w)]
    assert values(x_step.grad_outputs) == [[3.0, 4.0]] and x_step.grad_inputs == ()
    assert values(w_step.grad_outputs) == [[1.0, 2.0]] and w_step.grad_inputs == ()
    (tensor, before, after), = x_step.accumulated
    assert tensor is x and before is None
    np.testing.assert_array_equal(after, [3.0, 4.0])
    assert steps[0].accumulated == () and steps[1].accumulated == ()


def test_accumulated_before_and_after_over_two_calls():
    """Second backward into x: before = [3, 4] (first result), after = [6, 8]."""
    x, w, y = product_sum()
    y.backward(retain_graph=True)
    steps = []
    with graph.observe(steps.append):
        y.backward()
    (tensor, before, after), = [a for s in steps for a in s.accumulated if a[0] is x]
    np.testing.assert_array_equal(before, [3.0, 4.0])
    np.testing.assert_array_equal(after, [6.0, 8.0])


def test_accumulated_values_are_copies():
    """The recorded before/after arrays do not change when .grad changes later."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        y.backward()
    (_, _, after), = [a for s in steps for a in s.accumulated if a[0] is x]
    x.grad.zero_()
    np.testing.assert_array_equal(after, [3.0, 4.0])


def test_retain_grad_accumulation_is_reported_at_its_node():
    """h = 2x with retain_grad: the step of h's node (MulBackward0) reports h.grad written as [1, 1]."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    h.retain_grad()
    steps = []
    with graph.observe(steps.append):
        h.sum().backward()
    mul_step = next(s for s in steps if s.node is h.grad_fn)
    (tensor, before, after), = mul_step.accumulated
    assert tensor is h and before is None
    np.testing.assert_array_equal(after, [1.0, 1.0])


def test_released_names_after_a_non_retaining_backward():
    """retain_graph=False: Mul releases ('self', 'other'); Sum and AccumulateGrad saved nothing, release ()."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        y.backward()
    assert steps[0].released == ()
    assert sorted(steps[1].released) == ["other", "self"]
    assert all(s.released == () for s in steps[2:])


def test_nothing_released_after_a_retaining_backward():
    """retain_graph=True: no step releases anything."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        y.backward(retain_graph=True)
    assert len(steps) == 4
    assert all(s.released == () for s in steps)


def test_released_names_for_a_result_saving_node():
    """exp saves its result: ExpBackward0 releases ('result',)."""
    x = minigrad.tensor([1.0], requires_grad=True)
    steps = []
    with graph.observe(steps.append):
        x.exp().sum().backward()
    exp_step = next(s for s in steps if s.node.name() == "ExpBackward0")
    assert exp_step.released == ("result",)


def test_observe_sees_autograd_grad_captures():
    """grad(y, [x]) reports, at x's AccumulateGrad step, the capture (0, w) and no accumulation."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        (g,) = minigrad.autograd.grad(y, [x])
    captured = [c for s in steps for c in s.captured]
    assert len(captured) == 1
    position, grad = captured[0]
    assert position == 0 and grad.tolist() == [3.0, 4.0]
    assert all(s.accumulated == () for s in steps)
    assert x.grad is None


def test_pruned_nodes_do_not_appear():
    """backward(inputs=[a]) on exp(a) * sin(b): no step for SinBackward0 or b's AccumulateGrad."""
    a = minigrad.tensor([0.5], requires_grad=True)
    b = minigrad.tensor([0.25], requires_grad=True)
    y = (a.exp() * b.sin()).sum()
    steps = []
    with graph.observe(steps.append):
        y.backward(inputs=[a])
    names = [s.node.name() for s in steps if s.executed]
    assert "SinBackward0" not in names
    assert all(s.node.variable is a for s in steps if s.node.name() == ACCUMULATE_GRAD and s.executed)


def test_observer_is_removed_after_the_block():
    """A backward after the with block is not reported."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        pass
    y.backward()
    assert steps == []


def test_observer_is_removed_after_an_exception():
    """Leaving observe by an exception unregisters the observer too."""
    steps = []
    with pytest.raises(ZeroDivisionError):
        with graph.observe(steps.append):
            1 / 0
    x, w, y = product_sum()
    y.backward()
    assert steps == []


def test_two_observers_both_see_every_step():
    """Nested observe blocks: both callbacks get the same 4 steps."""
    x, w, y = product_sum()
    outer, inner = [], []
    with graph.observe(outer.append):
        with graph.observe(inner.append):
            y.backward()
    assert len(outer) == len(inner) == 4
    assert [id(s.node) for s in outer] == [id(s.node) for s in inner]


def test_step_repr_names_the_node():
    """repr of a step shows its index and node name."""
    x, w, y = product_sum()
    steps = []
    with graph.observe(steps.append):
        y.backward()
    assert repr(steps[1]) == "<BackwardStep 1: MulBackward0>"


# --- iter_backward ------------------------------------------------------------------------------


def test_iter_backward_is_lazy_and_fills_grad_when_consumed():
    """iter_backward does nothing until iterated; consuming it writes x.grad = w."""
    x, w, y = product_sum()
    steps = graph.iter_backward([y], [minigrad.tensor(1.0)])
    assert x.grad is None
    first = next(steps)
    assert first.node.name() == "SumBackward0" and x.grad is None
    rest = list(steps)
    assert len(rest) == 3
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(w.grad.numpy(), [1.0, 2.0])


def test_iter_backward_uses_the_given_root_gradient():
    """A root gradient of 10 makes x.grad = 10 w = [30, 40]."""
    x, w, y = product_sum()
    list(graph.iter_backward([y], [minigrad.tensor(10.0)]))
    np.testing.assert_array_equal(x.grad.numpy(), [30.0, 40.0])


def test_iter_backward_retain_graph_flag():
    """retain_graph=False releases Mul's saved tensors; retain_graph=True releases nothing."""
    x, w, y = product_sum()
    kept = list(graph.iter_backward([y], [minigrad.tensor(1.0)], retain_graph=True))
    assert all(s.released == () for s in kept)
    freed = list(graph.iter_backward([y], [minigrad.tensor(1.0)], retain_graph=False))
    assert sorted(freed[1].released) == ["other", "self"]
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 8.0])


def test_iter_backward_record_values():
    """record_values=True puts NumPy copies in accumulated; without it before/after are None."""
    x, w, y = product_sum()
    plain = list(graph.iter_backward([y], [minigrad.tensor(1.0)], retain_graph=True))
    assert all(before is None and after is None for s in plain for (_, before, after) in s.accumulated)
    recorded = list(graph.iter_backward([y], [minigrad.tensor(1.0)], record_values=True))
    (_, before, after), = [a for s in recorded for a in s.accumulated if a[0] is x]
    np.testing.assert_array_equal(before, [3.0, 4.0])
    np.testing.assert_array_equal(after, [6.0, 8.0])


def test_iter_backward_without_accumulation_only_captures():
    """accumulate_grad=False with inputs=[w]: the step captures (0, x) and no .grad is written."""
    x, w, y = product_sum()
    steps = list(graph.iter_backward([y], [minigrad.tensor(1.0)], inputs=[w], accumulate_grad=False))
    captured = [c for s in steps for c in s.captured]
    assert [(p, g.tolist()) for p, g in captured] == [(0, [1.0, 2.0])]
    assert x.grad is None and w.grad is None


def test_pending_counts_reach_zero():
    """After the last step, every node's pending dependency count is 0."""
    x, w, y = product_sum()
    steps = list(graph.iter_backward([y], [minigrad.tensor(1.0)]))
    assert set(steps[-1].pending.values()) == {0}
