"""Bots for Bao Qing-tian trial 包青天審案."""
