"""Commands to a machine's controller: queued by a person, taken by the device, answered by it."""
