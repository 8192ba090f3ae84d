"""PyTorch's ``torch.autograd``: ``backward``, ``grad`` and friends.

Both functions check their arguments the way PyTorch does, build the gradient
of each output (``engine.make_root_grads``), and hand the work to the engine's
``iter_backward``. ``backward`` accumulates into ``.grad``; ``grad`` returns
the gradients and touches no ``.grad``.
"""

import warnings

from .. import messages
from ..creation import zeros_like
from ..engine import check_roots, iter_backward, make_root_grads
from ..fast_backward import run_plain_backward
from ..ops import stack
from ..grad_mode import detect_anomaly, enable_grad, is_anomaly_enabled, no_grad, set_detect_anomaly, set_grad_enabled
from ..tensor import Tensor
from . import functional, graph
from .function import Function, FunctionCtx, once_differentiable
from .gradcheck import gradcheck, gradgradcheck
from .gradcheck import GradcheckError
from ..legacy import Variable  # PyTorch 0.3 and older: now a function returning a tensor

__all__ = [
    "backward", "grad", "GradcheckError", "Function", "FunctionCtx", "once_differentiable", "gradcheck", "gradgradcheck",
    "functional", "graph", "detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "no_grad",
    "enable_grad", "set_grad_enabled",
]


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, (Tensor, graph.GradientEdge)):
        return (x,)
    return tuple(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None, retain_variables=None):
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the graph's leaves.

    Args:
        tensors: a tensor or a sequence of tensors to differentiate.
        grad_tensors: the gradient with respect to each of them (the vector in the
            vector-Jacobian product); None is allowed for single-element tensors.
        retain_graph: keep the saved tensors for another backward (default: ``create_graph``).
        create_graph: record this backward pass so it can be differentiated again.
        inputs: accumulate only into these tensors (leaves or not).
        retain_variables: PyTorch 0.2's name for ``retain_graph`` (deprecated).

    Raises:
        RuntimeError: with PyTorch's messages for a non-scalar output without a
            gradient, a gradient of the wrong shape, an output outside the graph,
            an empty ``inputs``, a freed graph or an in-place modified saved tensor.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> minigrad.autograd.backward([x * 2, x * x], [minigrad.ones(2), minigrad.ones(2)])
    >>> x.grad
    tensor([4., 6.])
    """
    if retain_variables is not None:
        if retain_graph is not None:
            raise ValueError(messages.RETAIN_VARIABLES_BOTH)
        warnings.warn(messages.RETAIN_VARIABLES_DEPRECATED, DeprecationWarning, stacklevel=2)
        retain_graph = retain_variables
    if grad_variables is not None:
        grad_tensors = grad_variables
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if len(inputs) == 0:
            raise RuntimeError(messages.EMPTY_INPUTS)
        for t in inputs:
            if t.grad_fn is not None or not t.requires_grad:
                # As PyTorch: a non-leaf input keeps its .grad (and one that
                # does not require grad gets retain_grad's error).
                t.retain_grad()
    outputs = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) or (None,) * len(outputs)
    checked = make_root_grads(outputs, grads)
    if len(grads) != len(outputs):
        raise RuntimeError(messages.GRAD_COUNT_MISMATCH.format(tensors=len(outputs), grads=len(grads)))
    grads = checked
    check_roots(outputs)
    if create_graph:
        messages.warn_once("CREATE_GRAPH_CYCLE", stacklevel=2)  # (PyTorch's warning comes once per process)
    watched = bool(graph._observers)
    if not (watched or create_graph or inputs is not None or is_anomaly_enabled()):
        run_plain_backward(outputs, grads, retain_graph)  # the same pass, in one loop (see fast_backward)
        return
    steps = iter_backward(outputs, grads, retain_graph, create_graph, inputs=inputs,
                          accumulate_grad=True, record_values=watched)
    for _ in (graph._run(steps) if watched else steps):
        pass


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return the gradients of ``outputs`` with respect to ``inputs``; no ``.grad`` is touched.

    Args:
        outputs: a tensor or a sequence of tensors.
        inputs: the tensors to differentiate with respect to (leaves or not).
        grad_outputs: the gradient with respect to each output (as ``grad_tensors``).
        retain_graph: keep the saved tensors (default: ``create_graph``).
        create_graph: make the returned gradients differentiable again.
        allow_unused: return None (instead of raising) for inputs the outputs do not depend on.
        is_grads_batched: the first dimension of each of ``grad_outputs`` is a batch of them;
            the result gets the same batch dimension.
        materialize_grads: return zeros instead of None for them.

    Returns:
        A tuple with one gradient (or None) per input.

    >>> import minigrad
    >>> x = minigrad.tensor(3.0, requires_grad=True)
    >>> minigrad.autograd.grad(x ** 3, x)
    (tensor(27.),)
    """
    if not only_inputs:
        warnings.warn(messages.ONLY_INPUTS_DEPRECATED, FutureWarning, stacklevel=2)
    if materialize_grads and allow_unused is False:
        raise ValueError(messages.ALLOW_UNUSED_WITH_MATERIALIZE)
    if allow_unused is None:
        allow_unused = materialize_grads
    if retain_graph is None:
        retain_graph = create_graph
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if len(inputs) == 0:
        raise RuntimeError(messages.EMPTY_GRAD_INPUTS)
    grads = _as_tuple(grad_outputs) or (None,) * len(outputs)
    checked = make_root_grads(outputs, grads, is_grads_batched)
    if len(grads) != len(outputs):
        raise RuntimeError(messages.GRAD_COUNT_MISMATCH.format(tensors=len(outputs), grads=len(grads)))
    grads = checked
    check_roots(outputs)  # (the outputs first, then the inputs: PyTorch's engine checks in this order)
    if any(isinstance(t, Tensor) and not t.requires_grad for t in inputs):  # (or a graph.GradientEdge)
        raise RuntimeError(messages.INPUT_NOT_REQUIRING_GRAD)
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused, materialize_grads)
    results = [None] * len(inputs)
    steps = iter_backward(outputs, grads, retain_graph, create_graph, inputs=inputs,
                          accumulate_grad=False, record_values=bool(graph._observers))
    for step in graph._run(steps):
        for position, captured in step.captured:
            results[position] = captured
    for position, result in enumerate(results):
        if result is None:
            if not allow_unused:
                raise RuntimeError(messages.UNUSED_INPUT.format(index=position))
            if materialize_grads:
                results[position] = zeros_like(inputs[position])
    return tuple(results)


def _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused, materialize_grads):
    """``grad`` with ``is_grads_batched``: one vector-Jacobian product per row of the batch, stacked.

    NB: PyTorch computes the whole batch in one backward pass with vmap; minigrad has no
    vmap and runs one backward pass per row (the same numbers).
    """
    batch = next(len(grad) for grad in grads if grad is not None)
    rows = [grad(outputs, inputs, [None if g is None else g[row] for g in grads],
                 retain_graph=retain_graph or row < batch - 1, create_graph=create_graph,
                 allow_unused=allow_unused, materialize_grads=materialize_grads)
            for row in range(batch)]
    return tuple(None if rows[0][j] is None else stack([r[j] for r in rows]) for j in range(len(inputs)))
