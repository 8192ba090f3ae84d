"""``minigrad.nn.functional``: the functions behind the layers, with PyTorch's signatures.

The calculus lives in ``minigrad/ops`` (``Relu``, ``LogSoftmax``, ``NllLoss``
...); this file adds what ``torch.nn.functional`` adds on top: the
``reduction`` argument and its legacy spellings, class weights,
``ignore_index``, and the warnings PyTorch gives.
"""

import warnings

import numpy as np

from .. import dtypes, messages, ops
from ..grad_mode import is_grad_enabled, no_grad
from ..ops.inplace import _in_place
from ..ops.shape import broadcast_shapes
from ..ops.conv import Convolution, MaxPool2DWithIndices
from ..ops.nn import (
    BinaryCrossEntropy, BinaryCrossEntropyWithLogits, Elu, Embedding, Gelu, HuberLoss, LeakyRelu, MseLoss,
    NativeBatchNorm, NativeLayerNorm, Silu, SmoothL1Loss, Softplus,
)
from ..tensor import Tensor

__all__ = ["relu", "tanh", "sigmoid", "softmax", "log_softmax", "linear", "leaky_relu", "elu", "gelu", "softplus",
           "silu", "dropout", "embedding", "one_hot", "layer_norm", "batch_norm", "mse_loss", "l1_loss",
           "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "cross_entropy", "nll_loss", "conv2d", "max_pool2d"]


def relu(input, inplace=False):
    """``max(input, 0)`` elementwise; ``inplace=True`` overwrites ``input``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.relu(minigrad.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """
    return _in_place(ops.relu, input) if inplace else ops.relu(input)


def tanh(input):
    """Elementwise hyperbolic tangent.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.tanh(minigrad.tensor([0.0]))
    tensor([0.])
    """
    return ops.tanh(input)


def sigmoid(input):
    """Elementwise ``1 / (1 + exp(-input))``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.sigmoid(minigrad.tensor([0.0]))
    tensor([0.5000])
    """
    return ops.sigmoid(input)


def _implicit_dim_warning(name, dim, stacklevel):
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. "
                      "Change the call to include dim=X as an argument.", UserWarning, stacklevel=stacklevel)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """Exponentiate and normalise along ``dim``; omitting ``dim`` is deprecated (and warns).

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.softmax(minigrad.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    _implicit_dim_warning("softmax", dim, _stacklevel)
    return ops.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``log(softmax(input, dim))``, computed stably.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.log_softmax(minigrad.tensor([0.0, 0.0]), dim=0).exp()
    tensor([0.5000, 0.5000])
    """
    _implicit_dim_warning("log_softmax", dim, _stacklevel)
    return ops.log_softmax(input, dim, dtype=dtype)


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: what ``nn.Linear`` computes.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.linear(minigrad.ones(1, 2), minigrad.ones(3, 2), minigrad.zeros(3))
    tensor([[2., 2., 2.]])
    """
    return ops.linear(input, weight, bias)


# --- losses ------------------------------------------------------------------------


def _legacy_get_string(size_average, reduce, emit_warning=True):
    """PyTorch 0.3's ``size_average``/``reduce`` flags, as a ``reduction`` string."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        reduction = "mean"
    elif reduce:
        reduction = "sum"
    else:
        reduction = "none"
    if emit_warning:
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                      "instead.", UserWarning, stacklevel=4)
    return reduction


def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        reduction = _legacy_get_string(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _check_target_size(input, target):
    if input.shape != target.shape:
        warnings.warn(
            f"Using a target size ({messages.format_size(target.shape)}) that is different to the input size "
            f"({messages.format_size(input.shape)}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", UserWarning, stacklevel=3)


def _broadcast_pair(input, target):
    """``input`` and ``target`` expanded to their common shape (PyTorch's broadcast_tensors)."""
    if input.shape == target.shape:
        return input, target
    try:
        shape = np.broadcast_shapes(input.shape, target.shape)
    except ValueError:
        raise ops.operands.broadcast_error(input.shape, target.shape) from None
    return input.expand(*shape), target.expand(*shape)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """Each slice along ``dim`` divided by its p-norm (at least ``eps``): unit vectors for p=2.

    Recorded as PyTorch records it: ``input / norm.clamp_min(eps).expand_as(input)``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.normalize(minigrad.tensor([[3.0, 4.0]]))
    tensor([[0.6000, 0.8000]])
    """
    if out is not None:
        raise NotImplementedError("minigrad's normalize makes a new tensor; it takes no out= tensor")
    return input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (each norm at least ``eps``).

    As PyTorch computes it: both broadcast to one shape, each divided by a copy of its norm that
    is clamped without being recorded, then multiplied and summed over ``dim``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.cosine_similarity(minigrad.tensor([[1.0, 0.0]]), minigrad.tensor([[1.0, 1.0]]))
    tensor([0.7071])
    """
    if x1.shape != x2.shape:
        shape = broadcast_shapes(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    norm1, norm2 = x1.norm(2, dim, keepdim=True).clone(), x2.norm(2, dim, keepdim=True).clone()
    with no_grad():
        norm1.clamp_min_(eps)
        norm2.clamp_min_(eps)
    return ((x1 / norm1) * (x2 / norm2)).sum(dim)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or summed) squared error between ``input`` and ``target``.

    Args:
        input: any shape.
        target: the same shape (a different one broadcasts, with PyTorch's warning).
        size_average: deprecated; use ``reduction``.
        reduce: deprecated; use ``reduction``.
        reduction: ``"mean"``, ``"sum"`` or ``"none"``.
        weight: not implemented.

    Returns:
        The loss: a 0-d tensor, or elementwise for ``reduction="none"``.

    Raises:
        ValueError: for an unknown ``reduction``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.mse_loss(minigrad.tensor([1.0, 3.0]), minigrad.tensor([1.0, 1.0]))
    tensor(2.)
    """
    if weight is not None:
        raise NotImplementedError("minigrad's mse_loss does not implement weight")
    _check_target_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    if target.dtype != input.dtype:
        target = target.to(dtypes.result_type(input, target))
        input = input.to(target.dtype)
    # The op itself (it would warn again, pointing here rather than at the caller).
    return MseLoss.apply(*_broadcast_pair(input, target), reduction=reduction)


def _check_same_dtype(input, target):
    """The loss kernels' check: one floating dtype for input and target (PyTorch never promotes here)."""
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {dtypes.SCALAR_TYPE_NAMES[target.dtype]} but expected "
                           f"{dtypes.SCALAR_TYPE_NAMES[input.dtype]}")


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Mean (or summed) absolute error ``|input - target|``, recorded as PyTorch does (abs of a sub, then mean).

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.l1_loss(minigrad.tensor([1.0, 3.0]), minigrad.tensor([2.0, 1.0]))
    tensor(1.5000)
    """
    _check_target_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    losses = (input - target).abs()
    if reduction == "none":
        return losses
    return losses.sum() if reduction == "sum" else losses.mean()


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared error below ``beta`` (halved, over ``beta``), absolute error above it.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.smooth_l1_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]), reduction="none")
    tensor([0.1250, 2.5000])
    """
    _check_target_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return SmoothL1Loss.apply(*_broadcast_pair(input, target), reduction=reduction, beta=beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Squared error (halved) below ``delta``, ``delta`` times the absolute error above it.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.huber_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]), reduction="none")
    tensor([0.1250, 2.5000])
    """
    if weight is not None:
        raise NotImplementedError("minigrad's huber_loss does not implement weight")
    _check_target_size(input, target)
    reduction = _reduction(None, None, reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return HuberLoss.apply(*_broadcast_pair(input, target), reduction=reduction, delta=delta)


def _check_not_differentiable(function, arguments):
    """PyTorch's refusal of a weight that requires grad where its kernel has no gradient for it."""
    for name, value in arguments.items():
        if value is not None and value.requires_grad and is_grad_enabled():
            raise RuntimeError(f"The function '{function}' is not differentiable with respect to argument "
                               f"'{name}'. This input cannot have requires_grad True.")


def _expanded_array(weight, shape, dtype):
    """A class or element weight as a NumPy array of ``shape`` (None stays None)."""
    if weight is None:
        return None
    try:
        return np.broadcast_to(weight._data, shape).astype(dtype)
    except ValueError:
        raise ops.operands.broadcast_error(shape, weight.shape) from None


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """``-w (y log(x) + (1 - y) log(1 - x))`` for probabilities ``x`` in [0, 1] and targets ``y``.

    Args:
        input: probabilities (e.g. a sigmoid's output), any shape.
        target: the same shape, same dtype, values in [0, 1].
        weight: optional rescaling, broadcast to the input's shape.
        size_average: deprecated; use ``reduction``.
        reduce: deprecated; use ``reduction``.
        reduction: ``"mean"``, ``"sum"`` or ``"none"``.

    Returns:
        The loss: a 0-d tensor, or elementwise for ``reduction="none"``.

    Raises:
        ValueError: if ``target`` and ``input`` differ in size.
        RuntimeError: for a target of another dtype, or an input outside [0, 1].

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.binary_cross_entropy(minigrad.tensor([0.5, 0.5]), minigrad.tensor([0.0, 1.0]))
    tensor(0.6931)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({messages.format_size(target.shape)}) that is different to the "
                         f"input size ({messages.format_size(input.shape)}) is deprecated. Please ensure they "
                         "have the same size.")
    _check_same_dtype(input, target)
    _check_not_differentiable("binary_cross_entropy", {"weight": weight})
    x = input._data
    if ((x < 0) | (x > 1)).any():  # NaN passes, as in PyTorch
        raise RuntimeError("all elements of input should be between 0 and 1")
    return BinaryCrossEntropy.apply(input, target, weight=_expanded_array(weight, input.shape, input.dtype),
                                    reduction=reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """``binary_cross_entropy(sigmoid(input), target)``, computed stably from the logits.

    Args:
        input: logits, any shape.
        target: the same shape, values in [0, 1].
        weight: optional rescaling of each element's loss, broadcast to the input's shape.
        size_average: deprecated; use ``reduction``.
        reduce: deprecated; use ``reduction``.
        reduction: ``"mean"``, ``"sum"`` or ``"none"``.
        pos_weight: optional weight of the positive term, one per class (last dim).

    Returns:
        The loss: a 0-d tensor, or elementwise for ``reduction="none"``.

    Raises:
        ValueError: if ``target`` and ``input`` differ in size.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.binary_cross_entropy_with_logits(minigrad.tensor([0.0, 0.0]), minigrad.tensor([0.0, 1.0]))
    tensor(0.6931)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({messages.format_size(target.shape)}) must be the same as input size "
                         f"({messages.format_size(input.shape)})")
    if not dtypes.is_floating(target.dtype):
        raise RuntimeError(f"result type {dtypes.SCALAR_TYPE_NAMES[input.dtype]} can't be cast to the desired "
                           f"output type {dtypes.SCALAR_TYPE_NAMES[target.dtype]}")
    if target.dtype != input.dtype:
        target = target.to(input.dtype)
    _check_not_differentiable("binary_cross_entropy_with_logits", {"weight": weight, "pos_weight": pos_weight})
    return BinaryCrossEntropyWithLogits.apply(
        input, target, weight=_expanded_array(weight, input.shape, input.dtype),
        pos_weight=_expanded_array(pos_weight, input.shape, input.dtype), reduction=reduction)


def _flatten_classes(input, target):
    """(N, C, d1, ...) -> (N*d1*..., C) and targets (N, d1, ...) -> (N*d1*...,)."""
    order = (0,) + tuple(range(2, input.ndim)) + (1,)
    return input.permute(*order).reshape(-1, input.shape[1]), target.reshape(-1), target.shape


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log-likelihood of class ``target`` under log-probabilities ``input``.

    ``loss_i = -weight[t_i] * input[i, t_i]``, zero where ``t_i == ignore_index``;
    ``"mean"`` divides the sum by the total weight of the counted targets.

    Args:
        input: log-probabilities, (N, C), (C,) or (N, C, d1, ...).
        target: class indices (int64), (N,), () or (N, d1, ...).
        weight: optional weight per class, shape (C,).
        size_average: deprecated; use ``reduction``.
        ignore_index: targets with this value contribute nothing.
        reduce: deprecated; use ``reduction``.
        reduction: ``"mean"``, ``"sum"`` or ``"none"``.

    Returns:
        The loss: a 0-d tensor, or one per target for ``reduction="none"``.

    Raises:
        ValueError: for an unknown ``reduction`` or mismatched batch sizes.
        RuntimeError: for targets that are not int64 (or uint8), or of the wrong rank.
        IndexError: for a target outside ``[0, C)``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.nll_loss(minigrad.tensor([[-1.0, -2.0], [-3.0, -4.0]]), minigrad.tensor([0, 1]))
    tensor(2.5000)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if not isinstance(target, Tensor):
        target = Tensor._wrap(np.asarray(target))
    shape, target_shape = input._data.shape, target._data.shape  # (the arrays' shapes: cheaper)
    if not shape:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if weight is not None:
        _check_not_differentiable("nll_loss_forward", {"weight": weight})
    if len(shape) != 1 and shape[0] != (target_shape[0] if target_shape else 1):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.ndim else 1}).")
    if len(shape) <= 2:
        return ops.nll_loss(input, target, weight, ignore_index, reduction)
    # NB: PyTorch runs NllLoss2d on the (N, C, d1, ...) tensor; minigrad moves the classes last and
    # flattens to (N * d1 * ..., C) first (same values and gradients, a few view nodes more).
    if target.shape != (input.shape[0],) + input.shape[2:]:
        raise RuntimeError(f"Expected target size {messages.format_shape((input.shape[0],) + input.shape[2:])}, "
                           f"got {messages.format_shape(target.shape)}")
    flat_input, flat_target, out_shape = _flatten_classes(input, target)
    loss = ops.nll_loss(flat_input, flat_target, weight, ignore_index, reduction, spatial=True)
    return loss.view(out_shape) if reduction == "none" else loss


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """Softmax cross-entropy of logits ``input`` against class indices or class probabilities.

    With integer ``target`` this is ``nll_loss(log_softmax(input, 1), target, ...)``;
    with a float ``target`` shaped like ``input`` (probabilities), it is
    ``-(target * log_softmax(input, 1)).sum(1)``, averaged over the batch for ``"mean"``.
    ``label_smoothing = e`` mixes the target with the uniform distribution:
    ``(1 - e) * loss + e * mean over classes of -log_softmax``.

    Args:
        input: logits, (N, C), (C,) or (N, C, d1, ...).
        target: class indices (int64) or class probabilities (float, like ``input``).
        weight: optional weight per class, shape (C,).
        size_average: deprecated; use ``reduction``.
        ignore_index: targets with this value contribute nothing (index targets only).
        reduce: deprecated; use ``reduction``.
        reduction: ``"mean"``, ``"sum"`` or ``"none"``.
        label_smoothing: in [0, 1]; 0 is none.

    Returns:
        The loss: a 0-d tensor, or one per sample for ``reduction="none"``.

    Raises:
        ValueError: for an unknown ``reduction``.
        RuntimeError: for integer targets shaped like ``input``, or as ``nll_loss``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.cross_entropy(minigrad.tensor([[0.0, 0.0]]), minigrad.tensor([1]))
    tensor(0.6931)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input._data.ndim == 1 else 1  # (the arrays' ndim and shapes: cheaper than the Tensors')
    if isinstance(target, Tensor) and target._data.shape == input._data.shape:
        if not dtypes.is_floating(target.dtype):
            raise RuntimeError("Expected floating point type for target with class probabilities, got "
                               f"{dtypes.SCALAR_TYPE_NAMES[target.dtype]}")
        return _cross_entropy_with_probabilities(input, target, weight, reduction, label_smoothing, class_dim)
    logp = ops.log_softmax(input, class_dim)
    loss = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing == 0.0:
        return loss
    # PyTorch's formula: the smoothing term is the (weighted) mean over classes of -log p.
    classes = input.shape[class_dim]
    shape = [1] * input.ndim
    shape[class_dim] = -1
    smooth = -(logp * weight.reshape(*shape)) if weight is not None else -logp
    smooth = smooth.sum(class_dim)
    counted = Tensor._wrap(target._data != ignore_index)
    smooth = ops.where(counted, smooth, 0.0)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / int(counted._data.sum())
        else:
            picked = np.where(counted._data, target._data, 0)
            smooth = smooth.sum() / float((weight._data[picked] * counted._data).sum())
    elif reduction == "sum":
        smooth = smooth.sum()
    return loss * (1 - label_smoothing) + smooth * (label_smoothing / classes)


def _cross_entropy_with_probabilities(input, target, weight, reduction, label_smoothing, class_dim):
    """``-(target * log_softmax(input)).sum(class_dim)``, with PyTorch's reductions."""
    logp = ops.log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    if weight is not None:
        shape = [1] * input.ndim
        shape[class_dim] = -1
        logp = logp * weight.reshape(*shape)
    if reduction == "none":
        return -(logp * target).sum(class_dim)
    total = -(logp * target).sum()
    # "mean" averages over the samples (every element but the class dim).
    return total if reduction == "sum" else total / (input.numel() // classes)


# --- activations and layers ---------------------------------------------------------------


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.leaky_relu(minigrad.tensor([-2.0, 3.0]), 0.5)
    tensor([-1.,  3.])
    """
    if inplace:
        return _in_place(lambda x: LeakyRelu.apply(x, negative_slope=negative_slope), input)
    return LeakyRelu.apply(input, negative_slope=negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.elu(minigrad.tensor([0.0, 2.0]))
    tensor([0., 2.])
    """
    if inplace:
        return _in_place(lambda x: Elu.apply(x, alpha=alpha), input)
    return Elu.apply(input, alpha=alpha)


def gelu(input, approximate="none"):
    """``x * Phi(x)`` (Phi: the standard normal's CDF), or its tanh approximation.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.gelu(minigrad.tensor([0.0, 1.0]))
    tensor([0.0000, 0.8413])
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate=approximate)


def softplus(input, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.softplus(minigrad.tensor([0.0]))
    tensor([0.6931])
    """
    return Softplus.apply(input, beta=beta, threshold=threshold)


def silu(input, inplace=False):
    """``x * sigmoid(x)`` (also called swish).

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.silu(minigrad.tensor([0.0, 1.0]))
    tensor([0.0000, 0.7311])
    """
    if inplace:
        return _in_place(Silu.apply, input)
    return Silu.apply(input)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)`` (when training).

    The mask is ``empty_like(input).bernoulli_(1 - p) / (1 - p)``, drawn as PyTorch draws it; the
    result is ``input * mask`` (``MulBackward0``). Not training, or ``p == 0``: ``input`` itself.

    Raises:
        ValueError: for ``p`` outside [0, 1].

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.dropout(minigrad.ones(3), p=0.5, training=False)
    tensor([1., 1., 1.])
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        mask = Tensor._wrap(np.zeros((), dtype=input.dtype))
    else:
        mask = Tensor._wrap(np.empty(input.shape, dtype=input.dtype)).bernoulli_(1 - p)
        mask._data /= 1 - p
    return input.mul_(mask) if inplace else input * mask


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Rows of ``weight`` picked by the integer ``input``: ``weight[input]``.

    Raises:
        RuntimeError: for indices that are not int64 or int32.
        IndexError: for an index outside ``[0, num_embeddings)``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.embedding(minigrad.tensor([1, 0]), minigrad.tensor([[0.0, 1.0], [2.0, 3.0]]))
    tensor([[2., 3.],
            [0., 1.]])
    """
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("minigrad's embedding does not implement max_norm, scale_grad_by_freq or sparse")
    if input.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got minigrad.{dtypes.LEGACY_TYPE_NAMES[input.dtype]} instead "
                           "(while checking arguments for embedding)")
    indices = input._data
    if indices.size and (indices.min() < 0 or indices.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return Embedding.apply(weight, indices=indices, padding_idx=padding_idx)


def one_hot(tensor, num_classes=-1):
    """Class indices (int64) as rows of zeros with a 1 at each index: shape ``(*tensor.shape, num_classes)``.

    Args:
        tensor: int64 class indices.
        num_classes: the number of classes; -1 means ``tensor.max() + 1``.

    Raises:
        RuntimeError: as PyTorch, for a non-int64 tensor, negative or too-large classes.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.one_hot(minigrad.tensor([0, 2]))
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    if tensor.dtype != dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    indices = tensor._data
    if indices.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if indices.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = int(indices.max()) + 1
        elif indices.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._wrap((indices[..., None] == np.arange(num_classes)).astype(np.int64))


def _normalized_shape(normalized_shape):
    return (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalize over the last ``len(normalized_shape)`` dims to mean 0 and variance 1, then scale and shift.

    Raises:
        RuntimeError: if the input's trailing dims are not ``normalized_shape``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.layer_norm(minigrad.tensor([[1.0, 3.0]]), (2,))
    tensor([[-1.0000,  1.0000]])
    """
    normalized_shape = _normalized_shape(normalized_shape)
    if input.shape[input.ndim - len(normalized_shape):] != normalized_shape or input.ndim < len(normalized_shape):
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, normalized_shape))}], but got input of size"
                           f"{list(input.shape)}")
    # Without weight or bias the node gets constants in their place (they get no edge).
    weight = weight if weight is not None else Tensor._wrap(np.ones(normalized_shape, dtype=input.dtype))
    bias = bias if bias is not None else Tensor._wrap(np.zeros(normalized_shape, dtype=input.dtype))
    return NativeLayerNorm.apply(input, weight, bias, normalized_shape=normalized_shape, eps=eps)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5):
    """Normalize each channel (dim 1) over the batch (and any further dims), then scale and shift.

    Training uses the batch's statistics and (if given) moves ``running_mean``/``running_var`` towards
    them in place: ``running = (1 - momentum) * running + momentum * batch`` (the variance unbiased).
    Not training, it uses the running statistics.

    Raises:
        ValueError: when training on one value per channel.
        RuntimeError: when the running statistics do not have one entry per channel.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.batch_norm(minigrad.tensor([[1.0], [3.0]]), None, None, training=True)
    tensor([[-1.0000],
            [ 1.0000]])
    """
    channels = input.shape[1]
    if training and input.numel() // channels == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{messages.format_size(input.shape)}")
    for name, stat in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                       ("bias", bias)):
        if stat is not None and stat.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {stat.numel()}")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    weight = weight if weight is not None else Tensor._wrap(np.ones(channels, dtype=input.dtype))
    bias = bias if bias is not None else Tensor._wrap(np.zeros(channels, dtype=input.dtype))
    out = NativeBatchNorm.apply(input, weight, bias, training=training, eps=eps,
                                running_mean=None if training else running_mean._data,
                                running_var=None if training else running_var._data)
    if training and running_mean is not None:
        _update_running_stats(input, running_mean, running_var, momentum)
    return out


def _update_running_stats(input, running_mean, running_var, momentum):
    # The batch statistics again (cheap next to the forward), then PyTorch's in-place update.
    axes = (0,) + tuple(range(2, input.ndim))
    x = input._data
    n = x.size // x.shape[1]
    mean = x.mean(axis=axes)
    unbiased_var = x.var(axis=axes) * n / (n - 1)
    for running, batch in ((running_mean, mean), (running_var, unbiased_var)):
        running._data *= 1 - momentum
        running._data += momentum * batch.astype(running.dtype)
        running._shared_version_counter().value += 1  # an in-place change, as PyTorch's


# --- convolution and pooling --------------------------------------------------------------


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def _unbatched(function):
    """Run ``function`` on a (C, H, W) input as a batch of one, as PyTorch accepts it."""

    def run(input, *args, **kwargs):
        if input.ndim == 3:
            out = run(input.unsqueeze(0), *args, **kwargs)
            return tuple(o.squeeze(0) for o in out) if isinstance(out, tuple) else out.squeeze(0)
        return function(input, *args, **kwargs)

    run.__doc__, run.__name__ = function.__doc__, function.__name__
    return run


@_unbatched
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D cross-correlation of (N, C, H, W) images with (O, C, kh, kw) kernels, plus a bias per output channel.

    Args:
        input: (N, C, H, W), or (C, H, W) for one image.
        weight: (O, C, kh, kw).
        bias: optional (O,).
        stride: step between windows (an int or a pair).
        padding: zeros added on each side (an int, a pair, "valid" or "same").
        dilation: only 1 (not implemented otherwise).
        groups: only 1 (not implemented otherwise).

    Raises:
        RuntimeError: for a channel mismatch or a kernel larger than the padded input, as PyTorch.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.conv2d(minigrad.ones(1, 1, 3, 3), minigrad.ones(1, 1, 2, 2))
    tensor([[[[4., 4.],
              [4., 4.]]]])
    """
    if _pair(dilation) != (1, 1) or groups != 1:
        raise NotImplementedError("minigrad's conv2d does not implement dilation or groups")
    kernel = weight.shape[2:]
    if padding == "valid":
        padding = 0
    elif padding == "same":
        if _pair(stride) != (1, 1):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        if any(k % 2 == 0 for k in kernel):
            raise NotImplementedError("minigrad's conv2d implements padding='same' for odd kernels only")
        padding = (kernel[0] // 2, kernel[1] // 2)
    elif isinstance(padding, str):
        raise RuntimeError(f"Invalid padding string: {padding!r}")
    stride, padding = _pair(stride), _pair(padding)
    if input.ndim != 4:
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: "
                           f"{list(input.shape)}")
    if input.shape[1] != weight.shape[1]:
        raise RuntimeError(f"Given groups=1, weight of size {list(weight.shape)}, expected input"
                           f"{list(input.shape)} to have {weight.shape[1]} channels, but got {input.shape[1]} "
                           "channels instead")
    padded = (input.shape[2] + 2 * padding[0], input.shape[3] + 2 * padding[1])
    if padded[0] < kernel[0] or padded[1] < kernel[1]:
        raise RuntimeError(f"Calculated padded input size per channel: ({padded[0]} x {padded[1]}). Kernel size: "
                           f"({kernel[0]} x {kernel[1]}). Kernel size can't be greater than actual input size")
    # Without a bias the node gets constant zeros in its place (no edge, as in PyTorch).
    bias = bias if bias is not None else Tensor._wrap(np.zeros(weight.shape[0], dtype=input.dtype))
    return Convolution.apply(input, weight, bias, stride=stride, padding=padding)


@_unbatched
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each (kh, kw) window of (N, C, H, W) images; ``stride`` defaults to the window size.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.max_pool2d(minigrad.arange(16.0).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    if _pair(dilation) != (1, 1) or ceil_mode:
        raise NotImplementedError("minigrad's max_pool2d does not implement dilation or ceil_mode")
    kernel = _pair(kernel_size)
    stride = kernel if stride is None or stride == [] else _pair(stride)
    padding = _pair(padding)
    if padding[0] > kernel[0] // 2 or padding[1] > kernel[1] // 2:
        raise RuntimeError("pad should be at most half of effective kernel size, but got pad="
                           f"{padding[0]}, kernel_size={kernel[0]} and dilation=1")
    if return_indices:
        raise NotImplementedError("minigrad's max_pool2d does not implement return_indices")
    return MaxPool2DWithIndices.apply(input, kernel_size=kernel, stride=stride, padding=padding)
