"""The numbers the impact method uses, with their sources (docs/impact.md explains each).

Methane a kilogram of food waste would emit in an unmanaged dump: the IPCC 2006 Guidelines,
Volume 5, Chapter 3 (the Waste Model's first-order decay), summed over the waste's whole decay:
    W x DOC x DOCf x MCF x F x 16/12 x (1 - OX)
with the defaults for food waste (wet weight) in an uncategorised disposal site.
"""

from __future__ import annotations

DOC_FOOD = 0.15  # degradable organic carbon of food waste, wet weight (Table 2.4)
DOC_F = 0.5  # fraction of that carbon which decomposes (section 3.2.3)
MCF_UNCATEGORISED = 0.6  # methane correction factor, uncategorised dump (Table 3.1)
F_METHANE = 0.5  # fraction of methane in landfill gas (section 3.2.3)
CH4_PER_C = 16 / 12  # molecular weight ratio
OX_UNMANAGED = 0.0  # oxidation factor of an unmanaged site (Table 3.2)

# kg of methane one kg of food waste emits over its decay in the dump (0.03).
CH4_PER_KG_WASTE = DOC_FOOD * DOC_F * MCF_UNCATEGORISED * F_METHANE * CH4_PER_C * (1 - OX_UNMANAGED)

# Global-warming potential of methane over 100 years: IPCC AR5 (WG1, Table 8.7), the values the
# Paris Agreement's transparency framework asks parties to report with.
GWP_CH4 = 28

# Philippine grid: kg CO2 per kWh, the Luzon-Visayas grid's simple operating margin for
# 2015-2017 (DOE, National Grid Emission Factor), the plants a small generator's output displaces.
GRID_KG_CO2_PER_KWH = 0.7122
