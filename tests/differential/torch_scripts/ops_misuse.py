# Wrong calls a learner makes with tensor ops, one per cell: PyTorch refuses each of them, and
# minigrad must refuse them the same way (same exception type, same sentence), never compute.
import torch

x = torch.tensor([1.0, 2.0, 3.0])
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])

# %% adding None (a forgotten return value)
bias = None
print(x + bias)

# %% multiplying by a string
print(x * "2")

# %% the function form with None
print(torch.add(x, None))

# %% comparing with None
print(x > None)

# %% += with None
y = x.clone()
y += None

# %% float() of a vector
print(float(x))

# %% int() of a matrix
print(int(m))

# %% if on a tensor
if x > 1:
    print("big")

# %% len of a scalar tensor
print(len(x.sum()))

# %% iterating over a scalar tensor
for v in x.sum():
    print(v)

# %% indexing past the end
print(m[2])

# %% too many indices
print(m[0, 1, 2])

# %% a float index
print(x[1.0])

# %% the same dim twice
print(m.sum(dim=(1, 1)))

# %% a dim that does not exist
print(m.mean(dim=2))

# %% NumPy's axis name, out of range
print(m.sum(axis=-3))

# %% size of a missing dim
print(m.size(2))

# %% cat of a matrix and a vector
print(torch.cat([m, x]))

# %% cat along a dim where sizes differ
print(torch.cat([m, torch.ones(3, 2)], dim=0))

# %% cat of nothing
print(torch.cat([]))

# %% cat of a tensor and a number
print(torch.cat([x, 4.0]))

# %% stack of different shapes
print(torch.stack([x, x[:2]]))

# %% stack at a dim past the end
print(torch.stack([x, x], dim=2))

# %% view that does not fit
print(m.view(4, 2))

# %% expand a non-singleton dim
print(m.expand(3, 3))

# %% split sizes that do not add up
print(m.split([1, 1], dim=1))

# %% chunk into zero pieces
print(m.chunk(0))

# %% narrow past the end
print(m.narrow(1, 2, 2))

# %% gather with an index out of range
print(m.gather(1, torch.tensor([[0], [3]])))

# %% gather with a float index
print(m.gather(1, torch.tensor([[0.0], [1.0]])))

# %% masked_fill with a float mask
print(m.masked_fill(m * 0, 0.0))

# %% masked_fill with a mask of the wrong shape
print(m.masked_fill(torch.tensor([True, False]), 0.0))

# %% repeat with too few sizes
print(m.repeat(2))

# %% topk with k larger than the dim
print(x.topk(4))

# %% trace of a vector
print(x.trace())

# %% diag of a 3-D tensor
print(torch.diag(torch.ones(2, 2, 2)))

# %% mean of an integer tensor
print(torch.tensor([1, 2, 3]).mean())

# %% matmul of mismatched shapes
print(m @ m)

# %% addmm of mismatched shapes
print(torch.addmm(torch.zeros(2, 2), m, m))

# %% einsum with mismatched sizes
print(torch.einsum("ij,jk->ik", m, m))

# %% where with shapes that do not broadcast
print(torch.where(x > 1, m, torch.zeros(2)))

# %% & on float tensors
print(x & x)

# %% exp_ on a leaf that requires grad
w = torch.tensor([0.5, 1.5], requires_grad=True)
w.exp_()

# %% exp_ on an integer tensor
torch.tensor([1, 2]).exp_()

# %% writing through an expanded tensor
torch.tensor([1.0, 2.0]).expand(3, 2).mul_(2)

# %% shifting a tensor into itself
z = torch.arange(5.0)
z[1:].copy_(z[:-1])

# %% adding a tensor into its own shifted view
z = torch.arange(5.0)
z[1:].add_(z[:-1])
print(z)

# %% the fix: clone first
z = torch.arange(5.0)
z[1:].copy_(z[:-1].clone())
print(z)

# %% item of a vector
print(x.item())

# %% backward through the second derivative of clamp (PyTorch: no graph left)
w = torch.tensor([0.5, 1.5], requires_grad=True)
(g,) = torch.autograd.grad(w.clamp(0, 1).sum(), w, create_graph=True)
print(g, g.requires_grad)
torch.autograd.grad(g.sum(), w)

# %% the second derivative of relu is zeros, not an error
w = torch.tensor([-0.5, 1.5], requires_grad=True)
(g,) = torch.autograd.grad(torch.relu(w).sum(), w, create_graph=True)
print(g, g.grad_fn.name())
print(torch.autograd.grad(g.sum(), w))

# %% an unknown rounding mode
print(torch.div(x, 2, rounding_mode="round"))

# %% integer division by zero
print(torch.tensor([4, 2]) // 0)

# %% scatter with an index past the end
print(m.scatter(1, torch.tensor([[3], [0]]), 1.0))

# %% median of a missing dim
print(m.median(dim=2))
