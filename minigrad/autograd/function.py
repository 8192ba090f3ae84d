"""``minigrad.autograd.Function``: write your own op, PyTorch's way.

    class Cube(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    y = Cube.apply(x)        # y.grad_fn.name() == "CubeBackward"

``apply`` runs ``forward`` with recording off, then records one node for
the whole call. That node is also the ``ctx`` both methods receive (as in
PyTorch), and the engine runs it like any built-in op.
"""

import functools

from .. import messages
from ..function import Node, SavedTensor, _sequence
from ..grad_mode import _state, copy_for_replay, no_grad
from ..tensor import Tensor


class FunctionCtx:
    """What ``forward`` can tell ``backward``: saved tensors and flags."""

    def save_for_backward(self, *tensors):
        """Keep these tensors (or None) for ``backward``; read them as ``ctx.saved_tensors``."""
        self._to_save = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs that gradients never flow through (e.g. indices)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """If True (the default), missing output gradients reach ``backward`` as zeros, not None."""
        self._materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The node a custom Function records; it is the ``ctx`` too."""

    num_outputs = 1

    def __init__(self, function_class):
        self._sequence_nr = next(_sequence)
        self._function_class = function_class
        self._to_save = ()
        self._non_differentiable = ()
        self._materialize_grads = True
        self._output_meta = ()
        self._tensor_positions = ()
        self._saved_list = None

    def name(self):
        return f"{self._function_class.__name__}Backward"

    @property
    def saved_tensors(self):
        if self._released:
            raise RuntimeError(messages.FREED_GRAPH)
        if self._saved_list is None:
            return tuple(self._to_save)
        return tuple(None if s is None else s.unpack(self) for s in self._saved_list)

    def release(self):
        if self._released or not self._saved_list:
            return ()
        self._saved_list = None
        self._to_save = ()
        self._released = True
        return ("saved_tensors",)

    def backward(self, *grads):
        if self._materialize_grads:
            from ..creation import zeros

            grads = tuple(zeros(*shape, dtype=dtype) if g is None else g
                          for g, (shape, dtype) in zip(grads, self._output_meta))
        result = self._function_class.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = self._n_args
        if len(result) != n_args:
            raise RuntimeError(messages.WRONG_NUMBER_OF_GRADIENTS.format(
                name=self.name(), expected=n_args, got=len(result)))
        return tuple(result[p] for p in self._tensor_positions)


class Function:
    """Base class for ops you write yourself: define ``forward`` and ``backward``.

    >>> import minigrad
    >>> class Square(minigrad.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         (x,) = ctx.saved_tensors
    ...         return 2 * x * grad
    >>> x = minigrad.tensor(3.0, requires_grad=True)
    >>> y = Square.apply(x)
    >>> y.grad_fn.name()
    'SquareBackward'
    >>> y.backward(); x.grad
    tensor(6.)
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement the backward function for custom autograd.Function.")

    @classmethod
    def apply(cls, *args, **kwargs):
        node = BackwardCFunction(cls)
        node._n_args = len(args)
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        if _state.record_forward_inputs:
            # Copied before forward runs, in case it changes an input in place.
            node._forward_inputs = (
                tuple([copy_for_replay(a._data) if isinstance(a, Tensor) else a for a in args]),
                dict(kwargs))
        with no_grad():
            outputs = cls.forward(node, *args, **kwargs)
        tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        inputs = [args[i] for i in tensor_positions]
        if not (_state.grad_enabled and any(t.requires_grad for t in inputs)):
            return outputs
        is_tuple = isinstance(outputs, tuple)
        outs = list(outputs) if is_tuple else [outputs]
        node._tensor_positions = tensor_positions
        node.next_functions = tuple(t._gradient_edge() for t in inputs)
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        node._input_meta = tuple((t.shape, t.dtype) for t in inputs)
        node.num_outputs = len(outs)
        node._output_meta = tuple((o.shape, o.dtype) if isinstance(o, Tensor) else ((), None) for o in outs)
        non_diff = {id(t) for t in node._non_differentiable}
        for i, out in enumerate(outs):
            if not isinstance(out, Tensor) or id(out) in non_diff or out.dtype.kind != "f":
                continue
            if any(out is t for t in inputs):
                out = outs[i] = out.detach()  # an input returned as is: a new tensor for the new node
            out._requires_grad, out.grad_fn, out.output_nr = True, node, i
        # Saved tensors are recorded with their versions now, after forward.
        node._saved_list = tuple(
            None if t is None else SavedTensor(t, is_output=False) for t in node._to_save)
        return tuple(outs) if is_tuple else outs[0]


def once_differentiable(backward):
    """Mark a ``backward`` as not itself differentiable: it runs with recording off."""

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with no_grad():
            return backward(ctx, *grads)

    return wrapper
