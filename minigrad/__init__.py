"""minigrad: PyTorch's autograd, small enough to read, on NumPy.

``import minigrad as torch`` and a learner's autograd code runs with the same
numbers: tensors, ops with broadcasting, ``backward``, ``autograd.grad``,
hooks, in-place checks, higher-order derivatives, ``nn`` and ``optim``.
"""

import math

from .dtypes import (
    cdouble, cfloat, complex128, complex64, double, dtype, finfo, float, float16, float32, float64,
    get_default_dtype, half, iinfo, int16, int32, int64, int8, long, promote_types, result_type,
    set_default_dtype, short, uint8,
)
from .dtypes import bool_ as bool
from .dtypes import int32 as int  # noqa: A001  (PyTorch's name; the builtin stays builtins.int)
from .creation import (
    arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace, logspace, normal, ones,
    ones_like, rand, rand_like, randint, randint_like, randn, randn_like, randperm, tensor, zeros, zeros_like,
)
from .random import default_generator, Generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state
from .devices import channels_last, contiguous_format, device, layout, memory_format, preserve_format, strided
from .legacy import (
    BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor,
    ShortTensor,
)
from .compare import allclose, equal, isclose
from .grad_mode import (
    enable_grad, inference_mode, is_anomaly_check_nan_enabled, is_anomaly_enabled, is_grad_enabled,
    is_inference_mode_enabled, no_grad, set_grad_enabled,
)
from .ops import (
    abs, abs_, acos, add, addcdiv, addcmul, addmm, addmv, all, amax, amin, any, arccos, arcsin, arctan,
    arctan2, argmax, argmin, argsort, argwhere, asin, atan, atan2, atleast_1d, atleast_2d, bernoulli, bincount,
    bitwise_and, bitwise_not, bitwise_or, bitwise_xor, bmm, broadcast_to, cat, ceil, chunk, clamp, clamp_max,
    clamp_min, clip, clone, cos, cosh, count_nonzero, cross_entropy, cumprod, cumsum, diag, diff, div, dot,
    einsum, eq, exp, exp2, exp_, expand, expm1, fix, flatten, flip, fliplr, flipud, floor, floor_divide, fmod,
    frac, gather, ge, gt, hstack, hypot, index_add, index_fill, index_select, isfinite, isinf, isnan, le, lerp, log,
    log10, log1p, log2, log_softmax, logaddexp, logical_and, logical_not, logical_or, logit, logsumexp, lt,
    masked_fill, matmul,
    max, maximum, mean, median, meshgrid, min, minimum, mm, moveaxis, movedim, mul, multinomial, mv,
    nan_to_num, nansum, narrow, ne, neg, negative, nonzero, norm, outer, permute, positive, pow, prod,
    ravel, reciprocal, relu, relu_, remainder, reshape, roll, round, rsqrt, scatter, scatter_add, select, sgn, sigmoid,
    sigmoid_, sign, sin, sinh, softmax, sort, split, sqrt, sqrt_, square, squeeze, stack, std, std_mean, sub,
    sum, swapaxes, t, take_along_dim, tan, tanh, tanh_, tensor_split, tile, topk, trace, transpose, tril,
    tril_indices, triu, triu_indices, true_divide, trunc, unbind, unflatten, unique, unsqueeze, var, var_mean,
    vstack, where, xlogy,
)
from .serialization import load, save
from .printing import set_printoptions
from .messages import is_warn_always_enabled, set_warn_always
from .size import Size
from .tensor import Tensor
from . import accelerator, autograd, backends, cuda, nn, optim, testing, utils  # noqa: E402  (they build on everything above)

pi, e, inf, nan = math.pi, math.e, math.inf, math.nan

concat = concatenate = cat
__version__ = "0.1.0"


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """True for a tensor of a floating-point dtype.

    >>> import minigrad
    >>> is_floating_point(minigrad.tensor([1.0])), is_floating_point(minigrad.tensor([1]))
    (True, False)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"is_floating_point(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.dtype.is_floating_point


def numel(input):
    return input.numel()
