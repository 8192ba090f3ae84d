"""``minigrad.backends``: PyTorch's ``torch.backends`` switches that tutorials query.

Only the questions "is this GPU backend there?" are answered (no: minigrad runs on NumPy).

>>> import minigrad
>>> minigrad.backends.mps.is_available()
False
"""

from . import cudnn, mps
