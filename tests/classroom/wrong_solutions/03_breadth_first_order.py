# Assignment 3 with a breadth-first walk as the "topological" order: each node once, but a node
# reached early by a short path comes before the nodes of a longer path that also lead to it.

# %% topological_order
def topological_order(root):
    order, seen = [root], {root}
    for node in order:
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                order.append(child)
    return order
