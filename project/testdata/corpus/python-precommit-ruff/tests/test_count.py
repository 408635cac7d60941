from tally import count


def test_count():
    assert count("abca") == {"a": 2, "b": 1, "c": 1}
