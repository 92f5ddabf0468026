"""What more than one folder of tests uses: pytest plugins of fixtures, loaded by the root
conftest (`tests/conftest.py`). The simulation they set up lives in `testing`."""
