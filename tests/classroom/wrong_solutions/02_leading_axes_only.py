# Assignment 2 with sum_to_shape summing only the leading axes broadcasting added, forgetting the
# axes of length 1 that it stretched.

# %% sum_to_shape
def sum_to_shape(grad, shape):
    shape = tuple(shape)
    added = grad.ndim - len(shape)
    if added > 0:
        grad = grad.sum(dim=tuple(range(added)))
    return grad
