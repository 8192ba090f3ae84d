# PyTorch-test-like checks of integer and mixed-dtype arithmetic, reductions with a dtype, powers,
# clamp and where with numbers, truthiness, var/std and cumulative ops, and ties and nan in
# max/argmax/sort/topk. (Printed messages keep their first line: minigrad adds a hint after it.)
import torch

# %% int division and remainders
a = torch.tensor([7, -7, 5, -5])
b = torch.tensor([2, 2, -3, -3])
print(a / b, (a / b).dtype)
print(a // b, torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"))
print(a % b, torch.remainder(a, b), torch.fmod(a, b))

# %% int mean and sum dtype
x = torch.tensor([1, 2, 3])
print(x.sum(), x.sum().dtype, x.sum(dtype=torch.float32))
print(x.float().mean())
try:
    x.mean()
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
print(torch.tensor([True, False, True]).sum())

# %% mixed dtypes
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 0.5, 0.5])
d = torch.tensor([0.5, 0.5, 0.5], dtype=torch.float64)
print((i + f).dtype, (i * 2.5).dtype, (f + d).dtype, (i + True).dtype, (torch.tensor(2) * f).dtype)
print((f + torch.tensor(1.0, dtype=torch.float64)).dtype, (i + torch.tensor(1.5)).dtype)
print(torch.tensor([1, 2], dtype=torch.int32) + torch.tensor([1, 2]), (torch.tensor([1, 2], dtype=torch.int32) + 1).dtype)

# %% ties
t = torch.tensor([[3.0, 1.0, 3.0], [2.0, 2.0, 0.0]])
print(t.max(dim=1), t.argmax(dim=1), t.argmax(), t.min(dim=0))
print(t.sort(dim=1), t.sort(dim=1, descending=True))
print(t.topk(2, dim=1))
print(torch.tensor([1.0, float("nan"), 3.0]).max(), torch.tensor([1.0, float("nan"), 3.0]).argmax())
print(torch.tensor([1.0, float("nan"), 3.0]).sort())

# %% powers
print(torch.tensor([2, 3]) ** 2, torch.tensor([2.0, 3.0]) ** -1, 2 ** torch.tensor([1, 2, 3]))
try:
    print(torch.tensor([2, 3]) ** -1)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
print(torch.tensor([-8.0]) ** (1 / 3), torch.tensor([0.0]) ** 0, torch.tensor([-1.0]).sqrt(), torch.tensor([0.0]).log())

# %% clamp and where with scalars
v = torch.tensor([-2.0, 0.5, 3.0])
print(v.clamp(min=0), v.clamp(max=1), v.clamp(-1, 1), torch.clamp(v, min=torch.tensor(0.0)))
print(torch.where(v > 0, v, 0.0), torch.where(v > 0, 1, 0), torch.where(v > 0, 1.0, v).dtype)
print(torch.where(v > 0))

# %% truthiness and membership
print(bool(torch.tensor([1.0])), 0.5 in v, len(v), [float(e) for e in v])
try:
    if v > 0:
        pass
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])

# %% var and std
w = torch.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
print(w.var(), w.var(dim=1), w.var(dim=1, unbiased=False), w.std(dim=0, keepdim=True))
print(w.var(dim=1, correction=0), torch.var_mean(w, dim=1), w[:, :1].var(dim=1))

# %% cumulative and products
print(w.cumsum(dim=1), w.cumprod(dim=1), w.prod(), w.prod(dim=1), torch.tensor([1, 2, 3]).cumsum(0).dtype)
print(torch.tensor([1, 2, 3]).prod().dtype, torch.tensor([True, True]).cumsum(0))
