"""PyTorch's CPU random numbers, bit for bit: the generator and how it turns bits into numbers.

``torch.manual_seed(42); torch.randn(3, 4)`` prints the same numbers in every tutorial because
PyTorch's CPU generator is deterministic all the way down. minigrad reproduces it in NumPy:

1. **Bits.** PyTorch's ``CPUGeneratorImpl`` is a 32-bit Mersenne Twister (mt19937) seeded with the
   textbook ``init_genrand(seed mod 2**32)``. NumPy's ``MT19937`` bit generator, put in the state
   that seeding leaves (``_mt19937``), yields the very same 32-bit words. ``random()`` is one word; ``random64()``
   glues two, the first as the high half.
2. **Transforms.** Each sampling function below turns words into numbers exactly as PyTorch's CPU
   kernels do (``aten/src/ATen/core/TransformationHelper.h`` and
   ``aten/src/ATen/native/cpu/DistributionTemplates.h``), down to the float32 rounding and the fused
   multiply-adds the compiled kernels use.
3. **Order.** PyTorch fills a tensor element by element in memory order, one draw after the other, so
   a generator shared by several calls gives the same sequence as in PyTorch.

Every function here works on NumPy arrays; ``creation.py`` and the in-place ``Tensor`` methods wrap
them into tensors.
"""

import contextlib
import math
import os
import warnings

import numpy as np

from . import devices, dtypes, messages

#: Seed of a new ``Generator()`` (PyTorch's ``default_rng_seed_val``).
DEFAULT_SEED = 67280421310721

_U64 = np.uint64
_LOW_24 = _U64((1 << 24) - 1)  # float32 has 24 significant bits
_LOW_53 = _U64((1 << 53) - 1)  # float64 has 53
# PyTorch's CPUGeneratorImplState, field by field with C's alignment: what get_rng_state() returns.
_LEGACY_STATE = np.dtype([
    ("the_initial_seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"), ("state", "<u8", 624),
    ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"), ("normal_is_valid", "<i4"),
], align=True)
_STATE_LAYOUT = np.dtype([
    ("legacy_pytorch_state", _LEGACY_STATE), ("next_float_normal_sample", "<f4"),
    ("is_next_float_normal_sample_valid", "?"),
], align=True)  # 5056 bytes


def _mt19937(seed):
    """NumPy's Mersenne Twister in the state the textbook ``init_genrand(seed)`` leaves it in.

    Each of the 624 state words comes from the one before: ``1812433253 * (w ^ (w >> 30)) + i``,
    kept to 32 bits. The first draw then regenerates the whole block (``pos = 624``).
    """
    key = [seed]
    for i in range(1, 624):
        key.append((1812433253 * (key[-1] ^ (key[-1] >> 30)) + i) & 0xFFFFFFFF)
    bits = np.random.MT19937()
    bits.state = {"bit_generator": "MT19937", "state": {"key": np.array(key, dtype=np.uint32), "pos": 624}}
    return bits


class Generator:
    """A random number generator that yields PyTorch's CPU numbers.

    Args:
        device: only ``"cpu"``.

    >>> import minigrad
    >>> g = minigrad.Generator().manual_seed(2147483647)
    >>> minigrad.rand(3, generator=g)
    tensor([0.7081, 0.3542, 0.1054])
    """

    def __init__(self, device="cpu"):
        if devices.device(device).type == "cuda":
            raise RuntimeError(messages.NO_CUDA_GENERATOR)
        self.device = devices.check(device)
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed):
        """Restart the sequence from ``seed``; returns the generator itself (so calls chain)."""
        seed = int(seed)
        if not -(1 << 63) <= seed < (1 << 64):
            raise ValueError(messages.SEED_OVERFLOW)
        self._initial_seed = seed % (1 << 64)  # PyTorch keeps the seed as uint64: -1 is 2**64 - 1
        self._bits = _mt19937(self._initial_seed & 0xFFFFFFFF)  # mt19937 reads the low 32 bits
        self._fresh = True  # no word drawn since seeding (only get_state() tells the difference)
        # Box-Muller makes two normals at a time; PyTorch keeps the second for the next call.
        self._next_double_normal = None
        return self

    def seed(self):
        """Seed from the operating system's entropy; returns the new seed."""
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    def initial_seed(self):
        """The seed the current sequence started from."""
        return self._initial_seed

    def random(self, count):
        """``count`` raw 32-bit words (as uint64), PyTorch's ``random()``."""
        self._fresh = self._fresh and count == 0
        return self._bits.random_raw(count).astype(_U64)

    def random64(self, count):
        """``count`` 64-bit words, each two 32-bit words high half first, PyTorch's ``random64()``."""
        words = self.random(2 * count).reshape(count, 2)
        return (words[:, 0] << _U64(32)) | words[:, 1]

    def get_state(self):
        """The state as PyTorch lays it out: a uint8 tensor of 5056 bytes (``CPUGeneratorImplState``)."""
        from .tensor import Tensor  # tensor.py is not imported yet while random.py loads

        position = int(self._bits.state["state"]["pos"])
        state = np.zeros((), _STATE_LAYOUT)
        legacy = state["legacy_pytorch_state"]
        legacy["the_initial_seed"] = self._initial_seed
        # mt19937's "left" counts down to the next regeneration of the 624 words, "next" indexes them;
        # NumPy keeps one position. A fresh generator has next 0 (PyTorch's), a used-up block next 624.
        legacy["left"], legacy["seeded"] = 625 - position, 1
        legacy["next"] = 0 if self._fresh else position
        legacy["state"] = self._bits.state["state"]["key"]
        if self._next_double_normal is not None:
            legacy["normal_y"], legacy["normal_is_valid"] = self._next_double_normal, 1
        return Tensor._wrap(state.reshape(1).view(np.uint8).copy())

    def set_state(self, new_state):
        """Restore a state from ``get_state()`` (PyTorch's byte layout); returns the generator."""
        data = np.asarray(new_state._data if hasattr(new_state, "_data") else new_state)
        if data.dtype != np.uint8:
            raise TypeError(messages.RNG_STATE_TYPE)
        if data.size != _STATE_LAYOUT.itemsize:
            raise RuntimeError(messages.RNG_STATE_SIZE.format(size=data.size))
        legacy = np.ascontiguousarray(data).view(_STATE_LAYOUT)[0]["legacy_pytorch_state"]
        self._initial_seed = int(legacy["the_initial_seed"])
        key = legacy["state"].astype(np.uint32)
        self._bits = np.random.MT19937()
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": 625 - int(legacy["left"])}}
        self._fresh = int(legacy["next"]) == 0 and int(legacy["left"]) == 1
        self._next_double_normal = float(legacy["normal_y"]) if legacy["normal_is_valid"] else None
        return self

    # PyTorch's class is torch._C.Generator: print() shows "<torch._C.Generator object at 0x...>" and a
    # notebook cell ending in torch.manual_seed(0) shows "<torch._C.Generator at 0x...>". Same here.
    def __repr__(self):
        return f"<minigrad._C.Generator object at {hex(id(self))}>"

    def _repr_pretty_(self, printer, cycle):
        printer.text(f"<minigrad._C.Generator at {hex(id(self))}>")

#: The generator every random function uses unless given ``generator=``.
default_generator = Generator()
default_generator.seed()  # PyTorch seeds its default generator from the OS at startup


def manual_seed(seed):
    """Seed the default generator; returns it.

    >>> import minigrad
    >>> minigrad.manual_seed(42).initial_seed()
    42
    """
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator from the operating system; returns the seed."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator's current sequence started from."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state, a uint8 tensor in PyTorch's layout."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restore the default generator's state from ``get_rng_state()``."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, **kwargs):
    """Run the block on a copy of the default generator's state: afterwards it is as before.

    >>> import minigrad
    >>> _ = minigrad.manual_seed(0)
    >>> with minigrad.random.fork_rng():
    ...     _ = minigrad.rand(3)
    >>> minigrad.rand(1)
    tensor([0.4963])
    """
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def _or_default(generator):
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        # NB: PyTorch's argument parser lists every overload of the call here; minigrad names the argument.
        raise TypeError(messages.NOT_A_GENERATOR.format(type=type(generator).__name__))
    return generator


# ---------------------------------------------------------------------------------------------------
# Transforms: words -> numbers, one function per kernel of PyTorch's, vectorised.
# ---------------------------------------------------------------------------------------------------

def _fma(a, b, c):
    """``a * b + c`` rounded once, as the fused multiply-add PyTorch's compiled kernels use.

    float32: the product of two float32 is exact in float64, so one float64 sum rounded to float32
    is the fused result (but for rare double-rounding ties). float64: Dekker's exact product and
    Knuth's exact sum carry the rounding errors along and add them back at the end.
    """
    if a.dtype == np.float32:
        return (a.astype(np.float64) * np.float64(b) + np.float64(c)).astype(np.float32)
    product = a * b
    split_a, split_b = a * 134217729.0, np.float64(b) * 134217729.0  # 2**27 + 1 splits a double in halves
    a_hi = split_a - (split_a - a)
    b_hi = split_b - (split_b - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    product_error = ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    total = product + c
    bridge = total - product
    sum_error = (product - (total - bridge)) + (c - bridge)
    return total + (sum_error + product_error)


class _CLibrary:
    """A float64 function of the C library's (``std::log`` ...), which PyTorch's scalar kernels call.

    NumPy's float64 ufuncs give the C library's numbers on most CPUs, but on a CPU with AVX-512
    NumPy 2 runs its own SIMD versions, which differ in the last bit for some inputs (there, about
    1 ``log`` in 300, 1 ``exp`` in 20). So the first call compares NumPy's ufunc with Python's
    ``math`` function (the C library's) on numbers spread over the inputs the samplers give it,
    and from then on uses NumPy where the two agree, else the C library's function element by
    element (about 80 ns an element, for float64 samples only).
    """

    def __init__(self, numpy_function, math_function, spread):
        self.numpy_function, self.math_function, self.spread = numpy_function, math_function, spread
        self.function = None

    def __call__(self, x):
        if self.function is None:
            self.function = self._choose()
        return self.function(x)

    def _choose(self):
        probe = self.spread(np.random.default_rng(0).random(20_000))
        one_by_one = np.frompyfunc(self._c_function, 1, 1)
        if np.array_equal(self.numpy_function(probe), one_by_one(probe).astype(np.float64)):
            return self.numpy_function

        def exactly(x):
            with np.errstate(all="ignore"):  # (an overflow is inf, silently, as in PyTorch)
                return np.asarray(one_by_one(x), dtype=np.float64)

        return exactly

    def _c_function(self, value):
        try:
            return self.math_function(value)
        except (OverflowError, ValueError):  # (where C gives inf, -inf or nan, Python raises: NumPy's, then)
            return float(self.numpy_function(value))


# Each with the inputs the samplers below give it (u uniform in [0, 1)).
_log = _CLibrary(np.log, math.log, lambda u: 1.0 - u)
_log1p = _CLibrary(np.log1p, math.log1p, lambda u: -u)
_exp = _CLibrary(np.exp, math.exp, lambda u: 40.0 * u - 20.0)
_tan = _CLibrary(np.tan, math.tan, lambda u: np.pi * (u - 0.5))
_cos = _CLibrary(np.cos, math.cos, lambda u: 2.0 * np.pi * u)
_sin = _CLibrary(np.sin, math.sin, lambda u: 2.0 * np.pi * u)


def uniform(generator, count, dtype, low=0.0, high=1.0):
    """U[low, high): PyTorch's ``uniform_real_distribution``.

    A float32 takes the low 24 bits of one 32-bit word, a float64 the low 53 bits of a 64-bit word:
    exactly the significant bits of the type, so ``bits * 2**-digits`` is exact and never reaches 1.
    Then ``x * (high - low) + low`` in the dtype, as one fused multiply-add; a value that rounds up
    to ``high`` becomes ``low`` so the interval stays half-open.
    """
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        x = (generator.random64(count) & _LOW_53).astype(np.float64) * 2.0**-53
    else:
        x = (generator.random(count) & _LOW_24).astype(np.float32) * np.float32(2.0**-24)
    low, high = x.dtype.type(low), x.dtype.type(high)
    if low == 0 and high == 1:
        return x.astype(dtype)
    x = _fma(x, high - low, low).astype(dtype)
    return np.where(x == dtype.type(high), dtype.type(low), x)


def _normal_pairs(generator, count):
    """``count`` standard normals the scalar way: PyTorch's ``normal_distribution<double>``.

    Box-Muller on two float64 uniforms ``u1, u2``: ``r = sqrt(-2 log1p(-u2))``, ``theta = 2 pi u1``;
    it returns ``r cos(theta)`` and keeps ``r sin(theta)`` in the generator for the next call.
    """
    out = np.empty(count)
    start = 0
    if count and generator._next_double_normal is not None:
        out[0], generator._next_double_normal, start = generator._next_double_normal, None, 1
    pairs = (count - start + 1) // 2
    u = uniform(generator, 2 * pairs, np.float64).reshape(pairs, 2)
    radius = np.sqrt(-2.0 * _log1p(-u[:, 1]))
    theta = 2.0 * np.pi * u[:, 0]
    both = np.stack([radius * _cos(theta), radius * _sin(theta)], axis=1).ravel()
    out[start:] = both[:count - start]
    if (count - start) % 2:  # the last sine waits in the generator
        generator._next_double_normal = both[-1]
    return out


# Cephes' float32 polynomials as PyTorch's avx_mathfun.h evaluates them (8 lanes at a time).
_LOG_P = [7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
          -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1]
_SIN_P = [-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1]
_COS_P = [2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2]
_F = np.float32


def _log_avx(x):
    """float32 log as ``log256_ps``: split off the exponent, a degree-9 polynomial on the mantissa."""
    x = np.maximum(x, np.finfo(np.float32).tiny)
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + _F(1)
    x = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)  # mantissa in [0.5, 1)
    small = x < _F(0.707106781186547524)
    e = e - small.astype(np.float32)
    x = (x - _F(1)) + np.where(small, x, _F(0))
    z = x * x
    y = np.full_like(x, _F(_LOG_P[0]))
    for p in _LOG_P[1:]:
        y = _fma(y, x, _F(p))
    # The compiler fuses each multiply into the add that consumes it (GCC's -ffp-contract=fast).
    y = _fma(y * x, z, e * _F(-2.12194440e-4))
    y = y - z * _F(0.5)
    return _fma(e, _F(0.693359375), x + y)


def _sincos_avx(x):
    """float32 sine and cosine as ``sincos256_ps``: reduce by pi/4 in three parts, two polynomials."""
    sin_negative = np.signbit(x)
    x = np.abs(x)
    octant = ((x * _F(1.27323954473516)).astype(np.int32) + 1) & ~1
    y = octant.astype(np.float32)
    for part in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):
        x = _fma(y, _F(part), x)
    sin_negative ^= (octant & 4) != 0
    cos_negative = (~(octant - 2) & 4) != 0
    use_sin_poly = (octant & 2) == 0
    z = x * x
    c = np.full_like(x, _F(_COS_P[0]))
    for p in _COS_P[1:]:
        c = _fma(c, z, _F(p))
    c = _fma(c * z, z, -(z * _F(0.5))) + _F(1)
    s = np.full_like(x, _F(_SIN_P[0]))
    for p in _SIN_P[1:]:
        s = _fma(s, z, _F(p))
    s = _fma(s * z, x, x)
    sin, cos = np.where(use_sin_poly, s, c), np.where(use_sin_poly, c, s)
    return np.where(sin_negative, -sin, sin), np.where(cos_negative, -cos, cos)


def _box_muller_16(blocks, mean, std):
    """PyTorch's ``normal_fill_16`` on rows of 16 uniforms: the first 8 pair with the last 8.

    ``u1 = 1 - u[j]`` (so log never sees 0), ``u2 = u[j + 8]``, then ``r cos`` into slot j and
    ``r sin`` into slot j + 8, each times std plus mean in one fused multiply-add. float64 uses the
    C library's log/cos/sin (``_CLibrary``); float32 uses avx_mathfun's
    polynomials, which is what PyTorch runs on x86-64 CPUs with AVX2.
    """
    u1, u2 = 1 - blocks[:, :8], blocks[:, 8:]
    # NB: PyTorch compiled for ARM (Apple silicon) or for x86 CPUs without AVX2 runs the C library's
    # float32 log/cos/sin here instead; minigrad always follows the AVX2 kernel, so on those machines
    # an occasional float32 normal from a tensor of 16+ elements differs from PyTorch's in its last bit.
    if blocks.dtype == np.float32:
        radius = np.sqrt(_F(-2) * _log_avx(u1))
        sin, cos = _sincos_avx(_F(2 * np.pi) * u2)
    else:
        radius = np.sqrt(-2 * _log(u1))
        theta = 2.0 * np.pi * u2
        sin, cos = _sin(theta), _cos(theta)
    out = np.concatenate([radius * cos, radius * sin], axis=1)
    if mean == 0 and std == 1:
        return out
    dtype = blocks.dtype.type
    return _fma(out, dtype(std), dtype(mean))


def normal(generator, count, dtype, mean=0.0, std=1.0, contiguous=True):
    """N(mean, std**2): PyTorch's CPU ``normal_kernel``, which has two paths.

    - 16 or more elements in contiguous memory (``normal_fill``): draw ``count`` uniforms of the
      dtype, transform them in blocks of 16; when ``count`` is not a multiple of 16, draw 16 fresh
      uniforms for the last 16 slots and transform them again (overwriting the tail). float16 works
      in float32 and draws block by block, so it draws no uniforms for a tail it will overwrite.
    - otherwise one at a time with the cached Box-Muller pair (``_normal_pairs``), in float64, then
      rounded to the dtype.
    """
    dtype = np.dtype(dtype)
    if count < 16 or not contiguous:
        values = _normal_pairs(generator, count)
        if mean != 0 or std != 1:
            values = _fma(values, float(std), float(mean))
        return values.astype(dtype)
    working = np.dtype(np.float32) if dtype == np.float16 else dtype  # PyTorch's opmath type
    whole = count // 16 * 16
    values = uniform(generator, count if working == dtype else whole, working)
    values = np.concatenate([values, np.empty(count - values.size, working)])
    values[:whole] = _box_muller_16(values[:whole].reshape(-1, 16), mean, std).ravel()
    if count % 16:
        values[-16:] = _box_muller_16(uniform(generator, 16, working).reshape(1, 16), mean, std).ravel()
    return values.astype(dtype)


def integers(generator, count, low, high, dtype):
    """Integers in [low, high): PyTorch's ``random_from_to``, ``word % (high - low) + low``.

    A range below 2**28 uses one 32-bit word per value; a wider one a 64-bit word, whatever the
    dtype, so the modulo's skew stays small (PyTorch's public builds; its source also shows a
    2**32 threshold, compiled only into Meta's internal builds).
    """
    span = high - low
    words = generator.random64(count) if span >= 1 << 28 else generator.random(count)
    return ((words % _U64(span)).astype(np.int64) + low).astype(dtype)


def check_integer_range(low, high, dtype):
    """PyTorch's checks on ``random_``'s [low, high): not empty, and within what the dtype holds.

    An integer dtype that cannot hold a bound is an error; a float dtype only warns beyond
    ``2**digits``, where it can no longer hold every integer.
    """
    if low >= high:
        raise RuntimeError(messages.RANDOM_FROM_TO.format(low=low, high=high))
    name = dtypes.CPP_TYPE_NAMES.get(dtype, str(dtype))
    for bound, value in (("from", low), ("to - 1", high - 1)):
        if dtype.kind == "f":
            digits = np.finfo(dtype.dtype).nmant + 1
            if not -(1 << digits) <= value <= 1 << digits:
                warnings.warn(messages.RANDOM_FLOAT_PRECISION.format(bound=bound, digits=digits, dtype=name))
        else:
            info = np.iinfo(np.int8 if dtype.kind == "b" else dtype.dtype)
            low_limit, high_limit = (0, 1) if dtype.kind == "b" else (int(info.min), int(info.max))
            if not low_limit <= value <= high_limit:
                raise RuntimeError(messages.RANDOM_TO_OUT_OF_BOUNDS.format(bound=bound, dtype=name))


def largest_random_integer(dtype):
    """Where ``random_(from, None)`` stops: 2**digits for floats, the largest value for integers."""
    if dtype.kind == "f":
        return 1 << np.finfo(dtype.dtype).nmant + 1
    return 1 if dtype.kind == "b" else int(np.iinfo(dtype.dtype).max)


def full_64_bit_integers(generator, count):
    """``random_(-2**63, None)`` on int64: a whole 64-bit word read as a signed number."""
    return generator.random64(count).view(np.int64)


def full_range_integers(generator, count, dtype):
    """``random_()`` without bounds: [0, 2**digits] for floats, [0, max] for integers, a bit for bool."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (generator.random(count) & _U64(1)).astype(np.bool_)
    wide = dtype in (np.int64, np.float64)
    words = generator.random64(count) if wide else generator.random(count)
    if dtype.kind == "f":
        modulus = (1 << np.finfo(dtype).nmant + 1) + 1
    else:
        modulus = int(np.iinfo(dtype).max) + 1
    return (words % _U64(modulus)).astype(dtype)


def permutation(generator, n):
    """PyTorch's CPU ``randperm`` for n below 2**32 / 20: a Fisher-Yates shuffle from the front.

    Position i swaps with ``i + random() % (n - i)``, for i = 0 .. n-2. Each step depends on the
    previous swaps, so the swaps run in a Python loop; the words are drawn at once.
    """
    if n >= 0xFFFFFFFF // 20:
        raise NotImplementedError("minigrad's randperm reproduces PyTorch's only for n < 214748364")
    result = list(range(n))
    offsets = (generator.random(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=_U64)).tolist()
    for i, offset in enumerate(offsets):
        j = i + offset
        result[i], result[j] = result[j], result[i]
    return np.array(result, dtype=np.int64)


def exponential(generator, count, dtype, lambd=1.0):
    """Exp(lambd): PyTorch's CPU ``exponential_distribution<double>``, ``-1 / lambd * log1p(-u)``."""
    u = uniform(generator, count, np.float64)
    return (-1.0 / lambd * _log1p(-u)).astype(dtype)


def cauchy(generator, count, dtype, median=0.0, sigma=1.0):
    """Cauchy(median, sigma): PyTorch's ``cauchy_distribution<double>``, ``median + sigma tan(pi (u - 1/2))``."""
    u = uniform(generator, count, np.float64)
    return (median + sigma * _tan(np.pi * (u - 0.5))).astype(dtype)


def log_normal(generator, count, dtype, mean=1.0, std=2.0):
    """exp of N(mean, std**2): PyTorch's ``lognormal_distribution<double>``, always the scalar Box-Muller
    (``_normal_pairs``, sharing its cached second value), scaled, then ``exp``."""
    return _exp(_fma(_normal_pairs(generator, count), float(std), float(mean))).astype(dtype)


def geometric(generator, count, dtype, p):
    """Trials until the first success: PyTorch's ``geometric_distribution<double>``,
    ``ceil(log(u) / log(1 - p))``."""
    u = uniform(generator, count, np.float64)
    return np.ceil(_log(u) / math.log(1.0 - p)).astype(dtype)


def bernoulli(generator, p, dtype):
    """1 with probability p, else 0: ``u < p`` (PyTorch's ``bernoulli_distribution``).

    A Python-number ``p`` compares with float64 uniforms; a tensor of probabilities with uniforms of
    its own dtype (float32 probabilities: 24-bit uniforms), one per element, in order.
    """
    p = np.asarray(p)
    u = uniform(generator, p.size, np.float64 if p.dtype == np.float64 else np.float32)
    return (u < p.ravel()).astype(dtype).reshape(p.shape)


def multinomial(generator, probs, num_samples, replacement):
    """Indices drawn from the rows of ``probs`` (unnormalised, float): PyTorch's CPU algorithms.

    - without replacement, or a single sample: ``argmax`` / ``topk`` of ``probs / q`` with
      ``q ~ Exp(1)`` (the Gumbel-max trick in its exponential form), one q per element;
    - with replacement: per row, a float64 uniform per sample, looked up in the row's cumulative
      distribution (summed and normalised in the row's dtype, the last entry forced to 1) by binary
      search for the first entry not below it.
    """
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:
        q = exponential(generator, rows.size, rows.dtype).reshape(rows.shape)
        scores = rows / q
        picked = np.argsort(-scores, axis=-1, kind="stable")[:, :num_samples]
        return picked.reshape(probs.shape[:-1] + (num_samples,))
    out = np.empty((rows.shape[0], num_samples), dtype=np.int64)
    for i, row in enumerate(rows):
        cumulative = np.cumsum(row)  # sequential sums in the row's dtype, like PyTorch's loop
        cumulative = cumulative / cumulative[-1]
        cumulative[-1] = 1
        u = uniform(generator, num_samples, np.float64)
        out[i] = np.searchsorted(cumulative.astype(np.float64), u, side="left")
    return out.reshape(probs.shape[:-1] + (num_samples,))


def fill_in_memory_order(array, values):
    """Write ``values`` (flat, in drawing order) into ``array`` in the order of its memory.

    PyTorch's kernels walk a tensor's memory from the start, so a transposed view is filled along its
    columns. Sorting the axes by stride gives that walk.
    """
    axes = sorted(range(array.ndim), key=lambda axis: -abs(array.strides[axis]))
    walk = array.transpose(axes)
    np.copyto(walk, values.reshape(walk.shape), casting="unsafe")


def is_float_dtype(dtype):
    return dtypes.is_floating(np.dtype(dtype))
