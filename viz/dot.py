"""From ``GraphData`` to Graphviz DOT source, styled by one table that is also the legend.

Every kind of box and every state has one row in ``STYLE``: its DOT
attributes and the sentence the legend shows for it. A picture's legend lists
exactly the rows its graph uses, so the legend can never disagree with the
drawing.
"""

import textwrap

from .graph import GraphData

STYLE = {
    # kinds of node
    "output": ({"shape": "box", "style": "filled", "fillcolor": "#c8ecc4"},
               "output tensor: where backward starts"),
    "op": ({"shape": "box", "style": "rounded,filled", "fillcolor": "#ececec"},
           "grad_fn node: applies the chain rule"),
    "leaf": ({"shape": "box", "style": "filled", "fillcolor": "#cfe2ff"},
             "leaf tensor: its .grad collects gradients"),
    "param": ({"shape": "box", "style": "filled", "fillcolor": "#9fc5ff"},
              "parameter (a named leaf)"),
    "saved": ({"shape": "box", "style": "filled", "fillcolor": "#ffe0b0", "fontsize": "10"},
              "tensor saved by the op for its backward"),
    "collapsed": ({"shape": "note", "style": "filled", "fillcolor": "#fff7cc"},
                  "nodes left out of the picture"),
    # states (drawn on top of the kind)
    "state:saved": ({}, None),
    "state:accumulated": ({"penwidth": "2.5", "color": "#1f5fbf"},
                          ".grad holds an accumulated gradient"),
    "state:freed": ({"style": "dashed,filled", "fillcolor": "#f6f6f6", "color": "#9a9a9a", "fontcolor": "#9a9a9a"},
                    "freed by a backward with retain_graph=False"),
    "state:modified": ({"penwidth": "2.5", "color": "#d62728", "fontcolor": "#b01010"},
                       "changed in place after it was saved: backward will fail"),
    "state:pruned": ({"style": "rounded,dashed,filled", "fillcolor": "#f6f6f6", "fontcolor": "#777777"},
                     "reached but not run (outside inputs=)"),
    "state:skipped": ({"style": "rounded,dotted,filled", "fillcolor": "#f6f6f6", "fontcolor": "#777777"},
                      "not reached by the recorded backward"),
    "state:failed": ({"penwidth": "3", "color": "#d62728", "fillcolor": "#ffd4d4"},
                     "the backward failed at this node"),
    "state:derivative": ({"fillcolor": "#e4d7ff"},
                         "recorded by backward(create_graph=True)"),
    # states a backward stepper shows, one engine step at a time
    "state:running": ({"penwidth": "3", "color": "#e07b00", "fillcolor": "#ffe9c7"},
                      "running now: its backward is being applied"),
    "state:done": ({"fillcolor": "#d9f0d9"}, "has run"),
    "state:waiting": ({}, None),
    # kinds of edge
    "edge:grad": ({"color": "#444444"}, "gradient flows this way"),
    "edge:saved": ({"style": "dotted", "arrowhead": "none", "color": "#c08020"}, None),
    "edge:cycle": ({"style": "dashed", "color": "#d62728", "constraint": "false", "fontcolor": "#d62728"},
                   "a .grad with a graph that leads back: reference cycle"),
}


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(attributes):
    return ", ".join(f"{key}={_quote(value)}" for key, value in sorted(attributes.items()))


def node_attributes(node):
    """The DOT attributes of one ``VizNode``: its kind's style, then its state's."""
    attributes = dict(STYLE[node.kind][0])
    if node.state:
        attributes.update(STYLE["state:" + node.state][0])
    attributes["label"] = node_label(node)
    attributes["class"] = f"{node.kind} {node.state}".strip()  # SVG classes, for tests and CSS
    return attributes


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
    return "\n".join(lines)


def to_dot(data: GraphData, legend=True):
    """DOT source for ``data``; identical for identical graphs.

    Args:
        data: what ``viz.graph.trace`` returned.
        legend: add a box explaining every style the picture uses (True), none
            (False), or the styles another ``GraphData`` uses (several pictures, one legend).

    Returns:
        str
    """
    out = ["digraph minigrad {",
           '  graph [rankdir="TB", fontname="Helvetica", fontsize="12", nodesep="0.25", ranksep="0.35"];',
           '  node [fontname="Helvetica", fontsize="11", margin="0.08,0.04"];',
           '  edge [arrowsize="0.7"];']
    if data.title:  # wrapped: one long error line would make the picture huge
        wrapped = [piece for line in data.title.split("\n") for piece in (textwrap.wrap(line, 90) or [""])]
        out.append(f"  labelloc=\"t\"; label={_quote(chr(10).join(wrapped))};")
    copies = _leaf_copies(data)
    for node in data.nodes:
        attributes = _attrs(node_attributes(node))
        for copy_id in copies.get(node.id, [node.id]):
            out.append(f"  {copy_id} [{attributes}];")
    uses = {}
    for edge in data.edges:
        attributes = dict(STYLE["edge:" + edge.kind][0])
        if edge.label:
            attributes["label"] = edge.label
        target = edge.target
        if edge.kind == "grad" and target in copies:  # each use of a shared leaf gets its own copy
            uses[target] = uses.get(target, -1) + 1
            target = copies[target][uses[target]]
        out.append(f"  {edge.source} -> {target} [{_attrs(attributes)}];")
    if legend is True:
        out.extend(_legend(data))
    elif legend:  # a GraphData: the legend of its styles (a stepper's frames share one)
        out.extend(_legend(legend))
    out.append("}")
    return "\n".join(out) + "\n"


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
    """One compact box: a swatch in each style the picture uses, and what it means."""
    rows = used_styles(data) if rows is None else rows
    if not rows:
        return []
    cells = []
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
            swatch = f'<TD WIDTH="34" BGCOLOR="{fill}" COLOR="{border}" BORDER="{width}"> </TD>'
        cells.append(f'<TR>{swatch}<TD ALIGN="LEFT">{_html(text)}</TD></TR>')
    table = ('<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">'
             '<TR><TD COLSPAN="2" ALIGN="LEFT"><B>legend</B></TD></TR>' + "".join(cells) + "</TABLE>")
    return [f'  legend [shape="box", style="rounded", color="#bbbbbb", fontsize="10", label=<{table}>];']
