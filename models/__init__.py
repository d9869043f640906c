"""Shipped detector weights, their model card and the dataset config (data only)."""
