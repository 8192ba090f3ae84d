# Assignment 2 with the adjoint of broadcasting taken as a mean instead of a sum.

# %% sum_to_shape
def sum_to_shape(grad, shape):
    shape = tuple(shape)
    added = grad.ndim - len(shape)
    if added > 0:
        grad = grad.mean(dim=tuple(range(added)))
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    if stretched:
        grad = grad.mean(dim=stretched, keepdim=True)
    return grad
