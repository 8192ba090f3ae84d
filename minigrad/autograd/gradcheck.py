"""``gradcheck`` and ``gradgradcheck``: test a backward against finite differences.

The Jacobian ``J[k, j] = d output[j] / d input[k]`` is computed twice:

* **numerically**, one column per input element: nudge ``x[k]`` by ``-eps`` and
  ``+eps`` and take the central difference ``(f(x + eps) - f(x - eps)) / (2 eps)``;
* **analytically**, one row per output element: ask autograd for the
  vector-Jacobian product with the basis vector ``e_j`` as ``grad_outputs``.

The two must agree within ``allclose(analytical, numerical, rtol, atol)``.
Both matrices are laid out as PyTorch lays them out, ``(input.numel(),
output.numel())``, so a failure prints the same picture PyTorch prints.

Finite differences need float64: in float32, ``eps=1e-6`` is lost in rounding,
which is why a float32 input draws PyTorch's warning.
"""

import warnings

import numpy as np

from ..graph import Node
from ..tensor import Tensor

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` and ``gradgradcheck`` when a gradient is wrong."""


_FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

_FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _grad(*args, **kwargs):
    # autograd/__init__.py imports this module before it defines grad().
    from . import grad

    return grad(*args, **kwargs)


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_float_tensor(x):
    return isinstance(x, Tensor) and x.dtype.kind == "f"


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _diff_inputs(inputs):
    return [x for x in inputs if isinstance(x, Tensor) and x.requires_grad]


def _fmt(array):
    """A Jacobian as PyTorch prints it in messages: a tensor, or a 0-d one as a plain number."""
    return str(array.item()) if array.ndim == 0 else repr(Tensor._wrap(array))


# --- checks on the arguments ------------------------------------------------------


def _check_inputs(inputs):
    any_requires_grad = False
    for idx, x in enumerate(inputs):
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        if x.dtype != np.float64:
            warnings.warn(
                f"Input #{idx} requires gradient and "
                "is not a double precision floating point or complex. "
                "This check will likely fail if all the inputs are "
                "not of double precision floating point or complex. ",
                UserWarning, stacklevel=4)
        # Nudging one element of an expanded tensor would nudge all its copies.
        if any(st == 0 and sz > 1 for st, sz in zip(x._data.strides, x._data.shape)):
            raise RuntimeError(
                f"The {idx}th input has a dimension with stride 0. gradcheck only "
                "supports inputs that are non-overlapping to be able to "
                "compute the numerical gradients correctly. You should call "
                ".contiguous on the input before passing it to gradcheck.")
        any_requires_grad = True
    if not any_requires_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, "
            "but none of them have requires_grad=True.")


# --- the numerical Jacobian: central differences -----------------------------------


def _outputs_now(func, inputs):
    """Copies of the float outputs (func may return an input itself, which we are nudging)."""
    return [o._data.copy() for o in _as_tuple(func(*inputs)) if _is_float_tensor(o)]


def _central_difference(func, inputs, data, index, delta, eps):
    """``(f(x + delta) - f(x - delta)) / (2 eps)`` for each float output, flattened.

    ``data`` is the input's own array: writing into it changes the input
    without a version bump, as PyTorch's ``x.data`` does, so the graph that
    ``func`` builds is the graph of the original tensor.
    """
    original = data[index].copy()
    data[index] = original - delta
    before = _outputs_now(func, inputs)
    data[index] = original + delta
    after = _outputs_now(func, inputs)
    data[index] = original
    columns = []
    for a, b in zip(before, after):
        if a.shape != b.shape or a.dtype != b.dtype:
            raise AssertionError(
                "Expected `func` to return outputs with the same shape and dtype when inputs are "
                f"perturbed by {eps}, but got shapes {a.shape} and {b.shape}, dtypes {a.dtype} and {b.dtype}.")
        columns.append(((b - a) / (2 * eps)).reshape(-1))
    return columns


def _numerical_jacobians(func, inputs, float_outputs, eps):
    """``result[i][j]``: the Jacobian of float output j w.r.t. differentiable input i."""
    result = []
    for x in _diff_inputs(inputs):
        data = x._data
        jacobians = [np.zeros((data.size, o.numel()), dtype=o.dtype) for o in float_outputs]
        for k, index in enumerate(np.ndindex(data.shape)):
            for jacobian, column in zip(jacobians, _central_difference(func, inputs, data, index, eps, eps)):
                jacobian[k] = column
        result.append(jacobians)
    return result


# --- the analytical Jacobian: one vector-Jacobian product per output element ---------


def _vjp_rows(diff_inputs, output, vectors):
    """For each vector v (flat, output-sized): the gradients ``v^T J`` w.r.t. every input."""
    rows = []
    for v in vectors:
        grad_output = Tensor._wrap(v.reshape(output.shape))
        grads = _grad(output, diff_inputs, grad_output, retain_graph=True, allow_unused=True)
        rows.append([None if g is None else g._data.copy() for g in grads])
    return rows


def _stack_rows(diff_inputs, rows, n_rows, check_grad_dtypes):
    """Put row r of each input's Jacobian in column r, as PyTorch does; check sizes and dtypes."""
    jacobians = [np.zeros((x.numel(), n_rows), dtype=x.dtype) for x in diff_inputs]
    for r, grads in enumerate(rows):
        for jacobian, x, g in zip(jacobians, diff_inputs, grads):
            if g is None:
                continue  # the output does not depend on x: that column stays 0
            if g.shape != x.shape:
                raise GradcheckError("Analytical gradient has incorrect size")
            if check_grad_dtypes and g.dtype != x.dtype:
                raise GradcheckError("Gradient has dtype mismatch")
            jacobian[:, r] = g.reshape(-1)
    return jacobians


def _analytical_jacobians(inputs, output, nondet_tol, check_grad_dtypes, vectors):
    """The Jacobian rows (or products with ``vectors``), computed twice to catch nondeterminism."""
    diff_inputs = _diff_inputs(inputs)
    first, second = (
        _stack_rows(diff_inputs, _vjp_rows(diff_inputs, output, vectors), len(vectors), check_grad_dtypes)
        for _ in range(2))
    for a, b in zip(first, second):
        if a.size and np.abs(a - b).max() > nondet_tol:
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with "
                "same input and grad_output multiple times gives different values, "
                "although analytical gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}." + _FAILED_NONDET_MSG)
    return first


def _basis(output):
    """The rows of the identity: grad_outputs that pick out one output element each."""
    return list(np.eye(output.numel(), dtype=output.dtype))


def _allclose(a, n, rtol, atol):
    dtype = np.promote_types(a.dtype, n.dtype)
    return np.allclose(a.astype(dtype), n.astype(dtype), rtol=rtol, atol=atol)


def _mismatch(a, n, output_idx, input_idx):
    return (f"Jacobian mismatch for output {output_idx:d} with respect to input {input_idx:d},\n"
            f"numerical:{_fmt(n)}\nanalytical:{_fmt(a)}\n")


# --- slow mode: whole Jacobians ------------------------------------------------------


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    float_outputs = [o for o in _as_tuple(func_out) if _is_float_tensor(o)]
    numerical = _numerical_jacobians(func, inputs, float_outputs, eps)
    if not outputs:
        # Nothing is differentiable, so the function must not change at all.
        if any(np.any(n != 0) for per_input in numerical for n in per_input):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    keep = [k for k, o in enumerate(float_outputs) if o.requires_grad]
    for i, output in enumerate(outputs):
        analytical = _analytical_jacobians(inputs, output, nondet_tol, check_grad_dtypes, _basis(output))
        for j, a in enumerate(analytical):
            n = numerical[j][keep[i]]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_mismatch(a, n, i, j))


# --- fast mode: compare v^T J u, two numbers instead of two matrices -----------------


def _random_unit(rng, n, dtype):
    vec = rng.random(n).astype(dtype)
    return vec / np.linalg.norm(vec)


def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    # Our own generator, so a user's seeded random stream is left alone (as in PyTorch).
    rng = np.random.default_rng(0)
    diff_inputs = _diff_inputs(inputs)
    all_u = [_random_unit(rng, x.numel(), x.dtype) for x in diff_inputs]
    all_v = [_random_unit(rng, o.numel(), o.dtype) for o in outputs]
    float_outputs = [o for o in _as_tuple(func_out) if _is_float_tensor(o)]
    keep = [k for k, o in enumerate(float_outputs) if o.requires_grad]

    # Numerical J u: nudge the whole input at once along u.
    all_ju = []
    for x, u in zip(diff_inputs, all_u):
        delta = (u * eps).reshape(x.shape)
        all_ju.append(_central_difference(func, inputs, x._data, ..., delta, eps))
    if not outputs:
        if any(ju.size and np.abs(ju).max() > nondet_tol for per_input in all_ju for ju in per_input):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return

    for j, (output, v) in enumerate(zip(outputs, all_v)):
        # Analytical v^T J, one row per input, then dotted with u.
        vjs = _analytical_jacobians(inputs, output, nondet_tol, check_grad_dtypes, [v])
        for i, (vj, u) in enumerate(zip(vjs, all_u)):
            a = np.dot(vj[:, 0], u)
            n = np.dot(v, all_ju[i][keep[j]])
            # atol is per Jacobian entry; v^T (atol * ones) u = atol * sum(u) * sum(v).
            if not _allclose(a, n, rtol, atol * float(u.sum()) * float(v.sum())):
                raise GradcheckError(_mismatch(a, n, j, i) + _slow_mode_report(
                    func, inputs, float_outputs, keep[j], output, i, eps, rtol, atol))


def _slow_mode_report(func, inputs, float_outputs, numerical_idx, output, input_idx, eps, rtol, atol):
    """Recompute one whole Jacobian pair, to show what fast mode only summarised."""
    n = _numerical_jacobians(func, inputs, float_outputs, eps)[input_idx][numerical_idx]
    a = _analytical_jacobians(inputs, output, float("inf"), False, _basis(output))[input_idx]
    msg = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
        "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
        f"Numerical:\n {_fmt(n)}\n"
        f"Analytical:\n{_fmt(a)}\n\n"
        f"The max per-element difference (slow mode) is: {np.abs(n - a).max()}.\n")
    if _allclose(a, n, rtol, atol):
        msg += _FAST_FAIL_SLOW_OK_MSG
    return msg


# --- checks after the Jacobians ------------------------------------------------------


def _test_backward_mul_by_grad_output(outputs, inputs, masked):
    """A zero grad_output must give zero gradients: backward multiplies by it."""
    diff_inputs = _diff_inputs(inputs)
    zeros = [Tensor._wrap(np.zeros(o.shape, dtype=o.dtype)) for o in outputs]
    grads = _grad(outputs, diff_inputs, zeros, allow_unused=True)
    for g, x in zip(grads, diff_inputs):
        if g is None:
            continue
        is_zero = np.allclose(g._data, 0) if masked else not np.any(g._data)
        if not is_zero:
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype != x.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")


class _UndefinedGrad(Node):
    """z = x, but backward sends *no* gradient (None): an undefined output gradient."""

    def forward(self, x):
        return x

    def backward(self, grad):
        return None


def _test_undefined_backward_mode(func, inputs):
    """Backward must cope when some output gradients are undefined (None), treating them as 0."""
    diff_inputs = _diff_inputs(inputs)

    def warn_bc_breaking():
        warnings.warn(
            "Backwards compatibility: New undefined gradient support checking "
            "feature is enabled by default, but it may break existing callers "
            "of this function. If this is true for you, you can call this "
            'function with "check_undefined_grad=False" to disable the feature',
            UserWarning, stacklevel=6)

    def check(outputs):
        zeros = [Tensor._wrap(np.zeros(o.shape, dtype=o.dtype)) for o in outputs]
        try:
            grads = _grad(outputs, diff_inputs, zeros, allow_unused=True)
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. "
                'Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"') from e
        if any(g is not None and np.any(g._data) for g in grads):
            warn_bc_breaking()
            raise GradcheckError(
                "Expected all input grads to be undefined or zero when all output grads are undefined "
                'or zero. Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"')

    # All output gradients undefined, then (with several outputs) one at a time.
    check([_UndefinedGrad.apply(o) for o in _differentiable_outputs(func(*inputs))])
    n_outputs = len(_differentiable_outputs(func(*inputs)))
    if n_outputs > 1:
        for undefined in range(n_outputs):
            outputs = _differentiable_outputs(func(*inputs))
            check([_UndefinedGrad.apply(o) if k == undefined else o for k, o in enumerate(outputs)])


# --- the public functions ------------------------------------------------------------


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """Check the gradients of ``func`` against finite differences, as PyTorch's gradcheck does.

    For every input that requires grad and every output, the numerical Jacobian
    (central differences) must match the analytical one (autograd's vector-Jacobian
    products, one row at a time) within ``allclose(analytical, numerical, rtol, atol)``.
    Then backward must return zero gradients for zero ``grad_outputs``, and cope
    with undefined (None) output gradients.

    Args:
        func: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of them (other values are passed through);
            use float64 inputs, the defaults are tuned for double precision.
        eps: the finite-difference step.
        atol: absolute tolerance.
        rtol: relative tolerance.
        raise_exception: raise ``GradcheckError`` on a failure (else return False).
        nondet_tol: how much two backward runs with the same inputs may differ.
        check_undefined_grad: also check that undefined output gradients work.
        check_grad_dtypes: also check each gradient has its input's dtype.
        check_batched_grad: not implemented (minigrad has no vmap).
        check_batched_forward_grad: not implemented (no forward-mode AD).
        check_forward_ad: not implemented (no forward-mode AD).
        check_backward_ad: must stay True (it is the only mode minigrad has).
        fast_mode: compare the scalars ``v^T J u`` for random unit ``u``, ``v``
            instead of whole Jacobians.
        masked: for sparse tensors in PyTorch; on dense tensors it only relaxes the
            zero-gradient check to ``allclose``.

    Returns:
        True if every check passed (False instead of raising if ``raise_exception=False``).

    Raises:
        GradcheckError: (a RuntimeError) when a gradient does not match.
        ValueError: when no input requires grad.
        NotImplementedError: for the PyTorch options minigrad does not implement.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    >>> minigrad.autograd.gradcheck(lambda t: (t ** 3).sum(), (x,))
    True
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    if check_forward_ad or check_batched_forward_grad or not check_backward_ad:
        raise NotImplementedError("minigrad has no forward-mode AD: only check_backward_ad=True is implemented")
    if check_batched_grad:
        raise NotImplementedError("minigrad has no vmap: check_batched_grad=True is not implemented")
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                          check_grad_dtypes, fast_mode, masked)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
               fast_mode, masked):
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    func_out = func(*inputs)
    outputs = _differentiable_outputs(func_out)
    check = _fast_gradcheck if fast_mode else _slow_gradcheck
    check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)
    if outputs:
        _test_backward_mul_by_grad_output(outputs, inputs, masked)
        if check_undefined_grad:
            _test_undefined_backward_mode(func, inputs)
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Check second derivatives: ``gradcheck`` of the backward pass of ``func``.

    The function checked is ``(inputs, grad_outputs) -> autograd.grad(func(inputs),
    inputs, grad_outputs, create_graph=True)``, so its own backward is the
    backward of the backward (double backward).

    Args:
        func: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of them.
        grad_outputs: the gradients with respect to the outputs of ``func``; by
            default random values in [-1, 1) from minigrad's seeded generator.
        eps: the finite-difference step.
        atol: absolute tolerance.
        rtol: relative tolerance.
        gen_non_contig_grad_outputs: make the random ``grad_outputs`` non-contiguous.
        raise_exception: raise ``GradcheckError`` on a failure (else return False).
        nondet_tol: how much two backward runs with the same inputs may differ.
        check_undefined_grad: also check that undefined output gradients work.
        check_grad_dtypes: also check each gradient has its input's dtype.
        check_batched_grad: not implemented (minigrad has no vmap).
        check_fwd_over_rev: not implemented (no forward-mode AD).
        check_rev_over_rev: must stay True.
        fast_mode: see ``gradcheck``.
        masked: see ``gradcheck``.

    Returns:
        True if every check passed (False instead of raising if ``raise_exception=False``).

    Raises:
        GradcheckError: (a RuntimeError) when a second derivative does not match.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    >>> minigrad.autograd.gradgradcheck(lambda t: t ** 3, (x,))
    True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs)
                             for o in _differentiable_outputs(func(*inputs)))
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_outputs = len(grad_outputs)
    diff_input_positions = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def backward_of_func(*args):
        outputs = _differentiable_outputs(func(*args[:-n_outputs]))
        diff_inputs = [args[i] for i in diff_input_positions]
        grads = _grad(outputs, diff_inputs, args[-n_outputs:], create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(backward_of_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev,
                     masked=masked)


def _random_grad_output(output, non_contiguous):
    """Uniform in [-1, 1), in the output's dtype (float64 for a non-float output)."""
    from ..creation import rand

    dtype = output.dtype if output.dtype.kind == "f" else np.dtype(np.float64)
    values = (rand(*output.shape, dtype=dtype) * 2 - 1)._data
    if non_contiguous:
        # Every other element of a buffer twice as large: same values, strided memory.
        buffer = np.zeros(output.shape + (2,), dtype=dtype)
        buffer[..., 0] = values
        values = buffer[..., 0]
    t = Tensor._wrap(values)
    t.requires_grad = True
    return t
