# Indexing as learners write it: reads, writes (a repeated position, index_add_), gradients through
# indexing and through a written slice, and the errors for wrong indices and values that do not fit.
import torch

x = torch.arange(12.0).reshape(3, 4)

# %% reads
print(x[1], x[-1], x[:, 1], x[..., -1], x[1:, ::2], x[None, 0].shape, x[:, None].shape)
print(x[[0, 2]], x[[0, 2], [1, 3]], x[torch.tensor([2, 0])], x[x > 5], x[torch.tensor([True, False, True])])
print(x[1, [0, 0, 3]], x[[[0], [2]], [1, 3]], x[0, ...], x[..., None].shape)

# %% writes
y = x.clone()
y[0] = 100.0
y[:, -1] = torch.tensor([7.0, 8.0, 9.0])
y[y > 50] = -1.0
y[[1, 2], [0, 1]] = torch.tensor([0.5, 0.25])
print(y)
z = torch.zeros(5)
z[torch.tensor([0, 0, 2])] += 1.0
print(z)
z.index_add_(0, torch.tensor([0, 0, 2]), torch.ones(3))
print(z)

# %% gradients through indexing
w = torch.arange(6.0, requires_grad=True)
out = w[[0, 0, 3]].sum() + w[w > 3].sum() * 2 + w[1:3].prod()
out.backward()
print(w.grad, out.grad_fn)

# %% gradient through a written slice
a = torch.ones(4, requires_grad=True)
b = a * 2
b[1:3] = b[1:3] * 5
b.sum().backward()
print(a.grad, b.grad_fn)

# %% wrong index: out of range
x[3]

# %% wrong index: out of range in a list
x[[0, 5]]

# %% wrong index: a float
x[1.5]

# %% wrong index: too many
x[0, 0, 0]

# %% wrong mask shape
x[torch.tensor([True, False])]

# %% wrong value shape in a write
q = torch.zeros(3, 4)
q[0] = torch.ones(3)

# %% gather and its errors
src = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.gather(src, 1, torch.tensor([[0, 0], [1, 0]])))
torch.gather(src, 1, torch.tensor([[0, 2]]))
