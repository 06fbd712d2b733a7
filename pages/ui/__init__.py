"""Shared UI code for the pages: i18n, plotly figure builders, Streamlit widgets, data export.

figures/ (one module per concept) and export.py never import Streamlit, so they can be tested on their own.
"""
