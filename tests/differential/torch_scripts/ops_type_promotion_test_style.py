# Type promotion as PyTorch's tests check it: 0-d tensors and Python numbers take part by category,
# not by dtype; results of comparisons, division and special values.
import torch

f32 = torch.tensor([1.0, 2.0])
f64 = torch.tensor([1.0, 2.0], dtype=torch.float64)
i64 = torch.tensor([1, 2])
i32 = torch.tensor([1, 2], dtype=torch.int32)
u8 = torch.tensor([1, 2], dtype=torch.uint8)
b = torch.tensor([True, False])

# %% 0-d tensors do not promote within a category
print((f32 + torch.tensor(1.0, dtype=torch.float64)).dtype, (i32 + torch.tensor(1)).dtype, (u8 + torch.tensor(300)).dtype)
print((i64 + torch.tensor(1.5)).dtype, (b + torch.tensor(2)).dtype, (i32 * torch.tensor(2.0, dtype=torch.float64)).dtype)
print((torch.tensor(1.0, dtype=torch.float64) + torch.tensor(1)).dtype, (torch.tensor(1) + torch.tensor(1.0)).dtype)

# %% Python numbers
print((i32 + 1).dtype, (i32 + 1.5).dtype, (u8 * 2).dtype, (b + 1).dtype, (b * 1.5).dtype, (f32 * True).dtype)
print((u8 + 300), (i32 / 2).dtype, (i64 // 2).dtype, (i64 ** 2).dtype, (i64 ** 0.5).dtype, (2 ** i64).dtype)
print((1.5 ** i64).dtype, (u8 - 3), (i32 - 1.0).dtype)

# %% dimensioned tensors promote
print((f32 + f64).dtype, (i32 + i64).dtype, (u8 + i32).dtype, (b + u8).dtype, (b + b).dtype, (i64 + f32).dtype)
print(torch.result_type(i32, 1.0), torch.result_type(u8, torch.tensor(5)), torch.promote_types(torch.int32, torch.float32))

# %% comparisons and logic
print(i64 == f32, (i64 < 1.5), (b == 1), (u8 > -1), torch.eq(f32, 1), (f32 != torch.tensor(2.0)).dtype)
print(torch.maximum(i32, f32).dtype, torch.where(b, i32, 2.5).dtype, torch.where(b, 1, 0).dtype, torch.clamp(i64, 0.5).dtype)

# %% special values
s = torch.tensor([0.0, -0.0, 1.0, -1.0, float("inf"), float("nan")])
print(1 / s, s.sqrt(), s.log(), s.exp(), s.sign(), s.abs())
print(torch.tensor([0.0]) / torch.tensor([0.0]), torch.tensor([1, -1]) // torch.tensor([0, 0]).float())
print(s.tanh(), s.sigmoid(), s.relu(), torch.nan_to_num(s), s.clamp(-1, 1), s.round())

# %% integer division by zero
torch.tensor([1, 2]) // torch.tensor([0, 1])

# %% in-place results that cannot be stored
i = torch.tensor([1, 2])
i += 1.5

# %% in-place results that can
j = torch.tensor([1.0, 2.0])
j += torch.tensor([1, 2])
j *= 2
print(j, j.dtype)
k = torch.tensor([1, 2], dtype=torch.int32)
k += torch.tensor(3)
print(k, k.dtype)
