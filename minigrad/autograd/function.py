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

PyTorch 2's second style works too: ``forward(x)`` without ``ctx``, plus a
``setup_context(ctx, inputs, output)`` that saves what backward needs.

``apply`` does, in order:

1. make the node (an instance of ``CubeBackward``, a class made for each Function);
   it is also the ``ctx`` both methods receive, as in PyTorch;
2. run ``forward`` with recording off (then ``setup_context``, in the second style);
3. if a gradient is wanted, link the node into the graph: each differentiable
   tensor output gets the node as its ``grad_fn`` (``_wrap_outputs``), and the
   tensors given to ``save_for_backward`` are saved with their versions.

In backward, the engine calls the node's ``backward``, which calls yours and
checks what it returned as PyTorch does (``_check_gradients``).
"""

import functools
import warnings

from .. import messages
from ..graph import Node, _sequence, forward_trace, save
from ..grad_mode import _state, copy_for_replay, no_grad
from ..tensor import Tensor


class FunctionCtx:
    """What ``forward`` (or ``setup_context``) can tell ``backward``: saved tensors and flags."""

    _to_save = ()
    _non_differentiable = ()
    _dirty = ()
    _materialize_grads = True

    def save_for_backward(self, *tensors):
        """Keep these tensors (or None) for ``backward``; read them as ``ctx.saved_tensors``."""
        self._to_save = tensors

    def mark_dirty(self, *tensors):
        """Inputs that ``forward`` changed in place (and returns): their history is rewritten."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs that gradients never flow through (e.g. indices)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """If True (the default), missing output gradients reach ``backward`` as zeros, not None."""
        self._materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The node a custom Function records; it is the ``ctx`` too.

    Each Function class gets its own subclass, named as PyTorch names it
    (``class Exp(Function)`` records ``ExpBackward`` nodes); ``_forward_cls``
    points back at the Function.
    """

    _forward_cls = None
    computes_only_wanted_gradients = False  # the user's backward returns them all
    takes_plain_gradients = False  # the user's backward sees plain Tensors

    def __init__(self):
        self._sequence_nr = next(_sequence)
        self._output_meta = ()  # (shape, dtype) per output, dtype None for a non-tensor output
        self._tensor_positions = ()  # where the tensors are among forward's arguments
        self._n_args = 0
        self._saved_list = None

    @property
    def _function_class(self):
        return self._forward_cls

    def name(self):
        return type(self).__name__

    @property
    def saved_tensors(self):
        if self._released:
            raise RuntimeError(messages.FREED_GRAPH)
        if self._saved_list is None:
            return tuple(self._to_save)
        return tuple(None if s is None else s.unpack(self) for s in self._saved_list)

    def release(self, dry_run=False):
        if self._released or not self._saved_list:
            return ()
        if dry_run:
            return ("saved_tensors",)
        self._saved_list = None
        self._to_save = ()
        self._released = True
        return ("saved_tensors",)

    def _drop_saved(self):
        self.release()

    def backward(self, *grads):
        if self._materialize_grads:
            from ..creation import zeros

            # Only tensor outputs get zeros; a number forward returned gets None, as in PyTorch.
            grads = tuple(zeros(*shape, dtype=dtype) if g is None and dtype is not None else g
                          for g, (shape, dtype) in zip(grads, self._output_meta))
        result = _user_backward(self._forward_cls)(self, *grads)
        return self._check_gradients(result if isinstance(result, tuple) else (result,))

    def _check_gradients(self, result):
        """One gradient (or None) per argument of forward; keep those of the tensor arguments."""
        if len(result) > self._n_args and all(g is None for g in result[self._n_args:]):
            result = result[:self._n_args]  # PyTorch allows extra trailing Nones
        if len(result) != self._n_args:
            raise RuntimeError(messages.WRONG_NUMBER_OF_GRADIENTS.format(
                name=self.name(), expected=self._n_args, got=len(result)))
        tensor_positions = set(self._tensor_positions)
        for position, grad in enumerate(result):
            if position not in tensor_positions:
                if grad is not None:
                    raise RuntimeError(messages.GRAD_FOR_NON_TENSOR_INPUT.format(
                        name=self.name(), position=position + 1))
            elif grad is not None and not isinstance(grad, Tensor):
                raise RuntimeError(messages.GRAD_NOT_A_TENSOR.format(type=type(grad).__name__))
        return tuple(result[p] for p in self._tensor_positions)


def _user_backward(function_class):
    """The user's ``backward`` (or ``vjp``, its other name in PyTorch)."""
    has_backward = function_class.backward is not Function.backward
    has_vjp = function_class.vjp is not Function.vjp
    if has_backward and has_vjp:
        raise RuntimeError(messages.BACKWARD_AND_VJP)
    return function_class.backward if has_backward else function_class.vjp


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

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # As PyTorch's FunctionMeta: one node class per Function, named after it.
        cls._backward_cls = type(f"{cls.__name__}Backward", (BackwardCFunction,), {"_forward_cls": cls})

    def __init__(self, *args, **kwargs):
        warnings.warn(messages.FUNCTION_INSTANTIATED.format(cls=type(self)), DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(messages.LEGACY_FUNCTION_CALL)

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement the backward function for custom autograd.Function.")

    @staticmethod
    def vjp(ctx, *grad_outputs):
        raise NotImplementedError(messages.BACKWARD_NOT_IMPLEMENTED)

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` on ``args`` and record one node for it (Steps 1-3 of the module docstring)."""
        node = cls._backward_cls()
        separate_context = cls.setup_context is not Function.setup_context
        if separate_context:
            args, kwargs = _bind_defaults(cls.forward, args, kwargs), {}  # setup_context sees every input
        node._n_args = len(args)
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        if _state.record_forward_inputs:
            # Copied before forward runs, in case it changes an input in place.
            node._forward_inputs = (
                tuple([copy_for_replay(a._data) if isinstance(a, Tensor) else a for a in args]),
                dict(kwargs))
        with no_grad():
            if separate_context:
                outputs = cls.forward(*args)
                cls.setup_context(node, args, outputs)
            else:
                outputs = cls.forward(node, *args, **kwargs)
        for index, saved in enumerate(node._to_save):
            if saved is not None and not isinstance(saved, Tensor):
                raise TypeError(messages.SAVE_FOR_BACKWARD_NOT_TENSOR.format(index=index, type=type(saved).__name__))
        tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        inputs = [args[i] for i in tensor_positions]
        if not (_state.grad_enabled and any(t.requires_grad for t in inputs)):
            return outputs
        node._tensor_positions = tensor_positions
        node.next_functions = tuple(t._gradient_edge() for t in inputs)
        node._input_meta = tuple((t.shape, t.dtype) for t in inputs)
        outputs = _wrap_outputs(node, outputs, inputs)
        if _state.anomaly_enabled:
            node._forward_trace = forward_trace()
        # Saved tensors are recorded with their versions now, after forward.
        node._saved_list = tuple(
            None if t is None else save(t, is_output=False) for t in node._to_save)
        return outputs


def _bind_defaults(forward, args, kwargs):
    """Forward's arguments as one tuple, defaults filled in (what setup_context's ``inputs`` is)."""
    import inspect

    bound = inspect.signature(forward).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args


def _wrap_outputs(node, outputs, inputs):
    """Make ``node`` the ``grad_fn`` of every differentiable tensor ``forward`` returned."""
    is_tuple = isinstance(outputs, tuple)
    outs = list(outputs) if is_tuple else [outputs]
    node.num_outputs = len(outs)
    node._output_meta = tuple((o.shape, o.dtype) if isinstance(o, Tensor) else ((), None) for o in outs)
    non_differentiable = {id(t) for t in node._non_differentiable}
    dirty = {id(t) for t in node._dirty}
    for i, out in enumerate(outs):
        if not isinstance(out, Tensor):
            continue
        if id(out) in dirty:
            _check_dirty(out)
        elif any(out is t for t in inputs):
            out = outs[i] = out.detach()  # an input returned as is: a new tensor for the new node
        if id(out) in non_differentiable or out.dtype.kind != "f":
            continue
        out._requires_grad, out.grad_fn, out.output_nr = True, node, i
    return tuple(outs) if is_tuple else outs[0]


def _check_dirty(tensor):
    """An input ``forward`` changed in place keeps its identity and takes the node as its history."""
    if tensor.grad_fn is None and tensor.requires_grad:
        raise RuntimeError(messages.DIRTY_LEAF)
    if tensor._base is not None:
        # NB: PyTorch rewrites the base's history too (the view then shows AsStridedBackward0).
        raise NotImplementedError("minigrad does not implement ctx.mark_dirty on a view")


class DelayedError(Node):
    """z = x        backward: raise (what ``once_differentiable`` puts after its gradients)"""

    def __init__(self, message=messages.ONCE_DIFFERENTIABLE_TWICE):
        self._message = message

    def name(self):
        return "torch::autograd::Error"

    def __repr__(self):
        return f"<Error object at {id(self):#x}>"  # PyTorch shows the class name here, not name()

    def forward(self, x):
        return x

    def backward(self, grad):
        raise RuntimeError(self._message)


def once_differentiable(backward):
    """Mark a ``backward`` as not itself differentiable: it runs with recording off.

    Under ``create_graph=True`` its gradients still require grad, but differentiating
    them again raises PyTorch's error, from an ``Error`` node.

    >>> import minigrad
    >>> class Square(minigrad.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     @minigrad.autograd.function.once_differentiable
    ...     def backward(ctx, grad):
    ...         (x,) = ctx.saved_tensors
    ...         return 2 * x * grad
    >>> x = minigrad.tensor(3.0, requires_grad=True)
    >>> Square.apply(x).backward(); x.grad
    tensor(6.)
    """

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with no_grad():
            outputs = backward(ctx, *grads)
        if not (_state.grad_enabled and any(isinstance(g, Tensor) and g.requires_grad for g in grads)):
            return outputs
        # As PyTorch: each gradient is passed through an Error node, so it requires grad
        # (create_graph) but a second differentiation raises.
        # NB: PyTorch uses one Error node for all the gradients, minigrad one per gradient.
        is_tuple = isinstance(outputs, tuple)
        wrapped = tuple(_through_error_node(g) for g in (outputs if is_tuple else (outputs,)))
        return wrapped if is_tuple else wrapped[0]

    return wrapper


def _through_error_node(grad):
    if not isinstance(grad, Tensor):
        return grad
    leaf = grad.detach()
    leaf._requires_grad = True
    return DelayedError.apply(leaf)
