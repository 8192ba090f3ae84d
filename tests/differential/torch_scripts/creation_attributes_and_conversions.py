# Tensor attributes and conversions as data-preparation cells use them.
import torch

x = torch.arange(6.0).reshape(2, 3)

# %% sizes and layout
print(x.size(), x.size(1), x.size(-1), x.shape[0], x.dim(), x.ndim, x.numel(), x.nelement(), len(x))
print(x.is_contiguous(), x.t().is_contiguous(), x.stride() if hasattr(x, "stride") else "", x.element_size(), x.nbytes, x.itemsize)
print(x.device, x.is_cuda, x.cpu() is x, x.to("cpu") is x, x.dtype, x.type(), x.long().type(), x.is_floating_point())

# %% conversions
print(x.to(torch.int32).dtype, x.long(), x.int().dtype, x.bool(), x.half().dtype, x.double().dtype, x.float() is x)
print(x.type(torch.int64).dtype, x.type("torch.DoubleTensor").dtype, x.to(torch.tensor([1], dtype=torch.int16)).dtype)
print(torch.tensor([1.7, -1.7]).long(), torch.tensor([0.0, 0.5, 2.0]).bool(), torch.tensor([300.0]).to(torch.uint8))
print(torch.tensor([2.5, 3.5, -2.5]).round(), torch.tensor([1.23456]).round(decimals=2), torch.tensor([1e10]).int())

# %% items and lists
print(torch.tensor(3.5).item(), type(torch.tensor(3).item()), torch.tensor([True]).item(), torch.tensor([[1.5]]).item())
print(x.tolist(), torch.tensor(2.0).tolist(), torch.tensor([1, 2], dtype=torch.uint8).tolist(), torch.tensor(1, dtype=torch.float16).item())

# %% new_* and *_like
print(x.new_tensor([1, 2]).dtype, x.new_ones(2).dtype, x.new_zeros((1, 2)), x.new_full((2,), 7).dtype, x.new_empty(0).shape)
print(torch.zeros_like(x, dtype=torch.long), torch.ones_like(x).dtype, torch.full_like(x, 2.5), torch.rand_like(x).shape)

# %% the T of other dims
print(x.T.shape, x.mT.shape, torch.zeros(2, 3, 4).mT.shape, torch.zeros(3).T.shape)

# %% mistakes: item of many
x.item()

# %% mistakes: a device that is not there
x.cuda()

# %% mistakes: len of a 0-d tensor
len(torch.tensor(1.0))

# %% mistakes: size of a dim out of range
x.size(2)
