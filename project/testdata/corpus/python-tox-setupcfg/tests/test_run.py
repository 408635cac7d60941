from inirun import run


def test_run():
    assert run() == 0
