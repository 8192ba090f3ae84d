# Assignment 2 with sum_to_shape summing the stretched axes of length 1 away entirely
# (no keepdim), so a gradient for shape (2, 1) comes back with shape (2,).

# %% sum_to_shape
def sum_to_shape(grad, shape):
    shape = tuple(shape)
    added = grad.ndim - len(shape)
    if added > 0:
        grad = grad.sum(dim=tuple(range(added)))
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    if stretched:
        grad = grad.sum(dim=stretched)
    return grad
