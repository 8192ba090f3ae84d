"""The engine's named steps, seen from outside: the plan, the execution order, the preview.

Expectations come from a real ``backward()`` on a copy of the same graph (what it wrote
into ``.grad``, what it freed, the order its nodes ran in) and from counting by hand.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from random_graphs import programs, run

import minigrad
from minigrad.autograd.graph import (AccumulateGrad, execution_order, iter_backward, nodes_on_a_path, observe,
                                     parents, plan_backward, walk)


def diamond():
    """x -> a = x.exp(), b = x * 3 -> loss = (a * b).sum(); w only feeds b."""
    x = minigrad.tensor([0.5, -1.0], requires_grad=True)
    w = minigrad.tensor(2.0, requires_grad=True)
    a = x.exp()
    b = x * w
    loss = (a * b).sum()
    return x, w, a, b, loss


def real_backward_order(loss, **kwargs):
    steps = []
    with observe(steps.append):
        loss.backward(**kwargs)
    return [step.node for step in steps]


def test_step_indices_count_the_nodes_run():
    *_, loss = diamond()
    steps = list(iter_backward([loss], [minigrad.tensor(1.0)], retain_graph=True))
    assert [step.index for step in steps] == list(range(len(steps)))


def test_execution_order_is_the_order_a_real_backward_runs():
    *_, loss = diamond()
    predicted = execution_order([loss])
    assert predicted == real_backward_order(loss)
    # Every node reached runs once: the walk finds the same nodes.
    assert sorted(map(id, predicted)) == sorted(map(id, walk(loss.grad_fn)))


def test_preview_writes_no_grad_frees_nothing_and_says_what_backward_would_do():
    x, w, a, b, loss = diamond()
    b.retain_grad()
    steps = list(iter_backward([loss], [minigrad.tensor(1.0)], preview=True))
    assert x.grad is None and w.grad is None and b.grad is None
    assert not any(node.released for node in walk(loss.grad_fn))
    previewed = {id(tensor): after for step in steps for tensor, _, after in step.accumulated}
    previewed_release = {step.node: step.released for step in steps if step.released}

    assert [step.node for step in steps] == real_backward_order(loss)  # the same pass, for real
    for tensor in (x, w, b):
        np.testing.assert_array_equal(previewed[id(tensor)], tensor.grad.numpy())
    for node, names in previewed_release.items():
        assert node.released and names == node.saved_tensor_names
    # x.grad by hand: d/dx sum(exp(x) * x * w) = w * exp(x) * (1 + x).
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * np.exp([0.5, -1.0]) * (1 + np.array([0.5, -1.0])),
                               rtol=1e-6)


def test_preview_after_a_first_backward_adds_to_the_grad_already_there():
    x, w, a, b, loss = diamond()
    loss.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    (x_record,) = [record for step in iter_backward([loss], [minigrad.tensor(1.0)], retain_graph=True,
                                                     preview=True)
                   for record in step.accumulated if record[0] is x]
    np.testing.assert_array_equal(x_record[1], first)
    np.testing.assert_array_equal(x_record[2], 2 * first)
    np.testing.assert_array_equal(x.grad.numpy(), first)


def test_release_dry_run_names_what_release_frees_and_keeps_it():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    assert y.grad_fn.release(dry_run=True) == ("self", "other")
    assert not y.grad_fn.released and y.grad_fn._saved_self is x
    assert y.grad_fn.release() == ("self", "other")
    assert y.grad_fn.release(dry_run=True) == ()  # freed already: nothing more to free


def test_kept_tensor_names_follow_what_the_node_kept(torch):
    x = minigrad.tensor([1.0, 2.0])
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    node = (x * w).grad_fn
    # Only w needs a gradient, grad_w = grad * x: PyTorch keeps self (x) and not other (w).
    tx, tw = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0], requires_grad=True)
    tnode = (tx * tw).grad_fn
    kept_by_torch = tuple(name for name in ("self", "other") if getattr(tnode, f"_saved_{name}") is not None)
    assert node.kept_tensor_names == kept_by_torch == ("self",)
    assert node.saved_tensor_names == ("self", "other")


def test_plan_with_inputs_runs_only_the_nodes_on_a_path_to_them():
    x, w, a, b, loss = diamond()
    plan = plan_backward([loss], inputs=[w])
    # By hand: loss's SumBackward0, the MulBackward0 making loss and the one making b lead to w;
    # ExpBackward0 (a) and x's AccumulateGrad do not.
    on_path = {loss.grad_fn, loss.grad_fn.next_functions[0][0], b.grad_fn}
    assert {node for node in plan.runs if not isinstance(node, AccumulateGrad)} == on_path
    assert a.grad_fn not in plan.runs
    assert nodes_on_a_path(loss.grad_fn, {b.grad_fn}) == {loss.grad_fn, loss.grad_fn.next_functions[0][0]}


def test_parents_count_one_entry_per_edge():
    x = minigrad.tensor(3.0, requires_grad=True)
    y = x * x
    leaf = minigrad.autograd.graph.get_gradient_edge(x).node
    assert parents(y.grad_fn)[leaf] == [y.grad_fn, y.grad_fn]


def test_walk_a_long_chain_without_recursion():
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20_000):  # far past Python's recursion limit
        y = y * 1.0
    nodes = walk(y.grad_fn)
    assert len(nodes) == 20_001 and isinstance(nodes[-1], AccumulateGrad)
    assert len(execution_order([y])) == 20_001


def test_a_failing_node_in_preview_raises_as_backward_would():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    loss = y.sum()
    with minigrad.no_grad():
        y.mul_(2)  # y was saved by ExpBackward0: now changed in place
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        list(iter_backward([loss], [minigrad.tensor(1.0)], preview=True))
    assert x.grad is None


# (The same programs every run: CI must not flake.)
@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(programs())
def test_preview_of_random_programs_matches_a_real_backward(program):
    """Two runs of one program make two identical graphs: preview one, run backward on the other."""
    previewed_values, real_values = run(program, minigrad), run(program, minigrad)
    loss, real_loss = previewed_values[-1], real_values[-1]
    steps = list(iter_backward([loss], [minigrad.ones_like(loss)], preview=True))
    assert [node.name() for node in execution_order([loss])] == [step.node.name() for step in steps]
    real_order = real_backward_order(real_loss, gradient=minigrad.ones_like(real_loss))
    assert [step.node.name() for step in steps] == [node.name() for node in real_order]

    leaves = [value for value, step in zip(previewed_values, program.steps) if step.is_leaf]
    real_leaves = [value for value, step in zip(real_values, program.steps) if step.is_leaf]
    after = {id(tensor): value for step in steps for tensor, _, value in step.accumulated}
    for leaf, real_leaf in zip(leaves, real_leaves):
        assert leaf.grad is None
        if real_leaf.grad is None:
            assert id(leaf) not in after
        else:
            np.testing.assert_array_equal(after[id(leaf)], real_leaf.grad.numpy())
    for step, real_node in zip(steps, real_order):
        assert not step.node.released
        assert real_node.released == bool(step.released)
