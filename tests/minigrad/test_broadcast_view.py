"""fast_path.broadcast_view: np.broadcast_to's view, built faster, with the strides of each
layout worked out once. Whatever the cache holds, the view must be np.broadcast_to's."""

import numpy as np
import pytest

from minigrad import fast_path
from minigrad.fast_path import broadcast_view


def _cases():
    a = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    yield "row", a[:1], (5, 4)
    yield "column", a[:, :1].copy(), (3, 6)
    yield "new leading dims", a, (2, 3, 4)
    yield "same shape", a, (3, 4)
    yield "0-d", np.array(2.5), (2, 3)
    yield "float64 of the same shape", a[:1].astype(np.float64), (5, 4)
    yield "transposed (not C order)", a.T, (2, 4, 3)
    yield "every other column (not C order)", a[:, ::2], (2, 3, 2)
    yield "empty", np.zeros((0, 4), np.float32), (3, 0, 4)
    # Same shape and byte strides as the float32 row above, but 8-byte items: not one block of memory.
    yield "float64 over float32's strides", np.lib.stride_tricks.as_strided(
        np.arange(16.0), shape=(1, 4), strides=(16, 4)), (5, 4)


@pytest.mark.parametrize("name,array,shape", list(_cases()), ids=[c[0] for c in _cases()])
def test_the_view_is_numpys_broadcast_to_the_first_time_and_after(name, array, shape):
    expected = np.broadcast_to(array, shape)
    for _ in range(2):  # (the second time, from the cache)
        view = broadcast_view(array, shape)
        assert view.shape == expected.shape and view.dtype == expected.dtype
        np.testing.assert_array_equal(view, expected)
        assert not view.flags.writeable
        assert view.size == 0 or np.shares_memory(view, array)


def test_a_shape_that_does_not_broadcast_is_numpys_value_error():
    a = np.ones((3, 4), np.float32)
    for shape in [(3, 5), (4,), (2, 4, 4)]:
        with pytest.raises(ValueError):
            np.broadcast_to(a, shape)
        for _ in range(2):
            with pytest.raises(ValueError):
                broadcast_view(a, shape)


def test_the_cache_stays_small_for_a_program_of_ever_new_shapes():
    for n in range(1, 1500):
        view = broadcast_view(np.ones((1, n), np.float32), (2, n))
        assert view.shape == (2, n)
        assert len(fast_path._strides_for) <= 1024
