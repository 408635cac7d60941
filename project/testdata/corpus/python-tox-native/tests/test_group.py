from fmtnum import group


def test_group():
    assert group(1234567) == "1,234,567"
