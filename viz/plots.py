"""Matplotlib helpers for the notebooks: tangents, gradient fields, loss curves, gradient checks.

Every derivative drawn here comes from minigrad's autograd (``autograd.grad``),
never from finite differences; only ``compare_gradients`` computes finite
differences too, because putting the two side by side is its whole point.

Each function draws on the Axes you pass (or on a new figure), returns what it
drew, and never calls ``plt.show()``: Jupyter shows the figure when the cell
ends. Points and gradients are computed in float64, so the numbers a learner
checks by hand match the picture.
"""

import numpy as np

import minigrad

__all__ = [
    "plot_tangent", "plot_gradient_field", "descend", "plot_loss_curve", "compare_gradients",
    "GradientComparison",
]

_CURVE_POINTS = 201  # samples of a 1-D curve; odd, so the default range's middle sample is x0
_CONTOUR_POINTS = 60  # samples per axis for contour lines (arrows use ``density``)
_BARS_UP_TO = 20  # compare_gradients plots bars up to this many elements, then a scatter
_REPR_ROWS = 12  # rows of the comparison table shown before "... more"
# Finite differences in float64 with eps=1e-6 carry rounding noise around 1e-10,
# which changes with the CPU's math library: the text shows errors below this as
# "< 1e-08" so notebook outputs stay the same from machine to machine.
_ERROR_FLOOR = 1e-8


# --- evaluating a learner's function -------------------------------------------------


def _new_axes(ax, figsize):
    """The Axes to draw on: the given one, or the Axes of a new figure."""
    if ax is not None:
        return ax
    # Imported here, so ``import viz`` does not pick a plotting backend.
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


def _check_scalar(out):
    """``out`` if it is a one-element minigrad Tensor; a clear error otherwise."""
    if not isinstance(out, minigrad.Tensor):
        raise TypeError(f"fn must return a minigrad Tensor, got {type(out).__name__}")
    if out.numel() != 1:
        raise ValueError(f"fn must return a single number, got a tensor of shape {tuple(out.shape)}; "
                         "reduce it first, for example with .sum()")
    return out


def _value_at(fn, point):
    """``fn`` at ``point`` (a float or an array) as a Python float, without recording a graph."""
    with minigrad.no_grad():
        return float(_check_scalar(fn(minigrad.tensor(np.asarray(point, dtype=np.float64)))).item())


def _value_and_grad(fn, point):
    """``(fn(point), d fn / d point)`` as ``(float, ndarray)``, the gradient from autograd."""
    x = minigrad.tensor(np.asarray(point, dtype=np.float64), requires_grad=True)
    with minigrad.enable_grad():  # a caller inside no_grad still gets a gradient
        y = _check_scalar(fn(x))
    if not y.requires_grad:  # fn ignored its input: the gradient is zero
        return float(y.item()), np.zeros_like(x.detach().numpy())
    (g,) = minigrad.autograd.grad(y, x, materialize_grads=True)  # zeros if y does not use x
    return float(y.item()), np.asarray(g.numpy(), dtype=np.float64)


def _as_float(value):
    """A loss as a Python float: from a number or a one-element tensor."""
    if isinstance(value, minigrad.Tensor):
        return float(value.item())
    return float(value)


# --- a function and its tangent ----------------------------------------------------------


def plot_tangent(fn, x0, *, xlim=None, ax=None):
    """Plot ``fn`` and its tangent line at ``x0``; the slope comes from autograd.

    Args:
        fn: a function of a 0-d minigrad tensor returning a 0-d tensor,
            e.g. ``lambda x: x ** 3``. It is called once per plotted point.
        x0: where to draw the tangent (a number or a 0-d tensor).
        xlim: ``(low, high)`` range of x; default ``(x0 - 2, x0 + 2)``.
        ax: the matplotlib Axes to draw on; default a new figure.

    Returns:
        ``(ax, slope)``: the Axes drawn on and ``fn'(x0)`` as a float. The
        y-range follows the curve, so a steep tangent does not flatten it.

    >>> from matplotlib.figure import Figure
    >>> ax, slope = plot_tangent(lambda x: x ** 3, 2.0, ax=Figure().subplots())
    >>> slope
    12.0
    >>> [line.get_label() for line in ax.get_lines()]
    ['f(x)', 'tangent, slope 12', 'x0']
    """
    x0 = float(x0)
    low, high = (x0 - 2.0, x0 + 2.0) if xlim is None else (float(xlim[0]), float(xlim[1]))
    y0, grad = _value_and_grad(fn, x0)
    slope = float(grad)
    xs = np.linspace(low, high, _CURVE_POINTS)
    ys = np.array([_value_at(fn, x) for x in xs])

    ax = _new_axes(ax, figsize=(6, 4))
    ax.plot(xs, ys, color="C0", label="f(x)")
    ax.plot(xs, y0 + slope * (xs - x0), "--", color="C1", label=f"tangent, slope {slope:.4g}")
    ax.plot([x0], [y0], "o", color="C1", label="x0")
    finite = ys[np.isfinite(ys)]
    if finite.size:
        pad = 0.1 * (finite.max() - finite.min()) or 1.0  # a flat curve still gets some room
        ax.set_ylim(finite.min() - pad, finite.max() + pad)
    ax.set_xlim(low, high)
    ax.set_xlabel("x")
    ax.set_ylabel("f(x)")
    ax.set_title(f"f and its tangent at x0 = {x0:g}")
    ax.legend(loc="best")
    return ax, slope


# --- 2-D surfaces: gradient field and descent path ---------------------------------------


def descend(fn, start, lr, steps):
    """Run plain gradient descent ``x <- x - lr * grad fn(x)`` and return every point visited.

    Args:
        fn: a function of a 1-D minigrad tensor returning a single number.
        start: the first point (a list, an array or a tensor), e.g. ``[1.5, -1.0]``.
        lr: the learning rate (step size).
        steps: how many updates to make.

    Returns:
        A float64 NumPy array of shape ``(steps + 1, len(start))``: row 0 is
        ``start``, row k the point after k updates.

    >>> path = descend(lambda p: (p ** 2).sum(), [1.0, -2.0], lr=0.25, steps=2)
    >>> path.tolist()
    [[1.0, -2.0], [0.5, -1.0], [0.25, -0.5]]
    """
    if steps < 0:
        raise ValueError(f"steps must be at least 0, got {steps}")
    # NB: float64 whatever the start's dtype, so the path matches arithmetic by hand.
    x = minigrad.tensor(np.asarray(start, dtype=np.float64), requires_grad=True)
    path = [x.detach().numpy().copy()]
    for _ in range(steps):
        (g,) = minigrad.autograd.grad(_check_scalar(fn(x)), x)
        with minigrad.no_grad():  # the update is not part of any graph
            x = x - lr * g
        x.requires_grad_()
        path.append(x.detach().numpy().copy())
    return np.stack(path)


def plot_gradient_field(fn, *, xlim, ylim, path=None, ax=None, density=15, levels=20, normalize=False):
    """Draw contours of ``fn``, arrows of its negative gradient, and optionally a descent path.

    Args:
        fn: a function of a length-2 minigrad tensor ``p`` returning a single
            number, e.g. ``lambda p: p[0] ** 2 + 3 * p[1] ** 2``.
        xlim: ``(low, high)`` range of ``p[0]``.
        ylim: ``(low, high)`` range of ``p[1]``.
        path: points to draw on top, in order (e.g. from ``descend``).
        ax: the matplotlib Axes to draw on; default a new figure.
        density: arrows per axis (a ``density x density`` grid).
        levels: contour levels, as matplotlib's ``contour`` takes them.
        normalize: draw every arrow with the same length (direction only),
            for surfaces whose gradients differ by orders of magnitude.

    Returns:
        The Axes drawn on. Arrows are ``-grad fn`` from autograd at each grid
        point (``ax.collections`` holds the quiver; its ``U``/``V`` are the
        arrow components).

    >>> from matplotlib.figure import Figure
    >>> ax = plot_gradient_field(lambda p: (p ** 2).sum(), xlim=(-1, 1), ylim=(-1, 1),
    ...                          density=2, ax=Figure().subplots())
    >>> quiver = ax.collections[-1]   # arrows at (-1, -1), (1, -1), (-1, 1), (1, 1)
    >>> quiver.U.tolist(), quiver.V.tolist()
    ([2.0, -2.0, 2.0, -2.0], [2.0, 2.0, -2.0, -2.0])
    """
    ax = _new_axes(ax, figsize=(6, 5))

    xs = np.linspace(xlim[0], xlim[1], _CONTOUR_POINTS)
    ys = np.linspace(ylim[0], ylim[1], _CONTOUR_POINTS)
    gx, gy = np.meshgrid(xs, ys)  # rows follow p[1], columns p[0], as contour expects
    z = np.array([[_value_at(fn, (a, b)) for a, b in zip(row_x, row_y)] for row_x, row_y in zip(gx, gy)])
    ax.contour(gx, gy, z, levels=levels, cmap="viridis", linewidths=0.8)

    qx, qy = np.meshgrid(np.linspace(xlim[0], xlim[1], density), np.linspace(ylim[0], ylim[1], density))
    qx, qy = qx.ravel(), qy.ravel()
    grads = np.array([_value_and_grad(fn, (a, b))[1] for a, b in zip(qx, qy)])
    u, v = -grads[:, 0], -grads[:, 1]  # downhill: the way gradient descent moves
    if normalize:
        norm = np.hypot(u, v)
        norm[norm == 0] = 1.0  # a flat point keeps its zero arrow
        u, v = u / norm, v / norm
    ax.quiver(qx, qy, u, v, color="0.35", angles="xy")

    if path is not None:
        points = np.array([np.asarray(p, dtype=np.float64) for p in path]).reshape(-1, 2)
        ax.plot(points[:, 0], points[:, 1], "o-", color="C3", markersize=3, linewidth=1.2, label="path")
        ax.plot(points[0, 0], points[0, 1], "s", color="C3", markersize=7, label="start")
        ax.plot(points[-1, 0], points[-1, 1], "*", color="C3", markersize=11, label="end")
        ax.legend(loc="best", framealpha=0.9)

    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_xlabel("p[0]")
    ax.set_ylabel("p[1]")
    ax.set_title("contours of f and arrows of -grad f")
    return ax


# --- loss curves ------------------------------------------------------------------------


def plot_loss_curve(losses, *, ax=None, log=False, label=None):
    """Plot losses against the step number (0, 1, 2, ...).

    Args:
        losses: a sequence of floats or one-element tensors (``loss`` itself,
            no ``.item()`` needed), or a 1-D tensor or array.
        ax: the matplotlib Axes to draw on; default a new figure. Call again
            with the same ``ax`` and a ``label`` to compare runs.
        log: use a logarithmic loss axis.
        label: the curve's name in the legend (no legend without one).

    Returns:
        The Axes drawn on.

    >>> import minigrad
    >>> from matplotlib.figure import Figure
    >>> ax = plot_loss_curve([1.0, minigrad.tensor(0.5), 0.25], ax=Figure().subplots())
    >>> ax.get_lines()[0].get_ydata().tolist()
    [1.0, 0.5, 0.25]
    """
    values = np.array([_as_float(v) for v in losses], dtype=np.float64)
    ax = _new_axes(ax, figsize=(6, 4))
    ax.plot(np.arange(len(values)), values, label=label)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    if label is not None:
        ax.legend(loc="best")
    return ax


# --- autograd against finite differences ------------------------------------------------


def _element_labels(shapes, single):
    """``x[0]``, ``x[1, 2]`` for one input; ``x0[...]``, ``x1[...]`` for several."""
    labels = []
    for k, shape in enumerate(shapes):
        name = "x" if single else f"x{k}"
        for flat in range(int(np.prod(shape, dtype=np.int64))):
            index = np.unravel_index(flat, shape)
            labels.append(f"{name}[{', '.join(str(int(i)) for i in index)}]" if shape else name)
    return tuple(labels)


def _format_error(error):
    return f"< {_ERROR_FLOOR:.0e}" if error < _ERROR_FLOOR else f"{error:.1e}"


class GradientComparison:
    """Autograd's gradient next to central finite differences, one entry per input element.

    Attributes:
        autograd: float64 array, the gradient from ``autograd.grad``, all
            inputs flattened and concatenated.
        numeric: float64 array, ``(f(x + eps) - f(x - eps)) / (2 eps)`` per element.
        labels: which element each entry is (``"x[0]"``, ``"x1[2, 0]"``, ...).
        eps: the finite-difference step.
        error: ``|autograd - numeric|`` per element.
        max_abs_error: the largest of them, a float.
    """

    def __init__(self, autograd, numeric, labels, eps):
        self.autograd = autograd
        self.numeric = numeric
        self.labels = labels
        self.eps = eps
        self.error = np.abs(autograd - numeric)
        self.max_abs_error = float(self.error.max()) if self.error.size else 0.0

    def __repr__(self):
        n = len(self.labels)
        width = max([len("element")] + [len(label) for label in self.labels[:_REPR_ROWS]])
        lines = [f"GradientComparison: {n} element{'' if n == 1 else 's'}, eps={self.eps:g}, "
                 f"max abs error {_format_error(self.max_abs_error)}",
                 f"{'element':<{width}} {'autograd':>12} {'numeric':>12} {'abs error':>10}"]
        for label, a, g, e in list(zip(self.labels, self.autograd, self.numeric, self.error))[:_REPR_ROWS]:
            # "+ 0.0" turns -0.0 into 0.0, so a zero gradient prints the same either way.
            lines.append(f"{label:<{width}} {a + 0.0:>12.6g} {g + 0.0:>12.6g} {_format_error(e):>10}")
        if n > _REPR_ROWS:
            lines.append(f"... {n - _REPR_ROWS} more elements")
        return "\n".join(lines)

    def plot(self, ax=None, kind="auto"):
        """Show both gradients: paired bars per element, or autograd against numeric.

        Args:
            ax: the matplotlib Axes to draw on; default a new figure.
            kind: ``"bar"``, ``"scatter"`` (points on the line y = x when the
                two agree), or ``"auto"``: bars up to 20 elements, else scatter.

        Returns:
            The Axes drawn on.
        """
        if kind == "auto":
            kind = "bar" if len(self.labels) <= _BARS_UP_TO else "scatter"
        if kind not in ("bar", "scatter"):
            raise ValueError(f"kind must be 'auto', 'bar' or 'scatter', got {kind!r}")
        ax = _new_axes(ax, figsize=(6, 4))
        if kind == "bar":
            positions = np.arange(len(self.labels))
            ax.bar(positions - 0.2, self.autograd, width=0.4, color="C0", label="autograd")
            ax.bar(positions + 0.2, self.numeric, width=0.4, color="C1", label="finite differences")
            ax.set_xticks(positions, self.labels, rotation=45 if len(self.labels) > 8 else 0)
            ax.axhline(0.0, color="0.5", linewidth=0.8)
            ax.set_ylabel("gradient")
            ax.legend(loc="best")
        else:
            ax.scatter(self.numeric, self.autograd, s=12, color="C0", label="elements")
            both = np.concatenate([self.numeric, self.autograd])
            both = both[np.isfinite(both)]
            if both.size:
                ax.plot([both.min(), both.max()], [both.min(), both.max()], "--", color="0.5",
                        linewidth=0.8, label="y = x")
            ax.set_xlabel("finite differences")
            ax.set_ylabel("autograd")
            ax.legend(loc="best")
        ax.set_title(f"autograd vs finite differences, max abs error {_format_error(self.max_abs_error)}")
        return ax


def compare_gradients(fn, inputs, eps=1e-6):
    """Compare autograd's gradient of ``fn`` with central finite differences, element by element.

    Args:
        fn: a function of one tensor (or of several, given as a tuple)
            returning a single number.
        inputs: a tensor, or a tuple or list of tensors (arrays and lists work too).
        eps: the finite-difference step.

    Returns:
        A ``GradientComparison`` with both gradients, the error per element,
        ``max_abs_error``, a text table as its repr and a ``plot()`` method.

    >>> import minigrad
    >>> result = compare_gradients(lambda x: (x ** 2).sum(), minigrad.tensor([1.0, -3.0]))
    >>> result.autograd.tolist()
    [2.0, -6.0]
    >>> result.max_abs_error < 1e-6
    True
    >>> result
    GradientComparison: 2 elements, eps=1e-06, max abs error < 1e-08
    element     autograd      numeric  abs error
    x[0]               2            2    < 1e-08
    x[1]              -6           -6    < 1e-08
    """
    single = not isinstance(inputs, (tuple, list))
    # NB: copied to float64: float32 finite differences with eps=1e-6 are mostly rounding.
    arrays = [np.array(np.asarray(t), dtype=np.float64) for t in ((inputs,) if single else inputs)]

    xs = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    with minigrad.enable_grad():
        out = _check_scalar(fn(*xs))
    if out.requires_grad:
        grads = minigrad.autograd.grad(out, xs, materialize_grads=True)  # unused inputs: zeros
        autograd = np.concatenate([g.numpy().ravel() for g in grads])
    else:
        autograd = np.zeros(sum(a.size for a in arrays))

    numeric = []
    for k, array in enumerate(arrays):
        for flat in range(array.size):
            sides = []
            for delta in (eps, -eps):
                shifted = array.copy()
                shifted.flat[flat] += delta
                args = [minigrad.tensor(shifted if i == k else a) for i, a in enumerate(arrays)]
                with minigrad.no_grad():
                    sides.append(float(_check_scalar(fn(*args)).item()))
            numeric.append((sides[0] - sides[1]) / (2 * eps))

    labels = _element_labels([a.shape for a in arrays], single)
    return GradientComparison(autograd.astype(np.float64), np.array(numeric, dtype=np.float64), labels, eps)
