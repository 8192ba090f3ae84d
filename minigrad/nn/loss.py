"""Loss modules: each is the ``nn.functional`` loss of the same name, with its options kept on the module."""

from . import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_get_string(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    """A loss with a per-class (or per-element) ``weight``, kept as a buffer as in PyTorch."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    """Mean squared error: ``mean((input - target) ** 2)`` (``reduction`` as in ``F.mse_loss``).

    >>> import minigrad
    >>> minigrad.nn.MSELoss()(minigrad.tensor([1.0, 3.0]), minigrad.tensor([1.0, 1.0]))
    tensor(2.)
    """

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error: ``mean(|input - target|)``.

    >>> import minigrad
    >>> minigrad.nn.L1Loss()(minigrad.tensor([1.0, 3.0]), minigrad.tensor([1.0, 1.0]))
    tensor(1.)
    """

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error (halved, over ``beta``) below ``beta``, absolute error above (see ``F.smooth_l1_loss``).

    >>> import minigrad
    >>> minigrad.nn.SmoothL1Loss()(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
    tensor(1.3125)
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error (halved) below ``delta``, ``delta`` times the absolute error above (see ``F.huber_loss``).

    >>> import minigrad
    >>> minigrad.nn.HuberLoss()(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
    tensor(1.3125)
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities (e.g. after a ``Sigmoid``) against 0/1 targets.

    >>> import minigrad
    >>> minigrad.nn.BCELoss()(minigrad.tensor([0.5, 0.5]), minigrad.tensor([0.0, 1.0]))
    tensor(0.6931)
    """

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """``BCELoss`` of ``sigmoid(input)``, computed stably from the logits; ``pos_weight`` weighs positives.

    >>> import minigrad
    >>> minigrad.nn.BCEWithLogitsLoss()(minigrad.tensor([0.0, 0.0]), minigrad.tensor([0.0, 1.0]))
    tensor(0.6931)
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices under log-probabilities (e.g. after ``LogSoftmax``).

    >>> import minigrad
    >>> minigrad.nn.NLLLoss()(minigrad.tensor([[-1.0, -2.0]]), minigrad.tensor([1]))
    tensor(2.)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Softmax cross-entropy of logits against class indices or class probabilities (see ``F.cross_entropy``).

    >>> import minigrad
    >>> minigrad.nn.CrossEntropyLoss()(minigrad.tensor([[0.0, 0.0]]), minigrad.tensor([0]))
    tensor(0.6931)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)
