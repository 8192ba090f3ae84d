# Hand-written training loops from a first autograd lecture: updates under no_grad, .data,
# zeroing gradients, NumPy round trips, copies, and the warnings that come with them.
import numpy as np
import torch

torch.manual_seed(0)
X = torch.randn(20, 2)
y = X @ torch.tensor([2.0, -1.0]) + 0.5

# %% the loop with .grad.zero_()
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(3):
    loss = ((X @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    print(step, f"{loss.item():.4f}", w.detach().numpy().round(4).tolist())

# %% the loop with .data and grad = None
w = torch.zeros(2, requires_grad=True)
for step in range(2):
    loss = ((X @ w - y) ** 2).mean()
    loss.backward()
    w.data -= 0.1 * w.grad.data
    w.grad = None
    print(step, f"{loss.item():.4f}", w.is_leaf, w.requires_grad, w.grad)

# %% NumPy round trips
a = np.array([1.0, 2.0])
t = torch.from_numpy(a)
t += 1
print(a, t.dtype, torch.as_tensor(a) is t, torch.tensor(a).dtype)
n = torch.ones(2).numpy()
n[0] = 5
w = torch.ones(2, requires_grad=True)
print(n, w.detach().numpy(), (w * 2).detach().numpy(), w.data.numpy())

# %% copies and their warnings
src = torch.tensor([1.0, 2.0], requires_grad=True)
c1 = torch.tensor(src)
c2 = src.clone().detach()
c3 = torch.tensor(src.tolist())
print(c1.requires_grad, c2.requires_grad, c3.requires_grad, c1.grad_fn, src.clone().grad_fn)

# %% gradients accumulate across calls
w = torch.tensor([1.0, 2.0], requires_grad=True)
for _ in range(3):
    (w ** 2).sum().backward()
print(w.grad)
w.grad.data.zero_()
(w * 3).sum().backward()
print(w.grad)

# %% mistake: updating a leaf outside no_grad
w = torch.zeros(2, requires_grad=True)
(w.sum() * 2).backward()
w -= 0.1 * w.grad

# %% mistake: numpy() of a tensor that requires grad
torch.ones(2, requires_grad=True).numpy()

# %% mistake: backward twice
w = torch.ones(2, requires_grad=True)
loss = (w.exp()).sum()
loss.backward()
loss.backward()

# %% mistake: zeroing a gradient that does not exist yet
torch.ones(2, requires_grad=True).grad.zero_()

# %% mistake: requires_grad on an integer tensor
torch.tensor([1, 2], requires_grad=True)
