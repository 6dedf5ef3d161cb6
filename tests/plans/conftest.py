import sys
from pathlib import Path

# The helpers next to these tests (goldens, decoding) import as plain modules.
sys.path.insert(0, str(Path(__file__).parent))
