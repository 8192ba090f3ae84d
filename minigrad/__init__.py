"""minigrad: PyTorch's autograd, small enough to read, on NumPy.

``import minigrad as torch`` and a learner's autograd code runs with the same
numbers: tensors, ops with broadcasting, ``backward``, ``autograd.grad``,
hooks, in-place checks, higher-order derivatives, ``nn`` and ``optim``.
"""

import math

from . import dtypes
from .creation import (
    arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace, ones,
    ones_like, rand, rand_like, randint, randn, randn_like, randperm, tensor, zeros, zeros_like,
)
from .creation import normal, randint_like
from .ops import bernoulli, multinomial
from .random import Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state
from .serialization import load, save
from .creation import logspace
from .dtypes import bool_ as bool
from .dtypes import double, float, float16, float32, float64, half, int32, int64, long
from .dtypes import int32 as int  # noqa: A001  (PyTorch's name; the builtin stays builtins.int)
from .dtypes import (
    cdouble, cfloat, complex64, complex128, dtype, finfo, get_default_dtype, iinfo, int8, int16, promote_types,
    result_type, set_default_dtype, short, uint8,
)
from .devices import channels_last, contiguous_format, device, layout, memory_format, preserve_format, strided
from .compare import allclose, equal, isclose
from .legacy import (
    BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor, ShortTensor,
)
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad
from .grad_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_grad_enabled
from .ops import (
    abs, add, amax, amin, argmax, argmin, bmm, cat, clamp, clip, clone, cos, cross_entropy, div, dot, eq, exp,
    expand, flatten, ge, gt, isnan, le, log, log_softmax, logsumexp, lt, matmul, max, maximum, mean, min,
    minimum, mm, mul, mv, ne, neg, norm, outer, permute, pow, relu, reshape, sigmoid, sign, sin, softmax,
    sqrt, squeeze, stack, sub, sum, t, tanh, transpose, unsqueeze, var, where,
)
from .ops import (  # the ops surface of issue #8
    acos, addmm, addmv, all, any, arccos, arcsin, arctan, arctan2, argsort, asin, atan, atan2, bitwise_and,
    bitwise_not, bitwise_or, bitwise_xor, ceil, chunk, clamp_max, clamp_min, cosh, cumsum, diag, einsum, exp2,
    expm1, fix, flip, floor, floor_divide, frac, gather, hypot, index_select, isfinite, isinf, lerp, log1p, log2,
    log10, logical_and, logical_not, logical_or, masked_fill, narrow, ne, prod, reciprocal, remainder, round, roll,
    rsqrt, sinh, sort, split, square, std, std_mean, tan, tensor_split, tile, topk, trace, tril, triu, trunc,
    unbind, var_mean,
)
from .ops import argwhere, bincount, count_nonzero, nonzero, unflatten, unique
from .ops import (
    addcdiv, addcmul, atleast_1d, atleast_2d, broadcast_to, cumprod, diff, fmod, hstack, logaddexp, logit, meshgrid,
    moveaxis, movedim, negative, positive, swapaxes, tril_indices, triu_indices, true_divide, vstack, xlogy,
)
from .ops import index_fill, median, nan_to_num, nansum, scatter, scatter_add, sgn, take_along_dim
from .ops import abs_, exp_, relu_, sigmoid_, sqrt_, tanh_  # PyTorch's torch.exp_(x) ... (the common ones)
from .printing import set_printoptions
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
