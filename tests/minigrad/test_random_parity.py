"""minigrad's random numbers are PyTorch's CPU numbers, bit for bit, for the same seed.

Every test runs the same calls under both libraries and compares the arrays exactly
(``np.array_equal`` on ``.numpy()``): no tolerance, since a learner compares printed digits.
"""

import numpy as np
import pytest

import minigrad
from tests.minigrad.torch_parity import assert_same_error

SEEDS = [0, 1, 42, 1234, 2147483647, 2**40 + 7]
# 0-d, the scalar normal path (1..15 elements), the 16-at-a-time path and its recomputed tail.
SHAPES = [(), (1,), (2,), (3,), (5,), (15,), (16,), (17,), (31,), (4, 8), (1000,), (3, 5, 7)]


def both(torch, run):
    """``run(lib)`` under PyTorch and minigrad, after the same seed; the two results as arrays."""
    expected = run(torch)
    got = run(minigrad)
    if isinstance(expected, (list, tuple)):
        return [np.asarray(e) for e in expected], [np.asarray(g) for g in got]
    return np.asarray(expected), np.asarray(got)


def assert_same_numbers(torch, run):
    expected, got = both(torch, run)
    if isinstance(expected, list):
        assert len(expected) == len(got)
        for e, g in zip(expected, got):
            assert e.dtype == g.dtype and e.shape == g.shape
            np.testing.assert_array_equal(g, e)
    else:
        assert expected.dtype == got.dtype and expected.shape == got.shape
        np.testing.assert_array_equal(got, expected)


def dtype_of(lib, name):
    return getattr(lib, name)


@pytest.mark.parametrize("seed", SEEDS)
def test_raw_words_are_mt19937(torch, seed):
    # a range of 2**32 takes the low half of each 64-bit word, i.e. every second 32-bit word
    assert_same_numbers(torch, lambda lib: lib.randint(0, 2**32, (50,), generator=lib.Generator().manual_seed(seed)).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
def test_rand(torch, shape, dtype):
    for seed in SEEDS:
        assert_same_numbers(torch, lambda lib: (lib.manual_seed(seed), lib.rand(shape, dtype=dtype_of(lib, dtype)).numpy())[1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
def test_randn(torch, shape, dtype):
    for seed in SEEDS:
        assert_same_numbers(torch, lambda lib: (lib.manual_seed(seed), lib.randn(shape, dtype=dtype_of(lib, dtype)).numpy())[1])


def test_randn_large_float32_matches_the_vectorised_kernel(torch):
    # a 784x256 weight: every block of 16 goes through avx_mathfun's log/sin/cos polynomials
    for seed in range(5):
        assert_same_numbers(torch, lambda lib: (lib.manual_seed(seed), lib.randn(784, 256).numpy())[1])


def test_odd_sizes_share_the_cached_normal(torch):
    # Box-Muller makes two normals: an odd-sized call leaves one in the generator for the next call
    def run(lib):
        g = lib.Generator().manual_seed(7)
        return [lib.randn(3, generator=g).numpy(), lib.randn(1, generator=g).numpy(),
                lib.randn(20, generator=g).numpy(), lib.randn(5, dtype=lib.float64, generator=g).numpy(),
                lib.rand(2, generator=g).numpy(), lib.randn(1, generator=g).numpy()]
    assert_same_numbers(torch, run)


def test_manual_seed_clears_the_cached_normal(torch):
    def run(lib):
        lib.manual_seed(3)
        lib.randn(1)
        lib.manual_seed(3)
        return lib.randn(2).numpy()
    assert_same_numbers(torch, run)


def test_a_lecture_sequence_sharing_one_generator(torch):
    # the makemore-style cells: weights, a minibatch, sampling one index at a time
    def run(lib):
        g = lib.Generator().manual_seed(2147483647)
        W = lib.randn((27, 27), generator=g)
        p = (W.exp() / W.exp().sum(1, keepdim=True))[0]
        samples = [lib.multinomial(p, num_samples=1, replacement=True, generator=g).item() for _ in range(20)]
        batch = lib.randint(0, 228146, (32,), generator=g)
        many = lib.multinomial(p, num_samples=100, replacement=True, generator=g)
        return [W.numpy(), np.array(samples), batch.numpy(), many.numpy()]
    assert_same_numbers(torch, run)


@pytest.mark.parametrize("low, high", [(0, 10), (-5, 5), (3, 4), (0, 2**31), (0, 2**32), (-2**40, 2**45)])
def test_randint(torch, low, high):
    for seed in SEEDS:
        assert_same_numbers(torch, lambda lib: lib.randint(low, high, (3, 7), generator=lib.Generator().manual_seed(seed)).numpy())


def test_randint_forms_and_dtypes(torch):
    def run(lib):
        g = lib.Generator().manual_seed(5)
        return [lib.randint(10, (4,), generator=g).numpy(), lib.randint(3, 9, size=(2, 2), generator=g).numpy(),
                lib.randint(0, 100, (5,), dtype=lib.float32, generator=g).numpy(),
                lib.randint(0, 100, (5,), dtype=lib.int32, generator=g).numpy(),
                lib.randint_like(lib.zeros(2, 3), 7, generator=g).numpy()]
    assert_same_numbers(torch, run)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 10, 100, 1000])
def test_randperm(torch, n):
    for seed in SEEDS:
        assert_same_numbers(torch, lambda lib: lib.randperm(n, generator=lib.Generator().manual_seed(seed)).numpy())


@pytest.mark.parametrize("replacement", [True, False])
@pytest.mark.parametrize("num_samples", [1, 3, 10])
def test_multinomial(torch, replacement, num_samples):
    weights = np.array([[0.1, 2.0, 0.0, 0.7, 1.2, 3.3, 0.05, 0.5, 1.0, 0.25, 4.0, 0.6],
                        [1.0] * 12], dtype=np.float32)
    for seed in SEEDS:
        for rows in (weights[0], weights):
            for dtype in (np.float32, np.float64):
                assert_same_numbers(torch, lambda lib: lib.multinomial(
                    lib.tensor(rows.astype(dtype)), num_samples, replacement,
                    generator=lib.Generator().manual_seed(seed)).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_in_place_fills(torch, dtype):
    def run(lib):
        g = lib.Generator().manual_seed(11)
        t = lambda *shape: lib.empty(*shape, dtype=dtype_of(lib, dtype))
        return [t(5).uniform_(-0.3, 0.7, generator=g).numpy(), t(40).uniform_(-0.25, 0.25, generator=g).numpy(),
                t(7).normal_(0.5, 0.02, generator=g).numpy(), t(64).normal_(-1.0, 3.0, generator=g).numpy(),
                t(33).normal_(0, 0.02, generator=g).numpy(), t(6).random_(0, 10, generator=g).numpy(),
                t(6).random_(100, generator=g).numpy(), t(6).random_(generator=g).numpy(),
                t(9).bernoulli_(0.3, generator=g).numpy(), t(9).exponential_(2.5, generator=g).numpy(),
                t(4).bernoulli_(lib.tensor([0.1, 0.5, 0.9, 1.0], dtype=dtype_of(lib, dtype)), generator=g).numpy()]
    assert_same_numbers(torch, run)


def test_fills_follow_memory_order(torch):
    # a transposed view is filled along its memory, so a layer's weight.t() gets PyTorch's layout
    def run(lib):
        lib.manual_seed(0)
        a = lib.empty(3, 5).t()
        a.uniform_()
        b = lib.empty(4, 6).t()
        b.normal_()  # not contiguous: the one-at-a-time path, in memory order
        return [a.numpy(), b.numpy()]
    assert_same_numbers(torch, run)


def test_integer_fills(torch):
    def run(lib):
        g = lib.Generator().manual_seed(9)
        return [lib.zeros(5, dtype=lib.int64).random_(generator=g).numpy(),
                lib.zeros(5, dtype=lib.int32).random_(generator=g).numpy(),
                lib.zeros(5, dtype=lib.bool).random_(generator=g).numpy(),
                lib.zeros(5, dtype=lib.int64).random_(-3, 3, generator=g).numpy(),
                lib.zeros(5, dtype=lib.int64).bernoulli_(0.5, generator=g).numpy()]
    assert_same_numbers(torch, run)


def test_normal_bernoulli_and_likes(torch):
    def run(lib):
        g = lib.Generator().manual_seed(21)
        mean = lib.tensor([0.0, 1.0, 2.0, 3.0])
        std = lib.tensor([1.0, 0.5, 0.1, 2.0])
        x = lib.zeros(2, 9, dtype=lib.float64)
        return [lib.normal(mean, std, generator=g).numpy(), lib.normal(mean, 2.0, generator=g).numpy(),
                lib.normal(0.5, std, generator=g).numpy(), lib.normal(1.0, 2.0, size=(20,), generator=g).numpy(),
                lib.bernoulli(lib.full((3, 4), 0.5), generator=g).numpy(),
                lib.bernoulli(lib.full((6,), 0.25, dtype=lib.float64), generator=g).numpy(),
                lib.bernoulli(lib.zeros(5), 0.7, generator=g).numpy(),
                lib.rand_like(x, generator=g).numpy(), lib.randn_like(x, generator=g).numpy()]
    assert_same_numbers(torch, run)


def test_linear_layers_initialise_from_the_seed(torch):
    def run(lib):
        lib.manual_seed(0)
        layer = lib.nn.Linear(5, 3)
        return [layer.weight.detach().numpy(), layer.bias.detach().numpy()]
    assert_same_numbers(torch, run)


def test_seeds_and_generators(torch):
    for lib in (torch, minigrad):
        assert lib.manual_seed(5) is lib.default_generator
        g = lib.Generator()
        assert g.initial_seed() == 67280421310721
        assert g.manual_seed(-1) is g and g.initial_seed() == 2**64 - 1
        assert lib.Generator().manual_seed(2**64 - 1).initial_seed() == 2**64 - 1
        lib.manual_seed(1.9)
        assert lib.initial_seed() == 1
        assert isinstance(lib.seed(), int)
    assert_same_numbers(torch, lambda lib: lib.rand(4, generator=lib.Generator()).numpy())
    # -1 and 2**64 - 1 are the same seed
    assert_same_numbers(torch, lambda lib: lib.rand(4, generator=lib.Generator().manual_seed(-1)).numpy())


def test_rng_state_round_trip_and_layout(torch):
    def run(lib):
        g = lib.Generator().manual_seed(123)
        lib.randn(3, generator=g)  # leaves a cached normal in the state
        state = g.get_state()
        first = lib.randn(5, generator=g)
        g.set_state(state)
        return [state.numpy(), first.numpy(), lib.randn(5, generator=g).numpy()]
    assert_same_numbers(torch, run)
    # minigrad reads PyTorch's state and continues PyTorch's sequence
    torch.manual_seed(77)
    torch.rand(700)
    state = torch.get_rng_state()
    minigrad.set_rng_state(minigrad.tensor(state.numpy()))
    np.testing.assert_array_equal(minigrad.rand(10).numpy(), torch.rand(10).numpy())


@pytest.mark.parametrize("call", [
    lambda lib: lib.randint(5, 3, (2,)),
    lambda lib: lib.zeros(2, dtype=lib.int32).random_(0, 2**40),
    lambda lib: lib.rand(2, dtype=lib.int64),
    lambda lib: lib.randn(2, dtype=lib.int64),
    lambda lib: lib.zeros(2, dtype=lib.int64).uniform_(),
    lambda lib: lib.zeros(2, dtype=lib.int64).normal_(),
    lambda lib: lib.zeros(2).uniform_(1, 0),
    lambda lib: lib.zeros(2).normal_(0, -1),
    lambda lib: lib.normal(0.0, -1.0, (2,)),
    lambda lib: lib.normal(lib.zeros(2), lib.tensor([-1.0, 1.0])),
    lambda lib: lib.zeros(2).exponential_(-1),
    lambda lib: lib.zeros(2, dtype=lib.int64).exponential_(),
    lambda lib: lib.zeros(2).bernoulli_(1.5),
    lambda lib: lib.bernoulli(lib.tensor([1, 0])),
    lambda lib: lib.randperm(-1),
    lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
    lambda lib: lib.multinomial(lib.tensor([1.0, -1.0]), 2, True),
    lambda lib: lib.multinomial(lib.tensor([1.0, float("nan")]), 2, True),
    lambda lib: lib.multinomial(lib.tensor([1.0, float("inf")]), 2, True),
    lambda lib: lib.multinomial(lib.tensor([1.0, float("nan")]), 1),
    lambda lib: lib.multinomial(lib.tensor([1, 1]), 1),
    lambda lib: lib.multinomial(lib.tensor(1.0), 1),
    lambda lib: lib.multinomial(lib.ones(3), 0),
])
def test_errors_are_pytorchs(torch, call):
    assert_same_error(call, torch, expect_hint=None)


def test_bernoulli_tensor_p_error_has_a_hint(torch):
    assert_same_error(lambda lib: lib.bernoulli(lib.tensor([1.5])), torch, expect_hint=True)


def test_fill_on_a_leaf_that_requires_grad_is_refused(torch):
    assert_same_error(lambda lib: lib.zeros(3, requires_grad=True).uniform_(), torch, expect_hint=True)


@pytest.mark.parametrize("method, args, name", [
    ("uniform_", (), "UniformBackward0"), ("normal_", (), "NormalBackward0"), ("random_", (0, 5), "RandomBackward0"),
    ("bernoulli_", (), "BernoulliBackward2"), ("exponential_", (), "ExponentialBackward0"),
])
def test_fills_record_a_zero_gradient_node(torch, method, args, name):
    for lib in (torch, minigrad):
        w = lib.ones(3, requires_grad=True)
        x = w * 2
        getattr(x, method)(*args)
        assert type(x.grad_fn).__name__ == name or x.grad_fn.name() == name
        x.sum().backward()
        np.testing.assert_array_equal(w.grad.numpy(), np.zeros(3, dtype=np.float32))


def test_drawing_a_large_weight_is_fast():
    import time

    start = time.perf_counter()
    minigrad.randn(784, 256)
    minigrad.empty(784, 256).uniform_(-0.1, 0.1)
    minigrad.randperm(60000)
    assert time.perf_counter() - start < 1.0


def test_generator_prints_as_pytorchs(torch):
    # print(torch.manual_seed(0)) and a notebook cell ending in it name torch._C.Generator
    from IPython.lib.pretty import pretty

    for lib, name in ((torch, "torch"), (minigrad, "minigrad")):
        g = lib.manual_seed(0)
        assert repr(g) == f"<{name}._C.Generator object at {hex(id(g))}>"
        assert pretty(g) == f"<{name}._C.Generator at {hex(id(g))}>"
        assert str(lib.Generator().device) == "cpu"


def test_fork_rng_and_the_random_module(torch):
    def run(lib):
        lib.random.manual_seed(4)
        with lib.random.fork_rng():
            inside = lib.randn(5)
        after = lib.randn(5)
        return [inside.numpy(), after.numpy(), lib.tensor(lib.random.initial_seed()).numpy()]
    assert_same_numbers(torch, run)


def test_sampling_methods_on_tensors(torch):
    def run(lib):
        g = lib.Generator().manual_seed(8)
        p = lib.tensor([[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]])
        return [p.multinomial(2, generator=g).numpy(), p.multinomial(6, replacement=True, generator=g).numpy(),
                p.bernoulli(generator=g).numpy()]
    assert_same_numbers(torch, run)


@pytest.mark.parametrize("n", [3, 16, 21, 40, 1000])
def test_float16_draws_in_float32(torch, n):
    # half precision works in float32 and draws the 16-at-a-time normals block by block
    def run(lib):
        g = lib.Generator().manual_seed(n)
        return [lib.randn(n, dtype=lib.float16, generator=g).numpy(), lib.rand(5, dtype=lib.float16, generator=g).numpy(),
                lib.empty(n, dtype=lib.float16).normal_(1, 0.5, generator=g).numpy(),
                lib.empty(n, dtype=lib.float16).uniform_(-2, 3, generator=g).numpy()]
    assert_same_numbers(torch, run)


def test_random_from_without_to_runs_to_the_dtypes_top(torch):
    def run(lib):
        g = lib.Generator().manual_seed(0)
        return [lib.zeros(3).random_(5, None, generator=g).numpy(),
                lib.zeros(3, dtype=lib.int64).random_(5, None, generator=g).numpy(),
                lib.zeros(3, dtype=lib.int32).random_(-5, None, generator=g).numpy(),
                lib.zeros(3, dtype=lib.int64).random_(-2**63, None, generator=g).numpy(),
                lib.zeros(3, dtype=lib.float64).random_(generator=g).numpy()]
    assert_same_numbers(torch, run)


@pytest.mark.parametrize("dtype, low, high", [("float32", -2**30, 3), ("float64", 0, 2**60), ("float32", 0, 2**24 + 2)])
def test_random_beyond_a_floats_integers_warns(torch, dtype, low, high):
    import warnings

    for lib in (torch, minigrad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.zeros(2, dtype=getattr(lib, dtype)).random_(low, high)
        texts = [str(w.message).split(" (Triggered internally")[0] for w in caught]
        if lib is torch:
            expected = texts
        else:
            assert texts == expected and len(texts) == 1


@pytest.mark.parametrize("draws", [0, 1, 3, 623, 624, 625])
def test_rng_state_bytes_are_pytorchs(torch, draws):
    # fresh, mid-block, at a block's end: the same 5056 bytes, and each library continues the other's
    def run(lib):
        g = lib.Generator().manual_seed(5)
        lib.randn(draws, generator=g)
        return g.get_state().numpy()
    assert_same_numbers(torch, run)
    g = torch.Generator().manual_seed(5)
    torch.randn(draws, generator=g)
    mine = minigrad.Generator().set_state(minigrad.tensor(g.get_state().numpy()))
    np.testing.assert_array_equal(minigrad.randn(5, generator=mine).numpy(), torch.randn(5, generator=g).numpy())


@pytest.mark.parametrize("state", [lambda lib: lib.zeros(10, dtype=lib.uint8), lambda lib: lib.zeros(5056)])
def test_rng_state_errors(torch, state):
    assert_same_error(lambda lib: lib.Generator().set_state(state(lib)), torch, expect_hint=None)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cauchy_log_normal_geometric(torch, dtype):
    def run(lib):
        g = lib.Generator().manual_seed(31)
        t = lambda n: lib.empty(n, dtype=getattr(lib, dtype))
        return [t(7).cauchy_(generator=g).numpy(), t(20).cauchy_(1.5, 0.5, generator=g).numpy(),
                t(5).log_normal_(generator=g).numpy(), lib.randn(1, generator=g).numpy(),  # shares the cached normal
                t(33).log_normal_(0.0, 0.25, generator=g).numpy(), t(9).geometric_(0.3, generator=g).numpy(),
                lib.zeros(4, dtype=lib.int64).geometric_(0.7, generator=g).numpy()]
    assert_same_numbers(torch, run)


@pytest.mark.parametrize("call", [
    lambda lib: lib.zeros(2).cauchy_(0, -1),
    lambda lib: lib.zeros(2, dtype=lib.int64).cauchy_(),
    lambda lib: lib.zeros(2).log_normal_(1, 0),
    lambda lib: lib.zeros(2, dtype=lib.int64).log_normal_(),
    lambda lib: lib.zeros(2).geometric_(1.5),
])
def test_more_distribution_errors(torch, call):
    assert_same_error(call, torch, expect_hint=None)


@pytest.mark.parametrize("method, args, name", [
    ("cauchy_", (), "CauchyBackward0"), ("log_normal_", (), "LogNormalBackward0"),
    ("geometric_", (0.5,), "GeometricBackward0"),
])
def test_more_fills_record_their_nodes(torch, method, args, name):
    for lib in (torch, minigrad):
        x = lib.ones(3, requires_grad=True) * 2
        getattr(x, method)(*args)
        assert type(x.grad_fn).__name__ == name or x.grad_fn.name() == name


def test_c_library_functions_are_the_c_librarys_when_numpy_differs():
    """Where NumPy's float64 ufunc differs from the C library's (NumPy 2's SIMD versions on AVX-512
    CPUs), the samplers use the C library's function: here a NumPy stand-in one bit off everywhere."""
    import math

    from minigrad.random import _CLibrary

    def one_bit_off(x):
        return np.nextafter(np.log(x), np.inf)

    log = _CLibrary(one_bit_off, math.log, lambda u: 1.0 - u)
    x = np.linspace(0.01, 1.0, 101)
    np.testing.assert_array_equal(log(x), [math.log(v) for v in x])
    assert log(x).dtype == np.float64
    # Where Python's math raises (C gives inf or -inf), the number C gives.
    exp = _CLibrary(lambda v: np.nextafter(np.exp(v), np.inf), math.exp, lambda u: u)
    np.testing.assert_array_equal(exp(np.array([1000.0, 0.0])), [np.inf, 1.0])
    with np.errstate(divide="ignore"):  # (NumPy's own log warns where it is the one used)
        np.testing.assert_array_equal(_CLibrary(np.log, math.log, lambda u: 1.0 - u)(np.array([0.0])), [-np.inf])
    # And NumPy's own where it agrees: the stand-in itself when it is the C library's.
    exact = _CLibrary(np.sqrt, math.sqrt, lambda u: u)
    exact(x)
    assert exact.function is np.sqrt
