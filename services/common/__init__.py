"""What every part of the services stands on: the clock, settings, errors, the ports to the layers
above, the SQL gateway, the event store, leases, the one viewer rule and the date rules."""
