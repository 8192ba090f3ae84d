"""Convolution and max pooling over images (N, C, H, W), as PyTorch records them.

Both are built on one pair of adjoint nodes: ``Unfold`` (im2col: every kernel-sized patch of
the padded image becomes a column) and ``Fold`` (col2im: columns added back into an image).
Each is the other's backward, so the convolution's gradients, written with them and matmuls,
can be differentiated again.
"""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..graph import Node
from ..tensor import Tensor
from .nn import EmbeddingDenseBackward


def _output_size(size, kernel, stride, padding):
    return (size + 2 * padding - kernel) // stride + 1


def _patches(x, kernel, stride, padding, pad_value=0.0):
    """(N, C, Ho, Wo, kh, kw): a strided view of every kernel-sized window of the padded ``x``."""
    (ph, pw) = padding
    if ph or pw:
        x = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=pad_value)
    windows = sliding_window_view(x, kernel, axis=(2, 3))
    return windows[:, :, ::stride[0], ::stride[1]]


class Unfold(Node):
    """cols[n, (c, i, j), (h, w)] = x_padded[n, c, h*sh + i, w*sw + j]        grad_x = Fold(grad)"""

    input_names = ("self",)
    saved_params = ("kernel_size", "stride", "padding")

    def forward(self, x, kernel_size, stride, padding):
        self.kernel_size, self.stride, self.padding, self.image_size = kernel_size, stride, padding, x.shape[2:]
        p = _patches(x, kernel_size, stride, padding)
        n, c, ho, wo, kh, kw = p.shape
        return np.ascontiguousarray(p.transpose(0, 1, 4, 5, 2, 3)).reshape(n, c * kh * kw, ho * wo)

    def backward(self, grad):
        return Fold.apply(grad, image_size=self.image_size, kernel_size=self.kernel_size, stride=self.stride,
                          padding=self.padding)


class Fold(Node):
    """x[n, c, h*sh + i, w*sw + j] += cols[n, (c, i, j), (h, w)] (padding cut off)        grad_cols = Unfold(grad)"""

    may_warn = True

    input_names = ("self",)
    saved_params = ("kernel_size", "stride", "padding")

    def forward(self, cols, image_size, kernel_size, stride, padding):
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        (kh, kw), (sh, sw), (ph, pw) = kernel_size, stride, padding
        height, width = image_size[0] + 2 * ph, image_size[1] + 2 * pw
        ho, wo = _output_size(image_size[0], kh, sh, ph), _output_size(image_size[1], kw, sw, pw)
        n = cols.shape[0]
        blocks = cols.reshape(n, -1, kh, kw, ho, wo)
        out = np.zeros((n, blocks.shape[1], height, width), dtype=cols.dtype)
        for i in range(kh):  # one strided add per kernel position: kh * kw NumPy calls, not one per pixel
            for j in range(kw):
                out[:, :, i:i + sh * ho:sh, j:j + sw * wo:sw] += blocks[:, :, i, j]
        return out[:, :, ph:height - ph, pw:width - pw]

    def backward(self, grad):
        return Unfold.apply(grad, kernel_size=self.kernel_size, stride=self.stride, padding=self.padding)


class Convolution(Node):
    """z[n, o] = sum_c x[n, c] (cross-correlated with) w[o, c] + b[o]

    With cols = Unfold(x) (N, C*kh*kw, L) and W = w viewed as (O, C*kh*kw):
    z = W @ cols + b,  grad_x = Fold(W.T @ grad),  grad_w = sum_n grad @ cols.T,  grad_b = sum of grad.
    """

    may_warn = True

    saves = ("input", "weight")
    input_names = ("input", "weight", "bias")
    saved_params = ("stride", "padding")

    def forward(self, x, w, b, stride, padding):
        self.stride, self.padding = stride, padding
        kernel = w.shape[2:]
        cols = Unfold().forward(x, kernel, stride, padding)
        ho, wo = (_output_size(x.shape[2 + d], kernel[d], stride[d], padding[d]) for d in range(2))
        out = np.matmul(w.reshape(w.shape[0], -1), cols) + b[:, None]
        return out.reshape(x.shape[0], w.shape[0], ho, wo)

    def backward(self, grad):
        x, w = self.saved_tensors
        n, o = grad.shape[:2]
        g = grad.reshape(n, o, -1)
        flat_w = w.reshape(o, -1)
        grad_x = grad_w = None
        if self.needs_input_grad[0]:
            grad_x = Fold.apply(flat_w.t() @ g, image_size=x.shape[2:], kernel_size=w.shape[2:], stride=self.stride,
                                padding=self.padding)
        if self.needs_input_grad[1]:
            cols = Unfold.apply(x, kernel_size=w.shape[2:], stride=self.stride, padding=self.padding)
            grad_w = (g @ cols.transpose(1, 2)).sum(0).reshape(*w.shape)
        grad_b = grad.sum((0, 2, 3)) if self.needs_input_grad[2] else None
        return grad_x, grad_w, grad_b


class MaxPool2DWithIndices(Node):
    """z[n, c, h, w] = max of x over the window at (h, w)        grad_x = grad added at each window's argmax"""

    input_names = ("self",)
    saved_arrays = ("indices",)
    saved_params = ("kernel_size", "stride", "padding")

    def forward(self, x, kernel_size, stride, padding):
        self.kernel_size, self.stride, self.padding, self.shape = kernel_size, stride, padding, x.shape
        p = _patches(x, kernel_size, stride, padding, pad_value=-np.inf)
        n, c, ho, wo, kh, kw = p.shape
        flat = p.reshape(n, c, ho, wo, kh * kw)
        arg = flat.argmax(-1)
        # The flat position of each maximum in x (PyTorch's `indices`, counted per channel).
        i, j = np.divmod(arg, kw)
        rows = np.arange(ho)[:, None] * stride[0] + i - padding[0]
        cols = np.arange(wo)[None, :] * stride[1] + j - padding[1]
        self.indices = rows * x.shape[3] + cols
        return np.take_along_axis(flat, arg[..., None], -1)[..., 0]

    @property
    def _saved_indices(self):
        return Tensor._wrap(self._array("indices"))

    def backward(self, grad):
        n, c, height, width = self.shape
        plane = height * width
        flat_index = self._array("indices") + (np.arange(n * c) * plane).reshape(n, c, 1, 1)
        # A scatter-add of grad into the argmax positions: Embedding's backward, over single values.
        grad_x = EmbeddingDenseBackward.apply(grad.reshape(-1, 1), indices=flat_index.reshape(-1),
                                              num_weights=n * c * plane)
        return grad_x.reshape(n, c, height, width)
