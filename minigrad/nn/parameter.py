"""``Parameter``: a tensor that a Module registers as something to train.

A Parameter is a leaf that requires grad. Assigning one to a Module attribute
(``self.weight = Parameter(...)``) is what makes it show up in
``module.parameters()``, and so in the optimizer. Ops on a Parameter give
plain Tensors, as in PyTorch.
"""

from .. import dtypes, messages
from ..creation import empty
from ..tensor import Tensor


class Parameter(Tensor):
    """A Tensor that is a module parameter: a leaf, requiring grad by default.

    Args:
        data: the tensor whose memory (and version counter) the parameter shares;
            an empty tensor if None.
        requires_grad: whether the parameter collects gradients (default True).

    Raises:
        RuntimeError: if ``requires_grad`` and ``data`` is not floating point.

    >>> import minigrad
    >>> minigrad.nn.Parameter(minigrad.tensor([1.0, 2.0]))
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    """

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        if requires_grad and not dtypes.is_floating(data.dtype):
            raise RuntimeError(messages.NOT_FLOATING_REQUIRES_GRAD_FACTORY)
        # Same memory and version counter as `data`, like PyTorch's
        # `data.detach().requires_grad_()`, but of class Parameter.
        self._data = data._data
        self._version_counter = data._shared_version_counter()
        self._requires_grad = bool(requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        # As PyTorch's Parameter: a fresh leaf over a copy of the data; hooks and .grad stay behind.
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(Tensor._wrap(self._data.copy()), self.requires_grad)
        memo[id(self)] = result
        return result
