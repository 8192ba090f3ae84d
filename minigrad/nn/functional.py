"""``minigrad.nn.functional``: the functions behind the layers, with PyTorch's signatures.

The calculus lives in ``minigrad/ops`` (``Relu``, ``LogSoftmax``, ``NllLoss``
...); this file adds what ``torch.nn.functional`` adds on top: the
``reduction`` argument and its legacy spellings, class weights,
``ignore_index``, and the warnings PyTorch gives.
"""

import warnings

import numpy as np

from .. import messages, ops
from ..ops.inplace import _in_place
from ..ops.nn import MseLoss
from ..tensor import Tensor

__all__ = ["relu", "tanh", "sigmoid", "softmax", "log_softmax", "linear", "mse_loss", "cross_entropy",
           "nll_loss"]


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
    reduction = _reduction(size_average, reduce, reduction)
    if input.shape != target.shape:
        warnings.warn(
            f"Using a target size ({messages.format_size(target.shape)}) that is different to the input size "
            f"({messages.format_size(input.shape)}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", UserWarning, stacklevel=2)
    # The op itself (it would warn again, pointing here rather than at the caller).
    return MseLoss.apply(input, target, reduction=reduction)


def _flatten_classes(input, target):
    """(N, C, d1, ...) -> (N*d1*..., C) and targets (N, d1, ...) -> (N*d1*...,); (C,) -> (1, C)."""
    if input.ndim == 1:
        return input.unsqueeze(0), target.reshape(1), ()
    if input.ndim == 2:
        return input, target, None
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

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.nll_loss(minigrad.tensor([[-1.0, -2.0], [-3.0, -4.0]]), minigrad.tensor([0, 1]))
    tensor(2.5000)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if not isinstance(target, Tensor):
        target = Tensor._wrap(np.asarray(target))
    if input.ndim >= 2 and input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0]}).")
    input, target, out_shape = _flatten_classes(input, target)
    t = target._data
    ignored = t == ignore_index
    if weight is None and not ignored.any():
        loss = ops.nll_loss(input, target, reduction=reduction)
    else:
        # NB: PyTorch does this inside one NllLoss node; here it is a weighted sum of
        # per-sample losses (same values and gradients, a different grad_fn).
        safe = np.where(ignored, 0, t)
        w = np.where(ignored, 0, 1 if weight is None else weight._data[safe]).astype(input.dtype)
        losses = ops.nll_loss(input, Tensor._wrap(safe), reduction="none") * Tensor._wrap(w)
        if reduction == "none":
            loss = losses
        elif reduction == "sum":
            loss = losses.sum()
        else:
            loss = losses.sum() / Tensor._wrap(np.asarray(w.sum(), dtype=input.dtype))
    if reduction == "none" and out_shape is not None:
        loss = loss.reshape(out_shape)
    return loss


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """Softmax cross-entropy of logits ``input`` against class indices or class probabilities.

    With integer ``target`` this is ``nll_loss(log_softmax(input, 1), target, ...)``;
    with a float ``target`` shaped like ``input`` (probabilities), it is
    ``-(target * log_softmax(input, 1)).sum(1)``, averaged over the batch for ``"mean"``.

    Args:
        input: logits, (N, C), (C,) or (N, C, d1, ...).
        target: class indices (int64) or class probabilities (float, like ``input``).
        weight: optional weight per class, shape (C,).
        size_average: deprecated; use ``reduction``.
        ignore_index: targets with this value contribute nothing (index targets only).
        reduce: deprecated; use ``reduction``.
        reduction: ``"mean"``, ``"sum"`` or ``"none"``.
        label_smoothing: not implemented (must be 0).

    Returns:
        The loss: a 0-d tensor, or one per sample for ``reduction="none"``.

    Raises:
        ValueError: for an unknown ``reduction``.

    >>> import minigrad
    >>> from minigrad.nn import functional as F
    >>> F.cross_entropy(minigrad.tensor([[0.0, 0.0]]), minigrad.tensor([1]))
    tensor(0.6931)
    """
    if label_smoothing != 0.0:
        raise NotImplementedError("minigrad's cross_entropy does not implement label_smoothing")
    class_dim = 0 if input.ndim == 1 else 1
    logp = ops.log_softmax(input, class_dim)
    if isinstance(target, Tensor) and target.dtype.kind == "f":
        reduction = _reduction(size_average, reduce, reduction)
        if weight is not None:
            shape = [1] * input.ndim
            shape[class_dim] = -1
            logp = logp * weight.reshape(*shape)
        losses = -(target * logp).sum(class_dim)
        if reduction == "none":
            return losses
        if reduction == "sum":
            return losses.sum()
        return losses.sum() / losses.numel()
    return nll_loss(logp, target, weight, size_average, ignore_index, reduce, reduction)
