"""PyTorch's ``torch.autograd.graph``: the graph's public names, the engine's steps, and observers.

The graph itself (``Node``, ``AccumulateGrad``, ``SavedTensor``, ``GradientEdge``,
``walk``, ``parents``) lives in ``minigrad/graph.py``, the engine's loop and plan
(``iter_backward``, ``plan_backward``, ``execution_order``) in ``minigrad/engine.py``;
both are re-exported here, where PyTorch keeps its graph tools.

``viz`` (and anyone curious) uses this module to watch a backward pass:

* ``iter_backward(...)`` runs a backward pass one node at a time and yields a
  ``BackwardStep`` after each (see ``minigrad.engine``); with ``preview=True`` it
  writes no ``.grad`` and frees nothing, and only says what it would;
* ``execution_order(roots)``: the nodes a ``backward()`` runs, in its order;
* ``observe(callback)`` calls ``callback(step)`` for every step of every
  ``backward()`` / ``grad()`` run inside the ``with`` block, with ``.grad``
  values recorded before and after each accumulation;
* ``record_forward_inputs()`` makes each node built inside the ``with`` block
  keep a copy of its forward's inputs, so the forward can be re-run (a
  per-node gradient check does this).

And PyTorch's own tools: ``saved_tensors_hooks`` (change how saved tensors are
kept), ``register_multi_grad_hook`` (one hook for several tensors),
``get_gradient_edge``.

>>> import minigrad
>>> x = minigrad.tensor(2.0, requires_grad=True)
>>> steps = []
>>> with minigrad.autograd.graph.observe(steps.append):
...     (x * x).backward()
>>> [step.node.name() for step in steps]
['MulBackward0', 'torch::autograd::AccumulateGrad']
"""

import contextlib
import weakref

from .. import messages
from ..engine import BackwardStep, execution_order, iter_backward, plan_backward
from ..graph import (AccumulateGrad, GradientEdge, Node, RemovableHandle, SavedTensor, next_sequence_nr,
                     nodes_on_a_path, parents, walk)
from ..grad_mode import _state, extras_changed, is_recording_forward_inputs, record_forward_inputs

__all__ = ["Node", "AccumulateGrad", "SavedTensor", "BackwardStep", "iter_backward", "observe",
           "walk", "parents", "nodes_on_a_path", "plan_backward", "execution_order", "next_sequence_nr",
           "record_forward_inputs", "is_recording_forward_inputs", "saved_tensors_hooks", "save_on_cpu",
           "disable_saved_tensors_hooks", "register_multi_grad_hook", "GradientEdge", "get_gradient_edge"]

_observers = []


@contextlib.contextmanager
def observe(callback):
    """Within the block, call ``callback(step)`` for each node every backward pass runs."""
    _observers.append(callback)
    try:
        yield
    finally:
        _observers.remove(callback)


def _run(steps):
    """Drive the engine's generator to the end, telling the observers."""
    for step in steps:
        for callback in _observers:
            callback(step)
        yield step


# --- PyTorch's torch.autograd.graph ---------------------------------------------------------
class saved_tensors_hooks:
    """Inside the block, every tensor saved for backward is kept as ``pack_hook(tensor)``
    and given back as ``unpack_hook(packed)`` when backward needs it.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> seen = []
    >>> with minigrad.autograd.graph.saved_tensors_hooks(lambda t: seen.append("pack") or t, lambda t: t):
    ...     y = x * x
    >>> seen
    ['pack', 'pack']
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if _state.saved_tensors_hooks_disabled is not None:
            raise RuntimeError(_state.saved_tensors_hooks_disabled)
        _state.saved_tensors_hooks = _state.saved_tensors_hooks + ((self.pack_hook, self.unpack_hook),)
        extras_changed()

    def __exit__(self, *exc_info):
        _state.saved_tensors_hooks = _state.saved_tensors_hooks[:-1]
        extras_changed()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors in CPU memory (PyTorch moves them off the GPU).

    minigrad's tensors all live in CPU memory, so the tensors are kept as they are.

    >>> import minigrad
    >>> with minigrad.autograd.graph.save_on_cpu():
    ...     y = minigrad.tensor([2.0], requires_grad=True).exp()
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        # NB: pin_memory has no meaning without a GPU; PyTorch also ignores it for CPU tensors.
        super().__init__(lambda tensor: tensor, lambda tensor: tensor)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Within the block, entering ``saved_tensors_hooks`` raises ``RuntimeError(error_message)``.

    >>> import minigrad
    >>> with minigrad.autograd.graph.disable_saved_tensors_hooks("not here"):
    ...     y = minigrad.tensor([2.0], requires_grad=True).exp()
    """
    previous = _state.saved_tensors_hooks_disabled
    _state.saved_tensors_hooks_disabled = error_message
    try:
        yield
    finally:
        _state.saved_tensors_hooks_disabled = previous


class _MultiHandle:
    """The handle ``register_multi_grad_hook`` returns: ``remove()`` takes all its hooks away."""

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward pass, when the gradients of ``tensors`` are known.

    Args:
        tensors: the tensors to watch.
        fn: ``mode="all"``: ``fn(grads)`` once every gradient this pass computes for them is
            known, with None for those it does not compute; ``mode="any"``: ``fn(grad)``
            with the first of them computed.
        mode: ``"all"`` or ``"any"``.

    Returns:
        A handle whose ``remove()`` unregisters the hook.

    >>> import minigrad
    >>> a, b = minigrad.tensor([1.0], requires_grad=True), minigrad.tensor([2.0], requires_grad=True)
    >>> _ = minigrad.autograd.graph.register_multi_grad_hook((a, b), lambda grads: print(grads))
    >>> (a * 3).sum().backward()
    [tensor([3.]), None]
    """
    modes = ("all", "any")
    if mode not in modes:
        raise ValueError(messages.MULTI_GRAD_HOOK_MODE.format(modes=modes, mode=mode))
    tensors = tuple(tensors)
    per_pass = weakref.WeakKeyDictionary()  # a pass's engine Plan -> what this pass has seen so far
    if mode == "any":
        def first_only(grad):
            if _state.graph_task not in per_pass:
                per_pass[_state.graph_task] = True
                fn(grad)

        return _MultiHandle([t.register_hook(first_only) for t in tensors if t.requires_grad])

    nodes = [t._gradient_edge()[0] for t in tensors]

    def watch(position):
        def hook(grad):
            task = _state.graph_task
            if task not in per_pass:  # the first of them in this pass: how many will come?
                per_pass[task] = [sum(task.will_execute(node) for node in nodes), [None] * len(tensors)]
            seen = per_pass[task]
            seen[1][position] = grad
            seen[0] -= 1
            if seen[0] == 0:
                fn(seen[1])

        return hook

    return _MultiHandle([t.register_hook(watch(position)) for position, t in enumerate(tensors)])


def get_gradient_edge(tensor):
    """The ``GradientEdge`` of ``tensor``: its ``grad_fn`` (a leaf's ``AccumulateGrad``) and output number.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0], requires_grad=True)
    >>> minigrad.autograd.graph.get_gradient_edge(x * 2).node.name()
    'MulBackward0'
    """
    if not tensor.requires_grad:
        raise RuntimeError(messages.GRADIENT_EDGE_NO_GRAD)
    return GradientEdge(*tensor._gradient_edge())
