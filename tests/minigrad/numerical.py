"""Finite differences in float64: the yardstick the op table's backward checks use.

A derivative is the limit of a difference quotient; with a small step ``eps``
the *central* quotient ``(f(x + eps) - f(x - eps)) / (2 eps)`` is off by about
``eps**2`` (the first-order error terms cancel), so in float64 with
``eps = 1e-6`` it agrees with an exact gradient to roughly 1e-9.

Everything here works on NumPy arrays and plain functions, so it knows nothing
about minigrad: that is what makes it an independent check.

>>> import numpy as np
>>> numerical_gradients(lambda x: float(np.sum(x ** 3)), [np.array([1.0, 2.0])])[0].round(6)
array([ 3., 12.])
"""

import numpy as np

EPS = 1e-6


def numerical_gradients(scalar_fn, arrays, eps=EPS):
    """The gradient of a scalar function of several arrays, by central differences.

    Each element of each array is nudged by ``+eps`` and ``-eps`` in turn
    (2 calls per element), so keep the arrays small.

    Args:
        scalar_fn: ``scalar_fn(*arrays) -> float``. It is called with float64
            copies of ``arrays`` and must not keep or change them.
        arrays: the points at which to differentiate, one array per argument.
        eps: the step.

    Returns:
        list of float64 arrays, ``d scalar_fn / d arrays[i]``, each of
        ``arrays[i]``'s shape.
    """
    points = [np.array(a, dtype=np.float64) for a in arrays]  # private copies we may nudge
    gradients = []
    for point in points:
        gradient = np.zeros_like(point)
        for index in np.ndindex(point.shape):  # also visits the one element of a 0-d array
            original = point[index]
            point[index] = original + eps
            above = scalar_fn(*points)
            point[index] = original - eps
            below = scalar_fn(*points)
            point[index] = original
            gradient[index] = (above - below) / (2 * eps)
        gradients.append(gradient)
    return gradients


def numerical_vjp(fn, arrays, v, eps=EPS):
    """The vector-Jacobian product ``v^T J`` of ``fn`` at ``arrays``, by central differences.

    It is the gradient of the scalar ``<v, fn(*arrays)>``: exactly what
    ``fn(...).backward(gradient=v)`` leaves in each input's ``.grad``.

    Args:
        fn: ``fn(*arrays) -> array-like`` (anything ``np.asarray`` accepts).
        arrays: the inputs, one array per argument of ``fn``.
        v: the vector, of ``fn``'s output shape.
        eps: the step.

    Returns:
        list of float64 arrays, one per input, each of that input's shape.

    >>> import numpy as np
    >>> x, y = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    >>> [g.round(6) for g in numerical_vjp(np.multiply, [x, y], np.array([1.0, 10.0]))]
    [array([ 3., 40.]), array([ 1., 20.])]
    """
    v = np.asarray(v, dtype=np.float64)

    def inner_product(*points):
        return float(np.sum(v * np.asarray(fn(*points), dtype=np.float64)))

    return numerical_gradients(inner_product, arrays, eps)
