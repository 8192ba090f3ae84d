"""Adam (and AMSGrad), with PyTorch's update rule and bias corrections."""

import numpy as np

from ..creation import tensor, zeros_like
from .optimizer import Optimizer, _bump_version, _not_implemented


class Adam(Optimizer):
    """Adam: steps scaled by running averages of the gradient and of its square.

    For each parameter ``p`` with gradient ``g``, at step ``t = 1, 2, ...``::

        g = g + weight_decay * p                        (if weight_decay)
        m = beta1 * m + (1 - beta1) * g                 (PyTorch writes m.lerp_(g, 1 - beta1))
        v = beta2 * v + (1 - beta2) * g * g
        v_max = max(v_max, v); use v_max instead of v   (if amsgrad)
        p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    Args:
        params: the parameters (or parameter groups) to optimize.
        lr: learning rate.
        betas: decay rates of the two running averages.
        eps: added to the denominator, for stability.
        weight_decay: L2 penalty (added to the gradient).
        amsgrad: use the AMSGrad variant (the running maximum of ``v``).
        foreach: not implemented beyond None/False (an implementation choice in PyTorch).
        maximize: ascend instead of descend.
        capturable: not implemented (CUDA graphs).
        differentiable: not implemented.
        fused: not implemented.
        decoupled_weight_decay: decay the weights directly (AdamW) instead of the gradient.

    Raises:
        ValueError: for out-of-range ``lr``, ``eps``, ``betas`` or ``weight_decay``.

    >>> import minigrad
    >>> w = minigrad.nn.Parameter(minigrad.tensor([1.0, -1.0]))
    >>> opt = minigrad.optim.Adam([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([ 0.9000, -0.9000], requires_grad=True)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _not_implemented(foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused)
        defaults = dict(lr=lr, betas=tuple(float(b) for b in betas), eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _update_group(self, group):
        lr, (beta1, beta2), eps = float(group["lr"]), group["betas"], group["eps"]
        weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            if len(state) == 0:
                # As PyTorch: the step count is a float32 scalar tensor, the averages start at 0.
                state["step"] = tensor(0.0)
                state["exp_avg"] = zeros_like(p)
                state["exp_avg_sq"] = zeros_like(p)
                if amsgrad:
                    state["max_exp_avg_sq"] = zeros_like(p)
            state["step"]._data += 1
            t = state["step"].item()

            g = p.grad._data
            if group["maximize"]:
                g = -g
            if weight_decay != 0:
                if group["decoupled_weight_decay"]:
                    p._data *= 1 - lr * weight_decay
                else:
                    g = g + weight_decay * p._data
            m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
            m += (g - m) * (1 - beta1)
            v *= beta2
            v += (1 - beta2) * (g * g)

            bias_correction1 = 1 - beta1 ** t
            bias_correction2_sqrt = (1 - beta2 ** t) ** 0.5
            if amsgrad:
                v_max = state["max_exp_avg_sq"]._data
                np.maximum(v_max, v, out=v_max)
                denom = np.sqrt(v_max)
            else:
                denom = np.sqrt(v)
            denom /= bias_correction2_sqrt
            denom += eps
            # p -= step_size * m / denom, reusing denom's memory for the update.
            np.divide(m, denom, out=denom)
            denom *= lr / bias_correction1
            p._data -= denom
            _bump_version(p)
