"""Random autograd programs that run unchanged under ``minigrad`` and under ``torch``.

A *program* is data: a list of steps, each a Python expression over the module
``m`` and the earlier values ``v0, v1, ...``. The first steps (and some later
ones) make float64 leaves that require grad; the others apply an operation:
elementwise functions, broadcasting binary operators, reductions, matmul, shape
changes, indexing, cat and stack. Later steps reuse earlier values, so graphs
have shared subexpressions (diamonds) and not just chains; a last step adds
the sums of results nothing else used, so every op counts.

``run(program, module)`` evaluates the steps with ``m`` bound to the module.
Because minigrad mirrors PyTorch's API, the very same text runs under both,
and a failing example prints as a script (see ``Program.__repr__``): paste it
after ``import numpy as np`` and ``import minigrad as m`` (or ``import torch as m``).

While drawing a program, the strategy tracks every value's shape, so each
step is valid by construction (broadcastable operands, dims in range, matmul
sizes that agree). Indexing follows PyTorch's rule, which differs from
NumPy's: integers select first, and only tensors and lists are advanced
indices (``x[0, :, [0, 1]]`` has shape ``(3, 2)`` for ``x`` of shape
``(2, 3, 2)``, where NumPy gives ``(2, 3)``).

Where a function misbehaves everywhere near a point, it only gets safe inputs
(``log(x * x + 0.5)``, division by ``y * y + 0.5``). Where the two libraries
may legitimately differ at single points (ties, kinks, a norm of zero), the
step says so (``Step.distinct``, ``compares``, ``nonzero``) and the tests skip
data that lands there. Leaves on a grid of multiples of 0.5, and leaves that
copy another's data, make exact ties and kinks common, so both libraries'
rules for them are compared too.
"""

import dataclasses
import math
import re

import numpy as np
from hypothesis import strategies as st

#: Largest number of dims a value may have; keeps tensors tiny and tests fast.
MAX_DIMS = 4
#: Largest number of elements a value may have.
MAX_NUMEL = 48


@dataclasses.dataclass(frozen=True)
class Step:
    """One line of a program: ``v<i> = <expr>``.

    Attributes:
        expr: a Python expression over ``m`` (the module), ``data`` (the leaves'
            arrays) and earlier values ``v0, v1, ...``.
        shape: the shape of the value it makes.
        floating: False for the integer indices of ``max(dim)``, which are
            compared but never fed to another op.
        is_leaf: True for the steps that make a leaf requiring grad.
        twin_of: for a leaf, the index of an earlier leaf (counted among leaves)
            whose data it copies, so that ties between different leaves occur
            (``maximum(a, b)`` and ``amax`` then split the gradient between them).
        note: a comment shown after the step when the program is printed.
        distinct: ``(value, dim)`` pairs: that value must not have two equal
            (or nearly equal) elements along ``dim``: ``max(dim)`` picks one of
            tied elements, and which one is an implementation detail.
        compares: ``(values, constants)`` pairs: the step compares the elements
            of those values with each other and with the constants (``amax``,
            ``maximum``, ``relu``'s kink at 0 ...). Exact ties are fine (both
            libraries treat them alike); near-ties are not, as rounding then
            decides which side wins.
        nonzero: values that must have no element equal to 0 (a norm, an
            exponent), points where the two libraries' derivatives legitimately
            differ.
    """

    expr: str
    shape: tuple
    floating: bool = True
    is_leaf: bool = False
    distinct: tuple = ()
    compares: tuple = ()
    nonzero: tuple = ()
    twin_of: int = None
    note: str = ""


@dataclasses.dataclass(frozen=True)
class Program:
    """A list of steps, the seed of its leaves' data, and whether that data lies on a grid.

    Grid data (multiples of 0.5, zero included) makes ties and kinks common:
    equal elements for ``amax`` and ``maximum``, zeros for ``relu`` and ``abs``,
    clamp bounds hit exactly. Elsewhere the data is uniform in [-2, 2].
    """

    steps: tuple
    seed: int
    grid: bool = False

    @property
    def leaves(self):
        """Indices of the steps that make leaves."""
        return [i for i, step in enumerate(self.steps) if step.is_leaf]

    @property
    def floating(self):
        """Indices of the values that are float tensors (all of them require grad)."""
        return [i for i, step in enumerate(self.steps) if step.floating]

    def leaf_data(self):
        """Fresh float64 arrays for the leaves, in order, drawn from ``seed``."""
        rng = np.random.default_rng(self.seed)
        arrays = []
        for step in self.steps:
            if step.is_leaf:
                twin = step.twin_of
                if twin is not None:
                    arrays.append(arrays[twin].copy())
                elif self.grid:
                    arrays.append(rng.integers(-3, 4, size=step.shape) * 0.5)
                else:
                    arrays.append(rng.uniform(-2.0, 2.0, size=step.shape))
        return arrays

    def _repr_pretty_(self, printer, cycle):
        # Hypothesis prints failing examples with IPython's pretty printer: show the code.
        printer.text(repr(self))

    def __repr__(self):
        arrays = ", ".join(f"np.array({array.tolist()!r})" for array in self.leaf_data())
        lines = [f"Program(seed={self.seed}, grid={self.grid}):  # m is minigrad or torch",
                 f"    data = [{arrays}]"]
        for i, step in enumerate(self.steps):
            lines.append(f"    v{i} = {step.expr}  # {step.shape}{step.note}")
        return "\n".join(lines)


def run(program, module):
    """Evaluate every step with ``m`` bound to ``module``; return the values in order.

    >>> import minigrad
    >>> program = Program((Step("m.tensor(data[0], requires_grad=True)", (2,), is_leaf=True),
    ...                    Step("(v0 * v0).sum()", ())), seed=0)
    >>> x, y = run(program, minigrad)
    >>> bool(abs(y.item() - (x.detach().numpy() ** 2).sum()) < 1e-12)
    True
    """
    namespace = {"m": module, "data": program.leaf_data()}
    values = []
    for i, step in enumerate(program.steps):
        value = eval(step.expr, namespace)  # noqa: S307  (the program text is ours)
        namespace[f"v{i}"] = value
        values.append(value)
    return values


# --- drawing programs ---------------------------------------------------------------
# Each generator below gets ``draw`` and the values so far (a list of Steps) and
# returns the new Steps it adds (matmul may add a leaf first), or None when no
# value suits it. Values are referred to by name, ``v<i>``.


def _pick(draw, values, suits=lambda step: True):
    """The index of a float value that ``suits``; later values are likelier (deeper graphs)."""
    candidates = [i for i, step in enumerate(values) if step.floating and suits(step)]
    if not candidates:
        return None
    # Hypothesis shrinks integers towards 0; counting from the end makes it
    # shrink towards the newest value, which keeps shrunk programs short.
    return candidates[-1 - draw(st.integers(0, len(candidates) - 1))]


def _template(draw, templates, **names):
    return draw(st.sampled_from(templates)).format(**names)


def _leaf(shape, count, twin_of=None):
    twin = "" if twin_of is None else f"  (data[{count}] is a copy of data[{twin_of}])"
    return Step(f"m.tensor(data[{count}], requires_grad=True)", tuple(shape), is_leaf=True, twin_of=twin_of,
                note=twin)


def _broadcast(a, b):
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


def _numel(shape):
    return math.prod(shape)


def _dim(draw, ndim):
    """One dim index for a tensor of ``ndim`` dims, maybe negative (0-d tensors accept 0 and -1)."""
    rank = max(ndim, 1)
    return draw(st.integers(-rank, rank - 1))


def _dims(draw, ndim):
    """A tuple of distinct dims (each maybe negative) of a tensor with ``ndim >= 1`` dims."""
    axes = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return tuple(a - ndim if draw(st.booleans()) else a for a in axes)


def _reduced_shape(shape, dims, keepdim):
    """The shape after reducing over ``dims`` (None: all dims)."""
    if dims is None:
        axes = set(range(len(shape)))
    else:
        axes = {d % max(len(shape), 1) for d in (dims if isinstance(dims, tuple) else (dims,))}
    if not shape:
        return ()
    if keepdim:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


# Each template comes with what its result's derivative is sensitive to:
# ``None``, or a tuple of constants its input ``x`` is compared with (a kink,
# as relu's at 0), or "x~y" (x is compared with y), "y~0" (y with 0), or
# "y!=0" (y is an exponent, which must not be exactly 0: PyTorch masks that
# gradient to 0, its own special case).
UNARY = [
    ("m.exp({x})", None), ("{x}.exp()", None), ("m.tanh({x})", None), ("{x}.tanh()", None),
    ("m.sigmoid({x})", None), ("{x}.sigmoid()", None), ("m.sin({x})", None), ("{x}.cos()", None),
    ("m.relu({x})", (0.0,)), ("{x}.relu()", (0.0,)), ("m.abs({x})", (0.0,)), ("{x}.abs()", (0.0,)),
    ("-{x}", None), ("m.neg({x})", None), ("{x}.clone()", None),
    ("m.log({x} * {x} + 0.5)", None), ("({x} * {x} + 0.5).log()", None),
    ("m.sqrt({x} * {x} + 0.25)", None), ("({x} * {x} + 0.25).sqrt()", None),
    ("{x} ** 2", None), ("m.pow({x}, 3)", None), ("({x} * {x} + 0.5) ** -1.5", None),
    ("({x} * {x} + 0.5).pow(0.5)", None), ("2.0 ** {x}", None), ("m.pow(2.0, {x})", None),
    ("m.clamp({x}, -0.5, 0.5)", (-0.5, 0.5)), ("{x}.clamp(min=-0.25)", (-0.25,)),
    ("{x}.clamp(max=0.75)", (0.75,)),
    ("{x} + 1.5", None), ("1.5 + {x}", None), ("{x} - 0.5", None), ("0.5 - {x}", None),
    ("{x} * -1.25", None), ("-1.25 * {x}", None), ("{x} / 3.0", None), ("3.0 / ({x} * {x} + 0.5)", None),
]

BINARY = [
    ("{x} + {y}", None), ("m.add({x}, {y})", None), ("{x}.add({y})", None), ("{x} - {y}", None),
    ("m.sub({x}, {y})", None), ("{x} * {y}", None), ("m.mul({x}, {y})", None), ("{x}.mul({y})", None),
    ("{x} / ({y} * {y} + 0.5)", None), ("m.div({x}, {y}.exp())", None),
    ("m.maximum({x}, {y})", "x~y"), ("{x}.maximum({y})", "x~y"), ("m.minimum({x}, {y})", "x~y"),
    ("({x} * {x} + 0.5) ** {y}", "y!=0"), ("m.pow({x}.sigmoid(), {y})", "y!=0"),
    ("m.where({x} > {y}, {x}, {y})", "x~y"), ("m.where({y} < 0, {x}, {y} * 2.0)", "y~0"),
]


def _gen_unary(draw, values):
    x = _pick(draw, values)
    template, kinks = draw(st.sampled_from(UNARY))
    compares = () if kinks is None else (((x,), kinks),)
    return [Step(template.format(x=f"v{x}"), values[x].shape, compares=compares)]


def _gen_binary(draw, values):
    x = _pick(draw, values)
    shape_x = values[x].shape

    def fits(step):
        out = _broadcast(shape_x, step.shape)
        return out is not None and len(out) <= MAX_DIMS and _numel(out) <= MAX_NUMEL

    y = _pick(draw, values, fits)  # x itself always fits: a diamond
    template, sensitivity = draw(st.sampled_from(BINARY))
    guards = {"x~y": {"compares": (((x, y), ()),)}, "y~0": {"compares": (((y,), (0.0,)),)},
              "y!=0": {"nonzero": (y,)}, None: {}}[sensitivity]
    return [Step(template.format(x=f"v{x}", y=f"v{y}"), _broadcast(shape_x, values[y].shape), **guards)]


def _gen_reduction(draw, values):
    x = _pick(draw, values)
    shape = values[x].shape
    ndim = len(shape)
    name = f"v{x}"
    kind = draw(st.sampled_from(["sum", "mean", "amax", "max", "max_dim", "logsumexp", "softmax", "var",
                                 "norm"]))
    keepdim = draw(st.booleans())
    if kind in ("sum", "mean"):
        form = draw(st.sampled_from(["all", "int", "tuple"] if ndim >= 2 else ["all", "int"]))
        if form == "all":
            return [Step(_template(draw, ["{x}.{k}()", "m.{k}({x})"], x=name, k=kind), ())]
        dims = _dim(draw, ndim) if form == "int" else _dims(draw, ndim)
        expr = _template(draw, ["{x}.{k}({d}, keepdim={kd})", "m.{k}({x}, dim={d}, keepdim={kd})"],
                         x=name, k=kind, d=dims, kd=keepdim)
        return [Step(expr, _reduced_shape(shape, dims, keepdim))]
    among_themselves = (((x,), ()),)  # ties share the gradient, near-ties must not occur
    if kind == "amax":
        k = draw(st.sampled_from(["amax", "amin"]))
        if ndim == 0 or draw(st.booleans()):
            return [Step(f"{name}.{k}()", (), compares=among_themselves)]
        dims = _dim(draw, ndim) if draw(st.booleans()) else _dims(draw, ndim)
        expr = _template(draw, ["{x}.{k}({d}, keepdim={kd})", "m.{k}({x}, dim={d}, keepdim={kd})"],
                         x=name, k=k, d=dims, kd=keepdim)
        return [Step(expr, _reduced_shape(shape, dims, keepdim), compares=among_themselves)]
    if kind == "max":
        return [Step(_template(draw, ["{x}.max()", "m.min({x})"], x=name), (), compares=among_themselves)]
    if kind == "max_dim":
        k = draw(st.sampled_from(["max", "min"]))
        d = _dim(draw, ndim)
        out_shape = _reduced_shape(shape, d, keepdim)
        expr = _template(draw, ["m.{k}({x}, {d}, keepdim={kd}).values", "{x}.{k}(dim={d}, keepdim={kd})[0]"],
                         x=name, k=k, d=d, kd=keepdim)
        axis = d % max(ndim, 1)
        steps = [Step(expr, out_shape, distinct=((x, axis),))]
        if draw(st.booleans()):
            steps.append(Step(f"m.{k}({name}, {d}, keepdim={keepdim}).indices", out_shape, floating=False,
                              distinct=((x, axis),)))
        return steps
    if kind == "logsumexp":
        dims = _dims(draw, ndim) if ndim >= 2 and draw(st.booleans()) else _dim(draw, ndim)
        expr = _template(draw, ["m.logsumexp({x}, {d})", "{x}.logsumexp(dim={d}, keepdim={kd})"],
                         x=name, d=dims, kd=keepdim)
        return [Step(expr, _reduced_shape(shape, dims, "keepdim=True" in expr))]
    if kind == "softmax":
        k = draw(st.sampled_from(["softmax", "log_softmax"]))
        expr = _template(draw, ["m.{k}({x}, {d})", "{x}.{k}(dim={d})"], x=name, k=k, d=_dim(draw, ndim))
        return [Step(expr, shape)]
    if kind == "var":
        unbiased = draw(st.booleans())
        if ndim == 0 or draw(st.booleans()):
            if _numel(shape) < 2:
                return None
            return [Step(f"{name}.var(unbiased={unbiased})", ())]
        d = _dim(draw, ndim)
        if unbiased and shape[d] < 2:
            return None  # dividing by N - 1 = 0
        return [Step(f"{name}.var({d}, unbiased={unbiased}, keepdim={keepdim})", _reduced_shape(shape, d, keepdim))]
    # norm: not of a zero vector, where PyTorch's second derivative is nan
    itself = (len(values),)
    if ndim == 0 or draw(st.booleans()):
        return [Step(f"{name}.norm()", (), nonzero=itself)]
    d = _dim(draw, ndim)
    return [Step(f"m.norm({name}, dim={d}, keepdim={keepdim})", _reduced_shape(shape, d, keepdim), nonzero=itself)]


def _gen_matmul(draw, values):
    """``x @ w``, ``w @ x`` or ``x @ x.mT``, where ``w`` is a new leaf or a value that fits."""
    x = _pick(draw, values, lambda step: 1 <= len(step.shape) <= 3)
    if x is None:
        return None
    shape = values[x].shape
    name = f"v{x}"
    op = draw(st.sampled_from(["{a} @ {b}", "m.matmul({a}, {b})", "{a}.matmul({b})"]))
    if len(shape) >= 2 and draw(st.integers(0, 3)) == 0:
        out = shape[:-1] + (shape[-2],)
        return [Step(op.format(a=name, b=f"{name}.mT"), out)]
    k = draw(st.integers(1, 3))
    x_on_left = draw(st.booleans())
    inner = shape[-1] if x_on_left else (shape[0] if len(shape) == 1 else shape[-2])
    # The other operand's shape: a vector, a matrix, or a batch of matrices.
    other_rank = draw(st.integers(1, 3))
    if other_rank == 1:
        other = (inner,)
    elif x_on_left:
        other = (inner, k)
    else:
        other = (k, inner)
    if other_rank == 3:
        other = (draw(st.integers(1, 2)),) + other
    a, b = (shape, other) if x_on_left else (other, shape)
    out = _matmul_shape(a, b)
    if out is None or len(out) > MAX_DIMS or _numel(out) > MAX_NUMEL:
        return None
    existing = [i for i, step in enumerate(values) if step.floating and step.shape == other]
    steps = []
    if existing and draw(st.booleans()):
        other_name = f"v{draw(st.sampled_from(existing))}"
    else:
        steps.append(_leaf(other, sum(step.is_leaf for step in values)))
        other_name = f"v{len(values)}"
    a_name, b_name = (name, other_name) if x_on_left else (other_name, name)
    steps.append(Step(op.format(a=a_name, b=b_name), out))
    return steps


def _matmul_shape(a, b):
    """The shape of ``a @ b`` by NumPy's (and PyTorch's) rules, or None if it is undefined."""
    try:
        return np.matmul(np.zeros(a), np.zeros(b)).shape
    except ValueError:
        return None


def _random_shape(draw, numel, max_dims=3):
    """A shape with ``numel`` elements: split its factors over a few dims."""
    dims = []
    rest = numel
    for _ in range(draw(st.integers(0 if numel == 1 else 1, max_dims)) - 1):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = draw(st.sampled_from(divisors))
        dims.append(d)
        rest //= d
    if numel != 1 or dims or draw(st.booleans()):
        dims.append(rest)
    return tuple(dims)


def _gen_shape(draw, values):
    x = _pick(draw, values)
    shape = values[x].shape
    ndim = len(shape)
    name = f"v{x}"
    kind = draw(st.sampled_from(["reshape", "flatten", "transpose", "permute", "unsqueeze", "squeeze", "expand",
                                 "T"]))
    if kind == "reshape":
        new = _random_shape(draw, _numel(shape))
        spelled = list(new)
        if spelled and draw(st.booleans()):
            spelled[draw(st.integers(0, len(spelled) - 1))] = -1
        spelled = tuple(spelled)
        args = str(spelled) if len(spelled) != 1 else f"({spelled[0]},)"
        expr = draw(st.sampled_from([f"{name}.reshape({args})", f"m.reshape({name}, {args})",
                                     f"{name}.reshape({', '.join(map(str, spelled))})" if spelled
                                     else f"{name}.reshape(())"]))
        return [Step(expr, new)]
    if kind == "flatten":
        if ndim == 0:
            return [Step(f"{name}.flatten()", (1,))]
        start = draw(st.integers(0, ndim - 1))
        end = draw(st.integers(start, ndim - 1))
        new = shape[:start] + (_numel(shape[start:end + 1]),) + shape[end + 1:]
        return [Step(f"m.flatten({name}, {start - ndim if draw(st.booleans()) else start}, {end})", new)]
    if kind == "transpose":
        if ndim == 0:
            return None
        d0, d1 = _dim(draw, ndim), _dim(draw, ndim)
        new = list(shape)
        new[d0], new[d1] = new[d1], new[d0]
        expr = _template(draw, ["{x}.transpose({a}, {b})", "m.transpose({x}, {a}, {b})"], x=name, a=d0, b=d1)
        return [Step(expr, tuple(new))]
    if kind == "permute":
        if ndim == 0:
            return None
        order = tuple(draw(st.permutations(range(ndim))))
        expr = draw(st.sampled_from([f"{name}.permute{order if ndim > 1 else (order[0],)}",
                                     f"m.permute({name}, {order})"]))
        return [Step(expr, tuple(shape[d] for d in order))]
    if kind == "unsqueeze":
        if ndim >= MAX_DIMS:
            return None
        d = draw(st.integers(-ndim - 1, ndim))
        new = list(shape)
        new.insert(d % (ndim + 1), 1)
        return [Step(_template(draw, ["{x}.unsqueeze({d})", "m.unsqueeze({x}, {d})"], x=name, d=d), tuple(new))]
    if kind == "squeeze":
        if ndim == 0 or draw(st.booleans()):
            return [Step(f"{name}.squeeze()", tuple(n for n in shape if n != 1))]
        dims = _dims(draw, ndim)
        axes = {d % ndim for d in dims}
        new = tuple(n for i, n in enumerate(shape) if not (i in axes and n == 1))
        arg = dims[0] if len(dims) == 1 else dims  # a non-1 dim is left alone, as in PyTorch
        return [Step(_template(draw, ["{x}.squeeze({d})", "m.squeeze({x}, {d})"], x=name, d=arg), new)]
    if kind == "expand":
        lead = draw(st.integers(0, min(1, MAX_DIMS - ndim)))
        new = [draw(st.integers(1, 3)) for _ in range(lead)]
        spelled = list(new)
        for n in shape:
            size = draw(st.integers(1, 3)) if n == 1 else n
            new.append(size)
            spelled.append(-1 if size == n and draw(st.booleans()) else size)
        if _numel(new) > MAX_NUMEL:
            return None
        expr = draw(st.sampled_from([f"{name}.expand({tuple(spelled)})",
                                     f"{name}.expand({', '.join(map(str, spelled))})" if spelled
                                     else f"{name}.expand(())"]))
        return [Step(expr, tuple(new))]
    # T, mT and t()
    if ndim == 2:
        expr = draw(st.sampled_from([f"{name}.T", f"{name}.t()", f"m.t({name})", f"{name}.mT"]))
        return [Step(expr, shape[::-1])]
    if ndim > 2:
        return [Step(f"{name}.mT", shape[:-2] + (shape[-1], shape[-2]))]
    return [Step(f"{name}.t()", shape)]


def _index_shape(shape, items):
    """The shape of ``x[index]`` by PyTorch's rule.

    PyTorch first applies integers, slices, None and ``...`` (basic indexing,
    where it agrees with NumPy) and then the tensor indices, placed at the dims
    they refer to in that intermediate result. Unlike NumPy, an integer never
    counts as an advanced index, which matters when arrays are separated by a slice.
    """
    basic, advanced = [], []
    position = 0  # dims of the intermediate result made so far
    for kind, value in items:
        if kind in ("int", "slice", "none"):
            basic.append(value)
            position += kind != "int"
        elif kind == "ellipsis":
            basic.append(Ellipsis)
            consumed = sum(1 if k in ("int", "slice", "ints") else (np.ndim(v) if k == "mask" else 0)
                           for k, v in items)
            position += len(shape) - consumed
        else:
            rank = np.ndim(value) if kind == "mask" else 1
            basic.extend([slice(None)] * rank)
            advanced.append((position, np.asarray(value)))
            position += rank
    result = np.empty(shape)[tuple(basic)]
    if not advanced:
        return result.shape
    second = [slice(None)] * result.ndim
    for at, value in reversed(advanced):
        second[at:at + value.ndim] = [value]
    return result[tuple(second)].shape


def _render_index(items, name, as_tensors):
    parts = []
    for kind, value in items:
        if kind == "int":
            parts.append(str(value))
        elif kind == "slice":
            text = ":".join("" if v is None else str(v) for v in (value.start, value.stop))
            parts.append(text if value.step is None else f"{text}:{value.step}")
        elif kind == "none":
            parts.append("None")
        elif kind == "ellipsis":
            parts.append("...")
        elif kind == "ints":
            parts.append(f"m.tensor({list(value)})" if as_tensors else str(list(value)))
        else:
            parts.append(f"m.tensor({np.asarray(value).tolist()})")
    return f"{name}[{', '.join(parts)}]"  # a lone list is an integer array index, as in NumPy


def _gen_index(draw, values):
    x = _pick(draw, values)
    shape = values[x].shape
    ndim = len(shape)
    items = []
    dim = 0
    array_length = draw(st.integers(1, 3))
    if ndim >= 2 and draw(st.integers(0, 2)) == 0:
        # Integers mixed with arrays, where PyTorch's rule and NumPy's differ.
        kinds = ["int", "ints"] + (["slice"] if ndim >= 3 else [])
        kinds += draw(st.lists(st.sampled_from(["int", "ints", "slice"]), max_size=ndim - len(kinds)))
        kinds = draw(st.permutations(kinds))
        for n, kind in zip(shape, kinds):
            if kind == "int":
                items.append(("int", draw(st.integers(-n, n - 1))))
            elif kind == "ints":
                items.append(("ints", tuple(draw(st.lists(st.integers(-n, n - 1), min_size=array_length,
                                                            max_size=array_length)))))
            else:
                items.append(("slice", slice(None)))
        dim = ndim  # done: skip the general loop below
    while dim < ndim and draw(st.integers(0, 4)) != 0:
        n = shape[dim]
        kind = draw(st.sampled_from(["int", "int", "slice", "slice", "ints", "ints", "mask", "none", "ellipsis"]))
        if kind == "int":
            items.append(("int", draw(st.integers(-n, n - 1))))
            dim += 1
        elif kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-n, n - 1)))
            first = (start or 0) % n
            stop = draw(st.one_of(st.none(), st.integers(first + 1, n)))
            step = draw(st.sampled_from([None, 1, 2]))
            items.append(("slice", slice(start, stop, step)))
            dim += 1
        elif kind == "ints":
            items.append(("ints", tuple(draw(st.lists(st.integers(-n, n - 1), min_size=array_length,
                                                        max_size=array_length)))))
            dim += 1
        elif kind == "mask":
            if any(k == "mask" for k, _ in items):
                continue
            rank = draw(st.integers(1, ndim - dim))
            mask_shape = shape[dim:dim + rank]
            mask = np.asarray(draw(st.lists(st.booleans(), min_size=_numel(mask_shape),
                                             max_size=_numel(mask_shape)))).reshape(mask_shape)
            if not mask.any():
                mask.flat[draw(st.integers(0, mask.size - 1))] = True
            items.append(("mask", mask))
            dim += rank
        elif kind == "none":
            items.append(("none", None))
        elif not any(k == "ellipsis" for k, _ in items):
            items.append(("ellipsis", Ellipsis))
            dim = ndim  # the ellipsis stands for the dims that no later item takes
            if dim > 0 and draw(st.booleans()):
                items.append(("int", draw(st.integers(-shape[-1], shape[-1] - 1))))
    if not items:
        items.append(("ellipsis", Ellipsis) if ndim == 0 else ("slice", slice(None)))
    masks_and_arrays = [k for k, _ in items if k in ("ints", "mask")]
    if len(masks_and_arrays) > 1 and "mask" in masks_and_arrays:
        return None  # a mask's nonzero() would have to broadcast against the arrays: keep it simple
    out = _index_shape(shape, items)
    if len(out) > MAX_DIMS or _numel(out) > MAX_NUMEL:
        return None
    return [Step(_render_index(items, f"v{x}", draw(st.booleans())), out)]


def _gen_join(draw, values):
    x = _pick(draw, values)
    shape = values[x].shape
    ndim = len(shape)
    if draw(st.booleans()) and ndim >= 1:
        d = _dim(draw, ndim)
        axis = d % ndim
        same_but_d = [i for i, step in enumerate(values) if step.floating and len(step.shape) == ndim
                      and all(a == b for j, (a, b) in enumerate(zip(step.shape, shape)) if j != axis)]
        others = draw(st.lists(st.sampled_from(same_but_d), min_size=1, max_size=2))
        parts = [x] + others
        new = list(shape)
        new[axis] = sum(values[i].shape[axis] for i in parts)
        if _numel(new) > MAX_NUMEL:
            return None
        names = ", ".join(f"v{i}" for i in parts)
        expr = draw(st.sampled_from([f"m.cat([{names}], dim={d})", f"m.cat(({names}), {d})"]))
        return [Step(expr, tuple(new))]
    if ndim >= MAX_DIMS:
        return None
    same = [i for i, step in enumerate(values) if step.floating and step.shape == shape]
    parts = [x] + draw(st.lists(st.sampled_from(same), min_size=0, max_size=2))
    d = draw(st.integers(-ndim - 1, ndim))
    new = list(shape)
    new.insert(d % (ndim + 1), len(parts))
    if _numel(new) > MAX_NUMEL:
        return None
    return [Step(f"m.stack([{', '.join(f'v{i}' for i in parts)}], {d})", tuple(new))]


GENERATORS = {
    "unary": _gen_unary,
    "binary": _gen_binary,
    "reduction": _gen_reduction,
    "matmul": _gen_matmul,
    "shape": _gen_shape,
    "index": _gen_index,
    "join": _gen_join,
}

#: Programs drawn from a few kinds of ops reach each kind's corners sooner.
FAMILIES = {
    "everything": tuple(GENERATORS),
    "elementwise": ("unary", "binary"),
    "reductions": ("unary", "binary", "reduction"),
    "shapes": ("shape", "join", "index", "unary"),
    "indexing": ("index", "index", "binary"),
    "matmul": ("matmul", "binary", "reduction", "shape"),
}


def _leaf_shape(draw, base):
    """A shape that broadcasts with ``base``: drop some leading dims, set some to 1."""
    shape = base[draw(st.integers(0, len(base))):]
    return tuple(1 if draw(st.integers(0, 3)) == 0 else n for n in shape)


@st.composite
def programs(draw, max_ops=6, kinds=tuple(GENERATORS)):
    """A random program: 1-3 leaves of broadcast-compatible shapes, then 2 to ``max_ops`` ops.

    The last step always makes a float value (the program's output), which
    depends on at least one leaf.
    """
    base = tuple(draw(st.integers(2, 3)) for _ in range(draw(st.integers(0, 3))))
    steps = [_leaf(base, 0)]
    for count in range(1, draw(st.integers(1, 3))):
        if draw(st.integers(0, 3)) == 0:
            steps.append(_leaf(base, count, twin_of=0))  # equal values in different leaves: ties
        else:
            steps.append(_leaf(_leaf_shape(draw, base), count))
    for _ in range(draw(st.integers(2, max_ops))):
        new = GENERATORS[draw(st.sampled_from(kinds))](draw, steps)
        if new is not None:
            steps.extend(new)
    if not steps[-1].floating:
        steps.pop()  # end on a float value: the output to differentiate
    if steps[-1].is_leaf:
        steps.extend(_gen_unary(draw, steps))
    # Let every op count: add the sums of results nothing else uses to the output.
    used = {int(name) for step in steps for name in re.findall(r"\bv(\d+)\b", step.expr)}
    dangling = [i for i, step in enumerate(steps[:-1]) if step.floating and not step.is_leaf and i not in used]
    if dangling:
        last = len(steps) - 1
        terms = " + ".join([f"v{last}"] + [f"v{i}.sum()" for i in dangling])
        steps.append(Step(terms, steps[-1].shape))
    return Program(tuple(steps), draw(st.integers(0, 2**32 - 1)), grid=draw(st.integers(0, 3)) == 0)
