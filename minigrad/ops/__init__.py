"""Every differentiable operation, one file per family.

Each file holds small ``Node`` subclasses (forward on NumPy arrays, backward
on Tensors) and, under them, the lowercase functions users call.
"""

from .convert import bool, double, float, int, long, to, type_as
from .elementwise import (
    abs, add, all, any, clamp, clip, clone, cos, div, eq, exp, ge, gt, isnan, le, log, logical_not, lt, maximum,
    minimum, mul, ne, neg, pow, relu, sigmoid, sign, sin, sqrt, sub, tanh, where,
)
from .inplace import add_, clamp_, copy_, div_, fill_, is_floating_point, mul_, setitem_, sub_, zero_
from .sampling import bernoulli_, exponential_, normal_, random_, uniform_
from .linalg import bmm, dot, matmul, mm, mv, outer
from .nn import cross_entropy, linear, log_softmax, mse_loss, nll_loss, softmax
from .reduce import (
    amax, amin, argmax, argmin, logsumexp, max, mean, min, norm, sum, sum_to_size, var,
)
from .shape import (
    cat, contiguous, expand, expand_as, flatten, getitem, is_contiguous, numpy_T, permute, reshape, reshape_as,
    squeeze, stack, swapaxes, t, transpose, unsqueeze, view, view_as,
)

#: Functions that are also Tensor methods (``t.exp()`` is ``exp(t)``).
TENSOR_METHODS = (
    "add", "sub", "mul", "div", "neg", "pow", "matmul", "mm", "mv", "bmm", "dot", "outer", "abs", "exp", "log", "sqrt",
    "sin", "cos", "tanh", "sigmoid", "relu", "sign", "clamp", "clip", "maximum", "minimum", "clone",
    "to", "float", "double", "long", "int", "bool", "type_as", "eq", "ne", "lt", "le", "gt", "ge",
    "isnan", "logical_not", "all", "any", "sum", "sum_to_size", "mean", "var", "amax", "amin", "max", "min",
    "argmax", "argmin", "logsumexp", "norm", "softmax", "log_softmax", "reshape", "reshape_as", "view",
    "view_as", "contiguous", "is_contiguous", "flatten", "transpose", "swapaxes", "t", "permute", "squeeze", "unsqueeze", "expand",
    "expand_as", "add_", "sub_", "mul_", "div_", "clamp_", "zero_", "fill_", "copy_",
    "is_floating_point",
    "uniform_", "normal_", "random_", "bernoulli_", "exponential_",
)
