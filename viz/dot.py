"""From ``GraphData`` to Graphviz DOT source, styled by one table that is also the legend.

Every kind of box and every state has one row in ``STYLE``: its DOT
attributes and the sentence the legend shows for it. A picture's legend lists
exactly the rows its graph uses, so the legend can never disagree with the
drawing.
"""

import functools
import textwrap

from .graph import GraphData

# The palette, designed once (tests/viz/test_palette.py checks it): every state
# differs from every other, and from the box it sits on, by colour (CIELAB
# distance >= 10 for normal, deuteranope and protanope vision) AND by a cue
# that survives greyscale (a border pattern or width, and a word in MARK).
# Text on every fill has a contrast of at least 4.5:1 (WCAG AA).
STYLE = {
    # kinds of node (told apart by shape too: a double-bordered output, rounded ops, square leaves)
    "output": ({"shape": "box", "style": "filled", "fillcolor": "#c7e9c0", "peripheries": "2"},
               "output tensor: where backward starts"),
    "op": ({"shape": "box", "style": "rounded,filled", "fillcolor": "#e2e2e2"},
           "grad_fn node: applies the chain rule"),
    "leaf": ({"shape": "box", "style": "filled", "fillcolor": "#cfe2ff"},
             "leaf tensor: its .grad collects gradients"),
    "param": ({"shape": "box", "style": "filled", "fillcolor": "#9ec5f8"},
              "parameter (a named leaf)"),
    "saved": ({"shape": "box", "style": "filled", "fillcolor": "#ffe0b0", "fontsize": "10"},
              "tensor saved by the op for its backward"),
    "collapsed": ({"shape": "note", "style": "filled", "fillcolor": "#fff2b3"},
                  "nodes left out of the picture"),
    # states (drawn on top of the kind)
    "state:saved": ({}, None),
    "state:accumulated": ({"penwidth": "2.5", "color": "#1f5fbf"},
                          ".grad holds an accumulated gradient"),
    "state:freed": ({"style": "dashed,filled", "fillcolor": "#ffffff", "color": "#595959", "fontcolor": "#404040"},
                    "freed by a backward with retain_graph=False"),
    "state:modified": ({"penwidth": "2.5", "color": "#d62728", "fontcolor": "#a01010"},
                       "changed in place after it was saved: backward will fail"),
    "state:pruned": ({"style": "rounded,dashed,filled", "fillcolor": "#fff0a0", "color": "#595959",
                      "fontcolor": "#404040"},
                     "reached but not run (outside inputs=)"),
    "state:skipped": ({"style": "rounded,dotted,filled", "fillcolor": "#c4c4c4", "color": "#404040",
                       "penwidth": "1.5", "fontcolor": "#1a1a1a"},
                      "not reached by the recorded backward"),
    "state:failed": ({"penwidth": "3", "color": "#d62728", "fillcolor": "#ff8f8f"},
                     "the backward failed at this node"),
    "state:derivative": ({"fillcolor": "#d9c7ff"},
                         "recorded by backward(create_graph=True)"),
    # states a backward stepper shows, one engine step at a time
    "state:running": ({"penwidth": "3", "color": "#8a4b00", "fillcolor": "#ffb000"},
                      "running now: its backward is being applied"),
    "state:done": ({"fillcolor": "#9c9c9c"}, "has run"),
    "state:waiting": ({}, None),
    # kinds of edge
    "edge:grad": ({"color": "#444444", "fontcolor": "#1f4e99", "fontsize": "10"},
                  "gradient flows this way (label: the gradient it carried)"),
    # Saved tensors sit close to their node (weight) on a firm, dark link.
    "edge:saved": ({"style": "dashed", "arrowhead": "none", "color": "#8a5a00", "penwidth": "1.5", "weight": "4"},
                   None),
    "edge:cycle": ({"style": "dashed", "color": "#d62728", "constraint": "false", "fontcolor": "#b01c1c"},
                   "a .grad with a graph that leads back: reference cycle"),
}

# The greyscale cue of a state: a word its box shows (besides its border).
# freed and modified say it with lines of their own (see node_label).
MARK = {
    "pruned": "not run",
    "skipped": "not reached",
    "failed": "failed here",
    "derivative": "by create_graph",
    "running": "running now",
    "done": "ran",
    "waiting": "waiting",
}

MIN_FONT_SIZE = 10  # points; no text in a picture is smaller (tests check every fontsize)


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(attributes):
    return _attrs_of(tuple(sorted(attributes.items())))


@functools.lru_cache(maxsize=256)
def _attrs_of(items):
    # Cached: a big graph repeats a few edge styles tens of thousands of times.
    return ", ".join(f"{key}={_quote(value)}" for key, value in items)


def node_attributes(node):
    """The DOT attributes of one ``VizNode``: its kind's style, then its state's."""
    attributes = dict(STYLE[node.kind][0])
    if node.state:
        attributes.update(STYLE["state:" + node.state][0])
    attributes["label"] = node_label(node)
    attributes["class"] = f"{node.kind} {node.state}".strip()  # SVG classes, for tests and CSS
    return attributes


def edge_attributes(edge):
    """The DOT attributes of one ``VizEdge``: its kind's style, and its label or gradient."""
    attributes = dict(STYLE["edge:" + edge.kind][0])
    if edge.label:
        attributes["label"] = edge.label
    elif edge.grad is not None:
        attributes["label"] = gradient_label(edge.grad)
    return attributes


def gradient_label(text):
    """An edge's gradient with room around it: ``"  0.84  "``.

    Graphviz puts an edge's label right against its line, sized by its own
    font metrics; a browser whose sans-serif is wider (DejaVu Sans) then draws
    the digits over the line, where ``0.84`` reads as ``-0.84``, and a label
    can touch its sibling's. The spaces keep that room (they are not drawn).

    >>> gradient_label("[1, 2]")
    '  [1, 2]  '
    """
    return f"  {text}  "


def node_label(node):
    """The text in a box: name, shape, and what the options asked to show."""
    lines = [node.label]
    if node.kind in ("leaf", "param"):
        lines.append("AccumulateGrad")  # the sink that writes this leaf's .grad
    if node.kind == "saved" and node.name:
        lines[0] += f" = {node.name}"
    if node.kind == "op" and node.name:
        lines.append(f"makes {node.name}")  # the variable holding this node's output
    if node.shape:
        lines.append(node.shape if node.kind != "saved" or not node.dtype else f"{node.shape} {node.dtype}")
    if node.value:
        lines.append(f"value {node.value}")
    if node.grad:
        lines.append(f"grad {node.grad}")
    if node.kind == "saved" and node.state == "freed":
        lines.append("freed")
    elif node.kind == "saved" and node.state == "modified":
        lines.append(node.version)
    elif node.kind in ("leaf", "param", "output") and node.version not in (None, "0"):
        lines.append(f"version {node.version}")
    if node.scope and node.kind == "op":
        lines.append(f"[{node.scope}]")
    if node.state in MARK:
        lines.append(MARK[node.state])
    return "\n".join(lines)


LAYOUTS = ("stacked", "side by side")


def to_dot(data: GraphData, legend=True, ids=False, layout="stacked"):
    """DOT source for ``data``; identical for identical graphs.

    Args:
        data: what ``viz.graph.trace`` returned.
        legend: add a box explaining every style the picture uses (True), none
            (False), or the styles another ``GraphData`` uses (several pictures, one legend).
        ids: give each box its node id and each edge ``e<index>`` as SVG ids
            (the stepper restyles one layout by them).
        layout: for a picture of two graphs (``draw(loss, x.grad)`` after
            ``create_graph=True``), ``"stacked"`` puts the forward graph above
            the leaves and the graph the backward recorded below them, its
            arrows pointing up to the leaves they share: about half as wide,
            so it fits a book's column.
            ``"side by side"`` draws both top-down next to each other. A
            picture of one graph looks the same either way.

    Returns:
        str
    """
    if layout not in LAYOUTS:
        raise ValueError(f"layout={layout!r} is not a layout: use one of {', '.join(map(repr, LAYOUTS))}")
    flipped = _recorded_half(data) if layout == "stacked" else set()
    # Stacked, each rank can hold boxes of both graphs' widest parts: a little less room between
    # and inside boxes keeps such a picture within a 688 px column (text keeps its size).
    nodesep, margin = ("0.12", "0.05,0.03") if flipped else ("0.25", "0.08,0.04")
    out = ["digraph minigrad {",
           f'  graph [rankdir="TB", fontname="Helvetica", fontsize="12", nodesep="{nodesep}", ranksep="0.35"];',
           f'  node [fontname="Helvetica", fontsize="11", margin="{margin}"];',
           '  edge [arrowsize="0.7", fontname="Helvetica", fontsize="10"];']
    if data.title:  # wrapped: one long error line would make the picture huge
        wrapped = [piece for line in data.title.split("\n") for piece in (textwrap.wrap(line, 90) or [""])]
        out.append(f"  labelloc=\"t\"; label={_quote(chr(10).join(wrapped))};")
    key = _legend(data if legend is True else legend) if legend else None
    if key is not None and not data.title:
        # The legend is the picture's own label, under the graph at the left: it takes no place in the
        # layout (a legend box beside the graph made a 560 px graph 930 px wide) and is seen without
        # scrolling sideways. A picture with a title (an error) keeps the label for it, the legend a box.
        out.append(f"  labelloc=\"b\"; labeljust=\"l\"; label=<{key}>;")
    copies = _leaf_copies(data)
    for node in data.nodes:
        attributes = node_attributes(node)
        for copy_id in copies.get(node.id, [node.id]):
            if ids:
                attributes["id"] = copy_id
            out.append(f"  {copy_id} [{_attrs(attributes)}];")
    uses = {}
    for index, edge in enumerate(data.edges):
        attributes = edge_attributes(edge)
        if ids:
            attributes["id"] = f"e{index}"
        target = edge.target
        if edge.kind == "grad" and target in copies:  # each use of a shared leaf gets its own copy
            uses[target] = uses.get(target, -1) + 1
            target = copies[target][uses[target]]
        if edge.source in flipped:  # written upward so that Graphviz ranks it upward; drawn as before
            attributes["dir"] = "back"
            if "arrowhead" in attributes:
                attributes["arrowtail"] = attributes.pop("arrowhead")
            out.append(f"  {target} -> {edge.source} [{_attrs(attributes)}];")
        else:
            out.append(f"  {edge.source} -> {target} [{_attrs(attributes)}];")
    if key is not None and data.title:  # a box beside the graph, where Graphviz finds room
        out.append(f'  legend [shape="plain", label=<{key}>];')
    out.append("}")
    return "\n".join(out) + "\n"


def _recorded_half(data):
    """Ids of the boxes a stacked picture draws below the leaves, as edge sources.

    They are the ops a ``create_graph=True`` backward recorded (state
    ``derivative``), the outputs they made, and the tensors those ops saved.
    Every edge out of them is written reversed (``dir=back``), so Graphviz
    ranks them under what they point to; nothing points back into them from
    the forward graph, so the ranks never form a cycle.
    """
    half = {node.id for node in data.nodes if node.state == "derivative"}
    if not half:
        return set()
    outputs = {node.id for node in data.nodes if node.kind == "output"}
    half |= {edge.source for edge in data.edges
             if (edge.kind == "grad" and edge.source in outputs or edge.kind == "saved") and edge.target in half}
    return half


def _leaf_copies(data, big=150):
    """In a big graph, one box per use of a shared leaf: ``{leaf id: [ids of its copies]}``.

    A weight used at every step of an unrolled loop has edges from far-apart
    ranks, and with one box Graphviz's layout can take minutes; copies keep
    the layout a tree. Small graphs keep one box per leaf.
    """
    if len(data.nodes) <= big:
        return {}
    incoming = {}
    for edge in data.edges:
        if edge.kind == "grad":
            incoming[edge.target] = incoming.get(edge.target, 0) + 1
    return {node.id: [node.id] + [f"{node.id}_{k}" for k in range(1, incoming[node.id])]
            for node in data.nodes if node.kind in ("leaf", "param") and incoming.get(node.id, 0) > 1}


def used_styles(data):
    """The STYLE rows this graph uses, in STYLE's order."""
    used = {n.kind for n in data.nodes} | {"state:" + n.state for n in data.nodes if n.state}
    used |= {"edge:" + e.kind for e in data.edges}
    return [key for key in STYLE if key in used and STYLE[key][1]]


def _html(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _legend(data, rows=None):
    """One compact box (an HTML-like label): a swatch in each style the picture uses, and what it means.

    Returns:
        str, or None when the picture uses no style worth a line.
    """
    rows = used_styles(data) if rows is None else rows
    if not rows:
        return None
    cells = []
    # Graphviz measures the text in Helvetica, but a browser without it draws a wider sans-serif
    # (DejaVu Sans, about 12% wider): an empty last column keeps the longest line inside the box.
    room = round(0.12 * 5.6 * max(len(STYLE[key][1]) for key in rows))
    for key in rows:
        attributes, text = STYLE[key]
        if key.startswith("edge:"):
            color = attributes.get("color", "#444444")
            dash = {"dashed": "- - \u2192", "dotted": "\u00b7\u00b7\u00b7 "}.get(attributes.get("style"), "\u2014\u2192")
            swatch = f'<TD WIDTH="34"><FONT COLOR="{color}">{dash}</FONT></TD>'
        else:
            # A state's swatch sits on the kind it applies to (saved tensors, leaves, ops).
            base = {"state:freed": "saved", "state:modified": "saved", "state:accumulated": "leaf"}.get(key, "op")
            style = dict(STYLE[base][0]) if key.startswith("state:") else {}
            style.update(attributes)
            fill = style.get("fillcolor", "#ffffff")
            border = style.get("color", "#666666")
            width = "2" if "penwidth" in style else "1"  # outlined states get a thick edge here too
            # The state's word inside its swatch: the legend reads in greyscale too.
            mark = MARK.get(key.partition(":")[2], "")
            face = f'<FONT POINT-SIZE="{MIN_FONT_SIZE}" COLOR="{style.get("fontcolor", "#000000")}">{_html(mark)}</FONT>'
            swatch = f'<TD WIDTH="34" BGCOLOR="{fill}" COLOR="{border}" BORDER="{width}">{face if mark else " "}</TD>'
        cells.append(f'<TR>{swatch}<TD ALIGN="LEFT">{_html(text)}</TD><TD WIDTH="{room}"></TD></TR>')
    table = ('<TABLE STYLE="rounded" BORDER="1" COLOR="#bbbbbb" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">'
             '<TR><TD COLSPAN="3" ALIGN="LEFT"><B>legend</B></TD></TR>' + "".join(cells) + "</TABLE>")
    return f'<FONT POINT-SIZE="{MIN_FONT_SIZE}">{table}</FONT>'


def state_css(scope=""):
    """CSS that gives an SVG box the look of its kind and state in STYLE, by its class.

    The stepper lays a graph out once and switches looks per frame by
    changing each box's ``class``: these rules (which win over Graphviz's
    own presentation attributes) draw each kind, then each state on top,
    exactly as ``node_attributes`` would have. Outlines Graphviz leaves
    unfilled (an output's second border, a note's fold) stay unfilled.

    Args:
        scope: a selector the rules are limited to, e.g. ``"svg.mg-steps"``.

    >>> "g.node.running>polygon" in state_css()
    True
    """
    dashes = {"dashed": "5,2", "dotted": "1,5"}
    rules = []
    for key, (attributes, _) in STYLE.items():
        if key.startswith("edge:"):
            continue
        is_kind = not key.startswith("state:")
        name = key.partition(":")[2] or key
        shape = {}
        if "fillcolor" in attributes:
            shape["fill"] = attributes["fillcolor"]
        if "color" in attributes or is_kind:
            shape["stroke"] = attributes.get("color", "#000000")
        if "penwidth" in attributes or is_kind:
            shape["stroke-width"] = attributes.get("penwidth", "1")
        pattern = [dashes[word] for word in attributes.get("style", "").split(",") if word in dashes]
        if pattern or is_kind:
            shape["stroke-dasharray"] = pattern[0] if pattern else "none"
        node = f"{scope} g.node.{name}".strip()
        if shape:
            body = ";".join(f"{k}:{v}" for k, v in shape.items())
            rules.append(f'{node}>polygon:not([fill="none"]),{node}>path:not([fill="none"]){{{body}}}')
            outline = {k: v for k, v in shape.items() if k != "fill"}
            if outline:
                body = ";".join(f"{k}:{v}" for k, v in outline.items())
                rules.append(f'{node}>polygon[fill="none"],{node}>polyline{{{body}}}')
        if "fontcolor" in attributes or is_kind:
            rules.append(f"{node}>text{{fill:{attributes.get('fontcolor', '#000000')}}}")
    return "\n".join(rules)
