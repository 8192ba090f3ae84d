# Checks in the style of PyTorch's own test files: loops over dtypes, factories and operators,
# printing what each combination gives so that both libraries can be compared line by line.
import torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.float32, torch.float64]

# %% test_result_type: every pair of dtypes under +
for a in DTYPES:
    row = []
    for b in DTYPES:
        x = torch.ones(2, dtype=a)
        y = torch.ones(2, dtype=b)
        row.append(str((x + y).dtype).split(".")[1] if a is not torch.bool or b is not torch.bool else "bool")
    print(str(a).split(".")[1], row)

# %% test_binary_ops_promote: int64 with float32, each operator
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
for name, op in [("add", torch.add), ("sub", torch.sub), ("mul", torch.mul), ("div", torch.div),
                 ("maximum", torch.maximum), ("minimum", torch.minimum), ("pow", torch.pow)]:
    print(name, op(i, f).dtype, op(f, i).dtype, op(i, f))
print((i < f).dtype, (i == f), torch.where(i > 1, i, f).dtype)

# %% test_scalar_promotion: Python numbers and 0-d tensors are weaker
for value in (2, 2.5, True):
    print(type(value).__name__, (i + value).dtype, (f + value).dtype, (torch.tensor([True]) + value).dtype)
print((i + torch.tensor(2.5)).dtype, (f + torch.tensor(2, dtype=torch.int64)).dtype)
print((torch.ones(2, dtype=torch.float16) + torch.tensor(1.0)).dtype)
print((torch.ones(2, dtype=torch.int32) + torch.tensor(1)).dtype)
print((torch.ones(2, dtype=torch.uint8) + torch.ones(2, dtype=torch.int8)).dtype)

# %% test_factory_dtype_kwarg: every factory honours dtype= and device=
for dtype in (torch.float32, torch.float64, torch.int64, torch.int32):
    made = [torch.zeros(2, dtype=dtype, device="cpu"), torch.ones((2,), dtype=dtype, device="cpu"),
            torch.full((2,), 3, dtype=dtype, device="cpu"), torch.empty(2, dtype=dtype, device="cpu"),
            torch.arange(3, dtype=dtype, device="cpu"), torch.eye(2, dtype=dtype, device="cpu"),
            torch.linspace(0, 4, 3, dtype=dtype, device="cpu"), torch.tensor([1, 2], dtype=dtype, device="cpu"),
            torch.zeros_like(torch.ones(2), dtype=dtype), torch.ones_like(torch.ones(2), dtype=dtype),
            torch.full_like(torch.ones(2), 5, dtype=dtype)]
    print(dtype, all(t.dtype == dtype for t in made), all(t.device == torch.device("cpu") for t in made))
    print(made[6], made[4])

# %% test_factory_requires_grad
for factory in (lambda **kw: torch.zeros(2, **kw), lambda **kw: torch.ones(2, 2, **kw),
                lambda **kw: torch.full((1,), 2.0, **kw), lambda **kw: torch.eye(2, **kw),
                lambda **kw: torch.linspace(0, 1, 3, **kw), lambda **kw: torch.arange(0.0, 2.0, **kw),
                lambda **kw: torch.tensor([1.0], **kw), lambda **kw: torch.empty(1, **kw)):
    t = factory(requires_grad=True)
    print(t.requires_grad, t.is_leaf, t.grad_fn, t.dtype)

# %% test_arange_lengths_and_values
for args in [(0, 1, 0.1), (-1, 1, 0.2), (0.5, 3), (0, 2, 0.3), (1, 0, -0.25), (0, 10, 3), (10, 0, -3),
             (-3.3, 7.1, 0.7), (0, 1.0001, 0.25)]:
    r = torch.arange(*args)
    print(args, r.numel(), r.dtype, r)

# %% test_linspace_logspace
for steps in (1, 2, 5, 10):
    print(torch.linspace(-1, 1, steps))
print(torch.linspace(0, 10, 5, dtype=torch.int64), torch.linspace(2.1, -2.76, 6, dtype=torch.int64))
print(torch.linspace(0, 1, 0), torch.linspace(3, 3, 4))
print(torch.logspace(0, 2, 3), torch.logspace(0, 2, 3, base=2), torch.logspace(-1, 1, 5, dtype=torch.float64))

# %% test_isclose_allclose_equal
a = torch.tensor([1.0, 2.0, float("nan"), float("inf")])
b = torch.tensor([1.0 + 1e-6, 2.1, float("nan"), float("inf")])
print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), torch.isclose(a, b, rtol=0.1))
print(torch.allclose(a[:2], b[:2]), torch.allclose(a[:2], b[:2], atol=0.2), a[:1].allclose(b[:1]))
print(torch.allclose(a, a), torch.allclose(a, a, equal_nan=True), a.isclose(a).tolist())
print(torch.equal(a[:2], a[:2].clone()), a[:2].equal(b[:2]), torch.equal(torch.tensor([True]), torch.tensor([1])))
print(torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])), torch.isclose(a[:2], torch.tensor(1.0)))

# %% test_to_and_grad_dtype
x = torch.tensor([1.0, 2.0], requires_grad=True)
for target in (torch.float64, torch.float16, torch.float32):
    y = x.to(target)
    print(target, y.dtype, y.grad_fn, y is x)
z = (x.double() * 2).sum()
z.backward()
print(x.grad, x.grad.dtype)

# %% test_promote_types_and_result_type
for a in (torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.float32, torch.float64):
    print(a, [torch.promote_types(a, b) for b in (torch.int8, torch.int64, torch.float32)])
print(torch.result_type(torch.tensor([1]), 2.5), torch.result_type(torch.tensor([1]), torch.tensor(1.0, dtype=torch.float64)))
print(torch.result_type(torch.tensor([1.0]), torch.tensor([1], dtype=torch.int64)), torch.result_type(1, 2))
print(torch.ByteTensor([1, 2]), torch.ShortTensor([1]).dtype, torch.HalfTensor([1.5]).dtype, torch.CharTensor(2).dtype)
