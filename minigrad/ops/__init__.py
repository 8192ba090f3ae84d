"""Every differentiable operation, one file per family.

Each file holds small ``Node`` subclasses (forward on NumPy arrays, backward
on Tensors) and, under them, the lowercase functions users call.
"""

from .convert import bool, double, float, half, int, long, to, type_as
from .elementwise import (
    abs, add, all, any, clamp, clip, clone, cos, div, eq, exp, ge, gt, isnan, le, log, logical_not, lt, maximum,
    minimum, mul, ne, neg, pow, relu, sigmoid, sign, sin, sqrt, sub, tanh, where,
)
from .elementwise import (
    acos, arccos, arcsin, arctan, arctan2, asin, atan, atan2, bitwise_and, bitwise_not, bitwise_or, bitwise_xor,
    ceil, clamp_max, clamp_min, cosh, exp2, expm1, fix, floor, floor_divide, frac, hypot, isfinite, isinf, lerp,
    log1p, log2, log10, logical_and, logical_or, reciprocal, remainder, round, rsqrt, sinh, square, tan, trunc,
)
from .inplace import add_, clamp_, copy_, div_, fill_, is_floating_point, mul_, setitem_, sub_, zero_
from .inplace import (
    abs_, acos_, asin_, atan2_, atan_, ceil_, clamp_max_, clamp_min_, clip_, cos_, cosh_, exp2_, exp_, expm1_,
    floor_, frac_, hypot_, lerp_, log1p_, log2_, log10_, log_, masked_fill_, neg_, pow_, reciprocal_, relu_,
    remainder_, round_, rsqrt_, sigmoid_, sign_, sin_, sinh_, sqrt_, square_, tan_, tanh_, trunc_,
)
from .inplace import index_add_, index_fill_, scatter_, scatter_add_
from .sampling import (
    bernoulli, bernoulli_, cauchy_, exponential_, geometric_, log_normal_, multinomial, normal_, random_, uniform_,
)
from .linalg import addmm, addmv, bmm, dot, einsum, matmul, mm, mv, outer
from .nn import cross_entropy, linear, log_softmax, mse_loss, nll_loss, softmax
from .reduce import (
    amax, amin, argmax, argmin, logsumexp, max, mean, min, norm, sum, sum_to_size, var,
)
from .reduce import cumsum, prod, std, std_mean, var_mean
from .shape import (
    cat, contiguous, expand, expand_as, flatten, getitem, is_contiguous, matrix_T, numpy_T, permute, reshape, reshape_as,
    squeeze, stack, swapaxes, t, transpose, unsqueeze, view, view_as,
)
from .shape import (
    argsort, chunk, diag, flip, gather, index_select, masked_fill, narrow, nelement, repeat, roll, sort, split,
    tensor_split, tile, topk, trace, tril, triu, unbind, unflatten,
)
from .shape import argwhere, bincount, count_nonzero, nonzero, unique
from .elementwise import addcdiv, addcmul, fmod, logaddexp, logit, negative, positive, true_divide, xlogy
from .reduce import cumprod, median, nansum
from .elementwise import nan_to_num, sgn
from .shape import fliplr, flipud, index_add, index_fill, scatter, scatter_add, take_along_dim
from .shape import ravel, select
from .shape import (
    atleast_1d, atleast_2d, broadcast_to, diff, hstack, meshgrid, moveaxis, movedim, tril_indices, triu_indices, vstack,
)

#: Functions that are also Tensor methods (``t.exp()`` is ``exp(t)``).
TENSOR_METHODS = (
    "add", "sub", "mul", "div", "neg", "pow", "matmul", "mm", "mv", "bmm", "dot", "outer", "abs", "exp", "log", "sqrt",
    "sin", "cos", "tanh", "sigmoid", "relu", "sign", "clamp", "clip", "maximum", "minimum", "clone",
    "to", "float", "double", "half", "long", "int", "bool", "type_as", "eq", "ne", "lt", "le", "gt", "ge",
    "isnan", "logical_not", "all", "any", "sum", "sum_to_size", "mean", "var", "amax", "amin", "max", "min",
    "argmax", "argmin", "logsumexp", "norm", "softmax", "log_softmax", "reshape", "reshape_as", "view",
    "view_as", "contiguous", "is_contiguous", "flatten", "transpose", "swapaxes", "t", "permute", "squeeze", "unsqueeze", "expand",
    "expand_as", "add_", "sub_", "mul_", "div_", "clamp_", "zero_", "fill_", "copy_",
    "is_floating_point",
    "uniform_", "normal_", "random_", "bernoulli_", "exponential_", "cauchy_", "log_normal_", "geometric_",
    "bernoulli", "multinomial",
    # the ops surface of issue #8 (developer B)
    "nelement", "chunk", "unbind", "narrow", "split", "tensor_split", "std", "prod", "cumsum", "unflatten",
    "square", "log1p", "expm1", "tan", "exp2", "log2", "log10", "reciprocal", "rsqrt", "floor", "ceil", "round",
    "trunc", "fix", "frac", "sinh", "cosh", "asin", "acos", "atan", "arcsin", "arccos", "arctan", "atan2", "arctan2",
    "hypot", "lerp", "remainder", "floor_divide", "clamp_min", "clamp_max", "isinf", "isfinite", "logical_and",
    "logical_or", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "sort", "argsort", "topk", "gather",
    "index_select", "masked_fill", "repeat", "tile", "flip", "roll", "tril", "triu", "diag", "trace", "addmm", "addmv",
    "exp_", "log_", "sqrt_", "rsqrt_", "sin_", "cos_", "tan_", "tanh_", "sigmoid_", "relu_", "sinh_", "cosh_", "asin_",
    "acos_", "atan_", "abs_", "neg_", "sign_", "square_", "reciprocal_", "log1p_", "expm1_", "exp2_", "log2_", "log10_",
    "floor_", "ceil_", "round_", "trunc_", "frac_", "pow_", "atan2_", "hypot_", "remainder_", "lerp_", "clamp_min_",
    "clamp_max_", "clip_", "masked_fill_", "unique", "nonzero", "argwhere", "count_nonzero", "bincount",
    "addcdiv", "addcmul", "fmod", "logaddexp", "logit", "negative", "positive", "true_divide", "xlogy", "cumprod",
    "diff", "moveaxis", "movedim", "broadcast_to", "median", "nansum",
    "nan_to_num", "sgn", "index_fill", "scatter", "scatter_add", "take_along_dim",
    "index_fill_", "scatter_", "scatter_add_", "select", "ravel", "index_add", "index_add_",
    "fliplr", "flipud",
)
