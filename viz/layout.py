"""One Graphviz layout, many frames: restyle an SVG instead of laying it out again.

A backward stepper shows the same graph at every step; only states (the
running node, what has run, what was freed) and a few texts (gradients that
have arrived) change. Laying the graph out once per frame costs graph x steps
(a 500-node graph took a minute and 130 MB); here it is laid out once, and a
frame is that SVG with

1. each box's ``class`` set to ``node <kind> <state>`` (``viz.dot.state_css``
   draws each state from the STYLE table, so a class is a whole look), and
2. the text lines of each box and each edge label replaced.

The layout must have room for every frame's text: the stepper lays it out
with each box's widest text, and keeps the number of lines the same in every
frame (a line that has nothing to say yet says "waiting" or "not yet").

``Layout.fill`` does this in Python (the widget, ``Stepper.svg(k)``);
``PLAYER_SCRIPT`` does the same in the browser for the kernel-free page, from a
timeline whose size grows with the graph, not with graph x steps.

>>> svg = ('<svg><g id="n0" class="node op"><title>n0</title><text>Mul</text>'
...        '<text>waiting</text></g></svg>')
>>> Layout(svg).fill({"n0": ("op running", ["Mul", "running now"])}, {})
'<svg><g id="n0" class="node op running"><title>n0</title><text>Mul</text><text>running now</text></g></svg>'
"""

import html
import re

__all__ = ["Layout", "PLAYER_SCRIPT"]

_GROUP = re.compile(r'<g id="(?P<id>[^"]+)" class="(?P<class>(?:node|edge)[^"]*)">(?P<body>.*?)</g>', re.DOTALL)
_TEXT = re.compile(r"(<text\b[^>]*>)(.*?)(</text>)", re.DOTALL)


def base_id(svg_id):
    """``n5`` for ``n5`` and for ``n5_2`` (a big graph's copy of a shared leaf)."""
    return svg_id.split("_", 1)[0]


class Layout:
    """An SVG cut into fixed pieces and holes: one ``class`` per box, one hole per text line.

    Args:
        svg: Graphviz's SVG of DOT made with ``to_dot(..., ids=True)``: boxes
            have their node ids (``n3``, ``n3_1``), edges ``e<index>``.
    """

    def __init__(self, svg):
        # Literal text, or a hole: ("class", box id, what the layout had) / ("text", box or edge id,
        # line number, what it had). Box ids are base ids: every copy of a shared leaf looks the same.
        self.pieces = []
        position = 0
        for group in _GROUP.finditer(svg):
            group_id, kind = group["id"], group["class"].split()[0]
            self.pieces.append(svg[position:group.start()])
            self.pieces.append(f'<g id="{group_id}" class="')
            if kind == "node":
                group_id = base_id(group_id)
                self.pieces.append(("class", group_id, group["class"]))
            else:
                self.pieces.append(group["class"])
            self.pieces.append('">')
            body, at, line = group["body"], 0, 0
            for text in _TEXT.finditer(body):
                self.pieces.append(body[at:text.start()] + text.group(1))
                self.pieces.append(("text", group_id, line, text.group(2)))
                self.pieces.append(text.group(3))
                at, line = text.end(), line + 1
            self.pieces.append(body[at:] + "</g>")
            position = group.end()
        self.pieces.append(svg[position:])

    def fill(self, nodes, edges):
        """The SVG of one frame.

        Args:
            nodes: ``{node id: (classes after "node ", [text lines])}``.
            edges: ``{edge id: label text}`` ("" hides a label).
            A box or edge not given keeps the layout's look and text.

        Returns:
            str
        """
        out = []
        for piece in self.pieces:
            if piece.__class__ is str:
                out.append(piece)
            elif piece[0] == "class":
                look = nodes.get(piece[1])
                out.append(piece[2] if look is None else "node " + look[0])
            elif piece[1] in edges:
                out.append(html.escape(edges[piece[1]], quote=False) if piece[2] == 0 else "")
            elif piece[1] in nodes:
                lines = nodes[piece[1]][1]
                out.append(html.escape(lines[piece[2]], quote=False) if piece[2] < len(lines) else "")
            else:
                out.append(piece[3])
        return "".join(out)


# The browser's half of Layout.fill, for the kernel-free page. TIMELINE is
# {"nodes": {id: [[frame, classes, lines], ...]}, "edges": {id: [[frame, text], ...]},
#  "texts": [panel text per frame]}: each box's changes, in frame order.
PLAYER_SCRIPT = """(function () {
  var root = document.getElementById("UID"), data = TIMELINE;
  var range = root.querySelector("input[type=range]"), where = root.querySelector(".mg-where");
  var panel = root.querySelector(".mg-text"), play = root.querySelector("[data-go=play]");
  var last = data.texts.length - 1, timer = null;
  function at(changes, k) {  // the last change at or before frame k
    var found = changes[0];
    for (var i = 1; i < changes.length && changes[i][0] <= k; i++) found = changes[i];
    return found;
  }
  function boxes(id) {  // a shared leaf may be drawn more than once (n5, n5_1, ...)
    return root.querySelectorAll('g[id="UID-' + id + '"], g[id^="UID-' + id + '_"]');
  }
  var nodeBoxes = {}, edgeTexts = {};
  Object.keys(data.nodes).forEach(function (id) { nodeBoxes[id] = boxes(id); });
  Object.keys(data.edges).forEach(function (id) {
    var g = root.querySelector('g[id="UID-' + id + '"]');
    edgeTexts[id] = g ? g.getElementsByTagName("text") : [];
  });
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    Object.keys(nodeBoxes).forEach(function (id) {
      var change = at(data.nodes[id], k);
      nodeBoxes[id].forEach(function (g) {
        g.setAttribute("class", "node " + change[1]);
        var texts = g.getElementsByTagName("text");
        for (var i = 0; i < texts.length; i++) texts[i].textContent = i < change[2].length ? change[2][i] : "";
      });
    });
    Object.keys(edgeTexts).forEach(function (id) {
      var texts = edgeTexts[id];
      if (texts.length) texts[0].textContent = at(data.edges[id], k)[1];
    });
    panel.textContent = data.texts[k];
    range.value = k;
    where.textContent = k === 0 ? "before backward" : "step " + k + " of " + last;
  }
  function stop() { clearInterval(timer); timer = null; play.textContent = "play"; }
  function go(k) { stop(); show(k); }
  range.addEventListener("input", function () { go(+range.value); });
  root.querySelector("[data-go=first]").onclick = function () { go(0); };
  root.querySelector("[data-go=prev]").onclick = function () { go(+range.value - 1); };
  root.querySelector("[data-go=next]").onclick = function () { go(+range.value + 1); };
  root.querySelector("[data-go=last]").onclick = function () { go(last); };
  play.onclick = function () {
    if (timer) return stop();
    if (+range.value >= last) show(0);
    play.textContent = "pause";
    timer = setInterval(function () { show(+range.value + 1); if (+range.value >= last) stop(); }, 1200);
  };
  show(0);
})();
"""
