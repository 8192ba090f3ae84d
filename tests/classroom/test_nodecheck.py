"""classroom.check_graph and classroom.compare_grads on deliberately wrong student code.

Each wrong solution is one a student really writes: a flipped sign, a
broadcast gradient not summed back, a forgotten factor, a backward that
ignores ``grad``, an engine that overwrites instead of adding. The report must
name the right node (not its neighbours) and say expected vs got.
"""

import numpy as np
import pytest

import classroom
import minigrad
from minigrad.autograd import Function
from minigrad.autograd.graph import is_recording_forward_inputs, record_forward_inputs
from minigrad.autograd.graph import AccumulateGrad


# --- student Functions, right and wrong ----------------------------------------------------
class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        y = 1 / (1 + (-x).exp())
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y * (1 - y)


class SigmoidWrongSign(Sigmoid):
    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return -grad * y * (1 - y)  # the bug: a minus sign


class AddBias(Function):
    """x (N, D) + b (D,), broadcast over the rows."""

    @staticmethod
    def forward(ctx, x, b):
        return x + b

    @staticmethod
    def backward(ctx, grad):
        return grad, grad.sum(0)


class AddBiasNoReduction(AddBias):
    @staticmethod
    def backward(ctx, grad):
        return grad, grad  # the bug: b's gradient keeps the broadcast shape


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad


class CubeWrong(Cube):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x * grad  # the bug: x, not x ** 2


class SquareIgnoresGrad(Square):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x  # the bug: right only when grad is all ones


class Scale(Function):
    """alpha * x, with the number first: input 1 is the tensor."""

    @staticmethod
    def forward(ctx, alpha, x, *, shift=0.0):
        ctx.alpha = alpha
        return alpha * x + shift

    @staticmethod
    def backward(ctx, grad):
        return None, grad * (ctx.alpha + 1)  # the bug: alpha + 1


def _x(*values):
    return minigrad.tensor(list(values), dtype=minigrad.float64, requires_grad=True)


# --- recording ------------------------------------------------------------------------------
def test_recording_is_off_by_default_and_restored_after_the_block():
    assert not is_recording_forward_inputs()
    with classroom.recording():
        assert is_recording_forward_inputs()
        with record_forward_inputs(False):
            assert not is_recording_forward_inputs()
        assert is_recording_forward_inputs()
    assert not is_recording_forward_inputs()
    with pytest.raises(ZeroDivisionError):
        with classroom.recording():
            1 / 0
    assert not is_recording_forward_inputs()


def test_recording_keeps_float64_copies_and_params():
    x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)  # float32
    with classroom.recording():
        s = x.sum(dim=1)
        y = Scale.apply(2.0, x, shift=1.0)
    arrays, params = s.grad_fn._forward_inputs
    assert arrays[0].dtype == np.float64 and params == {"dim": (1,), "keepdim": False}
    assert arrays[0] is not x._data
    args, kwargs = y.grad_fn._forward_inputs
    assert args[0] == 2.0 and args[1].dtype == np.float64 and kwargs == {"shift": 1.0}


def test_recording_off_leaves_no_per_node_data_and_says_so():
    x = _x(1.0, 2.0)
    loss = Square.apply(x).sum()
    assert loss.grad_fn._forward_inputs is None
    assert loss.grad_fn.next_functions[0][0]._forward_inputs is None
    report = classroom.check_graph(loss)
    assert not report.ok
    assert report.checked == [] and report.first_wrong is None and report.node_name is None
    assert "classroom.recording()" in report.message
    assert report.unchecked == ["SumBackward0", "SquareBackward"]


def test_nodes_built_outside_recording_are_listed_as_unchecked():
    x = _x(1.0, 2.0)
    with classroom.recording():
        y = Square.apply(x)
    loss = y.sum()
    report = classroom.check_graph(loss)
    assert report.ok
    assert report.checked == [("SquareBackward", True)]
    assert report.unchecked == ["SumBackward0"]
    assert "SumBackward0" in str(report) and "not checked" in str(report)


def test_a_loss_without_a_graph_gets_a_plain_message():
    with minigrad.no_grad():
        loss = (_x(1.0) * 2).sum()
    report = classroom.check_graph(loss)
    assert not report.ok and "no grad_fn" in report.message


# --- right solutions pass -------------------------------------------------------------------
def test_correct_custom_functions_pass():
    x = minigrad.tensor([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]], dtype=minigrad.float64, requires_grad=True)
    b = _x(0.1, 0.2, 0.3)
    with classroom.recording():
        loss = Sigmoid.apply(AddBias.apply(Square.apply(x), b)).sum()
    report = classroom.check_graph(loss)
    assert report.ok, report.message
    assert report.checked == [("SumBackward0", True), ("SigmoidBackward", True),
                              ("AddBiasBackward", True), ("SquareBackward", True)]
    assert str(report) == "All 4 nodes pass the gradient check."
    assert report.first_wrong is None and report.expected is None and report.got is None


class CubeWithContext(minigrad.autograd.Function):
    """y = x**3 in PyTorch's newer style: forward without ctx, then setup_context."""

    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2


class CubeWithContextWrong(CubeWithContext):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x  # forgot the square


def test_functions_in_setup_context_style_are_checked():
    """The replay runs forward(*inputs) then setup_context, as apply does: right passes, wrong is named."""
    x = minigrad.tensor([0.5, -1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    with classroom.recording():
        right = CubeWithContext.apply(x).sum()
        cube = CubeWithContextWrong.apply(x)
        wrong = cube.sum()
    assert classroom.check_graph(right).ok
    report = classroom.check_graph(wrong)
    assert not report.ok and report.first_wrong is cube.grad_fn
    assert report.node_name == "CubeWithContextWrongBackward"


def test_built_in_ops_all_pass_on_a_small_mlp():
    minigrad.manual_seed(0)
    model = minigrad.nn.Sequential(minigrad.nn.Linear(4, 5), minigrad.nn.Tanh(), minigrad.nn.Linear(5, 3))
    inputs = minigrad.randn(6, 4)
    target = minigrad.tensor([0, 2, 1, 1, 0, 2])
    with classroom.recording():
        logits = model(inputs)
        hidden = (logits * 0.5).relu() + logits.sigmoid()
        loss = minigrad.nn.functional.cross_entropy(hidden, target) + (hidden ** 2).mean() * 0.1
    report = classroom.check_graph(loss)
    assert report.ok, report.message
    names = [name for name, _ in report.checked]
    assert {"AddmmBackward0", "TanhBackward0", "ReluBackward0", "SigmoidBackward0",
            "PowBackward0", "MeanBackward0"} <= set(names)
    assert all(ok for _, ok in report.checked) and len(names) >= 10


def test_built_in_views_casts_and_in_place_ops_pass():
    x = minigrad.tensor([[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]], requires_grad=True)  # float32
    with classroom.recording():
        h = x.double().t().reshape(6) * 2
        h.add_(1)
        loss = (h[1:4].exp() * h[:3]).sum() + h.max()
    report = classroom.check_graph(loss)
    assert report.ok, report.message
    assert "ToCopyBackward0" in [name for name, _ in report.checked]


# --- wrong solutions are caught and named ----------------------------------------------------
def test_a_wrong_sign_is_caught_and_named():
    x = _x(0.5, -1.0, 2.0)
    with classroom.recording():
        y = SigmoidWrongSign.apply(x)
        loss = (y * 3).sum()
    report = classroom.check_graph(loss)
    assert not report.ok
    assert report.first_wrong is y.grad_fn
    assert report.node_name == "SigmoidWrongSignBackward"
    assert report.input_index == 0
    s = 1 / (1 + np.exp(-np.array([0.5, -1.0, 2.0])))
    np.testing.assert_allclose(report.expected, s * (1 - s), rtol=1e-6)  # checked with an incoming gradient of ones
    np.testing.assert_allclose(report.got, -report.expected, rtol=1e-6)
    assert report.message.startswith("SigmoidWrongSignBackward (the node that makes `y`) returns the wrong "
                                     "gradient for its input 0: expected [")
    assert "(finite differences of its forward), got [-" in report.message
    assert report.message.endswith("Check the backward of SigmoidWrongSign.")
    assert report.checked == [("SumBackward0", True), ("MulBackward0", True), ("SigmoidWrongSignBackward", False)]


def test_the_message_shows_expected_and_got_in_plain_numbers():
    class SquareHalf(Square):
        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return x * grad

    x = _x(3.0, 2.0)
    with classroom.recording():
        y = SquareHalf.apply(x)
        loss = y.sum()
    report = classroom.check_graph(loss)
    assert str(report) == ("SquareHalfBackward (the node that makes `y`) returns the wrong gradient for its "
                           "input 0: expected [6.0, 4.0] (finite differences of its forward), got [3.0, 2.0]. "
                           "Check the backward of SquareHalf.")
    np.testing.assert_allclose(report.expected, [6.0, 4.0], rtol=1e-8)
    np.testing.assert_array_equal(report.got, [3.0, 2.0])


def test_a_missing_broadcast_reduction_is_caught_with_the_shape_message():
    x = minigrad.tensor(np.arange(6.0).reshape(2, 3), dtype=minigrad.float64, requires_grad=True)
    b = _x(0.1, 0.2, 0.3)
    with classroom.recording():
        z = AddBiasNoReduction.apply(x, b)
        loss = (z * z).sum()
    report = classroom.check_graph(loss)
    assert not report.ok
    assert report.first_wrong is z.grad_fn and report.input_index == 1
    assert ("AddBiasNoReductionBackward (the node that makes `z`) returns a gradient of shape (2, 3) for input 1 "
            "of shape (3,): a broadcast input's gradient must be summed back to its shape") in report.message
    assert report.got.shape == (2, 3) and report.expected.shape == (3,)
    np.testing.assert_allclose(report.expected, report.got.sum(0), rtol=1e-6)  # summed, it would be right
    # The engine (like PyTorch's) would sum it for you; a teacher may allow that.
    assert classroom.check_graph(loss, strict_shapes=False).ok


def test_a_wrong_backward_deep_in_a_chain_is_named_not_its_neighbours():
    minigrad.manual_seed(1)
    w = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    x = minigrad.randn(2, 3, dtype=minigrad.float64)
    b = minigrad.randn(4, dtype=minigrad.float64, requires_grad=True)
    with classroom.recording():
        h = AddBias.apply(x @ w, b)       # custom, right
        a = Sigmoid.apply(h)              # custom, right
        c = CubeWrong.apply(a * 2 - 0.5)  # custom, WRONG
        d = Square.apply(c.tanh())        # custom, right
        loss = (d.exp() * 0.1).mean()
    report = classroom.check_graph(loss)
    assert not report.ok
    assert report.first_wrong is c.grad_fn
    assert report.node_name == "CubeWrongBackward" and "(the node that makes `c`)" in report.message
    verdicts = dict(report.checked)
    assert verdicts.pop("CubeWrongBackward") is False
    assert all(verdicts.values()) and {"SquareBackward", "TanhBackward0", "SigmoidBackward",
                                       "AddBiasBackward", "MmBackward0", "SubBackward0"} <= set(verdicts)
    assert [f.node for f in report.findings] == [c.grad_fn]  # nothing else is blamed
    # Checked closest to the loss first, as the engine runs.
    names = [name for name, _ in report.checked]
    assert names.index("SquareBackward") < names.index("CubeWrongBackward") < names.index("SigmoidBackward")


def test_the_first_wrong_node_is_the_one_closest_to_the_loss():
    x = _x(0.2, 0.4)
    with classroom.recording():
        inner = CubeWrong.apply(x)
        outer = SigmoidWrongSign.apply(inner)
        loss = outer.sum()
    report = classroom.check_graph(loss)
    assert report.first_wrong is outer.grad_fn
    assert [f.node for f in report.findings] == [outer.grad_fn, inner.grad_fn]


def test_a_backward_that_ignores_grad_is_caught_by_the_random_incoming_gradient():
    x = _x(1.0, 2.0, 3.0)
    with classroom.recording():
        y = SquareIgnoresGrad.apply(x)
        loss = (y * minigrad.tensor([1.0, -2.0, 0.5], dtype=minigrad.float64)).sum()
    report = classroom.check_graph(loss)
    assert report.node_name == "SquareIgnoresGradBackward"
    assert "when the incoming gradient is [" in report.message
    assert "It is right when the incoming gradient is all ones, so look at how the backward uses `grad`." \
        in report.message
    np.testing.assert_allclose(report.got, [2.0, 4.0, 6.0])
    assert not np.allclose(report.expected, report.got)


def test_input_index_counts_the_arguments_of_forward():
    x = _x(1.0, 2.0)
    with classroom.recording():
        loss = Scale.apply(3.0, x, shift=1.0).sum()
    report = classroom.check_graph(loss)
    assert report.node_name == "ScaleBackward" and report.input_index == 1
    np.testing.assert_allclose(report.expected, [3.0, 3.0], rtol=1e-8)
    np.testing.assert_allclose(report.got, [4.0, 4.0])


def test_a_students_own_node_subclass_is_checked_too():
    from minigrad.autograd.graph import Node

    class Mul3(Node):
        """z = x * y        (the student's grad_y has the wrong factor)"""

        saves = ("self", "other")

        def forward(self, x, y):
            return x * y

        def backward(self, grad):
            x, y = self.saved_tensors
            return grad * y, grad * y

    x, y = _x(1.0, 2.0), _x(3.0, 5.0)
    with classroom.recording():
        z = Mul3.apply(x, y)
        loss = z.sum()
    report = classroom.check_graph(loss)
    assert report.first_wrong is z.grad_fn and report.node_name == "Mul3Backward0"
    assert report.input_index == 1
    np.testing.assert_allclose(report.expected, [1.0, 2.0], rtol=1e-8)


@pytest.mark.parametrize("bug, words", [
    ("count", "returns 2 gradients, but its forward takes 1 input: return one gradient per input"),
    ("raises", "raised ValueError when its backward ran: no idea"),
    ("none", "returns None (no gradient) for its input 0"),
    ("numpy", "returns a NumPy array for its input 0; backward must return minigrad Tensors"),
])
def test_broken_backwards_get_plain_messages_not_crashes(bug, words):
    class Broken(Square):
        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            if bug == "count":
                return grad, grad
            if bug == "raises":
                raise ValueError("no idea")
            if bug == "none":
                return None
            return np.ones(2)

    x = _x(1.0, 2.0)
    with classroom.recording():
        loss = Broken.apply(x).sum()
    report = classroom.check_graph(loss)
    assert not report.ok and report.node_name == "BrokenBackward"
    assert words in report.message


def test_a_freed_graph_says_to_check_before_backward():
    x = _x(1.0, 2.0)
    with classroom.recording():
        loss = Square.apply(x).sum()
    loss.backward()
    report = classroom.check_graph(loss)
    assert not report.ok and report.node_name == "SquareBackward"
    assert "retain_graph=True" in report.message


def test_float32_graphs_are_checked_in_float64():
    x = minigrad.tensor([0.3, -0.7, 1.2], requires_grad=True)
    assert x.dtype == minigrad.float32
    with classroom.recording():
        loss = Sigmoid.apply(Cube.apply(x)).sum()
    assert classroom.check_graph(loss).ok
    with classroom.recording():
        loss = Sigmoid.apply(CubeWrong.apply(x)).sum()
    assert classroom.check_graph(loss).node_name == "CubeWrongBackward"


def test_reports_repeat_exactly_and_names_can_be_given():
    x = _x(1.0, 2.0, 3.0)
    with classroom.recording():
        out = SquareIgnoresGrad.apply(x)
        loss = (out * _x(0.5, 1.5, -1.0).detach()).sum()
    first = classroom.check_graph(loss, names={"hidden": out})
    second = classroom.check_graph(loss, names={"hidden": out})
    assert first.message == second.message
    assert "(the node that makes `hidden`)" in first.message


# --- the picture ----------------------------------------------------------------------------
def test_the_picture_marks_the_wrong_node_failed():
    x = _x(0.5, -1.0)
    with classroom.recording():
        y = SigmoidWrongSign.apply(x)
        loss = (y * 3).sum()
    report = classroom.check_graph(loss)
    dot = report.picture().source
    failed = [line for line in dot.splitlines() if 'class="op failed"' in line]
    assert len(failed) == 1 and "SigmoidWrongSignBackward" in failed[0]
    assert "makes y" in failed[0]
    assert "returns the wrong gradient for its input 0" in dot.replace("\\n", " ")  # the title, wrapped
    assert 'class="leaf"' in dot and "the backward failed at this node" in dot  # the legend row


def test_the_picture_takes_a_render_time_limit_like_viz_draw():
    x = _x(0.5, -1.0)
    with classroom.recording():
        loss = Square.apply(x).sum()
    report = classroom.check_graph(loss)
    assert report.picture(timeout=7).timeout == 7
    with pytest.raises(ValueError, match="positive number of seconds"):
        report.picture(timeout=0)  # refused when the picture is made, as viz.draw refuses it


def test_a_passing_picture_has_no_failed_node():
    x = _x(0.5, -1.0)
    with classroom.recording():
        loss = Square.apply(x).sum()
    dot = classroom.check_graph(loss).picture().source
    assert "failed" not in dot and "All 2 nodes pass the gradient check." in dot


# --- compare_grads: a student's engine --------------------------------------------------------
def _engine(loss, accumulate=True):
    """A student's backward(loss): topological order, a dict of gradients, node.backward."""
    order, seen, stack = [], set(), [(loss.grad_fn, False)]
    while stack:  # iterative post-order DFS
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        stack.extend((child, False) for child, _ in node.next_functions if child is not None)
    grads = {loss.grad_fn: minigrad.ones_like(loss)}
    for node in reversed(order):
        grad = grads.pop(node, None)
        if grad is None:
            continue
        if isinstance(node, AccumulateGrad):
            leaf = node.variable
            leaf.grad = grad if (leaf.grad is None or not accumulate) else leaf.grad + grad
            continue
        outs = node.backward(grad)
        outs = outs if isinstance(outs, tuple) else (outs,)
        for (child, _), g in zip(node.next_functions, outs):
            if child is None or g is None:
                continue
            if accumulate and child in grads:
                grads[child] = grads[child] + g
            else:
                grads[child] = g  # the bug when accumulate is False: overwrite


def _overwriting_engine(loss):
    return _engine(loss, accumulate=False)


def _diamond():
    x = minigrad.tensor([0.5, -1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    w = minigrad.tensor([1.5, 0.5, -0.25], dtype=minigrad.float64, requires_grad=True)
    h = x * w                   # h feeds two paths: they meet at h's node
    loss = (h.sin() + h.exp()).sum()
    return {"x": x, "w": w, "h": h, "loss": loss}


def test_compare_grads_passes_a_correct_engine():
    report = classroom.compare_grads(_engine, _diamond)
    assert report.ok, report.message
    assert report.checked == [("x", True), ("w", True)]
    assert report.first_wrong is None and report.leaf_name is None


def test_compare_grads_catches_an_engine_that_overwrites_instead_of_adding():
    report = classroom.compare_grads(_overwriting_engine, _diamond)
    assert not report.ok
    assert report.checked == [("x", False), ("w", False)]
    assert report.leaf_name == "x"
    x = np.array([0.5, -1.0, 2.0])
    w = np.array([1.5, 0.5, -0.25])
    np.testing.assert_allclose(report.expected, (np.cos(x * w) + np.exp(x * w)) * w)
    assert not np.allclose(report.got, report.expected)
    # The node where the two paths meet is named: the one that makes h.
    assert report.node_name == "MulBackward0" and report.meeting
    assert report.first_wrong.name() == "MulBackward0"
    assert "`x.grad` should be [" in report.message
    assert "MulBackward0 (the node that makes `h`) gets gradients from 2 places" in report.message
    assert "add them up instead of overwriting" in report.message
    failed = [line for line in report.picture().source.splitlines() if 'class="op failed"' in line]
    assert len(failed) == 1 and "MulBackward0" in failed[0]


def test_compare_grads_names_a_leaf_used_twice():
    def build():
        x = minigrad.tensor([1.0, 3.0], dtype=minigrad.float64, requires_grad=True)
        return {"x": x, "loss": (x * x.exp()).sum()}

    report = classroom.compare_grads(_overwriting_engine, build)
    assert report.leaf_name == "x" and report.meeting
    assert isinstance(report.first_wrong, AccumulateGrad)
    assert "`x` gets gradients from 2 places (MulBackward0 and ExpBackward0), so its .grad should be their sum" in report.message


def test_compare_grads_reports_an_engine_that_raises():
    def crashing(loss):
        raise KeyError("grad_fn")

    report = classroom.compare_grads(crashing, _diamond)
    assert not report.ok and isinstance(report.error, KeyError)
    assert report.message.startswith("Your backward raised KeyError")


def test_compare_grads_refuses_a_builder_that_is_not_repeatable():
    def build():
        x = minigrad.randn(3, dtype=minigrad.float64, requires_grad=True)
        return {"x": x, "loss": (x * 2).sum()}

    with pytest.raises(ValueError, match="seed"):
        classroom.compare_grads(_engine, build)


def test_compare_grads_finds_where_paths_meet_even_without_watching_backward():
    def unwatched(loss):  # calls backward through the class, so the per-node watch sees nothing
        original = {}
        for node in _walk_nodes(loss):
            original[node] = node.__dict__.pop("backward", None)
        try:
            _engine(loss, accumulate=False)
        finally:
            for node, backward in original.items():
                if backward is not None:
                    node.backward = backward

    report = classroom.compare_grads(unwatched, _diamond)
    assert not report.ok and report.leaf_name == "x" and report.meeting
    assert report.node_name == "MulBackward0"
    assert "Gradients from 2 paths meet at MulBackward0 (the node that makes `h`)" in report.message


def _walk_nodes(loss):
    seen, stack = set(), [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            stack.extend(child for child, _ in node.next_functions if child is not None)
    return seen


class SortWithIndices(Function):
    """Two outputs: the sorted values (differentiable) and the indices (not)."""

    @staticmethod
    def forward(ctx, x):
        order = np.argsort(x.detach().numpy())
        ctx.order = order
        indices = minigrad.tensor(order)
        ctx.mark_non_differentiable(indices)
        return x[minigrad.tensor(order)], indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        out = minigrad.zeros(len(ctx.order), dtype=grad.dtype)
        out[minigrad.tensor(ctx.order)] = grad
        return out


class SinCos(Function):
    """Two differentiable outputs; the student's cos part has the wrong sign."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, grad_sin, grad_cos):
        (x,) = ctx.saved_tensors
        return grad_sin * x.cos() + grad_cos * x.sin()  # the bug: d cos = -sin


def test_functions_with_several_outputs_are_checked_on_all_differentiable_outputs():
    x = _x(0.3, -1.2, 0.8)
    with classroom.recording():
        values, indices = SortWithIndices.apply(x)
        loss = (values * _x(1.0, 2.0, 3.0).detach()).sum() + indices.sum()
    assert classroom.check_graph(loss).ok
    with classroom.recording():
        s, c = SinCos.apply(x)
        loss = (s * 2 + c * 3).sum()
    report = classroom.check_graph(loss)
    assert report.node_name == "SinCosBackward" and report.input_index == 0
    x_ = np.array([0.3, -1.2, 0.8])
    np.testing.assert_allclose(report.expected, np.cos(x_) - np.sin(x_), rtol=1e-6)


def test_a_forward_that_cannot_run_again_gets_a_plain_message():
    calls = []

    class Once(Square):
        @staticmethod
        def forward(ctx, x):
            if calls:
                raise RuntimeError("I only run once.")
            calls.append(1)
            return Square.forward(ctx, x)

    x = _x(1.0, 2.0)
    with classroom.recording():
        loss = Once.apply(x).sum()
    report = classroom.check_graph(loss)
    assert report.node_name == "OnceBackward"
    assert report.message == ("Running the forward of Once again on a copy of its inputs raised RuntimeError: "
                              "I only run once. Check the forward of Once.")
