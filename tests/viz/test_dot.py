"""Tests for viz.dot: DOT source from graph data, styled by the one STYLE table.

The DOT text is parsed back here with a small parser of our own (``key="value"``
lists, with DOT's ``\\"``, ``\\\\`` and ``\\n`` escapes), so each check is on
what Graphviz will read, not on how ``to_dot`` happens to build it. Rendering
goes through Graphviz's ``dot`` and is checked by structure only: one
``<title>`` per node and edge, and the ``class`` attributes.
"""

import html
import re
import shutil
import warnings
import xml.etree.ElementTree as ET

import pytest

import minigrad
import viz
from minigrad import nn
from viz.dot import STYLE, node_label, to_dot
from viz.graph import GraphData, VizEdge, VizNode

NODE_LINE = re.compile(r"^  (n\d+) \[(.*)\];$")
EDGE_LINE = re.compile(r"^  (n\d+) -> (n\d+) \[(.*)\];$")
ATTRIBUTE = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
# A row: the swatch, the text, and an empty cell that leaves room for a wider browser font.
LEGEND_ROW = re.compile(r'<TR>(<TD WIDTH="34"[^>]*>.*?</TD>)<TD ALIGN="LEFT">(.*?)</TD><TD WIDTH="\d+"></TD></TR>')
SVG = "{http://www.w3.org/2000/svg}"


def unescape(text):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def attributes(text):
    found = {key: unescape(value) for key, value in ATTRIBUTE.findall(text)}
    # Every attribute must have been understood: nothing but key="value" pairs.
    assert ATTRIBUTE.sub("", text).replace(",", "").strip() == "", text
    return found


def parse(dot):
    """``({node id: attributes}, [(source, target, attributes)], legend line or None)``.

    An edge written upward (``b -> a [dir="back"]``, a stacked picture's lower
    graph) is Graphviz's arrow from ``a`` to ``b``: it is read back as ``a -> b``
    with its arrowtail as the arrowhead, so edges compare by what is drawn.
    """
    nodes, edges, legend = {}, [], None
    for line in dot.splitlines():
        if match := NODE_LINE.match(line):
            assert match.group(1) not in nodes, f"{match.group(1)} declared twice"
            nodes[match.group(1)] = attributes(match.group(2))
        elif match := EDGE_LINE.match(line):
            source, target, found = match.group(1), match.group(2), attributes(match.group(3))
            if found.pop("dir", None) == "back":
                source, target = target, source
                if "arrowtail" in found:
                    found["arrowhead"] = found.pop("arrowtail")
            edges.append((source, target, found))
        elif line.startswith(("  legend ", '  labelloc="b"')):  # a box, or the picture's label
            legend = line
    return nodes, edges, legend


def written_edges(dot):
    """The edges as the DOT writes them, ``"tail->head"``: the titles Graphviz gives them in the SVG."""
    return [f"{match.group(1)}->{match.group(2)}" for match in map(EDGE_LINE.match, dot.splitlines()) if match]


def legend_rows(legend):
    """``[(swatch html, text)]`` of the legend's rows, below its heading."""
    return [(swatch, html.unescape(text)) for swatch, text in LEGEND_ROW.findall(legend)]


def expected_style(node):
    style = dict(STYLE[node.kind][0])
    if node.state:
        style.update(STYLE["state:" + node.state][0])
    return style


# --- a zoo of small graphs with every kind, state and edge the tracer makes ------------


def graph_before_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    return viz.trace(y)


def graph_after_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    return viz.trace(y, values=True)


def graph_with_parameters():
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
    return viz.trace(model(minigrad.randn(4, 3)).sum(), names=model)


def graph_with_a_failed_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    s = a.sin().sum()
    a.mul_(2)
    with viz.record(catch=True) as run:
        s.backward()
    return viz.trace(s, run=run)  # modified, failed, skipped


def graph_with_inputs():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    loss = (h * h).sum()
    with viz.record() as run:
        minigrad.autograd.grad(loss, [h])  # backward(inputs=[h]) runs h.grad_fn (as PyTorch); grad() does not
    return viz.trace(loss, run=run)  # pruned


def graph_with_create_graph():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the reference-cycle warning
        loss.backward(create_graph=True)
    return viz.trace(loss, x.grad)  # derivative, cycle


def graph_collapsed():
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20):
        y = y * 1.0
    return viz.trace(y, max_nodes=5)


ZOO = [graph_before_backward, graph_after_backward, graph_with_parameters, graph_with_a_failed_backward,
       graph_with_inputs, graph_with_create_graph, graph_collapsed]


def test_the_zoo_uses_every_style_the_tracer_can_make():
    used = set()
    for make in ZOO:
        data = make()
        used |= {n.kind for n in data.nodes} | {"state:" + n.state for n in data.nodes if n.state}
        used |= {"edge:" + e.kind for e in data.edges}
    # The stepper's states (running, done, waiting) come from viz.stepper, not from trace.
    stepper = {"state:running", "state:done", "state:waiting"}
    assert used == set(STYLE) - stepper


@pytest.mark.parametrize("make", ZOO, ids=lambda f: f.__name__)
def test_each_node_is_styled_by_its_kind_then_its_state(make):
    data = make()
    nodes, _, _ = parse(to_dot(data))
    assert list(nodes) == [n.id for n in data.nodes]  # every node, once, in order
    for node in data.nodes:
        found = dict(nodes[node.id])
        assert found.pop("class") == f"{node.kind} {node.state}".strip()
        assert found.pop("label") == node_label(node)
        assert found == expected_style(node), node


@pytest.mark.parametrize("make", ZOO, ids=lambda f: f.__name__)
def test_each_edge_is_styled_by_its_kind(make):
    data = make()
    _, edges, _ = parse(to_dot(data))
    assert [(s, t) for s, t, _ in edges] == [(e.source, e.target) for e in data.edges]
    for (_, _, found), edge in zip(edges, data.edges):
        expected = dict(STYLE["edge:" + edge.kind][0])
        if edge.label:
            expected["label"] = edge.label
        elif edge.grad is not None:  # a recorded backward: the gradient the edge carried, with room around it
            expected["label"] = f"  {edge.grad}  "
        assert found == expected


def test_states_change_the_look_a_learner_is_told_about():
    # Hand-picked consequences of the table, so a STYLE edit that makes two
    # states look alike fails here.
    nodes, _, _ = parse(to_dot(graph_after_backward()))
    freed = [a for a in nodes.values() if a["class"] == "saved freed"]
    assert len(freed) == 2 and all("dashed" in a["style"] for a in freed)
    assert all(a["label"].endswith("\nfreed") for a in freed)
    [leaf] = [a for a in nodes.values() if a["class"] == "leaf accumulated"]
    assert leaf["label"] == "x\nAccumulateGrad\n(2,)\nvalue [1, 2]\ngrad [2, 4]"
    nodes, _, _ = parse(to_dot(graph_with_a_failed_backward()))
    [modified] = [a for a in nodes.values() if a["class"] == "saved modified"]
    assert modified["label"] == "_saved_self = a\n(2,)\nsaved at v0, now v1"
    [failed] = [a for a in nodes.values() if a["class"] == "op failed"]
    assert failed["label"] == "SinBackward0\nfailed here"  # the state in words: it reads in greyscale too
    assert failed["color"] == modified["color"] == "#d62728"  # red: where it breaks, and why


def test_cycle_edge_does_not_constrain_the_layout_and_is_labelled():
    _, edges, _ = parse(to_dot(graph_with_create_graph()))
    [cycle] = [a for _, _, a in edges if a.get("label") == ".grad"]
    assert cycle["constraint"] == "false" and cycle["style"] == "dashed"


# --- the legend --------------------------------------------------------------------------


def texts(*keys):
    return [STYLE[key][1] for key in keys]


def test_legend_lists_exactly_the_styles_used_before_backward():
    _, _, legend = parse(to_dot(graph_before_backward()))
    # (x * x).sum(): an output, two ops, a leaf, saved tensors (state "saved" has no
    # legend line: it is the plain look), grad edges and saved edges (no line either).
    assert [text for _, text in legend_rows(legend)] == texts("output", "op", "leaf", "saved", "edge:grad")


def test_legend_lists_exactly_the_styles_used_after_backward():
    _, _, legend = parse(to_dot(graph_after_backward()))
    # Backward added two states: the leaf's .grad (accumulated), the saved tensors freed.
    assert [text for _, text in legend_rows(legend)] == texts(
        "output", "op", "leaf", "saved", "state:accumulated", "state:freed", "edge:grad")


def test_legend_lists_exactly_the_styles_used_after_a_failure():
    _, _, legend = parse(to_dot(graph_with_a_failed_backward()))
    assert [text for _, text in legend_rows(legend)] == texts(
        "output", "op", "leaf", "saved", "state:modified", "state:skipped", "state:failed", "edge:grad")


def test_legend_lists_the_cycle_and_derivative_with_create_graph():
    _, _, legend = parse(to_dot(graph_with_create_graph()))
    assert [text for _, text in legend_rows(legend)] == texts(
        "output", "op", "leaf", "saved", "state:accumulated", "state:derivative", "edge:grad", "edge:cycle")


def test_legend_swatches_use_the_colours_of_the_drawing():
    _, _, legend = parse(to_dot(graph_with_create_graph()))
    swatches = dict((text, swatch) for swatch, text in legend_rows(legend))
    assert f'BGCOLOR="{STYLE["leaf"][0]["fillcolor"]}"' in swatches[STYLE["leaf"][1]]
    # A state is drawn on an op box: its swatch is the op style with the state on top.
    assert f'BGCOLOR="{STYLE["state:derivative"][0]["fillcolor"]}"' in swatches[STYLE["state:derivative"][1]]
    assert f'COLOR="{STYLE["edge:cycle"][0]["color"]}"' in swatches[STYLE["edge:cycle"][1]]


def test_no_legend_when_asked():
    dot = to_dot(graph_after_backward(), legend=False)
    assert parse(dot)[2] is None
    assert "legend" not in dot


def test_legend_of_an_empty_graph_is_left_out():
    assert parse(to_dot(GraphData([], [])))[2] is None


# --- two graphs in one picture: stacked or side by side ------------------------------------


def notebook_7_graphs():
    """Notebook 7's picture: f = x**3 - 2x**2 + x, and f' as create_graph=True recorded it."""
    x = minigrad.tensor(2.0, requires_grad=True)
    f = x**3 - 2 * x**2 + x
    d1, = minigrad.autograd.grad(f, x, create_graph=True)
    return viz.trace(f, d1)


def test_stacked_writes_the_recorded_graphs_edges_upward_and_only_those():
    data = notebook_7_graphs()
    by_label = {}
    for node in data.nodes:
        by_label.setdefault(node.label, []).append(node.id)
    [d1], [x] = by_label["d1"], by_label["x"]
    recorded = {n.id for n in data.nodes if n.state == "derivative"}
    # By hand: f's graph has 8 gradient edges and 3 saved tensors; the recorded graph has 8 ops (9 edges
    # among them and to x), the edge from d1 into it, and 4 saved tensors.
    assert len(recorded) == 8 and len(data.edges) == 8 + 3 + 9 + 1 + 4
    dot = to_dot(data)
    upward = [line for line in dot.splitlines() if 'dir="back"' in line]
    assert len(upward) == 9 + 1 + 4
    for source, target, found in parse(dot)[1]:
        line = next(line for line in dot.splitlines() if line.startswith((f"  {source} -> {target} [",
                                                                         f"  {target} -> {source} [")))
        lower = source in recorded or source == d1 or (found.get("arrowhead") == "none" and target in recorded)
        assert line.startswith(f"  {target} -> {source} [" if lower else f"  {source} -> {target} ["), line
        assert ('dir="back"' in line) == lower, line
    assert f"  {x} -> " in dot  # e.g. x -> PowBackward0 [dir=back]: Graphviz ranks x above the recorded ops


def test_side_by_side_writes_every_edge_downward():
    dot = to_dot(notebook_7_graphs(), layout="side by side")
    assert 'dir="back"' not in dot and "invis" not in dot
    assert [(s, t) for s, t, _ in parse(dot)[1]] == [(s, t) for s, t in
                                                     (e.split("->") for e in written_edges(dot))]


def test_a_picture_of_one_graph_is_the_same_in_both_layouts():
    for make in (graph_after_backward, graph_with_a_failed_backward, graph_with_parameters):
        data = make()
        assert to_dot(data, layout="stacked") == to_dot(data, layout="side by side")


def test_an_unknown_layout_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="'stacked', 'side by side'"):
        to_dot(graph_after_backward(), layout="diagonal")


# --- labels and escaping -----------------------------------------------------------------


def test_labels_by_kind():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    y = h.sum()
    nodes, _, _ = parse(to_dot(viz.trace(y)))
    assert [a["label"] for a in nodes.values()] == [
        "y\n()",                       # output: its name and shape
        "SumBackward0\nmakes y",       # op: PyTorch's name and the variable it makes
        "MulBackward0\nmakes h",
        "_saved_other\n()",            # saved: the constant 3
        "x\nAccumulateGrad\n(2,)",     # leaf: its name, the sink that writes its .grad
    ]


def tricky_graph():
    nodes = [
        VizNode("n0", "output", 'say "hi"', shape="(2,)", version="3"),
        VizNode("n1", "op", "Back\\slash", name='two\nlines'),
        VizNode("n2", "leaf", "a\\nb {x} <y> ;", shape="()"),
    ]
    edges = [VizEdge("n0", "n1"), VizEdge("n1", "n2", kind="cycle", label='the "grad"\\ edge')]
    return GraphData(nodes, edges, title='RuntimeError: "x" was\nfreed \\ gone')


def test_quotes_backslashes_and_newlines_are_escaped():
    dot = to_dot(tricky_graph())
    lines = dot.splitlines()
    # In DOT, \" is a quote, \\ a backslash and \n a line break inside a label.
    assert r'label="say \"hi\"\n(2,)\nversion 3"' in lines[5]
    assert r'label="Back\\slash\nmakes two\nlines"' in lines[6]
    assert r'label="a\\nb {x} <y> ;\nAccumulateGrad\n()"' in lines[7]
    assert r'label="the \"grad\"\\ edge"' in lines[9]
    assert r'label="RuntimeError: \"x\" was\nfreed \\ gone";' in lines[4]
    nodes, edges, _ = parse(dot)
    assert nodes["n0"]["label"] == 'say "hi"\n(2,)\nversion 3'
    assert nodes["n1"]["label"] == "Back\\slash\nmakes two\nlines"
    assert nodes["n2"]["label"] == "a\\nb {x} <y> ;\nAccumulateGrad\n()"
    assert edges[1][2]["label"] == 'the "grad"\\ edge'


# --- rendering with dot --------------------------------------------------------------------


@pytest.fixture
def dot_renderer(monkeypatch):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not on PATH (apt-get install graphviz)")
    from viz import render

    monkeypatch.setenv(render.RENDERER_ENV, "dot")
    return render.render_svg


def svg_parts(svg):
    """``({title: class} of nodes, [edge titles], [all texts])`` of an SVG from dot."""
    root = ET.fromstring(svg)
    nodes, edges = {}, []
    for group in root.iter(SVG + "g"):
        kind = group.get("class", "")
        title = group.find(SVG + "title")
        if kind.split()[:1] == ["node"]:
            assert title.text not in nodes
            nodes[title.text] = kind
        elif kind == "edge":
            edges.append(title.text)
    texts = [t.text for t in root.iter(SVG + "text")]
    return nodes, edges, texts


@pytest.mark.parametrize("make", ZOO, ids=lambda f: f.__name__)
def test_svg_has_one_title_per_node_and_edge_with_classes(make, dot_renderer):
    data = make()
    dot = to_dot(data)
    nodes, edges, _ = svg_parts(dot_renderer(dot))
    expected = {n.id: f"node {n.kind} {n.state}".strip() for n in data.nodes}
    if data.title:
        expected["legend"] = "node"  # the title is the picture's label: the legend is a box under the graph
    assert nodes == expected
    assert sorted(edges) == sorted(written_edges(dot))


def test_svg_without_legend_has_only_the_graphs_nodes(dot_renderer):
    data = graph_before_backward()
    nodes, _, texts = svg_parts(dot_renderer(to_dot(data, legend=False)))
    assert sorted(nodes) == sorted(n.id for n in data.nodes)
    assert "legend" not in texts


def test_svg_shows_escaped_text_as_written(dot_renderer):
    nodes, edges, texts = svg_parts(dot_renderer(to_dot(tricky_graph())))
    assert nodes == {"n0": "node output", "n1": "node op", "n2": "node leaf", "legend": "node"}
    assert edges == ["n0->n1", "n1->n2"]
    # Each line of a label is one <text>; the quotes and backslashes come out as typed.
    for line in ['say "hi"', "(2,)", "version 3", "Back\\slash", "makes two", "lines", "a\\nb {x} <y> ;",
                 'the "grad"\\ edge', 'RuntimeError: "x" was', "freed \\ gone"]:
        assert line in texts, (line, texts)


def test_svg_legend_shows_the_style_texts(dot_renderer):
    _, _, texts = svg_parts(dot_renderer(to_dot(graph_after_backward())))
    assert "legend" in texts
    for key in ("output", "op", "leaf", "saved", "state:accumulated", "state:freed", "edge:grad"):
        assert STYLE[key][1] in texts
    assert STYLE["state:modified"][1] not in texts


def _tops(svg):
    """``{node title: y of its first text line}``, with ``"legend"`` the y of the legend's heading (SVG y grows
    downward), and the picture's width in pt."""
    root = ET.fromstring(svg)
    tops = {}
    for group in root.iter(SVG + "g"):
        if group.get("class", "").split()[:1] == ["node"]:
            tops[group.find(SVG + "title").text] = float(group.find(SVG + "text").get("y"))
    for text in root.iter(SVG + "text"):
        if text.text == "legend":
            tops["legend"] = float(text.get("y"))
    return tops, float(root.get("width").removesuffix("pt"))


def test_the_legend_sits_under_the_graph_and_adds_no_width(dot_renderer):
    leaves = [minigrad.tensor([1.0, 2.0], requires_grad=True) for _ in range(8)]
    total = leaves[0] * 1.0
    for leaf in leaves[1:]:
        total = total + leaf * 1.0  # eight leaves side by side: wider than the legend
    data = viz.trace(total)
    tops, width = _tops(dot_renderer(to_dot(data)))
    assert tops["legend"] > max(y for name, y in tops.items() if name != "legend")
    assert width == _tops(dot_renderer(to_dot(data, legend=False)))[1]


def test_stacked_puts_f_above_x_above_its_derivative_above_the_legend(dot_renderer):
    data = notebook_7_graphs()
    ids = {label: next(n.id for n in data.nodes if n.label == label) for label in ("f", "x", "d1")}
    tops, stacked_width = _tops(dot_renderer(to_dot(data)))
    assert tops[ids["f"]] < tops[ids["x"]] < tops[ids["d1"]] < tops["legend"]
    recorded = [n.id for n in data.nodes if n.state == "derivative"]
    assert all(tops[ids["x"]] < tops[node] < tops[ids["d1"]] for node in recorded)
    side_tops, side_width = _tops(dot_renderer(to_dot(data, layout="side by side")))
    assert side_tops[ids["d1"]] < side_tops[ids["x"]]  # side by side, both graphs run down to x
    assert stacked_width < 0.75 * side_width


def test_gradient_labels_keep_room_around_their_digits(dot_renderer):
    data = graph_with_inputs()  # edges labelled 1, [1, 1], [2, 4], [2, 4]
    root = ET.fromstring(dot_renderer(to_dot(data, legend=False)))
    labels = [text.text for group in root.iter(SVG + "g") if group.get("class") == "edge"
              for text in group.iter(SVG + "text")]
    assert sorted(label.strip(" \xa0") for label in labels) == sorted(e.grad for e in data.edges if e.grad)
    # Graphviz sizes the label with the spaces around it; a wider browser font still leaves a gap to the line.
    assert all(label.startswith((" ", "\xa0")) and label.endswith("\xa0") for label in labels), labels
