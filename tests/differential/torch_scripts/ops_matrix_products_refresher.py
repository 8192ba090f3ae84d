# Matrix products in all their shapes, as a linear-algebra refresher cell tries them.
import torch

torch.manual_seed(0)
v3, v4 = torch.randn(3), torch.randn(4)
A = torch.randn(4, 3)
B = torch.randn(2, 3, 5)
C = torch.randn(2, 5, 3)

# %% shapes of matmul
for a, b in [(v3, v3), (A, v3), (v4, A), (A, A.t()), (B, torch.randn(5)), (torch.randn(3), B), (B, C), (A, B), (torch.randn(1, 4, 3), torch.randn(2, 3, 2))]:
    print(tuple(a.shape), tuple(b.shape), tuple((a @ b).shape))

# %% the named products
print(torch.dot(v3, v3).shape, torch.mv(A, v3).shape, torch.mm(A, A.t()).shape, torch.bmm(B, C).shape, torch.outer(v3, v4).shape)
print(torch.einsum("ij,j->i", A, v3).shape, torch.einsum("bij,bjk->bik", B, C).shape, torch.einsum("i,i->", v3, v3).shape)
# (einsum with a repeated letter in one operand, "ii->i", and einsum's graph are documented differences.)
print(torch.einsum("ij->ji", A).shape, torch.einsum("ij,kj->ik", A, A).shape)

# %% gradients of products
Aw = A.clone().requires_grad_()
vw = v3.clone().requires_grad_()
(Aw @ vw).sum().backward()
print(Aw.grad.shape, torch.allclose(vw.grad, A.sum(0)), (Aw @ vw).grad_fn, (vw @ vw).grad_fn, (B @ C).grad_fn)
Bw = B.clone().requires_grad_()
(Bw @ torch.randn(5)).sum().backward()
print(Bw.grad.shape, torch.bmm(Bw, C).grad_fn)

# %% integer and mixed dtypes
I = torch.arange(6).reshape(2, 3)
print(I @ I.t(), (I.float() @ A.t()).dtype)

# %% mistakes: inner sizes differ
A @ torch.randn(4)

# %% mistakes: mm of batched tensors
torch.mm(B, C)

# %% mistakes: bmm of 2-d tensors
torch.bmm(A, A.t())

# %% mistakes: dot of different lengths
torch.dot(v3, v4)

# %% mistakes: matmul of a 0-d tensor
torch.tensor(2.0) @ v3

# %% mistakes: mixed dtypes
A @ I.t()

# %% mistakes: batch sizes that do not broadcast
torch.randn(2, 4, 3) @ torch.randn(3, 3, 2)
