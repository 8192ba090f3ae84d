# Checks in the style of PyTorch's own autograd tests: each op's gradient by gradcheck and
# gradgradcheck in double precision, graph facts (grad_fn names, next_functions, saved values),
# and the version counter of in-place forms. Literal inputs, one behaviour per cell.
import torch
from torch.autograd import gradcheck, gradgradcheck


def leaf(*rows):
    return torch.tensor(rows, dtype=torch.double, requires_grad=True)


x = leaf([0.4, -1.3, 0.7, 2.1], [1.1, 0.2, -0.6, 0.9], [-0.8, 1.7, 0.3, -1.9])
pos = leaf([0.4, 1.3, 0.7, 2.1], [1.1, 0.2, 0.6, 0.9], [0.8, 1.7, 0.3, 1.9])

# %% test_unary_functions
for name in ["square", "expm1", "exp2", "tan", "sinh", "cosh", "atan", "frac"]:
    print(name, gradcheck(lambda t: getattr(t, name)(), (x,)), gradgradcheck(lambda t: getattr(t, name)(), (x,)))

# %% test_unary_functions_on_positive_inputs
for name in ["log1p", "log2", "log10", "rsqrt", "reciprocal", "sqrt"]:
    print(name, gradcheck(lambda t: getattr(t, name)(), (pos,)), gradgradcheck(lambda t: getattr(t, name)(), (pos,)))

# %% test_binary_functions
y = leaf([0.5, 0.25, -1.5, 1.0], [2.0, -0.3, 0.45, 1.2], [0.6, 0.8, -1.1, 0.35])
print(gradcheck(torch.atan2, (x, y)), gradgradcheck(torch.atan2, (x, y)))
print(gradcheck(torch.hypot, (x, y)), gradgradcheck(torch.hypot, (x, y)))
print(gradcheck(lambda a, b: torch.lerp(a, b, 0.3), (x, y)), gradcheck(torch.lerp, (x, y, pos)))
print(gradcheck(lambda a, b: torch.clamp(a, min=b), (x, y)))

# %% test_reductions
for fn in [lambda t: t.prod(), lambda t: t.prod(1), lambda t: t.cumsum(0), lambda t: t.std(), lambda t: t.std(1),
           lambda t: t.var(0, correction=0), lambda t: torch.var_mean(t, 1)[0] + torch.var_mean(t, 1)[1],
           lambda t: torch.std_mean(t, 0)[0] * 2]:
    print(gradcheck(fn, (x,)), gradgradcheck(fn, (x,)))

# %% test_prod_with_zeros
z = leaf([0.0, 2.0, 3.0], [0.0, 0.0, 1.5])
print(gradcheck(lambda t: t.prod(1), (z,)), gradcheck(lambda t: t.prod(), (z,)))

# %% test_indexing_ops
idx = torch.tensor([[0, 3], [2, 2], [1, 0]])
print(gradcheck(lambda t: t.gather(1, idx), (x,)), gradgradcheck(lambda t: t.gather(1, idx), (x,)))
print(gradcheck(lambda t: t.index_select(1, torch.tensor([3, 0, 3])), (x,)))
print(gradcheck(lambda t: t.masked_fill(t > 1, 0.0), (x,)))
print(gradcheck(lambda t: t.sort(1).values, (x,)), gradcheck(lambda t: t.topk(2, dim=0).values, (x,)))

# %% test_shape_ops
for fn in [lambda t: t.flip(1), lambda t: t.roll(1, 0), lambda t: t.roll(3), lambda t: t.repeat(2, 1, 2),
           lambda t: t.tile((1, 2)), lambda t: t.tril(1), lambda t: t.triu(), lambda t: t.diag(),
           lambda t: t.diag(1), lambda t: t[:, :3].trace(), lambda t: t.narrow(1, 1, 2)]:
    print(gradcheck(fn, (x,)), gradgradcheck(fn, (x,)))

# %% test_split_and_unbind
print(gradcheck(lambda t: t.split(2, 1), (x,)), gradcheck(lambda t: t.split([1, 2], 0), (x,)))
print(gradcheck(lambda t: t.chunk(2, 1), (x,)), gradcheck(lambda t: t.unbind(1), (x,)))
print(gradgradcheck(lambda t: t.unbind(0), (x,)))

# %% test_einsum_and_addmm
w = leaf([0.1, -0.2], [0.3, 0.4], [-0.5, 0.6], [0.7, -0.8])
print(gradcheck(lambda a, b: torch.einsum("ij,jk->ik", a, b), (x, w)))
print(gradgradcheck(lambda a, b: torch.einsum("ij,jk->ik", a, b), (x, w)))
print(gradcheck(lambda a: torch.einsum("ij->j", a), (x,)))
bias = leaf([0.5, -0.5])
print(gradcheck(torch.addmm, (bias, x, w)), gradcheck(torch.addmv, (leaf(1.0, 2.0, 3.0), x, leaf(1.0, 0.5, -1.0, 2.0))))

# %% test_graph_of_split
parts = x.split(2, 1)
print(parts[0].grad_fn is parts[1].grad_fn, parts[0].output_nr, parts[1].output_nr)
print(parts[0].grad_fn.name(), parts[0].grad_fn.next_functions)

# %% test_graph_of_var_mean
v, m = torch.var_mean(x, 1)
print(v.grad_fn is m.grad_fn, v.grad_fn.name(), m.output_nr)
m.sum().backward()
print(x.grad)

# %% test_saved_values
t = x.detach().requires_grad_()
out = t.exp2()
print(torch.equal(out.grad_fn._saved_result, out))
out = t.square()
print(out.grad_fn._saved_exponent, torch.equal(out.grad_fn._saved_self, t))
out = t.atan2(t + 5)
print(torch.equal(out.grad_fn._saved_other, t + 5))
out = t.cumsum(1)
print(out.grad_fn._saved_dim)

# %% test_inplace_version_counter
t = x.detach().clone()
print(t._version)
t.exp_()
t.sin_().mul_(2)
t.clamp_min_(0.0)
print(t._version, t[0])

# %% test_inplace_on_view_of_nonleaf
a = x.clone()
a[0].exp_()
a[:, 1].neg_()
print(a.grad_fn.name(), a[0, :2])
a.sum().backward()
print(x.grad[0])
