"""From tensors to a plain description of their graph: what ``viz.draw`` shows.

``trace(*roots)`` walks the graph from the root tensors (with a stack, never
recursion) and returns ``GraphData``: nodes and edges with a *kind* and a
*state* each, labels, shapes, optional values and gradients. Nothing here
knows about Graphviz; ``viz.dot`` turns this data into a picture, and tests
check this data directly.

Node kinds:
    ``output``    a root tensor you passed in (green in the picture);
    ``op``        a ``grad_fn`` node, named as PyTorch names it (``MulBackward0``);
    ``leaf``      a leaf tensor that requires grad, reached through its
                  ``AccumulateGrad`` node; ``param`` when it is a named parameter;
    ``saved``     a tensor an op kept for backward (``_saved_self`` ...);
    ``collapsed`` many nodes shown as one (big graphs, or a ``viz.scope``).
Node states:
    ``saved``/``freed``/``modified`` for saved tensors (kept, released by a
    ``retain_graph=False`` backward, or changed in place since: the in-place
    error is coming); ``accumulated`` for leaves whose ``.grad`` holds a
    value; ``pruned`` for op nodes a recorded backward reached but did not run
    (``inputs=``), ``skipped`` for nodes it never reached; ``failed`` for the
    node a failing backward was running; ``derivative`` for nodes recorded
    by a ``create_graph=True`` backward.
Edge kinds: ``grad`` (the direction gradients flow), ``saved`` (an op and
what it kept), ``cycle`` (a leaf whose ``.grad`` has a graph leading back to it).

Gradients on the picture: with a recorded backward (``run=``), each ``grad``
edge carries the gradient that flowed along it (``VizEdge.grad``) and each op
node the gradient of the tensor it made (``VizNode.grad``), as micrograd
draws them. A plain ``backward()`` keeps no gradients in flight (only the
leaves' ``.grad``), so only a recording can show them.

Names: a tensor is named after a variable that holds it. When several do,
the one bound first wins (a loop variable bound later does not rename it),
and a function's own variables win over the module's.
"""

from collections import deque
from dataclasses import dataclass, field

import numpy as np

import minigrad
from minigrad.autograd.graph import AccumulateGrad, walk

from .recording import scope_of
from .torch_graph import TorchView, is_torch_module, is_torch_tensor


@dataclass
class VizNode:
    """One box in the picture. ``id`` is stable: ``n0, n1, ...`` in walk order."""

    id: str
    kind: str
    label: str
    state: str = ""
    shape: tuple = None
    dtype: str = None
    value: str = None
    grad: str = None
    version: str = None
    name: str = None
    scope: str = None
    detail: dict = field(default_factory=dict)


@dataclass
class VizEdge:
    """An arrow from ``source`` to ``target`` (both node ids)."""

    source: str
    target: str
    kind: str = "grad"
    label: str = ""
    slot: int = None  # which of the source node's next_functions this edge is
    grad: str = None  # the gradient that flowed along it (a recorded backward)


@dataclass
class GraphData:
    """Everything a picture of a graph shows, as plain data."""

    nodes: list
    edges: list
    title: str = ""
    notes: list = field(default_factory=list)

    def node(self, id):
        return next(n for n in self.nodes if n.id == id)

    def by_kind(self, kind):
        return [n for n in self.nodes if n.kind == kind]

    def summary(self):
        """A stable one-line description (what Jupyter shows as text)."""
        return f"<minigrad graph: {len(self.nodes)} nodes, {len(self.edges)} edges>"


def format_array(array, digits=4, max_items=6):
    """A short, fixed-format text of a NumPy array for a label (stable run to run)."""
    array = np.asarray(array)
    if array.dtype.kind == "b" or array.dtype.kind in "iu":
        items = [str(v) for v in array.ravel()[:max_items]]
    else:
        items = [f"{v:.{digits}g}" for v in array.ravel()[:max_items]]
    text = ", ".join(items) + (", ..." if array.size > max_items else "")
    return text if array.ndim == 0 else f"[{text}]"


def _shape_text(shape):
    return str(tuple(int(s) for s in shape))


def dtype_text(dtype):
    """``float32`` for ``minigrad.float32`` and ``torch.float32`` alike: the picture names no library.

    >>> dtype_text("minigrad.float32")
    'float32'
    """
    return str(dtype).rsplit(".", 1)[-1]


def names_of(names):
    """``{id(tensor): name}`` from a dict of tensors, an ``nn.Module``, or both in a list."""
    found = {}
    if names is None:
        return found
    sources = names if isinstance(names, (list, tuple)) else [names]
    for source in sources:
        if hasattr(source, "named_parameters"):
            items = list(source.named_parameters())
        else:
            items = list(source.items())
        for name, value in items:
            if _is_tensor(value) and id(value) not in found:
                found[id(value)] = name
                if value.grad_fn is not None:
                    found.setdefault(id(value.grad_fn), name)
    return found


def names_from_frame(frame):
    """Variable names a notebook (or function) gave its tensors, from a frame's variables.

    When several variables hold one tensor, the one bound first wins: Python
    keeps a namespace in the order names were first bound, so ``b`` keeps its
    name after ``for leaf in (a, b): ...`` leaves ``leaf`` pointing at it. A
    function's own variables win over the module's.
    """
    found = {}
    scopes = [frame.f_globals] if frame.f_locals is frame.f_globals else [frame.f_globals, frame.f_locals]
    for scope in scopes:
        in_scope = {}
        for name, value in list(scope.items()):
            if name.startswith("_"):
                continue
            if _is_tensor(value):
                in_scope.setdefault(id(value), name)
                if value.grad_fn is not None:  # the op that made it gets its name too
                    in_scope.setdefault(id(value.grad_fn), name)
                grad = _grad_of(value)
                if grad is not None:  # draw(loss, x.grad) names that root "x.grad"
                    in_scope.setdefault(id(grad), f"{name}.grad")
            elif isinstance(value, minigrad.nn.Module) or is_torch_module(value):
                for pname, p in value.named_parameters():
                    in_scope.setdefault(id(p), f"{name}.{pname}")
        found.update(in_scope)
    return found


def _is_tensor(value):
    return isinstance(value, minigrad.Tensor) or is_torch_tensor(value)


def _grad_of(tensor):
    """A tensor's ``.grad`` without the warning reading a non-leaf's ``.grad`` gives."""
    if isinstance(tensor, minigrad.Tensor):
        return tensor._grad
    return tensor.grad if tensor.is_leaf or tensor.retains_grad else None


def _raw(obj):
    """The object itself, or the PyTorch object behind an adapter."""
    return getattr(obj, "wrapped", obj)


def _key(obj):
    """The id names and boxes are kept under: a PyTorch object's own, not its adapter's."""
    return id(_raw(obj))


def is_sink(fn):
    """Whether ``fn`` is a leaf's ``AccumulateGrad``: minigrad's, PyTorch's through its adapter,
    or PyTorch's own (the node with a ``variable``)."""
    return isinstance(fn, AccumulateGrad) or getattr(fn, "is_accumulator", False) or hasattr(fn, "variable")


def trace(*roots, names=None, values=False, grads=True, saved=True, run=None, max_nodes=500, collapse=None):
    """Describe the graph behind ``roots`` as plain data.

    Args:
        roots: tensors to start from (their ``grad_fn`` and everything below):
            minigrad tensors, or ``torch.Tensor`` s (the same picture of
            PyTorch's own graph, see ``viz.torch_graph``).
        names: ``{id(tensor): name}`` (see ``names_of`` / ``names_from_frame``).
        values: put each tensor's values in its label.
        grads: put each leaf's ``.grad`` in its label.
        saved: show the tensors each op saved for backward.
        run: a ``viz.Recording`` of a backward pass, to mark pruned and failed nodes.
        max_nodes: draw at most this many ops and leaves; the rest collapse into
            one box that says how many it holds.
        collapse: a ``viz.scope`` name, a list of them, or True for every scope:
            each such scope is drawn as one box.

    Returns:
        GraphData
    """
    names = names or {}
    view = TorchView()
    roots = [view.tensor(root) if is_torch_tensor(root) else root for root in roots]
    nodes, edges = [], []
    ids = {}  # graph node (or tensor) -> VizNode id, by identity

    def new_id():
        return f"n{len(nodes)}"

    def add(key, **kwargs):
        node = VizNode(id=new_id(), **kwargs)
        nodes.append(node)
        ids[_key(key)] = node.id
        return node

    keep_alive = []  # objects whose id() is a key must outlive the walk
    # draw(loss, x.grad): nodes reachable from the first root are the forward
    # graph; nodes only the later roots reach were recorded by the backward pass.
    forward_graph = set(walk(roots[0].grad_fn)) if len(roots) > 1 and roots[0].grad_fn is not None else None
    ran, reached = (run.ran, run.reached) if run is not None else (None, None)

    # Roots: the output tensors themselves.
    for root in roots:
        keep_alive.append(root)
        add(root, kind="output", label=names.get(_key(root), "output"), **_tensor_fields(root, values, grads),
            name=names.get(_key(root)))

    # Walk the graph from the roots' grad_fns, breadth first with a queue, in
    # next_functions order: the same graph always gets the same ids.
    # Items: (node, parent's box id, which of the parent's next_functions, or None for a root).
    queue = deque()
    for root in roots:
        if root.grad_fn is not None:
            queue.append((root.grad_fn, ids[_key(root)], None))
    collapse = _scope_set(collapse)
    drawn = 0  # ops and leaves drawn so far, against max_nodes
    boxes = {}  # collapsed box name -> VizNode
    box_edges = set()  # (source, target) into or out of boxes, drawn once
    accumulators = {}  # leaf box id -> its AccumulateGrad, for the .grad cycle edges

    def connect(source, target, slot):
        if source == target:
            return  # inside one collapsed box
        if source in box_ids or target in box_ids:
            if (source, target) in box_edges:
                return
            box_edges.add((source, target))
            slot = None  # many edges drawn as one: no single gradient to show
        edges.append(VizEdge(source, target, slot=slot))

    box_ids = set()

    def box(name, label):
        if name not in boxes:
            marker = object()
            keep_alive.append(marker)  # its id() is a key: it must not be reused by a node made later
            boxes[name] = add(marker, kind="collapsed", label="", scope=name if name != "" else None)
            box_ids.add(boxes[name].id)
            boxes[name].detail["count"] = 0
        node = boxes[name]
        node.detail["count"] += 1
        node.label = label(node.detail["count"])
        return node

    while queue:
        fn, parent_id, slot = queue.popleft()
        is_leaf = is_sink(fn)
        if _key(fn) in ids:
            connect(parent_id, ids[_key(fn)], slot)
            continue
        keep_alive.append(fn)
        scope_name = scope_of(fn) if isinstance(fn, minigrad.autograd.graph.Node) else None
        if scope_name is not None and (collapse is _ALL or scope_name in collapse):
            node = box(scope_name, lambda n, s=scope_name: f"{s}: {n} nodes")
        elif drawn >= max_nodes:
            node = box("", lambda n: f"... {n} more nodes not drawn (max_nodes={max_nodes})")
        else:
            node = None
        if node is not None:  # collapsed: keep walking to count what lies below
            ids[_key(fn)] = node.id
            connect(parent_id, node.id, slot)
            for child_slot, (child, _) in enumerate(fn.next_functions):
                if child is not None:
                    queue.append((child, node.id, child_slot))
            continue
        drawn += 1
        if is_leaf:
            node = _leaf_node(fn, add, names, values, grads, run)
            accumulators[node.id] = fn
            connect(parent_id, node.id, slot)
            continue
        node = add(fn, kind="op", label=fn.name(), scope=scope_name, name=names.get(_key(fn)))
        node.detail["sequence_nr"] = fn.sequence_nr
        if forward_graph is not None and fn not in forward_graph:
            node.state = "derivative"  # made by the recorded backward itself: never one of its steps
        elif run is not None:
            raw = _raw(fn)  # a recording of PyTorch's backward holds PyTorch's nodes
            if raw is run.failed_node:
                node.state = "failed"
            elif raw in reached and raw not in ran:
                node.state = "pruned"
            elif raw not in reached and run.steps:
                node.state = "skipped"
        connect(parent_id, node.id, slot)
        if saved:
            _add_saved(fn, node, nodes, edges, names, values)
        for child_slot, (child, _) in enumerate(fn.next_functions):
            if child is not None:
                queue.append((child, node.id, child_slot))

    # A leaf whose .grad was recorded (create_graph=True) points back into a graph
    # that ends at the leaf itself: PyTorch's reference cycle, drawn as an edge.
    for leaf_id, fn in accumulators.items():
        grad = fn.variable._grad
        if grad is not None and grad.grad_fn is not None and _key(grad.grad_fn) in ids:
            edges.append(VizEdge(leaf_id, ids[_key(grad.grad_fn)], kind="cycle", label=".grad"))
    if run is not None and grads:
        _add_recorded_grads(run, roots, nodes, edges, ids)
    data = GraphData(nodes, edges)
    data.ids = {key: value for key, value in ids.items()}
    if run is not None and run.error is not None:
        data.title = f"{type(run.error).__name__}: {str(run.error).split(chr(10))[0]}"
    return data


_ALL = object()


def _scope_set(collapse):
    """``collapse=`` as a set of scope names (or _ALL for ``True``)."""
    if collapse is True:
        return _ALL
    if not collapse:
        return frozenset()
    return frozenset([collapse] if isinstance(collapse, str) else collapse)


def _leaf_node(fn, add, names, values, grads, run):
    """The box for a leaf that requires grad (and its AccumulateGrad node)."""
    leaf = fn.variable
    name = names.get(_key(leaf))
    is_param = isinstance(leaf, minigrad.nn.Parameter) or getattr(leaf, "is_parameter", False) or bool(
        name and "." in name)
    node = add(fn, kind="param" if is_param else "leaf", label=name or "leaf", name=name,
               **_tensor_fields(leaf, values, grads))
    if leaf._grad is not None:
        node.state = "accumulated"
    if run is not None and run.steps and _raw(fn) not in run.reached:
        node.state = "skipped"  # a recorded backward never reached it (inputs= left it out)
    return node


def _add_recorded_grads(run, roots, nodes, edges, ids):
    """Gradients a recorded backward sent: on each ``grad`` edge, and on each op it ran.

    An edge from op P (slot i) carried P's ``grad_inputs[i]``; an op node shows
    its ``grad_outputs`` (the gradient of the tensor it made); the edge from an
    output into its ``grad_fn`` carried that tensor's share of them.
    """
    step_at = {}  # box id -> the recorded step of its node (a node's last run wins)
    for step in run.steps:
        if _key(step.node) in ids:
            step_at[ids[_key(step.node)]] = step
    by_id = {node.id: node for node in nodes}
    for box_id, step in step_at.items():
        if by_id[box_id].kind == "op" and step.executed:
            by_id[box_id].grad = format_grads(step.grad_outputs)
    outputs = {ids[_key(root)]: root for root in roots}
    for edge in edges:
        if edge.kind != "grad":
            continue
        if edge.source in outputs:
            root = outputs[edge.source]
            step = step_at.get(ids.get(_key(root.grad_fn)))
            if step is not None and root.output_nr < len(step.grad_outputs):
                edge.grad = format_grads([step.grad_outputs[root.output_nr]])
        elif edge.slot is not None:
            step = step_at.get(edge.source)
            if step is not None and step.executed and edge.slot < len(step.grad_inputs):
                edge.grad = format_grads([step.grad_inputs[edge.slot]])


def format_grads(grads):
    """One gradient as ``format_array`` text, several as ``[0] ...; [1] ...``; None as "None".

    >>> format_grads([None])
    'None'
    """
    texts = ["None" if g is None else format_array(g._data if isinstance(g, minigrad.Tensor) else g.detach().numpy())
             for g in grads]
    return texts[0] if len(texts) == 1 else "; ".join(f"[{i}] {t}" for i, t in enumerate(texts))


def _tensor_fields(t, values, grads):
    fields = {"shape": _shape_text(t.shape), "dtype": dtype_text(t.dtype), "version": str(t._version)}
    if values:
        fields["value"] = format_array(t._data)
    if grads and t._grad is not None:
        fields["grad"] = format_array(t._grad._data)
    return fields


def _add_saved(fn, op_node, nodes, edges, names, values):
    """One ``saved`` node per tensor the op kept, with its state."""
    if hasattr(fn, "saved_boxes"):
        _add_saved_torch(fn, op_node, nodes, edges, names, values)
        return
    for saved_name in list(fn.saved_tensor_names) + list(getattr(fn, "saved_arrays", ())):
        if saved_name in fn.saved_tensor_names and saved_name not in fn.kept_tensor_names:
            continue  # not needed for the wanted gradients, so never kept
        entry = (fn._saved or {}).get(saved_name)
        label = f"_saved_{saved_name}"
        node = VizNode(id=f"n{len(nodes)}", kind="saved", label=label)
        if fn.released:
            node.state = "freed"
        elif entry is not None and entry.hooked is not None:
            # Kept as a saved_tensors_hooks pack hook returned it: there is no version to compare
            # (PyTorch checks none either), and unpacking would run the user's hook while drawing.
            node.state = "saved"
            node.version = "packed by saved_tensors_hooks"
        elif entry is not None:
            if entry.is_output:
                current = entry.current_version
                array = entry.data
            else:
                current = entry.tensor._version
                array = entry.tensor._data
                node.name = names.get(id(entry.tensor))
            node.shape = _shape_text(array.shape)
            node.version = f"saved at v{entry.version}, now v{current}"
            node.state = "modified" if current != entry.version else "saved"
            if values:
                node.value = format_array(array)
        elif saved_name in fn.__dict__:
            node.state = "saved"  # an index array or condition kept as a plain array
            node.shape = _shape_text(np.shape(fn.__dict__[saved_name]))
        else:
            continue  # not needed for the wanted gradients, so never kept
        nodes.append(node)
        edges.append(VizEdge(node.id, op_node.id, kind="saved"))


def _add_saved_torch(fn, op_node, nodes, edges, names, values):
    """``_add_saved`` for a PyTorch node: what its ``_saved_*`` attributes hold, or why they cannot."""
    for label, state, tensor, detail in fn.saved_boxes():
        node = VizNode(id=f"n{len(nodes)}", kind="saved", label=label, state=state)
        if tensor is not None:
            node.shape = _shape_text(tensor.shape)
            if values:
                node.value = format_array(tensor._data)
        if state == "modified":  # read from PyTorch's error: the tensor it hands out is a new object
            node.version = f"saved at v{detail[0]}, now v{detail[1]}"
        elif tensor is not None:
            node.name = names.get(_key(tensor))
            node.version = f"saved at v{tensor._version}, now v{tensor._version}"
        nodes.append(node)
        edges.append(VizEdge(node.id, op_node.id, kind="saved"))
