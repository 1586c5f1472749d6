print("bench-ingest placeholder")
