"""Ops used by neural networks: softmax, its log, the losses, the activations beyond relu,
and the layers PyTorch records as one node (embedding, layer norm, batch norm).

Written as single nodes (rather than chains of exp/sum/div) because that is
how PyTorch records them, and because the fused formulas are numerically stable.
"""

import math

import numpy as np

from .. import dtypes
from .. import messages
from ..fast_path import last_dim_max, ones_for, records, unrecorded_op
from ..graph import Node
from ..tensor import Tensor
from .elementwise import where
from .linalg import Addmm
from .operands import normalize_dim


def _stable_softmax(x, dim):
    """exp(x - max) / sum along ``dim``: the max subtracted so that exp cannot overflow.

    Along the last dim (a vector's, or each row's: the usual case) of a float32 or float64
    array, with cheaper NumPy calls first. On the small arrays learners use, each NumPy call
    costs more than its arithmetic (a reduction 1 µs for 16 numbers), so there:

    - the max is not subtracted where that is safe: ``exp(x) / sum(exp(x))`` is the same number
      (softmax does not change when a slice is shifted). Safe means every sum is at least 1 and
      finite: then no ``exp`` overflowed, and one that underflowed (a tiny number, imprecise)
      is divided by at least 1, so its error stays as small as with the shift. Otherwise the
      max is subtracted first: a vector's read at its argmax (a quarter of a max's cost), the
      rows' by ``fast_path.last_dim_max`` (as log_softmax's);
    - the sums are a product with a vector of ones (fast_path.ones_for: BLAS, whose rounding
      differs from NumPy's pairwise sum within the dtype's precision, as PyTorch's own sum's does).

    (exp may overflow before the check: the caller has NumPy's warnings off.)
    """
    if x.ndim == 1 and x.dtype.char in "fd" and x.size:  # a vector (dim is 0): the commonest case first
        ones = ones_for(x.size, x.dtype)
        e = np.exp(x)
        total = e.dot(ones)
        if not 1.0 <= total < math.inf:  # (nan fails too)
            e = x - x[x.argmax()]  # (argmax finds a nan first, as max gives nan)
            np.exp(e, out=e)
            total = e.dot(ones)
        e /= total
        return e
    if dim == x.ndim - 1 and x.dtype.char in "fd" and x.size:  # each row of a matrix or more
        ones = ones_for(x.shape[-1], x.dtype)
        e = np.exp(x)
        totals = e @ ones
        if not (1.0 <= totals.item(totals.argmin()) and totals.item(totals.argmax()) < math.inf):  # (flat indices)
            e = np.subtract(x, last_dim_max(x))
            np.exp(e, out=e)
            totals = e @ ones
        e /= totals[..., None]
        return e
    if not x.size:  # (nothing to normalise: an empty result, as PyTorch's, not NumPy's error for a max of nothing)
        return np.empty_like(x)
    kind = x.dtype.kind
    if kind == "f" and x.itemsize == 2:  # float16: in float32, rounded once at the end, as PyTorch's kernel does
        return _stable_softmax(x.astype(np.float32), dim).astype(x.dtype)
    # The ufuncs' own reductions, in place where the array is ours: cheaper on small arrays.
    e = np.subtract(x, np.maximum.reduce(x, axis=dim, keepdims=True))
    if not x.ndim:  # (NumPy gives a 0-d result as a scalar: its one number is its own sum)
        e = np.exp(e)
        return e / e
    np.exp(e, out=e)
    e /= np.add.reduce(e, axis=dim, keepdims=True)
    return e


class Softmax(Node):
    """z = exp(x) / sum(exp(x)) along dim        grad_x = z * (grad - sum(grad * z))"""

    may_warn = True

    saves = ("result",)
    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim = dim
        return _stable_softmax(x, dim)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return z * (grad - (grad * z).sum(self.dim, keepdim=True))


class LogSoftmax(Node):
    """z = x - logsumexp(x) along dim        grad_x = grad - softmax(x) * sum(grad)"""

    may_warn = True

    saves = ("result",)
    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim = dim
        if not x.size:  # (as in _stable_softmax)
            return np.empty_like(x)
        if dim == x.ndim - 1 and x.dtype.char in "fd":  # each row (the usual case): as _stable_softmax's rows
            shifted = x - last_dim_max(x)
            totals = np.exp(shifted).dot(ones_for(x.shape[-1], x.dtype))
            shifted -= np.log(totals)[..., None]  # (shifted is a new array: written in place)
            return shifted
        # (The ufuncs' own reductions: x.max() and .sum() are theirs behind a Python wrapper.)
        shifted = x - np.maximum.reduce(x, axis=dim, keepdims=True)
        return shifted - np.log(np.add.reduce(np.exp(shifted), axis=dim, keepdims=True))

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad - z.exp() * grad.sum(self.dim, keepdim=True)


class MseLoss(Node):
    """z = mean((x - y)**2)        grad_x = grad * 2 (x - y) / N,  grad_y = -grad_x"""

    may_warn = True

    saves = ("self", "target")
    input_names = ("self", "target")
    saved_params = ("reduction",)

    def forward(self, x, y, reduction="mean"):
        self.reduction = reduction
        sq = (x - y) ** 2
        if reduction == "mean":
            return np.asarray(sq.mean(), dtype=sq.dtype)
        if reduction == "sum":
            return np.asarray(sq.sum(), dtype=sq.dtype)
        return sq

    def backward(self, grad):
        x, y = self.saved_tensors
        diff = x - y
        scale = 2.0 / diff.numel() if self.reduction == "mean" else 2.0
        grad_x = grad * diff * scale
        return grad_x, (-grad_x if self.needs_input_grad[1] else None)


def _target_weights(targets, weight, ignore_index, classes, dtype):
    """``(counted, safe, w)`` for flat ``targets``: which rows count (None: all of them), each
    row's target (0 where ignored) and its weight (0 where ignored; None: all 1, nothing ignored).

    Raises:
        IndexError: PyTorch's, for a target outside ``[0, classes)`` that is not ``ignore_index``.
    """
    # The common case first, in one max (without its Python wrapper): every target a class (read
    # as unsigned, a negative int64 is larger than any), and ignore_index none of them.
    all_counted = not targets.size or (np.maximum.reduce(targets.view(np.uint64) if targets.dtype.kind == "i"
                                                         else targets) < classes and not 0 <= ignore_index < classes)
    if not all_counted:
        counted = targets != ignore_index
        out_of_bounds = counted & ((targets < 0) | (targets >= classes))
        if out_of_bounds.any():
            raise IndexError(f"Target {int(targets[out_of_bounds][0])} is out of bounds.")
        all_counted = counted.all()
    if all_counted:
        return None, targets, None if weight is None else weight[targets].astype(dtype)
    safe = np.where(counted, targets, 0)
    return counted, safe, np.where(counted, 1 if weight is None else weight[safe], 0).astype(dtype)


class NllLoss(Node):
    """z_i = -w[t_i] * logp[i, t_i] (0 where t_i == ignore_index); "mean" divides the sum by sum_i w[t_i]

    grad_logp[i, t_i] = -grad * w[t_i] (/ sum_i w[t_i] for "mean"), 0 elsewhere. A 1-D ``logp``
    is one sample. The class weights and the targets are not differentiable, as in PyTorch.
    """

    may_warn = True  # ("mean" over targets that are all ignored is 0 / 0: nan, silently as in PyTorch)

    # The targets are a saved tensor in PyTorch: freed after backward, so a second one fails loudly.
    saved_arrays = ("target",)
    saved_params = ("weight", "ignore_index", "reduction")

    def forward(self, logp, target, weight=None, ignore_index=-100, reduction="mean"):
        self.target, self.weight, self.ignore_index, self.reduction = target, weight, ignore_index, reduction
        self.shape = logp.shape
        rows = logp.reshape(-1, logp.shape[-1])
        counted, safe, w = _target_weights(target.reshape(-1), weight, ignore_index, logp.shape[-1], logp.dtype)
        # The common case, every target counted with weight 1, needs no weights: the same numbers.
        self.unweighted = w is None
        losses = -rows[np.arange(rows.shape[0]), safe]
        if self.unweighted:
            self.total_weight = logp.dtype.type(rows.shape[0])
        else:
            losses = losses * w
            self.total_weight = np.add.reduce(w, axis=None)  # (w.sum(), without its Python wrapper)
        if reduction == "none":
            return losses.reshape(target.shape)
        if reduction == "sum":
            return np.asarray(np.add.reduce(losses, axis=None), dtype=logp.dtype)
        return np.asarray(np.add.reduce(losses, axis=None) / self.total_weight, dtype=logp.dtype)

    @property
    def _saved_target(self):
        return Tensor._wrap(self._array("target"))

    @property
    def _saved_weight(self):
        self._array("target")  # (PyTorch's error once released: all four were saved together)
        return None if self.weight is None else Tensor._wrap(self.weight)

    @property
    def _saved_total_weight(self):
        self._array("target")
        return Tensor._wrap(np.asarray(self.total_weight))

    def backward(self, grad):
        target = self._array("target").reshape(-1)
        if self.unweighted:  # (every w[t_i] is 1: one number, not an array of them)
            counted, safe, w = None, target, grad._data.dtype.type(1)
        else:
            counted, safe, w = _target_weights(target, self.weight, self.ignore_index, self.shape[-1], grad.dtype)
        if self.reduction == "mean":
            w = w / self.total_weight
        picker = np.zeros((math.prod(self.shape[:-1]), self.shape[-1]), dtype=grad._data.dtype)
        others = np.ones(picker.shape, dtype=bool)
        if counted is None:
            rows, columns, weights = np.arange(len(safe)), safe, -w
        else:
            rows, columns, weights = counted.nonzero()[0], safe[counted], -w[counted]  # (not -0.)
        picker[rows, columns] = weights  # -w[t_i] at each counted target
        others[rows, columns] = False
        spread = (grad.unsqueeze(-1) if self.reduction == "none" else grad) * Tensor._wrap(picker.reshape(self.shape))
        # Exact zeros off the targets, as PyTorch's, whatever grad holds (inf * 0 is nan).
        return spread.masked_fill(Tensor._wrap(others.reshape(self.shape)), 0)


class NllLoss2D(NllLoss):
    """NllLoss over images or sequences: (N, C, d1, ...) log-probabilities, (N, d1, ...) targets.

    NB: PyTorch's node works on the (N, C, H, W) tensor itself; minigrad's is NllLoss on the
    (N * d1 * ..., C) rows that ``F.nll_loss`` makes by moving the classes last (same values,
    same gradients, a permute and a reshape more below it in the graph).
    """


def _log_clamped(x):
    # PyTorch clamps log(0) at -100 in binary_cross_entropy, so a confident wrong answer stays finite.
    return np.maximum(np.log(x), -100)


def _reduce(losses, reduction):
    """The "none" / "mean" / "sum" of PyTorch's losses, on a NumPy array."""
    if reduction == "mean":
        return np.asarray(losses.mean(), dtype=losses.dtype)
    if reduction == "sum":
        return np.asarray(losses.sum(), dtype=losses.dtype)
    return losses


def _reduced_grad(grad, reduction, numel):
    """The incoming gradient of a reduced loss, as the gradient of each elementwise loss."""
    return grad / numel if reduction == "mean" else grad


class BinaryCrossEntropy(Node):
    """z = -w (y log(x) + (1 - y) log(1 - x))        grad_x = grad w (x - y) / max(x (1 - x), 1e-12)

    grad_y = grad w (log(1 - x) - log(x)). The logs are clamped at -100, as in PyTorch.
    """

    may_warn = True
    saves = ("self", "target")
    input_names = ("self", "target")
    saved_params = ("weight", "reduction")

    def forward(self, x, y, weight=None, reduction="mean"):
        self.weight, self.reduction = weight, reduction
        losses = -(y * _log_clamped(x) + (1 - y) * _log_clamped(1 - x))
        if weight is not None:
            losses = losses * weight
        return _reduce(losses.astype(x.dtype, copy=False), reduction)

    def backward(self, grad):
        x, y = self.saved_tensors
        grad = _reduced_grad(grad, self.reduction, x.numel())
        if self.weight is not None:
            grad = grad * Tensor._wrap(self.weight)
        grad_x = grad * (x - y) / ((1 - x) * x).clamp(min=1e-12)
        grad_y = grad * ((1 - x).log() - x.log()) if self.needs_input_grad[1] else None
        return grad_x, grad_y


def _softplus_of_minus(x):
    """log(1 + exp(-x)), computed without overflow: log1p(exp(-|x|)) + max(-x, 0)."""
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)


class BinaryCrossEntropyWithLogits(Node):
    """z = w ((1 - y) x + (1 + (p - 1) y) log(1 + exp(-x)))   (p: pos_weight; = BCE of sigmoid(x))

    grad_x = grad w ((1 + (p - 1) y) sigmoid(x) - p y),  grad_y = grad w ((p - 1) log(1 + exp(-x)) - x)
    """

    may_warn = True
    saves = ("self", "target")
    input_names = ("self", "target")
    saved_params = ("weight", "pos_weight", "reduction")

    def forward(self, x, y, weight=None, pos_weight=None, reduction="mean"):
        self.weight, self.pos_weight, self.reduction = weight, pos_weight, reduction
        log_weight = 1 if pos_weight is None else 1 + (pos_weight - 1) * y
        losses = (1 - y) * x + log_weight * _softplus_of_minus(x)
        if weight is not None:
            losses = losses * weight
        return _reduce(losses.astype(x.dtype, copy=False), reduction)

    def backward(self, grad):
        x, y = self.saved_tensors
        grad = _reduced_grad(grad, self.reduction, x.numel())
        if self.weight is not None:
            grad = grad * Tensor._wrap(self.weight)
        if self.pos_weight is None:
            grad_x = grad * (x.sigmoid() - y)
        else:
            p = Tensor._wrap(self.pos_weight)
            grad_x = grad * ((1 + (p - 1) * y) * x.sigmoid() - p * y)
        grad_y = None
        if self.needs_input_grad[1]:
            softplus_minus_x = ((-x.abs()).exp() + 1).log() + (-x).relu()
            grad_y = grad * (-x if self.pos_weight is None else (Tensor._wrap(self.pos_weight) - 1)
                             * softplus_minus_x - x)
        return grad_x, grad_y


class SmoothL1Loss(Node):
    """d = x - y;  z = 0.5 d**2 / beta if |d| < beta else |d| - 0.5 beta        grad_x = grad clamp(d / beta, -1, 1)"""

    may_warn = True

    saves = ("self", "target")
    input_names = ("self", "target")
    saved_params = ("reduction", "beta")

    def forward(self, x, y, reduction="mean", beta=1.0):
        self.reduction, self.beta = reduction, beta
        d = np.abs(x - y)
        losses = np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta) if beta > 0 else d
        return _reduce(losses.astype(x.dtype, copy=False), reduction)

    def backward(self, grad):
        x, y = self.saved_tensors
        grad = _reduced_grad(grad, self.reduction, x.numel())
        d = x - y
        slope = (d / self.beta).clamp(-1, 1) if self.beta > 0 else d.sign()
        grad_x = grad * slope
        return grad_x, (-grad_x if self.needs_input_grad[1] else None)


class HuberLoss(Node):
    """d = x - y;  z = 0.5 d**2 if |d| < delta else delta (|d| - 0.5 delta)

    grad_x = grad clamp(d, -delta, delta),  grad_y = -grad_x
    """

    may_warn = True

    saves = ("self", "target")
    input_names = ("self", "target")
    saved_params = ("reduction", "delta")

    def forward(self, x, y, reduction="mean", delta=1.0):
        self.reduction, self.delta = reduction, delta
        d = np.abs(x - y)
        losses = np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
        return _reduce(losses.astype(x.dtype, copy=False), reduction)

    def backward(self, grad):
        x, y = self.saved_tensors
        grad = _reduced_grad(grad, self.reduction, x.numel())
        grad_x = grad * (x - y).clamp(-self.delta, self.delta)
        return grad_x, (-grad_x if self.needs_input_grad[1] else None)


# --- activations -------------------------------------------------------------------------
class LeakyRelu(Node):
    """z = x if x > 0 else negative_slope * x        grad_x = grad * (1 if x > 0 else negative_slope)"""

    saves = ("self",)
    input_names = ("self",)
    saved_params = ("negative_slope",)

    def forward(self, x, negative_slope=0.01):
        self.negative_slope = negative_slope
        return np.where(x > 0, x, x * negative_slope).astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        slope = np.where(x._data > 0, 1, self.negative_slope).astype(grad.dtype)
        return grad * Tensor._wrap(slope)


class Elu(Node):
    """z = x if x > 0 else alpha (exp(x) - 1)        grad_x = grad * (1 if x > 0 else alpha exp(x))"""

    may_warn = True
    saves = ("self",)
    input_names = ("self",)
    saved_params = ("alpha",)

    def forward(self, x, alpha=1.0):
        self.alpha = alpha
        return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))).astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        positive = Tensor._wrap(x._data > 0)
        return grad * where(positive, 1.0, x.clamp(max=0).exp() * self.alpha)


class Softplus(Node):
    """z = log(1 + exp(beta x)) / beta  (x where beta x > threshold)        grad_x = grad * sigmoid(beta x)"""

    may_warn = True
    saves = ("self",)
    input_names = ("self",)
    saved_params = ("beta", "threshold")

    def forward(self, x, beta=1.0, threshold=20.0):
        self.beta, self.threshold = beta, threshold
        bx = x * beta
        smooth = (np.log1p(np.exp(-np.abs(bx))) + np.maximum(bx, 0)) / beta
        return np.where(bx > threshold, x, smooth).astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        linear = Tensor._wrap(x._data * self.beta > self.threshold)
        return grad * where(linear, 1.0, (x * self.beta).sigmoid())


class Silu(Node):
    """z = x * sigmoid(x)        grad_x = grad * s (1 + x (1 - s)),  s = sigmoid(x)"""

    may_warn = True
    saves = ("self",)
    input_names = ("self",)

    def forward(self, x):
        return (x / (1 + np.exp(-x))).astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        s = x.sigmoid()
        return grad * s * (1 + x * (1 - s))


_SQRT_2_OVER_PI = float(np.sqrt(2 / np.pi))


_exact_erf = np.frompyfunc(math.erf, 1, 1)


def _erf(x):
    """The error function, elementwise.

    NB: NumPy has no erf. float64 uses Python's exact ``math.erf`` one element at a time (so
    gradcheck and PyTorch agree to the last digits); float32 would be too slow that way on a
    transformer's activations, so it uses Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7, about
    float32's own precision).
    """
    if x.dtype == np.float64:
        return _exact_erf(x).astype(np.float64)
    t = 1 / (1 + 0.3275911 * np.abs(x))
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return np.sign(x) * (1 - poly * np.exp(-x * x))


class NormalCdf(Node):
    """z = Phi(x) = (1 + erf(x / sqrt(2))) / 2        grad_x = grad * exp(-x**2 / 2) / sqrt(2 pi)

    The standard normal's CDF, a piece of GELU's gradient (kept differentiable for create_graph).
    """

    may_warn = True

    saves = ("self",)
    input_names = ("self",)

    def forward(self, x):
        return (0.5 * (1 + _erf(x / np.sqrt(2)))).astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * (x * x * -0.5).exp() * (1 / np.sqrt(2 * np.pi))


class Gelu(Node):
    """z = x Phi(x)        grad_x = grad * (Phi(x) + x phi(x))     (Phi, phi: the standard normal's CDF, PDF)

    With ``approximate="tanh"``: z = x (1 + tanh(u)) / 2, u = sqrt(2/pi) (x + 0.044715 x**3),
    grad_x = grad * ((1 + tanh(u)) / 2 + x (1 - tanh(u)**2) sqrt(2/pi) (1 + 3 * 0.044715 x**2) / 2).
    """

    may_warn = True

    saves = ("self",)
    input_names = ("self",)
    saved_params = ("approximate",)

    def forward(self, x, approximate="none"):
        self.approximate = approximate
        if approximate == "tanh":
            z = 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x ** 3)))
        else:
            z = x * 0.5 * (1 + _erf(x / np.sqrt(2)))
        return z.astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        if self.approximate == "tanh":
            th = ((x + x * x * x * 0.044715) * _SQRT_2_OVER_PI).tanh()
            slope = (th + 1) * 0.5 + x * (1 - th * th) * (x * x * (3 * 0.044715) + 1) * (_SQRT_2_OVER_PI * 0.5)
        else:
            slope = NormalCdf.apply(x) + x * (x * x * -0.5).exp() * (1 / np.sqrt(2 * np.pi))
        return grad * slope


# --- layers as single nodes -----------------------------------------------------------
class Embedding(Node):
    """z = weight[indices]        grad_weight[k] = sum of grad over the positions where indices == k

    Rows at ``padding_idx`` get no gradient. The indices are not differentiable.
    """

    input_names = ("weight",)
    saved_arrays = ("indices",)
    saved_params = ("padding_idx",)

    def forward(self, weight, indices, padding_idx=None):
        self.indices, self.padding_idx, self.num_weights = indices, padding_idx, weight.shape[0]
        return weight[indices]

    def backward(self, grad):
        return EmbeddingDenseBackward.apply(grad, indices=self._array("indices"), num_weights=self.num_weights,
                                            padding_idx=self.padding_idx)


class EmbeddingDenseBackward(Node):
    """z = zeros(num_weights, dim); z[indices] += g (the scatter-add of Embedding's backward)

    grad_g = grad[indices] (a gather: this node's own derivative is an Embedding lookup).
    """

    may_warn = True

    input_names = ("grad_output",)
    saved_arrays = ("indices",)

    def forward(self, g, indices, num_weights, padding_idx=None):
        self.indices = indices
        out = np.zeros((num_weights,) + g.shape[indices.ndim:], dtype=g.dtype)
        np.add.at(out, indices, g)
        if padding_idx is not None:
            out[padding_idx] = 0
        return out

    def backward(self, grad):
        return Embedding.apply(grad, indices=self._array("indices"))


class NativeLayerNorm(Node):
    """xhat = (x - mean) / sqrt(var + eps) over the normalized (last) dims;  z = xhat * weight + bias

    grad_x = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = grad * weight (means over those dims),
    grad_weight = sum(grad * xhat), grad_bias = sum(grad) over the other dims.
    Without an affine part, ``weight`` and ``bias`` are constant ones and zeros (no edge, as in PyTorch).
    """

    may_warn = True

    saves = ("input", "weight", "bias")
    input_names = ("input", "weight", "bias")
    saved_params = ("normalized_shape", "eps")

    def forward(self, x, weight, bias, normalized_shape, eps=1e-5):
        self.normalized_shape, self.eps = normalized_shape, eps
        self.axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
        mean = x.mean(axis=self.axes, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=self.axes, keepdims=True)
        z = (x - mean) / np.sqrt(var + eps) * weight + bias
        return z.astype(x.dtype, copy=False)

    def backward(self, grad):
        x, weight, bias = self.saved_tensors
        mean = x.mean(self.axes, keepdim=True)
        centred = x - mean
        rstd = ((centred * centred).mean(self.axes, keepdim=True) + self.eps) ** -0.5
        xhat = centred * rstd
        g = grad * weight
        grad_x = rstd * (g - g.mean(self.axes, keepdim=True) - xhat * (g * xhat).mean(self.axes, keepdim=True))
        batch_axes = tuple(range(x.ndim - len(self.axes)))
        return grad_x, (grad * xhat).sum(batch_axes), grad.sum(batch_axes)


class NativeBatchNorm(Node):
    """Training: xhat = (x - mean) / sqrt(var + eps) over every dim but the channels (dim 1);
    evaluation: the same with the given running mean and variance;  z = xhat * weight + bias

    grad_x (training) = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = grad * weight;
    grad_x (evaluation) = g * rstd;  grad_weight = sum(grad * xhat), grad_bias = sum(grad).
    """

    may_warn = True

    saves = ("input", "weight", "bias")
    input_names = ("input", "weight", "bias")
    saved_params = ("training", "eps")
    saved_arrays = ("running_mean", "running_var")

    def forward(self, x, weight, bias, running_mean=None, running_var=None, training=True, eps=1e-5):
        self.training, self.eps = training, eps
        self.axes = (0,) + tuple(range(2, x.ndim))
        self.channel_shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
        if training:
            mean = x.mean(axis=self.axes, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=self.axes, keepdims=True)
        else:
            mean, var = running_mean.reshape(self.channel_shape), running_var.reshape(self.channel_shape)
            self.running_mean, self.running_var = mean, var
        z = (x - mean) / np.sqrt(var + eps) * weight.reshape(self.channel_shape) + bias.reshape(self.channel_shape)
        return z.astype(x.dtype, copy=False)

    def backward(self, grad):
        x, weight, bias = self.saved_tensors
        if self.training:
            mean = x.mean(self.axes, keepdim=True)
            centred = x - mean
            rstd = ((centred * centred).mean(self.axes, keepdim=True) + self.eps) ** -0.5
        else:
            centred = x - Tensor._wrap(self._array("running_mean"))
            rstd = Tensor._wrap(self._array("running_var") + self.eps) ** -0.5
        xhat = centred * rstd
        g = grad * weight.reshape(*self.channel_shape)
        if self.training:
            grad_x = rstd * (g - g.mean(self.axes, keepdim=True) - xhat * (g * xhat).mean(self.axes, keepdim=True))
        else:
            grad_x = g * rstd
        return grad_x, (grad * xhat).sum(self.axes), grad.sum(self.axes)


def _dim(dim, input):
    ndim = input._data.ndim
    if type(dim) is int and -ndim <= dim < ndim:
        return dim % ndim  # (normalize_dim's common case, without the call and its tuple)
    if dim is None:  # PyTorch's legacy implicit choice
        dim = 0 if ndim in (0, 1, 3) else 1
    (axis,) = normalize_dim(dim, ndim)
    return axis


def softmax(input, dim=None, dtype=None):
    """Exponentiate and normalize along ``dim`` so each slice sums to 1."""
    if dtype is not None:
        input = input.to(dtype)
    axis = _dim(dim, input)
    if input._data.dtype.kind != "f":
        _no_integer_softmax("softmax", input, axis)
    if not records(input):
        return unrecorded_op(_stable_softmax, input, axis)  # (fast_path: nothing to record)
    return Softmax.apply_unary(input, axis)


def log_softmax(input, dim=None, dtype=None):
    """``log(softmax(input))``, computed stably."""
    if dtype is not None:
        input = input.to(dtype)
    axis = _dim(dim, input)
    if input._data.dtype.kind != "f":
        _no_integer_softmax("log_softmax", input, axis)
    return LogSoftmax.apply_unary(input, axis)


def _no_integer_softmax(name, input, axis):
    """PyTorch's error for (log_)softmax of integers or bools (its kernel's name, by the dim), unless
    there is nothing to compute (an empty tensor keeps its dtype); pass ``dtype=`` to convert first."""
    if input._data.size:
        kernel = f"{name}_lastdim_kernel_impl" if axis >= input.ndim - 1 else f"{name}_kernel_impl"
        raise NotImplementedError(messages.SOFTMAX_OF_INTEGERS.format(
            kernel=kernel, dtype=dtypes.SCALAR_TYPE_NAMES.get(dtypes.of(input.dtype), str(input.dtype))))


def mse_loss(input, target, reduction="mean"):
    """Mean squared error between ``input`` and ``target``."""
    if input.shape != target.shape:
        import warnings

        warnings.warn(
            f"Using a target size ({messages.format_size(target.shape)}) that is different to the input "
            f"size ({messages.format_size(input.shape)}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=2)
    return MseLoss.apply(input, target, reduction=reduction)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean", spatial=False):
    """Negative log-likelihood of integer class ``target`` given log-probabilities ``input``.

    ``input`` is (N, C) with ``target`` (N,), or one sample: (C,) with a 0-d ``target``.
    ``spatial``: the rows come from an (N, C, d1, ...) input (recorded as ``NllLoss2DBackward0``).
    """
    t = target._data if isinstance(target, Tensor) else np.asarray(target)
    if t.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{dtypes.SCALAR_TYPE_NAMES.get(t.dtype, t.dtype)}")
    ndim = input._data.ndim
    if ndim == 2 and t.ndim != 1 or ndim == 1 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    # (A target out of bounds is the forward's error, as in PyTorch's kernel: see _target_weights.)
    w = None if weight is None else (weight._data if isinstance(weight, Tensor) else np.asarray(weight))
    node = NllLoss2D if spatial else NllLoss
    return node.apply_unary(input, t, w, ignore_index, reduction)  # (forward's parameters, in its order)


def cross_entropy(input, target, reduction="mean"):
    """Softmax cross-entropy of logits ``input`` (N, C) against class indices ``target`` (N,)."""
    return nll_loss(log_softmax(input, 1), target, reduction=reduction)


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: what ``nn.Linear`` computes, recorded as PyTorch records it.

    With a bias, a 2-D input is one ``addmm`` (``AddmmBackward0``); a contiguous input of other
    dims is viewed as 2-D for that ``addmm`` and the result viewed back. Otherwise it is
    ``matmul``, then the bias added in place.
    """
    ndim = input._data.ndim  # (the arrays' ndim: cheaper than the Tensors')
    if ndim and weight._data.ndim == 2 and input._data.shape[-1] != weight._data.shape[1]:
        # Checked here, as PyTorch's mm checks it (NumPy's matmul would say it in its own words).
        rows = math.prod(input.shape[:-1])
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{input.shape[-1]} and "
                           f"{weight.shape[1]}x{weight.shape[0]})")
    if bias is None:
        return input @ weight.t()
    if ndim == 2 or (input.is_contiguous() and bias.is_contiguous()):
        # PyTorch's addmm checks, in its order and words (it never promotes).
        if bias._data.dtype != weight._data.dtype:
            raise RuntimeError("self and mat2 must have the same dtype, but got "
                               f"{dtypes.SCALAR_TYPE_NAMES[bias.dtype]} and {dtypes.SCALAR_TYPE_NAMES[weight.dtype]}")
        if input._data.dtype != weight._data.dtype:
            raise RuntimeError("mat1 and mat2 must have the same dtype, but got "
                               f"{dtypes.SCALAR_TYPE_NAMES[input.dtype]} and {dtypes.SCALAR_TYPE_NAMES[weight.dtype]}")
        if ndim == 2:
            return Addmm.apply(bias, input, weight.t())
        rows = Addmm.apply(bias, input.view(-1, input.shape[-1]), weight.t())
        return rows.view(*input.shape[:-1], weight.shape[0])
    return (input @ weight.t()).add_(bias)


