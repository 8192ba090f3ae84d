# Shape ops at their edges, PyTorch-test style: results, views or copies, and error messages.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)

# %% split, chunk, unbind, tensor_split
print([t.shape for t in x.split(2, dim=2)], [t.shape for t in x.split([1, 2], dim=1)], [t.shape for t in x.chunk(3, dim=2)])
print([t.shape for t in x.chunk(5, dim=1)], [t.shape for t in x.unbind(1)], [t.shape for t in x.tensor_split(3, dim=2)])
print([t.shape for t in x.tensor_split([1, 3], dim=2)], [t.shape for t in torch.split(x, 5, dim=2)])

# %% squeeze, unsqueeze, flatten, unflatten, movedim
y = torch.zeros(1, 3, 1, 2)
print(y.squeeze().shape, y.squeeze(0).shape, y.squeeze(1).shape, y.squeeze((0, 2)).shape, y.unsqueeze(-1).shape)
print(x.flatten().shape, x.flatten(1).shape, x.flatten(0, 1).shape, x.flatten(-2, -1).shape, torch.tensor(3.0).flatten().shape)
print(x.unflatten(2, (2, 2)).shape, x.unflatten(-1, (-1, 2)).shape, x.movedim(0, -1).shape, x.movedim((0, 1), (2, 0)).shape)

# %% repeat, tile, expand, flip, roll
r = torch.tensor([[1, 2], [3, 4]])
print(r.repeat(2, 1), r.repeat(1, 2, 1).shape, r.tile(2), r.tile((2, 1, 1)).shape, r.expand(2, 2, 2).shape)
print(r.flip(0), r.flip((0, 1)), r.roll(1), r.roll(1, 0), r.roll((1, 1), (0, 1)), r.fliplr() if hasattr(r, "fliplr") else "")

# %% cat and stack
print(torch.cat([r, r], 1), torch.cat([r, torch.zeros(0, 2, dtype=torch.long)]), torch.cat([torch.zeros(0), torch.ones(2)]))
print(torch.stack([r, r], -1).shape, torch.stack([torch.tensor(1.0), torch.tensor(2.0)]), torch.hstack([r, r]).shape, torch.vstack([r[0], r[1]]))
print(torch.cat([r, r.float()]).dtype, torch.stack([r, r.double()]).dtype)

# %% views or copies
base = torch.arange(6.0)
for name, v in [("view", base.view(2, 3)), ("reshape", base.reshape(3, 2)), ("t().reshape", base.view(2, 3).t().reshape(6)),
                ("flatten of contiguous", base.view(2, 3).flatten()), ("contiguous", base.view(2, 3).t().contiguous()),
                ("narrow", base.narrow(0, 1, 3)), ("unflatten", base.unflatten(0, (2, 3))), ("expand", base[:1].expand(3))]:
    print(name, v._base is base, v.is_contiguous())

# %% error: view of a non-contiguous tensor
x.transpose(0, 1).view(-1)

# %% error: reshape to a wrong size
x.reshape(5, -1)

# %% error: two -1
x.view(-1, -1)

# %% error: split sizes that do not add up
x.split([1, 1], dim=1)

# %% error: cat of different ranks
torch.cat([torch.zeros(2, 2), torch.zeros(2)])

# %% error: stack of different shapes
torch.stack([torch.zeros(2), torch.zeros(3)])

# %% error: permute with a repeated dim
x.permute(0, 0, 1)

# %% error: squeeze a dim out of range
y.squeeze(4)

# %% error: movedim with a repeated dim
x.movedim((0, 0), (1, 2))

# %% error: unflatten sizes that do not multiply out
x.unflatten(2, (3, 2))

# %% error: chunk of zero
x.chunk(0)

# %% error: repeat with fewer dims
r.repeat(2)
