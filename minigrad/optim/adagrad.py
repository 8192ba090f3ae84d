"""Adagrad, with PyTorch's update rule."""

import numpy as np

from ..creation import full_like, tensor
from .optimizer import Optimizer, _bump_version, _not_implemented


class Adagrad(Optimizer):
    """Adagrad: each coordinate's step divided by the root of the sum of its squared gradients so far.

    For each parameter ``p`` with gradient ``g``, at step ``t = 1, 2, ...``::

        g = g + weight_decay * p                 (if weight_decay)
        s = s + g * g                            (s starts at initial_accumulator_value)
        p = p - lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)

    Args:
        params: the parameters (or parameter groups) to optimize.
        lr: learning rate.
        lr_decay: learning rate decay per step.
        weight_decay: L2 penalty (added to the gradient).
        initial_accumulator_value: the starting value of ``s``.
        eps: added to the denominator, for stability.
        foreach, differentiable, fused: not implemented (implementation choices in PyTorch).
        maximize: ascend instead of descend.

    Raises:
        ValueError: for out-of-range arguments.

    >>> import minigrad
    >>> w = minigrad.nn.Parameter(minigrad.tensor([1.0, -1.0]))
    >>> opt = minigrad.optim.Adagrad([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([ 0.9000, -0.9000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        _not_implemented(foreach=foreach, differentiable=differentiable, fused=fused)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        # As PyTorch: the state exists from the start (the sum begins at initial_accumulator_value).
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["step"] = tensor(0.0)
                self.state[p]["sum"] = full_like(p, group["initial_accumulator_value"])

    def _update_group(self, group):
        lr, lr_decay, eps, weight_decay = float(group["lr"]), group["lr_decay"], group["eps"], group["weight_decay"]
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            state["step"]._data += 1
            step = state["step"].item()
            g = p.grad._data
            if group["maximize"]:
                g = -g
            if weight_decay != 0:
                g = g + weight_decay * p._data
            clr = lr / (1 + (step - 1) * lr_decay)
            s = state["sum"]._data
            s += g * g
            std = np.sqrt(s)
            std += eps
            p._data -= clr * (g / std)
            _bump_version(p)
