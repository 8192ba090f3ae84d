"""Containers: ``Sequential`` (a pipeline), ``ModuleList`` and ``ModuleDict`` (registered collections).

A plain Python list or dict of layers is invisible to ``parameters()``; these register
each module as a child, named by its position (``"0"``, ``"1"``, ...) or its key.
"""

import operator
from collections import OrderedDict

from .module import Module, _addindent, _typename


def _index(index, length):
    """``index`` as a position in ``range(length)``, with PyTorch's errors."""
    index = operator.index(index)  # TypeError for a str, as PyTorch
    if not -length <= index < length:
        raise IndexError(f"index {index} is out of range")
    return index % length


def _renumber(modules, children):
    """Replace the children in ``modules`` by ``children``, named "0", "1", ... again."""
    modules.clear()
    for position, module in enumerate(children):
        modules[str(position)] = module


def _delete_and_renumber(modules, index):
    """``del container[index]`` (an int or a slice); as PyTorch, the rest are numbered again from 0."""
    keys = list(modules)
    for key in keys[index] if isinstance(index, slice) else [keys[_index(index, len(keys))]]:
        del modules[key]
    _renumber(modules, list(modules.values()))


class Sequential(Module):
    """Modules run one after another: the output of each is the input of the next.

    Children are named ``"0"``, ``"1"``, ... (or by the keys of an OrderedDict).

    >>> import minigrad
    >>> from minigrad import nn
    >>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    >>> model
    Sequential(
      (0): Linear(in_features=2, out_features=3, bias=True)
      (1): ReLU()
    )
    >>> model(minigrad.ones(1, 2)).shape
    minigrad.Size([1, 3])
    >>> model[-1], len(model)
    (ReLU(), 2)
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return list(self._modules.values())[_index(index, len(self))]

    def __setitem__(self, index, module):
        key = list(self._modules)[_index(index, len(self))]
        self.add_module(key, module)

    def __delitem__(self, index):
        _delete_and_renumber(self._modules, index)

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        return Sequential(*self, *other)

    def append(self, module):
        """Add ``module`` at the end; return self."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        """Put ``module`` before position ``index``; return self."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        modules = list(self._modules.values())
        modules.insert(index, module)
        _renumber(self._modules, modules)
        return self

    def extend(self, sequential):
        """Append every module of ``sequential`` (any iterable of modules); return self."""
        for module in sequential:
            self.append(module)
        return self


class ModuleList(Module):
    """A list of modules whose parameters the parent module sees (a plain list hides them).

    >>> from minigrad import nn
    >>> layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    >>> len(layers), len(list(layers.parameters()))
    (3, 6)
    >>> layers
    ModuleList(
      (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
    )
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[str(_index(index, len(self)))]

    def __setitem__(self, index, module):
        self.add_module(str(_index(index, len(self))), module)

    def __delitem__(self, index):
        _delete_and_renumber(self._modules, index)

    def __add__(self, other):
        return ModuleList([*self, *other])

    def append(self, module):
        """Add ``module`` at the end; return self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        """Append every module of an iterable; return self."""
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        """Put ``module`` before position ``index``."""
        if not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        modules = list(self._modules.values())
        modules.insert(index, module)
        _renumber(self._modules, modules)

    def __repr__(self):
        # As PyTorch: runs of children that print the same are shown once, "(0-2): 3 x Linear(...)".
        child_reprs = [repr(module) for module in self]
        if not child_reprs:
            return self._get_name() + "()"
        lines, start = [], 0
        while start < len(child_reprs):
            end = start
            while end + 1 < len(child_reprs) and child_reprs[end + 1] == child_reprs[start]:
                end += 1
            label = f"({start})" if end == start else f"({start}-{end}): {end - start + 1} x"
            separator = ": " if end == start else " "
            lines.append(label + separator + _addindent(child_reprs[start], 2))
            start = end + 1
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules whose parameters the parent module sees, in insertion order.

    >>> from minigrad import nn
    >>> heads = nn.ModuleDict({"act": nn.ReLU(), "out": nn.Linear(2, 1)})
    >>> list(heads.keys()), heads["act"]
    (['act', 'out'], ReLU())
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def pop(self, key):
        """Remove ``key`` and return its module."""
        module = self[key]
        del self[key]
        return module

    def clear(self):
        self._modules.clear()

    def update(self, modules):
        """Add the ``(name, module)`` pairs of a mapping or an iterable of pairs."""
        pairs = modules.items() if hasattr(modules, "items") else modules
        for key, module in pairs:
            self[key] = module
