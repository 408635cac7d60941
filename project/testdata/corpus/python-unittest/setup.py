from setuptools import setup

setup(name="wordwrap", version="1.0", packages=["wordwrap"])
