def count(items):
    """How many times each item occurs."""
    out = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out
