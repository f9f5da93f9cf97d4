// Temporary (eng branch): the typed values now come from NANWire; sys owns the real fix.
@_exported public import NANWire
