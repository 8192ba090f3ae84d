"""A backward pass, one node at a time: a player over the engine's own steps.

``Stepper(loss)`` runs ``minigrad.engine.iter_backward`` (the generator that
``loss.backward()`` itself consumes, not a copy of its loop) and keeps every
``BackwardStep`` it yields. Each step becomes a *frame*: a picture of the graph
with the node being run highlighted and the gradients that have flowed so far
written on the edges and boxes, and a text panel with the gradients that came
in and went out, the dependency counts still pending, the ``.grad``
accumulations (before and after) and what a ``retain_graph=False`` backward
would have freed so far.

The cost grows with the graph, not with graph x steps: a graph over
``max_nodes`` collapses as ``viz.draw`` does, the graph is laid out once
(``viz.layout``: a frame only changes classes and texts of that one SVG), and
frames are built when looked at.

Your tensors are not changed: the stepper runs the engine in its *preview*
mode (``iter_backward(..., preview=True)``), the same loop ``backward()`` runs,
which writes no ``.grad`` and frees no saved tensor, and only reports what it
would write ("before" and "after" of each ``.grad``) and free. So
``loss.backward()`` still works after.

NB: hooks you registered (``tensor.register_hook``, node hooks) run, as in a
real backward; ``register_post_accumulate_grad_hook`` hooks do not, because
nothing is accumulated.

A ``torch.Tensor`` root steps through PyTorch's own backward: its order and
its gradients, read through hooks by ``viz.torch_replay`` (which also leaves
your tensors as they were); the frames and texts are the same as for the same
program in minigrad (``retain_grad()`` tensors, ``inputs=`` and a leaf as the
root included).

Two ways to look at the frames:

* ``stepper.widget()`` (also what a notebook cell shows): an ipywidgets player
  and slider; it needs a running kernel.
* ``stepper.to_html()``: the one picture, each box's changes and the panel texts,
  with a slider in plain JavaScript, for the static book (``IPython.display.HTML(stepper.to_html())``) or a file
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

import bisect
import dataclasses
import hashlib
import html
import itertools
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import minigrad
from minigrad import messages
from minigrad.autograd.graph import iter_backward, walk
from minigrad.engine import check_roots, make_root_grads

from .graph import GraphData, format_array, format_grads, is_sink, names_from_frame, names_of, trace
from .torch_graph import is_torch_tensor
from .torch_replay import replay

__all__ = ["Stepper", "Accumulation"]

# Ids of HTML exports made in this process: two exports of the same graph on one
# page must not share element ids, and a fresh kernel numbers them the same way.
_export_counter = itertools.count(1)

# The text panel lists at most this many nodes per section, then says how many more:
# a 2,000-node graph must not print 2,000 lines at each of its 2,000 steps.
PANEL_LINES = 12

NOT_YET = "not yet"  # a gradient that has not arrived (takes the line the gradient will take)


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


class _PerFrame(Sequence):
    """A list of per-frame values made when asked for (frames of a big graph are never all built)."""

    def __init__(self, length, make):
        self._length, self._make = length, make

    def __len__(self):
        return self._length

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._length))]
        if k < 0:
            k += self._length
        if not 0 <= k < self._length:
            raise IndexError(k)
        return self._make(k)


class Stepper:
    """Every step of ``root.backward(gradient)``, as frames to play through.

    Args:
        root: the tensor to run backward from (usually the loss): minigrad's,
            or a ``torch.Tensor`` (PyTorch's own backward, see above).
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
        grads: write the gradients on the picture: on each edge the gradient
            it carried, on each op the gradient of the tensor it made.
        max_nodes: draw at most this many ops and leaves; the rest become one
            box that lights up while any node inside it runs.
        collapse: ``viz.scope`` names to draw as one box each (as ``viz.draw``).
        timeout: seconds the one layout may take (see ``viz.render``).

    Attributes:
        steps: the ``BackwardStep`` records the engine yielded, in order.
        pending: per frame, ``{node: edges still to arrive}`` (frame 0: before
            any node ran, frame k: after step k); built when read.
        accumulations: per step, the ``Accumulation`` records made there.
        freed: per frame, ``[(node, names of saved tensors)]`` a
            ``retain_graph=False`` backward would have freed by then.
        frames: per frame, the ``GraphData`` picture (``len(steps) + 1``
            frames); built when read.
        texts: per frame, the text panel.

    Raises:
        RuntimeError: whatever ``root.backward(...)`` would raise (a freed
            graph, a tensor changed in place, a wrong-shaped gradient).
    """

    def __init__(self, root, gradient=None, retain_graph=False, inputs=None, names=None, values=True,
                 grads=True, max_nodes=500, collapse=None, timeout=None):
        found = names_from_frame(sys._getframe(1))
        found.update(names_of(names))
        self.root = root
        self._names = found
        self.retain_graph = retain_graph
        self.timeout = timeout
        if is_torch_tensor(root):  # PyTorch's own backward, watched through hooks (viz.torch_replay)
            self._torch_nodes, self.steps, self._first_pending, self._pending_changes, self._root_grads = \
                replay(root, gradient, retain_graph, inputs)
        else:
            self._root_grads = make_root_grads([root], [gradient])
            check_roots([root])
            self.steps, self._first_pending, self._pending_changes = _run_engine(
                root, self._root_grads, retain_graph, _checked_inputs(inputs))

        # The picture every frame starts from, collapsed past max_nodes like viz.draw's.
        self._base = trace(root, names=found, values=values, grads=True, saved=True, max_nodes=max_nodes,
                           collapse=collapse)
        self._boxes = {node.id: node for node in self._base.nodes}
        self._ids = _viz_ids(root, self._base, self.steps)
        self._step_of = {step.node: k for k, step in enumerate(self.steps)}
        self._label = {fn: self._describe(fn) for fn in self._ids}

        self.accumulations = [[Accumulation(tensor, self._tensor_label(tensor), before, after)
                               for tensor, before, after in step.accumulated] for step in self.steps]
        self._freed_at = self._freeing()  # [(frame, node, names)], frames increasing
        self._freed_frames = [frame for frame, _, _ in self._freed_at]
        frames = len(self.steps) + 1
        self.pending = _PerFrame(frames, self._pending_at)
        self.freed = _PerFrame(frames, self._freed_until)
        self._changes, self._edge_changes = self._timeline(grads)
        self.frames = _PerFrame(frames, self._frame)
        self.texts = self._texts()
        self._layout = None

    def __len__(self):
        return len(self.steps)

    def __repr__(self):
        return f"<minigrad backward stepper: {len(self.steps)} steps>"

    # --- what each step did ------------------------------------------------------
    def _describe(self, fn):
        """A node's name in the text: its box's first line, and what it makes."""
        box = self._boxes[self._ids[fn]]
        if box.kind == "collapsed":
            return f"{fn.name()} (in the box {box.scope or 'of nodes not drawn'})"
        if is_sink(fn):
            return f"AccumulateGrad ({box.label})"
        return box.label + (f" (makes {box.name})" if box.name else "")

    def _name(self, fn, step=True):
        """How the text panel names a node, with ``[step k]`` to find it in the picture."""
        text = self._label.get(fn) or fn.name()
        if step and fn in self._step_of:
            text += f" [step {self._step_of[fn] + 1}]"
        return text

    def _tensor_label(self, tensor):
        """A tensor's name: its variable's, else what made it (``leaf``, ``MulBackward0's output``)."""
        if id(tensor) in self._names:
            return self._names[id(tensor)]
        if tensor.grad_fn is None:
            return "leaf"
        return f"({tensor.grad_fn.name()}'s output)"

    def _freeing(self):
        """``[(frame, node, names)]``: what a ``retain_graph=False`` backward frees, and when."""
        return [(k, step.node, step.released) for k, step in enumerate(self.steps, start=1) if step.released]

    def _freed_count(self, k):
        """How many nodes a ``retain_graph=False`` backward has freed by frame ``k``."""
        return bisect.bisect_right(self._freed_frames, k)

    def _freed_until(self, k):
        return [(fn, names) for _, fn, names in self._freed_at[:self._freed_count(k)]]

    def _pending_at(self, k):
        counts = dict(self._first_pending)
        for changes in self._pending_changes[:k]:
            counts.update(changes)
        return counts

    # --- the timeline: each box's look, and when it changes ------------------------
    def _timeline(self, grads):
        """``({box id: [(frame, VizNode)]}, {edge index: [(frame, gradient text)]})``.

        A box changes a few times (waiting, running, ran; kept, freed), so the
        whole timeline is as big as the graph: frames and the kernel-free page
        are built from it instead of from a copy of the graph per step.
        """
        changes = {}
        members = {}
        for fn, box_id in self._ids.items():
            members.setdefault(box_id, []).append(fn)
        for box_id, fns in members.items():
            box = self._boxes[box_id]
            if box.kind == "collapsed":
                changes[box_id] = self._collapsed_changes(box, fns)
            elif is_sink(fns[0]):
                changes[box_id] = self._leaf_changes(box, fns[0])
            else:
                changes[box_id] = self._op_changes(box, fns[0], grads)
        changes.update(self._saved_changes())
        return changes, (self._edge_timeline() if grads else {})

    def _op_changes(self, box, fn, grads):
        step = self._step_of.get(fn)
        if step is None:
            return [(0, dataclasses.replace(box, state="skipped"))]  # outside inputs=: never reached
        record = self.steps[step]
        box = dataclasses.replace(box, label=f"{box.label}\nstep {step + 1}", grad=NOT_YET if grads else None)
        arrived = format_grads(record.grad_outputs) if grads else None
        after = "pruned" if _sends_nothing_on(record) else "done"  # reached for inputs= only
        timeline = [(0, dataclasses.replace(box, state="waiting")),
                    (step + 1, dataclasses.replace(box, state="running", grad=arrived))]
        if step + 2 <= len(self.steps):
            timeline.append((step + 2, dataclasses.replace(box, state=after, grad=arrived)))
        return timeline

    def _leaf_changes(self, box, fn):
        step = self._step_of.get(fn)
        grad = fn.variable.grad if is_torch_tensor(fn.variable) else fn.variable._grad
        before = _format(grad)
        if step is None:
            return [(0, dataclasses.replace(box, state="skipped", grad=before))]
        after = before
        for record in self.accumulations[step]:
            if record.tensor is fn.variable:
                after = format_array(record.after)
        box = dataclasses.replace(box, label=f"{box.label}\nstep {step + 1}")
        timeline = [(0, dataclasses.replace(box, grad=before, state="accumulated" if before != "None" else "")),
                    (step + 1, dataclasses.replace(box, grad=after, state="running"))]
        if step + 2 <= len(self.steps):
            timeline.append((step + 2, dataclasses.replace(box, grad=after,
                                                           state="accumulated" if after != "None" else "")))
        return timeline

    def _collapsed_changes(self, box, fns):
        """A box of many nodes: running while one of them runs, done when all have."""
        steps = sorted(self._step_of[fn] for fn in fns if fn in self._step_of)
        if not steps:
            return [(0, dataclasses.replace(box, state="skipped"))]
        box = dataclasses.replace(box, label=f"{box.label}\nsteps {steps[0] + 1} to {steps[-1] + 1}")
        timeline = [(0, dataclasses.replace(box, state="waiting"))]
        for k in steps:
            timeline.append((k + 1, dataclasses.replace(box, state="running")))
            if k + 2 <= len(self.steps):
                state = "done" if k == steps[-1] else "waiting"
                timeline.append((k + 2, dataclasses.replace(box, state=state)))
        merged = {}
        for frame, node in timeline:  # consecutive steps inside one box: the later change wins
            merged[frame] = node
        return sorted(merged.items(), key=lambda item: item[0])

    def _saved_changes(self):
        """Saved tensors: kept until their node runs, then (retain_graph=False) freed."""
        saved_of = {}
        for edge in self._base.edges:
            if edge.kind == "saved":
                saved_of.setdefault(edge.target, []).append(edge.source)
        freed_frame = {}
        for frame, fn, _ in self._freed_at:
            for saved_id in saved_of.get(self._ids.get(fn), ()):
                freed_frame[saved_id] = frame
        changes = {}
        for node in self._base.nodes:
            if node.kind != "saved" or node.state != "saved":
                continue
            # "kept" takes the line "freed" will take: the text stays put from frame to frame.
            kept = dataclasses.replace(node)
            if kept.value is not None:
                kept.value += "\nkept"
            elif kept.shape is not None:
                kept.shape += "\nkept"
            changes[node.id] = [(0, kept)]
            if node.id in freed_frame:
                changes[node.id].append((freed_frame[node.id], dataclasses.replace(node, state="freed")))
        return changes

    def _edge_timeline(self):
        """On each gradient edge, the gradient it carried, from the frame it was sent."""
        sender = {box_id: fn for fn, box_id in self._ids.items()
                  if self._boxes[box_id].kind == "op"}
        timeline = {}
        for index, edge in enumerate(self._base.edges):
            if edge.kind != "grad":
                continue
            if self._boxes[edge.source].kind == "output":
                timeline[index] = [(0, format_grads(self._root_grads))]  # backward's `gradient`
                continue
            fn = sender.get(edge.source)
            step = self._step_of.get(fn)
            if edge.slot is None or step is None or not self.steps[step].executed:
                continue
            grad_inputs = self.steps[step].grad_inputs
            if edge.slot < len(grad_inputs):
                timeline[index] = [(0, ""), (step + 1, format_grads([grad_inputs[edge.slot]]))]
        return timeline

    # --- frames ------------------------------------------------------------------
    def _frame(self, k):
        """The picture after ``k`` steps (frame 0: before backward)."""
        nodes = [_at(self._changes[node.id], k) if node.id in self._changes else node
                 for node in self._base.nodes]
        edges = list(self._base.edges)
        for index, timeline in self._edge_changes.items():
            edges[index] = dataclasses.replace(edges[index], grad=_at(timeline, k) or None)
        title = "before backward"
        if k > 0:
            title = f"step {k} of {len(self.steps)}: {self._name(self.steps[k - 1].node, step=False)}"
        return GraphData(nodes, edges, title=title)

    def _texts(self):
        """Every frame's text panel, made in one pass over the dependency counts."""
        counts = dict(self._first_pending)
        texts = [self._text(0, counts, {})]
        for k, changes in enumerate(self._pending_changes, start=1):
            before = {fn: counts[fn] for fn in changes if fn in counts}
            counts.update(changes)
            texts.append(self._text(k, counts, before))
        return texts

    def _text(self, k, counts, before):
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
        lines.extend(self._pending_lines(k, counts, before))
        lines.append("")
        lines.extend(self._freed_lines(k))
        return "\n".join(lines)

    def _io_lines(self, step):
        if len(step.grad_outputs) == 1:
            lines = [f"gradient in (grad_outputs): {_format(step.grad_outputs[0])}"]
        else:
            lines = ["gradients in (grad_outputs), one per output:"]
            lines.extend(f"  [{i}] {_format(g)}" for i, g in enumerate(step.grad_outputs))
        if is_sink(step.node):
            return lines
        if _sends_nothing_on(step):
            lines.append("its gradient is taken here for inputs=; nothing below is wanted, so it sends nothing on")
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

    def _pending_lines(self, k, now, before):
        """Dependency counts of the nodes still to run, with what this step changed.

        Past ``PANEL_LINES`` nodes, only those this step changed and the next
        few to run are listed, and the rest counted.
        """
        waiting = [step.node for step in self.steps[k:k + PANEL_LINES + 1] if step.node in now]
        if not waiting:
            return ["dependencies: every node has run"]
        left = len(self.steps) - k if len(waiting) > PANEL_LINES else len(waiting)  # each step's node is counted
        if left > PANEL_LINES:
            changed = [fn for fn in before if self._step_of.get(fn, -1) >= k and fn not in waiting]
            waiting = sorted(changed, key=self._step_of.get) + waiting[:PANEL_LINES // 2]
        lines = ["dependencies (gradient edges still to arrive):"]
        for fn in waiting:
            count = f"{before[fn]} -> {now[fn]}" if fn in before and before[fn] != now[fn] else f"{now[fn]}"
            ready = " (ready)" if now[fn] == 0 else ""
            lines.append(f"  {self._name(fn)}: {count}{ready}")
        if left > len(waiting):
            lines.append(f"  ... and {left - len(waiting)} more nodes waiting")
        return lines

    def _freed_lines(self, k):
        if self.retain_graph:
            return ["freed: nothing (retain_graph=True keeps the saved tensors)"]
        count = self._freed_count(k)
        if not count:
            return ["freed so far: nothing yet"]
        lines = ["freed so far by retain_graph=False (only shown: your graph keeps them):"]
        if count > PANEL_LINES:
            lines.append(f"  ... {count - PANEL_LINES} earlier nodes")
        for _, fn, names in self._freed_at[max(0, count - PANEL_LINES):count]:
            lines.append(f"  {self._name(fn)}: " + ", ".join(f"_saved_{n}" for n in names))
        return lines

    # --- pictures ----------------------------------------------------------------
    def _legend_data(self):
        """Every look any frame uses, so the one legend never misses a state."""
        nodes = list(self._base.nodes) + [node for timeline in self._changes.values() for _, node in timeline]
        return GraphData(nodes, self._base.edges)

    def dot(self, k):
        """DOT source of frame ``k`` laid out on its own, with the legend all frames share."""
        from .dot import to_dot

        return to_dot(self.frames[k], legend=self._legend_data())

    def picture(self, k):
        """Frame ``k`` as a ``viz.render.Picture`` (shows in a notebook, saves to .png/.svg)."""
        from .render import Picture

        return Picture(self.dot(k), f"<minigrad backward stepper: frame {k} of {len(self.steps)}>",
                       timeout=self.timeout)

    def layout_dot(self):
        """DOT source of the one layout: each box with its widest text, edges with their gradients."""
        from .dot import node_label, to_dot

        widest = []
        for node in self._base.nodes:
            variants = [variant for _, variant in self._changes.get(node.id, [])] or [node]
            widest.append(max(variants, key=lambda v: max(len(line) for line in node_label(v).split("\n"))))
        edges = list(self._base.edges)
        for index, timeline in self._edge_changes.items():
            edges[index] = dataclasses.replace(edges[index], grad=max((t for _, t in timeline), key=len) or None)
        return to_dot(GraphData(widest, edges), legend=self._legend_data(), ids=True)

    def layout(self):
        """The one laid-out picture every frame restyles (``viz.layout.Layout``), made once."""
        if self._layout is None:
            from .dot import state_css
            from .layout import Layout
            from .render import render_svg

            svg = render_svg(self.layout_dot(), self.timeout)
            svg = svg.replace("<svg ", '<svg class="mg-steps" ', 1)
            start = svg.index(">", svg.index("<svg ")) + 1
            svg = svg[:start] + f"\n<style>{state_css('svg.mg-steps')}</style>" + svg[start:]
            self._layout = Layout(svg)
        return self._layout

    def _looks(self, k):
        """``(nodes, edges)`` for ``Layout.fill``: each changing box's classes and lines, each edge's text."""
        from .dot import node_label

        nodes = {}
        for box_id, timeline in self._changes.items():
            node = _at(timeline, k)
            nodes[box_id] = (f"{node.kind} {node.state}".strip(), node_label(node).split("\n"))
        edges = {f"e{index}": _at(timeline, k) for index, timeline in self._edge_changes.items()}
        return nodes, edges

    def svg(self, k):
        """Frame ``k`` as SVG text: the one layout, restyled (no new layout)."""
        return self.layout().fill(*self._looks(k))

    def widget(self):
        """An ipywidgets player: Play and a slider over the frames, the picture and the text.

        Needs a running kernel to change frames; for a static page use ``to_html()``.

        Returns:
            ipywidgets.VBox
        """
        import ipywidgets as widgets

        last = len(self.steps)
        play = widgets.Play(value=0, min=0, max=last, step=1, interval=1200, description="play")
        slider = widgets.IntSlider(value=0, min=0, max=last, step=1, description="step")
        widgets.jslink((play, "value"), (slider, "value"))  # in the browser: works while idle
        # Side by side, the picture gets the larger share; it scrolls rather than shrinks past legibility.
        picture = widgets.HTML(value=_scroller(self.svg(0)),
                               layout=widgets.Layout(flex="3 1 0%", min_width="0", overflow="auto"))
        text = widgets.HTML(value=_pre(self.texts[0]), layout=widgets.Layout(flex="2 1 0%", min_width="0"))

        def show(change):
            picture.value = _scroller(self.svg(change["new"]))
            text.value = _pre(self.texts[change["new"]])

        slider.observe(show, names="value")
        return widgets.VBox([widgets.HBox([play, slider]), widgets.HBox([picture, text])])

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The widget in Jupyter, with a stable ``text/plain``."""
        from .render import RenderTimeout

        try:
            bundle = self.widget()._repr_mimebundle_(include=include, exclude=exclude) or {}
        except RenderTimeout as error:  # a reason to read beats a traceback; the kernel is free again
            return {"text/plain": f"{self!r}\n{error}"}
        bundle["text/plain"] = repr(self)
        return bundle

    # --- the static form ---------------------------------------------------------
    def timeline(self):
        """What the kernel-free page replays: each changing box's and edge's looks, and the texts.

        Returns:
            dict: ``{"nodes": {id: [[frame, classes, lines]]}, "edges": {id: [[frame, text]]},
            "texts": [...]}``; its size grows with the graph, not with graph x steps.
        """
        from .dot import node_label

        nodes = {box_id: [[frame, f"{node.kind} {node.state}".strip(), node_label(node).split("\n")]
                          for frame, node in timeline] for box_id, timeline in self._changes.items()}
        edges = {f"e{index}": [[frame, text] for frame, text in timeline]
                 for index, timeline in self._edge_changes.items()}
        return {"nodes": nodes, "edges": edges, "texts": self.texts}

    def to_html(self):
        """A self-contained HTML fragment: the one picture, a slider and buttons, no kernel needed.

        The picture is laid out once; about forty lines of plain JavaScript
        switch each box's class and texts from ``timeline()``. Element ids come
        from the content and a counter, so a fresh run numbers them the same way.

        Returns:
            str
        """
        from .layout import PLAYER_SCRIPT

        data = self.timeline()
        encoded = json.dumps(data, separators=(",", ":"), sort_keys=True)
        digest = hashlib.sha1((encoded + self.layout_dot()).encode("utf-8")).hexdigest()[:10]
        uid = f"minigrad-stepper-{digest}-{next(_export_counter)}"
        last = len(self.steps)
        buttons = "".join(f'<button type="button" data-go="{go}" title="{tip}">{html.escape(face)}</button>'
                          for go, face, tip in (("first", "|<", "first"), ("prev", "<", "previous step"),
                                                ("play", "play", "play / pause"), ("next", ">", "next step"),
                                                ("last", ">|", "last")))
        picture = _scroller(_inline(self.svg(0), f"{uid}-"))
        row = (f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">'
               f'<div class="mg-picture" style="flex:3 1 560px;min-width:0">{picture}</div>{_pre(self.texts[0])}</div>')
        script = PLAYER_SCRIPT.replace("UID", uid).replace("TIMELINE", encoded.replace("</", "<\\/"))
        return (f'<div id="{uid}" class="minigrad-stepper" style="font-family:sans-serif">\n'
                f'<div style="display:flex;gap:4px;align-items:center;margin-bottom:6px">{buttons}'
                f'<input type="range" min="0" max="{last}" value="0" step="1" style="width:240px">'
                f'<span class="mg-where">before backward</span></div>\n{row}\n</div>\n'
                f"<script>\n{script}</script>\n")

    def save_html(self, path):
        """Write ``to_html()`` as a whole HTML page; returns the ``pathlib.Path`` written."""
        path = Path(path)
        path.write_text('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>minigrad backward stepper'
                        f"</title></head>\n<body>\n{self.to_html()}</body></html>\n", encoding="utf-8")
        return path


def _at(timeline, k):
    """The value of a ``[(frame, value)]`` timeline at frame ``k`` (its first entry before that)."""
    found = timeline[0][1]
    for frame, value in timeline:
        if frame > k:
            break
        found = value
    return found


def _checked_inputs(inputs):
    """``inputs`` as ``backward(inputs=...)`` takes them (None: every leaf), with its errors."""
    if inputs is None:
        return None
    inputs = [inputs] if isinstance(inputs, minigrad.Tensor) else list(inputs)
    if not inputs:
        raise RuntimeError(messages.EMPTY_INPUTS)
    if any(not t.requires_grad for t in inputs):
        raise RuntimeError(messages.INPUT_NOT_REQUIRING_GRAD)
    unique = {id(t): t for t in inputs}  # by identity: == on tensors compares values
    return list(unique.values())


def _run_engine(root, root_grads, retain_graph, inputs):
    """Run the engine's own loop over ``root``'s graph in preview: nothing is written or freed.

    Returns:
        (steps, first, changes): the steps; the dependency counts before any node
        ran; per step, the counts it changed (only the nodes it sends to: copying
        every count at every step would cost graph x steps).
    """
    steps, changes, first = [], [], None
    for step in iter_backward([root], root_grads, retain_graph=retain_graph, inputs=inputs, preview=True):
        if first is None:
            first = dict(step.pending)  # the engine's dict is live: keep this moment's counts
        steps.append(step)
        # A step changes only the counts of the nodes it sends to.
        changes.append({child: step.pending[child] for child, _ in step.node.next_functions
                        if child in step.pending})
    # Counts before the first node ran: add back the edges it sent. It sends
    # on exactly the edges into nodes the engine counts, the keys of pending.
    for child, _ in steps[0].node.next_functions:
        if child in first:
            first[child] += 1
    return steps, first, changes


def _sends_nothing_on(step):
    """A node reached only so an ``inputs=`` gradient is taken at it: nothing below it is wanted."""
    return bool(step.captured) and not any(grad is not None for grad in step.grad_inputs)


def _viz_ids(root, data, steps):
    """``{engine node: VizNode id}`` for the picture ``trace(root)`` drew (many nodes may share a box)."""
    ids = {fn: data.ids[id(fn)] for fn in walk(root.grad_fn) if id(fn) in data.ids}
    if root.grad_fn is None and steps:  # a leaf root: its AccumulateGrad is the one step; its box the output's
        ids[steps[0].node] = data.nodes[0].id
    return ids


def _format(grad):
    return format_grads([grad])  # a minigrad or a PyTorch tensor


def _pre(text):
    return (f'<pre class="mg-text" style="flex:2 1 360px;min-width:0;white-space:pre-wrap;word-break:normal;'
            f'overflow-wrap:normal;font-size:12px;'
            f'line-height:1.35;margin:0 0 0 12px">{html.escape(text)}</pre>')


def _inline(svg, prefix=None):
    """SVG ready to sit inside an HTML page: no XML prolog; ids made unique with ``prefix``."""
    svg = svg[svg.index("<svg"):]
    if prefix:
        svg = _SVG_ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', svg)
    return svg


def _scroller(svg):
    """The picture at its own size in a box that scrolls: a wide graph is never shrunk below legibility."""
    return f'<div class="mg-scroll" style="overflow:auto;max-width:100%">{_inline(svg)}</div>'


_SVG_ID = re.compile(r'\bid="([^"]*)"')
