"""Loss modules: ``MSELoss`` and ``CrossEntropyLoss``, wrappers of ``nn.functional``."""

from . import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_get_string(size_average, reduce)
        self.reduction = reduction


class MSELoss(_Loss):
    """Mean squared error: ``mean((input - target) ** 2)`` (``reduction`` as in ``F.mse_loss``).

    >>> import minigrad
    >>> minigrad.nn.MSELoss()(minigrad.tensor([1.0, 3.0]), minigrad.tensor([1.0, 1.0]))
    tensor(2.)
    """

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    """Softmax cross-entropy of logits against class indices (see ``F.cross_entropy``).

    ``weight`` (one per class) is kept as a buffer, as in PyTorch.

    >>> import minigrad
    >>> minigrad.nn.CrossEntropyLoss()(minigrad.tensor([[0.0, 0.0]]), minigrad.tensor([0]))
    tensor(0.6931)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(size_average, reduce, reduction)
        if label_smoothing != 0.0:
            raise NotImplementedError("minigrad's cross_entropy does not implement label_smoothing")
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)
