"""Bots for Baohuang 保皇."""
