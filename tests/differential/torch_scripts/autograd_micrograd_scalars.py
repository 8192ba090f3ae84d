# Scalar code in the style of micrograd's README, with 0-d tensors and Python's own functions.
import math

import torch

# %% the README example, with tensors
a = torch.tensor(-4.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = a + b
d = a * b + b ** 3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e ** 2
g = f / 2.0
g = g + 10.0 / f
print(f"{g.data.item():.4f}")
g.backward()
print(f"{a.grad.item():.4f}", f"{b.grad.item():.4f}")

# %% Python's functions on 0-d tensors
t = torch.tensor(2.5, requires_grad=True)
u = torch.tensor(-1.5)
print(float(t), int(u), round(float(t)), bool(u), abs(u), -u, math.exp(t), math.sqrt(t), complex(u) if False else "")
print(max(t, u), min(t, u).item(), sum([t, u, t]), sum([t, u]).grad_fn, f"{t:.2f}" if False else "", t > u, u.__index__ if False else "")
print(round(u.item()), divmod(7, 3), 2 ** u, u ** 2, t ** t)

# %% sums of Python lists of tensors
ws = [torch.tensor(float(i), requires_grad=True) for i in range(4)]
total = sum(w * w for w in ws)
total.backward()
print(total, [w.grad.item() for w in ws])

# %% formatting
x = torch.tensor(3.14159)
print(f"{x.item():.3f}", "{:.2f}".format(x.item()), str(x), repr(x), f"{x}")
print(format(x, ".2f"), f"{x:.1f}")

# %% mistakes: formatting a tensor of many numbers
f"{torch.tensor([1.0, 2.0]):.2f}"

# %% mistakes: float of many numbers
float(torch.tensor([1.0, 2.0]))

# %% mistakes: int of a tensor that requires grad
int(torch.tensor(2.7, requires_grad=True))
