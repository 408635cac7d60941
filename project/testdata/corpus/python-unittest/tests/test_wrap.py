import unittest

from wordwrap import wrap


class WrapTest(unittest.TestCase):
    def test_fits(self):
        self.assertEqual(wrap("a b c", 10), ["a b c"])

    def test_breaks_at_spaces(self):
        self.assertEqual(wrap("the quick brown fox", 10), ["the quick", "brown fox"])

    def test_a_line_as_wide_as_width(self):
        self.assertEqual(wrap("the quick brown", 9), ["the quick", "brown"])


if __name__ == "__main__":
    unittest.main()
