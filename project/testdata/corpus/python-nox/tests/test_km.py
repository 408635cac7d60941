from units import km


def test_km():
    assert km(1500) == 1.5
