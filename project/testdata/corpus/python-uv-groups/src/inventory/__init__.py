def total(items):
    return sum(n for _, n in items)
