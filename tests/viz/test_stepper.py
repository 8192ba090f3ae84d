"""viz.stepper: its steps against the engine's, its gradients against backward(), its pictures.

Expectations come from an independent run of ``minigrad.engine.iter_backward``
or ``backward()`` on the same graph (after the stepper) or on a copy built the
same way, or are counted by hand on graphs small enough to check on paper.
"""

import doctest
import json
import os
import re
import shutil

import numpy as np
import pytest

import minigrad
import viz.render
import viz.stepper
from minigrad import messages
from minigrad.engine import iter_backward
from minigrad.autograd.graph import AccumulateGrad
from viz.graph import format_array
from viz.stepper import Stepper


# --- graphs: each builder makes fresh tensors, the same values every call -----------
def square_sum():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    return loss, {"x": x}


def diamond_with_retain_grad():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = x * w
    h.retain_grad()
    loss = (h.tanh() + h).sum()
    return loss, {"x": x, "w": w, "h": h}


def layer_with_broadcast():
    X = minigrad.tensor(np.arange(8.0, dtype=np.float32).reshape(4, 2) / 8)  # data: needs no gradient
    W = minigrad.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], requires_grad=True)
    b = minigrad.tensor([0.01, 0.02, 0.03], requires_grad=True)
    z = (X @ W + b).tanh()
    loss = (z * z).mean()
    return loss, {"X": X, "W": W, "b": b, "z": z}


def index_and_max():
    x = minigrad.tensor([3.0, -1.0, 4.0, 1.0], requires_grad=True)
    picked = x[[0, 2, 2]]  # IndexBackward0 keeps its index array as a saved tensor
    loss = picked.max() * x.sum()
    return loss, {"x": x, "picked": picked}


GRAPHS = [square_sum, diamond_with_retain_grad, layer_with_broadcast, index_and_max]


def engine_steps(loss, **kwargs):
    """The steps of a plain backward, as the engine yields them."""
    return list(iter_backward([loss], [minigrad.ones_like(loss)], **kwargs))


def leaves(tensors):
    return [t for t in tensors.values() if t.requires_grad and t.grad_fn is None]


def reachable_nodes(loss):
    seen, stack = [], [loss.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or any(fn is s for s in seen):
            continue
        seen.append(fn)
        stack.extend(child for child, _ in fn.next_functions)
    return seen


def snapshot(loss, tensors):
    """Everything a user could see change: .grad (object and values), versions, saved tensors."""
    state = {}
    for name, t in tensors.items():
        grad = t._grad
        state[name] = (grad, None if grad is None else grad._data.copy(), t._version, t._retains_grad)
    for k, fn in enumerate(reachable_nodes(loss)):
        saved = dict(fn._saved or {})
        arrays = {n: fn.__dict__[n] for n in fn.saved_arrays if n in fn.__dict__}
        state[f"node{k}"] = (fn.released, saved, arrays, fn._retain_grad)
    return state


def assert_same_snapshot(before, after):
    assert before.keys() == after.keys()
    for key in before:
        old, new = before[key], after[key]
        if key.startswith("node"):
            assert old[0] == new[0], f"{key}: released changed"
            assert old[1].keys() == new[1].keys() and all(old[1][n] is new[1][n] for n in old[1]), key
            assert old[2].keys() == new[2].keys() and all(old[2][n] is new[2][n] for n in old[2]), key
            assert old[3] is new[3], f"{key}: retain_grad marks changed"
        else:
            assert old[0] is new[0], f"{key}.grad was replaced"
            if old[1] is not None:
                np.testing.assert_array_equal(old[1], new[0]._data, err_msg=f"{key}.grad changed")
            assert old[2:] == (new[2], new[3]), f"{key}: version or retain_grad changed"


# --- the steps are the engine's ---------------------------------------------------------
@pytest.mark.parametrize("build", GRAPHS)
def test_steps_are_the_engines_steps_in_its_order(build):
    loss, _ = build()
    stepper = Stepper(loss)
    copy, _ = build()
    expected = [step.node.name() for step in engine_steps(copy)]
    assert [step.node.name() for step in stepper.steps] == expected
    # On the same graph, after the stepper, a retaining run meets the very same nodes.
    assert [s.node for s in stepper.steps] == [s.node for s in engine_steps(loss, retain_graph=True)]


@pytest.mark.parametrize("build", GRAPHS)
def test_gradients_are_what_backward_stores(build):
    loss, tensors = build()
    stepper = Stepper(loss, names=tensors)
    records = [r for step_records in stepper.accumulations for r in step_records]
    loss.backward()
    written = {name: t for name, t in tensors.items() if t._grad is not None}
    assert sorted(r.label for r in records) == sorted(written)
    for record in records:
        np.testing.assert_array_equal(record.after, record.tensor._grad._data)
        assert record.before is None


def test_accumulation_adds_to_an_existing_grad_and_says_before_and_after():
    loss, tensors = square_sum()
    x = tensors["x"]
    x.grad = minigrad.tensor([10.0, 20.0])
    stepper = Stepper(loss)
    (record,) = stepper.accumulations[-1]
    np.testing.assert_array_equal(record.before, [10.0, 20.0])
    loss.backward()
    np.testing.assert_array_equal(record.after, x.grad._data)  # [12, 24] by hand: 2x added
    np.testing.assert_array_equal(record.after, [12.0, 24.0])
    assert "x.grad: before [10, 20] -> after [12, 24]" in stepper.texts[-1]


def test_text_panel_counted_by_hand_for_x_times_x():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    stepper = Stepper(loss)
    assert [s.node.name() for s in stepper.steps] == ["SumBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"]
    # Before anything ran: Sum is ready, Mul waits for 1 edge, x's AccumulateGrad for 2 (x used twice).
    assert stepper.pending[0] == {s.node: n for s, n in zip(stepper.steps, (0, 1, 2))}
    text = stepper.texts
    assert re.search(r"SumBackward0 \(makes loss\) \[step 1\]: 0 \(ready\)", text[0])
    assert re.search(r"MulBackward0 \[step 2\]: 1 -> 0 \(ready\)", text[1])
    # d(x*x)/dx sends grad * other = [1, 2] down each of the two edges into x.
    assert text[2].count("-> AccumulateGrad (x) [step 3]: [1, 2]") == 2
    assert re.search(r"AccumulateGrad \(x\) \[step 3\]: 2 -> 0 \(ready\)", text[2])
    assert "gradient in (grad_outputs): [2, 4]" in text[3]
    assert "x.grad: before None -> after [2, 4]" in text[3]
    assert "freed so far" in text[2] and "MulBackward0 [step 2]: _saved_self, _saved_other" in text[2]


def test_the_text_names_the_retained_grad_at_the_node_that_makes_it():
    loss, tensors = diamond_with_retain_grad()
    h = tensors["h"]
    stepper = Stepper(loss, names=tensors)
    (k,) = [k for k, s in enumerate(stepper.steps) if s.node is h.grad_fn]
    assert h._grad is None  # not written by the stepper
    loss.backward()
    assert f"h.grad: before None -> after {format_array(h.grad._data)}" in stepper.texts[k + 1]


# --- frames -------------------------------------------------------------------------------
@pytest.mark.parametrize("build", GRAPHS)
def test_one_frame_per_step_and_the_running_node_is_that_steps(build):
    loss, tensors = build()
    names = {id(t): n for n, t in tensors.items()}
    stepper = Stepper(loss, names=tensors)
    assert len(stepper.frames) == len(stepper.texts) == len(stepper.steps) + 1
    assert not [n for n in stepper.frames[0].nodes if n.state == "running"]
    for k, step in enumerate(stepper.steps, start=1):
        (running,) = [n for n in stepper.frames[k].nodes if n.state == "running"]
        first, second = running.label.split("\n")[:2]
        node = step.node
        assert first == (names[id(node.variable)] if isinstance(node, AccumulateGrad) else node.name())
        assert second == f"step {k}"
        done = [n for n in stepper.frames[k].nodes if n.state == "done"]
        assert len(done) == sum(not isinstance(s.node, AccumulateGrad) for s in stepper.steps[:k - 1])


def _freed_ids(frame):
    return {n.id for n in frame.nodes if n.state == "freed"}


@pytest.mark.parametrize("build", GRAPHS)
def test_freed_so_far_grows_and_matches_a_real_backward(build):
    loss, _ = build()
    stepper = Stepper(loss, retain_graph=False)
    for earlier, later in zip(stepper.frames, stepper.frames[1:]):
        assert _freed_ids(earlier) <= _freed_ids(later)
    assert not _freed_ids(stepper.frames[0])
    assert len(_freed_ids(stepper.frames[-1])) == len(stepper.frames[-1].by_kind("saved"))
    copy, _ = build()
    released = [(s.node.name(), s.released) for s in engine_steps(copy) if s.released]
    assert [(fn.name(), names) for fn, names in stepper.freed[-1]] == released


@pytest.mark.parametrize("build", GRAPHS)
def test_retain_graph_true_frees_nothing(build):
    loss, _ = build()
    stepper = Stepper(loss, retain_graph=True)
    assert all(not _freed_ids(frame) for frame in stepper.frames)
    assert all(freed == [] for freed in stepper.freed)
    assert "freed: nothing (retain_graph=True" in stepper.texts[-1]


# --- the user's tensors -------------------------------------------------------------------
@pytest.mark.parametrize("build", GRAPHS)
@pytest.mark.parametrize("retain_graph", [False, True])
def test_users_tensors_are_untouched_and_backward_still_works(build, retain_graph):
    loss, tensors = build()
    before = snapshot(loss, tensors)
    Stepper(loss, retain_graph=retain_graph)
    assert_same_snapshot(before, snapshot(loss, tensors))
    loss.backward()  # retain_graph=False: frees for real now, so a second one must fail
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()


def test_hooks_run_and_their_gradient_is_the_one_shown():
    loss, tensors = square_sum()
    x = tensors["x"]
    calls = []
    x.register_hook(lambda grad: calls.append(1) or grad * 10)
    stepper = Stepper(loss)
    assert calls == [1]
    loss.backward()
    np.testing.assert_array_equal(stepper.accumulations[-1][0].after, x.grad._data)  # [20, 40]


def test_inputs_prunes_as_backward_inputs_does():
    loss, tensors = diamond_with_retain_grad()
    x, w = tensors["x"], tensors["w"]
    stepper = Stepper(loss, inputs=[x])
    copy, copied = diamond_with_retain_grad()
    expected = engine_steps(copy, inputs=[copied["x"]])
    assert [s.node.name() for s in stepper.steps] == [s.node.name() for s in expected]
    assert w._grad is None and x._grad is None
    loss.backward(inputs=[x])
    (x_record,) = [r for records in stepper.accumulations for r in records if r.tensor is x]
    np.testing.assert_array_equal(x_record.after, x.grad._data)
    assert not [r for records in stepper.accumulations for r in records if r.tensor is w]
    (w_box,) = [n for n in stepper.frames[-1].nodes if n.label == "w"]
    assert w_box.state == "skipped" and w._grad is None


def test_a_non_leaf_input_gets_what_backward_inputs_stores_without_retain_grad():
    x = minigrad.tensor([1.0, -2.0], requires_grad=True)
    h = x.exp()
    loss = (h * h).sum()
    stepper = Stepper(loss, inputs=[h])
    assert not h.retains_grad and h._grad is None and x._grad is None
    # The gradient stops at h: x's AccumulateGrad is never run; ExpBackward0 runs (as PyTorch
    # runs it: its hooks fire, it frees what it saved) but sends nothing on.
    assert [s.node.name() for s in stepper.steps] == ["SumBackward0", "MulBackward0", "ExpBackward0"]
    (record,) = stepper.accumulations[-1]
    assert record.tensor is h and record.label == "h"
    assert "its gradient is taken here for inputs=; nothing below is wanted" in stepper.texts[-1]
    assert stepper.steps[-1].grad_inputs == (None,)
    shown_freed = dict(stepper.freed[-1])
    assert h.grad_fn._saved_result is not None  # only shown as freed
    loss.backward(inputs=[h])
    np.testing.assert_array_equal(record.after, h.grad._data)  # 2h, by hand
    np.testing.assert_allclose(record.after, 2 * np.exp([1.0, -2.0]))
    # What the real backward freed is what the stepper showed as freed.
    assert shown_freed[h.grad_fn] == ("result",)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        h.grad_fn._saved_result


def test_a_leaf_as_root_is_one_step():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    stepper = Stepper(x, gradient=minigrad.tensor([3.0, 4.0]))
    assert [s.node.name() for s in stepper.steps] == ["torch::autograd::AccumulateGrad"]
    assert "x.grad: before None -> after [3, 4]" in stepper.texts[1]


def test_errors_are_backwards_errors():
    loss, _ = square_sum()
    loss.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        Stepper(loss)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(messages.IMPLICIT_GRAD_NOT_SCALAR[:40])):
        Stepper(x * 2)


# --- pictures, widget, static HTML ----------------------------------------------------------
needs_renderer = pytest.mark.skipif(
    shutil.which("dot") is None and not os.environ.get("MINIGRAD_VIZ_RENDERER"),
    reason="no Graphviz renderer (apt-get install graphviz)")


def _count_layouts(monkeypatch):
    """Counts the calls to viz.render.render_svg (each is one Graphviz layout)."""
    calls = []
    real = viz.render.render_svg
    monkeypatch.setattr(viz.render, "render_svg", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    return calls


def _running_ids(svg):
    return re.findall(r'<g id="([^"]+)" class="node [a-z]+ running">', svg)


@needs_renderer
def test_every_frame_restyles_one_layout(monkeypatch):
    layouts = _count_layouts(monkeypatch)
    loss, _ = square_sum()
    stepper = Stepper(loss)
    svgs = [stepper.svg(k) for k in range(len(stepper.frames))]
    assert len(layouts) == 1  # one layout for the four frames
    assert _running_ids(svgs[0]) == []
    for k in range(1, 4):  # the running box is the one the frame's data says
        (running,) = [n.id for n in stepper.frames[k].nodes if n.state == "running"]
        assert _running_ids(svgs[k]) == [running]
    assert 'class="node leaf running"' in svgs[3]
    assert "<style>" in svgs[0] and "g.node.running" in svgs[0]  # the states' looks travel with the SVG


@needs_renderer
def test_gradients_appear_on_the_edges_once_sent():
    loss, tensors = square_sum()
    stepper = Stepper(loss, names=tensors)
    svgs = [stepper.svg(k) for k in range(4)]
    # By hand: loss -> Sum carries 1; Sum sends [1, 1] to Mul; Mul sends grad * x = [1, 2]
    # along each of its two edges into x's AccumulateGrad.
    assert [svg.count(">1</text>") for svg in svgs] == [1, 1, 1, 1]
    assert [svg.count(">[1, 1]</text>") for svg in svgs] == [0, 1, 1, 1]
    assert [svg.count(">[1, 2]</text>") for svg in svgs] == [0, 0, 2, 2]
    # Each op shows the gradient of what it made, from the step it runs.
    assert [svg.count(">grad [1, 1]</text>") for svg in svgs] == [0, 0, 1, 1]  # MulBackward0's
    assert [svg.count(">grad not yet</text>") for svg in svgs] == [2, 1, 0, 0]
    assert "grad None" in svgs[2] and ">grad [2, 4]</text>" in svgs[3]  # x.grad: before, then after


@needs_renderer
def test_html_export_is_self_contained_with_one_svg(tmp_path):
    loss, _ = diamond_with_retain_grad()
    stepper = Stepper(loss)
    page = stepper.to_html()
    assert page.count("<svg") == 1
    assert "src=" not in page and "<link" not in page and "http://" not in page.replace(
        "http://www.w3.org/", "")
    ids = re.findall(r'\bid="([^"]+)"', page.split("<script>")[0])
    assert len(ids) == len(set(ids))  # the SVG's ids were made unique
    assert re.findall(r'id="(minigrad-stepper-[^"]+)"', page)[0] != re.findall(
        r'id="(minigrad-stepper-[^"]+)"', stepper.to_html())[0]
    for text in stepper.texts:
        assert json.dumps(text.split("\n")[0])[1:-1] in page
    path = stepper.save_html(tmp_path / "stepper.html")
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def _chain(length):
    y = x = minigrad.tensor([0.5, -1.0], requires_grad=True)
    for _ in range(length):
        y = y.tanh() * 0.9
    return y.sum(), x


@needs_renderer
def test_html_export_grows_with_the_graph_not_with_graph_times_steps():
    sizes = {}
    for length in (40, 80):
        loss, _ = _chain(length)
        sizes[length] = len(Stepper(loss, values=False).to_html())
    # Twice the graph has twice the steps: one SVG per frame would make the page 4x.
    assert sizes[80] / sizes[40] < 2.6


def test_a_big_graph_collapses_and_frames_are_built_when_read():
    loss, _ = _chain(300)  # about 900 nodes to run
    stepper = Stepper(loss, values=False, max_nodes=50)
    frame = stepper.frames[len(stepper.steps) // 2]
    (box,) = frame.by_kind("collapsed")
    assert "more nodes not drawn" in box.label and len(frame.by_kind("op")) + len(frame.by_kind("leaf")) == 50
    # The chain runs top down: the first 50 nodes drawn, then all the rest (x's AccumulateGrad last)
    # inside the box, which lights up at its first node and stays lit to the end.
    states = [stepper.frames[k].by_kind("collapsed")[0].state for k in range(len(stepper.frames))]
    assert states[:51] == ["waiting"] * 51 and set(states[51:]) == {"running"}
    # Every text panel stays short: lists are cut at PANEL_LINES and counted.
    assert max(text.count("\n") for text in stepper.texts) < 3 * viz.stepper.PANEL_LINES + 20


@needs_renderer
def test_html_export_steps_in_a_real_browser(tmp_path):
    chromium = "/usr/bin/chromium"
    if not os.access(chromium, os.X_OK):
        if os.environ.get("MINIGRAD_REQUIRE_BROWSER") == "1":
            pytest.fail("MINIGRAD_REQUIRE_BROWSER=1, but Chromium is not installed")
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    loss, tensors = square_sum()
    stepper = Stepper(loss, names=tensors)
    path = stepper.save_html(tmp_path / "stepper.html")
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
    running = "() => [...document.querySelectorAll('g.node.running')].map(g => g.querySelector('text').textContent)"
    panel = "() => document.querySelector('.mg-text').textContent"
    fill = ("() => [...document.querySelectorAll('g.node.running')]"
            ".map(g => getComputedStyle(g.querySelector('path,polygon')).fill)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=args)
        try:
            page = browser.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(path.as_uri())
            assert page.evaluate(running) == [] and page.evaluate(panel) == stepper.texts[0]
            page.click("[data-go=next]")
            page.click("[data-go=next]")
            assert page.inner_text(".mg-where") == "step 2 of 3"
            assert page.evaluate(running) == ["MulBackward0"] and page.evaluate(panel) == stepper.texts[2]
            assert page.evaluate(fill) == ["rgb(255, 176, 0)"]  # the running look (#ffb000) from the CSS
            page.click("[data-go=last]")
            assert page.evaluate(running) == ["x"]
            assert "x.grad: before None -> after [2, 4]" in page.evaluate(panel)
            page.click("[data-go=first]")
            assert page.evaluate(running) == [] and page.evaluate(panel) == stepper.texts[0]
            assert errors == []
        finally:
            browser.close()


@needs_renderer
def test_widget_slider_spans_the_frames_and_shows_each():
    widgets = pytest.importorskip("ipywidgets")
    loss, tensors = square_sum()
    stepper = Stepper(loss, names=tensors)
    box = stepper.widget()
    controls, view = box.children
    play, slider = controls.children
    picture, text = view.children
    assert isinstance(play, widgets.Play) and isinstance(slider, widgets.IntSlider)
    assert slider.max == play.max == len(stepper.steps) == 3
    assert "before backward" in text.value and "<svg" in picture.value
    slider.value = 3
    assert "x.grad: before None -&gt; after [2, 4]" in text.value
    assert picture.value != stepper.widget().children[1].children[0].value  # frame 3, not frame 0
    assert 'class="node leaf running"' in picture.value and "overflow:auto" in picture.value  # scrolls, never shrinks
    bundle = stepper._repr_mimebundle_()
    assert bundle["text/plain"] == "<minigrad backward stepper: 3 steps>"
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_module_doctest():
    result = doctest.testmod(viz.stepper)
    assert result.attempted > 0 and result.failed == 0
