"""Tests for viz.draw and viz.draw_backward: pictures for Jupyter, and errors shown in them.

A picture is checked through its DOT source (node classes and labels) and,
where the SVG matters, through the ``<title>`` elements ``dot`` writes: never
SVG bytes. Error messages are compared with PyTorch's own (with ``torch``
spelled ``minigrad``) when PyTorch is installed.
"""

import re
import shutil
import warnings

import pytest

import minigrad
import viz
from viz.render import Picture

NODE_LINE = re.compile(r'^  (n\d+) \[class="([^"]*)".*label="((?:[^"\\]|\\.)*)"', re.M)


@pytest.fixture(autouse=True)
def _dot(monkeypatch):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not on PATH (apt-get install graphviz)")
    monkeypatch.setenv("MINIGRAD_VIZ_RENDERER", "dot")


def classes(picture):
    """``{node id: class}`` from the picture's DOT source."""
    return {node: kind for node, kind, _ in NODE_LINE.findall(picture.source)}


def labels(picture):
    return {node: label.replace("\\n", "\n") for node, _, label in NODE_LINE.findall(picture.source)}


def failed(picture):
    return [node for node, kind in classes(picture).items() if kind.endswith(" failed")]


def graph_label(picture):
    """The picture's title as one line (to_dot wraps long titles at spaces into lines)."""
    match = re.search(r'^  labelloc="t"; label="((?:[^"\\]|\\.)*)";$', picture.source, re.M)
    return match and match.group(1).replace("\\n", " ")


def torch_message(run):
    """The first line of the error PyTorch raises for ``run(torch)``, in minigrad's words."""
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError) as info:
        run(torch)
    return str(info.value).splitlines()[0].replace("torch", "minigrad")


# --- draw ----------------------------------------------------------------------------------


def test_draw_returns_a_picture_with_svg_and_a_stable_summary():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    picture = viz.draw(y)
    assert isinstance(picture, Picture)
    bundle, _ = picture._repr_mimebundle_()  # (data, metadata): see test_render
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    # By hand: y, SumBackward0, MulBackward0, its two saved tensors (both x), and x:
    # 6 nodes; y->Sum, Sum->Mul, two saved edges, Mul->x twice (x * x): 6 edges.
    assert bundle["text/plain"] == "<minigrad graph: 6 nodes, 6 edges>"
    assert repr(picture) == bundle["text/plain"]
    svg = bundle["image/svg+xml"]
    assert svg.lstrip().startswith("<?xml") and svg.rstrip().endswith("</svg>")
    for i in range(6):
        assert svg.count(f"<title>n{i}</title>") == 1
    assert "<title>n6</title>" not in svg


def test_draw_summary_is_the_same_for_the_same_graph_built_twice():
    def build():
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).mean()
        return viz.draw(y)

    first, second = build(), build()
    # y, MeanBackward0, MulBackward0 + its saved exp(x) and x, ExpBackward0 + its saved
    # result, x: 8 nodes. y->Mean, Mean->Mul, 2 saved->Mul, Mul->Exp, Mul->x,
    # saved->Exp, Exp->x: 8 edges.
    assert repr(first) == repr(second) == "<minigrad graph: 8 nodes, 8 edges>"
    assert first.source == second.source
    assert "0x" not in repr(first)


def test_draw_shows_the_callers_variable_names():
    weights = minigrad.tensor([1.0, 2.0], requires_grad=True)
    scaled = weights * 3
    total = scaled.sum()
    found = labels(viz.draw(total))
    assert found["n0"] == "total\n()"
    assert found["n1"] == "SumBackward0\nmakes total"
    assert found["n2"] == "MulBackward0\nmakes scaled"
    assert found["n4"] == "weights\nAccumulateGrad\n(2,)"


def test_draw_names_override_variable_names():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    found = labels(viz.draw(y, names={"input": x, "loss": y}))
    assert found["n0"] == "loss\n()"
    assert "input\nAccumulateGrad\n(2,)" in found.values()


def test_draw_options():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    assert labels(viz.draw(y))["n5"] == "x\nAccumulateGrad\n(2,)\ngrad [2, 4]"  # .grad shown by default
    assert labels(viz.draw(y, grads=False))["n5"] == "x\nAccumulateGrad\n(2,)"
    with_values = labels(viz.draw(y, values=True))
    assert with_values["n0"] == "y\n()\nvalue 5"  # 1 + 4
    assert with_values["n3"] == "_saved_self = x\n(2,)\nvalue [1, 2]"
    no_saved = viz.draw(y, saved=False)
    assert repr(no_saved) == "<minigrad graph: 4 nodes, 4 edges>"
    assert "saved" not in "".join(classes(no_saved).values())
    assert "legend" not in viz.draw(y, legend=False).source
    assert "<B>legend</B>" in viz.draw(y).source


def test_draw_max_nodes_collapses_into_a_labelled_box():
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(50):
        y = y * 2.0
    picture = viz.draw(y, max_nodes=10, saved=False)
    kinds = list(classes(picture).values())
    assert kinds.count("op") == 10 and kinds.count("collapsed") == 1
    [box] = [labels(picture)[n] for n, k in classes(picture).items() if k == "collapsed"]
    assert "max_nodes=10" in box
    assert "<title>n11</title>" in picture.svg()


def test_draw_loss_and_grad_after_create_graph():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        loss.backward(create_graph=True)
    picture = viz.draw(loss, x.grad, saved=False)
    # See test_graph.py: Copy, Add and two Muls were recorded by the backward pass; x is n6.
    assert sorted(classes(picture).values()) == sorted(
        ["output", "output", "op", "op", "op derivative", "op derivative", "op derivative", "op derivative",
         "leaf accumulated"])
    assert re.search(r'^  n6 -> n3 \[.*label="\.grad".*\];$', picture.source, re.M)
    svg = picture.svg()
    assert "<title>n6&#45;&gt;n3</title>" in svg


# --- draw_backward --------------------------------------------------------------------------


def test_draw_backward_that_succeeds_shows_what_it_did():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    picture = viz.draw_backward(y)
    assert picture.error is None
    assert x.grad.tolist() == [2.0, 4.0]  # it really ran the backward
    assert classes(picture) == {"n0": "output", "n1": "op", "n2": "op", "n3": "saved freed",
                                "n4": "saved freed", "n5": "leaf accumulated"}
    assert graph_label(picture) is None
    assert repr(picture) == "<minigrad graph: 6 nodes, 6 edges>"


def test_draw_backward_passes_its_arguments_on():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    first = viz.draw_backward(y, retain_graph=True)
    assert [k for k in classes(first).values() if k.startswith("saved")] == ["saved saved", "saved saved"]
    second = viz.draw_backward(y)  # allowed: the first kept the graph
    assert second.error is None
    assert x.grad.tolist() == [4.0, 8.0]


def test_second_backward_marks_the_first_node_that_needs_saved_tensors():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    z = x * x
    y = z.sum()
    y.backward()
    picture = viz.draw_backward(y)  # must not raise
    # SumBackward0 saved nothing, so it runs again; MulBackward0 needs x twice: it fails.
    assert failed(picture) == ["n2"]
    assert labels(picture)["n2"] == "MulBackward0\nmakes z\nfailed here"  # the state in words: greyscale too
    assert classes(picture)["n3"] == classes(picture)["n4"] == "saved freed"
    assert isinstance(picture.error, RuntimeError)
    first_line = str(picture.error).splitlines()[0]
    assert first_line.startswith("Trying to backward through the graph a second time")
    assert graph_label(picture) == f"RuntimeError: {first_line}"

    def in_torch(torch):
        t = torch.tensor([1.0, 2.0], requires_grad=True)
        out = (t * t).sum()
        out.backward()
        out.backward()

    assert first_line == torch_message(in_torch)
    assert "<title>n2</title>" in picture.svg()


def test_in_place_change_marks_the_node_whose_saved_tensor_changed():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    b = a.sin()
    s = b.sum()
    a.mul_(2)
    picture = viz.draw_backward(s)
    # s <- Sum <- Sin (saved a, now changed) <- Mul <- x. Sum runs, Sin fails.
    assert classes(picture) == {"n0": "output", "n1": "op", "n2": "op failed", "n3": "saved modified",
                                "n4": "op skipped", "n5": "saved saved", "n6": "leaf skipped"}
    assert labels(picture)["n2"] == "SinBackward0\nmakes b\nfailed here"
    assert labels(picture)["n3"] == "_saved_self = a\n(2,)\nsaved at v0, now v1"
    first_line = str(picture.error).splitlines()[0]
    assert graph_label(picture) == f"RuntimeError: {first_line}"

    def in_torch(torch):
        t = torch.tensor([1.0, 2.0], requires_grad=True)
        ta = t * 1
        tb = ta.sin()
        ta.mul_(2)
        tb.sum().backward()

    assert first_line == torch_message(in_torch)


def test_in_place_change_is_visible_before_the_backward():
    # "so the in-place error can be seen coming": draw shows it without running anything.
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    picture = viz.draw(y)
    assert "saved modified" in classes(picture).values()
    assert labels(picture)["n0"] == "y\n(2,)\nversion 1"
    assert x.grad is None


def test_wrong_shaped_gradient_marks_the_output():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    z = x * x
    picture = viz.draw_backward(z, minigrad.ones(3))
    # Refused before the engine ran: the output is at fault, no op is.
    assert failed(picture) == ["n0"]
    assert classes(picture)["n0"] == "output failed"
    assert [k for k in classes(picture).values() if k.startswith("op")] == ["op"]
    first_line = str(picture.error).splitlines()[0]
    assert graph_label(picture) == f"RuntimeError: {first_line}"
    assert first_line == torch_message(
        lambda torch: (torch.tensor([1.0, 2.0], requires_grad=True) ** 2).backward(torch.ones(3)))


def test_no_grad_fn_marks_the_output():
    t = minigrad.tensor([1.0, 2.0])
    y = (t * 2).sum()
    picture = viz.draw_backward(y)
    assert classes(picture) == {"n0": "output failed"}
    assert repr(picture) == "<minigrad graph: 1 nodes, 0 edges>"
    first_line = str(picture.error).splitlines()[0]
    assert first_line == "element 0 of tensors does not require grad and does not have a grad_fn"
    assert first_line == torch_message(lambda torch: (torch.tensor([1.0, 2.0]) * 2).sum().backward())
    assert graph_label(picture) == f"RuntimeError: {first_line}"
    assert "<title>n0</title>" in picture.svg()


def test_implicit_gradient_of_a_non_scalar_marks_the_output():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    z = x * x
    picture = viz.draw_backward(z)
    assert failed(picture) == ["n0"]
    assert str(picture.error).splitlines()[0] == torch_message(
        lambda torch: (torch.tensor([1.0, 2.0], requires_grad=True) ** 2).backward())


def test_the_error_picture_renders_with_its_title():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    bundle, _ = viz.draw_backward(y)._repr_mimebundle_()
    assert bundle["text/plain"] == "<minigrad graph: 6 nodes, 6 edges>"
    assert "Trying to backward through the graph a second time" in bundle["image/svg+xml"]
