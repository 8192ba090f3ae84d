# A "tensors in 10 minutes" tutorial script: make tensors, index and slice them, join and
# split them, do arithmetic and reductions, change them in place, and look at what autograd
# records for each. Literal data only.
import torch

# %% attributes of a tensor
t = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])
print(t.shape, t.size(), t.size(1), t.size(-1), t.dtype)
print(t.dim(), t.ndim, t.numel(), t.nelement(), len(t))

# %% numpy-like indexing and slicing
print(f"First row: {t[0]}")
print(f"First column: {t[:, 0]}")
print(f"Last column: {t[..., -1]}")
t2 = t.clone()
t2[:, 1] = 0
print(t2)
print(t[t > 6])
print(t[[0, 2]], t[torch.tensor([2, 0]), torch.tensor([1, 3])])

# %% joining tensors
print(torch.cat([t, t], dim=1).shape)
print(torch.stack([t[0], t[1]]).shape, torch.stack([t[0], t[1]], dim=1).shape)
print(torch.cat((t[:1], t[2:]), 0))

# %% splitting tensors
a, b = t.split(2, dim=1)
print(a, b, sep="\n")
print([p.shape for p in t.split([1, 3], dim=1)])
print([p.tolist() for p in t.chunk(2)])
print([p.shape for p in torch.chunk(t, 3, dim=1)])
rows = t.unbind(0)
print(len(rows), rows[1])
print(t.narrow(1, 1, 2))
print([p.shape for p in t.tensor_split(3, dim=1)])

# %% arithmetic operations
y1 = t @ t.T
y2 = t.matmul(t.T)
print(y1, torch.equal(y1, y2) if hasattr(torch, "equal") else (y1 == y2).all())
z1 = t * t
print(z1[0], t.mul(t)[1])
print(t % 3, t // 4, -t % 5)
print(t.square()[0], t.reciprocal()[0], t.rsqrt()[0])

# %% single-element tensors
agg = t.sum()
agg_item = agg.item()
print(agg_item, type(agg_item), float(agg), int(agg))
print(f"{agg:.2f}")

# %% in-place operations
t3 = t.clone()
print(f"{t3} \n")
t3.add_(5)
print(t3)
t3.mul_(0.5).sub_(1)
print(t3[0])
t3.clamp_(min=2.0, max=6.0)
print(t3)
t3.exp_().log_()
print(t3[1])
t3.zero_()
print(t3.sum())

# %% reductions, with PyTorch's and NumPy's keyword names
print(t.sum(0), t.sum(dim=1), t.sum(axis=1, keepdims=True))
print(t.mean(), t.mean(0), t.mean(axis=-1))
print(t.max(), t.max(dim=1), t.argmax(dim=0))
print(t.min(1).values, t.min(axis=1).indices)
print(t.std(), t.std(0), t.var(1, unbiased=False), t.var(dim=0, correction=0))
print(torch.var_mean(t, dim=1))
print(torch.std_mean(t))
print(t.prod(1), t.cumsum(1)[-1], t.cumsum(dim=0)[:, 0])

# %% elementwise functions
x = torch.tensor([0.25, 1.0, 2.5, -1.5])
print(x.abs(), x.sign(), x.floor(), x.ceil(), x.round(), x.trunc(), x.frac())
print(x.abs().sqrt(), x.abs().log1p(), x.expm1(), x.tan(), x.exp2())
print(x.abs().log2(), x.abs().log10(), torch.atan2(x, torch.ones(4)), torch.hypot(x, x))
print(x.clamp(min=0), x.clamp(max=torch.zeros(4)), x.clamp(-1, 1), torch.clamp(x, min=torch.tensor(0.5)))
print(torch.lerp(x, torch.ones(4), 0.25), x.sinh(), x.cosh(), x.atan())
print((x > 0) & (x < 2), (x < 0) | (x > 2), ~(x > 0), x.isfinite().all(), torch.isinf(x / 0))

# %% reordering and rearranging
m = torch.tensor([[3.0, 1.0, 2.0], [9.0, 7.0, 8.0]])
print(m.sort(), m.sort(dim=0, descending=True).values, m.argsort(1))
print(m.topk(2), m.topk(1, dim=0, largest=False).indices)
print(m.flip(0), m.flip(1), m.roll(1, 1), m.roll(1))
print(m.repeat(2, 1), m.tile((2,)).shape, m.repeat(1, 2, 1).shape)
print(m.t().tril(), m.triu(1), torch.diag(m), torch.diag(torch.tensor([1.0, 2.0])), torch.ones(3, 3).trace())
print(m.gather(1, torch.tensor([[2, 0], [1, 1]])), m.index_select(1, torch.tensor([2, 0])))
print(m.masked_fill(m > 5, -1.0), m.masked_fill(torch.tensor([True, False, True]), 0.0))

# %% what autograd records for these ops
w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
outs = [w.square(), w.log1p(), w.exp2(), w.reciprocal(), w.floor(), w.frac(), w.prod(1), w.cumsum(1), w.std(),
        w.sort(1).values, w.topk(1).values, w.gather(1, torch.tensor([[0], [2]])), w.index_select(0, torch.tensor([1])),
        w.masked_fill(w > 1, 0.0), w.repeat(2, 1), w.flip(0), w.roll(1, 1), w.tril(), w.diag(), w.trace(),
        w.split(1, 1)[0], w.split([1, 2], 1)[1], w.chunk(2)[1], w.unbind(1)[2], w.narrow(1, 0, 2),
        torch.var_mean(w, 1)[0], torch.std_mean(w)[1], w.clamp(min=torch.zeros(3)), torch.lerp(w, w * 2, 0.5),
        torch.atan2(w, w + 3), torch.addmm(torch.ones(2), w, w.t()), torch.addmv(torch.ones(2), w, w[0])]
print([o.grad_fn.name() for o in outs])
loss = sum(o.sum() for o in outs)
loss.backward()
print(w.grad)

# %% counting and finding
labels = torch.tensor([2, 0, 2, 1, 2, 0])
print(labels.unique(), torch.unique(labels, return_counts=True), torch.unique(labels, return_inverse=True))
print(torch.bincount(labels), torch.count_nonzero(labels), (labels == 2).nonzero(), torch.argwhere(labels > 0).shape)
print((labels == 2).nonzero(as_tuple=True), torch.tensor([[1, 2], [1, 2], [0, 1]]).unique(dim=0))

# %% more of the functions tutorials reach for
n = torch.arange(10)
print(torch.div(n, 3, rounding_mode="floor"), torch.div(-n, 3, rounding_mode="trunc"), n.div(4, rounding_mode="floor"))
print(torch.fmod(torch.tensor([-3.0, 3.0]), 2), torch.remainder(torch.tensor([-3.0, 3.0]), 2))
xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
print(xs, ys, torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")[0])
print(torch.vstack([t[0], t[1]]).shape, torch.hstack([t, t]).shape, t.movedim(0, 1).shape, torch.diff(t[0]))
print(t.median(), t.median(dim=1), torch.nansum(t / torch.tensor(0.0)), t.cumprod(1)[0])
print(t.scatter(1, torch.tensor([[0], [1], [2]]), 0.0)[:, :3], torch.zeros(3, 4).scatter_add(1, torch.tensor([[0, 0]] * 3), t[:, :2]))
print(t.index_fill(0, torch.tensor([1]), -1.0), torch.take_along_dim(t, t.argmax(1, keepdim=True), 1).view(-1))
print(torch.logit(torch.tensor([0.25, 0.5])), torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])))
print(torch.logaddexp(torch.tensor([1.0]), torch.tensor([2.0])), t[0].addcmul(t[1], t[2], value=0.1), torch.tril_indices(3, 3))
