"""viz draws a real PyTorch graph as it draws minigrad's: the same program gives the same picture.

Each builder below is a graph a notebook draws, written once for either
library (``lib`` is ``minigrad`` or ``torch``). The picture data of the two
runs must agree: op names in walk order, edges, leaves and their states,
saved tensors with their names, shapes and states (kept, freed, changed in
place), values and gradients. PyTorch is the oracle; where minigrad differs
the test fails, whichever side is wrong.
"""

import re
import warnings

import pytest

import minigrad
import viz

torch = pytest.importorskip("torch")


def canonical(data):
    """Picture data without ids: boxes (saved tensors apart, per op, as a set), edges by position."""
    boxes = [n for n in data.nodes if n.kind != "saved"]
    position = {n.id: k for k, n in enumerate(boxes)}
    rows = [(n.kind, n.label, n.state, n.shape, n.dtype, n.name, n.value, n.grad) for n in boxes]
    edges = sorted((position[e.source], position[e.target], e.kind) for e in data.edges if e.kind != "saved")
    saved = {}
    for edge in data.edges:
        if edge.kind == "saved":
            node = data.node(edge.source)
            saved.setdefault(position[edge.target], set()).add(
                (node.label, node.state, node.shape, node.name, node.value, node.version if node.state ==
                 "modified" else None))
    return rows, edges, saved


def same_picture(build, **options):
    """Trace what ``build`` makes under each library; returns both canonical forms."""
    found = []
    for lib in (minigrad, torch):
        roots, names = build(lib)
        found.append(canonical(viz.trace(*roots, names=names, **options)))
    return found


# --- notebook graphs, for either library ----------------------------------------------------


def nb01_forward(lib):  # 01: y = tanh(w * x + b), before backward
    w = lib.tensor([0.5, -1.0], requires_grad=True)
    x = lib.tensor([2.0, 3.0])
    b = lib.tensor(0.1, requires_grad=True)
    z = w * x + b
    y = z.tanh()
    return [y], {"w": w, "x": x, "b": b, "z": z, "y": y}


def nb02_after_backward(lib):  # 02: f = tanh(w x + b)^2, after f.backward()
    w = lib.tensor(0.5, requires_grad=True)
    x = lib.tensor(1.5, requires_grad=True)
    b = lib.tensor(-0.25, requires_grad=True)
    f = (w * x + b).tanh() ** 2
    f.backward()
    return [f], {"w": w, "x": x, "b": b, "f": f}


def nb03_shared_input(lib):  # 03: one input, two paths
    x = lib.tensor(0.5, requires_grad=True)
    a = x * 2
    loss = a.sin() * a.cos()
    return [loss], {"x": x, "a": a, "loss": loss}


def nb05_retained(lib):  # 05: backward(retain_graph=True) keeps the saved tensors
    x = lib.tensor(3.0, requires_grad=True)
    y = x * x + 4 * x
    y.backward(retain_graph=True)
    return [y], {"x": x, "y": y}


def nb06_freed(lib):  # 06: a plain backward frees them
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = lib.tensor([0.5, -1.0, 0.25], requires_grad=True)
    y = (x * w).tanh().sum()
    y.backward()
    return [y], {"x": x, "w": w, "y": y}


def nb07_create_graph(lib):  # 07: the derivative's own graph and the .grad cycle
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    loss = (x ** 3).sum()
    (g,) = lib.autograd.grad(loss, x, create_graph=True)
    return [loss, g], {"x": x, "loss": loss, "g": g}


def nb09_two_roots(lib):  # 09: draw(a, b)
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = (x * x).sum()
    b = x.exp()
    return [a, b], {"x": x, "a": a, "b": b}


def nb10_detach(lib):  # 10: x * x.detach()
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x.detach()).sum()
    return [loss], {"x": x, "loss": loss}


def nb11_power(lib):  # 11: (a * b) ** 2
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(5.0, requires_grad=True)
    y = a * b
    loss = y ** 2
    return [loss], {"a": a, "b": b, "y": y, "loss": loss}


def nb12_modified(lib):  # 12: a saved output changed in place: backward will fail
    x = lib.tensor([0.0, 1.0, 2.0], requires_grad=True)
    y = x.exp()
    loss = y.sum()
    y.add_(1)
    return [loss], {"x": x, "y": y, "loss": loss}


def nb16_matmul(lib):  # 16: a layer, from scalars to tensors
    X = lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    W = lib.tensor([[0.1, -0.2], [0.3, 0.4]], requires_grad=True)
    b = lib.tensor([0.5, -0.5], requires_grad=True)
    Y = X @ W + b
    return [Y.sum()], {"X": X, "W": W, "b": b, "Y": Y}


NOTEBOOK_GRAPHS = [nb01_forward, nb02_after_backward, nb03_shared_input, nb05_retained, nb06_freed,
                   nb07_create_graph, nb09_two_roots, nb10_detach,
                   nb11_power, nb12_modified, nb16_matmul]


@pytest.mark.parametrize("build", NOTEBOOK_GRAPHS, ids=lambda f: getattr(f, "__name__", None))
def test_the_same_program_gives_the_same_picture(build):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # create_graph's reference-cycle warning
        ours, theirs = same_picture(build, values=True)
    assert ours[0] == theirs[0]  # boxes: kinds, names, states, shapes, values, gradients
    assert ours[1] == theirs[1]  # gradient edges
    assert ours[2] == theirs[2]  # saved tensors, per op


def test_draw_takes_a_torch_tensor_and_names_it_from_the_callers_variables():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    loss = h.sum()
    picture = viz.draw(loss)
    assert picture.summary == "<minigrad graph: 5 nodes, 4 edges>"
    data = viz.trace(loss)
    assert [(n.kind, n.label, n.name) for n in data.nodes] == [
        ("output", "loss", "loss"), ("op", "SumBackward0", "loss"), ("op", "MulBackward0", "h"),
        ("saved", "_saved_other", None), ("leaf", "x", "x")]


def test_freed_and_modified_are_read_as_pytorch_reports_them():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    s = a.sin().sum()
    a.mul_(2)
    (saved,) = [n for n in viz.trace(s, values=True).by_kind("saved") if n.label == "_saved_self"]
    assert (saved.state, saved.version, saved.value) == ("modified", "saved at v0, now v1", "[2, 4]")
    y = (x * x).sum()
    y.backward()
    assert {n.state for n in viz.trace(y).by_kind("saved")} == {"freed"}


def test_parameters_of_a_torch_module_are_params():
    torch.manual_seed(0)
    model = torch.nn.Linear(2, 1)
    loss = model(torch.ones(3, 2)).sum()
    data = viz.trace(loss, names=model)
    assert sorted(n.label for n in data.by_kind("param")) == ["bias", "weight"]


def test_a_deep_torch_graph_draws_collapsed_without_recursion():
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    data = viz.trace(y.sum(), max_nodes=50, saved=False)
    (box,) = data.by_kind("collapsed")
    # 100,000 MulBackward0 + SumBackward0 + x's AccumulateGrad; 50 drawn, the rest in the box.
    assert box.detail["count"] == 100_002 - 50
    assert len(data.by_kind("op")) == 50


def test_a_recorded_pytorch_backward_gives_the_same_gradients_on_the_picture():
    pictures = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, -1.0], requires_grad=True)
        loss = (x * w).tanh().sum()
        with viz.record(loss) as run:  # minigrad ignores the root; PyTorch needs it for its hooks
            loss.backward()
        data = viz.trace(loss, run=run)
        pictures.append(([(n.label, n.state, n.grad) for n in data.nodes],
                         [(e.source, e.target, e.grad) for e in data.edges]))
    assert pictures[0] == pictures[1]
    assert any(grad is not None for _, _, grad in pictures[1][1])  # the comparison is not of empty labels


# --- stepping through PyTorch's own backward ---------------------------------------------------


def engine_inside(lib):  # notebook 3: loss = sin(2x) cos(2x), one leaf reached through two paths
    x = lib.tensor(0.5, requires_grad=True)
    a = x * 2
    loss = a.sin() * a.cos()
    return loss, {}


def shared_and_accumulating(lib):  # a vector leaf used twice, whose .grad already holds a first backward
    x = lib.tensor([1.0, -2.0, 0.5], requires_grad=True)
    w = lib.tensor([0.5, 1.5, -1.0], requires_grad=True)
    (x * w).sum().backward()
    loss = ((x * w).tanh() * x).sum()
    return loss, {}


def into_one_leaf(lib):  # backward(inputs=[w]): only the nodes on a path to w run
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, -1.0], requires_grad=True)
    loss = (x.exp() * w + x).sum()
    return loss, {"inputs": [w]}


def into_a_non_leaf(lib):  # backward(inputs=[h]): h's gradient is taken at its node, x gets none
    x = lib.tensor([1.0, -2.0], requires_grad=True)
    h = x.exp()
    loss = (h * h).sum()
    return loss, {"inputs": [h]}


def into_a_non_leaf_and_below(lib):  # inputs=[h, x]: h's node runs on, since x is wanted below it
    x = lib.tensor([1.0, -2.0], requires_grad=True)
    h = x.exp()
    loss = (h * h).sum()
    return loss, {"inputs": [h, x]}


def with_retained(lib):  # h.retain_grad(): backward() also adds into h.grad, at the node that made h
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([0.5, -1.0], requires_grad=True)
    h = x * w
    h.retain_grad()
    loss = (h.exp() * h).sum()
    return loss, {}


def numbers(tensors):
    """Gradients as nested lists (None where no gradient flows), from minigrad's or PyTorch's tensors."""
    return [None if t is None else (t._data if isinstance(t, minigrad.Tensor) else t.detach().numpy()).tolist()
            for t in tensors]


def same_numbers(a, b):
    """Two lists of gradients (or of .grad arrays) agree: None in the same places, values to float32 precision."""
    import numpy as np

    return len(a) == len(b) and all((x is None) == (y is None) and (x is None or np.allclose(x, y, rtol=1e-5))
                                    for x, y in zip(a, b))


def stepped(program, **options):
    """A Stepper over ``program`` in minigrad and in PyTorch: ``[(steps, accumulations, frames, texts)]``."""
    found = []
    for lib in (minigrad, torch):
        loss, more = program(lib)
        stepper = viz.Stepper(loss, **more, **options)
        frames = [[(n.kind, n.label, n.state, n.grad) for n in frame.nodes] + [(e.source, e.target, e.grad)
                                                                                for e in frame.edges]
                  for frame in stepper.frames]
        found.append((stepper.steps, stepper.accumulations, frames, stepper.texts))
    return found


@pytest.mark.parametrize("program", [engine_inside, shared_and_accumulating, into_one_leaf, with_retained,
                                     into_a_non_leaf, into_a_non_leaf_and_below])
@pytest.mark.parametrize("retain_graph", [False, True])
def test_a_pytorch_backward_steps_as_the_same_program_in_minigrad(program, retain_graph):
    (mini, mini_records, mini_frames, mini_texts), (real, records, frames, texts) = stepped(
        program, retain_graph=retain_graph)
    assert [s.node.name() for s in real] == [s.node.name() for s in mini]  # PyTorch's order is minigrad's
    for ours, theirs in zip(mini, real):
        assert same_numbers(numbers(ours.grad_outputs), numbers(theirs.grad_outputs)), ours
        assert same_numbers(numbers(ours.grad_inputs), numbers(theirs.grad_inputs)), ours
        assert sorted(ours.released) == sorted(theirs.released), ours  # what retain_graph=False frees there
    for ours, theirs in zip(mini_records, records):  # each .grad before and after
        assert [r.label for r in ours] == [r.label for r in theirs]
        assert same_numbers([r.before for r in ours], [r.before for r in theirs])
        assert same_numbers([r.after for r in ours], [r.after for r in theirs])
    assert any(mini_records) and (retain_graph or any(s.released for s in real))  # not a comparison of nothing
    assert frames == mini_frames and texts == mini_texts  # the same pictures and panels, frame by frame


def test_a_retain_grad_tensor_of_a_pytorch_graph_shows_what_backward_adds_to_it():
    import math

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    h = x * w
    h.retain_grad()
    loss = (h.exp() * h).sum()
    stepper = viz.Stepper(loss)
    (record,) = [r for records in stepper.accumulations for r in records if r.tensor is h]
    assert record.label == "h" and record.before is None and h.grad is None
    loss.backward()
    expected = [(1 + v) * math.exp(v) for v in (0.5, -2.0)]  # d loss/d h = (1 + h) e^h, by hand
    assert record.after.tolist() == pytest.approx(expected)
    assert h.grad.tolist() == pytest.approx(record.after.tolist())  # what backward() wrote


def test_a_non_leaf_input_of_a_pytorch_graph_is_shown_as_backward_inputs_does_it():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    h = x.exp()
    loss = (h * h).sum()
    ran = []
    h.grad_fn.register_hook(lambda grad_inputs, grad_outputs: ran.append(grad_inputs))
    stepper = viz.Stepper(loss, inputs=[h])
    assert ran == [] and x.grad is None  # the replay took the gradient without running h's node
    last = stepper.steps[-1]
    assert last.node is h.grad_fn and last.grad_inputs == (None,) and last.released == ("result",)
    (record,) = stepper.accumulations[-1]
    loss.backward(inputs=[h])  # what the stepper showed, for real
    assert ran == [(None,)] and x.grad is None
    assert record.after.tolist() == pytest.approx(h.grad.tolist())
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        h.grad_fn._saved_result


def test_a_pytorch_leaf_as_the_root_is_one_step_as_in_minigrad():
    def leaf_root(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.grad = lib.tensor([1.0, 1.0])
        return x, {"gradient": lib.tensor([3.0, 4.0])}

    (mini, mini_records, mini_frames, mini_texts), (real, records, frames, texts) = stepped(leaf_root)
    assert [s.node.name() for s in real] == [s.node.name() for s in mini] == ["torch::autograd::AccumulateGrad"]
    (record,) = records[0]
    assert record.before.tolist() == [1.0, 1.0] and record.after.tolist() == [4.0, 5.0]  # .grad + gradient
    assert record.tensor.grad.tolist() == [1.0, 1.0]  # only shown
    assert frames == mini_frames and texts == mini_texts


def test_the_steps_are_pytorchs_own():
    """By hand for loss = sin(2x) cos(2x) at x = 0.5: PyTorch's order and the gradients it sent."""
    import math

    loss, _ = engine_inside(torch)
    stepper = viz.Stepper(loss)
    assert [s.node.name() for s in stepper.steps] == [
        "MulBackward0", "CosBackward0", "SinBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"]
    s, c = math.sin(1.0), math.cos(1.0)
    mul, cos, sin, double, leaf = stepper.steps
    assert numbers(mul.grad_inputs) == pytest.approx([c, s])  # d(b c)/db = c, d(b c)/dc = b
    assert numbers(cos.grad_inputs) == pytest.approx([-s * s])  # s * -sin(1)
    assert numbers(sin.grad_inputs) == pytest.approx([c * c])
    assert numbers(double.grad_outputs) == pytest.approx([c * c - s * s])
    assert numbers(leaf.grad_outputs) == pytest.approx([2 * (c * c - s * s)])
    assert stepper.accumulations[4][0].after == pytest.approx(2 * (c * c - s * s))


def test_stepping_a_pytorch_backward_changes_none_of_its_tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    w.grad = before = torch.tensor([10.0, 20.0])
    h = x * w
    h.retain_grad()
    g = h.exp()
    g.retain_grad()
    g.grad = kept = torch.tensor([7.0, 7.0])
    loss = g.sum()
    stepper = viz.Stepper(loss)  # retain_graph=False: shown as freed, never freed
    assert len(stepper.steps) == 5 and any(step.released for step in stepper.steps)
    assert x.grad is None and w.grad is before and before.tolist() == [10.0, 20.0]
    assert h.grad is None and g.grad is kept and kept.tolist() == [7.0, 7.0]  # retain_grad() tensors too
    loss.backward()  # the graph was kept, and the stepper's hooks are gone
    assert len(stepper.steps) == 5
    assert x.grad.tolist() == pytest.approx((w.detach() * (x * w).detach().exp()).tolist())


def test_a_pytorch_stepper_raises_what_backward_raises():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    loss.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        viz.Stepper(loss)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        viz.Stepper(x * 2)


# --- a failing backward: the node it failed at ----------------------------------------------


def second_backward(lib):
    """A second backward through a graph the first one freed: the first node needing a saved tensor fails."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    return y, lambda: y.backward()


def changed_in_place(lib):
    """A tensor saved by sin, changed in place before the backward: sin's node fails."""
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    loss = (b.sin() * 3).sum()
    b.add_(1)
    return loss, lambda: loss.backward()


@pytest.mark.parametrize("program", [second_backward, changed_in_place])
def test_a_failing_pytorch_backward_names_the_node_minigrad_names(program):
    found = []
    for lib in (minigrad, torch):
        loss, backward = program(lib)
        with viz.record(loss, catch=True) as run:
            backward()
        assert isinstance(run.error, RuntimeError) and run.failed_node is not None, lib.__name__
        data = viz.trace(loss, run=run)
        found.append((run.failed_node.name(), [(n.label, n.state) for n in data.nodes if n.kind != "saved"]))
        assert [n.label for n in data.nodes if n.state == "failed"] == [run.failed_node.name()]
    assert found[0] == found[1]
    assert found[1][0] == {second_backward: "MulBackward0", changed_in_place: "SinBackward0"}[program]


def test_draw_backward_of_a_pytorch_graph_marks_the_failed_node():
    loss, _ = changed_in_place(torch)
    picture = viz.draw_backward(loss)
    assert isinstance(picture.error, RuntimeError) and "modified by an inplace operation" in str(picture.error)
    assert re.findall(r'label="(\w+)\\n[^"]*failed here"', picture.source) == ["SinBackward0"]


def test_a_pytorch_backward_that_ends_clears_the_running_node():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    with viz.record(loss, catch=True) as run:
        loss.backward()
        raise ValueError("after the backward")  # not the backward's error: no node is to blame
    assert isinstance(run.error, ValueError) and run.failed_node is None
