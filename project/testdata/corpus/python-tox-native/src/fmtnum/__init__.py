def group(n: int) -> str:
    return f"{n:,}"
