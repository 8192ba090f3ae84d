# Assignment 3 with a correct but recursive depth-first order: right on small graphs (the visible
# tests pass), but a chain of 10,000 nodes exceeds Python's recursion limit (a hidden test).

# %% topological_order
def topological_order(root):
    post, seen = [], set()

    def visit(node):
        seen.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                visit(child)
        post.append(node)

    visit(root)
    return post[::-1]
