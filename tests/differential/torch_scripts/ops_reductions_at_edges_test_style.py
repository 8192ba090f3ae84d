# PyTorch-test-like checks of reductions at their edges: empty tensors, single elements, keepdim,
# negative and tuple dims, and the errors of reductions that have no identity.
import torch

e = torch.zeros(0, 3)
one = torch.tensor([[2.5]])
x = torch.arange(24.0).reshape(2, 3, 4)

# %% sums and means of nothing
print(e.sum(), e.sum(0), e.sum(1), e.mean(), e.mean(0), e.prod(), e.prod(1))
print(torch.logsumexp(e, 0), torch.logsumexp(e, 1), e.norm(), e.cumsum(0).shape, e.nansum())

# %% variance of too few numbers
print(one.var(), one.std(), one.var(unbiased=False), torch.tensor([1.0, 2.0]).var(correction=2))
print(torch.var_mean(one), e.var(0))

# %% max and min of nothing
for f in [lambda: e.max(), lambda: e.amax(0), lambda: e.amax(1), lambda: e.argmax(), lambda: e.max(1), lambda: e.min(0)]:
    try:
        print(f())
    except (RuntimeError, IndexError) as err:
        print(type(err).__name__, str(err).splitlines()[0])

# %% dims
print(x.sum((0, 2)), x.sum((-1, 0), keepdim=True).shape, x.mean(-2).shape, x.amax((0, 1)), x.amin(-1, keepdim=True).shape)
print(x.max(-1).indices, x.min(0).values.shape, x.argmax(1), x.argmin(-1, keepdim=True).shape)
print(x.std((0, 1)), x.var(2, keepdim=True).shape, x.logsumexp((1, 2)), x.norm(dim=(1, 2)), x.norm(p=1, dim=0).shape)

# %% repeated or wrong dims
for f in [lambda: x.sum((0, 0)), lambda: x.sum(3), lambda: x.mean((1, -2)), lambda: x.amax((0, 5)), lambda: x.max(3),
          lambda: x.argmax(-4)]:
    try:
        print(f())
    except Exception as err:
        print(type(err).__name__, str(err).splitlines()[0])

# %% topk, sort, unique at edges
v = torch.tensor([3.0, 1.0, 3.0, 2.0, 1.0])
# (Ties in topk come out in an order PyTorch does not promise: only sort(stable=True) is asked for one.)
print(v.topk(2), v.topk(3, largest=False).values, v.sort(stable=True).indices, v.argsort(descending=True))
print(torch.unique(v), torch.unique(v, return_counts=True), torch.unique(v, return_inverse=True, sorted=True))
print(v.topk(0), torch.tensor([]).sort())
try:
    v.topk(6)
except RuntimeError as err:
    print(type(err).__name__, str(err).splitlines()[0])

# %% median and cumulative ops
print(v.median(), torch.tensor([1.0, 2.0, 3.0, 4.0]).median(), x.median(1).values, x.median(-1).indices.shape)
print(v.cumsum(0), v.cumprod(0), torch.tensor([[1, 2], [3, 4]]).cumsum(1))

# %% counting and logic
b = torch.tensor([[True, False], [True, True]])
print(b.sum(), b.any(), b.all(1), b.float().mean(), torch.count_nonzero(x), (x > 10).sum(dim=2))
print(torch.tensor([]).all(), torch.tensor([]).any(), torch.zeros(2, 0).all(1))
