"""minigrad/fast_backward.py: ``backward()``'s one-loop pass does what the engine's loop does.

Each program runs twice on two fresh, identical graphs: once through ``backward()``
(which takes ``run_plain_backward`` when nobody watches) and once through the reference,
``engine.iter_backward`` drained to its end (the loop ``grad()`` and ``viz`` use). What
must agree: every ``.grad``, bit for bit and laid out the same (kept or copied), every
hook's order and what it saw, every error, and the state the loop switches off for the
pass (grad mode, NumPy's floating-point warnings) must come back, also after an error.
"""

import collections
import warnings

import numpy as np
import pytest
from hypothesis import given, settings

import minigrad
from minigrad import fast_backward
from minigrad.engine import iter_backward, make_root_grads
from random_graphs import programs, run
from test_ops_table import CASES, _forward, _rng


def reference_backward(out, gradient=None, retain_graph=False):
    """What ``out.backward(gradient, retain_graph)`` did before the fast loop: the engine's generator.

    (Each step record is dropped as soon as it is made: one still held would hold the
    gradients it shows, and a leaf would then copy a gradient it could have kept.)
    """
    collections.deque(iter_backward([out], make_root_grads([out], [gradient]), retain_graph), maxlen=0)


@pytest.fixture
def engine_calls(monkeypatch):
    """The nodes the fast loop hands to ``engine._run_node``, by name."""
    calls = []
    real = fast_backward._run_node

    def spy(index, node, *args, **kwargs):
        calls.append(node.name())
        return real(index, node, *args, **kwargs)

    monkeypatch.setattr(fast_backward, "_run_node", spy)
    return calls


def test_the_common_node_never_goes_through_the_engine(engine_calls):
    x = minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = minigrad.tensor([0.5, 0.5, 2.0], requires_grad=True)
    ((x * w).relu().sum() + (w @ x)).backward()
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, -2.0, 6.0])
    assert engine_calls == []


def test_a_node_with_a_hook_goes_through_the_engine(engine_calls):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    h.register_hook(lambda g: g * 10)
    x.register_post_accumulate_grad_hook(lambda t: None)
    (h * h).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [80.0, 160.0])  # 2 * (10 * 2h) * 2
    assert engine_calls == ["MulBackward0", "torch::autograd::AccumulateGrad"]


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_backward_takes_the_engine_loop_when_someone_watches(engine_calls, monkeypatch):
    taken = []
    monkeypatch.setattr(minigrad.autograd, "run_plain_backward", lambda *args: taken.append(args))
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    assert len(taken) == 1
    for how in ({"create_graph": True}, {"inputs": [x]}):
        x.grad = None
        (x * x).sum().backward(**how)
    with minigrad.autograd.detect_anomaly():
        (x * x).sum().backward()
    assert len(taken) == 1  # none of these took it


def _assert_same_grads(fast_leaves, reference_leaves):
    for fast, reference in zip(fast_leaves, reference_leaves):
        assert (fast.grad is None) == (reference.grad is None)
        if fast.grad is None:
            continue
        got, want = fast.grad._data, reference.grad._data
        assert type(fast.grad) is minigrad.Tensor and got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        # Kept (the formula's own array) or copied: the same decision, so the same layout.
        assert (got.strides, got.base is None) == (want.strides, want.base is None)


@pytest.mark.parametrize("case", CASES)
def test_every_op_gives_the_reference_bits(case):
    arrays = [a.astype(np.float32) for a in case.draw(_rng(case))]
    v = _rng(case, "v")
    fast_leaves, fast_out = _forward(case, arrays)
    reference_leaves, reference_out = _forward(case, arrays)
    gradient = v.standard_normal(fast_out.shape).astype(np.float32)
    fast_out.backward(minigrad.tensor(gradient))
    reference_backward(reference_out, minigrad.tensor(gradient))
    _assert_same_grads(fast_leaves, reference_leaves)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)  # (the same programs every run)
@given(programs(max_ops=8))
def test_random_programs_give_the_reference_bits(program):
    fast_values, reference_values = run(program, minigrad), run(program, minigrad)
    fast_values[-1].backward(minigrad.ones_like(fast_values[-1]))
    reference_backward(reference_values[-1], minigrad.ones_like(reference_values[-1]))
    leaves = [i for i, step in enumerate(program.steps) if step.is_leaf]
    _assert_same_grads([fast_values[i] for i in leaves], [reference_values[i] for i in leaves])


class Twice(minigrad.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def hooked_program(events):
    """Hooks of every kind on a few nodes among many plain ones, a custom Function, a node
    with several outputs, retain_grad and an in-place write through a view."""
    def note(what):
        def hook(*args):
            grads = [a for a in args if isinstance(a, minigrad.Tensor)] or \
                    [g for group in args if isinstance(group, tuple) for g in group if g is not None]
            events.append((what, type(grads[0]).__name__ if grads else None, minigrad.is_grad_enabled(),
                           [g.tolist() for g in grads]))
        return hook

    x = minigrad.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    w = minigrad.tensor([[0.5, 1.0], [-1.0, 2.0]], requires_grad=True)
    x.register_hook(note("x"))
    w.register_post_accumulate_grad_hook(lambda t: events.append(("w accumulated", t.grad.tolist())))
    h = (x @ w).tanh()
    h.register_hook(lambda g: g * 3)
    h.retain_grad()
    first, second = h.unbind(0)  # one node, two outputs
    first.grad_fn.register_prehook(note("unbind pre"))
    y = Twice.apply(first) + second.exp()
    y.grad_fn.register_hook(note("add post"))
    z = y.clone()
    z[0] = z[1] * 2  # an in-place write: CopySlices
    events.append(("h", h))
    return [x, w], (z * y).sum() + (w * w).sum()


def test_hooks_and_rare_nodes_see_what_the_reference_loop_shows():
    fast_events, reference_events = [], []
    fast_leaves, fast_out = hooked_program(fast_events)
    reference_leaves, reference_out = hooked_program(reference_events)
    fast_h, reference_h = fast_events.pop()[1], reference_events.pop()[1]
    fast_out.backward()
    reference_backward(reference_out)
    assert fast_events == reference_events
    assert {what for what, *_ in fast_events} == {"x", "w accumulated", "unbind pre", "add post"}
    _assert_same_grads(fast_leaves, reference_leaves)
    np.testing.assert_array_equal(fast_h.grad.numpy(), reference_h.grad.numpy())


def _nodes(out):
    """Every node of ``out``'s graph, in an order two identical programs share."""
    seen, order, stack = set(), [], [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions))
    return order


def _freed(nodes):
    """What each node still keeps: released or not, and the names release() would drop now."""
    return [(node.name(), node.released, node.release(dry_run=True)) for node in nodes]


class Scaled(minigrad.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return grad * w, grad * x


def freeing_program():
    """Nodes that keep something, of every kind release() knows: a custom Function's saved
    tensors, an op inside a write through a view (CopySlices), a node with several outputs,
    saved arrays (nll_loss's targets) and plain saved tensors."""
    x = minigrad.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    w = minigrad.tensor([[0.5, 1.0], [-1.0, 2.0]], requires_grad=True)
    first, second = Scaled.apply(x, w).tanh().unbind(0)
    z = (first * second).clone()
    z[0:1].mul_(w[0, 0:1])  # CopySlices around a MulBackward0 that saves both operands
    logits = x @ w
    return z.sum() + second.exp().sum() + minigrad.nn.functional.cross_entropy(logits, minigrad.tensor([1, 0]))


def test_every_node_frees_what_the_reference_loop_frees():
    fast_out, reference_out = freeing_program(), freeing_program()
    fast_nodes, reference_nodes = _nodes(fast_out), _nodes(reference_out)
    before = _freed(fast_nodes)
    assert before == _freed(reference_nodes)  # (the same graphs, nothing freed yet)
    keeping = {name for name, _, kept in before if kept}
    assert {"ScaledBackward", "torch::autograd::CopySlices", "NllLossBackward0", "TanhBackward0"} <= keeping
    fast_out.backward()
    reference_backward(reference_out)
    assert _freed(fast_nodes) == _freed(reference_nodes)
    assert all(released == bool(kept) for (_, released, _), (_, _, kept) in zip(_freed(fast_nodes), before))


def test_every_node_class_that_changes_release_changes_the_loop_s_release_too():
    # The fast loop frees by _drop_saved (release() without its answer): a class with its own
    # release() needs its own _drop_saved, or the loop would free another thing than the engine.
    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    own_release = [cls for cls in subclasses(minigrad.graph.Node) if "release" in vars(cls)]
    assert len(own_release) >= 2  # (CopySlices, a custom Function's node)
    assert [cls for cls in own_release if "_drop_saved" not in vars(cls)] == []


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(programs(max_ops=8))
def test_random_programs_free_what_the_reference_loop_frees(program):
    fast_values, reference_values = run(program, minigrad), run(program, minigrad)
    fast_nodes, reference_nodes = _nodes(fast_values[-1]), _nodes(reference_values[-1])
    fast_values[-1].backward(minigrad.ones_like(fast_values[-1]))
    reference_backward(reference_values[-1], minigrad.ones_like(reference_values[-1]))
    assert _freed(fast_nodes) == _freed(reference_nodes)


def test_retain_graph_twice_accumulates_as_the_reference():
    def program():
        x = minigrad.tensor([0.5, -1.5, 2.0], requires_grad=True)
        return x, ((x * x).exp() / (x + 3.0)).sum()

    (x, out), (x_ref, out_ref) = program(), program()
    out.backward(retain_graph=True)
    out.backward()
    reference_backward(out_ref, retain_graph=True)
    reference_backward(out_ref)
    _assert_same_grads([x], [x_ref])
    with pytest.raises(RuntimeError) as fast_error:
        out.backward()
    with pytest.raises(RuntimeError) as reference_error:
        reference_backward(out_ref)
    assert str(fast_error.value) == str(reference_error.value)
    assert "Trying to backward through the graph a second time" in str(fast_error.value)


def _state():
    return minigrad.is_grad_enabled(), np.geterr()


def _failing_programs():
    def modified_saved_tensor():
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        out = (y * y).sum()
        y.add_(1)  # the Mul saved y: its backward must refuse
        return out

    def failing_hook():
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        h.register_hook(lambda g: 1 / 0)
        return (h * h).sum()

    def failing_custom_backward():
        class Broken(minigrad.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, grad):
                return grad, grad  # one gradient too many

        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        return (Broken.apply(x) * 2).sum()

    return [modified_saved_tensor, failing_hook, failing_custom_backward]


@pytest.mark.parametrize("program", _failing_programs(), ids=lambda f: f.__name__)
def test_an_error_is_the_reference_error_and_the_state_comes_back(program):
    before = _state()
    with pytest.raises(Exception) as fast_error:
        program().backward()
    assert _state() == before
    with pytest.raises(Exception) as reference_error:
        reference_backward(program())
    assert type(fast_error.value) is type(reference_error.value)
    assert str(fast_error.value) == str(reference_error.value)
    out = program()
    with minigrad.no_grad():
        with pytest.raises(type(fast_error.value)):
            out.backward()
        assert not minigrad.is_grad_enabled()
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()  # the next pass works
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


@pytest.mark.parametrize("wrong", ["shape", "dtype", "count"])
def test_a_formula_s_misfit_gradient_is_fitted_or_refused_as_in_the_reference(monkeypatch, wrong):
    # Built-in formulas return fitting gradients; were one not to, both loops must answer alike.
    def misfit(self, grad):
        g = grad * 1.0
        if wrong == "shape":
            return g[:1]  # (1, 3) for an input of (2, 3): no sum makes it fit, PyTorch's error
        if wrong == "dtype":
            return g.double()  # fitted back to float32, as the engine fits it
        return g, g

    monkeypatch.setattr(minigrad.ops.elementwise.Exp, "backward", misfit)

    def program():
        x = minigrad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        return x, (x.exp() * 2.0).sum()

    (x, out), (x_ref, out_ref) = program(), program()
    if wrong == "dtype":
        out.backward()
        reference_backward(out_ref)
        assert x.grad.dtype == minigrad.float32
        _assert_same_grads([x], [x_ref])
        return
    with pytest.raises(RuntimeError) as fast_error:
        out.backward()
    with pytest.raises(RuntimeError) as reference_error:
        reference_backward(out_ref)
    assert str(fast_error.value) == str(reference_error.value)
    assert "ExpBackward0 returned" in str(fast_error.value)


def test_formulas_run_quietly_and_hooks_with_the_warnings_on():
    x = minigrad.tensor([0.0, 1.0], requires_grad=True)
    h = x.log()  # its formula divides by zero: no warning, as in PyTorch
    h.register_hook(lambda g: minigrad.tensor(np.log(g.numpy() * 0)))  # the user's NumPy warns as usual
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        h.sum().backward()
    assert [str(w.message) for w in caught] == ["divide by zero encountered in log"]
    assert x.grad.numpy()[0] == -np.inf


def test_formulas_get_their_saved_tensors_as_plain_gradients_and_user_code_never(monkeypatch):
    from minigrad.ops.elementwise import Mul

    seen = []
    formula = Mul.backward

    def spy(self, grad):
        seen.append(("Mul formula", [type(t).__name__ for t in self.saved_tensors]))
        return formula(self, grad)

    monkeypatch.setattr(Mul, "backward", spy)

    class Scale(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return x * w

        @staticmethod
        def backward(ctx, grad):
            x, w = ctx.saved_tensors
            seen.append(("custom backward", [type(x).__name__, type(w).__name__]))
            return grad * w, grad * x

    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    h = Scale.apply(x, w) * x
    h.grad_fn.register_prehook(lambda go: seen.append(("hook", [type(h.grad_fn._saved_self).__name__])))
    (h * w).sum().backward()
    assert seen == [("Mul formula", ["PlainGradient", "PlainGradient"]),  # (h * w): the common node
                    ("hook", ["Tensor"]),
                    ("Mul formula", ["Tensor", "Tensor"]),  # a node with a hook goes through the engine
                    ("custom backward", ["Tensor", "Tensor"])]
    np.testing.assert_array_equal(x.grad.numpy(), 2 * w.detach().numpy() ** 2 * x.detach().numpy())  # d(w²x²)/dx


def test_gradients_added_together_are_not_held_as_candidates():
    # stack's backward sends each input a view of one gradient. a's view is added to another
    # gradient of a; nothing holds it after that, so b may keep its view without a copy (its
    # memory is b's alone), in both loops. (Held by the engine, a's view kept b's copying.)
    def program():
        a = minigrad.tensor([[1.0, 0.5], [0.0, -1.0]], requires_grad=True)
        b = minigrad.tensor([[1.0, 0.5], [0.0, -1.0]], requires_grad=True)
        out = minigrad.stack([a, b], 0).exp().exp().sum() + a.exp().sum()
        return a, b, out

    for run in (lambda out: out.backward(), reference_backward):
        a, b, out = program()
        run(out)
        assert b.grad._data.base is not None  # kept: a view of stack's gradient
        np.testing.assert_allclose(b.grad.numpy(), np.exp(np.exp(b.detach().numpy())) * np.exp(b.detach().numpy()))
        b.grad.add_(1.0)  # its own memory: a's gradient does not move
        np.testing.assert_allclose(a.grad.numpy(), np.exp(np.exp(a.detach().numpy())) * np.exp(a.detach().numpy())
                                   + np.exp(a.detach().numpy()))


@pytest.mark.parametrize("order", ["dadb", "adbd", "abdd"])
def test_leaves_a_node_completes_are_written_in_the_reference_order(order):
    # stack's backward sends to each of its inputs in turn: a and b by one edge each, d by two.
    # The fast loop writes such leaves right after the node, not through the heap: a hook on
    # d sees which of the others already have their .grad, and whether each was kept or copied.
    def program(seen):
        a, b, d = (minigrad.tensor([1.0, 2.0], requires_grad=True) for _ in range(3))
        d.register_post_accumulate_grad_hook(lambda t: seen.append((a.grad is None, b.grad is None)))
        out = minigrad.stack([dict(a=a, b=b, d=d)[name] for name in order], 0).exp().sum()
        return (a, b, d), out

    fast_seen, reference_seen = [], []
    fast_leaves, fast_out = program(fast_seen)
    reference_leaves, reference_out = program(reference_seen)
    fast_out.backward()
    reference_backward(reference_out)
    assert fast_seen == reference_seen and len(fast_seen) == 1
    _assert_same_grads(fast_leaves, reference_leaves)


def test_a_backward_inside_a_hook_runs_and_leaves_the_outer_pass_as_it_was(torch):
    def run(lib):
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        z = lib.tensor([3.0], requires_grad=True)
        h = x * 2

        def hook(grad):
            with lib.enable_grad():
                (z * z).sum().backward()  # a whole pass while the outer one waits
            seen.append((z.grad.tolist(), lib.is_grad_enabled()))
            return grad * 2

        h.register_hook(hook)
        (h * x).exp().sum().backward()
        return seen, x.grad.tolist(), lib.is_grad_enabled()

    (seen, grad, mode), (torch_seen, torch_grad, torch_mode) = run(minigrad), run(torch)
    assert (seen, mode) == (torch_seen, torch_mode)
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-6)
