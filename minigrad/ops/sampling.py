"""Random fills (``uniform_``, ``normal_``, ``random_``, ``bernoulli_``, ``exponential_``, ``cauchy_``,
``log_normal_``, ``geometric_``) and draws from a tensor of probabilities (``bernoulli``, ``multinomial``).

The fills overwrite a tensor with fresh numbers drawn as PyTorch draws them (``minigrad/random.py``),
in the order of the tensor's memory, and record a node whose gradient is zero: the old values no
longer matter. This is how ``nn.init`` initialises weights and ``dropout`` draws its mask.
"""

import numpy as np

from .. import dtypes, messages, random
from ..graph import Node
from ..tensor import Tensor
from .inplace import _check_allowed, _write
from .operands import zero_gradient


class Refill(Node):
    """z = new random numbers        grad_x = 0 (the old values no longer matter)"""

    def name(self):
        return self.node_name  # PyTorch names one node per distribution (UniformBackward0, ...)

    def forward(self, x, values, node_name):
        self.node_name = node_name
        return values

    def backward(self, grad):
        return zero_gradient(grad)


_NOT_GIVEN = object()  # random_(5) means to=5, random_(5, None) from=5 up to the dtype's top


def _refill(tensor, node_name, draw):
    """Steps shared by every fill: check, draw ``tensor.numel()`` numbers, write them in memory order."""
    _check_allowed(tensor)
    values = draw(tensor.numel())
    out = np.empty_like(tensor._data)
    random.fill_in_memory_order(out, values)
    return _write(tensor, Refill.apply(tensor, values=out, node_name=node_name))


def _type_name(tensor):
    return dtypes.SCALAR_TYPE_NAMES.get(dtypes.of(tensor.dtype), str(tensor.dtype))


def _require_floating(tensor, kernel):
    if not dtypes.is_floating(tensor.dtype):
        raise NotImplementedError(messages.NOT_IMPLEMENTED_FOR_DTYPE.format(kernel=kernel, dtype=_type_name(tensor)))


def uniform_(input, from_=0.0, to=1.0, *, generator=None):
    """Fill with U[from, to), in place: PyTorch's numbers for the same seed.

    >>> import minigrad
    >>> minigrad.empty(3).uniform_(-1, 1, generator=minigrad.Generator().manual_seed(0))
    tensor([-0.0075,  0.5364, -0.8230])
    """
    _require_floating(input, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(messages.UNIFORM_BOUNDS.format(low=from_, high=to))
    generator = random._or_default(generator)
    return _refill(input, "UniformBackward0", lambda n: random.uniform(generator, n, input.dtype, from_, to))


def normal_(input, mean=0.0, std=1.0, *, generator=None):
    """Fill with N(mean, std**2), in place: PyTorch's numbers for the same seed.

    >>> import minigrad
    >>> minigrad.empty(2).normal_(0, 0.02, generator=minigrad.Generator().manual_seed(0))
    tensor([ 0.0308, -0.0059])
    """
    _require_floating(input, "normal_kernel_cpu")
    if std < 0:
        raise RuntimeError(messages.NORMAL_STD.format(std=std))
    generator = random._or_default(generator)
    contiguous = input._data.flags.c_contiguous  # PyTorch's 16-at-a-time path needs contiguous memory
    return _refill(input, "NormalBackward0",
                   lambda n: random.normal(generator, n, input.dtype, mean, std, contiguous))


def random_(input, from_=None, to=_NOT_GIVEN, *, generator=None, **kwargs):
    """Fill with random integers, in place: ``random_(from, to)`` in [from, to), ``random_(to)`` in
    [0, to), ``random_()`` in [0, 2**digits] for floats and [0, max] for integer dtypes, and
    ``random_(from, None)`` from ``from`` up to that same top.

    >>> import minigrad
    >>> minigrad.zeros(4).random_(0, 10, generator=minigrad.Generator().manual_seed(0))
    tensor([4., 9., 3., 0.])
    """
    from_given_by_name = "from" in kwargs
    from_ = kwargs.pop("from", from_)
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    generator = random._or_default(generator)
    dtype = dtypes.of(np.dtype(input.dtype))
    if from_ is None and to is _NOT_GIVEN:
        return _refill(input, "RandomBackward0", lambda n: random.full_range_integers(generator, n, dtype))
    if to is _NOT_GIVEN:  # random_(to), unless from= was named
        from_, to = (from_, None) if from_given_by_name else (0, from_)
    if to is None and from_ == -(1 << 63) and dtype == dtypes.int64:  # every int64
        return _refill(input, "RandomBackward0", lambda n: random.full_64_bit_integers(generator, n))
    if to is None:  # random_(from, None): up to the largest value the dtype holds exactly
        to = random.largest_random_integer(dtype) + 1
    random.check_integer_range(from_, to, dtype)
    return _refill(input, "RandomBackward0", lambda n: random.integers(generator, n, from_, to, dtype))


def bernoulli_(input, p=0.5, *, generator=None):
    """Fill with 1 with probability ``p`` (a number or a tensor of probabilities), else 0, in place.

    >>> import minigrad
    >>> minigrad.empty(4).bernoulli_(0.5, generator=minigrad.Generator().manual_seed(0))
    tensor([0., 0., 1., 0.])
    """
    generator = random._or_default(generator)
    if isinstance(p, Tensor):
        probabilities = np.broadcast_to(p._data, input.shape)
        if ((probabilities < 0) | (probabilities > 1)).any():
            raise RuntimeError(messages.BERNOULLI_P_TENSOR)
        return _refill(input, "BernoulliBackward1",
                       lambda n: random.bernoulli(generator, probabilities, input.dtype).ravel())
    if not 0 <= p <= 1:
        raise RuntimeError(messages.BERNOULLI_P.format(p=p))
    return _refill(input, "BernoulliBackward2",
                   lambda n: random.bernoulli(generator, np.full(n, float(p)), input.dtype))


def exponential_(input, lambd=1.0, *, generator=None):
    """Fill with Exp(lambd) draws, in place: PyTorch's numbers for the same seed.

    >>> import minigrad
    >>> minigrad.empty(3).exponential_(generator=minigrad.Generator().manual_seed(0))
    tensor([3.5083, 1.2304, 0.6150])
    """
    if not lambd > 0:
        raise RuntimeError(messages.EXPONENTIAL_LAMBDA.format(lambd=lambd))
    if not dtypes.is_floating(input.dtype):
        raise RuntimeError(messages.EXPONENTIAL_DTYPE.format(dtype=_type_name(input)))
    generator = random._or_default(generator)
    return _refill(input, "ExponentialBackward0", lambda n: random.exponential(generator, n, input.dtype, lambd))


def cauchy_(input, median=0.0, sigma=1.0, *, generator=None):
    """Fill with Cauchy(median, sigma) draws, in place: PyTorch's numbers for the same seed.

    >>> import minigrad
    >>> minigrad.empty(2).cauchy_(generator=minigrad.Generator().manual_seed(0)).shape
    minigrad.Size([2])
    """
    if not sigma > 0:
        raise RuntimeError(messages.CAUCHY_SIGMA.format(sigma=sigma))
    if not dtypes.is_floating(input.dtype):
        raise RuntimeError(messages.CAUCHY_DTYPE.format(dtype=dtypes.CPP_TYPE_NAMES.get(dtypes.of(input.dtype))))
    generator = random._or_default(generator)
    return _refill(input, "CauchyBackward0", lambda n: random.cauchy(generator, n, input.dtype, median, sigma))


def log_normal_(input, mean=1.0, std=2.0, *, generator=None):
    """Fill with exp(N(mean, std**2)) draws, in place: PyTorch's numbers for the same seed.

    >>> import minigrad
    >>> minigrad.empty(2).log_normal_(generator=minigrad.Generator().manual_seed(0)).shape
    minigrad.Size([2])
    """
    if not std > 0:
        raise RuntimeError(messages.LOG_NORMAL_STD.format(std=std))
    _require_floating(input, "log_normal_cpu")
    generator = random._or_default(generator)
    return _refill(input, "LogNormalBackward0", lambda n: random.log_normal(generator, n, input.dtype, mean, std))


def geometric_(input, p, *, generator=None):
    """Fill with the number of trials until a success of probability ``p``, in place.

    >>> import minigrad
    >>> minigrad.empty(2).geometric_(0.5, generator=minigrad.Generator().manual_seed(0)).shape
    minigrad.Size([2])
    """
    if not 0 < p < 1:
        raise RuntimeError(messages.GEOMETRIC_P.format(p=p))
    generator = random._or_default(generator)
    return _refill(input, "GeometricBackward0", lambda n: random.geometric(generator, n, input.dtype, p))


# Sampling from a tensor of probabilities (also Tensor methods: ``probs.multinomial(1)``).

def bernoulli(input, p=None, *, generator=None):
    """0/1 draws, 1 with probability ``input`` (elementwise) or ``p``: PyTorch's for the same seed.

    >>> import minigrad
    >>> minigrad.bernoulli(minigrad.tensor([0.1, 0.9, 0.5]), generator=minigrad.Generator().manual_seed(0))
    tensor([0., 1., 1.])
    """
    generator = random._or_default(generator)
    if p is not None:  # bernoulli(input, p): input only gives the shape and dtype
        if not 0 <= p <= 1:
            raise RuntimeError(messages.BERNOULLI_P.format(p=p))
        values = random.bernoulli(generator, np.full(input.shape, float(p)), input.dtype)
        return Tensor._wrap(values)
    probabilities = input._data
    if probabilities.dtype.kind != "f":
        raise NotImplementedError(messages.NOT_IMPLEMENTED_FOR_DTYPE.format(
            kernel="bernoulli_tensor_cpu_p_", dtype=dtypes.SCALAR_TYPE_NAMES.get(input.dtype, input.dtype)))
    if ((probabilities < 0) | (probabilities > 1)).any():
        raise RuntimeError(messages.BERNOULLI_P_TENSOR)
    return Tensor._wrap(random.bernoulli(generator, probabilities, probabilities.dtype))


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices sampled from the rows of ``input`` (non-negative weights): PyTorch's for the same seed.

    >>> import minigrad
    >>> g = minigrad.Generator().manual_seed(2147483647)
    >>> minigrad.multinomial(minigrad.tensor([0.6, 0.3, 0.1]), 5, replacement=True, generator=g)
    tensor([1, 1, 1, 0, 0])
    """
    probs = input._data
    if probs.ndim not in (1, 2):
        raise RuntimeError(messages.MULTINOMIAL_DIM)
    if probs.dtype.kind != "f":
        raise RuntimeError(messages.MULTINOMIAL_DTYPE.format(
            dtype=dtypes.SCALAR_TYPE_NAMES.get(input.dtype, input.dtype)))
    if num_samples <= 0:
        raise RuntimeError(messages.MULTINOMIAL_NO_SAMPLES)
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError(messages.MULTINOMIAL_TOO_MANY)
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:  # PyTorch's fast path checks the whole tensor at once
        if not (rows.max() < np.inf and rows.min() >= 0):
            raise RuntimeError(messages.MULTINOMIAL_BAD_ENTRY)
        if (rows.sum(axis=-1) == 0).any():
            raise RuntimeError(messages.MULTINOMIAL_ZERO_SUM)
    else:  # its loop checks entry by entry: NaN fails "< 0" first, as NaN >= 0 is false
        for row in rows:
            if not (row >= 0).all():
                raise RuntimeError(messages.MULTINOMIAL_NEGATIVE)
            if not np.isfinite(row).all():
                raise RuntimeError(messages.MULTINOMIAL_NOT_FINITE)
            if not row.sum() > 0:
                raise RuntimeError(messages.MULTINOMIAL_ZERO_SUM)
    values = random.multinomial(random._or_default(generator), probs, num_samples, replacement)
    return Tensor._wrap(values)
