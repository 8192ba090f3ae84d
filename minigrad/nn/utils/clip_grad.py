"""Gradient clipping: shrink the gradients in place before ``optimizer.step()`` when they are too large."""

import math

import numpy as np

from ...creation import tensor
from ...grad_mode import no_grad
from ...tensor import Tensor


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def _vector_norm(array, norm_type):
    if norm_type == math.inf:
        return np.abs(array).max(initial=0)
    return (np.abs(array) ** norm_type).sum() ** (1.0 / norm_type)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale all gradients together so that their joint norm is at most ``max_norm``.

    The joint norm is the norm of the per-parameter norms; the gradients are multiplied in place
    by ``min(1, max_norm / (total_norm + 1e-6))``.

    Args:
        parameters: a tensor or an iterable of tensors (their ``.grad`` is clipped).
        max_norm: the largest norm allowed.
        norm_type: the norm's order (``inf`` for the largest absolute value).
        error_if_nonfinite: raise if the total norm is nan or inf.
        foreach: accepted for PyTorch's signature (an implementation choice there).

    Returns:
        The total norm of the gradients before clipping (a 0-d tensor).

    Raises:
        RuntimeError: for a non-finite norm when ``error_if_nonfinite``.

    >>> import minigrad
    >>> w = minigrad.nn.Parameter(minigrad.zeros(2))
    >>> w.grad = minigrad.tensor([3.0, 4.0])
    >>> clip_grad_norm_([w], max_norm=1.0)
    tensor(5.)
    >>> w.grad
    tensor([0.6000, 0.8000])
    """
    grads = _grads(parameters)
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not grads:
        return tensor(0.0)
    dtype = grads[0]._data.dtype
    norms = np.array([_vector_norm(g._data, norm_type) for g in grads], dtype=dtype)
    total_norm = np.asarray(_vector_norm(norms, norm_type), dtype=dtype)
    if error_if_nonfinite and not np.isfinite(total_norm):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    clip_coef = np.minimum(max_norm / (total_norm + dtype.type(1e-6)), 1.0).astype(dtype)
    with no_grad():
        for g in grads:
            g.mul_(Tensor._wrap(clip_coef))
    return Tensor._wrap(total_norm)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient element into ``[-clip_value, clip_value]``, in place.

    >>> import minigrad
    >>> w = minigrad.nn.Parameter(minigrad.zeros(2))
    >>> w.grad = minigrad.tensor([3.0, -0.5])
    >>> clip_grad_value_([w], 1.0)
    >>> w.grad
    tensor([ 1.0000, -0.5000])
    """
    clip_value = float(clip_value)
    with no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)
