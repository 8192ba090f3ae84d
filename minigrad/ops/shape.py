"""Shape ops: the same numbers, rearranged.

Most of them are *views* in PyTorch: the result shares memory with the input.
minigrad keeps that (NumPy views), and gives a view its base's version
counter, so an in-place change through either one is seen by autograd's checks.
Their backward rearranges the gradient the opposite way.
"""

import numpy as np

from .. import messages
from ..function import Node
from ..grad_mode import _state
from ..tensor import Tensor
from .elementwise import clone
from .operands import broadcast_error, normalize_dim


def _as_view_of(result, base):
    """Mark ``result`` as sharing ``base``'s memory, when NumPy made it a view."""
    if np.may_share_memory(result._data, base._data):
        result._base = base._base if base._base is not None else base
        counter = base._shared_version_counter()
        result._version_counter = counter
        result._graph_version = counter.value
        if base._requires_grad and not _state.grad_enabled:
            # As PyTorch: a view made under no_grad still says it requires grad,
            # but it is outside the graph (no gradient edge leads to it).
            result._requires_grad = result._no_grad_view = True
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
        try:
            return x.reshape(shape)
        except ValueError:
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
        return x.swapaxes(dim0, dim1)

    def backward(self, grad):
        return grad.transpose(self.dim0, self.dim1)


class T(Transpose):
    """z = x.t() (a 2-D transpose)        grad_x = grad.t()"""


class Permute(Node):
    """z = x with dims reordered        grad_x = grad with the inverse order"""

    saved_params = ("dims",)

    def forward(self, x, dims):
        self.dims = dims
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
        return x.reshape(x.shape[:dim] + (1,) + x.shape[dim:])  # a view: np.expand_dims, minus its checks

    def backward(self, grad):
        return grad.reshape(self.shape)


class Expand(Node):
    """z = x broadcast to a larger shape        grad_x = grad summed back (sum_to_size)"""

    def forward(self, x, shape):
        self.shape = x.shape
        if shape == x.shape:
            return x.view()  # nothing repeated: a plain, writable view (as PyTorch's)
        return np.broadcast_to(x, shape)

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

    def backward(self, grad):
        index = self._array("index") if self.saved_arrays else self.index
        return IndexAddInto.apply(grad, index=index, shape=self.shape)


class IndexAddInto(Node):
    """z = zeros(shape) with g added at index (the adjoint of indexing)        grad_g = grad[index]"""

    def name(self):
        return "IndexPutBackward0"

    def forward(self, g, index, shape):
        self.index = index
        out = np.zeros(shape, dtype=g.dtype)
        np.add.at(out, index, g)  # add.at: repeated indices add up instead of overwriting
        return out

    def backward(self, grad):
        return getitem(grad, self.index)


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
        return _as_view_of(View.apply(input, shape=shape), input)
    if _reshaped_without_copy(input._data, shape):
        return _as_view_of(View.apply(input, shape=shape, kind="ReshapeAliasBackward0"), input)
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
    return _as_view_of(View.apply(input, shape=shape), input)


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


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims ``start_dim..end_dim`` into one."""
    if input.ndim == 0:
        return reshape(input, 1)
    start, end = start_dim % input.ndim, end_dim % input.ndim
    if start == end:
        return input  # nothing to merge: PyTorch returns the tensor itself, no new node
    shape = input.shape[:start] + (-1,) + input.shape[end + 1:]
    return reshape(input, shape)


def transpose(input, dim0, dim1):
    """Swap two dimensions."""
    ndim = input.ndim
    (d0,), (d1,) = normalize_dim(dim0, ndim), normalize_dim(dim1, ndim)
    if ndim == 0:
        return _as_view_of(View.apply(input, shape=()), input)
    return _as_view_of(Transpose.apply(input, dim0=d0, dim1=d1), input)


swapaxes = transpose


def t(input):
    """Transpose a tensor of at most 2 dims."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    if input.ndim < 2:
        return _as_view_of(View.apply(input, shape=input.shape), input)
    return _as_view_of(T.apply(input, dim0=0, dim1=1), input)


def permute(input, *dims):
    """Reorder the dimensions."""
    dims = tuple(d % max(input.ndim, 1) for d in _sizes(dims))
    if sorted(dims) != list(range(input.ndim)):
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match "
                           "the length of the desired ordering of dimensions i.e. input.dim() = "
                           f"{input.ndim} is not equal to len(dims) = {len(dims)}")
    return _as_view_of(Permute.apply(input, dims=dims), input)


def numpy_T(input):
    """``t.T``: all dimensions reversed (PyTorch records it as a permute)."""
    return permute(input, tuple(range(input.ndim))[::-1])


def squeeze(input, dim=None):
    """Remove size-1 dims (all of them, or those in ``dim``)."""
    dim_was_tuple = dim is not None and not isinstance(dim, int)
    return _as_view_of(Squeeze.apply(input, dim=normalize_dim(dim, input.ndim), dim_was_tuple=dim_was_tuple), input)


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
    return _as_view_of(Unsqueeze.apply(input, dim=dim % rank), input)


def expand(input, *sizes):
    """Broadcast to a larger shape without copying (-1 keeps a dimension)."""
    sizes = _sizes(sizes)
    lead = len(sizes) - input.ndim
    if lead < 0:
        raise RuntimeError(
            f"expand({messages.legacy_type(input)}, size={list(sizes)}): the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({input.ndim})")
    shape = tuple(input.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    try:
        return _as_view_of(Expand.apply(input, shape=shape), input)
    except ValueError:
        raise RuntimeError(
            f"The expanded size of the tensor ({shape[-1]}) must match the existing size ({input.shape[-1]}) "
            f"at non-singleton dimension {len(shape) - 1}.  Target sizes: {list(sizes)}.  "
            f"Tensor sizes: {list(input.shape)}") from None


def expand_as(input, other):
    return expand(input, other.shape)


def cat(tensors, dim=0):
    """Join tensors along an existing dim."""
    from .operands import as_tensor

    tensors = [as_tensor(t) for t in tensors]
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    (axis,) = normalize_dim(dim, tensors[0].ndim)
    return Cat.apply(*tensors, dim=axis)


concat = concatenate = cat


def stack(tensors, dim=0):
    """Join tensors along a new dim."""
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    rank = tensors[0].ndim + 1
    return Stack.apply(*tensors, dim=dim % rank)


def _index_kind(index, shape):
    """PyTorch's node name for an indexing expression, and whether it is a view.

    PyTorch applies a basic index one part at a time, left to right (an int
    selects, a slice slices, None unsqueezes), skipping slices that keep a whole
    dim; the result's node is the last step taken (none at all: an alias).
    """
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, (np.ndarray, list)) for p in parts):
        return "IndexBackward0", False
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


def _to_numpy_index(index):
    if isinstance(index, Tensor):
        return index._data
    if isinstance(index, tuple):
        return tuple(_to_numpy_index(i) for i in index)
    if isinstance(index, list):
        return np.asarray([i._data if isinstance(i, Tensor) else i for i in index])
    return index


def _index(input, index, kind):
    try:
        return Index.apply(input, index=index, kind=kind)
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None


def getitem(input, index):
    """``input[index]``: ints, slices, None, ..., integer arrays and boolean masks."""
    if type(index) is slice:
        # The most common index, kept cheap: what the general path below makes of a lone slice.
        return _as_view_of(_index(input, (index, Ellipsis), "SliceBackward0"), input)
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
