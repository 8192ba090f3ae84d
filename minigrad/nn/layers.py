"""Layers with weights or shapes: ``Linear``, ``Identity``, ``Flatten``/``Unflatten``, ``Dropout``, ``Embedding``.

Initial values are drawn as PyTorch draws them (``nn.init`` on minigrad's generator), so a
seeded model starts from PyTorch's very numbers.
"""

import math

from .. import dtypes
from ..creation import empty
from ..grad_mode import no_grad
from ..ops.operands import normalize_dim
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


def _factory_kwargs(device, dtype):
    """The parameters' dtype; a device other than the CPU fails as PyTorch's creation functions fail."""
    if device is not None:
        empty(0, device=device)  # raises PyTorch's error for "cuda", "mps", ...
    return dtypes.default_float if dtype is None else dtype


class Identity(Module):
    """Returns its input unchanged (a placeholder, e.g. for a layer switched off). Arguments are ignored.

    >>> import minigrad
    >>> x = minigrad.ones(2)
    >>> minigrad.nn.Identity()(x) is x
    True
    """

    def __init__(self, *args, **kwargs):
        super().__init__()  # PyTorch accepts (and ignores) any arguments, to stand in for any layer

    def forward(self, input):
        return input


class Linear(Module):
    """``y = x @ weight.T + bias``, with weight of shape (out_features, in_features).

    Both are initialised as PyTorch does: ``kaiming_uniform_(a=sqrt(5))`` for the
    weight, then U(-1/sqrt(in_features), 1/sqrt(in_features)) for the bias, drawn
    in that order from the generator that ``minigrad.manual_seed`` seeds.

    Args:
        in_features: size of each input sample.
        out_features: size of each output sample.
        bias: learn an additive bias (default True).
        device: only None or "cpu".
        dtype: the parameters' dtype (default float32).

    >>> import minigrad
    >>> layer = minigrad.nn.Linear(3, 2)
    >>> layer
    Linear(in_features=3, out_features=2, bias=True)
    >>> layer(minigrad.ones(4, 3)).shape
    minigrad.Size([4, 2])
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        dtype = _factory_kwargs(device, dtype)
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draw new initial values, PyTorch's way and in PyTorch's order (weight, then bias)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Flatten(Module):
    """Flatten dims ``start_dim`` to ``end_dim`` into one (by default all but the batch dim).

    >>> import minigrad
    >>> minigrad.nn.Flatten()(minigrad.ones(2, 3, 4)).shape
    minigrad.Size([2, 12])
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        normalize_dim((self.start_dim, self.end_dim), input.ndim)  # PyTorch's IndexError for a dim too far
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size`` (the inverse of ``Flatten``).

    >>> import minigrad
    >>> minigrad.nn.Unflatten(1, (3, 4))(minigrad.ones(2, 12)).shape
    minigrad.Size([2, 3, 4])
    """

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size)

    def forward(self, input):
        (dim,) = normalize_dim(self.dim, input.ndim)
        sizes = list(self.unflattened_size)
        known = math.prod(s for s in sizes if s != -1)
        if sizes.count(-1) == 1 and known and input.shape[dim] % known == 0:
            sizes[sizes.index(-1)] = input.shape[dim] // known
        if math.prod(sizes) != input.shape[dim]:
            raise RuntimeError(f"unflatten: Provided sizes {list(self.unflattened_size)} don't multiply up to the "
                               f"size of dim {self.dim} ({input.shape[dim]}) in the input tensor")
        return input.view(*input.shape[:dim], *sizes, *input.shape[dim + 1:])

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class Dropout(Module):
    """While training, zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    In evaluation mode (``model.eval()``) it passes its input through.

    >>> import minigrad
    >>> drop = minigrad.nn.Dropout(0.2).eval()
    >>> drop(minigrad.ones(3))
    tensor([1., 1., 1.])
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Embedding(Module):
    """A lookup table: row ``i`` of ``weight`` (num_embeddings, embedding_dim) for each index ``i``.

    The weight starts as N(0, 1) draws (the ``padding_idx`` row zero, and it gets no gradient).

    >>> import minigrad
    >>> emb = minigrad.nn.Embedding(10, 3)
    >>> emb(minigrad.tensor([[1, 2], [3, 4]])).shape
    minigrad.Size([2, 2, 3])
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        dtype = _factory_kwargs(device, dtype)
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise NotImplementedError("minigrad's Embedding does not implement max_norm, scale_grad_by_freq "
                                      "or sparse")
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(empty(num_embeddings, embedding_dim, dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self):
        """N(0, 1) draws, with the padding row set to zero."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        """An Embedding whose weight is ``embeddings`` (frozen unless ``freeze=False``).

        >>> import minigrad
        >>> minigrad.nn.Embedding.from_pretrained(minigrad.eye(2))(minigrad.tensor([1]))
        tensor([[0., 1.]])
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings,
                   _freeze=freeze)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        return text
