"""Solved when total.txt holds the north region's total, with two decimals."""

import csv
import os
import sys
from decimal import Decimal
from pathlib import Path

template = Path(os.environ["GG_STUDY_DIR"]) / "tasks" / "csv-total" / "workspace" / "sales.csv"
with template.open(newline="") as sales:
    wanted = sum(Decimal(row["amount"]) for row in csv.DictReader(sales) if row["region"] == "north")
found = Path("total.txt").read_text().strip()
if found != f"{wanted:.2f}":
    sys.exit(f"total.txt holds {found!r}, wanted {wanted:.2f}")
print("total.txt is right")
