"""In-place changes through a view: the graph of the base is rewritten, as PyTorch does.

A view (``v = y[:, 0]``, ``y.t()``, ...) shares memory with its base ``y``. After
``v.mul_(3)`` both tensors hold new values, so both need a new ``grad_fn``:

- the base's becomes ``CopySlices``. Its backward takes the base's gradient, runs the
  in-place op's own backward (``MulBackward0``) on the part the view covers, and passes the
  rest through unchanged: the elements outside the view were not touched.
- the view's becomes ``AsStridedBackward0``: "read these positions of the base". Its
  backward puts the view's gradient back at those positions of a zero base-shaped gradient.

Any other view of the same base goes stale too (its memory changed under it). It gets its
own ``AsStridedBackward0`` the next time it is used (``Tensor._refresh_view``).

Positions are flat indices into the base in C order, found from the two arrays' memory
layout, so every kind of view (slices, steps, transposes, views of views) works the same way.
"""

import math

import numpy as np

from ..graph import Node, _sequence
from . import shape


def positions_in_base(view, base):
    """For each element of the array ``view``, its flat C-order index in ``base`` (they share memory).

    Returns:
        (positions, size, stride, storage_offset): ``positions`` has ``view``'s shape; the rest
        are the view's geometry in elements relative to the base's first element (PyTorch's
        ``as_strided`` arguments, shown as ``_saved_size`` etc.).
    """
    itemsize = base.itemsize
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    size, stride, storage_offset = view.shape, tuple(s // itemsize for s in view.strides), start // itemsize
    if base.flags.c_contiguous:
        # The base's memory is its C order: an element's position is its offset in elements.
        return _byte_offsets(view, start) // itemsize, size, stride, storage_offset
    # Otherwise match byte offsets: where in memory each element of each array lies.
    base_offsets = _byte_offsets(base, 0).ravel()
    order = np.argsort(base_offsets, kind="stable")
    found = np.searchsorted(base_offsets[order], _byte_offsets(view, start).ravel())
    return order[found].reshape(view.shape), size, stride, storage_offset


def _byte_offsets(array, start):
    offsets = np.full(array.shape, start, dtype=np.int64)
    for axis, (n, step) in enumerate(zip(array.shape, array.strides)):
        offsets += (np.arange(n, dtype=np.int64) * step).reshape((n,) + (1,) * (array.ndim - axis - 1))
    return offsets


class AsStrided(Node):
    """z = the base's elements at the view's positions        grad_base = zeros, grad added at them"""

    saved_params = ("size", "stride", "storage_offset")

    def name(self):
        return "AsStridedBackward0"

    def forward(self, base, positions, size, stride, storage_offset):
        self.positions, self.base_shape = positions, base.shape
        self.size, self.stride, self.storage_offset = size, stride, storage_offset
        return base.reshape(-1)[positions]

    def backward(self, grad):
        # IndexAddInto adds repeated positions up: an expanded view reads one element many times.
        flat = shape.IndexAddInto.apply(grad, index=self.positions, shape=(math.prod(self.base_shape),))
        return flat.reshape(self.base_shape)


class CopySlices(Node):
    """The base after an in-place op on its view.        grad_base = grad outside the view,
    the op's own backward inside it;  the op's other inputs get what that backward gives them."""

    def name(self):
        return "torch::autograd::CopySlices"

    def wrap(self, base_edge, base_meta, fn, positions):
        """Stand for ``fn`` (the op's node, made on the view) applied to the base at ``positions``."""
        self.fn, self.positions = fn, positions
        self._sequence_nr = next(_sequence)
        # The op's first input was the view itself: that edge is replaced by the base's own.
        self.next_functions = (base_edge,) + fn.next_functions[1:]
        self.needs_input_grad = (base_edge[0] is not None,) + fn.needs_input_grad[1:]
        self._input_meta = (base_meta,) + fn._input_meta[1:]

    def forward(self, base, *others, positions, op, op_params):
        """The base after the op on its view (only for replaying the step, e.g. ``classroom.check_graph``)."""
        out = np.array(base, copy=True)
        out.reshape(-1)[positions] = op().forward(base.reshape(-1)[positions], *others, **op_params)
        return out

    def backward(self, grad):
        from ..engine import fit_gradients

        base_shape = self._input_meta[0][0]
        flat = grad.reshape(-1)
        inside = fit_gradients(self.fn, self.fn.backward(flat[self.positions]))
        # Outside the view the base kept its old values, so its gradient passes through; inside,
        # the old values went through the op, so they get what the op's backward gives them.
        replaced = inside[0] if inside[0] is not None else flat[self.positions] * 0
        base_grad = _scatter(flat, replaced, self.positions).reshape(base_shape)
        return (base_grad,) + tuple(inside[1:])

    def release(self, dry_run=False):
        return self.fn.release(dry_run)

    def _drop_saved(self):
        self.fn._drop_saved()

    @property
    def released(self):
        return self.fn.released


def _scatter(flat, values, positions):
    """``flat`` with ``values`` at ``positions``, differentiably (SetItem is x[index] = v, out of place)."""
    from .inplace import SetItem  # here: inplace imports this module

    return SetItem.apply(flat, values, index=positions)


def rebase(view, fn, base_before=None):
    """After ``fn``'s result was written into ``view``: new grad_fns for the base and the view.

    ``base_before``: a copy of the base's old values, inside ``record_forward_inputs()``.
    """
    base = view._base
    base_edge = base._gradient_edge()
    positions, size, stride, offset = positions_in_base(view._data, base._data)
    node = CopySlices()
    node.wrap(base_edge, (base._data.shape, base._data.dtype), fn, positions)
    if base_before is not None and fn._forward_inputs is not None:
        arrays, params = fn._forward_inputs
        node._forward_inputs = ((base_before,) + tuple(arrays[1:]),
                                {"positions": positions, "op": type(fn), "op_params": params})
    base._grad_fn, base._requires_grad, base.output_nr = node, True, 0
    base._graph_version = base._version_counter.value
    _connect_view(view, base, positions, size, stride, offset)


def regenerate_view(view):
    """A stale view's new grad_fn: its positions read from the base's current graph."""
    base = view._base
    view._graph_version = view._version_counter.value
    if not base._requires_grad:
        return  # no gradient reaches it, as before
    _connect_view(view, base, *positions_in_base(view._data, base._data))


def _connect_view(view, base, positions, size, stride, offset):
    node = AsStrided()
    node.positions, node.base_shape = positions, base._data.shape
    node.size, node.stride, node.storage_offset = size, stride, offset
    node._connect((base,), view, {"positions": positions, "size": size, "stride": stride, "storage_offset": offset})
    view.output_nr = 0
    view._graph_version = view._version_counter.value
