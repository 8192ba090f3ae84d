"""AdamW: Adam with the weight decay applied to the weights, not folded into the gradient."""

from .adam import Adam


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter): ``p = p * (1 - lr * weight_decay)`` first.

    The same arguments as ``Adam``, but ``weight_decay`` defaults to 0.01.

    >>> import minigrad
    >>> w = minigrad.nn.Parameter(minigrad.tensor([1.0, -1.0]))
    >>> opt = minigrad.optim.AdamW([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([ 0.8990, -0.8990], requires_grad=True)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
