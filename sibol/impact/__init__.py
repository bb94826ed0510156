"""The programme's impact: food waste diverted, biogas energy, methane and CO2e avoided.

One definition of each figure for a household, an area, a barangay and the city over any period;
every page that shows these figures calls impact.service. The method is in docs/impact.md.
"""
