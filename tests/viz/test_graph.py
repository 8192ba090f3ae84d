"""Tests for viz.trace: the graph as plain data (nodes, edges, kinds, states, names).

Every expectation here is worked out by hand from a graph of a few nodes; the
comment above each one says how. How ``trace`` numbers nodes (it is what
makes pictures stable run to run):

* the root tensors first (``n0``, ...), then a breadth-first walk from their
  ``grad_fn`` in ``next_functions`` order;
* an op's saved tensors get the ids right after the op, before its children;
* a leaf is reached through its ``AccumulateGrad`` and drawn once, however
  many edges lead to it.
"""

import re
import sys

import pytest

import minigrad
import viz
from minigrad import nn


@pytest.fixture(autouse=True)
def _no_scopes_left_behind():
    viz.forget_scopes()
    yield
    viz.forget_scopes()


def rows(data):
    """``(id, kind, label, state)`` of every node, in id order."""
    return [(n.id, n.kind, n.label, n.state) for n in data.nodes]


def edge_rows(data):
    return [(e.source, e.target, e.kind) for e in data.edges]


def only(nodes):
    assert len(nodes) == 1, nodes
    return nodes[0]


def by_label(data, label):
    return only([n for n in data.nodes if n.label == label])


def collapsed_count(label):
    """The number a collapsed node's label says it stands for (``... 9,950 more ...``)."""
    numbers = [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", label.split("max_nodes")[0])]
    assert len(numbers) == 1, label
    return numbers[0]


# --- kinds, labels, walk order ---------------------------------------------------


def test_small_graph_kinds_labels_and_edges_in_walk_order():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    z = x * w
    y = z.sum()
    data = viz.trace(y)
    # y is the root (n0); its grad_fn SumBackward0 (n1) has one child, MulBackward0 (n2).
    # Mul saved both inputs (each is needed for the other's gradient): _saved_self,
    # _saved_other (n3, n4), then its children in next_functions order: x, w (n5, n6).
    assert rows(data) == [
        ("n0", "output", "y", ""),
        ("n1", "op", "SumBackward0", ""),
        ("n2", "op", "MulBackward0", ""),
        ("n3", "saved", "_saved_self", "saved"),
        ("n4", "saved", "_saved_other", "saved"),
        ("n5", "leaf", "x", ""),
        ("n6", "leaf", "w", ""),
    ]
    # Gradient edges point the way gradients flow: from the output down to the leaves.
    # Saved edges go from the saved tensor to the op that keeps it.
    assert edge_rows(data) == [
        ("n0", "n1", "grad"),
        ("n1", "n2", "grad"),
        ("n3", "n2", "saved"),
        ("n4", "n2", "saved"),
        ("n2", "n5", "grad"),
        ("n2", "n6", "grad"),
    ]
    assert data.summary() == "<minigrad graph: 7 nodes, 6 edges>"


def test_shapes_dtypes_and_versions_of_tensors():
    x = minigrad.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = (x * 2).sum()
    data = viz.trace(y)
    out, leaf = data.node("n0"), by_label(data, "x")
    assert (out.shape, out.dtype, out.version) == ("()", "float32", "0")
    assert (leaf.shape, leaf.dtype, leaf.version) == ("(1, 3)", "float32", "0")
    # x * 2 keeps only the constant 2 (the gradient of x needs it; nothing needs x).
    saved = only(data.by_kind("saved"))
    assert (saved.label, saved.shape) == ("_saved_other", "()")


def test_op_names_are_pytorchs_for_a_linear_layer():
    torch = pytest.importorskip("torch")
    minigrad.manual_seed(0)
    layer = nn.Linear(3, 2)
    out = layer(minigrad.randn(4, 3)).relu().sum()
    names = sorted(n.label for n in viz.trace(out).by_kind("op"))

    tlayer = torch.nn.Linear(3, 2)
    tout = tlayer(torch.randn(4, 3)).relu().sum()
    expected, stack, seen = [], [tout.grad_fn], set()
    while stack:  # every grad_fn node of PyTorch's graph except the leaves' sinks
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        if type(fn).__name__ != "AccumulateGrad":
            expected.append(fn.name())
        stack.extend(child for child, _ in fn.next_functions)
    assert names == sorted(expected) == ["AddmmBackward0", "ReluBackward0", "SumBackward0", "TBackward0"]


def test_each_leaf_is_drawn_once_however_many_edges_reach_it():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    data = viz.trace(y)
    # x * x: both of Mul's next_functions are x's AccumulateGrad: one node, two edges.
    leaf = only(data.by_kind("leaf"))
    mul = by_label(data, "MulBackward0")
    assert edge_rows(data).count((mul.id, leaf.id, "grad")) == 2


def test_the_accumulate_grad_sink_of_each_leaf_is_shown():
    # The issue asks for AccumulateGrad sinks in the picture, by PyTorch's name.
    # trace draws a leaf and its AccumulateGrad as one box, so the name should be
    # on that box (or on a node of its own next to it).
    from viz.dot import node_label

    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    data = viz.trace(y)
    leaf = by_label(data, "x")
    next_to_leaf = {e.source for e in data.edges if e.target == leaf.id} | {
        e.target for e in data.edges if e.source == leaf.id}
    texts = [node_label(leaf)] + [node_label(data.node(i)) for i in next_to_leaf]
    assert any("AccumulateGrad" in text for text in texts), texts


def test_a_tensor_without_a_graph_is_one_output_node():
    t = minigrad.tensor([1.0, 2.0])
    data = viz.trace(t * 2)
    assert rows(data) == [("n0", "output", "output", "")]
    assert data.edges == []


def test_values_and_grads_in_fixed_formats():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    data = viz.trace(y, values=True)
    # y = 1 + 4 = 5; dy/dx = 2x = [2, 4].
    assert data.node("n0").value == "5"
    leaf = by_label(data, "x")
    assert (leaf.value, leaf.grad) == ("[1, 2]", "[2, 4]")
    # The saved tensors were freed by backward: no value left to show.
    assert [(n.state, n.value) for n in data.by_kind("saved")] == [("freed", None), ("freed", None)]
    assert viz.trace(y, values=False, grads=False).node(leaf.id).grad is None
    assert viz.trace(y).node("n0").value is None  # values are off by default


def test_values_of_saved_tensors_while_they_are_kept():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    saved = only(viz.trace(y, values=True).by_kind("saved"))
    assert (saved.label, saved.value) == ("_saved_other", "3")


def test_saved_false_leaves_saved_tensors_out():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    data = viz.trace(y, saved=False)
    assert [n.kind for n in data.nodes] == ["output", "op", "op", "leaf"]
    assert all(e.kind == "grad" for e in data.edges)


# --- names -----------------------------------------------------------------------


def test_names_come_from_the_callers_variables():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    z = x * w
    loss = z.sum()
    data = viz.trace(loss)
    assert data.node("n0").label == "loss"
    # An op node is labelled by its PyTorch name; `name` is the variable holding its output.
    assert [(n.label, n.name) for n in data.by_kind("op")] == [("SumBackward0", "loss"), ("MulBackward0", "z")]
    # A saved input is named after the variable it is.
    assert [(n.label, n.name) for n in data.by_kind("saved")] == [("_saved_self", "x"), ("_saved_other", "w")]


def test_unassigned_and_underscore_variables_give_no_name():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    _hidden = x * 2  # Jupyter's _, __, _1 ... hold old outputs: never a name
    y = (_hidden + 1).sum()
    data = viz.trace(y)
    assert [(n.label, n.name) for n in data.by_kind("op")] == [
        ("SumBackward0", "y"), ("AddBackward0", None), ("MulBackward0", None)]


def test_names_from_notebook_globals():
    # A notebook cell runs with the notebook's variables as its globals.
    namespace = {"minigrad": minigrad, "viz": viz}
    exec(
        "a = minigrad.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = a.exp()\n"
        "total = b.sum()\n"
        "data = viz.trace(total)\n",
        namespace,
    )
    data = namespace["data"]
    assert data.node("n0").label == "total"
    assert [(n.label, n.name) for n in data.by_kind("op")] == [("SumBackward0", "total"), ("ExpBackward0", "b")]
    assert [n.label for n in data.by_kind("leaf")] == ["a"]


def test_a_loop_variable_does_not_rename_the_tensor_it_last_held():
    # Notebook 2's case: after the loop, `leaf` still points at b; b was bound first.
    namespace = {"minigrad": minigrad, "viz": viz}
    exec(
        "a = minigrad.tensor(2.0, requires_grad=True)\n"
        "b = minigrad.tensor(3.0, requires_grad=True)\n"
        "y = a * b\n"
        "for leaf in (a, b):\n"
        "    pass\n"
        "data = viz.trace(y)\n",
        namespace,
    )
    assert [n.label for n in namespace["data"].by_kind("leaf")] == ["a", "b"]


def test_a_functions_own_name_wins_over_the_modules():
    namespace = {"minigrad": minigrad, "viz": viz}
    exec(
        "outer = minigrad.tensor(2.0, requires_grad=True)\n"
        "def draw_it(t):\n"
        "    inner = t\n"
        "    return viz.trace((inner * 3).sum())\n"
        "data = draw_it(outer)\n",
        namespace,
    )
    # `t` and `inner` are both the function's; `t` was bound first (an argument).
    assert [n.label for n in namespace["data"].by_kind("leaf")] == ["t"]


def test_names_dict_overrides_variable_names():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = h.sum()
    data = viz.trace(y, names={"input": x, "hidden": h})
    assert by_label(data, "input").kind == "leaf"
    assert by_label(data, "MulBackward0").name == "hidden"
    assert not [n for n in data.nodes if n.label == "x"]


def test_parameters_named_from_a_module_have_dotted_names():
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    q = model(minigrad.randn(4, 3)).sum()
    data = viz.trace(q, names=model)
    # Two Linear layers at positions 0 and 2 of the Sequential: four parameters.
    params = sorted((n.label, n.shape) for n in data.by_kind("param"))
    assert params == [("0.bias", "(2,)"), ("0.weight", "(2, 3)"), ("2.bias", "(1,)"), ("2.weight", "(1, 2)")]
    assert data.by_kind("leaf") == []  # the input needs no grad: no leaf box for it


def test_a_module_in_the_callers_variables_names_its_parameters():
    minigrad.manual_seed(0)
    lin = nn.Linear(3, 2)
    out = lin(minigrad.randn(4, 3)).sum()
    data = viz.trace(out)
    assert sorted((n.kind, n.label) for n in data.by_kind("param")) == [
        ("param", "lin.bias"), ("param", "lin.weight")]


def test_parameters_of_a_module_passed_as_names_are_params():
    # names=layer names the parameters "weight" and "bias" (no dot: the layer is the
    # whole module). They are still a module's parameters, and the issue asks for
    # parameters "named from a dict or an nn.Module" to be drawn as parameters.
    minigrad.manual_seed(0)
    layer = nn.Linear(3, 2)
    out = layer(minigrad.randn(4, 3)).sum()
    data = viz.trace(out, names=layer)
    found = sorted((n.kind, n.label) for n in data.nodes if n.label in ("weight", "bias"))
    assert found == [("param", "bias"), ("param", "weight")]


# --- saved tensors: saved, freed, modified ------------------------------------------


def test_saved_tensors_are_freed_by_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).sum()
    assert [(n.label, n.state) for n in viz.trace(y).by_kind("saved")] == [
        ("_saved_self", "saved"), ("_saved_other", "saved")]
    y.backward()
    data = viz.trace(y)
    assert [(n.label, n.state) for n in data.by_kind("saved")] == [
        ("_saved_self", "freed"), ("_saved_other", "freed")]
    # A freed tensor has nothing left to describe.
    assert [(n.shape, n.name) for n in data.by_kind("saved")] == [(None, None), (None, None)]


def test_saved_tensors_stay_after_backward_with_retain_graph():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    saved = viz.trace(y).by_kind("saved")
    assert [(n.label, n.state, n.name, n.version) for n in saved] == [
        ("_saved_self", "saved", "x", "saved at v0, now v0"),
        ("_saved_other", "saved", "x", "saved at v0, now v0"),
    ]
    y.backward()  # the second backward may free them
    assert {n.state for n in viz.trace(y).by_kind("saved")} == {"freed"}


def test_freed_shows_only_the_tensors_that_were_saved():
    # x * 2 saves only the 2 (`_saved_other`): PyTorch's _saved_self is None here,
    # since no gradient of 2 is wanted. Backward frees that one tensor; the picture
    # should not grow a freed `_saved_self` that never existed.
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    assert [(n.label, n.state) for n in viz.trace(y).by_kind("saved")] == [("_saved_other", "saved")]
    y.backward()
    assert [(n.label, n.state) for n in viz.trace(y).by_kind("saved")] == [("_saved_other", "freed")]


def test_an_input_changed_in_place_after_it_was_saved_is_modified():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    b = a.sin()  # SinBackward0 saves its input a (version 0)
    s = b.sum()
    assert by_label(viz.trace(s), "SinBackward0") is not None
    a.mul_(2)  # a is now at version 1
    data = viz.trace(s)
    sin = by_label(data, "SinBackward0")
    [saved] = [data.node(e.source) for e in data.edges if e.kind == "saved" and e.target == sin.id]
    assert (saved.label, saved.name, saved.state, saved.version) == (
        "_saved_self", "a", "modified", "saved at v0, now v1")
    # The constant 1 that the first Mul saved was not touched.
    assert [n.state for n in data.by_kind("saved") if n is not saved] == ["saved"]


def test_an_output_changed_in_place_after_it_was_saved_is_modified():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()  # ExpBackward0 saves its own result
    y.add_(1)  # y is now version 1, and its grad_fn the in-place AddBackward0
    data = viz.trace(y)
    assert rows(data) == [
        ("n0", "output", "y", ""),
        ("n1", "op", "AddBackward0", ""),
        ("n2", "op", "ExpBackward0", ""),
        ("n3", "saved", "_saved_result", "modified"),
        ("n4", "leaf", "x", ""),
    ]
    assert data.node("n0").version == "1"
    assert data.node("n3").version == "saved at v0, now v1"


def test_tensors_kept_by_saved_tensors_hooks_are_drawn_without_running_the_hooks():
    unpacked = []
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with minigrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: unpacked.append(t) or t):
        y = x.exp() * x  # ExpBackward0 saves its result, MulBackward0 both inputs: all through the hooks
    data = viz.trace(y)
    saved = [node for node in data.nodes if node.kind == "saved"]
    assert sorted(node.label for node in saved) == ["_saved_other", "_saved_result", "_saved_self"]
    assert {(node.state, node.version) for node in saved} == {("saved", "packed by saved_tensors_hooks")}
    assert unpacked == []  # drawing did not call the unpack hook
    y.sum().backward()  # and the pass still unpacks them
    assert len(unpacked) == 3


def test_a_recorded_failing_backward_marks_the_node_that_was_running():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    s = a.sin().sum()
    a.mul_(2)
    with viz.record(catch=True) as run:
        s.backward()
    assert isinstance(run.error, RuntimeError)
    data = viz.trace(s, run=run)
    # SumBackward0 ran; SinBackward0 raised when it unpacked a; the Mul below was never reached.
    assert [(n.label, n.state) for n in data.by_kind("op")] == [
        ("SumBackward0", ""), ("SinBackward0", "failed"), ("MulBackward0", "skipped")]
    assert data.title.startswith("RuntimeError: one of the variables needed for gradient computation "
                                 "has been modified by an inplace operation")


# --- accumulated leaves, inputs=, create_graph ---------------------------------------


def test_leaves_whose_grad_holds_a_value_are_accumulated():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).sum()
    assert [(n.label, n.state, n.grad) for n in viz.trace(y).by_kind("leaf")] == [
        ("x", "", None), ("w", "", None)]
    y.backward()
    # dy/dx = w = [3, 4], dy/dw = x = [1, 2].
    assert [(n.label, n.state, n.grad) for n in viz.trace(y).by_kind("leaf")] == [
        ("x", "accumulated", "[3, 4]"), ("w", "accumulated", "[1, 2]")]


def test_inputs_leaves_out_the_branch_to_the_other_leaf():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    h = x * 2
    loss = (h + w.exp()).sum()
    with viz.record() as run:
        loss.backward(inputs=[x])
    data = viz.trace(loss, run=run)
    # Only the path loss -> Sum -> Add -> Mul -> x runs. ExpBackward0 leads only to w,
    # so the engine never reaches it: skipped, and its saved result is still kept.
    assert [(n.label, n.state) for n in data.by_kind("op")] == [
        ("SumBackward0", ""), ("AddBackward0", ""), ("MulBackward0", ""), ("ExpBackward0", "skipped")]
    exp = by_label(data, "ExpBackward0")
    [kept] = [data.node(e.source) for e in data.edges if e.kind == "saved" and e.target == exp.id]
    assert (kept.label, kept.state) == ("_saved_result", "saved")
    assert by_label(data, "x").state == "accumulated"
    assert w.grad is None


def test_inputs_marks_the_leaf_it_left_out():
    # Same graph: w's AccumulateGrad was never reached, so by graph.py's own
    # definition ("skipped: nodes it never reached") w is skipped, which is how
    # the picture says which nodes inputs= left out.
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * 2 + w.exp()).sum()
    with viz.record() as run:
        loss.backward(inputs=[x])
    data = viz.trace(loss, run=run)
    assert by_label(data, "w").state == "skipped"


def test_inputs_at_an_intermediate_tensor_runs_its_grad_fn_for_nothing():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    loss = (h * h).sum()
    with viz.record() as run:
        loss.backward(inputs=[h])
    # As PyTorch's engine, backward() runs h's grad_fn (its hooks fire, it frees what it
    # saved) but computes no gradient for its inputs: nothing reaches x.
    assert [(s.node.name(), s.executed) for s in run.steps] == [
        ("SumBackward0", True), ("MulBackward0", True), ("MulBackward0", True)]
    assert run.steps[2].grad_inputs == (None, None)
    data = viz.trace(loss, run=run)
    assert [(n.label, n.name, n.state) for n in data.by_kind("op")] == [
        ("SumBackward0", "loss", ""), ("MulBackward0", None, ""), ("MulBackward0", "h", "")]
    assert [(n.state) for n in data.by_kind("saved")] == ["freed", "freed", "freed"]
    assert by_label(data, "x").state == "skipped"
    assert h.grad is not None and x.grad is None


def test_grad_at_an_intermediate_tensor_prunes_its_grad_fn():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    loss = (h * h).sum()
    with viz.record() as run:
        minigrad.autograd.grad(loss, [h])
    # autograd.grad reaches h's grad_fn to take h's gradient there but does not run it.
    assert [(s.node.name(), s.executed) for s in run.steps] == [
        ("SumBackward0", True), ("MulBackward0", True), ("MulBackward0", False)]
    data = viz.trace(loss, run=run)
    assert [(n.label, n.name, n.state) for n in data.by_kind("op")] == [
        ("SumBackward0", "loss", ""), ("MulBackward0", None, ""), ("MulBackward0", "h", "pruned")]
    # h * h ran and freed what it saved; x * 2 did not run and keeps its constant.
    assert [(n.state) for n in data.by_kind("saved")] == ["freed", "freed", "saved"]


def _warn_about_the_cycle_again():
    # backward(create_graph=True) warns once per process, as PyTorch: forget that it did.
    minigrad.messages._warned_once.discard("CREATE_GRAPH_CYCLE")


def test_create_graph_draws_the_derivative_graph_and_the_cycle():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    _warn_about_the_cycle_again()
    with pytest.warns(UserWarning, match="reference cycle"):
        loss.backward(create_graph=True)
    data = viz.trace(loss, x.grad, saved=False)
    # By hand: Sum's backward expands the seed 1 (a constant: no node). Mul's backward
    # returns grad * x and grad * x: two recorded MulBackward0 nodes. Both reach x's
    # AccumulateGrad, which gets their sum (an AddBackward0) and, as PyTorch, copies it into
    # a new .grad with copy_ (CopyBackwards; its first input, the empty tensor, has no edge).
    # Roots first (loss, x.grad), then breadth first: Sum (from loss), Copy (from x.grad),
    # Sum's Mul, Copy's Add, x (from Sum's Mul), then Add's two Muls.
    assert rows(data) == [
        ("n0", "output", "loss", ""),
        ("n1", "output", "x.grad", ""),
        ("n2", "op", "SumBackward0", ""),
        ("n3", "op", "torch::autograd::CopyBackwards", "derivative"),
        ("n4", "op", "MulBackward0", ""),
        ("n5", "op", "AddBackward0", "derivative"),
        ("n6", "leaf", "x", "accumulated"),
        ("n7", "op", "MulBackward0", "derivative"),
        ("n8", "op", "MulBackward0", "derivative"),
    ]
    assert data.node("n6").grad == "[2, 4]"
    # x's .grad has a graph that ends at x itself: PyTorch's reference cycle, as an edge.
    cycles = [(e.source, e.target, e.label) for e in data.edges if e.kind == "cycle"]
    assert cycles == [("n6", "n3", ".grad")]
    assert sorted(edge_rows(data)) == sorted([
        ("n0", "n2", "grad"), ("n1", "n3", "grad"), ("n2", "n4", "grad"), ("n3", "n5", "grad"),
        ("n4", "n6", "grad"), ("n4", "n6", "grad"), ("n5", "n7", "grad"), ("n5", "n8", "grad"),
        ("n7", "n6", "grad"), ("n8", "n6", "grad"),
        ("n6", "n3", "cycle"),
    ])


def test_without_create_graph_there_is_no_cycle_and_no_derivative():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    loss.backward()
    data = viz.trace(loss, x.grad)
    assert [e for e in data.edges if e.kind == "cycle"] == []
    assert [n for n in data.nodes if n.state == "derivative"] == []
    assert [n.kind for n in data.nodes[:2]] == ["output", "output"]


# --- stable ids ------------------------------------------------------------------------


def _build():
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    inputs = minigrad.randn(5, 3)
    loss = ((model(inputs) - 1) ** 2).mean()
    return model, loss


def test_tracing_twice_gives_identical_data():
    model, loss = _build()
    first, second = viz.trace(loss, names=model), viz.trace(loss, names=model)
    assert first == second
    assert [n.id for n in first.nodes] == [f"n{i}" for i in range(len(first.nodes))]


def _build_and_draw():
    from viz.dot import to_dot

    model, loss = _build()  # same variable names each time: names are part of the DOT
    return to_dot(viz.trace(loss, names=model, values=True)), loss


def test_two_identical_graphs_give_identical_dot():
    a, loss_a = _build_and_draw()
    b, loss_b = _build_and_draw()
    assert loss_a.grad_fn is not loss_b.grad_fn  # two graphs, built separately
    assert a == b
    assert "0x" not in a  # no memory address anywhere


# --- big graphs ----------------------------------------------------------------------------


def _chain(n):
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0
    return x, y


def test_max_nodes_collapses_the_rest_into_one_labelled_node():
    _, y = _chain(10)
    data = viz.trace(y, saved=False, max_nodes=3)
    # Ten MulBackward0 in a row: the first three are drawn, then one box for the rest.
    assert rows(data)[:4] == [("n0", "output", "y", ""), ("n1", "op", "MulBackward0", ""),
                              ("n2", "op", "MulBackward0", ""), ("n3", "op", "MulBackward0", "")]
    box = only(data.by_kind("collapsed"))
    assert len(data.nodes) == 5
    assert "max_nodes=3" in box.label
    assert ("n3", box.id, "grad") in edge_rows(data)


@pytest.mark.parametrize("length, max_nodes", [(10, 3), (10_000, 500)])
def test_the_collapsed_label_counts_every_node_left_out(length, max_nodes):
    _, y = _chain(length)
    box = only(viz.trace(y, saved=False, max_nodes=max_nodes).by_kind("collapsed"))
    # `length` ops, `max_nodes` drawn: the rest are left out (one more counting x's
    # AccumulateGrad). For 10 and 3: 7 (or 8); for 10,000 and 500: 9,500 (or 9,501).
    left_out = length - max_nodes
    assert collapsed_count(box.label) in (left_out, left_out + 1), box.label


def test_a_10000_node_chain_traces_without_recursion_and_collapses():
    x, y = _chain(10_000)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # far below 10,000: any recursion over the chain fails
    try:
        full = viz.trace(y, saved=False, max_nodes=20_000)
        small = viz.trace(y, max_nodes=500)
    finally:
        sys.setrecursionlimit(limit)
    # Full: the output, 10,000 MulBackward0, the leaf x; one edge into each but the root.
    assert len(full.nodes) == 10_002 and len(full.edges) == 10_001
    assert full.nodes[-1].label == "x"
    # Collapsed: the output, 500 ops each with its saved constant, and one box.
    assert len(small.nodes) == 1 + 500 + 500 + 1
    box = only(small.by_kind("collapsed"))
    assert "max_nodes=500" in box.label
    assert ("n999", box.id, "grad") in edge_rows(small)  # from the 500th op (n999: ops and saved alternate)


def test_create_graph_on_a_long_chain_traces_without_recursion():
    n = 2_000
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * x  # x ** (n + 1), every step saving x and the running product
    _warn_about_the_cycle_again()
    with pytest.warns(UserWarning, match="reference cycle"):
        y.backward(create_graph=True)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        data = viz.trace(y, x.grad, saved=False, max_nodes=100_000)
    finally:
        sys.setrecursionlimit(limit)
    # Forward: n MulBackward0. Each one's backward records grad * x (x requires grad)
    # and, from the second node on, grad * (product so far): at least 2n - 1
    # derivative nodes, all reached only from x.grad.
    ops = data.by_kind("op")
    assert len([n for n in ops if n.state == ""]) == n
    assert len([n for n in ops if n.state == "derivative"]) >= 2 * n - 1
    assert only(data.by_kind("leaf")).label == "x"
    assert len([e for e in data.edges if e.kind == "cycle"]) == 1


# --- viz.scope ---------------------------------------------------------------------------


def test_scope_names_the_ops_created_inside_it():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with viz.scope("layer1"):
        h = x * 2
        with viz.scope("act"):
            a = h.tanh()
        c = a + 1
    out = c.sum()
    data = viz.trace(out, saved=False)
    # The innermost scope wins; ops outside every scope have none.
    assert [(n.label, n.scope) for n in data.by_kind("op")] == [
        ("SumBackward0", None), ("AddBackward0", "layer1"), ("TanhBackward0", "act"), ("MulBackward0", "layer1")]
    from viz.dot import node_label

    assert node_label(by_label(data, "TanhBackward0")).splitlines()[-1] == "[act]"
    viz.forget_scopes()
    assert {n.scope for n in viz.trace(out).nodes} == {None}


def test_collapse_draws_each_scope_as_one_box():
    """viz.scope + collapse: the ops made inside a scope become one box that counts them."""
    viz.forget_scopes()
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with viz.scope("layer1"):
        h = (x * 2).exp()  # MulBackward0, ExpBackward0
    with viz.scope("layer2"):
        y = (h * h).sum()  # MulBackward0, SumBackward0
    data = viz.trace(y, collapse=True)
    # y -> [layer2: Sum, Mul] -> [layer1: Exp, Mul] -> x; the edges inside a box vanish.
    assert [(n.kind, n.label) for n in data.nodes] == [
        ("output", "y"), ("collapsed", "layer2: 2 nodes"), ("collapsed", "layer1: 2 nodes"), ("leaf", "x")]
    assert [(e.source, e.target) for e in data.edges] == [("n0", "n1"), ("n1", "n2"), ("n2", "n3")]
    only_second = viz.trace(y, collapse="layer2", saved=False)
    assert [n.label for n in only_second.nodes] == ["y", "layer2: 2 nodes", "ExpBackward0", "MulBackward0", "x"]
    viz.forget_scopes()


def test_a_recorded_backward_puts_each_gradient_on_its_edge():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, -1.0], requires_grad=True)
    loss = (x * w).sum()
    with viz.record() as run:
        loss.backward()
    data = viz.trace(loss, run=run)
    grads = {(data.node(e.source).label, data.node(e.target).label): e.grad for e in data.edges if e.kind == "grad"}
    # By hand: d loss/d loss = 1; Sum sends ones; Mul sends grad * w to x and grad * x to w.
    assert grads == {("loss", "SumBackward0"): "1", ("SumBackward0", "MulBackward0"): "[1, 1]",
                     ("MulBackward0", "x"): "[3, -1]", ("MulBackward0", "w"): "[1, 2]"}
    assert [(n.label, n.grad) for n in data.by_kind("op")] == [("SumBackward0", "1"), ("MulBackward0", "[1, 1]")]
    assert all(e.grad is None for e in viz.trace(loss).edges)  # without a recording: nothing to show
    assert all(e.grad is None for e in viz.trace(loss, run=run, grads=False).edges)  # switched off


def test_each_of_two_edges_into_one_leaf_carries_its_own_gradient():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    c = minigrad.tensor([10.0, 20.0])
    loss = (x * (x * c)).sum()  # the outer Mul reaches x directly and through the inner Mul
    with viz.record() as run:
        loss.backward()
    data = viz.trace(loss, run=run, saved=False)
    into_x = sorted(e.grad for e in data.edges if data.node(e.target).label == "x")
    # outer: grad * (x*c) = [10, 40] to x; inner: (grad * x) * c = [10, 40] to x as well.
    assert into_x == ["[10, 40]", "[10, 40]"]
    assert by_label(data, "x").grad == "[20, 80]"  # the two added up in .grad


def test_a_recorded_create_graph_backward_keeps_its_derivative_nodes_as_derivative():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x ** 3).sum()
    with viz.record() as run:
        (g,) = minigrad.autograd.grad(loss, x, create_graph=True)
    data = viz.trace(loss, g, run=run)
    # Forward: SumBackward0, PowBackward0 (both ran). Made by this very backward, grouped as PyTorch's
    # pow_backward, g = grad * (3 * x**2): MulBackward0, MulBackward1 (times a number) and PowBackward0,
    # derivative, not "not reached".
    assert sorted((n.label, n.state) for n in data.by_kind("op")) == [
        ("MulBackward0", "derivative"), ("MulBackward1", "derivative"), ("PowBackward0", ""),
        ("PowBackward0", "derivative"), ("SumBackward0", "")]
    into_x = [e.grad for e in data.edges if data.node(e.target).label == "x" and e.grad is not None]
    assert into_x == ["[3, 12]"]  # 3 x^2 at x = [1, 2], by hand
