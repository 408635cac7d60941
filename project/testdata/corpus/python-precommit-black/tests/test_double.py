import unittest

from pkg import double


class T(unittest.TestCase):
    def test_double(self):
        self.assertEqual(double(2), 4)
