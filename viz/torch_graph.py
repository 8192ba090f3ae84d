"""Real PyTorch graphs, seen through the few attributes ``viz.graph.trace`` reads.

``viz.draw(t)`` of a ``torch.Tensor`` draws the same picture as for a minigrad
tensor: ``trace`` walks PyTorch's own graph through these small adapters,
which read PyTorch's public autograd surface:

* ``grad_fn.name()`` and ``next_functions`` (leaves are ``AccumulateGrad``
  nodes with ``.variable``); ``sequence_nr`` for the walk's numbering;
* saved tensors as ``_saved_<name>``: a tensor, a number, or None when the
  node did not need to keep it (PyTorch saves an input only if a gradient
  that uses it is wanted, as minigrad does). Reading one after a
  non-retaining backward raises "Trying to backward through the graph a
  second time": the picture marks it freed. Reading one changed in place
  raises "... modified by an inplace operation ... is at version 1; expected
  version 0": the picture marks it modified, with both versions;
* a tensor's ``shape``, ``dtype``, ``_version``, ``.grad`` and values.

PyTorch stays optional: nothing here imports it. A tensor is PyTorch's only
if ``torch`` was already imported (it must have been, to make the tensor).

>>> import sys
>>> is_torch_tensor(1.0)
False
"""

import re
import sys

__all__ = ["is_torch_tensor", "is_torch_module", "TorchView"]

_FREED = "backward through the graph a second time"
_VERSIONS = re.compile(r"is at version (\d+); expected version (\d+)")


def _torch():
    return sys.modules.get("torch")


def is_torch_tensor(obj):
    """Whether ``obj`` is a ``torch.Tensor`` (False, without importing torch, when torch is not loaded)."""
    torch = _torch()
    return torch is not None and isinstance(obj, torch.Tensor)


def is_torch_module(obj):
    """Whether ``obj`` is a ``torch.nn.Module`` (False when torch is not loaded)."""
    torch = _torch()
    return torch is not None and isinstance(obj, torch.nn.Module)


class TorchView:
    """One adapter per PyTorch object, so the same node is always the same object to ``trace``."""

    def __init__(self):
        self._adapters = {}  # id(torch object) -> adapter; the adapter keeps the object alive

    def tensor(self, tensor):
        if tensor is None:
            return None
        return self._adapt(tensor, TorchTensor)

    def node(self, fn):
        if fn is None:
            return None
        kind = TorchAccumulateGrad if hasattr(fn, "variable") else TorchNode
        return self._adapt(fn, kind)

    def _adapt(self, obj, kind):
        adapter = self._adapters.get(id(obj))
        if adapter is None:
            adapter = self._adapters[id(obj)] = kind(obj, self)
        return adapter


class TorchTensor:
    """A ``torch.Tensor`` as ``trace`` reads a minigrad tensor."""

    def __init__(self, tensor, view):
        self.wrapped, self._view = tensor, view

    @property
    def grad_fn(self):
        return self._view.node(self.wrapped.grad_fn)

    @property
    def shape(self):
        return tuple(self.wrapped.shape)

    @property
    def dtype(self):
        return self.wrapped.dtype

    @property
    def _version(self):
        return self.wrapped._version

    @property
    def _data(self):
        return _numpy(self.wrapped)

    @property
    def _grad(self):
        tensor = self.wrapped  # reading a non-leaf's .grad warns in PyTorch: ask only where it can be
        return self._view.tensor(tensor.grad) if tensor.is_leaf or tensor.retains_grad else None

    @property
    def output_nr(self):
        return self.wrapped.output_nr

    @property
    def is_parameter(self):
        return isinstance(self.wrapped, _torch().nn.Parameter)


class TorchNode:
    """A PyTorch ``grad_fn`` node as ``trace`` reads a minigrad ``Node``."""

    is_accumulator = False

    def __init__(self, fn, view):
        self.wrapped, self._view = fn, view
        self._next = None

    def name(self):
        return self.wrapped.name()

    @property
    def sequence_nr(self):
        return self.wrapped._sequence_nr()

    @property
    def next_functions(self):
        if self._next is None:
            self._next = tuple((self._view.node(child), nr) for child, nr in self.wrapped.next_functions)
        return self._next

    def saved_boxes(self):
        """``[(name, state, tensor or None, detail)]`` for each tensor the node saved.

        state is ``saved``, ``freed`` or ``modified``; detail is
        ``(saved version, current version)`` for a modified one. Numbers and
        sizes the node keeps (``_saved_alpha``, ``_saved_self_sym_sizes``) are
        not saved tensors and are left out, as minigrad's pictures leave them.
        Order: ``self`` first, then by name (PyTorch's attribute list is alphabetical).
        """
        boxes = []
        names = [a for a in dir(self.wrapped) if a.startswith("_saved_")]
        for attribute in sorted(names, key=lambda a: (a != "_saved_self", a)):
            try:
                value = getattr(self.wrapped, attribute)
            except RuntimeError as error:
                message = str(error)
                if _FREED in message:
                    boxes.append((attribute, "freed", None, None))
                elif (versions := _VERSIONS.search(message)) is not None:
                    # The raw SavedTensor still hands out the (changed) values, without the check.
                    raw = getattr(self.wrapped, "_raw" + attribute, None)
                    current = getattr(raw, "data", None)
                    boxes.append((attribute, "modified", self._view.tensor(current) if is_torch_tensor(current)
                                  else None, (int(versions[2]), int(versions[1]))))
                else:
                    raise
                continue
            if is_torch_tensor(value):  # None: not kept, no wanted gradient needs it
                boxes.append((attribute, "saved", self._view.tensor(value), None))
            elif isinstance(value, (list, tuple)) and value and all(is_torch_tensor(v) for v in value):
                boxes.append((attribute, "saved", self._view.tensor(value[0]), None))  # e.g. indices
        return boxes


class TorchAccumulateGrad(TorchNode):
    """PyTorch's ``AccumulateGrad``: the sink that writes a leaf's ``.grad``."""

    is_accumulator = True

    @property
    def variable(self):
        return self._view.tensor(self.wrapped.variable)

    @property
    def next_functions(self):
        return ()


def _numpy(tensor):
    return tensor.detach().cpu().resolve_conj().resolve_neg().numpy()
