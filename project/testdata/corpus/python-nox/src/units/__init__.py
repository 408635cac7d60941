def km(m: float) -> float:
    return m / 1000
