"""TEI, the Tak Engine Interface: codec, engine host, engine driver, compliance check, CLI."""
