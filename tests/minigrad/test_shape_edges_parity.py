"""movedim's checks and fliplr/flipud, against PyTorch (found by a shape-ops differential script)."""

import math

import pytest

import minigrad

MOVEDIM = {
    "repeated source": lambda t: t.movedim((0, 0), (1, 2)),
    "repeated destination": lambda t: t.movedim((0, 1), (2, 2)),
    "the same dim named two ways": lambda t: t.movedim((0, -3), (1, 2)),
    "lengths differ": lambda t: t.movedim((0, 1), (2,)),
    "source out of range": lambda t: t.movedim(3, 0),
    "destination out of range": lambda t: t.movedim(0, 3),
    "two dims": lambda t: t.movedim((0, 1), (2, 0)),
    "negative": lambda t: t.movedim(-1, 0),
}


def _outcome(run):
    try:
        result = run()
    except (RuntimeError, IndexError) as error:
        return type(error).__name__, str(error).split("\n\n")[0]
    return tuple(result.shape), result.tolist(), result.grad_fn.name() if result.grad_fn else None


@pytest.mark.parametrize("name", MOVEDIM)
def test_movedim_is_pytorchs(name, torch):
    def run(lib):
        return _outcome(lambda: MOVEDIM[name](lib.arange(24.0).reshape(2, 3, 4)))

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 2, 2)])
@pytest.mark.parametrize("op", ["fliplr", "flipud"])
def test_fliplr_and_flipud_are_pytorchs(op, shape, torch):
    def run(lib):
        x = lib.arange(float(math.prod(shape))).reshape(shape).requires_grad_()
        return _outcome(lambda: getattr(x, op)()), _outcome(lambda: getattr(lib, op)(x))

    assert run(minigrad) == run(torch)
