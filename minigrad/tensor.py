"""The Tensor: a NumPy array plus what autograd needs to know about it.

A tensor is either a *leaf* (made by you: ``grad_fn is None``) or the result of
an op recorded in the graph (``grad_fn`` is the node that made it). Leaves that
require grad collect gradients in ``.grad``; every other tensor only passes
gradients through. Each method here is a one-line delegation to ``ops``, where
the calculus lives.
"""

import warnings
import weakref

import numpy as np

from . import devices, dtypes, messages
from .fast_path import note_hooks, reserve_instance_attributes
from .graph import RemovableHandle, accumulator_edge
from .grad_mode import _state
from .size import shape_of


class _VersionCounter:
    """How many times a tensor's data was changed in place; shared by its views."""

    __slots__ = ("value",)

    def __init__(self):
        self.value = 0


#: The live tensors that called ``retain_grad()``, by id (a Tensor's ``==`` is elementwise,
#: so not a WeakSet). An in-place op gives such a tensor a new ``grad_fn``; the engine then
#: moves the retain_grad to it, as PyTorch moves its retains_grad hook.
_retaining = weakref.WeakValueDictionary()


class Tensor:
    """An n-dimensional array that can record the operations applied to it.

    Create tensors with ``minigrad.tensor(...)`` or the factories (``zeros``,
    ``randn``, ...), not with this class.
    """

    __module__ = "minigrad"  # type(t) shows <class 'minigrad.Tensor'>, as PyTorch's shows torch.Tensor

    # Defaults live on the class so creating a tensor only sets what differs:
    # op results are made by the thousand, and speed is a feature.
    _requires_grad = False
    _grad_fn = None
    _grad = None
    _version_counter = None
    _meta = None  # (shape, dtype) of _data, made once as nodes record it (fast_path, 13); None when _data is swapped
    _graph_version = 0
    _base = None
    output_nr = 0
    _hooks = None
    _post_accumulate_hooks = None
    _accumulator_ref = None
    _retains_grad = False
    _no_grad_view = False  # a view made under no_grad: requires grad, yet no gradient reaches it
    __array_ufunc__ = None  # numpy scalars and arrays defer to our reflected operators
    __hash__ = object.__hash__

    def __new__(cls, *args, **kwargs):
        """``minigrad.Tensor([1, 2])``, ``Tensor(2, 3)``: PyTorch's legacy constructor (see legacy.py)."""
        if cls is not Tensor:
            return object.__new__(cls)  # subclasses (nn.Parameter) construct themselves
        from .legacy import new

        return new(None, args, kwargs)

    @staticmethod
    def _wrap(array):
        """A new leaf around ``array`` (not copied); the fast path every op uses."""
        t = object.__new__(Tensor)
        t._data = array
        return t

    # --- what a tensor is -------------------------------------------------------
    @property
    def shape(self):
        """The size of each dimension, a ``minigrad.Size`` (a tuple)."""
        return shape_of(self._data)

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def dtype(self):
        """The element type, e.g. ``minigrad.float32`` (a name over the NumPy array's dtype)."""
        return dtypes.BY_NUMPY[self._data.dtype]

    def size(self, dim=None):
        """The shape, or the length of one dimension."""
        if dim is None:
            return shape_of(self._data)
        return self._data.shape[ops.operands.normalize_dim(dim, self._data.ndim)[0]]

    def dim(self):
        return self._data.ndim

    def element_size(self):
        """Bytes per element (4 for float32)."""
        return self._data.itemsize

    @property
    def itemsize(self):
        """Bytes per element, as ``element_size()``."""
        return self._data.itemsize

    @property
    def nbytes(self):
        """Bytes of all the elements (``numel() * element_size()``)."""
        return self._data.nbytes

    def stride(self, dim=None):
        """Elements to step over in memory to move by one along each dim (``(3, 1)`` for a new 2x3
        tensor; 0 along an expanded dim): NumPy's byte strides, counted in elements.

        >>> import minigrad
        >>> minigrad.zeros(2, 3).t().stride()
        (1, 3)
        """
        if self._data.size:
            strides = tuple(s // self._data.itemsize for s in self._data.strides)
        else:  # (NumPy gives an empty array zero strides; PyTorch a new tensor's, a size 0 counted as 1)
            strides, step = [], 1
            for size in reversed(self._data.shape):
                strides.insert(0, step)
                step *= max(size, 1)
            strides = tuple(strides)
        if dim is None:
            return strides
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise TypeError(f"stride(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        if not strides:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        rank = len(strides)
        if not -rank <= dim < rank:
            raise IndexError(messages.DIM_OUT_OF_RANGE.format(low=-rank, high=rank - 1, dim=dim))
        return strides[dim]

    def type(self, dtype=None, non_blocking=False):
        """The legacy type name (``'minigrad.FloatTensor'``), or the tensor converted to ``dtype``.

        >>> import minigrad
        >>> minigrad.tensor([1, 2]).type()
        'minigrad.LongTensor'
        """
        from .legacy import type_name, type_named

        if dtype is None:
            return type_name(self)
        return self.to(type_named(dtype))

    # --- new tensors like this one, and comparing (creation.py, compare.py) ---------------
    def new(self, *args, **kwargs):
        """The legacy ``x.new(2, 3)`` / ``x.new(data)``: ``Tensor(...)`` in this tensor's dtype."""
        from .legacy import new

        return new(self.dtype, args, kwargs)

    def new_tensor(self, data, **kwargs): return creation.new_tensor(self, data, **kwargs)
    def new_zeros(self, *size, **kwargs): return creation.new_zeros(self, *size, **kwargs)
    def new_ones(self, *size, **kwargs): return creation.new_ones(self, *size, **kwargs)
    def new_empty(self, *size, **kwargs): return creation.new_empty(self, *size, **kwargs)
    def new_full(self, size, fill_value, **kwargs): return creation.new_full(self, size, fill_value, **kwargs)
    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return compare.allclose(self, other, rtol, atol, equal_nan)
    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return compare.isclose(self, other, rtol, atol, equal_nan)
    def equal(self, other): return compare.equal(self, other)

    # --- where it lives: always the CPU (minigrad computes with NumPy) ----------------
    device = devices.CPU
    is_cuda = False
    is_cpu = True

    def get_device(self):
        return -1  # PyTorch's answer for a CPU tensor

    def cpu(self, memory_format=None):
        """The tensor itself: it already lives on the CPU."""
        devices.check_options(memory_format=memory_format)
        return self

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """PyTorch's error on a machine without a GPU: minigrad has none."""
        raise AssertionError(messages.NO_CUDA)

    def numel(self):
        return self._data.size

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError(messages.LEN_0D)
        return self._data.shape[0]

    @property
    def is_leaf(self):
        """True for tensors you made; False for results of recorded ops."""
        return self.grad_fn is None

    @property
    def _version(self):
        counter = self._existing_version_counter()
        return 0 if counter is None else counter.value

    def _existing_version_counter(self):
        """This tensor's version counter, None if none was made yet. An op's output may have one
        made through another Tensor of it (a peek at ``_saved_result``, then changed): it takes
        that one here, so that both read the same version."""
        counter = self._version_counter
        if counter is None:
            node = self._grad_fn
            if node is not None and node._output_counter is not None and not self.output_nr:
                counter = self._version_counter = node._output_counter
        return counter

    def _shared_version_counter(self):
        """This tensor's version counter, made the first time it is needed (an in-place change, a
        view, a detach). An op's output saved for its node's backward shares it with that saved
        entry (``Node._output_version_counter``), so a later change is still caught."""
        counter = self._version_counter
        if counter is None:
            node = self._grad_fn
            if node is not None and self.output_nr == 0:
                counter = node._output_version_counter()
            if counter is None:
                counter = _VersionCounter()
            self._version_counter = counter
        return counter

    # --- requires_grad and .grad ------------------------------------------------
    @property
    def requires_grad(self):
        if self._base is not None:
            self._refresh_view()  # its base may have come to require grad through an in-place op
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self.grad_fn is not None:
            raise RuntimeError(messages.NON_LEAF_REQUIRES_GRAD if value else messages.NON_LEAF_REQUIRES_GRAD_FALSE)
        if value and not dtypes.is_floating(self.dtype):
            raise RuntimeError(messages.NOT_FLOATING_REQUIRES_GRAD_ATTRIBUTE)
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad=True):
        """Set ``requires_grad`` in place and return the tensor."""
        if self.grad_fn is not None and not requires_grad:
            raise RuntimeError(messages.NON_LEAF_REQUIRES_GRAD_FALSE)
        if requires_grad and not dtypes.is_floating(self.dtype):
            raise RuntimeError(messages.NOT_FLOATING_REQUIRES_GRAD_METHOD)
        if self.grad_fn is None:
            self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad(self):
        """The accumulated gradient (leaves, and tensors that ``retain_grad()``), else None."""
        if self._grad is None and self.grad_fn is not None and not self._retains_grad:  # (the cheap test first)
            warnings.warn(messages.NON_LEAF_GRAD_ACCESS, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                kind = type(value)
                name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
                raise TypeError(messages.GRAD_NOT_TENSOR.format(type=name))
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(messages.GRAD_WRONG_DTYPE.format(
                    got=dtypes.CPP_TYPE_NAMES.get(value.dtype, value.dtype),
                    expected=dtypes.SCALAR_TYPE_NAMES.get(self.dtype, self.dtype)))
            if value._data.shape != self._data.shape:
                raise RuntimeError(messages.GRAD_WRONG_SIZE.format(
                    got=messages.format_shape(value.shape), expected=messages.format_shape(self.shape)))
        self._grad = value

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep ``.grad`` on this non-leaf tensor after backward (no-op on leaves)."""
        if not self._requires_grad:
            raise RuntimeError(messages.RETAIN_GRAD_NO_REQUIRES_GRAD)
        if self.grad_fn is None or self._retains_grad:
            return
        node = self.grad_fn
        if node._retain_grad is None:
            node._retain_grad = {}
            note_hooks()
        node._retain_grad[self.output_nr] = weakref.ref(self)
        self._retains_grad = True
        _retaining[id(self)] = self  # so its .grad can follow a later in-place op (engine.py)

    # --- hooks --------------------------------------------------------------------
    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed.

        The hook may return a new gradient to use instead. Returns a handle
        whose ``remove()`` unregisters it.

        >>> import minigrad
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> h = x.register_hook(lambda g: g * 10)
        >>> (x * x).sum().backward()
        >>> x.grad
        tensor([20., 40.])
        """
        if not self._requires_grad:
            raise RuntimeError(messages.HOOK_NO_REQUIRES_GRAD)
        if self.grad_fn is not None:
            return self.grad_fn._register_tensor_pre_hook(self.output_nr, hook)
        if self._hooks is None:
            self._hooks = []
            note_hooks()
        self._hooks.append(hook)
        return RemovableHandle(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` on a leaf after its ``.grad`` has been updated."""
        if not self._requires_grad:
            raise RuntimeError(messages.HOOK_NO_REQUIRES_GRAD)
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = []
            note_hooks()
        self._post_accumulate_hooks.append(hook)
        return RemovableHandle(self._post_accumulate_hooks, hook)

    # --- the graph ------------------------------------------------------------------
    def _gradient_edge(self):
        """Where a gradient for this tensor goes: ``(node, output_nr)``, as PyTorch's Edge."""
        if self._base is not None:
            self._refresh_view(reading_graph=True)
        node = self._grad_fn
        if node is not None:
            return (node, self.output_nr)
        if not self._requires_grad or self._no_grad_view:
            return (None, 0)  # NB: PyTorch's no_grad views also send gradients nowhere
        return accumulator_edge(self)

    def _become_view_of(self, base, recorded=False):
        """Mark this new tensor as a view of ``base``'s memory: the same base tensor and the
        same version counter, so an in-place change through either one is seen by both.
        ``recorded``: the view's op recorded a node (so grad mode is on: not read again)."""
        self._base = base._base if base._base is not None else base
        counter = base._shared_version_counter()
        self._version_counter = counter
        self._graph_version = counter.value
        if not recorded and base._requires_grad and not _state.grad_enabled:
            # As PyTorch: a view made under no_grad still says it requires grad,
            # but it is outside the graph (no gradient edge leads to it).
            self._requires_grad = self._no_grad_view = True

    def _refresh_view(self, reading_graph=False):
        """A view whose memory changed in place through another tensor gets a new grad_fn.

        Its old ``grad_fn`` describes values it no longer has. As PyTorch does, the view is
        re-read from its base's current graph: ``AsStridedBackward0`` (see ops/view_inplace.py).
        Done when the view is next used or its ``grad_fn`` is read; a view still up to date
        is left alone.

        A view made under no_grad has no graph to re-read: once its memory changed, its
        ``grad_fn`` cannot be told, and reading it (``reading_graph``: its ``grad_fn``, or an
        op recording it) is PyTorch's error, whatever mode the change was made in.
        """
        if self._version_counter.value != self._graph_version:
            if self._no_grad_view:
                if reading_graph:
                    raise RuntimeError(messages.NO_GRAD_VIEW_CHANGED)
                return
            from .ops.view_inplace import regenerate_view

            regenerate_view(self)

    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf); its backward continues the chain rule."""
        if self._base is not None:
            self._refresh_view(reading_graph=True)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node):
        if self._grad_fn is not None:
            self._shared_version_counter()  # (while the node that may have saved this tensor is known)
        self._grad_fn = node

    def _grad_accumulator(self):
        """The leaf's AccumulateGrad node, shared by every graph that uses the leaf."""
        return accumulator_edge(self)[0]

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None, **kwargs):
        """Compute the gradient of this tensor with respect to the graph's leaves.

        Args:
            gradient: d(something)/d(self), same shape as self; may be omitted
                for a single-element tensor (it is then 1).
            retain_graph: keep saved tensors for another backward; defaults
                to ``create_graph``.
            create_graph: record the backward pass itself, for higher-order derivatives.
            inputs: accumulate only into these tensors' ``.grad``.

        >>> import minigrad
        >>> x = minigrad.tensor(3.0, requires_grad=True)
        >>> (x * x).backward()
        >>> x.grad
        tensor(6.)
        """
        # (minigrad.autograd imports this module, so its backward is imported here, at the first
        # call only: an import statement run at every call touches all of Python's import
        # machinery, which on a learner's small step costs more than the rest of this method)
        global _autograd_backward
        if _autograd_backward is None:
            from .autograd import backward as _autograd_backward
        _autograd_backward(self, gradient, retain_graph, create_graph, inputs=inputs, **kwargs)

    # --- leaving the graph -------------------------------------------------------------
    def detach(self):
        """A new tensor sharing this one's data (and version counter), outside the graph."""
        t = Tensor._wrap(self._data)
        t._version_counter = self._shared_version_counter()
        return t

    def detach_(self):
        """Detach this tensor from the graph in place, making it a leaf."""
        if self._base is not None and self._base._requires_grad:
            raise RuntimeError(messages.DETACH_VIEW_INPLACE)
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self):
        """The same memory as a detached tensor that does *not* share the version counter.

        NB: like PyTorch's ``.data``, changes made through it are invisible to
        autograd's in-place checks; prefer ``detach()`` or ``no_grad()``.
        """
        return Tensor._wrap(self._data)

    @data.setter
    def data(self, value):
        self._data = value._data if isinstance(value, Tensor) else np.asarray(value)
        self._meta = None

    def numpy(self):
        """The underlying NumPy array (shared, not copied).

        As in PyTorch, a tensor that requires grad must be detached first, except under
        ``no_grad()``, where nothing is being recorded anyway.
        """
        if self._requires_grad and _state.grad_enabled:
            raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
        return self._data

    def data_ptr(self):
        """The address of the first element in memory (tensors that share it are views of each other)."""
        return self._data.__array_interface__["data"][0]

    def __getstate__(self):
        """What ``pickle`` and ``copy.copy`` keep of a tensor: all but its hooks, as in PyTorch
        (which warns for each tensor hook it leaves behind). (So no tensor comes back with a
        hook the plain backward loop would not know of: fast_path, 19.)"""
        state = dict(vars(self))
        for hook in state.pop("_hooks", None) or ():
            warnings.warn(messages.HOOK_NOT_SERIALIZED.format(hook=hook), UserWarning, stacklevel=2)
        state.pop("_post_accumulate_hooks", None)
        return state

    def __deepcopy__(self, memo):
        """A new leaf with copies of the data and ``.grad`` (PyTorch deep-copies leaves only)."""
        if self.grad_fn is not None:
            raise RuntimeError(messages.DEEPCOPY_NON_LEAF)
        if id(self) in memo:
            return memo[id(self)]
        new = Tensor._wrap(self._data.copy())
        new._requires_grad = self._requires_grad
        memo[id(self)] = new
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        return new

    def __array__(self, dtype=None, copy=None):
        return self._data if dtype is None else self._data.astype(dtype)

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(messages.ITEM_NOT_ONE_ELEMENT.format(numel=self._data.size))
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def __float__(self):
        if self._requires_grad:
            messages.warn_once("FLOAT_OF_REQUIRES_GRAD", stacklevel=2)
        if self._data.size != 1:
            raise ValueError(messages.ONLY_ONE_ELEMENT)
        return float(self._data.item())

    def __int__(self):
        if self._data.size != 1:
            raise ValueError(messages.ONLY_ONE_ELEMENT)
        return int(self._data.item())

    def __index__(self):
        if self._data.ndim or self._data.dtype.kind not in "iub":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data)

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError(messages.AMBIGUOUS_BOOL if self._data.size else messages.AMBIGUOUS_BOOL_EMPTY)
        return bool(self._data.item())

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError(messages.ITER_0D)
        return (self[i] for i in range(self._data.shape[0]))

    def __format__(self, spec):
        # As PyTorch: a one-number tensor formats as that number (f"{loss:.3f}").
        if self._data.ndim == 0:
            return self._data.item().__format__(spec)
        return object.__format__(self, spec) if spec else repr(self)

    def __repr__(self):
        from .printing import tensor_repr

        return tensor_repr(self)

    # --- operators: one line each; the calculus lives in minigrad/ops -------------------
    # Anything but a tensor or a number gives NotImplemented, so Python raises its own
    # TypeError ("unsupported operand type(s) for +: 'Tensor' and 'NoneType'"), as for PyTorch.
    # In __radd__ and __rmul__ the tensor stays the first operand, as in PyTorch.
    def __add__(self, other): return ops.add(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __radd__(self, other): return ops.add(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __sub__(self, other): return ops.sub(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rsub__(self, other): return ops.sub(other, self) if isinstance(other, _OPERANDS) else NotImplemented
    def __mul__(self, other): return ops.mul(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rmul__(self, other): return ops.mul(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __truediv__(self, other): return ops.div(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rtruediv__(self, other): return ops.div(other, self) if isinstance(other, _OPERANDS) else NotImplemented
    def __floordiv__(self, other): return ops.floor_divide(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rfloordiv__(self, other): return ops.floor_divide(other, self) if isinstance(other, _OPERANDS) else NotImplemented
    def __mod__(self, other): return ops.remainder(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rmod__(self, other): return ops.remainder(other, self) if isinstance(other, _OPERANDS) else NotImplemented
    def __pow__(self, other): return ops.pow(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rpow__(self, other): return ops.pow(other, self) if isinstance(other, _OPERANDS) else NotImplemented
    def __matmul__(self, other): return ops.matmul(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rmatmul__(self, other): return ops.matmul(other, self) if isinstance(other, _OPERANDS) else NotImplemented
    def __neg__(self): return ops.neg(self)
    def __pos__(self): return self
    def __abs__(self): return ops.abs(self)
    def __invert__(self): return ops.bitwise_not(self)
    def __and__(self, other): return ops.bitwise_and(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rand__(self, other): return ops.bitwise_and(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __or__(self, other): return ops.bitwise_or(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __ror__(self, other): return ops.bitwise_or(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __xor__(self, other): return ops.bitwise_xor(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __eq__(self, other): return ops.eq(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __ne__(self, other): return ops.ne(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __lt__(self, other): return ops.lt(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __le__(self, other): return ops.le(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __gt__(self, other): return ops.gt(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __ge__(self, other): return ops.ge(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __getitem__(self, index): return ops.getitem(self, index)
    def __setitem__(self, index, value): ops.setitem_(self, index, value)
    def __iadd__(self, other): return ops.add_(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __isub__(self, other): return ops.sub_(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __imul__(self, other): return ops.mul_(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __itruediv__(self, other): return ops.div_(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    @property
    def T(self):
        return ops.numpy_T(self)

    @property
    def mT(self):
        return ops.matrix_T(self)


# (fast_path, 17: what an op's result, a view and a leaf set, in CPython's shared table)
reserve_instance_attributes(Tensor, ("_data", "_requires_grad", "_grad_fn", "_meta", "_version_counter", "_base",
                                     "_grad", "_accumulator_ref", "_graph_version", "output_nr"))

from . import ops  # noqa: E402  (ops needs Tensor defined first)
from .ops.operands import OPERAND_TYPES as _OPERANDS  # noqa: E402

# Methods that are the function of the same name in ``ops`` (``t.exp()`` is ``ops.exp(t)``).
for _name in ops.TENSOR_METHODS:
    setattr(Tensor, _name, getattr(ops, _name))
del _name

from . import compare, creation  # noqa: E402  (both make tensors; read at call time)

_autograd_backward = None  # (minigrad.autograd.backward, once Tensor.backward has run)
