"""A real PyTorch backward, step by step, for ``viz.Stepper``, without touching your tensors.

PyTorch's engine runs in C++, so its steps are watched through hooks, never
re-derived:

* a hook on every node (``node.register_hook``) is called right after the
  node ran, in PyTorch's own order, with its ``grad_inputs`` and
  ``grad_outputs``;
* a hook on every leaf (``tensor.register_hook``) is called when the leaf's
  gradient is taken, at the place in that order where its ``AccumulateGrad``
  node would run.

The pass itself is ``torch.autograd.grad(root, leaves, retain_graph=True)``:
the same nodes as ``root.backward()``, in the same order, but no leaf's
``.grad`` is written and no saved tensor freed. It does write the ``.grad`` of
``retain_grad()`` tensors, so those are put back afterwards (found with
``gc``: the graph does not lead to them); their steps still show what
``backward()`` adds into them. Each step becomes a
``minigrad.engine.BackwardStep``, the record minigrad's engine yields, with
what ``backward()`` would do there: the leaf's ``.grad`` before and after, and
(for ``retain_graph=False``) the saved tensors it would free.

NB: minigrad's engine reports these things itself (its preview mode); here
they are read off PyTorch's hooks, and the two are compared in the tests.
"""

import gc
import sys
import warnings
from collections import Counter

from minigrad.autograd.graph import walk
from minigrad.engine import BackwardStep

from .graph import is_sink
from .torch_graph import TorchView

__all__ = ["replay"]


def replay(root, gradient=None, retain_graph=False, inputs=None):
    """Run PyTorch's backward of ``root`` through hooks, changing none of its tensors.

    Args:
        root: a ``torch.Tensor`` that requires grad (a leaf root: its
            ``AccumulateGrad`` is the one step).
        gradient: as in ``root.backward(gradient)``.
        retain_graph: the backward to describe: with False, each step lists
            the saved tensors it would free (nothing is freed).
        inputs: as in ``backward(inputs=...)``: only their gradients are
            taken, and only nodes on a path to them run. A non-leaf's gradient
            is watched through a hook on it; ``backward()`` then runs its node
            too (its gradient is taken there and nothing below is wanted).

    Returns:
        ``(nodes, steps, first, changes, root_grads)``: every node of the
        graph (keep them: PyTorch hands out the same Python node only while
        one is alive), the ``BackwardStep`` records in PyTorch's order, the
        dependency counts before any node ran, per step the counts it changed,
        and the gradient the root starts with.

    Raises:
        RuntimeError: PyTorch's own error for this backward (a freed graph, a
            tensor changed in place, an implicit gradient of a non-scalar).
    """
    torch = sys.modules["torch"]
    if not root.requires_grad:
        raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    # A leaf as the root: its own AccumulateGrad is the whole graph.
    nodes = walk(root.grad_fn) if root.grad_fn is not None else [torch.autograd.graph.get_gradient_edge(root).node]
    sinks = {id(fn.variable): fn for fn in nodes if is_sink(fn)}
    wanted = [fn.variable for fn in sinks.values()] if inputs is None else _inputs_of(inputs)
    records = []  # [node, grad_outputs, grad_inputs, captured], as PyTorch runs them
    handles = [fn.register_hook(_node_recorder(fn, records)) for fn in nodes if not is_sink(fn)]
    handles += [leaf.register_hook(_leaf_recorder(sinks[id(leaf)], records)) for leaf in wanted if id(leaf) in sinks]
    handles += [t.register_hook(_capture_recorder(t, position, records))
                for position, t in enumerate(wanted) if t.grad_fn is not None]
    retained = _retained_grads(torch, set(nodes))
    try:
        torch.autograd.grad([root], wanted, grad_outputs=None if gradient is None else [gradient],
                            retain_graph=True, allow_unused=True)
    finally:
        for handle in handles:
            handle.remove()
        for tensor, grad in retained:  # the retain_grad() hooks ran: their .grad goes back as it was
            tensor.grad = grad
    root_grad = torch.ones_like(root) if gradient is None else gradient
    steps, first, changes = _steps(root, nodes, records, retain_graph, [tensor for tensor, _ in retained])
    return nodes, steps, first, changes, (root_grad,)


def _inputs_of(inputs):
    torch = sys.modules["torch"]
    inputs = [inputs] if isinstance(inputs, torch.Tensor) else list(inputs)
    return list({id(t): t for t in inputs}.values())


def _node_recorder(fn, records):
    def hook(grad_inputs, grad_outputs):
        if records and records[-1][0] is fn and records[-1][2] is None:
            records[-1][2] = tuple(grad_inputs)  # an input's gradient was taken here, and the node ran on
        else:
            records.append([fn, tuple(grad_outputs), tuple(grad_inputs), ()])
    return hook


def _leaf_recorder(sink, records):
    def hook(grad):
        records.append([sink, (grad,), (), ()])  # where backward() runs the leaf's AccumulateGrad
    return hook


def _capture_recorder(tensor, position, records):
    """A non-leaf in ``inputs``: its gradient is taken where ``backward()`` runs its node.

    ``autograd.grad`` only takes the gradient there; ``backward()`` runs the node too,
    computing nothing that is not wanted below it (PyTorch hands its hooks None).
    If something below is wanted, the node's own hook fills in what it computed.
    """
    def hook(grad):
        fn = tensor.grad_fn
        records.append([fn, (grad,), None, ((position, grad, tensor),)])
    return hook


def _retained_grads(torch, nodes):
    """``[(tensor, its .grad)]`` for the ``retain_grad()`` tensors made by ``nodes``."""
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading a non-leaf's .grad warns unless it retains it
        for obj in gc.get_objects():
            if issubclass(type(obj), torch.Tensor) and obj.grad_fn in nodes and obj.retains_grad:
                found.append((obj, obj.grad))
    return found


def _steps(root, nodes, records, retain_graph, retaining):
    """The records as ``BackwardStep`` s, with the dependency counts PyTorch keeps (one per edge).

    ``retaining``: the ``retain_grad()`` tensors; ``backward()`` adds into their ``.grad``
    the gradient of their output of the node that made them, when that node runs.
    """
    retained_by = {}
    for tensor in retaining:
        retained_by.setdefault(tensor.grad_fn, []).append(tensor)
    counts = Counter(child for fn in nodes for child, _ in fn.next_functions if child is not None)
    first = {nodes[0]: 0, **counts}
    live = dict(first)
    view = TorchView()
    steps, changes = [], []
    for index, (fn, grad_outputs, grad_inputs, captured) in enumerate(records):
        if grad_inputs is None:  # only an input's gradient taken: the node sends nothing on
            grad_inputs = (None,) * len(fn.next_functions)
        sends = not captured or any(grad is not None for grad in grad_inputs)
        change = {}
        for child, _ in fn.next_functions:
            if child is not None and sends:
                live[child] -= 1
                change[child] = live[child]
        accumulated, released = (), ()
        if is_sink(fn):
            accumulated = (_accumulation(fn.variable, grad_outputs[0]),)
        else:
            accumulated = tuple(_accumulation(tensor, grad_outputs[tensor.output_nr])
                                for tensor in retained_by.get(fn, ()) if grad_outputs[tensor.output_nr] is not None)
            accumulated += tuple(_accumulation(tensor, grad) for _, grad, tensor in captured
                                 if all(tensor is not kept for kept in retained_by.get(fn, ())))
        if not is_sink(fn) and not retain_graph:
            released = tuple(label.removeprefix("_saved_")
                             for label, state, _, _ in view.node(fn).saved_boxes() if state == "saved")
        taken = tuple((position, grad) for position, grad, _ in captured)
        steps.append(BackwardStep(index, fn, True, grad_outputs, grad_inputs, accumulated, taken, released, live))
        changes.append(change)
    return steps, first, changes


def _accumulation(leaf, grad):
    """``(leaf, before, after)``: its ``.grad`` now and after ``backward()`` adds ``grad``, as NumPy arrays.

    (``leaf`` may also be a ``retain_grad()`` tensor or a non-leaf in ``inputs``: its ``.grad``
    is kept the same way.)"""
    incoming = grad.detach().numpy().astype(leaf.detach().numpy().dtype, copy=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a non-leaf's .grad warns unless it retains it
        current = leaf.grad
    if current is None:
        return leaf, None, incoming
    before = current.detach().numpy().copy()
    return leaf, before, before + incoming
