"""Shape ops: the same numbers, rearranged.

Most of them are *views* in PyTorch: the result shares memory with the input.
minigrad keeps that (NumPy views), and gives a view its base's version
counter, so an in-place change through either one is seen by autograd's checks.
Their backward rearranges the gradient the opposite way.

A view's node class has one more method besides forward and backward: ``view``,
the array the forward makes and nothing else (nothing kept for backward). When
nothing records, that is all a view op runs (``fast_path.unrecorded_view``).
"""

import math

import numpy as np

from .. import dtypes, messages
from ..fast_path import broadcast_view, records, unrecorded_view
from ..graph import Node
from ..tensor import Tensor
from .elementwise import clone
from .reduce import _reduction_axes
from .operands import (
    apply_with_outputs, as_tensor, broadcast_error, checked_number, int_argument, ints_argument, normalize_dim,
    numpy_names, values_indices,
)

SortResult, TopkResult = values_indices("sort"), values_indices("topk")


def _as_view_of(result, base, always=False):
    """Mark ``result`` as sharing ``base``'s memory, when NumPy made it a view.

    ``always``: the op makes a view whenever there is memory to share (a transpose, a reshape
    of contiguous memory), so NumPy need not be asked.
    """
    if (always and result._data.size) or np.may_share_memory(result._data, base._data):
        result._become_view_of(base)
    return result


def _sizes(size):
    """Accept ``f(2, 3)`` and ``f((2, 3))`` alike, as PyTorch does."""
    if len(size) == 1 and not isinstance(size[0], (int, np.integer)):
        return tuple(size[0])
    return tuple(size)


class View(Node):
    """z = x with a new shape        grad_x = grad reshaped back

    One node class, three PyTorch names (``kind``): ``ViewBackward0`` for ``view`` and for
    ``reshape`` of a contiguous tensor, ``ReshapeAliasBackward0`` when ``reshape`` can still
    share a non-contiguous tensor's memory, ``UnsafeViewBackward0`` when it had to copy first.
    """

    def name(self):
        return self.kind

    def forward(self, x, shape, kind="ViewBackward0"):
        self.shape, self.kind = x.shape, kind
        return View.view(x, shape)

    @staticmethod
    def view(x, shape):
        try:
            return x.reshape(shape)
        except ValueError:
            if list(shape).count(-1) > 1:
                raise RuntimeError(messages.ONLY_ONE_INFERRED) from None
            raise RuntimeError(f"shape '{messages.format_shape(shape)}' is invalid for input of size {x.size}") from None

    def backward(self, grad):
        return grad.reshape(self.shape)


def _reshaped_without_copy(array, shape):
    """True if NumPy (like PyTorch) can give ``array`` the new shape by strides alone."""
    try:
        return np.shares_memory(array.reshape(shape), array) or array.size == 0
    except ValueError:
        return True  # a bad shape: let the node raise PyTorch's message


class Transpose(Node):
    """z = x with dims d0 and d1 swapped        grad_x = grad with them swapped back"""

    saved_params = ("dim0", "dim1")

    def forward(self, x, dim0, dim1):
        self.dim0, self.dim1 = dim0, dim1
        return Transpose.view(x, dim0, dim1)

    @staticmethod
    def view(x, dim0, dim1):
        return x.swapaxes(dim0, dim1) if x.ndim else x.view()  # (a 0-d tensor's only dim is itself)

    def backward(self, grad):
        return grad.transpose(self.dim0, self.dim1)


class T(Transpose):
    """z = x.t(): a 2-D transpose; of a 0-D or 1-D tensor, the same elements        grad_x = grad.t()"""

    def forward(self, x):
        self.dim0, self.dim1 = (0, 1) if x.ndim == 2 else (0, 0)
        return T.view(x)

    @staticmethod
    def view(x):
        return x.T  # (at most 2-D here: NumPy's .T is then the transpose, or the same elements)


class Permute(Node):
    """z = x with dims reordered        grad_x = grad with the inverse order"""

    saved_params = ("dims",)

    def forward(self, x, dims):
        self.dims = dims
        return Permute.view(x, dims)

    @staticmethod
    def view(x, dims):
        return x.transpose(dims)

    def backward(self, grad):
        return grad.permute(tuple(np.argsort(self.dims)))


class Squeeze(Node):
    """z = x without size-1 dims        grad_x = grad reshaped back"""

    saved_params = ("dim",)

    def name(self):
        # PyTorch's overloads: squeeze(), squeeze(dim), squeeze(dims), then the same three in place.
        number = 0 if self.dim is None else 2 if self.dim_was_tuple else 1
        return f"SqueezeBackward{number + 3 * self.in_place}"

    def forward(self, x, dim=None, dim_was_tuple=False, in_place=False):
        self.dim, self.dim_was_tuple, self.in_place, self.shape = dim, dim_was_tuple, in_place, x.shape
        return Squeeze.view(x, dim)

    @staticmethod
    def view(x, dim=None):
        if dim is None:
            return np.squeeze(x)
        # PyTorch: squeezing a non-1 dim is a no-op, and so is squeezing a 0-d tensor's dim 0.
        axes = tuple(d for d in dim if x.ndim and x.shape[d] == 1)
        return np.squeeze(x, axis=axes) if axes else x.view()

    def backward(self, grad):
        return grad.reshape(self.shape)


class Unsqueeze(Node):
    """z = x with a new size-1 dim        grad_x = grad without it"""

    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim, self.shape = dim, x.shape
        return Unsqueeze.view(x, dim)

    @staticmethod
    def view(x, dim):
        return x.reshape(x.shape[:dim] + (1,) + x.shape[dim:])  # a view: np.expand_dims, minus its checks

    def backward(self, grad):
        return grad.reshape(self.shape)


class Expand(Node):
    """z = x broadcast to a larger shape        grad_x = grad summed back (sum_to_size)"""

    def forward(self, x, shape):
        self.shape = x.shape
        return Expand.view(x, shape)

    @staticmethod
    def view(x, shape):
        if shape == x.shape:
            return x.view()  # nothing repeated: a plain, writable view (as PyTorch's)
        return broadcast_view(x, shape)

    def backward(self, grad):
        return grad.sum_to_size(self.shape)


class Cat(Node):
    """z = inputs joined along dim        grad for each input = its slice of grad"""

    saved_params = ("dim",)

    def forward(self, *arrays, dim):
        self.dim = dim
        self.sizes = [a.shape[dim] for a in arrays]
        return np.concatenate(arrays, axis=dim)

    def backward(self, grad):
        grads, start = [], 0
        for size in self.sizes:
            index = (slice(None),) * self.dim + (slice(start, start + size),)
            grads.append(grad[index])
            start += size
        return tuple(grads)


class Stack(Node):
    """z = inputs stacked along a new dim        grad for input i = grad[..., i, ...]"""

    saved_params = ("dim",)

    def forward(self, *arrays, dim):
        self.dim = dim
        return np.stack(arrays, axis=dim)

    def backward(self, grad):
        count = grad.shape[self.dim]
        return tuple(grad[(slice(None),) * self.dim + (i,)] for i in range(count))


class Index(Node):
    """z = x[index]        grad_x = zeros of x's shape with grad added at index"""

    def name(self):
        return self.kind

    def forward(self, x, index, kind):
        self.index, self.kind, self.shape = index, kind, x.shape
        if kind == "IndexBackward0":
            self.saved_arrays = ("index",)  # integer arrays and masks are saved tensors in PyTorch
        return x[index]

    @property
    def _saved_index(self):
        # (Only an advanced index is saved, so this node's class cannot list it: see graph.SavedPeek.)
        if not self.saved_arrays:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '_saved_index'")
        return Tensor._wrap(self._array("index"))

    @staticmethod
    def view(x, index):  # (a basic index only)
        return x[index]

    def backward(self, grad):
        index = self._array("index") if self.saved_arrays else self.index
        return IndexAddInto.apply(grad, index=index, shape=self.shape)


class IndexAddInto(Node):
    """z = zeros(shape) with g added at index (the adjoint of indexing)        grad_g = grad[index]"""

    may_warn = True

    def name(self):
        return "IndexPutBackward0"

    def forward(self, g, index, shape):
        self.index = index
        out = np.zeros(shape, dtype=g.dtype)
        np.add.at(out, index, g)  # add.at: repeated indices add up instead of overwriting
        return out

    def backward(self, grad):
        return getitem(grad, self.index)


class Split(Node):
    """z_0, z_1, ... = consecutive pieces of x along dim        grad_x = the pieces' grads joined

    One node with an output per piece (PyTorch's ``SplitBackward0``, or
    ``SplitWithSizesBackward0`` for a list of sizes); a piece that got no gradient counts as zeros.
    """

    several_outputs = True
    saved_params = ("dim",)

    def name(self):
        return "SplitWithSizesBackward0" if self.with_sizes else "SplitBackward0"

    def forward(self, x, sizes, dim, with_sizes):
        self.dim, self.with_sizes, self.shape, self.dtype = dim, with_sizes, x.shape, x.dtype
        self.split_sizes = sizes
        self.split_size = sizes[0] if sizes else 0
        ends = np.cumsum(sizes)
        return [x[(slice(None),) * dim + (slice(end - size, end),)] for size, end in zip(sizes, ends)]

    def backward(self, *grads):
        pieces = [g if g is not None else _zeros_piece(self.shape, self.dim, size, self.dtype)
                  for g, size in zip(grads, self.split_sizes)]
        return cat(pieces, self.dim)


class Unbind(Node):
    """z_i = x[..., i, ...] (each index along dim)        grad_x = the z_i's grads stacked"""

    several_outputs = True
    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim, self.shape, self.dtype = dim, x.shape, x.dtype
        return [x[(slice(None),) * dim + (i,)] for i in range(x.shape[dim])]

    def backward(self, *grads):
        piece_shape = self.shape[:self.dim] + self.shape[self.dim + 1:]
        zeros = Tensor._wrap(np.zeros(piece_shape, dtype=self.dtype))
        return stack([g if g is not None else zeros for g in grads], self.dim)


def _zeros_piece(shape, dim, size, dtype):
    return Tensor._wrap(np.zeros(shape[:dim] + (size,) + shape[dim + 1:], dtype=dtype))


class Flip(Node):
    """z = x reversed along dims        grad_x = grad reversed along the same dims"""

    saved_params = ("dims",)

    def forward(self, x, dims):
        self.dims = dims
        return np.flip(x, dims).copy()  # PyTorch's flip copies

    def backward(self, grad):
        return grad.flip(self.dims)


class Roll(Node):
    """z = x shifted cyclically along dims        grad_x = grad shifted back"""

    saved_params = ("shifts", "dims")

    def forward(self, x, shifts, dims):
        self.shifts, self.dims = shifts, dims
        if dims is None:
            return np.roll(x.reshape(-1), shifts).reshape(x.shape)
        return np.roll(x, shifts, dims)

    def backward(self, grad):
        return grad.roll(tuple(-s for s in self.shifts) if self.dims is not None else -self.shifts, self.dims)


class Repeat(Node):
    """z = x tiled ``repeats`` times along each dim        grad_x = grad summed over the copies"""

    saved_params = ("repeats",)

    def forward(self, x, repeats):
        self.repeats, self.shape = repeats, x.shape
        return np.tile(x, repeats)

    def backward(self, grad):
        # Each dim of z is (copies, size): split them apart, then sum over the copies.
        lead = len(self.repeats) - len(self.shape)
        shape = (1,) * lead + tuple(self.shape)
        split = []
        for copies, size in zip(self.repeats, shape):
            split += [copies, size]
        summed = grad.reshape(split).sum(dim=tuple(range(0, 2 * len(shape), 2)))
        return summed.reshape(self.shape)


class Triangle(Node):
    """z = x with the elements above (tril) or below (triu) a diagonal zeroed        grad_x = grad, the same zeroed"""

    saved_params = ("diagonal",)

    def name(self):
        return "TrilBackward0" if self.lower else "TriuBackward0"

    def forward(self, x, diagonal, lower):
        self.diagonal, self.lower = diagonal, lower
        return np.tril(x, diagonal) if lower else np.triu(x, diagonal)

    def backward(self, grad):
        return grad.tril(self.diagonal) if self.lower else grad.triu(self.diagonal)


class DiagEmbed(Node):
    """z = a square matrix with x on a diagonal        grad_x = that diagonal of grad"""

    saved_params = ("offset",)

    def forward(self, x, offset):
        self.offset = offset
        return np.diag(x, offset)

    def backward(self, grad):
        return diag(grad, self.offset)


class Diagonal(Node):
    """z = a diagonal of the matrix x        grad_x = zeros with grad on that diagonal"""

    saved_params = ("offset",)

    def name(self):
        return "DiagonalBackward0_copy"  # PyTorch's diag() of a matrix: a copy of diagonal()

    def forward(self, x, offset):
        self.offset, self.shape = offset, x.shape
        return np.diag(x, offset).copy()

    def backward(self, grad):
        return _pad_to(diag(grad, self.offset), self.shape)  # a square matrix: cut or pad it to x's shape


def _pad_to(t, shape):
    """``t`` cut to ``shape``, or in the top-left corner of zeros of it (differentiable: cat with zeros)."""
    rows, cols = t.shape
    if rows < shape[0]:
        t = cat([t, Tensor._wrap(np.zeros((shape[0] - rows, cols), dtype=t._data.dtype))], 0)
    if cols < shape[1]:
        t = cat([t, Tensor._wrap(np.zeros((shape[0], shape[1] - cols), dtype=t._data.dtype))], 1)
    return t[:shape[0], :shape[1]]


class Trace(Node):
    """z = sum of the main diagonal of x        grad_x = grad on the diagonal, 0 elsewhere"""

    may_warn = True

    def forward(self, x):
        self.shape = x.shape
        return np.asarray(np.trace(x))

    def backward(self, grad):
        # Zeros with grad on the diagonal (not eye * grad: inf * 0 would put nan off it).
        off_diagonal = Tensor._wrap(~np.eye(*self.shape, dtype=bool))
        return grad.expand(self.shape).masked_fill(off_diagonal, 0)


class Gather(Node):
    """z[i][j] = x[index[i][j]][j] (dim 0; likewise for other dims)

    grad_x = zeros with grad added at the gathered positions (``scatter_add``)
    """

    saves = ("self",)
    saved_arrays = ("index",)
    saved_params = ("dim",)

    def forward(self, x, index, dim):
        self.index, self.dim, self.shape = index, dim, x.shape
        return np.take_along_axis(x, index, axis=dim)

    def backward(self, grad):
        return ScatterAdd.apply(grad, index=self._array("index"), dim=self.dim, shape=self.shape)


class ScatterAdd(Node):
    """z = zeros(shape) with g[i][j] added at z[index[i][j]][j] (gather's adjoint)        grad_g = gather(grad)"""

    may_warn = True

    def forward(self, g, index, dim, shape):
        self.index, self.dim = index, dim
        out = np.zeros(shape, dtype=g.dtype)
        np.add.at(out, _along_axis(index, dim), g)  # add.at: repeated indices add up
        return out

    def backward(self, grad):
        return Gather.apply(grad, index=self.index, dim=self.dim)


def _along_axis(index, dim):
    """The advanced index that picks ``index``'s entries along ``dim`` (``take_along_axis``'s own)."""
    grids = list(np.indices(index.shape, sparse=True))
    grids[dim] = index
    return tuple(grids)


class IndexSelect(Node):
    """z = x's slices along dim at index (in that order)        grad_x = zeros with grad added at index"""

    saved_arrays = ("index",)
    saved_params = ("dim",)

    def forward(self, x, index, dim):
        self.index, self.dim, self.shape = index, dim, x.shape
        return np.take(x, index, axis=dim)

    def backward(self, grad):
        where = (slice(None),) * self.dim + (self._array("index"),)
        return IndexAddInto.apply(grad, index=where, shape=self.shape)


class MaskedFill(Node):
    """z = x with value where mask        grad_x = grad with 0 where mask"""

    saved_arrays = ("mask",)

    def name(self):
        return self.kind  # index_fill is this node too, under PyTorch's name for it

    def forward(self, x, mask, value, kind="MaskedFillBackward0"):
        self.mask, self.kind = mask, kind
        return np.where(mask, np.asarray(value, dtype=x.dtype), x)

    def backward(self, grad):
        return grad.masked_fill(Tensor._wrap(broadcast_view(self._array("mask"), grad.shape)), 0)


class MaskedFillTensor(Node):
    """z = x with the 0-d tensor v where mask        grad_x = grad with 0 where mask,  grad_v = sum of grad where mask"""

    input_names = ("self", "value")
    saved_arrays = ("mask",)

    def name(self):
        return self.kind

    def forward(self, x, value, mask, kind="MaskedFillBackward1"):
        self.mask, self.kind = mask, kind
        return np.where(mask, value.astype(x.dtype), x)

    def backward(self, grad):
        mask = self._array("mask")
        filled = Tensor._wrap(broadcast_view(mask, grad.shape))
        kept = Tensor._wrap(broadcast_view(~mask, grad.shape))
        return grad.masked_fill(filled, 0), grad.masked_fill(kept, 0).sum()


class Sort(Node):
    """z = x's values in order along dim (or the k largest: topk)        grad_x = grad put back where each value came from"""

    saved_arrays = ("indices",)
    saved_params = ("dim",)

    def name(self):
        return self.kind

    def forward(self, x, indices, dim, kind):
        self.indices, self.dim, self.kind, self.shape = indices, dim, kind, x.shape
        return np.take_along_axis(x, indices, axis=dim)

    def backward(self, grad):
        return ScatterAdd.apply(grad, index=self._array("indices"), dim=self.dim, shape=self.shape)


# --- the functions users call -------------------------------------------------------------
def reshape(input, *shape):
    """The same elements in a new shape (one dimension may be -1).

    >>> import minigrad
    >>> minigrad.arange(6.0).reshape(2, 3)
    tensor([[0., 1., 2.],
            [3., 4., 5.]])
    """
    shape = _sizes(shape)
    if input._data.flags.c_contiguous:
        if not records(input):
            return unrecorded_view(View, input, shape)  # (fast_path: nothing to record)
        return View.apply_as_view(input, shape)
    if _reshaped_without_copy(input._data, shape):
        if not records(input):
            return unrecorded_view(View, input, shape)
        return View.apply_as_view(input, shape, "ReshapeAliasBackward0")
    # As PyTorch: a contiguous copy (CloneBackward0), then a reshape of it that is not a view.
    return View.apply(clone(input), shape=shape, kind="UnsafeViewBackward0")


def view(input, *shape):
    """The same memory in a new shape; an error when strides alone cannot do it (then use reshape).

    >>> import minigrad
    >>> minigrad.arange(6.0).view(3, 2).shape
    minigrad.Size([3, 2])
    """
    shape = _sizes(shape)
    if not (input._data.flags.c_contiguous or _reshaped_without_copy(input._data, shape)):
        raise RuntimeError(messages.VIEW_NOT_COMPATIBLE)
    if not records(input):
        return unrecorded_view(View, input, shape)  # (fast_path: nothing to record)
    return View.apply_as_view(input, shape)


def contiguous(input):
    """The tensor itself if its memory is in C order, else a copy that is (``CloneBackward0``)."""
    if input._data.flags.c_contiguous:
        return input
    return clone(input)


def is_contiguous(input):
    """True if the elements lie in memory in C (row-major) order."""
    return bool(input._data.flags.c_contiguous)


def view_as(input, other):
    return reshape(input, other.shape)


def reshape_as(input, other):
    return reshape(input, other.shape)


def ravel(input):
    """The elements in one row, in order: ``contiguous().view(-1)`` (a view of the tensor, or of its copy).

    >>> import minigrad
    >>> minigrad.tensor([[1, 2], [3, 4]]).t().ravel()
    tensor([1, 3, 2, 4])
    """
    return view(contiguous(input), -1)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims ``start_dim..end_dim`` into one."""
    (start,), (end,) = normalize_dim(start_dim, input.ndim), normalize_dim(end_dim, input.ndim)
    if input.ndim == 0:
        return reshape(input, 1)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input  # nothing to merge: PyTorch returns the tensor itself, no new node
    shape = input.shape[:start] + (-1,) + input.shape[end + 1:]
    return reshape(input, shape)


def transpose(input, dim0, dim1):
    """Swap two dimensions."""
    ndim = input.ndim
    (d0,), (d1,) = normalize_dim(dim0, ndim), normalize_dim(dim1, ndim)
    if not records(input):
        return unrecorded_view(Transpose, input, d0, d1)  # (fast_path: nothing to record)
    return Transpose.apply_as_view(input, d0, d1)


swapaxes = transpose


def t(input):
    """Transpose a tensor of at most 2 dims."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    if not records(input):
        return unrecorded_view(T, input)  # (fast_path: nothing to record)
    return T.apply_as_view(input)


def permute(input, *dims):
    """Reorder the dimensions."""
    dims = _sizes(dims)
    if len(dims) != input.ndim:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match "
                           "the length of the desired ordering of dimensions i.e. input.dim() = "
                           f"{input.ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(normalize_dim(d, input.ndim)[0] for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    if not records(input):
        return unrecorded_view(Permute, input, dims)  # (fast_path: nothing to record)
    return Permute.apply_as_view(input, dims)


def numpy_T(input):
    """``t.T``: all dimensions reversed (PyTorch records it as a permute).

    PyTorch deprecates it on anything but a matrix, with a warning once per process.
    """
    if input.ndim != 2:
        messages.warn_once("T_0D" if input.ndim == 0 else "T_NOT_2D", stacklevel=3)  # (the user, .T, here)
    return permute(input, tuple(range(input.ndim))[::-1])


def matrix_T(input):
    """``t.mT``: the last two dimensions swapped (a batch of matrices transposed)."""
    if input.ndim == 0:
        messages.warn_once("MT_0D", stacklevel=3)
        return input  # (PyTorch gives the tensor itself)
    if input.ndim == 1:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return transpose(input, -2, -1)


def squeeze(input, dim=None):
    """Remove size-1 dims (all of them, or those in ``dim``)."""
    dim_was_tuple = dim is not None and not isinstance(dim, int)
    dims = normalize_dim(dim, input.ndim)
    if not records(input):
        return unrecorded_view(Squeeze, input, dims)  # (fast_path: nothing to record)
    return Squeeze.apply_as_view(input, dims, dim_was_tuple)


def _squeeze_(input, dim):
    """PyTorch's ``squeeze_(dim)`` on a fresh result that only the caller holds (matmul's 1-D @ 2-D).

    The same numbers with one dim fewer, recorded as ``SqueezeBackward4`` and counted as one
    in-place change, as PyTorch counts it.
    """
    out = Squeeze.apply(input, dim=normalize_dim(dim, input.ndim), in_place=True)
    out._shared_version_counter().value = input._version + 1
    return out


def _unsafe_view(input, shape):
    """A reshape that PyTorch does not count as a view (``UnsafeViewBackward0``): of a fresh result."""
    return View.apply(input, shape=tuple(shape), kind="UnsafeViewBackward0")


def broadcast_shapes(*shapes):
    """The shape that ``shapes`` broadcast to, or PyTorch's error naming the first clash."""
    result = ()
    for shape in shapes:
        try:
            result = np.broadcast_shapes(result, shape)
        except ValueError:
            raise broadcast_error(result, shape) from None
    return tuple(result)


def unsqueeze(input, dim):
    """Insert a size-1 dim at ``dim``."""
    rank = input.ndim + 1
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    if not records(input):
        return unrecorded_view(Unsqueeze, input, dim % rank)  # (fast_path: nothing to record)
    return Unsqueeze.apply_as_view(input, dim % rank)


def expand(input, *sizes):
    """Broadcast to a larger shape without copying (-1 keeps a dimension)."""
    sizes = _sizes(sizes)
    lead = len(sizes) - input.ndim
    if lead < 0:
        name = f"{messages.legacy_type(input).split(' ')[0]}{{{messages.format_shape(input.shape)}}}"
        raise RuntimeError(
            f"expand({name}, size={list(sizes)}): the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({input.ndim})")
    if -1 in sizes:
        for i, s in enumerate(sizes[:lead]):
            if s == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
        shape = tuple(input.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    else:
        shape = sizes
    try:
        if not records(input):
            return unrecorded_view(Expand, input, shape)  # (fast_path: nothing to record)
        return Expand.apply_as_view(input, shape)
    except ValueError:
        # (PyTorch names the last dimension that does not fit)
        dim = max(i for i, n in enumerate(input.shape) if n != 1 and n != shape[lead + i]) + lead
        raise RuntimeError(
            f"The expanded size of the tensor ({shape[dim]}) must match the existing size ({input.shape[dim - lead]}) "
            f"at non-singleton dimension {dim}.  Target sizes: {list(sizes)}.  "
            f"Tensor sizes: {list(input.shape)}") from None


def expand_as(input, other):
    return expand(input, other.shape)


def cat(tensors, dim=0):
    """Join tensors along an existing dim (of the common dtype, as PyTorch promotes).

    >>> import minigrad
    >>> minigrad.cat([minigrad.zeros(1, 2), minigrad.ones(1, 2)]).shape
    minigrad.Size([2, 2])
    """
    if isinstance(tensors, Tensor):
        raise TypeError("cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    for index, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(messages.CAT_NOT_TENSOR.format(index=index, type=type(t).__name__))
    if not tensors:
        raise ValueError(messages.CAT_EMPTY)
    # PyTorch skips 1-D empty tensors here (a legacy rule): torch.cat([torch.tensor([]), x]) is x.
    shaped = [t for t in tensors if t.shape != (0,)] or tensors[:1]
    (axis,) = normalize_dim(dim, shaped[0].ndim)
    first = shaped[0]
    for index, t in enumerate(tensors):
        if t.shape == (0,) and t is not first:
            continue
        if t.ndim != first.ndim:
            raise RuntimeError(messages.CAT_NDIM.format(a=first.ndim, b=t.ndim))
        for d, (n, m) in enumerate(zip(first.shape, t.shape)):
            if d != axis and n != m:
                raise RuntimeError(messages.CAT_SIZES.format(dim=axis, expected=n, got=m, index=index))
    dtype = _common_dtype(tensors)
    return Cat.apply(*[t if t.dtype == dtype else t.to(dtype) for t in shaped], dim=axis)


def _common_dtype(tensors):
    """The dtype cat and stack give: PyTorch's promotion over all the tensors."""
    first = tensors[0].dtype
    if all(t.dtype == first for t in tensors):
        return first
    return dtypes.result_type(*tensors)


concat = concatenate = cat


def stack(tensors, dim=0):
    """Join tensors of one shape along a new dim.

    >>> import minigrad
    >>> minigrad.stack([minigrad.zeros(2), minigrad.ones(2)], dim=1).shape
    minigrad.Size([2, 2])
    """
    if isinstance(tensors, Tensor):
        raise TypeError("stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    for index, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(messages.CAT_NOT_TENSOR.format(index=index, type=type(t).__name__))
    if not tensors:
        raise RuntimeError(messages.STACK_EMPTY)
    first = tensors[0]
    for index, t in enumerate(tensors[1:], 1):
        if t.shape != first.shape:
            raise RuntimeError(messages.STACK_SIZES.format(a=list(first.shape), b=list(t.shape), index=index))
    rank = first.ndim + 1
    if not -rank <= dim < rank:
        raise IndexError(messages.DIM_OUT_OF_RANGE.format(low=-rank, high=rank - 1, dim=dim))
    dtype = _common_dtype(tensors)
    return Stack.apply(*[t if t.dtype == dtype else t.to(dtype) for t in tensors], dim=dim % rank)


def _index_kind(index, shape):
    """PyTorch's node name for an indexing expression, and whether it is a view.

    PyTorch applies a basic index one part at a time, left to right (an int
    selects, a slice slices, None unsqueezes), skipping slices that keep a whole
    dim; the result's node is the last step taken (none at all: an alias).
    """
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, (np.ndarray, list, bool, np.bool_)) for p in parts):
        return "IndexBackward0", False  # (a lone True or False is a 0-d mask, as in PyTorch)
    if isinstance(index, slice):
        return "SliceBackward0", True  # a lone slice is always taken, even x[:]
    kind = "AliasBackward0"
    dims_used = sum(1 for p in parts if p is not None and p is not Ellipsis)
    dim = 0
    for part in parts:
        if part is Ellipsis:
            dim += len(shape) - dims_used
        elif part is None:
            kind = "UnsqueezeBackward0"
        elif isinstance(part, slice):
            if dim >= len(shape) or part.indices(shape[dim]) != (0, shape[dim], 1):
                kind = "SliceBackward0"
            dim += 1
        else:
            kind = "SelectBackward0"
            dim += 1
    return kind, True


def _positive_step(part):
    """PyTorch's error for a slice that steps backwards (``x[::-1]``: use ``x.flip(0)``)."""
    if part.step is not None and part.step < 0:
        raise ValueError(messages.NEGATIVE_STEP)


def _to_numpy_index(index):
    if isinstance(index, Tensor):
        if index._data.dtype.kind not in "iub":
            raise IndexError(messages.INDEX_NOT_INTEGER)
        if not index._data.ndim and index._data.dtype.kind != "b":
            # A 0-d integer tensor (``for i in torch.arange(n): x[i]``) indexes as the int it holds: a
            # view, as in PyTorch, so ``x[i] += 1`` changes x.
            return int(index._data)
        return index._data
    if isinstance(index, np.ndarray) and not index.ndim and index.dtype.kind in "iu":
        return int(index)
    if isinstance(index, slice):
        _positive_step(index)
    if isinstance(index, tuple):
        return tuple(_to_numpy_index(i) for i in index)
    if isinstance(index, list):
        return np.asarray([i._data if isinstance(i, Tensor) else i for i in index])
    return index


def _index(input, index, kind, view=False):
    """``Index`` applied, with PyTorch's errors; ``view``: the index is basic and selects something,
    so the result is always a view of ``input``."""
    try:
        if view:
            if not records(input):
                return unrecorded_view(Index, input, index)  # (fast_path: nothing to record)
            return Index.apply_as_view(input, index, kind)
        return Index.apply(input, index=index, kind=kind)
    except IndexError as e:
        if str(e).startswith("boolean index did not match"):
            raise IndexError(_mask_mismatch(input.shape, index)) from None
        if str(e).startswith("too many indices"):
            raise IndexError(f"too many indices for tensor of dimension {input.ndim}") from None
        if str(e).startswith("only integers"):
            parts = index if isinstance(index, tuple) else (index,)
            odd = next((p for p in parts if isinstance(p, (float, str, np.floating))), None)
            if isinstance(odd, str):
                raise TypeError(f"new(): invalid data type '{type(odd).__name__}'") from None
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             f"valid indices (got {type(odd).__name__})") from None
        raise IndexError(str(e).replace("axis", "dimension")) from None


def _mask_mismatch(shape, index):
    """PyTorch's message for a bool mask whose shape does not fit the dims it indexes."""
    parts = index if isinstance(index, tuple) else (index,)
    dim = 0
    for part in parts:
        if isinstance(part, np.ndarray) and part.dtype == bool:
            for j, n in enumerate(part.shape):
                if dim + j >= len(shape) or shape[dim + j] != n:
                    return (f"The shape of the mask {list(part.shape)} at index {j} does not match the shape of the "
                            f"indexed tensor {list(shape)} at index {dim + j}")
            dim += part.ndim
        elif part is not None and part is not Ellipsis:
            dim += 1
    return "The shape of the mask does not match the shape of the indexed tensor"


def getitem(input, index):
    """``input[index]``: ints, slices, None, ..., integer arrays and boolean masks."""
    # The most common indexes, kept cheap: what the general path below makes of a lone slice
    # or a lone int (a basic index: always a view).
    if input._data.ndim:
        if type(index) is slice:
            if index.step is not None:
                _positive_step(index)
            return _index(input, (index, Ellipsis), "SliceBackward0", view=True)
        if type(index) is int:
            return _index(input, (index, Ellipsis), "SelectBackward0", view=True)
    elif type(index) is slice:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    elif isinstance(index, (int, np.integer)) and not isinstance(index, bool):
        raise IndexError(messages.INDEX_0D)
    index = _to_numpy_index(index)
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, np.ndarray) for p in parts) and any(isinstance(p, (int, np.integer)) for p in parts):
        # NumPy treats ints next to arrays as advanced indices too, which moves
        # dims around; PyTorch selects with the ints first. Do it PyTorch's way.
        selects = tuple(p if isinstance(p, (int, np.integer)) or p is None or p is Ellipsis else slice(None)
                        for p in parts)
        rest = tuple(slice(None) if p is None else p for p in parts if not isinstance(p, (int, np.integer)))
        return getitem(getitem(input, selects), rest)
    kind, is_view = _index_kind(index, input.shape)
    if is_view:
        parts = index if isinstance(index, tuple) else (index,)
        if not any(p is Ellipsis for p in parts):
            # A trailing ... makes NumPy return a 0-d view, not a copied scalar,
            # when every dim is indexed by an int (x[1, 2]), as PyTorch does.
            index = parts + (Ellipsis,)
    result = _index(input, index, kind)
    return _as_view_of(result, input) if is_view else result


def select(input, dim, index):
    """``input`` at position ``index`` along ``dim``, that dim gone: ``x.select(1, 0)`` is ``x[:, 0]`` (a view).

    >>> import minigrad
    >>> minigrad.tensor([[1, 2], [3, 4]]).select(1, 0)
    tensor([1, 3])
    """
    if not input._data.ndim:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    (axis,) = normalize_dim(dim, input._data.ndim)
    size = input._data.shape[axis]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{messages.format_shape(input.shape)} at dimension {axis}")
    return getitem(input, (slice(None),) * axis + (index,))


# --- pieces, orderings, selections (the functions users call) ---------------------------------
def nelement(input):
    """The number of elements (``numel``'s older name)."""
    return input._data.size


def _dim(dim, input):
    (axis,) = normalize_dim(dim, input.ndim)
    return axis


def _pieces(input, sizes, axis, with_sizes):
    outs = apply_with_outputs(Split, [input], sizes=tuple(sizes), dim=axis, with_sizes=with_sizes)
    return tuple(_as_view_of(out, input) for out in outs)


def split(tensor, split_size_or_sections, dim=0):
    """Cut into pieces along ``dim``: of ``split_size`` each (the last may be smaller), or of the listed sizes.

    >>> import minigrad
    >>> [p.tolist() for p in minigrad.arange(5.0).split(2)]
    [[0.0, 1.0], [2.0, 3.0], [4.0]]
    >>> [p.shape[1] for p in minigrad.zeros(2, 5).split([1, 4], dim=1)]
    [1, 4]
    """
    axis = _dim(dim, tensor)
    size = tensor.shape[axis]
    if not isinstance(split_size_or_sections, (int, np.integer)):
        split_size_or_sections = ints_argument("split_with_sizes", "split_sizes", split_size_or_sections, 2)
    if isinstance(split_size_or_sections, (int, np.integer)):
        step = int(split_size_or_sections)
        if step < 0 or (step == 0 and size != 0):
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
                               if step == 0 else f"split expects split_size be non-negative, but got split_size={step}")
        sizes = [min(step, size - start) for start in range(0, size, step)] if step else [0]
        return _pieces(tensor, sizes, axis, with_sizes=False)
    sizes = [int(n) for n in split_size_or_sections]
    if sum(sizes) != size or any(n < 0 for n in sizes):
        raise RuntimeError(messages.SPLIT_SIZES.format(size=size, dim=axis, sizes=list(sizes)))
    return _pieces(tensor, sizes, axis, with_sizes=True)


def chunk(input, chunks, dim=0):
    """Cut into ``chunks`` pieces of equal size along ``dim`` (the last may be smaller; there may be fewer).

    >>> import minigrad
    >>> [p.tolist() for p in minigrad.arange(5.0).chunk(3)]
    [[0.0, 1.0], [2.0, 3.0], [4.0]]
    """
    if int_argument("chunk", "chunks", chunks, 1) <= 0:
        raise RuntimeError(messages.CHUNK_NOT_POSITIVE.format(chunks=chunks))
    axis = _dim(dim, input)
    size = input.shape[axis]
    return split(input, max(-(-size // chunks), 1) if size else 0, axis) if size else split(input, [0] * chunks, axis)


def tensor_split(input, indices_or_sections, dim=0):
    """Cut along ``dim`` into ``n`` nearly equal pieces (the first ones one longer), or at the given indices.

    >>> import minigrad
    >>> [p.tolist() for p in minigrad.arange(5.0).tensor_split(3)]
    [[0.0, 1.0], [2.0, 3.0], [4.0]]
    """
    axis = _dim(dim, input)
    size = input.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        n = int(indices_or_sections)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        bounds = [i * (size // n) + min(i, size % n) for i in range(n + 1)]
    else:
        bounds = [0] + [builtin_min(max(int(i), 0), size) for i in indices_or_sections] + [size]
    # Each piece is a slice of its own, as PyTorch's tensor_split records them (SliceBackward0).
    return tuple(narrow(input, axis, start, builtin_max(end - start, 0)) for start, end in zip(bounds, bounds[1:]))


builtin_min, builtin_max = min, max


def unbind(input, dim=0):
    """The slices along ``dim``, as a tuple (``x.unbind(0)`` is ``(x[0], x[1], ...)``).

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).unbind(1)
    (tensor([1., 3.]), tensor([2., 4.]))
    """
    axis = _dim(int_argument("unbind", "dim", dim, 1), input)
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    outs = apply_with_outputs(Unbind, [input], dim=axis)
    return tuple(_as_view_of(out, input) for out in outs)


def narrow(input, dim, start, length):
    """``length`` elements of ``dim`` from ``start``: a view (``x.narrow(1, 2, 3)`` is ``x[:, 2:5]``).

    >>> import minigrad
    >>> minigrad.arange(6.0).view(2, 3).narrow(1, 1, 2)
    tensor([[1., 2.],
            [4., 5.]])
    """
    axis = _dim(dim, input)
    size = input.shape[axis]
    start, length = int_argument("narrow", "start", start, 2), int_argument("narrow", "length", length, 3)
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(messages.NARROW_PAST_END.format(start=start, length=length, size=size))
    return _as_view_of(_index(input, (slice(None),) * axis + (slice(start, start + length), Ellipsis),
                              "SliceBackward0"), input)


def flip(input, *dims):
    """Reverse the order of the elements along ``dims`` (a copy, as PyTorch's).

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0, 3.0]).flip(0)
    tensor([3., 2., 1.])
    """
    axes = normalize_dim(ints_argument("flip", "dims", dims[0] if len(dims) == 1 else dims, 1), input.ndim)
    if input.ndim == 0:
        return Flip.apply(input, dims=())
    return Flip.apply(input, dims=axes)


def fliplr(input):
    """Left to right: ``flip(1)`` of a tensor of at least 2 dims."""
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, 1)


def flipud(input):
    """Upside down: ``flip(0)`` of a tensor of at least 1 dim."""
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, 0)



def roll(input, shifts, dims=None):
    """Shift the elements cyclically along ``dims`` (of the flattened tensor, if None).

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0, 3.0]).roll(1)
    tensor([3., 1., 2.])
    """
    shifts = ints_argument("roll", "shifts", shifts, 1)
    if dims is None:
        return Roll.apply(input, shifts=shifts[0], dims=None)
    dims = ints_argument("roll", "dims", dims, 2)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    axes = tuple(_dim(d, input) for d in dims)
    return Roll.apply(input, shifts=tuple(int(s) for s in shifts), dims=axes)


def repeat(input, *sizes):
    """Tile the tensor: ``sizes[i]`` copies along dim i (extra leading sizes add dims).

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0]).repeat(2, 2)
    tensor([[1., 2., 1., 2.],
            [1., 2., 1., 2.]])
    """
    repeats = ints_argument("repeat", "repeats", _sizes(sizes), 1)
    if len(repeats) < input.ndim:
        raise RuntimeError(messages.REPEAT_TOO_FEW)
    shape = (1,) * (len(repeats) - input.ndim) + tuple(input.shape)
    target = [n * r for n, r in zip(shape, repeats)]
    if any(n < 0 for n in target):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(target)}: {target}")
    return Repeat.apply(input, repeats=repeats)


def tile(input, dims):
    """``repeat``, with missing leading sizes read as 1 (NumPy's ``tile``)."""
    dims = ints_argument("tile", "dims", dims, 1)
    return repeat(input, (1,) * (input.ndim - len(dims)) + dims)


def _matrix_rows(input, op):
    if input.ndim < 2:
        raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")


def tril(input, diagonal=0):
    """The lower triangle: elements above the ``diagonal``-th diagonal set to 0.

    >>> import minigrad
    >>> minigrad.ones(2, 2).tril()
    tensor([[1., 0.],
            [1., 1.]])
    """
    _matrix_rows(input, "tril")
    return Triangle.apply(input, diagonal=diagonal, lower=True)


def triu(input, diagonal=0):
    """The upper triangle: elements below the ``diagonal``-th diagonal set to 0."""
    _matrix_rows(input, "triu")
    return Triangle.apply(input, diagonal=diagonal, lower=False)


def diag(input, diagonal=0):
    """A 1-D tensor: the square matrix with it on a diagonal. A matrix: its diagonal (a copy).

    >>> import minigrad
    >>> minigrad.diag(minigrad.tensor([1.0, 2.0]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    if input.ndim == 1:
        return DiagEmbed.apply(input, offset=diagonal)
    if input.ndim == 2:
        return Diagonal.apply(input, offset=diagonal)
    raise RuntimeError(messages.DIAG_DIMS.format(ndim=input.ndim))


def trace(input):
    """The sum of a matrix's main diagonal.

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).trace()
    tensor(5.)
    """
    if input.ndim != 2:
        raise RuntimeError(messages.TRACE_NOT_MATRIX.format(ndim=input.ndim))
    return Trace.apply(input)


def _index_array(index, op):
    array = index._data if isinstance(index, Tensor) else np.asarray(index)
    if array.dtype.kind not in "iu":
        raise RuntimeError(messages.GATHER_INDEX_DTYPE if op == "gather" else
                           f"{op}(): Expected dtype int32 or int64 for index")
    return array


def gather(input, dim, index):
    """``z[i][j] = input[index[i][j]][j]`` for dim 0 (likewise for other dims): pick along ``dim``.

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).gather(1, minigrad.tensor([[1], [0]]))
    tensor([[2.],
            [3.]])
    """
    axis = _dim(dim, input)
    where = _index_array(index, "gather")
    if where.ndim != input.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    size = input.shape[axis] if input.ndim else 1
    bad = where[(where < -size) | (where >= size)] if where.size else where
    if bad.size:
        raise RuntimeError(messages.INDEX_OUT_OF_BOUNDS.format(index=int(bad.flat[0]), dim=axis, size=size))
    if input.ndim == 0:
        return Gather.apply(input.reshape(1), index=where.reshape(1), dim=0).reshape(())
    return Gather.apply(input, index=where, dim=axis)


def index_select(input, dim, index):
    """The slices of ``input`` along ``dim`` at the positions in the 1-D ``index``.

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).index_select(0, minigrad.tensor([1, 1]))
    tensor([[3., 4.],
            [3., 4.]])
    """
    axis = _dim(dim, input)
    where = _index_array(index, "index_select")
    if where.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    size = input.shape[axis] if input.ndim else 1
    bad = where[(where < 0) | (where >= size)]
    if bad.size:
        raise RuntimeError(messages.INDEX_SELECT_OUT_OF_BOUNDS.format(index=int(bad.flat[0]), size=size))
    return IndexSelect.apply(input, index=where.reshape(-1), dim=axis)


def masked_fill(input, mask, value, _kind="MaskedFillBackward0"):
    """``input`` with ``value`` wherever the bool ``mask`` (broadcast) is True.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, -2.0, 3.0])
    >>> x.masked_fill(x < 0, 0.0)
    tensor([1., 0., 3.])
    """
    array = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if array.dtype.kind != "b":
        kind = {"f": "float", "i": "long", "u": "unsigned char"}.get(array.dtype.kind, str(array.dtype))
        raise RuntimeError(messages.MASK_NOT_BOOL.format(dtype=kind))
    try:
        np.broadcast_shapes(input.shape, array.shape)
    except ValueError:
        raise broadcast_error(array.shape, input.shape) from None
    if not isinstance(value, (Tensor, int, float, bool, np.number)):
        raise TypeError(messages.NOT_A_NUMBER.format(op="masked_fill", name="value", type=type(value).__name__))
    value = checked_number(value, input._data.dtype)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s).")
        # A value tensor is an input of its own (MaskedFillBackward1): its gradient is the sum of
        # the gradients of the elements it filled.
        return MaskedFillTensor.apply(input, value, mask=array, kind=_kind[:-1] + "1")
    return MaskedFill.apply(input, mask=array, value=value, kind=_kind)


def sort(input, dim=-1, descending=False, stable=False):
    """``(values, indices)``: the elements in order along ``dim``, and where each came from.

    >>> import minigrad
    >>> minigrad.tensor([3.0, 1.0, 2.0]).sort()
    minigrad.return_types.sort(
    values=tensor([1., 2., 3.]),
    indices=tensor([1, 2, 0]))
    """
    axis = _dim(dim, input)
    indices = _order(input._data, axis, descending)
    values = Sort.apply(input, indices=indices, dim=axis, kind="SortBackward0") if input.ndim else input.clone()
    return SortResult(values, Tensor._wrap(indices))


def _order(array, axis, descending):
    """Positions that sort ``array`` along ``axis``, ties in their original order (a stable sort)."""
    if array.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if descending:
        return _descending(array, axis)
    return np.argsort(array, axis=axis, kind="stable").astype(np.int64)


def _descending(array, axis):
    # NaN sorts as the largest value in PyTorch; for the rest, the largest first, ties in original order.
    keys = np.where(np.isnan(array), np.inf, array) if array.dtype.kind == "f" else array
    return np.argsort(-keys if keys.dtype.kind != "b" else ~keys, axis=axis, kind="stable").astype(np.int64)


def argsort(input, dim=-1, descending=False, stable=False):
    """The positions that would sort ``input`` along ``dim`` (``sort(...).indices``)."""
    return sort(input, dim, descending, stable).indices


def topk(input, k, dim=-1, largest=True, sorted=True):
    """``(values, indices)`` of the ``k`` largest (or smallest) elements along ``dim``.

    >>> import minigrad
    >>> minigrad.tensor([1.0, 3.0, 2.0]).topk(2)
    minigrad.return_types.topk(
    values=tensor([3., 2.]),
    indices=tensor([1, 2]))
    """
    axis = _dim(dim, input)
    size = input.shape[axis] if input.ndim else 1
    if not 0 <= int_argument("topk", "k", k, 1) <= size:
        raise RuntimeError(messages.TOPK_OUT_OF_RANGE)
    if input.ndim == 0:
        return TopkResult(input.clone(), Tensor._wrap(np.zeros((), dtype=np.int64)))
    order = _order(input._data, axis, descending=largest)
    indices = np.take(order, np.arange(k), axis=axis)
    values = Sort.apply(input, indices=indices, dim=axis, kind="TopkBackward0")
    return TopkResult(values, Tensor._wrap(indices))


def unflatten(input, dim, sizes):
    """Split one dim into several: ``x.unflatten(1, (2, 3))`` turns shape ``(n, 6)`` into ``(n, 2, 3)``.

    >>> import minigrad
    >>> minigrad.arange(6.0).unflatten(0, (2, 3)).shape
    minigrad.Size([2, 3])
    """
    axis = _dim(dim, input)
    sizes = ints_argument("unflatten", "sizes", sizes, 2)
    known = math.prod([n for n in sizes if n != -1])
    if (-1 not in sizes and known != input.shape[axis]) or (-1 in sizes and (known == 0 or input.shape[axis] % known)):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {axis} "
                           f"({input.shape[axis]}) in the input tensor")
    return view(input, input.shape[:axis] + sizes + input.shape[axis + 1:])


# --- index-valued questions about a tensor: outside the graph ------------------------------------
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values in ascending order (with where each element went, and how often each occurs).

    NB: PyTorch records ``Unique2Backward0`` for an input that requires grad (a node whose
    backward is not implemented); minigrad returns tensors outside the graph.

    >>> import minigrad
    >>> minigrad.unique(minigrad.tensor([3, 1, 3]), return_counts=True)
    (tensor([1, 3]), tensor([1, 2]))
    """
    if dim is None:
        values, inverse, counts = np.unique(input._data, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(input.shape)
    else:
        axis = _dim(dim, input)
        values, inverse, counts = np.unique(input._data, return_inverse=True, return_counts=True, axis=axis)
        inverse = inverse.reshape(-1)
    outs = (Tensor._wrap(values),)
    if return_inverse:
        outs += (Tensor._wrap(inverse.astype(np.int64)),)
    if return_counts:
        outs += (Tensor._wrap(counts.astype(np.int64)),)
    return outs[0] if len(outs) == 1 else outs


def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements: one row per element (or one tensor per dim, ``as_tuple``)."""
    found = np.nonzero(input._data) if input.ndim else np.nonzero(input._data.reshape(1))
    if as_tuple:
        if input.ndim:
            return unbind(nonzero(input), 1)  # (as PyTorch: the columns, views of one index matrix)
        return tuple(Tensor._wrap(i.astype(np.int64)) for i in found)
    return Tensor._wrap(np.stack(found, axis=1).astype(np.int64) if input.ndim else
                        np.zeros((len(found[0]), 0), dtype=np.int64))


def argwhere(input):
    """``nonzero(input)``: one row of indices per nonzero element."""
    return nonzero(input)


def count_nonzero(input, dim=None):
    """How many elements are nonzero (over ``dim``)."""
    axes = _reduction_axes(dim, input) if input.ndim else None  # (an empty dim: every dim, as sum's)
    return Tensor._wrap(np.asarray(np.count_nonzero(input._data, axis=axes), dtype=np.int64))


def bincount(input, weights=None, minlength=0):
    """How often each value 0, 1, 2 ... occurs in a 1-D tensor of non-negative integers."""
    if input.ndim != 1 or input.dtype.kind not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.numel() and input._data.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else weights._data
    counts = np.bincount(input._data, weights=w, minlength=minlength)
    return Tensor._wrap(counts if w is not None else counts.astype(np.int64))



# --- NumPy-style arrangements, built from the ops above (so recorded as PyTorch records them) -------
def movedim(input, source, destination):
    """Move dims ``source`` to positions ``destination``, keeping the others in order (a permute)."""
    given_sources = [source] if isinstance(source, int) else list(source)
    given_targets = [destination] if isinstance(destination, int) else list(destination)
    if len(given_sources) != len(given_targets):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({given_sources} dims) should contain "
                           f"the same number of dims as destination ({given_targets} dims)")
    sources = [_dim(d, input) for d in given_sources]
    targets = [_dim(d, input) for d in given_targets]
    for name, given, dims in (("source", given_sources, sources), ("destination", given_targets, targets)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
    order = [d for d in range(input.ndim) if d not in sources]
    for target, src in sorted(zip(targets, sources)):
        order.insert(target, src)
    return permute(input, order)


moveaxis = movedim


def broadcast_to(input, size):
    """``input.expand(size)``."""
    return expand(input, size)


def atleast_1d(input):
    return input.reshape(1) if input.ndim == 0 else input


def atleast_2d(input):
    return input.reshape(1, -1) if input.ndim < 2 else input


def vstack(tensors):
    """Stack rows: 1-D tensors become rows, then ``cat(dim=0)``."""
    return cat([atleast_2d(t) for t in tensors], 0)


def hstack(tensors):
    """Join side by side: ``cat(dim=1)``, or ``dim=0`` for 1-D tensors."""
    tensors = [atleast_1d(t) for t in tensors]
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def meshgrid(*tensors, indexing="ij"):
    """Grids of coordinates from 1-D tensors: each expanded along the other dims (``indexing='ij'`` or ``'xy'``)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = (tensors[1], tensors[0]) + tuple(tensors[2:])
    shape = tuple(t.numel() for t in tensors)
    grids = [t.reshape([-1 if i == k else 1 for i in range(len(tensors))]).expand(shape)
             for k, t in enumerate(tensors)]
    if swap:  # 'xy': the first two inputs' roles exchanged (rows follow the second input)
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def diff(input, n=1, dim=-1):
    """Differences of neighbours along ``dim``: ``x[1:] - x[:-1]``, ``n`` times."""
    axis = _dim(dim, input)
    for _ in range(n):
        size = input.shape[axis]
        input = narrow(input, axis, 1, size - 1) - narrow(input, axis, 0, size - 1)
    return input


def tril_indices(row, col, offset=0, *, dtype=None):
    """The ``(2, N)`` indices of the lower triangle of a ``row x col`` matrix."""
    rows, cols = np.tril_indices(row, offset, col)
    return Tensor._wrap(np.stack([rows, cols]).astype(np.int64 if dtype is None else dtype))


def triu_indices(row, col, offset=0, *, dtype=None):
    """The ``(2, N)`` indices of the upper triangle of a ``row x col`` matrix."""
    rows, cols = np.triu_indices(row, offset, col)
    return Tensor._wrap(np.stack([rows, cols]).astype(np.int64 if dtype is None else dtype))


# --- writing at indices (out of place; the in-place forms write the result back) --------------------
class Scatter(Node):
    """z = x with z[index[i][j]][j] = src[i][j] (dim 0)        grad_x = grad, 0 where written,  grad_src = gather(grad)"""

    saved_arrays = ("index",)
    saved_params = ("dim",)

    def name(self):
        return "ScatterBackward0"

    def forward(self, x, src, index, dim):
        self.index, self.dim = index, dim
        out = x.copy()
        out[_along_axis(index, dim)] = src[tuple(slice(0, n) for n in index.shape)]
        return out

    def backward(self, grad):
        index = self._array("index")
        return _zero_where_written(grad, index, self.dim), _zero_padded_gather(grad, index, self.dim,
                                                                                self._input_meta[1][0])


class ScatterValue(Node):
    """z = x with value at z[index[i][j]][j] (dim 0)        grad_x = grad, 0 where written"""

    saved_arrays = ("index",)
    saved_params = ("dim",)

    def name(self):
        return "ScatterBackward1"

    def forward(self, x, index, dim, value):
        self.index, self.dim = index, dim
        out = x.copy()
        out[_along_axis(index, dim)] = value
        return out

    def backward(self, grad):
        return _zero_where_written(grad, self._array("index"), self.dim)


def _zero_where_written(grad, index, dim):
    """``grad`` with 0 at the places a scatter wrote over (their old values do not reach the output)."""
    return zeroed_at(grad, _along_axis(index, dim))


def zeroed_at(grad, index):
    """``grad`` with exact zeros at ``grad[index]`` (a select: an inf or nan there is gone too),
    for the places a write went over."""
    written = np.zeros(grad.shape, dtype=bool)
    written[index] = True
    return grad.masked_fill(Tensor._wrap(written), 0)


class ScatterAddTo(Node):
    """z = x with src[i][j] added at z[index[i][j]][j] (dim 0)        grad_x = grad,  grad_src = gather(grad)"""

    may_warn = True

    saved_arrays = ("index",)
    saved_params = ("dim",)

    def name(self):
        return "ScatterAddBackward0"

    def forward(self, x, src, index, dim):
        self.index, self.dim = index, dim
        out = x.copy()
        np.add.at(out, _along_axis(index, dim), src[tuple(slice(0, n) for n in index.shape)])
        return out

    def backward(self, grad):
        return grad, _zero_padded_gather(grad, self._array("index"), self.dim, self._input_meta[1][0])


class IndexAdd(Node):
    """z = x with alpha * source's slices added at index along dim (a repeated index adds twice)
    grad_x = grad,  grad_source = alpha * grad's slices at index (index_select)"""

    may_warn = True

    input_names = ("self", "source")
    saved_arrays = ("index",)
    saved_params = ("dim", "alpha", "source_dim")

    def forward(self, x, source, index, dim, alpha):
        self.index, self.dim, self.alpha, self.source_dim = index, dim, alpha, source.ndim
        out = x.copy()
        np.add.at(out.reshape(out.shape or (1,)), (slice(None),) * dim + (index,),
                  (source if alpha == 1 else source * alpha).reshape(source.shape or (1,)))
        return out

    def backward(self, grad):
        picked = grad.reshape(grad.shape or (1,)).index_select(self.dim, Tensor._wrap(self._array("index")))
        picked = picked.reshape(()) if not self.source_dim else picked
        return grad, (picked if self.alpha == 1 else picked * self.alpha)


def _zero_padded_gather(grad, index, dim, src_shape):
    """gather(grad, dim, index), placed in zeros of src's shape (src may be larger than index)."""
    picked = Gather.apply(grad, index=index, dim=dim)
    if tuple(src_shape) == index.shape:
        return picked
    return IndexAddInto.apply(picked, index=tuple(slice(0, n) for n in index.shape), shape=tuple(src_shape))


def _scatter_checks(op, input, dim, index):
    axis = _dim(dim, input)
    where = _index_array(index, "gather")
    if where.ndim != input.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    size = input.shape[axis]
    bad = where[(where < 0) | (where >= size)]
    if bad.size:
        raise RuntimeError(f"index {int(bad.flat[0])} is out of bounds for dimension {axis} with size {size}")
    return axis, where


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """``input`` with ``src`` (a tensor or a number) written at ``index`` along ``dim``.

    >>> import minigrad
    >>> minigrad.zeros(2, 3).scatter(1, minigrad.tensor([[2], [0]]), 1.0)
    tensor([[0., 0., 1.],
            [1., 0., 0.]])
    """
    if reduce is not None:
        raise NotImplementedError("minigrad's scatter does not take reduce=; use scatter_add")
    axis, where = _scatter_checks("scatter", input, dim, index)
    src = value if src is None else src
    if isinstance(src, Tensor):
        return Scatter.apply(input, src, index=where, dim=axis)
    return ScatterValue.apply(input, index=where, dim=axis, value=src)


def scatter_add(input, dim, index, src):
    """``input`` with ``src`` added at ``index`` along ``dim`` (repeated indices add up)."""
    axis, where = _scatter_checks("scatter_add", input, dim, index)
    return ScatterAddTo.apply(input, src, index=where, dim=axis)


def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source`` added at the positions ``index`` along ``dim``: slice ``i``
    of ``source`` goes to position ``index[i]`` (a position named twice gets both).

    >>> import minigrad
    >>> minigrad.zeros(3).index_add(0, minigrad.tensor([0, 0, 2]), minigrad.tensor([1.0, 2.0, 3.0]))
    tensor([3., 0., 3.])
    """
    if not isinstance(index, Tensor):
        raise TypeError(f"index_add(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    axis = _dim(dim, input)
    where = index._data
    if where.dtype.kind not in "iu":
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{dtypes.SCALAR_TYPE_NAMES[index.dtype]}")
    if where.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {where.ndim} with type: "
                         f"{dtypes.SCALAR_TYPE_NAMES[index.dtype]} and size: {messages.format_shape(index.shape)}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"index_add_(): self ({dtypes.SCALAR_TYPE_NAMES[input.dtype]}) and source "
                           f"({dtypes.SCALAR_TYPE_NAMES[source.dtype]}) must have the same scalar type")
    where = where.reshape(-1)
    source_size = source.shape[axis] if source.ndim else 1
    if where.size != source_size:
        raise RuntimeError(f"index_add_(): Number of indices ({where.size}) should be equal to source.size(dim): "
                           f"({source_size}), for dim: {axis}")
    if input.ndim != source.ndim or any(a != b for d, (a, b) in enumerate(zip(input.shape, source.shape)) if d != axis):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {messages.format_shape(input.shape)} "
                           f"source.shape = {messages.format_shape(source.shape)}")
    size = input.shape[axis] if input.ndim else 1
    bad = where[(where < 0) | (where >= size)]
    if bad.size:
        raise RuntimeError(f"index {int(bad[0])} is out of bounds for dimension {axis} with size {size}")
    if input._data.dtype.kind in "iub":
        alpha = int(alpha)  # (as PyTorch: alpha takes the integer tensor's type)
    return IndexAdd.apply(input, source, index=where, dim=axis, alpha=alpha)


def index_fill(input, dim, index, value):
    """``input`` with ``value`` in the slices at ``index`` along ``dim`` (a masked_fill of those slices)."""
    axis = _dim(dim, input)
    where = _index_array(index, "index_fill").reshape(-1)
    mask = np.zeros(input.shape[axis], dtype=bool)
    mask[where] = True
    mask = Tensor._wrap(mask.reshape([-1 if d == axis else 1 for d in range(input.ndim)]))
    return masked_fill(input, mask, value, _kind="IndexFillBackward0")


def take_along_dim(input, indices, dim=None):
    """``gather`` with broadcasting of the index; without ``dim``, from the flattened tensor."""
    if dim is None:
        return gather(input.reshape(-1), 0, indices.reshape(-1))
    axis = _dim(dim, input)
    shape = list(np.broadcast_shapes(input.shape[:axis] + (1,) + input.shape[axis + 1:],
                                     indices.shape[:axis] + (1,) + indices.shape[axis + 1:]))
    shape_in, shape_index = list(shape), list(shape)
    shape_in[axis], shape_index[axis] = input.shape[axis], indices.shape[axis]
    return gather(input.expand(shape_in), axis, Tensor._wrap(np.broadcast_to(indices._data, shape_index)))
