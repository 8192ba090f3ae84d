"""In-place ops: ``add_``, ``x += 1``, ``x[i] = v`` ... change a tensor's own memory.

Autograd must know, because a node may have saved this very tensor for its
backward. So every in-place op (1) refuses on a leaf that requires grad while
recording, (2) computes the new value with the ordinary out-of-place op, so the
graph gets the right node, (3) writes it into the tensor's memory, (4) bumps
the tensor's version counter, which saved-tensor checks compare against, and
(5) moves the tensor's history: its ``grad_fn`` becomes the new node. A view's base
changes too, so both get new history (view_inplace.py: ``CopySlices``).
"""

import numpy as np

from .. import dtypes, messages
from ..fast_path import write_in_place
from ..graph import Node, SavedTensor
from ..grad_mode import _state, copy_for_replay
from ..tensor import Tensor, _VersionCounter
from . import elementwise, shape, view_inplace
from .operands import as_tensor, checked_number, zero_gradient


def _check_allowed(tensor):
    if not _state.grad_enabled:
        return
    base = tensor._base
    if base is not None:
        if tensor._no_grad_view:  # (PyTorch's first check, before the leaf's)
            raise RuntimeError(messages.NO_GRAD_VIEW_INPLACE)
        if base._grad_fn is None and base._requires_grad:
            raise RuntimeError(messages.LEAF_VIEW_INPLACE)
    elif tensor._grad_fn is None and tensor._requires_grad:
        raise RuntimeError(messages.LEAF_INPLACE)


def _snapshot(tensor):
    """The tensor as it is now, to be saved by the node about to overwrite it."""
    old = Tensor._wrap(tensor._data.copy())
    old._requires_grad, old._grad_fn, old.output_nr = tensor.requires_grad, tensor.grad_fn, tensor.output_nr
    old._version_counter = _VersionCounter()  # (its own: a copy, though in tensor's place in the graph)
    return old


def _write(tensor, result):
    """Steps 3-5: store ``result`` (a fresh tensor from an out-of-place op) in ``tensor``."""
    new, old = result._data, tensor._data  # (the arrays' shape and dtype: cheaper than the Tensor's)
    if new.shape != old.shape:
        raise RuntimeError(
            f"output with shape {messages.format_shape(tensor.shape)} doesn't match the broadcast shape "
            f"{messages.format_shape(result.shape)}")
    if new.dtype != old.dtype and not np.can_cast(result.dtype, tensor.dtype, casting="same_kind"):
        names = {"f": "Float", "i": "Long", "b": "Bool"}
        raise RuntimeError(f"result type {names.get(result.dtype.kind, result.dtype)} can't be cast to the "
                           f"desired output type {names.get(tensor.dtype.kind, tensor.dtype)}")
    if not old.flags.writeable:
        raise RuntimeError(messages.OVERLAPPING_WRITE)
    node = result._grad_fn
    base_before = None
    if tensor._base is not None and node is not None and _state.record_forward_inputs:
        base_before = copy_for_replay(tensor._base._data)  # for CopySlices' replay (classroom)
    np.copyto(old, new, casting="same_kind")
    counter = _count_write(tensor)
    if node is not None:
        for saved in (node._saved or {}).values():
            if saved.is_output:  # the node's output is this tensor now
                saved.version_counter, saved.version = counter, counter.value
        if tensor._base is not None:
            view_inplace.rebase(tensor, node, base_before)  # the base changed too: both get new grad_fns
        else:
            tensor._grad_fn, tensor._requires_grad, tensor.output_nr = node, True, 0
    return tensor


def _count_write(tensor):
    """Step 4: a write moves ``tensor``'s version on. Returns its version counter."""
    counter = tensor._shared_version_counter()
    counter.value += 1
    if not tensor._no_grad_view:  # (a no_grad view has no graph to keep: Tensor._refresh_view)
        tensor._graph_version = counter.value  # written through itself: its own graph stays valid
    return counter


def _in_place(out_of_place, tensor, *args, **kwargs):
    other = args[0] if args else None
    _check_allowed(tensor)
    if isinstance(other, Tensor):
        _check_no_partial_overlap(tensor, other)
        ufunc = _UFUNCS.get(out_of_place)
        if ufunc is not None and kwargs.get("alpha", 1) == 1 and write_in_place(ufunc, tensor, other):
            _count_write(tensor)  # nothing records it: NumPy wrote into the tensor (see fast_path)
            return tensor
    source = tensor
    if _state.grad_enabled and (tensor.requires_grad or (isinstance(other, Tensor) and other._requires_grad)):
        # The node may keep `self` for backward; keep today's values, not tomorrow's.
        source = _snapshot(tensor)
    return _write(tensor, out_of_place(source, *args, **kwargs))


def _check_no_partial_overlap(written, read):
    """PyTorch refuses to write into memory that the op also reads elsewhere (``x[1:].add_(x[:-1])``).

    The same elements on both sides (``x.add_(x)``) are fine: each is read before it is written.
    """
    a, b = written._data, read._data
    if not np.may_share_memory(a, b):  # a cheap bounds check first
        return
    same = (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and a.shape == b.shape and a.strides == b.strides)
    if not same and np.shares_memory(a, b):
        raise RuntimeError(messages.PARTIAL_OVERLAP)


#: The in-place ops ``fast_path.write_in_place`` may do with one NumPy call when nothing records.
_UFUNCS = {elementwise.add: np.add, elementwise.sub: np.subtract, elementwise.mul: np.multiply,
           elementwise.div: np.true_divide}


def add_(input, other, *, alpha=1):
    return _in_place(elementwise.add, input, other, alpha=alpha)


def sub_(input, other, *, alpha=1):
    return _in_place(elementwise.sub, input, other, alpha=alpha)


def mul_(input, other):
    return _in_place(elementwise.mul, input, other)


def div_(input, other):
    return _in_place(elementwise.div, input, other)


def clamp_(input, min=None, max=None):
    return _in_place(elementwise.clamp, input, min=min, max=max)


clip_ = clamp_


def _in_place_form(out_of_place):
    """``exp_`` from ``exp``: the same node, written into the tensor (steps 1-5 above)."""

    def op_(input, *args, **kwargs):
        return _in_place(out_of_place, input, *args, **kwargs)

    op_.__name__ = out_of_place.__name__ + "_"
    op_.__doc__ = f"``{out_of_place.__name__}``, in place: the tensor's own memory changes (and its version)."
    return op_


# The in-place forms of the unary and binary ops: PyTorch records each as its out-of-place node.
exp_, log_, sqrt_, rsqrt_ = (_in_place_form(f) for f in (elementwise.exp, elementwise.log, elementwise.sqrt,
                                                          elementwise.rsqrt))
sin_, cos_, tan_, tanh_, sigmoid_, relu_ = (_in_place_form(f) for f in (
    elementwise.sin, elementwise.cos, elementwise.tan, elementwise.tanh, elementwise.sigmoid, elementwise.relu))
sinh_, cosh_, asin_, acos_, atan_ = (_in_place_form(f) for f in (
    elementwise.sinh, elementwise.cosh, elementwise.asin, elementwise.acos, elementwise.atan))
abs_, neg_, sign_, square_, reciprocal_ = (_in_place_form(f) for f in (
    elementwise.abs, elementwise.neg, elementwise.sign, elementwise.square, elementwise.reciprocal))
log1p_, expm1_, exp2_, log2_, log10_ = (_in_place_form(f) for f in (
    elementwise.log1p, elementwise.expm1, elementwise.exp2, elementwise.log2, elementwise.log10))
floor_, ceil_, round_, trunc_, frac_ = (_in_place_form(f) for f in (
    elementwise.floor, elementwise.ceil, elementwise.round, elementwise.trunc, elementwise.frac))
pow_, atan2_, hypot_, remainder_, lerp_ = (_in_place_form(f) for f in (
    elementwise.pow, elementwise.atan2, elementwise.hypot, elementwise.remainder, elementwise.lerp))
clamp_min_, clamp_max_ = _in_place_form(elementwise.clamp_min), _in_place_form(elementwise.clamp_max)
masked_fill_ = _in_place_form(shape.masked_fill)
scatter_, scatter_add_, index_fill_, index_add_ = (_in_place_form(f) for f in (
    shape.scatter, shape.scatter_add, shape.index_fill, shape.index_add))


class Fill(Node):
    """z = a constant        grad_x = 0 (the old values no longer matter)"""

    def name(self):
        return "ZeroBackward0" if self.zero else "FillBackward2"  # fill_(Scalar): PyTorch's 3rd overload

    def forward(self, x, value, zero=False):
        self.value, self.zero = value, zero
        return np.full_like(x, value)

    def backward(self, grad):
        return zero_gradient(grad)


class Copy(Node):
    """z = src (broadcast, in self's dtype)        grad_self = 0,  grad_src = grad"""

    may_warn = True

    def name(self):
        return "torch::autograd::CopyBackwards"  # a hand-written node in PyTorch, hence the namespace

    def forward(self, x, src):
        return np.broadcast_to(src, x.shape).astype(x.dtype)

    def backward(self, grad):
        return zero_gradient(grad), grad


class SetItem(Node):
    """z = x with z[index] = value        grad_x = grad with index zeroed,  grad_value = grad[index]"""

    def name(self):
        # Integer-array or mask indices make PyTorch call index_put_; basic ones write into a view.
        parts = self.index if isinstance(self.index, tuple) else (self.index,)
        if any(isinstance(p, (np.ndarray, list)) for p in parts):
            return "IndexPutBackward0"
        return "torch::autograd::CopySlices"

    def forward(self, x, value, index):
        self.index = index
        out = x.copy()
        out[index] = value
        return out

    def backward(self, grad):
        return shape.zeroed_at(grad, self.index), grad[self.index]


def zero_(input):
    """Fill with zeros, in place."""
    _check_allowed(input)
    return _write(input, Fill.apply(input, value=0, zero=True))  # its own node: ZeroBackward0


def fill_(input, value):
    """Fill with ``value``, in place."""
    value = checked_number(value, input._data.dtype)
    _check_allowed(input)
    return _write(input, Fill.apply(input, value=value))


def copy_(input, src):
    """Copy ``src`` (broadcast) into ``input``, in place."""
    src = as_tensor(src)
    _check_allowed(input)
    _check_no_partial_overlap(input, src)
    source = _snapshot(input) if _state.grad_enabled and input.requires_grad else input
    return _write(input, Copy.apply(source, src))


def setitem_(input, index, value):
    """``input[index] = value``."""
    index = shape._to_numpy_index(index)
    value = as_tensor(checked_number(value, input._data.dtype), input.dtype if not isinstance(value, Tensor) else None)
    if _state.grad_enabled and input._base is None and input.grad_fn is None and input._requires_grad and shape._index_kind(index, input.shape)[1]:
        # PyTorch writes x[0] = v through the view x[0], hence its wording.
        raise RuntimeError(messages.LEAF_VIEW_INPLACE)
    _check_allowed(input)
    source = _snapshot(input) if _state.grad_enabled and input.requires_grad else input
    try:
        result = SetItem.apply(source, value, index=index)
    except ValueError as e:
        _raise_value_does_not_fit(input, index, value)
        raise RuntimeError(str(e)) from None
    return _write(input, result)


def _raise_value_does_not_fit(input, index, value):
    """PyTorch's error for ``x[index] = value`` whose value does not fit: it copies the value, with
    its leading size-1 dims dropped, into ``x[index]`` by ``expand``, whose error says why it cannot.
    (Returns if expand would fit: then the error was another one.)"""
    try:
        target = input._data[index].shape
    except (IndexError, ValueError):
        return
    kept = value.detach()
    while kept.ndim and kept.shape[0] == 1:
        kept = kept[0]
    if not shape._index_kind(index, input.shape)[1]:  # an integer-array or mask index: index_put_'s words
        if len(kept.shape) > len(target) or any(
                v != 1 and v != t for v, t in zip(reversed(kept.shape), reversed(target))):
            raise RuntimeError(f"shape mismatch: value tensor of shape {messages.format_shape(kept.shape)} cannot "
                               f"be broadcast to indexing result of shape {messages.format_shape(target)}")
        return
    shape.expand(kept, target)


def is_floating_point(input):
    return dtypes.is_floating(input.dtype)
