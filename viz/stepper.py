"""A backward pass, one node at a time: a player over the engine's own steps.

``Stepper(loss)`` runs ``minigrad.engine.iter_backward`` (the generator that
``loss.backward()`` itself consumes, not a copy of its loop) and keeps every
``BackwardStep`` it yields. Each step becomes a *frame*: a picture of the graph
with the node being run highlighted, and a text panel with the gradients that
came in and went out, the dependency counts still pending, the ``.grad``
accumulations (before and after) and what a ``retain_graph=False`` backward
would have freed so far.

Your tensors are not changed. The stepper asks the engine to

* keep the saved tensors (``retain_graph=True``): what a ``retain_graph=False``
  backward *would* free is only shown, so ``loss.backward()`` still works after;
* capture the gradients instead of writing ``.grad`` (``accumulate_grad=False``,
  with every leaf as one of the ``inputs``): "after" is computed as
  "before + captured", the sum ``backward()`` would store.

NB: hooks you registered (``tensor.register_hook``, node hooks) run, as in a
real backward; ``register_post_accumulate_grad_hook`` hooks do not, because
nothing is accumulated.

Two ways to look at the frames:

* ``stepper.widget()`` (also what a notebook cell shows): an ipywidgets player
  and slider; it needs a running kernel.
* ``stepper.to_html()``: pre-rendered frames with a slider in plain JavaScript,
  for the static book (``IPython.display.HTML(stepper.to_html())``) or a file
  (``stepper.save_html(path)``).

>>> import minigrad
>>> from viz.stepper import Stepper
>>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
>>> loss = (x * x).sum()
>>> stepper = Stepper(loss)
>>> stepper
<minigrad backward stepper: 3 steps>
>>> [step.node.name() for step in stepper.steps]
['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
>>> print(stepper.accumulations[2][0])
x.grad: before None -> after [2, 4]
>>> print(x.grad)  # only shown: backward() has not run
None
"""

import dataclasses
import hashlib
import html
import itertools
import re
import sys
from collections import deque
from pathlib import Path

import minigrad
from minigrad import messages
from minigrad.autograd import _check_roots, _make_grads
from minigrad.engine import iter_backward
from minigrad.function import AccumulateGrad

from .graph import GraphData, format_array, names_from_frame, names_of, trace

__all__ = ["Stepper", "Accumulation"]

# Ids of HTML exports made in this process: two exports of the same graph on one
# page must not share element ids, and a fresh kernel numbers them the same way.
_export_counter = itertools.count(1)


@dataclasses.dataclass
class Accumulation:
    """One write into a ``.grad`` that ``backward()`` would do at a step.

    Attributes:
        tensor: the tensor whose ``.grad`` it is (a leaf, a ``retain_grad()``
            tensor, or a non-leaf in ``inputs``).
        label: its name in the picture, e.g. ``"x"``.
        before: NumPy copy of its ``.grad`` now (None if it has none).
        after: ``before + gradient``: what ``.grad`` holds after ``backward()``.
    """

    tensor: object
    label: str
    before: object
    after: object

    def __str__(self):
        before = "None" if self.before is None else format_array(self.before)
        return f"{self.label}.grad: before {before} -> after {format_array(self.after)}"


class Stepper:
    """Every step of ``root.backward(gradient)``, as frames to play through.

    Args:
        root: the tensor to run backward from (usually the loss).
        gradient: d(something)/d(root), as in ``root.backward(gradient)``;
            may be omitted for a single-element root.
        retain_graph: the backward to show. With False (``backward()``'s
            default) the frames show the saved tensors freed after each node;
            they are only shown as freed, never really freed.
        inputs: as in ``backward(inputs=...)``: only these tensors get a
            gradient, and only nodes on a path to them run.
        names: names for tensors (a dict, an ``nn.Module``, or a list of both);
            by default the caller's variable names are used.
        values: show tensor values in the boxes of the picture.

    Attributes:
        steps: the ``BackwardStep`` records the engine yielded, in order.
        pending: per frame, ``{node: edges still to arrive}`` (frame 0: before
            any node ran, frame k: after step k).
        accumulations: per step, the ``Accumulation`` records made there.
        freed: per frame, ``[(node, names of saved tensors)]`` a
            ``retain_graph=False`` backward would have freed by then.
        frames: per frame, the ``GraphData`` picture (``len(steps) + 1`` frames).
        texts: per frame, the text panel.

    Raises:
        RuntimeError: whatever ``root.backward(...)`` would raise (a freed
            graph, a tensor changed in place, a wrong-shaped gradient).
    """

    def __init__(self, root, gradient=None, retain_graph=False, inputs=None, names=None, values=True):
        found = names_from_frame(sys._getframe(1))
        found.update(names_of(names))
        self.root = root
        self._names = found
        self.retain_graph = retain_graph
        self._root_grads = _make_grads([root], [gradient])
        _check_roots([root])
        self._inputs = _inputs_of(root, inputs)
        self.steps, self.pending, retained = _run_engine(root, self._root_grads, self._inputs)

        # The picture every frame starts from; max_nodes=inf: each node needs a box to light up.
        self._base = trace(root, names=found, values=values, grads=True, saved=True, max_nodes=float("inf"))
        self._ids = _viz_ids(root, self._base)
        self._step_of = {step.node: k for k, step in enumerate(self.steps)}
        self._label = {fn: self._describe(fn) for fn in self._ids}

        self.accumulations = [self._accumulations(step, retained) for step in self.steps]
        self.freed = self._freed_per_frame()
        self.frames = [self._frame(k) for k in range(len(self.steps) + 1)]
        self.texts = [self._text(k) for k in range(len(self.steps) + 1)]
        self._svgs = None

    def __len__(self):
        return len(self.steps)

    def __repr__(self):
        return f"<minigrad backward stepper: {len(self.steps)} steps>"

    # --- what each step did ------------------------------------------------------
    def _describe(self, fn):
        """A node's name in the text: its box's first line, and what it makes."""
        viz_node = self._base.node(self._ids[fn])
        if isinstance(fn, AccumulateGrad):
            return f"AccumulateGrad ({viz_node.label})"
        return viz_node.label + (f" (makes {viz_node.name})" if viz_node.name else "")

    def _name(self, fn, step=True):
        """How the text panel names a node, with ``[step k]`` to find it in the picture."""
        text = self._label.get(fn) or fn.name()
        if step and fn in self._step_of:
            text += f" [step {self._step_of[fn] + 1}]"
        return text

    def _accumulations(self, step, retained):
        """The ``.grad`` writes ``backward()`` would make at ``step``."""
        records = []
        inputs = self._inputs
        for position, grad in step.captured:
            records.append(_accumulation(inputs[position], self._tensor_label(inputs[position]), grad))
        for output_nr, grad in enumerate(step.grad_outputs):
            tensor = retained.get((step.node, output_nr))
            if tensor is not None and grad is not None and not any(r.tensor is tensor for r in records):
                records.append(_accumulation(tensor, self._tensor_label(tensor), grad))
        return records

    def _tensor_label(self, tensor):
        """A tensor's name: its variable's, else what made it (``leaf``, ``MulBackward0's output``)."""
        if id(tensor) in self._names:
            return self._names[id(tensor)]
        if tensor.grad_fn is None:
            return "leaf"
        return f"({tensor.grad_fn.name()}'s output)"

    def _freed_per_frame(self):
        freed, so_far = [[]], []
        for step in self.steps:
            if not self.retain_graph and step.executed:
                names = _would_release(step.node)
                if names:
                    so_far = so_far + [(step.node, names)]
            freed.append(so_far)
        return freed

    # --- frames ------------------------------------------------------------------
    def _frame(self, k):
        """The picture after ``k`` steps (frame 0: before backward)."""
        nodes = {n.id: dataclasses.replace(n) for n in self._base.nodes}
        saved_of = {}
        for edge in self._base.edges:
            if edge.kind == "saved":
                saved_of.setdefault(edge.target, []).append(edge.source)
        leaf_grads = {}
        for index, records in enumerate(self.accumulations):
            for record in records:
                leaf_grads[id(record.tensor)] = record.after if index < k else record.before
        for fn, viz_id in self._ids.items():
            node = nodes[viz_id]
            step = self._step_of.get(fn)
            is_leaf = isinstance(fn, AccumulateGrad)
            if is_leaf and id(fn.variable) in leaf_grads:
                grad = leaf_grads[id(fn.variable)]
                node.grad = "None" if grad is None else format_array(grad)
            elif is_leaf:
                node.grad = "None" if fn.variable._grad is None else node.grad
            if step is None:
                node.state = "skipped"  # outside inputs=: backward never reaches it
            elif step == k - 1:
                node.state = "running"
            elif is_leaf:
                node.state = "accumulated" if node.grad != "None" else ""
            elif step < k - 1:
                # Reached only to take an inputs= gradient: drawn as backward(inputs=) leaves it.
                node.state = "pruned" if self.steps[step].captured and not self.steps[step].executed else "done"
            else:
                node.state = ""
            node.label = f"{node.label}\nstep {step + 1}" if step is not None else node.label
        freed_ids = {saved_id for fn, _ in self.freed[k] for saved_id in saved_of.get(self._ids.get(fn), ())}
        for node in nodes.values():
            if node.id in freed_ids:
                node.state = "freed"
            elif node.kind == "saved" and node.state == "saved":
                # "kept" takes the line "freed" will take: the layout stays put from frame to frame.
                if node.value is not None:
                    node.value += "\nkept"
                elif node.shape is not None:
                    node.shape += "\nkept"
        title = "before backward"
        if k > 0:
            title = f"step {k} of {len(self.steps)}: {self._name(self.steps[k - 1].node, step=False)}"
        return GraphData(list(nodes.values()), self._base.edges, title=title)

    def _text(self, k):
        """The text panel of frame ``k``, in fixed number formats."""
        lines = []
        total = len(self.steps)
        if k == 0:
            lines.append(f"before backward: {total} steps to run")
            grads = ", ".join(_format(g) for g in self._root_grads)
            lines.append(f"{self._base.nodes[0].label} receives the gradient {grads}")
            lines.append("  (backward's `gradient`; 1 for a single-element output)")
        else:
            step = self.steps[k - 1]
            lines.append(f"step {k} of {total}: {self._name(step.node, step=False)}")
            lines.extend(self._io_lines(step))
            records = self.accumulations[k - 1]
            if records:
                lines.append("accumulates into .grad:")
                lines.extend(f"  {record}" for record in records)
        lines.append("")
        lines.extend(self._pending_lines(k))
        lines.append("")
        lines.extend(self._freed_lines(k))
        return "\n".join(lines)

    def _io_lines(self, step):
        if len(step.grad_outputs) == 1:
            lines = [f"gradient in (grad_outputs): {_format(step.grad_outputs[0])}"]
        else:
            lines = ["gradients in (grad_outputs), one per output:"]
            lines.extend(f"  [{i}] {_format(g)}" for i, g in enumerate(step.grad_outputs))
        if isinstance(step.node, AccumulateGrad):
            return lines
        if not step.executed and step.captured:
            lines.append("not run: its gradient is taken here for inputs=, nothing below is wanted")
            return lines
        if not step.executed:
            lines.append("not run: no gradient arrived, so there is nothing to compute or send on")
            return lines
        lines.append("gradients out (grad_inputs), one per input:")
        for (child, _), grad in zip(step.node.next_functions, step.grad_inputs):
            if child is None:
                lines.append("  -> (an input that needs no gradient)")
            elif child not in self._step_of:
                lines.append(f"  -> {self._name(child)}: not sent (outside inputs=)")
            else:
                lines.append(f"  -> {self._name(child)}: {_format(grad)}")
        return lines

    def _pending_lines(self, k):
        """Dependency counts of the nodes still to run, with what this step changed."""
        now = self.pending[k]
        before = self.pending[k - 1] if k > 0 else {}
        waiting = sorted((fn for fn in now if self._step_of.get(fn, -1) >= k), key=self._step_of.get)
        if not waiting:
            return ["dependencies: every node has run"]
        lines = ["dependencies (gradient edges still to arrive):"]
        for fn in waiting:
            count = f"{before[fn]} -> {now[fn]}" if fn in before and before[fn] != now[fn] else f"{now[fn]}"
            ready = " (ready)" if now[fn] == 0 else ""
            lines.append(f"  {self._name(fn)}: {count}{ready}")
        return lines

    def _freed_lines(self, k):
        if self.retain_graph:
            return ["freed: nothing (retain_graph=True keeps the saved tensors)"]
        if not self.freed[k]:
            return ["freed so far: nothing yet"]
        lines = ["freed so far by retain_graph=False (only shown: your graph keeps them):"]
        for fn, names in self.freed[k]:
            lines.append(f"  {self._name(fn)}: " + ", ".join(f"_saved_{n}" for n in names))
        return lines

    # --- pictures ----------------------------------------------------------------
    def dot(self, k):
        """DOT source of frame ``k``, with one legend for all frames (so it never jumps)."""
        from .dot import to_dot

        every_frame = GraphData([n for f in self.frames for n in f.nodes], self._base.edges)
        return to_dot(self.frames[k], legend=every_frame)

    def picture(self, k):
        """Frame ``k`` as a ``viz.render.Picture`` (shows in a notebook, saves to .png/.svg)."""
        from .render import Picture

        return Picture(self.dot(k), f"<minigrad backward stepper: frame {k} of {len(self.steps)}>")

    def svgs(self):
        """Every frame as SVG text, rendered once (sliding then costs nothing)."""
        if self._svgs is None:
            from .render import render_svg

            self._svgs = [render_svg(self.dot(k)) for k in range(len(self.frames))]
        return self._svgs

    def widget(self):
        """An ipywidgets player: Play and a slider over the frames, the picture and the text.

        Needs a running kernel to change frames; for a static page use ``to_html()``.

        Returns:
            ipywidgets.VBox
        """
        import ipywidgets as widgets

        svgs, last = self.svgs(), len(self.frames) - 1
        play = widgets.Play(value=0, min=0, max=last, step=1, interval=1200, description="play")
        slider = widgets.IntSlider(value=0, min=0, max=last, step=1, description="step")
        widgets.jslink((play, "value"), (slider, "value"))  # in the browser: works while idle
        # Side by side, the picture gets the larger share; each shrinks rather than overflows.
        picture = widgets.HTML(value=_inline(svgs[0]), layout=widgets.Layout(flex="3 1 0%", min_width="0"))
        text = widgets.HTML(value=_pre(self.texts[0]), layout=widgets.Layout(flex="2 1 0%", min_width="0"))

        def show(change):
            picture.value = _inline(svgs[change["new"]])
            text.value = _pre(self.texts[change["new"]])

        slider.observe(show, names="value")
        return widgets.VBox([widgets.HBox([play, slider]), widgets.HBox([picture, text])])

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The widget in Jupyter, with a stable ``text/plain``."""
        bundle = self.widget()._repr_mimebundle_(include=include, exclude=exclude) or {}
        bundle["text/plain"] = repr(self)
        return bundle

    # --- the static form ---------------------------------------------------------
    def to_html(self):
        """A self-contained HTML fragment: every frame pre-rendered, a slider and buttons.

        It needs no kernel and no external script: the frames are inline SVG in
        hidden ``<div>``s and about twenty lines of plain JavaScript show one at
        a time. Element ids come from the content and a counter, so a fresh
        run numbers them the same way.

        Returns:
            str
        """
        svgs = self.svgs()
        # From the DOT sources, not the SVG: the same on every machine and Graphviz version.
        sources = [self.dot(k) for k in range(len(self.frames))]
        digest = hashlib.sha1("\n".join(self.texts + sources).encode("utf-8")).hexdigest()[:10]
        uid = f"minigrad-stepper-{digest}-{next(_export_counter)}"
        last = len(self.frames) - 1
        frames = []
        for k, (svg, text) in enumerate(zip(svgs, self.texts)):
            hidden = "" if k == 0 else ' style="display:none"'
            picture = f'<div class="mg-picture" style="flex:3 1 560px;min-width:0">{_inline(svg, f"{uid}-{k}-")}</div>'
            row = f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{picture}{_pre(text)}</div>'
            frames.append(f'<div class="mg-frame"{hidden}>{row}</div>')
        buttons = "".join(f'<button type="button" data-go="{go}" title="{tip}">{html.escape(face)}</button>'
                          for go, face, tip in (("first", "|<", "first"), ("prev", "<", "previous step"),
                                                ("play", "play", "play / pause"), ("next", ">", "next step"),
                                                ("last", ">|", "last")))
        return (f'<div id="{uid}" class="minigrad-stepper" style="font-family:sans-serif">\n'
                f'<div style="display:flex;gap:4px;align-items:center;margin-bottom:6px">{buttons}'
                f'<input type="range" min="0" max="{last}" value="0" step="1" style="width:240px">'
                f'<span class="mg-where">before backward</span></div>\n'
                f'<div style="overflow:auto">\n' + "\n".join(frames) + "\n</div>\n</div>\n"
                f"<script>\n{_SCRIPT.replace('UID', uid)}</script>\n")

    def save_html(self, path):
        """Write ``to_html()`` as a whole HTML page; returns the ``pathlib.Path`` written."""
        path = Path(path)
        path.write_text('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>minigrad backward stepper'
                        f"</title></head>\n<body>\n{self.to_html()}</body></html>\n", encoding="utf-8")
        return path


# The whole player of the static form. Plain DOM calls only: it runs on the
# book's pages and in a saved file alike.
_SCRIPT = """(function () {
  var root = document.getElementById("UID");
  var frames = root.getElementsByClassName("mg-frame");
  var range = root.querySelector("input[type=range]"), where = root.querySelector(".mg-where");
  var play = root.querySelector("[data-go=play]"), timer = null, last = frames.length - 1;
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    for (var i = 0; i <= last; i++) frames[i].style.display = i === k ? "" : "none";
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
})();
"""


def _inputs_of(root, inputs):
    """The tensors whose gradients the stepper captures: ``inputs``, or every leaf."""
    if inputs is None:
        if root.grad_fn is None:
            return [root]  # backward from a leaf: its own gradient is all there is
        return [fn.variable for fn in _walk(root) if isinstance(fn, AccumulateGrad)]
    inputs = [inputs] if isinstance(inputs, minigrad.Tensor) else list(inputs)
    if not inputs:
        raise RuntimeError(messages.EMPTY_INPUTS)
    if any(not t.requires_grad for t in inputs):
        raise RuntimeError(messages.INPUT_NOT_REQUIRING_GRAD)
    unique = {id(t): t for t in inputs}  # by identity: == on tensors compares values
    return list(unique.values())


def _run_engine(root, root_grads, inputs):
    """Run the engine's own generator over ``root``'s graph, changing none of its tensors.

    ``retain_graph=True`` keeps the saved tensors; ``accumulate_grad=False``
    with ``inputs`` captures gradients instead of writing ``.grad``. The
    engine writes a ``retain_grad()`` tensor's ``.grad`` regardless, so those
    marks are lifted while it runs and put back after.

    Returns:
        (steps, pending, retained): the steps; the dependency counts per frame
        (frame 0 before any node ran); ``{(node, output_nr): tensor}`` of the
        ``retain_grad()`` tensors.
    """
    retained, hidden = {}, []
    for fn in _walk(root):
        if fn._retain_grad:
            hidden.append((fn, fn._retain_grad))
            for output_nr, ref in fn._retain_grad.items():
                if ref() is not None:
                    retained[(fn, output_nr)] = ref()
    steps, pending = [], []
    try:
        for fn, _ in hidden:
            fn._retain_grad = None
        for step in iter_backward([root], root_grads, retain_graph=True, inputs=inputs, accumulate_grad=False):
            steps.append(step)
            pending.append(dict(step.pending))  # the engine's dict is live: keep this moment's counts
    finally:
        for fn, marks in hidden:
            fn._retain_grad = marks
    # Counts before the first node ran: add back the edges it sent. It sends
    # on exactly the edges into nodes the engine counts, the keys of pending.
    first = dict(pending[0])
    for child, _ in steps[0].node.next_functions:
        if child in first:
            first[child] += 1
    return steps, [first] + pending, retained


def _walk(root):
    """The graph's nodes in ``viz.graph.trace``'s order: breadth first, ``next_functions`` order."""
    order, seen = [], set()
    queue = deque([root.grad_fn] if root.grad_fn is not None else [])
    while queue:
        fn = queue.popleft()
        if fn in seen:
            continue
        seen.add(fn)
        order.append(fn)
        if not isinstance(fn, AccumulateGrad):
            queue.extend(child for child, _ in fn.next_functions if child is not None)
    return order


def _viz_ids(root, data):
    """``{engine node: VizNode id}`` for the picture ``trace(root)`` drew, matched by walk order."""
    boxes = [n for n in data.nodes if n.kind in ("op", "leaf", "param")]
    order = _walk(root)
    ids = {}
    for fn, box in zip(order, boxes):
        is_leaf = isinstance(fn, AccumulateGrad)
        if is_leaf != (box.kind != "op") or (not is_leaf and box.detail.get("sequence_nr") != fn._sequence_nr):
            raise RuntimeError("viz.stepper: viz.graph.trace no longer walks the graph in the order _walk expects")
        ids[fn] = box.id
    if len(order) != len(boxes):
        raise RuntimeError("viz.stepper: viz.graph.trace drew a different number of nodes than _walk found")
    if root.grad_fn is None:
        ids[root._gradient_edge()[0]] = data.nodes[0].id  # a leaf root: its box is the output's
    return ids


def _would_release(node):
    """The saved names ``node.release()`` would free (without freeing them)."""
    if node.released:
        return ()
    arrays = tuple(name for name in node.saved_arrays if name in node.__dict__)
    return tuple(node._saved or ()) + arrays


def _accumulation(tensor, label, grad):
    before = None if tensor._grad is None else tensor._grad._data.copy()
    if before is None:
        after = grad._data.copy()
    else:
        after = (before + grad._data).astype(before.dtype, copy=False)
    return Accumulation(tensor, label, before, after)


def _format(grad):
    return "None" if grad is None else format_array(grad._data)


def _pre(text):
    return (f'<pre class="mg-text" style="flex:2 1 360px;min-width:0;white-space:pre-wrap;word-break:normal;'
            f'overflow-wrap:normal;font-size:12px;'
            f'line-height:1.35;margin:0 0 0 12px">{html.escape(text)}</pre>')


_SVG_ID = re.compile(r'\bid="([^"]*)"')


def _inline(svg, prefix=None):
    """SVG ready to sit inside an HTML page: no XML prolog; ids made unique with ``prefix``."""
    svg = svg[svg.index("<svg"):]
    svg = svg.replace("<svg", '<svg style="max-width:100%;height:auto"', 1)  # shrink to the page, never grow
    if prefix:
        svg = _SVG_ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', svg)
    return svg
