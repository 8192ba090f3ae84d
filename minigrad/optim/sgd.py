"""Stochastic gradient descent, with PyTorch's momentum, dampening, Nesterov and weight decay."""

from ..tensor import Tensor
from .optimizer import Optimizer, _bump_version, _not_implemented


class SGD(Optimizer):
    """Stochastic gradient descent (optionally with momentum), PyTorch's update rule.

    For each parameter ``p`` with gradient ``g``::

        g = g + weight_decay * p                          (if weight_decay)
        b = g  (first step),  b = momentum * b + (1 - dampening) * g  (later)
        g = g + momentum * b  (nesterov)  or  g = b       (if momentum)
        p = p - lr * g

    Args:
        params: the parameters (or parameter groups) to optimize.
        lr: learning rate.
        momentum: momentum factor.
        dampening: dampening of the momentum.
        weight_decay: L2 penalty.
        nesterov: use Nesterov momentum.
        maximize: ascend instead of descend.
        foreach: not implemented beyond None/False (an implementation choice in PyTorch).
        differentiable: not implemented.
        fused: not implemented.

    Raises:
        ValueError: for a negative ``lr``, ``momentum`` or ``weight_decay``, and for
            Nesterov without momentum or with dampening.

    >>> import minigrad
    >>> w = minigrad.nn.Parameter(minigrad.tensor([1.0, 2.0]))
    >>> opt = minigrad.optim.SGD([w], lr=0.5)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([0., 0.], requires_grad=True)
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _not_implemented(foreach=foreach, differentiable=differentiable, fused=fused)
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update_group(self, group):
        lr, momentum, dampening = float(group["lr"]), group["momentum"], group["dampening"]
        weight_decay, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
        for p in group["params"]:
            if p.grad is None:
                continue
            g = p.grad._data
            if maximize:
                g = -g
            if weight_decay != 0:
                g = g + weight_decay * p._data  # a new array: p.grad itself is left alone
            if momentum != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = Tensor._wrap(g.copy())
                else:
                    b = buf._data
                    b *= momentum
                    if dampening == 0:
                        b += g
                    else:
                        b += (1 - dampening) * g
                g = g + momentum * buf._data if nesterov else buf._data
            p._data -= lr * g
            _bump_version(p)
