"""Multi-head attention & tensor shapes: placeholder, to be filled."""
from pages.ui.widgets import coming_soon

coming_soon("shapes")
