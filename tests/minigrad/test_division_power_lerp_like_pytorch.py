"""Four kernels where NumPy's everyday expression is not how PyTorch computes, checked against it.

1. Floor division (``div(..., rounding_mode="floor")``): PyTorch divides x - fmod(x, y) by y
   and corrects, as NumPy's ``floor_divide`` does; ``floor(x / y)`` rounds first, so
   ``1 // 0.1`` came out 10.0 (PyTorch: 9.0) and ``inf // 2`` inf (PyTorch: nan). The
   remainder's gradient for its divisor, ``-grad * (x // y)``, follows.
2. Remainder: an exact zero keeps the sign of x (``-4.0 % 2`` is -0.); NumPy gives it y's.
3. Powers PyTorch computes without pow: ``x ** -0.5`` is rsqrt (nan at -inf, where pow gives 0),
   ``x ** 3`` is x * x * x, ``x ** -2`` is 1 / (x * x); a float16 tensor gets pow for every
   exponent, 0.5 too (NumPy's ``**`` takes sqrt, nan at -inf where pow gives inf).
4. lerp: x + w (y - x) for |w| < 0.5, else y - (y - x)(1 - w), so at x = inf the far
   side gives inf, not inf - inf = nan.

Where the result is exact (floor division, remainder, the products, values at the edges)
it must be PyTorch's bit for bit, signed zeros and nans in place. Elsewhere PyTorch's own
vectorized sqrt and fused multiply-adds round differently from NumPy in the last bit, so the
values are compared to a few units in the last place.
"""

import numpy as np
import pytest

import minigrad

EDGES = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, -1.0, 4.0, 0.25, -4.0]
DTYPES = ["float16", "float32", "float64"]


def _operands(dtype, count=200, seed=0):
    """Edge values, then exact multiples and near-multiples (1 and 0.1, 0.3 and 0.1 ...), then normals."""
    rng = np.random.default_rng(seed)
    x = np.concatenate([EDGES * 2, [1.0, 0.3, -0.7, 6.0, -6.0, 0.5, 1e-3, 2.5, 7.5, -7.5],
                        rng.standard_normal(count) * 5]).astype(dtype)
    y = np.concatenate([EDGES + list(reversed(EDGES)), [0.1, 0.1, 0.1, 2.0, 2.0, -0.25, 1e-4, -2.5, 2.5, 2.5],
                        rng.standard_normal(count) * 2]).astype(dtype)
    return x, y


def _as_array(t):
    return np.asarray(t.detach().numpy(), dtype=np.float64)


def _assert_same_bits(m, t, what):
    """Two arrays: same values, zeros of the same sign, nans in the same places."""
    same = (m == t) & (np.signbit(m) == np.signbit(t)) | np.isnan(m) & np.isnan(t)
    assert same.all(), f"{what}: at {np.flatnonzero(~same)[:5]}, minigrad {m[~same][:5]}, PyTorch {t[~same][:5]}"


def _assert_bitwise(mine, theirs, what):
    _assert_same_bits(_as_array(mine), _as_array(theirs), what)


def _assert_close(mine, theirs, what, dtype, scale=0.0):
    """Exact at the edges (infs, nans, zeros of the same sign); elsewhere within a few ulps of the
    result, or of ``scale`` (an array) where the result comes of a difference that cancelled."""
    m, t = _as_array(mine), _as_array(theirs)
    exact = ~np.isfinite(t) | (t == 0)
    _assert_same_bits(m[exact], t[exact], what + " (at the edges)")
    ulps = {"float16": 2e-3, "float32": 1e-6, "float64": 1e-14}[dtype]
    with np.errstate(invalid="ignore"):  # (inf - inf where both are inf: those are compared above)
        far = ~exact & ~(np.abs(m - t) <= ulps * (np.abs(t) + scale))
    assert not far.any(), f"{what}: at {np.flatnonzero(far)[:5]}, minigrad {m[far][:5]}, PyTorch {t[far][:5]}"


def _checker(exact, dtype):
    """Bit for bit, or to a few ulps with exact edges."""
    return _assert_bitwise if exact else (lambda mine, theirs, what: _assert_close(mine, theirs, what, dtype))


def _pair(lib, dtype, *arrays, requires_grad=False):
    return [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=requires_grad) for a in arrays]


@pytest.mark.parametrize("dtype", DTYPES)
def test_floor_division_is_pytorchs(dtype, torch):
    x, y = _operands(dtype)
    for how, op in {"div(floor)": lambda a, b: a.div(b, rounding_mode="floor"), "//": lambda a, b: a // b,
                    "div(trunc)": lambda a, b: a.div(b, rounding_mode="trunc")}.items():
        _assert_bitwise(op(*_pair(minigrad, dtype, x, y)), op(*_pair(torch, dtype, x, y)), f"{how} {dtype}")


@pytest.mark.parametrize("dtype", DTYPES)
def test_remainder_keeps_pytorchs_signed_zero(dtype, torch):
    x, y = _operands(dtype)
    for how, op in {"x % y": lambda a, b: a % b, "x % 2.5": lambda a, b: a % 2.5, "x % -2": lambda a, b: a % -2,
                    "remainder_": lambda a, b: a.clone().remainder_(b)}.items():
        _assert_bitwise(op(*_pair(minigrad, dtype, x, y)), op(*_pair(torch, dtype, x, y)), f"{how} {dtype}")


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_remainders_gradient_for_its_divisor_uses_floor_division(dtype, torch):
    x, y = _operands(dtype)
    grads = []
    for lib in (minigrad, torch):
        a, b = _pair(lib, dtype, x, y, requires_grad=True)
        (a % b).backward(lib.ones(len(x), dtype=a.dtype))
        grads.append((a.grad, b.grad))
    for position in (0, 1):
        _assert_bitwise(grads[0][position], grads[1][position], f"gradient of input {position}, {dtype}")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("exponent", [-0.5, 0.5, 3, -2, 2, -1, 4, 1.5])
def test_powers_are_computed_as_pytorch_computes_them(exponent, dtype, torch):
    """Values, and the gradient grad * p * x ** (p - 1), whose power is one of these for 4 (x ** 3),
    1.5 (x ** 0.5), 0.5 (x ** -0.5) and -1 (x ** -2)."""
    x, _ = _operands(dtype)
    results = []
    for lib in (minigrad, torch):
        (a,) = _pair(lib, dtype, x, requires_grad=True)
        out = a ** exponent
        out.backward(lib.ones(len(x), dtype=a.dtype))
        results.append((out, a.grad))
    exact = exponent in (3, -2, 2, -1) or dtype == "float16"  # (products, and float16's pow rounded once)
    _checker(exact, dtype)(results[0][0], results[1][0], f"x ** {exponent}, {dtype}")
    if exponent in (4, 1.5, 0.5, -1):
        grad_exact = exponent in (4, -1) or dtype == "float16"
        _checker(grad_exact, dtype)(results[0][1], results[1][1], f"gradient of x ** {exponent}, {dtype}")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("weight", [0.3, 0.5, 0.7, 1.0, -0.6, 1.5, -0.2, "tensor"])
def test_lerp_takes_pytorchs_formula_on_each_side_of_one_half(weight, dtype, torch):
    x, y = _operands(dtype)
    w = np.random.default_rng(1).uniform(-1, 2, len(x)) if weight == "tensor" else weight
    results = []
    for lib in (minigrad, torch):
        a, b = _pair(lib, dtype, x, y, requires_grad=True)
        w_lib = _pair(lib, dtype, w, requires_grad=True)[0] if weight == "tensor" else w
        out = lib.lerp(a, b, w_lib)
        out.backward(lib.ones(len(x), dtype=a.dtype))
        results.append([out, a.grad, b.grad] + ([w_lib.grad] if weight == "tensor" else []))
    names = ["lerp", "gradient of x", "gradient of y", "gradient of w"]
    for name, mine, theirs in zip(names, *results):
        if name == "lerp" and weight == 1.0:
            # (At w = 1 PyTorch's y - (y - x) * 0 takes the sign of its zero from y - x: compare values only.)
            np.testing.assert_array_equal(_as_array(mine), _as_array(theirs))
            continue
        scale = np.maximum(np.abs(x), np.abs(y)).astype(np.float64) * (np.abs(w) + 1)  # (what x + w (y - x) adds)
        _assert_close(mine, theirs, f"{name}, w = {weight}, {dtype}", dtype, np.nan_to_num(scale))
