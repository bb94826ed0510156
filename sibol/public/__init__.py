"""The public pages: a barangay's page (/b/<slug>) and its poster, the city's (/city/public), and
their JSON (/api/public/barangays/<slug>). No sign-in; no resident's name without consent."""
