"""Pictures of minigrad's autograd graphs: trace, DOT, rendering, stepping, plots.

>>> import minigrad, viz
>>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
>>> y = (x * x).sum()
>>> picture = viz.draw(y)
>>> picture
<minigrad graph: 6 nodes, 6 edges>
>>> [n.label for n in viz.trace(y).nodes]
['y', 'SumBackward0', 'MulBackward0', '_saved_self', '_saved_other', 'x']
"""

import sys

from .graph import GraphData, VizEdge, VizNode, names_from_frame, names_of
from .graph import trace as _trace
from .recording import Recording, forget_scopes, record, scope
from .stepper import Stepper  # cheap: ipywidgets loads only when the widget is built

__all__ = ["draw", "draw_backward", "Stepper", "trace", "record", "scope", "forget_scopes", "Recording",
           "GraphData", "VizNode", "VizEdge"]


def _names(names, frame):
    """Names for tensors: given ones first, then the caller's variable names."""
    found = names_from_frame(frame)
    found.update(names_of(names))
    return found


def trace(*roots, names=None, **options):
    """The graph behind ``roots`` as plain data (see ``viz.graph.trace`` for the options).

    Tensors are named after the caller's variables unless ``names`` (a dict of
    tensors, an ``nn.Module``, or a list of both) says otherwise.
    """
    return _trace(*roots, names=_names(names, sys._getframe(1)), **options)


def draw(*roots, names=None, values=False, grads=True, saved=True, run=None, legend=True, max_nodes=500,
         collapse=None, layout="stacked", timeout=None):
    """Draw the graph behind ``roots``: ops, leaves, saved tensors, and their states.

    Args:
        roots: one or more tensors, minigrad's or PyTorch's (``torch.Tensor``:
            the same picture of PyTorch's own graph); with ``draw(loss, x.grad)``
            the nodes only ``x.grad`` reaches are shown as recorded by
            ``create_graph=True``.
        names: names for tensors (a dict, an ``nn.Module``, or a list); by
            default the caller's variable names are used.
        values: show each tensor's values.
        grads: show each leaf's ``.grad``, and with ``run=`` the gradient each
            edge carried and each op's incoming gradient.
        saved: show the tensors ops saved for backward (and whether they were freed).
        run: a ``viz.record()`` result, to mark pruned, skipped and failed nodes.
        legend: add a legend of the styles used.
        max_nodes: draw at most this many ops and leaves; the rest become one labelled box.
        collapse: a ``viz.scope`` name, a list of them, or True: draw each such scope as one box.
        layout: how ``draw(loss, x.grad)`` places the graph a ``create_graph``
            backward recorded: ``"stacked"`` (below the leaves, arrows up to
            them) or ``"side by side"`` (next to the forward graph, wider).
        timeout: seconds Graphviz may take to lay the picture out (default:
            ``MINIGRAD_VIZ_TIMEOUT``, else 60). Past it, ``dot`` is stopped and
            the cell shows why as text (``picture.svg()`` raises
            ``viz.render.RenderTimeout``), as for ``Stepper(timeout=)``.

    Returns:
        viz.render.Picture, shown by Jupyter as SVG (text: a stable summary).

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> draw((x * x).sum(), timeout=30).timeout
    30
    """
    from .dot import to_dot
    from .render import Picture

    data = _trace(*roots, names=_names(names, sys._getframe(1)), values=values, grads=grads,
                  saved=saved, run=run, max_nodes=max_nodes, collapse=collapse)
    return Picture(to_dot(data, legend=legend, layout=layout), data.summary(), timeout=timeout)


def draw_backward(root, *args, names=None, values=False, legend=True, timeout=None, **kwargs):
    """Run ``root.backward(*args, **kwargs)`` and draw what it did, or where it failed.

    The error (graph already freed, a tensor changed in place, a wrong-shaped
    gradient, no ``grad_fn``) is not raised: the picture marks the node the
    engine was running (or the output, for errors found before it started)
    and shows the message as its title. ``picture.error`` holds the exception.

    ``timeout`` is the layout's time limit, as in ``draw``; the other keyword
    arguments go to ``backward``.

    Returns:
        viz.render.Picture

    >>> import minigrad
    >>> x = minigrad.tensor(3.0, requires_grad=True)
    >>> picture = draw_backward(x * x, timeout=30)
    >>> picture.error is None, x.grad.item(), picture.timeout
    (True, 6.0, 30)
    """
    from .dot import to_dot
    from .render import Picture

    with record(root, catch=True) as run:  # root: a PyTorch graph is watched through its node hooks
        root.backward(*args, **kwargs)
    data = _trace(root, names=_names(names, sys._getframe(1)), values=values, run=run)
    if run.error is not None and run.failed_node is None:
        data.nodes[0].state = "failed"  # refused before the engine ran: the output is at fault
    picture = Picture(to_dot(data, legend=legend), data.summary(), timeout=timeout)
    picture.error = run.error
    return picture


def __getattr__(name):
    # matplotlib and ipywidgets load only when their helpers are used.
    if name in ("plots", "render", "dot", "graph"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'viz' has no attribute {name!r}")
