"""What other features use of devices: the one module they import it through.

Telemetry, commands and SIBOL's own device API stand on a machine's controller being known by its
key; the work lives in the modules named beside each name (keys: issuing, revoking and checking
a key and declaring a lean device route; auth: the calling device of a Flask device route and its
request limit; http: what a lean device handler reads).
"""

from __future__ import annotations

from .auth import calling_device as calling_device
from .auth import device_rate_limit as device_rate_limit
from .http import DeviceRequest as DeviceRequest
from .keys import Device as Device
from .keys import authenticate as authenticate
from .keys import device_route as device_route
from .keys import device_states as device_states
from .keys import forget as forget
from .keys import issue_key as issue_key
from .keys import on_key_changed as on_key_changed
from .keys import revoke_key as revoke_key
