"""A machine's controller (its "device"): who it is and how it is let in.

- keys: the device key (issued, shown once, replaced, revoked), `authenticate`, `rate_key`, and
  `device_route`, the declaration of a lean device route; `on_key_changed` lets the broker's side
  (sibol/telemetry/mqtt/) follow every key change.
- auth: the calling device of a Flask device route (`X-Device-Key` or `Authorization: Device`)
  and the device request limit on it (sibol/identity/device_rates.py, shared with the lean path
  and MQTT).
- http: the lean path that serves the `device_route`s in front of the app.

What a device sends is the features' business: readings (sibol/telemetry/, SIBOL's own device
API in sibol/telemetry/sibol_api.py), command polls and answers (sibol/commands/device_api.py).
"""
