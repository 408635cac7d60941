def slug(s):
    return "-".join(s.lower().split())
