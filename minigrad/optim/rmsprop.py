"""RMSprop, with PyTorch's update rule (centered and momentum variants included)."""

import numpy as np

from ..creation import tensor, zeros_like
from .optimizer import Optimizer, _bump_version, _not_implemented


class RMSprop(Optimizer):
    """RMSprop: steps divided by a running root mean square of the gradient.

    For each parameter ``p`` with gradient ``g``::

        g = g + weight_decay * p                               (if weight_decay)
        v = alpha * v + (1 - alpha) * g * g
        avg = sqrt(v - m**2) + eps, m = lerp(m, g, 1 - alpha)  (if centered; else sqrt(v) + eps)
        b = momentum * b + g / avg;  p = p - lr * b            (if momentum; else p = p - lr * g / avg)

    Args:
        params: the parameters (or parameter groups) to optimize.
        lr: learning rate.
        alpha: decay rate of the running average of ``g * g``.
        eps: added to the denominator, for stability.
        weight_decay: L2 penalty (added to the gradient).
        momentum: momentum factor.
        centered: divide by the running variance estimate instead of the second moment.
        capturable, foreach, differentiable: not implemented (implementation choices in PyTorch).
        maximize: ascend instead of descend.

    Raises:
        ValueError: for out-of-range ``lr``, ``eps``, ``momentum``, ``weight_decay`` or ``alpha``.

    >>> import minigrad
    >>> w = minigrad.nn.Parameter(minigrad.tensor([1.0, -1.0]))
    >>> opt = minigrad.optim.RMSprop([w], lr=0.01)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([ 0.9000, -0.9000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        _not_implemented(foreach=foreach, capturable=capturable, differentiable=differentiable)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _update_group(self, group):
        lr, alpha, eps = float(group["lr"]), group["alpha"], group["eps"]
        weight_decay, momentum, centered = group["weight_decay"], group["momentum"], group["centered"]
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            if len(state) == 0:
                state["step"] = tensor(0.0)
                state["square_avg"] = zeros_like(p)
                if momentum > 0:
                    state["momentum_buffer"] = zeros_like(p)
                if centered:
                    state["grad_avg"] = zeros_like(p)
            state["step"]._data += 1

            g = p.grad._data
            if group["maximize"]:
                g = -g
            if weight_decay != 0:
                g = g + weight_decay * p._data
            v = state["square_avg"]._data
            v *= alpha
            v += (1 - alpha) * (g * g)
            if centered:
                m = state["grad_avg"]._data
                m += (g - m) * (1 - alpha)
                avg = np.sqrt(v - m * m)
            else:
                avg = np.sqrt(v)
            avg += eps
            if momentum > 0:
                b = state["momentum_buffer"]._data
                b *= momentum
                b += g / avg
                p._data -= lr * b
            else:
                p._data -= lr * (g / avg)
            _bump_version(p)
